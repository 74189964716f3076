"""Significance over many datasets: the paired bootstrap of `corefwb compare`, stratified by dataset.

The same test as metrics.statistics.significance (Koehn 2004's paired bootstrap, two-sided,
p = (1 + #{|d_b - mean(d)| >= |d|}) / (1 + B)), resampling documents with replacement.  Over
datasets, each dataset's documents are resampled within the dataset (a dataset keeps its size:
strata), so that a resample of the macro-average is the mean of the datasets' resampled values,
as the macro-average is the mean of their values.  One generator, seeded, draws the datasets'
weights in dataset order for the macro-average, and the same weights serve every system (paired):
the same seed gives the same p-values, byte for byte.  A dataset's own p-value takes its draws
from a generator of its own, seeded as `corefwb compare` seeds its one: so it is the p-value
`compare` gives that dataset's files, whatever datasets come before it in the run (from the
macro's one stream, a dataset's resamples, and its `*`, depended on the sizes of the datasets
before it).

A dataset value is the F1 of summed counts, as the official corpus score is: CoNLL F1 the mean
of the MUC, B3 and CEAFe F1 of the resampled documents' summed counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from metrics.corpus.scoring import CorpusResult
from metrics.statistics.crac import DatasetResult
from metrics.measures.catalog import CONLL, METRICS, Metric
from metrics.measures.score import harmonic, ratio
from metrics.statistics.significance import Method, block_sizes, p_value


@dataclass(frozen=True)
class DatasetTests:
    """One system against the first: a p-value per dataset and one for the macro-average (None
    where a dataset has fewer than two documents, or, for the macro-average, none has)."""

    datasets: list[float | None]
    macro: float | None


def _parts(metric: Metric) -> tuple[str, ...]:
    """The metrics whose counts a metric's value comes from (CoNLL: MUC, B3, CEAFe)."""
    return tuple(METRICS[part].name for part in metric.parts) or (metric.name,)


def _counts(result: CorpusResult | None, parts: tuple[str, ...], documents: int) -> np.ndarray:
    """Documents x (4 counts per part): recall num/den, precision num/den (zeros when missing)."""
    if result is None:
        return np.zeros((documents, 4 * len(parts)))
    rows = [[c for part in parts for c in (s[part].recall_num, s[part].recall_den,
                                           s[part].precision_num, s[part].precision_den)]
            for _, s in result.documents]
    return np.array(rows, dtype=np.float64).reshape(documents, 4 * len(parts))


def _values(sums: np.ndarray, parts: int) -> np.ndarray:
    """The mean over parts of the F1 of each row of summed counts."""
    total = np.zeros(len(sums))
    for i in range(parts):
        recall = ratio(sums[:, 4 * i], sums[:, 4 * i + 1])
        precision = ratio(sums[:, 4 * i + 2], sums[:, 4 * i + 3])
        total = total + harmonic(recall, precision)
    return total / parts


def dataset_tests(systems: Sequence[Sequence[DatasetResult]], variant: str, metric: Metric = CONLL,
                  method: Method = Method()) -> list[DatasetTests]:
    """For systems[1:], the paired bootstrap against systems[0] on each dataset and on the
    macro-average, under `variant` (all systems on the same datasets, in the same order)."""
    parts = _parts(metric)
    datasets = len(systems[0])
    sizes = []
    for d in range(datasets):
        present = [s[d].variants[variant] for s in systems if s[d].variants is not None]
        sizes.append(len(present[0].documents) if present else 0)
    rng = np.random.default_rng(method.seed)
    drawn: list[list[np.ndarray]] = [[] for _ in systems]  # per system, per dataset: the macro's resample values
    alone: list[list[np.ndarray]] = [[] for _ in systems]  # the same from the dataset's own generator
    for d, n in enumerate(sizes):
        matrices = [_counts(s[d].variants[variant] if s[d].variants is not None else None, parts, n) for s in systems]
        for generator, into in ((rng, drawn), (np.random.default_rng(method.seed), alone)):
            for s, values in enumerate(_resampled(matrices, n, len(parts), method.resamples, generator)):
                into[s].append(values)
    out = []
    for s in range(1, len(systems)):
        per_dataset: list[float | None] = []
        for d, n in enumerate(sizes):
            observed = systems[s][d].value(variant, metric) - systems[0][d].value(variant, metric)
            per_dataset.append(_test(alone[s][d] - alone[0][d], observed) if n >= 2 else None)
        macro_deltas = (np.mean(drawn[s], axis=0) - np.mean(drawn[0], axis=0)) if datasets else np.zeros(0)
        observed = (sum(r.value(variant, metric) for r in systems[s]) - sum(r.value(variant, metric) for r in systems[0])) / max(datasets, 1)
        out.append(DatasetTests(per_dataset, _test(macro_deltas, observed) if any(n >= 2 for n in sizes) else None))
    return out


def _resampled(matrices: Sequence[np.ndarray], n: int, parts: int, resamples: int,
               rng: np.random.Generator) -> list[np.ndarray]:
    """Each system's value under `resamples` draws of a dataset's `n` documents, the same draws
    for every system (paired), in the blocks `compare` draws them in (so one seed, one order)."""
    values: list[list[np.ndarray]] = [[] for _ in matrices]
    for size in block_sizes(resamples, max(n, 1)):
        weights = rng.multinomial(n, np.full(n, 1.0 / n), size=size).astype(np.float64) if n else np.zeros((size, 0))
        for s, matrix in enumerate(matrices):
            values[s].append(_values(weights @ matrix, parts))
    return [np.concatenate(parts_of) for parts_of in values]


def _test(deltas: np.ndarray, observed: float) -> float:
    """The paired bootstrap's p-value: resampled differences shifted to mean 0 against the observed."""
    return p_value(np.abs(deltas - deltas.mean()) if len(deltas) else deltas, observed)

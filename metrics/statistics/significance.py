"""Confidence intervals and significance tests over documents, for one system or N against a baseline.

Why it is cheap: every metric's corpus value (micro-averaged, as the official scorer does) is a
function of counts summed over documents.  So a resampled corpus is a weighted sum of the
per-document count vectors the engine already has, and a thousand resamples are one matrix
product (weights x documents times documents x counts); their values are computed at once by the
score classes themselves, which accept arrays (metrics.measures.score).  Nothing is rescored.

The methods, all over documents (the unit that is independent in a corpus; see the README for when
that holds):
- intervals: the percentile bootstrap (Efron & Tibshirani 1993): resample the documents with
  replacement, take the corpus value of each resample, report the (1 - c)/2 and (1 + c)/2
  quantiles.  The same resamples serve every system (paired), so differences have intervals too.
- paired bootstrap test (Koehn 2004; sacrebleu's paired-bs): the differences of the resamples,
  shifted to mean 0 (the null hypothesis), against the observed difference:
  p = (1 + #{|d_b - mean(d)| >= |d|}) / (1 + B).  Two-sided.
- approximate randomization (Noreen 1989; sacrebleu's paired-ar): in each trial every document's
  counts are swapped between the two systems with probability 1/2;
  p = (1 + #{|v(A_t) - v(B_t)| >= |d|}) / (1 + T).
Both count ties (>=), so a system against itself has p = 1 (sacrebleu's strict > gives 1/(1+B)).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, is_dataclass

import numpy as np

from metrics.measures import catalog
from metrics.corpus.scoring import CorpusResult

DEFAULT_RESAMPLES = 1000
DEFAULT_TRIALS = 10_000
DEFAULT_SEED = 12345
DEFAULT_CONFIDENCE = 0.95
_BLOCK = 4_000_000
"""Resample weights held at once (resamples x documents): memory stays bounded on huge corpora."""


@dataclass(frozen=True)
class Method:
    """How uncertainty is estimated: written into every output, so a number can be reproduced."""

    resamples: int = DEFAULT_RESAMPLES
    confidence: float = DEFAULT_CONFIDENCE
    seed: int = DEFAULT_SEED
    test: str = "bootstrap"
    """"bootstrap" (paired bootstrap) or "ar" (approximate randomization) for the p-values."""
    trials: int = DEFAULT_TRIALS
    """Approximate randomization trials (with test="ar")."""

    def __post_init__(self) -> None:
        if not 1 <= self.resamples <= 10_000_000:
            raise ValueError("resamples must be between 1 and 10,000,000")
        if not 0 < self.confidence < 1:
            raise ValueError("confidence must be between 0 and 1 (e.g. 0.95)")
        if self.test not in ("bootstrap", "ar"):
            raise ValueError(f"unknown test {self.test!r}: bootstrap or ar")
        if not 1 <= self.trials <= 10_000_000:
            raise ValueError("trials must be between 1 and 10,000,000")
        if self.seed < 0:  # numpy's generators take no negative seed (a traceback deep in the resampling)
            raise ValueError(f"seed must be 0 or more, not {self.seed}")

    def to_json(self, tested: bool = True) -> dict:
        """What ran, to reproduce it; `tested` False where no difference was tested (one system:
        `score --ci` gives intervals only), so no test is named as if it had run."""
        out = {"unit": "document", "interval": "percentile bootstrap", "resamples": self.resamples,
               "confidence": self.confidence, "seed": self.seed,
               **({"test": "paired bootstrap (Koehn 2004)" if self.test == "bootstrap"
                   else "approximate randomization (Noreen 1989)"} if tested else {}),
               "averaging": "micro (counts summed over the resampled documents, as the official score)"}
        if tested and self.test == "ar":
            out["trials"] = self.trials
        return out


@dataclass(frozen=True)
class Interval:
    low: float
    high: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


@dataclass(frozen=True)
class Difference:
    """A system's corpus value minus the baseline's, with its interval and p-value."""

    value: float
    interval: Interval
    p_value: float | None
    """None with fewer than two documents: resampling one document shows no variation at all."""


@dataclass
class Comparison:
    """Corpus values (F1; the ACE-value for it) of N systems, intervals, differences to system 0."""

    metrics: tuple[str, ...]
    values: list[dict[str, float]]
    intervals: list[dict[str, Interval]]
    differences: list[dict[str, Difference]]
    """One dict per system after the baseline (systems[1:])."""
    method: Method
    documents: int

    def significant(self, system: int, metric: str) -> bool:
        """Whether system (>= 1) differs from the baseline at the method's level (p < 1 - c)."""
        p = self.differences[system - 1][metric].p_value
        return p is not None and p < 1 - self.method.confidence


# ------------------------------------------------------------------------ counts and values


def _flat(score) -> list[float]:
    """A score's counts, all the way down its fields (Score, BlancScore, AnchorScore, AceScore)."""
    out: list[float] = []
    for f in fields(score):
        value = getattr(score, f.name)
        out.extend(_flat(value) if is_dataclass(value) else [float(value)])
    return out


def _rebuild(template, columns: np.ndarray, start: int = 0):
    """A score like `template` whose counts are columns of `columns` (arrays, one entry per row)."""
    values = []
    for f in fields(template):
        value = getattr(template, f.name)
        if is_dataclass(value):
            value, start = _rebuild(value, columns, start)
        else:
            value, start = columns[:, start], start + 1
        values.append(value)
    return type(template)(*values), start


class _Counts:
    """Per-document count vectors of the metrics (and the parts a combined metric needs) of one
    system, and the corpus value of any weighted sum of documents."""

    def __init__(self, result: CorpusResult, metrics: Sequence[str]) -> None:
        self.parts = catalog.with_parts(metrics)
        self.templates = {}
        self.matrices = {}
        documents = [scores for _, scores in result.documents]
        for name in self.parts:
            if catalog.METRICS[name].parts:
                continue
            rows = [_flat(scores[name]) for scores in documents]
            self.templates[name] = documents[0][name]
            self.matrices[name] = np.array(rows, dtype=np.float64).reshape(len(documents), -1)

    def values(self, weights: np.ndarray, metric: str, swap: tuple[np.ndarray, _Counts] | None = None) -> np.ndarray:
        """The metric's corpus value under each row of document weights (rows x documents).

        `swap` = (mask, other): where the mask is set, a document's counts come from the other
        system instead (approximate randomization)."""
        scores = {}
        for name in catalog.with_parts([metric]):
            if catalog.METRICS[name].parts:
                continue
            if swap is None:
                sums = weights @ self.matrices[name]
            else:
                mask, other = swap
                sums = (weights * ~mask) @ self.matrices[name] + (weights * mask) @ other.matrices[name]
            scores[name] = _rebuild(self.templates[name], sums)[0]
        spec = catalog.METRICS[metric]
        value = spec.combine(scores) if spec.parts else scores[metric]
        return np.asarray(value.f1, dtype=np.float64)


def block_sizes(total: int, documents: int) -> list[int]:
    size = max(1, _BLOCK // max(documents, 1))
    return [min(size, total - start) for start in range(0, total, size)]


def corpus_value(result: CorpusResult, metric: str) -> float:
    """The official corpus value of a metric: its micro F1 (the ACE-value for the ACE-value)."""
    return float(result.micro[metric].f1)


def compare(results: Sequence[CorpusResult], metrics: Sequence[str], method: Method = Method()) -> Comparison:
    """Intervals for every system and, for systems[1:], differences to systems[0] with p-values.

    Every result must come from the same key documents in the same order (a session's corpora)
    and hold per-document scores of the metrics and of their parts."""
    names = [name for name, _ in results[0].documents]
    for result in results[1:]:
        if [name for name, _ in result.documents] != names:
            raise ValueError("the systems were scored on different documents")
    n_docs = len(names)
    metrics = tuple(metrics)
    counts = [_Counts(result, metrics) for result in results] if n_docs else []
    values = [{m: corpus_value(result, m) for m in metrics} for result in results]
    rng = np.random.default_rng(method.seed)
    samples: list[dict[str, list[np.ndarray]]] = [{m: [] for m in metrics} for _ in results]
    if n_docs:
        for size in block_sizes(method.resamples, n_docs):
            weights = rng.multinomial(n_docs, np.full(n_docs, 1.0 / n_docs), size=size).astype(np.float64)
            for system, count in enumerate(counts):
                for m in metrics:
                    samples[system][m].append(count.values(weights, m))
    drawn = [{m: np.concatenate(parts) if parts else np.zeros(0) for m, parts in system.items()} for system in samples]
    alpha = 1 - method.confidence
    intervals = [{m: _interval(drawn[s][m], values[s][m], alpha) for m in metrics} for s in range(len(results))]
    differences = []
    for s in range(1, len(results)):
        by_metric = {}
        for m in metrics:
            observed = values[s][m] - values[0][m]
            deltas = drawn[s][m] - drawn[0][m]
            if n_docs < 2:
                p = None
            elif method.test == "bootstrap":
                p = p_value(np.abs(deltas - deltas.mean()) if len(deltas) else deltas, observed)
            else:
                p = _randomization(counts[0], counts[s], m, observed=observed, trials=method.trials, n_docs=n_docs,
                                   rng=np.random.default_rng([method.seed, s]))
            by_metric[m] = Difference(observed, _interval(deltas, observed, alpha), p)
        differences.append(by_metric)
    return Comparison(metrics, values, intervals, differences, method, n_docs)


def _interval(samples: np.ndarray, fallback: float, alpha: float) -> Interval:
    if not len(samples):
        return Interval(fallback, fallback)
    low, high = np.quantile(samples, [alpha / 2, 1 - alpha / 2])
    return Interval(float(low), float(high))


def p_value(statistics: np.ndarray, observed: float) -> float:
    """(1 + how many statistics reach the observed difference) / (1 + how many there are)."""
    return float((1 + np.count_nonzero(statistics >= abs(observed))) / (1 + len(statistics)))


def _randomization(a: _Counts, b: _Counts, metric: str, *, observed: float, trials: int, n_docs: int,
                   rng: np.random.Generator) -> float:
    """Approximate randomization: swap each document's counts between the systems at random."""
    if not n_docs:
        return 1.0
    statistics = []
    for size in block_sizes(trials, n_docs):
        mask = rng.integers(0, 2, size=(size, n_docs)).astype(bool)
        ones = np.ones((size, n_docs))
        statistics.append(np.abs(a.values(ones, metric, (mask, b)) - b.values(ones, metric, (mask, a))))
    return p_value(np.concatenate(statistics), observed)

"""The CRAC shared task's report: systems scored on every dataset in the four settings its overview
papers print, and the macro-average over datasets by which the task ranks them.

What CRAC does (its overview papers, 2022-2025, and corefud-scorer's README): corefud-scorer is
run once per dataset, with `-m muc bcub ceafe zero`; a dataset's CoNLL F1 is the mean of MUC, B3
and CEAFe F1, micro-averaged over its documents; the primary score is the plain mean of the
datasets' CoNLL F1 (every dataset counts the same, whatever its size), with head match and
singletons removed.  The papers add partial match, exact match, and head match with singletons.
Here each dataset's files are read once and scored in all four on the engine's one road (the
CorefUD convention's reading and preparing, `metrics.conventions.corefud`, per variant, so every
number is the one corefud-scorer prints for that dataset and setting); the means are summed in
dataset order.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from metrics.conventions.base import Progress, Read
from metrics.conventions.options import COREFUD
from metrics.conventions.registry import convention
from metrics.corpus.scoring import CorpusResult
from metrics.formats.cache import ReadCache
from metrics.formats.datasets import Layout
from metrics.measures.catalog import BCUB, CEAFE, CONLL, MUC, ZERO, Metric
from metrics.measures.score import mean
from metrics.runtime.parallel import fork_each

if TYPE_CHECKING:  # the CorefUD convention's own code is loaded when a report runs, not with the command line
    from metrics.conventions.nodes import Settings

VARIANTS = ("head", "partial", "exact", "with_singletons")
"""The four settings, the primary first."""
PRIMARY = "head"
METRICS: tuple[Metric, ...] = (MUC, BCUB, CEAFE, ZERO)
"""What CRAC participants run (`-m muc bcub ceafe zero`); CoNLL F1 comes from the first three."""


def variant_settings(variant: str, zero_match: str = "dependency") -> Settings:
    """corefud-scorer's options of a variant: `-a head`, `-a partial`, `-a exact`, `-a head -s`."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}: one of {', '.join(VARIANTS)}")
    from metrics.conventions.nodes import Settings

    match = "head" if variant == "with_singletons" else variant
    return Settings(match, variant == "with_singletons", zero_match)


@dataclass(frozen=True)
class DatasetResult:
    """One system on one dataset: a corpus result per variant, or None when the system has no
    file for the dataset (counted as 0 under --allow-missing)."""

    dataset: str
    variants: dict[str, CorpusResult] | None

    @property
    def missing(self) -> bool:
        return self.variants is None

    def value(self, variant: str, metric: Metric = CONLL) -> float:
        """The dataset's F1 of `metric` (CoNLL F1 by default) under `variant`; 0 when missing."""
        if self.variants is None:
            return 0.0
        return float(self.variants[variant].micro[metric.name].f1)


def variants_of(variants: Sequence[str] = VARIANTS, zero_match: str = "dependency") -> dict[str, Settings]:
    """The named variants' settings, for `score_dataset`."""
    return {v: variant_settings(v, zero_match) for v in variants}


def score_dataset(name: str, key: Read, key_path: str, responses: Sequence[tuple[str, Callable[[], Read]] | None], *,
                  settings: Mapping[str, Settings], metrics: Sequence[Metric] = METRICS) -> list[DatasetResult]:
    """Every system on one dataset: each response (its path and how to read it, or None when
    missing) read once and scored under every named setting (`variants_of`; the workbench's one
    setting) against the same key, scores alone (no token spans)."""
    wanted = tuple(m.name for m in (*metrics, CONLL))
    corefud = convention(COREFUD)
    out = []
    for response in responses:
        if response is None:
            out.append(DatasetResult(name, None))
            continue
        path, read = response
        documents = read()
        results = {}
        for variant, setting in settings.items():
            loaded = corefud.prepare(key, [(path, lambda: documents)], key_path, setting.options(spans=False),
                                     Progress())
            results[variant] = loaded.corpora[0].score(metrics=wanted)
        out.append(DatasetResult(name, results))
    return out


def score_layout(layout: Layout, cache: ReadCache | None, settings: Mapping[str, Settings], jobs: int,
                 on_done: Callable[[], None] | None = None) -> list[list[DatasetResult]]:
    """Per dataset of `layout` (in its order), every system's result under every setting: one
    dataset per process (`jobs`), the largest first, each key read once (through `cache`);
    `on_done()` as each dataset is finished (a progress bar)."""
    from metrics.conventions.nodes import Settings

    sizes = [os.path.getsize(d.key) for d in layout.datasets]
    order = sorted(range(len(sizes)), key=lambda d: -sizes[d])
    corefud = convention(COREFUD)

    def work(d: int) -> list[DatasetResult]:
        dataset = layout.datasets[d]
        reading = Settings().options(spans=False)
        key = corefud.read(dataset.key, True, reading, cache, 1)
        responses = [(path, lambda path=path: corefud.read(path, False, reading, cache, 1))
                     if path is not None else None for path in (row[d] for row in layout.responses)]
        return score_dataset(dataset.name, key, dataset.key, responses, settings=settings)

    done = fork_each(work, order, jobs, on_done=on_done)
    out: list[list[DatasetResult]] = [[] for _ in order]
    for d, results in zip(order, done):
        out[d] = results
    return out


def macro(results: Sequence[DatasetResult], variant: str, metric: Metric = CONLL) -> float:
    """The plain mean over datasets of their F1 (CRAC's ranking score for conll under head),
    summed in dataset order; 0 for no dataset."""
    return mean([result.value(variant, metric) for result in results])


def ranking(systems: Sequence[Sequence[DatasetResult]], variant: str = PRIMARY) -> list[int]:
    """System indices by their macro-average under `variant`, best first (ties: given order)."""
    values = [macro(results, variant) for results in systems]
    return sorted(range(len(systems)), key=lambda s: -values[s])

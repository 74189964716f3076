"""Many document pairs scored together: one column per metric (`metrics.measures.columns`).

Why: a corpus of many small documents (PreCo has 38,000) paid, per document and metric, the
numpy calls of its computation and a score object; here the metrics v8.01's tables give for
many documents at once are computed in one pass over all the pairs' tables laid end to end
(`metrics.measures.batch`), a combined metric is the mean of its parts' columns, and only what
no batch computes is asked of each pair.  `corpus.scoring.PreparedCorpus.score` runs it over each
process's share of the documents.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

import numpy as np

from metrics.measures import catalog
from metrics.measures.catalog import Metric, Scorer
from metrics.measures.columns import Column, Field, as_list, floats
from metrics.measures.score import AnyScore, MeanScore, mean
from metrics.measures.table import Table
from metrics.measures.weights import Weights


class Scored(Protocol):
    """What scoring together reads of a document pair (`corpus.scoring.DocPair`)."""

    @property
    def scorer(self) -> Scorer: ...
    @property
    def table(self) -> Table: ...
    def score(self, metric: Metric | str, weights: Weights) -> AnyScore: ...
    def has(self, metric: Metric, weights: Weights) -> bool: ...
    def keep(self, columns: dict[str, Column], row: int, weights: Weights) -> None: ...


def score_columns(pairs: Sequence[Scored], metrics: Sequence[str], weights: Weights) -> dict[str, Column]:
    """The requested metrics of these pairs, with the parts a combined metric needs, as one
    column per metric (each pair keeps its row, so that `DocPair.score` finds it).

    Why columns: the metrics v8.01's tables give for many documents at once (`Metric.batch`) are
    computed for all the pairs in one pass; the rest are each pair's own, and a combined metric
    (CoNLL) is the mean of its parts' columns.  No score object is made per document and metric
    (20,000 tiny documents made 400,000 of them, dearer than computing the scores)."""
    names = with_parts(tuple(metrics))
    batched = _batched(pairs, names, weights)
    columns: dict[str, Column] = {}
    for name in names:
        metric = catalog.METRICS[name]
        column = batched.get(name)
        if column is not None:
            column.fill([pairs[i].score(metric, weights) for i in column.missing])
        elif metric.parts and all(part in columns for part in metric.parts):
            column = _mean_column([columns[part] for part in metric.parts])
        else:
            column = Column.of([pair.score(metric, weights) for pair in pairs])
        columns[name] = column
    for row, pair in enumerate(pairs):
        pair.keep(columns, row, weights)
    return columns


def _mean_column(parts: Sequence[Column]) -> Column:
    """Each document's mean of its parts' scores (`Metric.combine`: `score.mean_score` of a few
    values, their properties summed in order), all documents' at once where the values are floats:
    `score.mean`'s sum from 0 in the parts' order, then its division, elementwise."""
    values = [part.computed_arrays() or part.values() for part in parts]
    means: list[Field] = []
    for i in range(3):
        columns = [found[i] for found in values]
        if columns and all(floats(column) for column in columns):
            total = np.zeros(len(columns[0]))
            for column in columns:
                total = total + np.asarray(column, dtype=np.float64)
            means.append(total / len(columns))
        else:
            means.append([mean(row) for row in zip(*map(as_list, columns))])
    return Column(MeanScore, means)


def _batched(pairs: Sequence[Scored], metrics: Sequence[str], weights: Weights) -> dict[str, Column]:
    """The metrics among `metrics` that v8.01's tables give for many documents at once
    (`Metric.batch`), computed for all `pairs` in one pass when all are scored under v8.01 (and
    are more than one): each metric's column, its `missing` rows left to each pair."""
    if len(pairs) < 2 or any(pair.scorer is not Scorer.V801 for pair in pairs):
        return {}
    batched = [metric for metric in map(catalog.METRICS.__getitem__, metrics)
               if metric.batch is not None and not all(pair.has(metric, weights) for pair in pairs)]
    if not batched:
        return {}
    from metrics.measures.laid import laid_end_to_end
    from metrics.measures.tuggener import count_documents

    tables = laid_end_to_end([pair.table for pair in pairs], pairs=pairs, tally=count_documents)
    found = {}
    for metric in batched:
        assert metric.batch is not None
        found[metric.name] = metric.batch(tables, weights)
    return found


def load_batched() -> None:
    """Load the code scoring together runs (the metrics' batched computations, scipy's solver):
    called before the pieces of a corpus are scored in forked processes, which would each load it
    again (about 10 ms of CPU each)."""
    from metrics.measures import batch, blanc, laid, linguistic, tuggener  # noqa: F401 (loaded, not used here)
    from metrics.runtime.lsap import linear_sum_assignment

    linear_sum_assignment()


@lru_cache(maxsize=64)
def with_parts(metrics: tuple[str, ...]) -> tuple[str, ...]:
    """`catalog.with_parts`, found once per request rather than once per document."""
    return catalog.with_parts(metrics)

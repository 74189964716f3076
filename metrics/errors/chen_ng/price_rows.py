"""Prices as arrays, and the blocks of documents a pricing process takes (`impact.Pricer`).

Why its own module: the pricer computes the prices of many fixes at once from the changes of
their parts' counts (`prices_of`), the same float operations as pricing one fix by Score objects,
element by element; and prices a block of documents' single fixes in one pass (`blocks`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from metrics.measures.catalog import METRICS
from metrics.measures.score import Score


def prices_of(total: Mapping[str, Score], value: float, metric: str, parts: Sequence[str], *, n_prices: int,
              done: Sequence[int], olds: Mapping[str, np.ndarray], news: Mapping[str, np.ndarray]) -> list[float]:
    """The prices of n_prices fixes, those in `done` from the (before, after) counts of the
    reached part of each (rows of `olds` and `news` per part of `metric`, `parts` in order, whose
    corpus counts are `total` and F1 `value`), the others 0: each fix's changed corpus totals
    (`impact._swap`'s operations), each part's F1 (`Score.f1`'s) and their mean (`score.mean`'s),
    element by element."""
    prices = [0.0] * n_prices
    f1s = []
    for name in parts:
        counts = np.array(total[name].counts(), dtype=np.float64) - olds[name] + news[name]
        recall = _ratio(counts[:, 0], counts[:, 1])
        precision = _ratio(counts[:, 2], counts[:, 3])
        both = recall + precision
        f1s.append(np.divide(2 * recall * precision, both, out=np.zeros(len(done)), where=both != 0))
    if METRICS[metric].parts:  # `score.mean` of each fix's parts: summed from 0 in order, divided
        summed = np.zeros(len(done))
        for f1 in f1s:
            summed = summed + f1
        values = summed / len(f1s)
    else:
        values = f1s[0]
    for n, price in zip(done, (values - value).tolist()):
        prices[n] = price
    return prices


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """`metrics.measures.score.ratio` element by element: num / den, and 0 where den is 0."""
    return np.divide(num, den, out=np.zeros(len(den)), where=den != 0)


BLOCKS_PER_PROCESS = 4
"""Blocks of documents (`blocks`) per pricing process: each block pays numpy's fixed costs once
(four cost what one does: benchmarks/README.md), a process that finishes early takes the next
block, so a few per process keep the balance that taking one document at a time had, and a
block's pass holds a quarter of the arrays and joined cells that one pass over all would."""


def blocks(documents: Sequence[int], load: Mapping[int, int], processes: int) -> list[list[int]]:
    """The documents (dearest first) cut in order into BLOCKS_PER_PROCESS blocks per process, of
    about equal load, the dearest documents in the first."""
    if not documents:
        return []
    share = sum(load[i] for i in documents) / (max(processes, 1) * BLOCKS_PER_PROCESS)
    out: list[list[int]] = [[]]
    held = 0
    for i in documents:
        if out[-1] and held + load[i] > share:
            out.append([])
            held = 0
        out[-1].append(i)
        held += load[i]
    return out

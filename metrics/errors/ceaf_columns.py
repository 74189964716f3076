"""A changed response chain judged after a change from a few of its best cells, kept once per
(chain, size after), for `metrics.errors.ceaf_arrays`.

Why its own module: `ceaf_arrays` judged each changed column of each fix over every cell of the
column (`best_matching.certified`'s judgement: its best slack, w - u of the key chain, clear of 0
and of its second best by MARGIN, among the cells `delta`'s reduction keeps: every hub, and the
first best leaf by weight, then by place).  A system that merges thousands of key chains into one
response chain makes a column of thousands of cells that every fix on it changes: pricing was
quadratic (4,000 key chains of two mentions each in one response chain: 3.8 s).  But a fix
changes one key chain k's cell of a column and the column's size; every other cell's weight
depends on the size alone.  So the column's cells at that size are ranked once, and each fix
reads its three best hubs and two first leaves (one of each may be k's, left out for k's cell
after the change): the best and second best slack of the cells the reduction keeps are among
them.  Ties in slack decide nothing (a column whose two best tie is not judged), so which of two
tied cells a ranking puts first does not matter; ties between leaves are broken by place, as the
reduction breaks them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from metrics.errors.best_matching import MARGIN
from metrics.errors.ceaf_components import TableArrays, ranges

HUBS, LEAVES = 3, 2
"""Cells of a column kept per (column, size): its best hubs by slack, its first leaves (a fix's k
may be one of each)."""


class Tops(NamedTuple):
    """Per (column, size after) pair: its best hubs (key chain, weight, slack; -1 and -inf where
    there are fewer), its first leaves by weight then place, and its largest weight (-inf: none)."""

    hub_row: np.ndarray
    hub_weight: np.ndarray
    hub_slack: np.ndarray
    leaf_row: np.ndarray
    leaf_weight: np.ndarray
    leaf_slack: np.ndarray
    top_weight: np.ndarray


def gather(ptr: np.ndarray, chains: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(which of `chains` each cell belongs to, the cell's index) of every cell of these chains."""
    return ranges(ptr[chains], ptr[chains + 1] - ptr[chains])


def segment_max(owner: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    """The largest of `values` of each owner 0..n-1 (-inf: none)."""
    out = np.full(n, -np.inf)
    np.maximum.at(out, owner, values)
    return out


def column_tops(arrays: TableArrays, cols: np.ndarray, sizes: np.ndarray) -> Tops:
    """`Tops` of each (column, size) pair of the rows given (column `n_cols`: none, no cells),
    each distinct pair ranked once.  The slacks are by the key chains' duals: their components
    must be certified first (`TableArrays.certify`)."""
    stride = int(sizes.max(initial=0)) + 1
    pairs, inverse = np.unique(cols * stride + sizes, return_inverse=True)
    n = len(pairs)
    owner, cell = gather(arrays.col_ptr, pairs // stride)
    row = arrays.col_rows[cell]
    weight = 2.0 * arrays.col_n[cell] / (arrays.key_sizes[row] + (pairs % stride)[owner])
    slack = weight - arrays.dual[row]
    leaf = np.diff(arrays.row_ptr)[row] == 1
    # one ranking: by column, hubs before leaves, hubs by slack, leaves by weight then place
    order = np.lexsort((cell, np.where(leaf, -weight, -slack), leaf, owner))
    group = 2 * owner[order] + leaf[order]
    rank = np.arange(len(order)) - np.searchsorted(group, group)
    kept = []
    for is_leaf, width in ((False, HUBS), (True, LEAVES)):
        at = order[(rank < width) & (leaf[order] == is_leaf)]
        place = rank[(rank < width) & (leaf[order] == is_leaf)]
        rows, weights, slacks = np.full((n, width), -1), np.zeros((n, width)), np.full((n, width), -np.inf)
        rows[owner[at], place], weights[owner[at], place], slacks[owner[at], place] = row[at], weight[at], slack[at]
        kept += [rows[inverse], weights[inverse], slacks[inverse]]
    return Tops(*kept, segment_max(owner, weight, n)[inverse])


def judge(arrays: TableArrays, tops: Tops, k: np.ndarray, k_count: np.ndarray, size: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each changed column after its change, from its `tops` at its size after: k's cell (k: -1
    for none) left out of them and taken at `k_count` (none when 0) as a hub, as `delta`'s
    reduction takes a key chain that changes.  (The key chain it takes, or -1 when every edge is
    slack by MARGIN, or it has none, or it does not decide; that edge's weight; whether the column
    decides: its best slack clear of 0 and of its second best by MARGIN, or every slack below
    -MARGIN.)"""
    n = len(k)
    line = np.arange(n)
    hub_slack = np.where(tops.hub_row == k[:, None], -np.inf, tops.hub_slack)
    first = (tops.leaf_row[:, 0] == k).astype(np.int64)  # k is no leaf after: the next one is first
    k_safe = np.maximum(k, 0)
    k_weight = 2.0 * k_count / (arrays.key_sizes[k_safe] + size)
    k_slack = np.where(k_count > 0, k_weight - arrays.dual[k_safe], -np.inf)
    rows = np.column_stack((tops.hub_row, tops.leaf_row[line, first], k))
    weights = np.column_stack((tops.hub_weight, tops.leaf_weight[line, first], k_weight))
    slacks = np.column_stack((hub_slack, tops.leaf_slack[line, first], k_slack))
    best = np.argmax(slacks, axis=1)
    ranked = np.sort(slacks, axis=1)
    top, second = ranked[:, -1], ranked[:, -2]
    with np.errstate(invalid="ignore"):  # -inf - -inf: a column with no edge is left out
        taken = (top >= MARGIN) & (top - second >= MARGIN)
    chosen = np.where(taken, rows[line, best], -1)
    return chosen, np.where(taken, weights[line, best], 0.0), (top <= -MARGIN) | taken

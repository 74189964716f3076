"""The UA scorer's coreference metrics, mentions and non_referring over a document's clusters as
arrays (`metrics.mentions.ua_columns`): exact matching, no split antecedent to credit.

Each function returns what its counterpart in `metrics.measures.ua` (`KERNELS`) or
`ua_relations` returns on the same document, to the last bit: counts that are whole numbers
(MUC, BLANC, mentions, the denominators) are exact in any order; the sums of fractions (B3's and
LEA's numerators) are added cluster by cluster in cluster order, as the UA scorer adds them
(`np.add.accumulate` adds one after another); CEAF builds the same similarity table and gives it
to the same solver.  `tests/test_ua_columns.py` checks them against those kernels.
"""

from __future__ import annotations

import numpy as np

from metrics.measures.score import Score
from metrics.measures.ua import Counts, _noncoref_count
from metrics.mentions.ua_columns import ColumnSide, ColumnSides
from metrics.runtime.lsap import linear_sum_assignment


def _in_order(values: np.ndarray) -> float:
    """values[0] + values[1] + ... added one after another (0 without any)."""
    return float(np.add.accumulate(values)[-1]) if len(values) else 0


def _found(side: ColumnSide, where: np.ndarray, other_clusters: int) -> tuple[np.ndarray, np.ndarray]:
    """For each (cluster of `side`, other side's cluster) that share mentions: the cluster and
    how many of its mentions lie in that other cluster."""
    found = where >= 0
    pairs, counts = np.unique(side.cluster[found] * (other_clusters + 1) + where[found], return_counts=True)
    return pairs // (other_clusters + 1), counts


def _muc_side(side: ColumnSide, where: np.ndarray, other: ColumnSide) -> tuple[int, int]:
    """Each cluster's mentions less its partitions by the other side (a mention it lacks a
    partition of its own), over its links."""
    found = where >= 0
    partitions = len(np.unique(side.cluster[found] * (len(other.sizes) + 1) + where[found]))
    tp = len(side.codes) - int((~found).sum()) - partitions
    return tp, int(side.sizes.sum()) - len(side.sizes)


def muc(s: ColumnSides) -> Counts:
    pn, pd = _muc_side(s.response, s.response_where, s.key)
    rn, rd = _muc_side(s.key, s.key_where, s.response)
    return pn, pd, rn, rd


def _bcub_side(side: ColumnSide, where: np.ndarray, other: ColumnSide) -> tuple[float, int]:
    cluster, counts = _found(side, where, len(other.sizes))
    correct = np.bincount(cluster, weights=(counts * counts).astype(float), minlength=len(side.sizes))
    return _in_order(correct / side.sizes), int(side.sizes.sum())


def bcub(s: ColumnSides) -> Counts:
    pn, pd = _bcub_side(s.response, s.response_where, s.key)
    rn, rd = _bcub_side(s.key, s.key_where, s.response)
    return pn, pd, rn, rd


def _ceaf(s: ColumnSides, entity: bool) -> Counts:
    """The similarity of each key and response cluster (their common mentions, a key mention
    counted once per response cluster holding it; or φ4 of the two), and the best one-to-one sum."""
    key, response = s.key, s.response
    rows, columns = len(key.sizes), len(response.sizes)
    held = np.unique(np.stack([response.codes, response.cluster]), axis=1) if len(response.codes) else \
        np.zeros((2, 0), np.int64)  # each (mention, response cluster), by mention
    first = np.searchsorted(held[0], key.codes)
    last = np.searchsorted(held[0], key.codes, side="right")
    spread = last - first
    holder = held[1][np.repeat(first, spread) + np.arange(int(spread.sum())) - np.repeat(np.cumsum(spread) - spread,
                                                                                           spread)]
    shared = np.bincount(np.repeat(key.cluster, spread) * columns + holder, minlength=rows * columns)
    shared = shared.reshape(rows, columns).astype(float)
    if entity:
        scores = np.zeros((rows, columns))
        nonzero = shared > 0
        total = (key.sizes[:, None] + response.sizes[None, :]).astype(float)
        scores[nonzero] = 2 * shared[nonzero] / total[nonzero]
    else:
        scores = shared
    chosen_rows, chosen_columns = linear_sum_assignment()(-scores)
    similarity = float(scores[chosen_rows, chosen_columns].sum())
    if entity:
        return similarity, columns, similarity, rows
    return similarity, int(response.sizes.sum()), similarity, int(key.sizes.sum())


def ceafe(s: ColumnSides) -> Counts:
    return _ceaf(s, entity=True)


def ceafm(s: ColumnSides) -> Counts:
    return _ceaf(s, entity=False)


def _lea_side(side: ColumnSide, where: np.ndarray, other: ColumnSide) -> tuple[float, int]:
    """Each cluster's links found in one cluster of the other side, over its links, times its size
    (a cluster of one mention: found alone in a cluster of one)."""
    sizes = side.sizes
    cluster, counts = _found(side, where, len(other.sizes))
    common = np.bincount(cluster, weights=(counts * (counts - 1) // 2).astype(float), minlength=len(sizes))
    single = sizes == 1
    if single.any():
        starts = np.cumsum(sizes) - sizes
        alone = where[starts[single]]
        common[single] = (alone >= 0) & (other.sizes[np.maximum(alone, 0)] == 1) if len(other.sizes) else 0
    links = np.where(single, 1.0, sizes * (sizes - 1) / 2.0)
    return _in_order(sizes * common / links), int(sizes.sum())


def lea(s: ColumnSides) -> Counts:
    pn, pd = _lea_side(s.response, s.response_where, s.key)
    rn, rd = _lea_side(s.key, s.key_where, s.response)
    return pn, pd, rn, rd


def _links(side: ColumnSide) -> float:
    return float((side.sizes * (side.sizes - 1) // 2).sum())


def blanc_coref(s: ColumnSides) -> Counts:
    """Coreference links of the key found in the response."""
    _, counts = _found(s.key, s.key_where, len(s.response.sizes))
    num = int((counts * (counts - 1) // 2).sum())
    return num, _links(s.response), num, _links(s.key)


def blanc_noncoref(s: ColumnSides) -> Counts:
    """Non-coreference links of the key (mentions of two key clusters) kept apart in the response."""
    num = _noncoref_count(s.key_where, s.key.sizes.tolist())
    nk, ns = len(s.key.codes), len(s.response.codes)
    return num, ns * (ns - 1) / 2 - _links(s.response), num, nk * (nk - 1) / 2 - _links(s.key)


KERNELS = {kernel.__name__: kernel for kernel in (muc, bcub, ceafe, ceafm, lea, blanc_coref, blanc_noncoref)}
"""Each coreference metric (BLANC as its two parts) over columns, by its catalogue name."""


def mentions(s: ColumnSides) -> Score:
    """Distinct key mentions the response has, and the reverse."""
    key, response = np.unique(s.key.codes), np.unique(s.response.codes)
    found = int(np.isin(key, response, assume_unique=True).sum())
    return Score(found, len(key), found, len(response))


def non_referring(s: ColumnSides) -> Score:
    key, response = s.key.non_referring, s.response.non_referring
    found = int(np.isin(key, response).sum())
    spurious = int((~np.isin(response, key)).sum())
    return Score(found, len(key), found, found + spurious)

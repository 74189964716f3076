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

Here too the moves of one step that a change's judged columns make certifiable with one dual
moved (`one_step`: `reseat`, `release`) and the next leaf a change to a first leaf brings in
(`next_leaves_left_out`): each reads the columns' tops, as the judgement does.
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
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each changed column after its change, from its `tops` at its size after: k's cell (k: -1
    for none) left out of them and taken at `k_count` (none when 0) as a hub, as `delta`'s
    reduction takes a key chain that changes.  (The key chain it takes, or -1 when every edge is
    slack by MARGIN, or it has none, or it does not decide; that edge's weight; whether the column
    decides: its best slack clear of 0 and of its second best by MARGIN, or every slack below
    -MARGIN; its best and second best slack, which `reseat` reads.)"""
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
    return chosen, np.where(taken, weights[line, best], 0.0), (top <= -MARGIN) | taken, top, second


def reseat(arrays: TableArrays, column: np.ndarray, top: np.ndarray, second: np.ndarray, taken_by_judged: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where a judged column takes key chain k1 = `arrays.partner_of_col[c]` from a column c no
    change touches (an augmenting path of one step): whether the matching after is certified
    with c on its best other key chain k2 (one no column held before and no judged column takes,
    `taken_by_judged`: -1 or a key chain, per judged column) or on none, and k1's dual raised by
    some d (its slack falls by d in every column: only the column that takes it and c had it
    as best); (certified, k2 or -1, its weight).  `column`: c, or `n_cols` where there is none;
    `top`, `second`: the judged column's best and second slack (k1's the best).

    Why: 1,833 of the corpus's single fixes went to the search for this alone.  The certificate
    (`best_matching`'s module docstring) holds with d between the two bounds: c's slack of k1
    falls to MARGIN below its best other one (or below -MARGIN), the judged column's stays MARGIN
    above its second and above 0.  Every other column keeps its best (k1's slack only fell), the
    chains with a dual keep a partner, and no column changes size, so c's cells are ranked as
    before the change (the caller keeps out a change that makes its key chain a leaf, or no
    longer one: c's reduced cells would change)."""
    n = len(column)
    there = np.flatnonzero(column < arrays.n_cols)  # the rest: nothing to do, nothing certified
    good, k2, weight = np.zeros(n, dtype=bool), np.full(n, -1), np.zeros(n)
    if len(there):
        good[there], k2[there], weight[there] = _reseated(arrays, column[there], top[there], second[there],
                                                          taken_by_judged[there])
    return good, k2, weight


def _reseated(arrays: TableArrays, column: np.ndarray, top: np.ndarray, second: np.ndarray, taken_by_judged: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`reseat` where there is a column c."""
    line = np.arange(len(column))
    tops = column_tops(arrays, column, arrays.col_sizes[column])
    k1 = arrays.partner_of_col[column]
    # c's cells the reduction keeps, k1 left out: its other hubs and its first leaf (k1 is a hub)
    rows = np.column_stack((tops.hub_row, tops.leaf_row[:, 0]))
    weights = np.column_stack((tops.hub_weight, tops.leaf_weight[:, 0]))
    slacks = np.column_stack((np.where(tops.hub_row == k1[:, None], -np.inf, tops.hub_slack), tops.leaf_slack[:, 0]))
    order = np.argsort(-slacks, axis=1, kind="stable")
    best, runner_up = slacks[line, order[:, 0]], slacks[line, order[:, 1]]
    k2 = np.where(best >= MARGIN, rows[line, order[:, 0]], -1)
    k1_safe = np.maximum(k1, 0)
    slack_k1 = arrays.weight[k1_safe] - arrays.dual[k1_safe]
    with np.errstate(invalid="ignore"):  # -inf - -inf: no other cell
        moved = (best >= MARGIN) & (best - runner_up >= MARGIN)
        moved &= arrays.partner_of_row[np.maximum(k2, 0)] < 0
        moved &= ~(taken_by_judged == k2[:, None]).any(axis=1)
        low = np.where(moved, slack_k1 - best, slack_k1) + MARGIN
        high = top - MARGIN - np.maximum(second, 0.0)
        good = (moved | (best <= -MARGIN)) & (high - low >= MARGIN) & (k1 >= 0)
    k2 = np.where(good & moved, k2, -1)
    return good, k2, np.where(k2 >= 0, weights[line, order[:, 0]], 0.0)


def release(arrays: TableArrays, k0: np.ndarray, judged: np.ndarray, judged_size: np.ndarray, judged_cap: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where the judged columns let go key chain k0 (-1: none), whose dual is positive, and no
    other dual changes: whether the matching after is certified with k0 on its best free column
    t* (one no key chain held, no change touches) or on none, k0's dual lowered to some u' >= 0;
    (certified, t* or -1, k0's weight there).  `judged`: each change's judged columns (-1: none),
    `judged_size` their sizes after, `judged_cap` the slack each one's choice has (0 if none):
    k0's cells in them are counted as before the change (the caller keeps out k0 = the moving key
    chain).

    Why: 1,425 of the corpus's single fixes went to the search for this alone.  Lowering k0's
    dual raises its slack in each of its columns t by as much; the certificate
    (`best_matching`'s module docstring) holds while that slack stays MARGIN below t's cap (its
    partner's slack, or 0 where t has none) in every column the reduction keeps (k0's hub
    columns and its first leaf column; a judged column too, conservatively, wherever k0 has a
    cell), but one: t*, where k0's slack must reach MARGIN (t* has no partner, so its other key
    chains are slack by MARGIN).  So u' = 0 where k0 has no free column, and t* is the free column
    of k0's largest weight otherwise, with u' between the largest need of the others and that."""
    n = len(k0)
    good, t_star, weight = np.zeros(n, dtype=bool), np.full(n, -1), np.zeros(n)
    there = np.flatnonzero(k0 >= 0)
    if not len(there):
        return good, t_star, weight
    rows = k0[there]
    owner, cell = gather(arrays.row_ptr, rows)
    t = arrays.row_cols[cell]
    judged_here = judged[there][owner] == t[:, None]  # (cells, judged columns)
    is_judged = judged_here.any(axis=1)
    size = np.where(is_judged, (judged_size[there][owner] * judged_here).sum(axis=1), arrays.col_sizes[t])
    w = 2.0 * arrays.row_n[cell] / (arrays.key_sizes[rows][owner] + size)
    partner = arrays.partner_of_col[t]
    p = np.maximum(partner, 0)
    cap = np.where(is_judged, (judged_cap[there][owner] * judged_here).sum(axis=1),
                   np.where(partner >= 0, arrays.weight[p] - arrays.dual[p], 0.0))
    # the reduction keeps a hub column, and the first of k0's leaf columns no change touches
    leaf = ~is_judged & (np.diff(arrays.col_ptr)[t] == 1)
    order = np.lexsort((cell, -w, ~leaf, owner))
    first_leaf = np.zeros(len(t), dtype=bool)
    leading = order[leaf[order] & (np.r_[True, owner[order][1:] != owner[order][:-1]])]
    first_leaf[leading] = True
    kept = is_judged | ~leaf | first_leaf
    free = kept & ~is_judged & (partner < 0)
    m = len(rows)
    best_free = segment_max(owner[free], w[free], m)
    star_cell = np.full(m, -1)
    at_best = np.flatnonzero(free & (w == best_free[owner]))
    star_cell[owner[at_best[::-1]]] = at_best[::-1]  # the first of equal weights (ties refused below)
    need = np.where(kept, w - cap + MARGIN, -np.inf)
    need[star_cell[star_cell >= 0]] = -np.inf
    lower = np.maximum(segment_max(owner, need, m), 0.0)
    has_free = star_cell >= 0
    with np.errstate(invalid="ignore"):
        upper = np.where(has_free, best_free - MARGIN, 0.0)
        ok = np.where(has_free, upper - lower >= MARGIN, lower == 0.0)
    good[there] = ok
    t_star[there] = np.where(ok & has_free, t[np.maximum(star_cell, 0)], -1)
    weight[there] = np.where(ok & has_free, best_free, 0.0)
    return good, t_star, weight


class Moved(NamedTuple):
    """Moves of key chains' mentions (`_moves`), one element per change: its place, the key chain
    k, the chain a it leaves (-1: none), k's cell there, how many leave, the chain b it joins
    (n_cols or more: a new one, or none), k's cell there, how many join; whether a and b are
    chains of the table, a and b as indices (n_cols where not), and the components of k and b
    (-1: none, or b's counted as k's)."""

    at: np.ndarray
    k: np.ndarray
    a: np.ndarray
    cell_a: np.ndarray
    leaving: np.ndarray
    b: np.ndarray
    cell_b: np.ndarray
    joining: np.ndarray
    has_a: np.ndarray
    old_b: np.ndarray
    a0: np.ndarray
    b0: np.ndarray
    comp_k: np.ndarray
    comp_b: np.ndarray

    def take(self, chosen: np.ndarray) -> Moved:
        return Moved(*(x[chosen] for x in self))


def next_leaves_left_out(arrays: TableArrays, metric: str, changed: np.ndarray, other: np.ndarray
                         ) -> tuple[np.ndarray, np.ndarray]:
    """Where a changed column is a key chain's first leaf of several, the reduction after the
    change keeps that key chain's next leaf too (`TableArrays.reduction_keeps`): a column with that
    key chain alone, free before, so the matching after is the one judged only where the key
    chain's slack there is below -MARGIN at its dual (and the next leaf is no changed column,
    `other`: then the one after it would come in).  (Whether each change is settled so, whether
    a next leaf comes in.)"""
    nxt = arrays.reduction_keeps(metric)[1][changed]
    brought = nxt >= 0
    if not brought.any():
        return np.ones(len(changed), dtype=bool), brought
    its_key = arrays.col_rows[np.minimum(arrays.col_ptr[changed], len(arrays.col_rows) - 1)]  # its one key chain
    leaf = np.maximum(nxt, 0)
    weight = 2.0 * arrays.col_n[arrays.col_ptr[leaf]] / (arrays.key_sizes[its_key] + arrays.col_sizes[leaf])
    return ~brought | ((nxt != other) & (weight - arrays.dual[its_key] <= -MARGIN)), brought


def one_step(arrays: TableArrays, m: Moved, columns: list[tuple[np.ndarray, ...]], olds: list[np.ndarray],
              good: np.ndarray, *, brought: np.ndarray, taking: tuple[np.ndarray, ...], sizes: np.ndarray
             ) -> np.ndarray:
    """Whether the matching after each move stands with its one-step moves (`ceaf_columns`): a
    column c whose partner a judged column takes moves on (`reseat`; `taking`: c or n_cols, the
    taking column's best and second slack, how many columns take so), or a key chain let go
    with a positive dual other than k moves on (`release`; `sizes`: the judged columns' sizes
    after); not both.  Each settled move's column joins `columns` and the key chain c lost
    joins `olds`.  (These checks cost a document's arrays a few calls: made only where a change
    needs them.)"""
    n, n_cols, k = len(m.at), arrays.n_cols, m.k
    c, lead, runner_up, augmenting = taking
    if (good & (augmenting > 0)).any():
        # k's cells as a leaf or a hub as before, so c's reduced cells are too
        degree = np.diff(arrays.row_ptr)[k]
        degree_after = degree - (m.has_a & (m.cell_a == m.leaving)) + ((m.cell_b == 0) & (m.joining > 0))
        good = good & ((augmenting == 0) | ((augmenting == 1) & ((degree > 1) == (degree_after > 1))))
        c = np.where(good, c, n_cols)
        moved_on, k2, k2_weight = reseat(arrays, c, lead, runner_up, np.column_stack([x[1] for x in columns]))
        good &= (c == n_cols) | moved_on
        columns.append((np.full(n, -1), k2, k2_weight, None, None, None))
        olds.append(np.where(c < n_cols, arrays.partner_of_col[c], -1))  # c's k1, taken by the judged column
    else:
        good = good & (augmenting == 0)
        c = np.full(n, n_cols)
    # a key chain let go has dual 0, or is one other than k whose dual lowered certifies (`release`)
    k0, positive = np.full(n, -1), np.zeros(n, dtype=np.int64)
    for old in olds:
        let_go = old >= 0
        for _, chosen, *_ in columns:
            let_go &= old != chosen
        let_go &= arrays.dual[np.maximum(old, 0)] != 0.0
        positive += let_go
        k0 = np.where(let_go, old, k0)
    good &= (positive == 0) | ((positive == 1) & (c == n_cols) & (k0 != k) & ~brought)
    k0[~good] = -1
    if (k0 >= 0).any():
        judged_ids = np.column_stack([ids for ids, *_ in columns[:3]])
        judged_cap = np.column_stack([np.where(chosen >= 0, top, 0.0) for _, chosen, _, _, top, _ in columns[:3]])
        released, t_star, k0_weight = release(arrays, k0, judged_ids, sizes, judged_cap)
        good &= (k0 < 0) | released
        columns.append((np.full(n, -1), np.where(t_star >= 0, k0, -1), k0_weight, None, None, None))
    return good

"""CEAF-e's change under many single fixes of a clean document at once, as array work.

Why: `metrics.errors.delta` found each fix's change by searching the components it reaches and
solving them again (`ceaf_change`), 40-50 us of Python per fix, two fifths of pricing a corpus's
errors.  A certificate per fix in Python gained nothing (benchmarks/README.md); what pays is doing
every fix of a document in one pass of numpy.  Two kinds of change, two thirds of a corpus's
single fixes, leave the overlap graph's shape alone:

- one response chain changes size and no cell moves (a mention absent from the key removed, or
  split out into a chain of its own, which overlaps nothing): only that column's weights change;
- a new response chain of one key chain's mentions (a missing mention added): a new leaf column on
  that key chain.

No edge is removed, so the part the change reaches is one component (or none) before and after.
Its best alignment after the change: a star's (one key chain or one response chain) is its largest
edge, as `best_matching.at_most_one_choice` takes it; any other component's comes from its best
matching before the change, certified unique by key-chain duals over the whole component
(`best_matching.matching_duals`, checked by `best_matching.certified`), and re-judged only at the
changed column, as `certified` judges every column: each other column keeps its partner, or its
lack of one, by the same margin as before.  Where the changed column decides (its best key chain
clear of the second by MARGIN and free, or every edge slack by MARGIN, and any key chain it lets
go with a dual of 0), the matching after is that one and unique, so the search and the solver
would find it too.  Every other change, and every change the duals do not decide (a tie, two
chains wanting one key chain, a key chain with a positive dual let go), is left to `delta` to
compute one by one (`FALLBACK`), as before.

To the bit: the engine sums a component's best matching in key-chain order from 0 (`best_total`,
the solver's pairs too); here every key chain of the component holds a slot, in that order, with
0.0 for a chain left out (x + 0.0 is x), and the slots are added column by column; a star's value
is a maximum (no rounding).  The change is that value minus the component's best before the change
as `delta` keeps it.  tests/test_impact_fast.py checks every change against `delta.changes`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from metrics.errors.best_matching import MARGIN, certified, matching_duals

_Table = Any
"""`metrics.errors.delta`'s table of a document (not imported: delta imports this module)."""
Counts = tuple
"""`metrics.errors.delta.Counts`: ((cell, change) pairs, (chain, size change) pairs, matched, responses)."""

SIZE, NEW = 1, 2
"""The two kinds of change computed here (the module's docstring): one chain's size, a new chain."""


class TableArrays:
    """A clean document's cells as arrays (by response chain and by key chain), its components'
    sizes, and (found when a fix first needs them) each component's certified best matching."""

    def __init__(self, table: _Table) -> None:
        self.table = table
        rows, cols = table.row_cells, table.col_cells
        self.n_rows, self.n_cols = len(rows), len(cols)
        self.key_sizes = np.array(table.key_sizes, dtype=np.int64)
        self.col_sizes = np.array(table.col_sizes, dtype=np.int64)
        self.col_ptr, self.col_rows, self.col_n = _csr(cols)
        self.row_ptr, self.row_cols, self.row_n = _csr(rows)
        root_row, root_col = table._component_index()
        self.root_row = np.array(root_row, dtype=np.int64).reshape(-1)
        self.root_col = np.array(root_col, dtype=np.int64).reshape(-1)
        n_nodes = self.n_rows + self.n_cols
        self.comp_rows = np.bincount(self.root_row, minlength=n_nodes)
        self.comp_cols = np.bincount(self.root_col, minlength=n_nodes)
        # each key chain's slot in its component: key chains of a component in order
        by_root = np.argsort(self.root_row, kind="stable")
        first = np.searchsorted(self.root_row[by_root], self.root_row[by_root], side="left")
        self.slot = np.empty(self.n_rows, dtype=np.int64)
        self.slot[by_root] = np.arange(self.n_rows) - first
        self.members = by_root  # key chains grouped by component, each group in order
        self.sorted_roots = self.root_row[by_root]
        # the certified matchings, filled per component
        self.dual = np.zeros(self.n_rows)
        self.partner_of_row = np.full(self.n_rows, -1, dtype=np.int64)
        self.partner_of_col = np.full(self.n_cols, -1, dtype=np.int64)
        self.slots: dict[int, np.ndarray | None] = {}
        """component -> each key chain's weight in its certified best matching (0.0 if left out),
        in slot order; None where no certificate holds."""
        self.optimum: dict[int, float] = {}

    def certify(self, component: int, metric: str) -> np.ndarray | None:
        """The component's best matching before any change, certified unique by its key chains'
        duals over every cell of the component (the leaves too), as slots; None if not."""
        if component in self.slots:
            return self.slots[component]
        table = self.table
        start = int(np.searchsorted(self.sorted_roots, component))
        members = self.members[start:start + int(self.comp_rows[component])].tolist()
        key_sizes, col_sizes = table.key_sizes, table.col_sizes
        edges: dict[tuple[int, int], float] = {}
        for k in members:
            for t, n in table.row_cells[k].items():
                edges[(k, t)] = 2.0 * n / (key_sizes[k] + col_sizes[t])
        cells = list(edges)
        duals = matching_duals(cells, edges)
        matched = certified(cells, edges, duals) if duals is not None else None
        if matched is None:
            self.slots[component] = None
            return None
        best: dict[int, tuple[float, int]] = {}  # response chain -> (its best slack, key chain)
        for (k, t), w in edges.items():
            slack = w - duals.get(k, 0.0)
            if t not in best or slack > best[t][0]:
                best[t] = (slack, k)
        for t, (slack, k) in best.items():
            if slack >= MARGIN:  # certified: these are the matching's pairs, one per key chain
                self.partner_of_row[k] = t
                self.partner_of_col[t] = k
        for k in members:
            self.dual[k] = duals.get(k, 0.0)
        slots = np.zeros(len(members))
        for k, w in matched.items():
            slots[self.slot[k]] = w
        self.slots[component] = slots
        self.optimum[component] = table.component_best(metric, component)
        return slots


def _csr(cells: list[dict[int, int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(start of each chain's cells, partner chain, count) of one side's cells, in dict order."""
    ptr = np.zeros(len(cells) + 1, dtype=np.int64)
    np.cumsum([len(c) for c in cells], out=ptr[1:])
    partners = np.fromiter((p for c in cells for p in c), dtype=np.int64, count=int(ptr[-1]))
    counts = np.fromiter((n for c in cells for n in c.values()), dtype=np.int64, count=int(ptr[-1]))
    return ptr, partners, counts


def kind_of(counts: Counts, n_cols: int) -> tuple[int, int, int, int] | None:
    """(SIZE, response chain, its size change, 0) or (NEW, key chain, its mentions, 0) for a change
    computed here; None for any other (`delta` computes it)."""
    cells, sizes = counts[0], counts[1]
    if not cells:
        old = [(t, d) for t, d in sizes if t < n_cols]
        if len(old) == 1:
            return SIZE, old[0][0], old[0][1], 0
        return None
    if len(cells) == 1 and len(sizes) == 1:
        (k, t), d = cells[0]
        if t >= n_cols and sizes[0] == (t, d) and d > 0:
            return NEW, k, d, 0
    return None


def change_rows(table: _Table, many: Sequence[Counts], metric: str,
                one: Callable[[Counts], list[float]]) -> np.ndarray:
    """CEAF-e's four counts changed by each of many changes, as rows: the changes of the two
    kinds above as arrays, every other one by `one` (`delta`'s change of one)."""
    arrays = table.arrays()
    n_cols = arrays.n_cols
    out = np.zeros((len(many), 4))
    size_at, size_col, size_new = [], [], []
    new_at, new_row, new_n = [], [], []
    others = []
    col_sizes = table.col_sizes
    for i, counts in enumerate(many):
        kind = kind_of(counts, n_cols)
        if kind is None:
            others.append(i)
            continue
        # CEAF-e's chains: response chains that come to exist or cease to
        out[i, 3] = sum((n + d > 0) - (n > 0) for t, d in counts[1] for n in (col_sizes[t] if t < n_cols else 0,))
        if kind[0] == SIZE:
            size_at.append(i)
            size_col.append(kind[1])
            size_new.append(col_sizes[kind[1]] + kind[2])
        else:
            new_at.append(i)
            new_row.append(kind[1])
            new_n.append(kind[2])
    totals = np.zeros(len(many))
    decided = np.ones(len(many), dtype=bool)
    decided[others] = False
    if size_at:
        _sizes(arrays, metric, np.array(size_at), np.array(size_col), np.array(size_new), totals, decided)
    if new_at:
        _new_chains(arrays, metric, np.array(new_at), np.array(new_row), np.array(new_n), totals, decided)
    out[:, 0] = out[:, 2] = totals
    for i in np.flatnonzero(~decided).tolist():
        out[i] = one(many[i])
    return out


def _gather(ptr: np.ndarray, chains: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(which of `chains` each cell belongs to, the cell's index) of every cell of these chains."""
    lengths = ptr[chains + 1] - ptr[chains]
    owner = np.repeat(np.arange(len(chains)), lengths)
    starts = np.repeat(ptr[chains] - np.concatenate(([0], np.cumsum(lengths)[:-1])), lengths)
    return owner, starts + np.arange(int(lengths.sum()))


def _segment_max(owner: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    out = np.full(n, -np.inf)
    np.maximum.at(out, owner, values)
    return out


def _sizes(arrays: TableArrays, metric: str, at: np.ndarray, col: np.ndarray, size: np.ndarray,
           totals: np.ndarray, decided: np.ndarray) -> None:
    """Changes of one response chain's size, no cell moved (the module's docstring)."""
    has_cells = arrays.col_ptr[col + 1] > arrays.col_ptr[col]
    decided[at[has_cells & (size <= 0)]] = False  # cannot be: its cells would move
    # a chain with no cell is in no component: nothing before or after (0 - 0.0)
    has_cells &= size > 0
    at, col, size = at[has_cells], col[has_cells], size[has_cells]
    if not len(at):
        return
    component = arrays.root_col[col]
    n_rows, n_cols = arrays.comp_rows[component], arrays.comp_cols[component]
    before = np.array([_optimum(arrays, metric, c) for c in component.tolist()])
    after = np.full(len(at), np.nan)
    # a star on one response chain (this one): its largest edge at the new size
    star = n_cols == 1
    if star.any():
        owner, cell = _gather(arrays.col_ptr, col[star])
        weights = 2.0 * arrays.col_n[cell] / (arrays.key_sizes[arrays.col_rows[cell]] + size[star][owner])
        after[star] = _segment_max(owner, weights, int(star.sum()))
    # a star on one key chain: the largest of its edges, this chain's at the new size
    star = (n_rows == 1) & (n_cols > 1)
    if star.any():
        row = arrays.col_rows[arrays.col_ptr[col[star]]]
        owner, cell = _gather(arrays.row_ptr, row)
        t = arrays.row_cols[cell]
        sizes = np.where(t == col[star][owner], size[star][owner], arrays.col_sizes[t])
        weights = 2.0 * arrays.row_n[cell] / (arrays.key_sizes[row][owner] + sizes)
        after[star] = _segment_max(owner, weights, int(star.sum()))
    rest = np.flatnonzero((n_rows > 1) & (n_cols > 1))
    if len(rest):
        after[rest] = _sized_matchings(arrays, metric, component[rest], col[rest], size[rest])
    done = ~np.isnan(after)
    totals[at[done]] = after[done] - before[done]
    decided[at[~done]] = False


def _optimum(arrays: TableArrays, metric: str, component: int) -> float:
    known = arrays.optimum.get(component)
    if known is None:
        known = arrays.optimum[component] = arrays.table.component_best(metric, component)
    return known


def _certified_slots(arrays: TableArrays, metric: str, component: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(each change's slots, as its component's certified matching has them, padded with 0.0;
    whether its component has a certificate)."""
    slots = [arrays.certify(c, metric) for c in component.tolist()]
    ok = np.array([s is not None for s in slots], dtype=bool)
    width = max((len(s) for s in slots if s is not None), default=0)
    grid = np.zeros((len(slots), width))
    for i, s in enumerate(slots):
        if s is not None:
            grid[i, :len(s)] = s
    return grid, ok


def _summed(grid: np.ndarray) -> np.ndarray:
    """Each row's slots added in order from 0, as `best_total` sums a matching."""
    total = np.zeros(len(grid))
    for j in range(grid.shape[1]):
        total = total + grid[:, j]
    return total


def _sized_matchings(arrays: TableArrays, metric: str, component: np.ndarray, col: np.ndarray,
                     size: np.ndarray) -> np.ndarray:
    """The best matching's total after each change of a column's size, in components that are
    no star; NaN where the certificate does not decide."""
    grid, ok = _certified_slots(arrays, metric, component)
    n = len(component)
    owner, cell = _gather(arrays.col_ptr, col)
    row = arrays.col_rows[cell]
    weights = 2.0 * arrays.col_n[cell] / (arrays.key_sizes[row] + size[owner])
    slack = weights - arrays.dual[row]
    order = np.lexsort((-slack, owner))
    owner, row, weights, slack = owner[order], row[order], weights[order], slack[order]
    first = np.ones(len(owner), dtype=bool)
    first[1:] = owner[1:] != owner[:-1]
    top_at = np.flatnonzero(first)  # every column of a component has a cell
    top, best_row, best_weight = slack[top_at], row[top_at], weights[top_at]
    has_second = np.zeros(n, dtype=bool)
    second = np.full(n, -np.inf)
    after_top = top_at + 1
    inside = after_top < len(owner)
    inside[inside] = ~first[after_top[inside]]
    second[inside] = slack[after_top[inside]]
    has_second[inside] = True
    old = arrays.partner_of_col[col]
    old_dual = np.where(old >= 0, arrays.dual[np.maximum(old, 0)], 0.0)
    left_out = top <= -MARGIN
    taken = (top >= MARGIN) & (top - second >= MARGIN)
    moved = taken & (best_row != old)
    free = arrays.partner_of_row[best_row] < 0
    good = ok & (left_out | taken)
    good &= ~((left_out | moved) & (old >= 0) & (old_dual != 0.0))  # a key chain let go must have dual 0
    good &= ~(moved & ~free)  # the new partner must be free before
    rows = np.arange(n)
    let_go = good & (old >= 0) & (left_out | moved)
    grid[rows[let_go], arrays.slot[old[let_go]]] = 0.0
    keep = good & taken
    grid[rows[keep], arrays.slot[best_row[keep]]] = best_weight[keep]
    out = _summed(grid)
    out[~good] = np.nan
    return out


def _new_chains(arrays: TableArrays, metric: str, at: np.ndarray, row: np.ndarray, n: np.ndarray,
                totals: np.ndarray, decided: np.ndarray) -> None:
    """Changes that make a new chain of a key chain's n mentions (the module's docstring)."""
    weight = 2.0 * n / (arrays.key_sizes[row] + n)
    has_cells = arrays.row_ptr[row + 1] > arrays.row_ptr[row]
    # a key chain with no cell: the new chain is its only edge (before: nothing reached)
    lone = ~has_cells
    totals[at[lone]] = weight[lone] - 0.0
    at, row, weight = at[has_cells], row[has_cells], weight[has_cells]
    if not len(at):
        return
    component = arrays.root_row[row]
    before = np.array([_optimum(arrays, metric, c) for c in component.tolist()])
    after = np.full(len(at), np.nan)
    star = arrays.comp_rows[component] == 1  # one key chain: its largest edge, the new one too
    if star.any():
        owner, cell = _gather(arrays.row_ptr, row[star])
        t = arrays.row_cols[cell]
        weights = 2.0 * arrays.row_n[cell] / (arrays.key_sizes[row[star]][owner] + arrays.col_sizes[t])
        after[star] = np.maximum(_segment_max(owner, weights, int(star.sum())), weight[star])
    rest = np.flatnonzero(~star)
    if len(rest):
        grid, ok = _certified_slots(arrays, metric, component[rest])
        k = row[rest]
        slack = weight[rest] - arrays.dual[k]
        left_out = slack <= -MARGIN
        taken = (slack >= MARGIN) & (arrays.partner_of_row[k] < 0)
        good = ok & (left_out | taken)
        keep = good & taken
        grid[np.flatnonzero(keep), arrays.slot[k[keep]]] = weight[rest][keep]
        value = _summed(grid)
        value[~good] = np.nan
        after[rest] = value
    done = ~np.isnan(after)
    totals[at[done]] = after[done] - before[done]
    decided[at[~done]] = False

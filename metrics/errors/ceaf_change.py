"""CEAF's best alignment of the part of a document a change reaches, before or after it.

Why its own module: `metrics.errors.delta` prices a fix by the change of each metric's counts;
CEAF's change is the best alignment of the components the fix reaches, after the change minus
before it, with each hub's leaves reduced to its best one (module docstring of delta).  Here are
the leaves, the search of the reached part (`reached`) and its best alignment (`best`), each
component solved by `best_matching`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Protocol

from metrics.errors.best_matching import at_most_one_choice, best_total
from metrics.measures.catalog import CEAFM

Counts = tuple[tuple[tuple[tuple[int, int], int], ...], tuple[tuple[int, int], ...], int, int]
"""A change of a table as its counts (`metrics.errors.delta.tally`): ((key chain, response chain),
cell change) pairs, (response chain, size change) pairs, matched and response mentions gained."""


class CeafTable(Protocol):
    """What CEAF's change reads of a table of cells (`metrics.errors.delta.CeafCells`, not
    imported: delta imports the `ceaf_*` modules): each key chain's cells by response chain and
    each response chain's by key chain, the chains' sizes, the components of the overlap graph,
    each component's best alignment and duals before any change, and the leaves."""

    key_sizes: list[int]
    col_sizes: list[int]
    row_cells: list[dict[int, int]]
    col_cells: list[dict[int, int]]

    def leaves(self, metric: str) -> Leaves: ...

    def component_index(self) -> tuple[list[int], list[int]]: ...

    def component_best(self, metric: str, c: int) -> float: ...

    def row_duals(self, metric: str, rows: Iterable[int]) -> dict[int, float]: ...


class CeafChange(Protocol):
    """What the search reads of a change of a table (`metrics.errors.delta._Change`): the cells'
    changes, also by response chain and by key chain, the changed key chains, and the chains'
    size changes (a chain past the table's last is a new one)."""

    cells: dict[tuple[int, int], int]
    sizes: dict[int, int]
    by_col: dict[int, dict[int, int]]
    by_row: dict[int, list[int]]
    rows: set[int]


def _phi(metric: str, n: int, key_size: int, response_size: int) -> float:
    """CEAF's similarity of a cell: |K ∩ R| (CEAFm) or 2|K ∩ R| / (|K| + |R|) (CEAFe)."""
    return float(n) if metric == CEAFM.name else 2.0 * n / (key_size + response_size)


class Leaves:
    """Each chain's neighbours split into hubs (which overlap other chains too) and leaves, with
    leaves in best-first order: a row's leaf columns once (their phi never changes: a fix that
    changes a column makes it a seed, not a leaf), a column's leaf rows per column size."""

    def __init__(self, table: CeafTable, metric: str) -> None:
        self.table = table
        self.metric = metric
        rows, cols = table.row_cells, table.col_cells
        col_hub = [len(cells) > 1 for cells in cols]
        row_hub = [len(cells) > 1 for cells in rows]
        self.row_hubs = [[t for t in cells if col_hub[t]] for cells in rows]
        self.col_hubs = [[k for k in cells if row_hub[k]] for cells in cols]
        # a row's leaf columns best first (most rows have none or one: nothing to sort)
        self.row_leaves = [leaves if len(leaves) < 2 else
                           sorted(leaves, key=lambda t, k=k: -_phi(metric, rows[k][t], table.key_sizes[k], table.col_sizes[t]))
                           for k, cells in enumerate(rows) for leaves in ([t for t in cells if not col_hub[t]],)]
        self._leaf_rows: dict[int, list[int]] = {}
        self._col_leaves: dict[tuple[int, int], list[int]] = {}

    def col_leaves(self, t: int, size: int) -> list[int]:
        """Leaf rows of original column t, best first when the column has `size` mentions.

        Why the leaf rows are kept apart from their order: a fix changes a column's size, and
        the search asks the changed column's leaves at each size a fix gives it (on the corpus,
        two thirds of the columns asked at a size not yet seen), but which rows are leaves does
        not depend on the size, and a column of one leaf or none (four in five) has one order
        at every size: only two leaves or more are sorted, once per size."""
        leaves = self._leaf_rows.get(t)
        if leaves is None:
            table = self.table
            row_cells = table.row_cells
            leaves = self._leaf_rows[t] = [k for k in table.col_cells[t] if len(row_cells[k]) == 1]
        if len(leaves) < 2:
            return leaves
        order = self._col_leaves.get((t, size))
        if order is None:
            table = self.table
            cells = table.col_cells[t]
            order = self._col_leaves[(t, size)] = sorted(
                leaves, key=lambda k: -_phi(self.metric, cells[k], table.key_sizes[k], size))
        return order


def best(table: CeafTable, change: CeafChange, metric: str, after: bool) -> float:
    """Best alignment of the components holding a changed cell or chain, leaves reduced (after the
    change, the duals of the components before it may spare the solver: best_matching)."""
    edges, row_label, joined = reached(table, change, metric, after)
    found = at_most_one_choice(edges)
    if found is not None:
        return found
    duals = (lambda rows: table.row_duals(metric, rows)) if after else None
    # a component of one edge is worth it, one of two (which share a chain: a star) the larger,
    # as `best_total` takes a star's, without its call: a category's fixes reach dozens of
    # components, 29,000 of the corpus's 34,000 one or two edges after
    return sum(edges[cells[0]] if len(cells) == 1 else
               max(edges[cells[0]], edges[cells[1]]) if len(cells) == 2 else best_total(cells, edges, duals)
               for cells in labelled_groups(edges, row_label, joined))


def reached(table: CeafTable, change: CeafChange, metric: str, after: bool
             ) -> tuple[dict[tuple[int, int], float], dict[int, int], dict[int, int]]:
    """The edges (cells and their phi) of the components holding a changed cell or chain, leaves
    reduced, with the label of each key chain reached and the labels joined (`labelled_groups`).

    The search below runs once per fix over a whole component, so it is written out: a column's
    cells and size, a row's cells, read once per chain taken, the phi of `_phi` and the labels
    inline (the same values, in the same order of edges, as a call per edge gave).  It also
    finds the components as it goes: a chain first reached through an edge joins the component
    of the chain it was reached from, and only an edge between two chains already reached can
    join two (a union of labels, rare), so no union-find over every edge is needed."""
    leaves = table.leaves(metric)
    col_cells, col_sizes, key_sizes, row_cells = table.col_cells, table.col_sizes, table.key_sizes, table.row_cells
    n_cols, n_sizes = len(col_cells), len(col_sizes)
    moved_sizes = change.sizes
    changed_rows, by_col, by_row = change.rows, change.by_col, change.by_row
    moved_cells = change.cells if after else {}
    col_hubs, row_hubs, row_leaves = leaves.col_hubs, leaves.row_hubs, leaves.row_leaves
    # the size of each changed chain now (every other chain keeps its size)
    size_now = {t: (col_sizes[t] if t < n_sizes else 0) + (d if after else 0) for t, d in moved_sizes.items()}

    seeds = {t for t in moved_sizes if size_now[t] > 0}
    edges: dict[tuple[int, int], float] = {}
    rows_todo, cols_todo = list(changed_rows), list(seeds)
    # the label of each chain reached: key chain k starts as k, response chain t as ~t
    row_label = {k: k for k in rows_todo}
    col_label = {t: ~t for t in cols_todo}
    joined: dict[int, int] = {}  # label -> the label it joined
    by_mentions = metric == CEAFM.name
    empty: dict[int, int] = {}

    while rows_todo or cols_todo:
        while cols_todo:
            t = cols_todo.pop()
            cells = col_cells[t] if t < n_cols else empty
            moved = by_col.get(t, empty) if after else empty
            size = size_now.get(t)
            if size is None:
                size = col_sizes[t]
            at_col = col_label[t]
            # an edge is reached from its row and from its column: one already found is skipped
            candidates: list[int] = []
            if t < n_cols:
                candidates.extend(col_hubs[t])
                for k in leaves.col_leaves(t, size):
                    if k not in changed_rows:
                        candidates.append(k)
                        break
            candidates.extend(by_col.get(t, ()))
            for k in candidates:
                cell = (k, t)
                if cell in edges:
                    continue
                n = cells.get(k, 0) + moved.get(k, 0)
                if n > 0:
                    edges[cell] = float(n) if by_mentions else 2.0 * n / (key_sizes[k] + size)
                    at_row = row_label.get(k)
                    if at_row is None:
                        row_label[k] = at_col
                        rows_todo.append(k)
                    else:
                        _join(joined, at_row, at_col)
        while rows_todo:
            k = rows_todo.pop()
            cells = row_cells[k]
            moving = after and k in changed_rows
            key_size = key_sizes[k]
            at_row = row_label[k]
            candidates = list(row_hubs[k])
            candidates.extend(by_row.get(k, ()))
            if len(moved_sizes) <= len(cells):
                candidates.extend(moved_sizes)
            else:
                candidates.extend(t for t in cells if t in moved_sizes)
            for t in row_leaves[k]:
                if t not in moved_sizes:
                    candidates.append(t)
                    break
            for t in candidates:
                cell = (k, t)
                if cell in edges:
                    continue
                n = cells.get(t, 0)
                if moving:
                    n += moved_cells.get(cell, 0)
                if n > 0:
                    if by_mentions:
                        edges[cell] = float(n)
                    else:
                        size = size_now.get(t)
                        edges[cell] = 2.0 * n / (key_size + (col_sizes[t] if size is None else size))
                    at_col = col_label.get(t)
                    if at_col is None:
                        col_label[t] = at_row
                        cols_todo.append(t)
                    else:
                        _join(joined, at_row, at_col)
    return edges, row_label, joined


def _join(joined: dict[int, int], first: int, second: int) -> None:
    """Two labels of chains found connected (an edge between chains already reached): the first's
    root joins the second's, unless they are one (`reached`'s labels)."""
    while first in joined:
        first = joined[first]
    while second in joined:
        second = joined[second]
    if first != second:
        joined[first] = second


def labelled_groups(edges: dict[tuple[int, int], float], row_label: dict[int, int],
                     joined: dict[int, int]) -> list[list[tuple[int, int]]]:
    """The edges by connected component, from `reached`'s labels, each component's edges in the
    order found and the components in the order of their first edge."""
    roots: dict[int, int] = {}
    groups: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for cell in edges:
        label = row_label[cell[0]]
        root = roots.get(label)
        if root is None:
            root = label
            while root in joined:
                root = joined[root]
            roots[label] = root
        groups[root].append(cell)
    return list(groups.values())

"""The change of the official counts when a fix moves a few mentions, without rescoring chains.

Why: rescoring the part of a document a fix reaches (metrics.errors.chen_ng.impact) is quadratic when one
response chain holds thousands of mentions, each with an error of its own: every fix reaches the
whole chain, so every fix rescored it.  But a fix that moves a set P of mentions (all of one key
chain) from response chain A to chain B changes only the cells (k, A) and (k, B) of the
contingency table and the sizes of A and B.  MUC, B3, LEA and the mention counts are sums of
per-cell terms and per-chain terms, so their change is a sum over the changed cells and chains,
given per-chain sums kept from the start (`DeltaTable`).

CEAF's best alignment is not a sum, but it decomposes over connected components of the overlap
graph, and a component's leaves (a chain overlapping exactly one chain of the other side) compete
only for that one chain: the best alignment uses at most the best leaf of each.  So the change is
the best alignment of the part the fix reaches, before and after, with each hub's leaves reduced
to its best one (kept sorted per chain size) and each component solved by `best_matching`: its
shortcuts, then the duals of the component's best matching before the change (`DeltaTable.row_duals`),
which certify most unique optima after it, then the engine's solver.

Clean components only (every span listed once on each side, where all of v8.01's cell sizes are the
same): a document that lists a span twice has its table too, with the chains connected to such a
span marked (`chen_ng.document_state.tainted_chains`); a fix that reaches them, and the weighted and
application metrics, are rescored (impact.py).  Every value here is checked against rescoring
whole documents (tests/test_errors_impact.py).  One fix's counts come from
`chen_ng.fixes.single_fix_counts`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from functools import cached_property

import numpy as np

from metrics.errors.best_matching import matching_duals
from metrics.errors import ceaf_arrays, ceaf_change, ceaf_components, move_rows
from metrics.errors.ceaf_change import Counts, Leaves
from metrics.model import Document, Span
from metrics.measures.catalog import BCUB, CEAFE, CEAFM, LEA, MENTIONS, MUC
from metrics.measures.score import Score
from metrics.runtime.union_find import least_members

DELTA_METRICS = frozenset(m.name for m in (MENTIONS, MUC, BCUB, CEAFM, CEAFE, LEA))
"""The metrics whose change is computed here."""


def _links(size: int) -> float:
    """LEA's links of a chain: a singleton has one self-link."""
    return 1.0 if size == 1 else size * (size - 1) / 2


def _lea_common(n: int, key_size: int, response_size: int) -> float:
    if n == 1 and key_size == 1 and response_size == 1:
        return 1.0
    return n * (n - 1) / 2


class CeafCells:
    """The cells of a clean document pair (or of several, `joined`) as dictionaries, with what
    CEAF's change reads: chain sizes, components, each component's best alignment before any
    change, the leaves, and the cells as arrays (`ceaf_components.TableArrays`), each made when
    first asked for.  The `ceaf_*` modules read it through their `CeafTable` protocol."""

    def __init__(self, key_sizes: list[int], col_sizes: list[int], row_cells: list[dict[int, int]],
                 col_cells: list[dict[int, int]]) -> None:
        self.key_sizes = key_sizes
        self.col_sizes = col_sizes
        self.row_cells = row_cells
        self.col_cells = col_cells
        self._leaves: dict[str, Leaves] = {}
        self._components: tuple[list[int], list[int]] | None = None
        self._optimum: dict[tuple[str, int], float] = {}
        self._duals: dict[str, dict[int, float]] = {}
        self._dual_components: dict[str, set[int]] = {}
        self._arrays: ceaf_components.TableArrays | None = None

    def release(self) -> None:
        """Drop what was made when first asked for (the leaves and the arrays refer back to the
        table: a cycle, which pricing, with the collector paused, would keep to its end)."""
        self._leaves = {}
        self._arrays = None
        self._optimum = {}
        self._duals = {}
        self._dual_components = {}

    def given_before(self, known: ceaf_components.Before, metric: str) -> None:
        """What a pass over several documents' tables joined found of this one's components
        before any change (`TableArrays.blocks_before`), kept where this table has not found it."""
        if self._components is None:
            self._components = known.components
        for c, value in known.optimum.items():
            self._optimum.setdefault((metric, c), value)
        done = self._dual_components.setdefault(metric, set())
        mine = self._duals.setdefault(metric, {})
        row_component = self._components[0]
        for k, u in known.duals.items():
            if row_component[k] not in done:
                mine[k] = u
        done |= known.certified

    def leaves(self, metric: str) -> Leaves:
        if metric not in self._leaves:
            self._leaves[metric] = Leaves(self, metric)
        return self._leaves[metric]

    def best_before(self, change: _Change, metric: str) -> float:
        """The best alignment, before the change, of the components the change reaches: the sum
        of each component's best, kept per component (every fix in a large component needs its
        value), summed in component order so the value does not depend on which fix asked first."""
        row_component, column_component = self.component_index()
        reached = {row_component[k] for k in change.rows if self.row_cells[k]}
        reached.update(column_component[t] for t in change.sizes if t < len(self.col_cells) and self.col_cells[t])
        total = 0.0
        for c in sorted(reached):
            total += self.component_best(metric, c)
        return total

    def component_best(self, metric: str, c: int) -> float:
        """The best alignment of component c (named by its first key chain) before any change."""
        best = self._optimum.get((metric, c))
        if best is None:
            start = _Change(self, NO_CHANGE)
            start.rows = {c}  # a component is named by its first key chain
            best = self._optimum[(metric, c)] = ceaf_change.best(self, start, metric, False)
        return best

    def arrays(self) -> ceaf_components.TableArrays:
        """The cells as arrays, for CEAF-e's change of many fixes at once (`ceaf_arrays`)."""
        if self._arrays is None:
            self._arrays = ceaf_components.TableArrays(self)
        return self._arrays

    def row_duals(self, metric: str, rows: Iterable[int]) -> dict[int, float]:
        """The key chains' dual values of their components' best matchings before any change
        (`best_matching.matching_duals`), each component's found when first asked for; a chain
        left out of every component's leaves reduced has none (0)."""
        known = self._duals.setdefault(metric, {})
        done = self._dual_components.setdefault(metric, set())
        row_component = self.component_index()[0]
        for k in rows:
            c = row_component[k]
            if c not in done:
                done.add(c)
                start = _Change(self, NO_CHANGE)
                start.rows = {c}
                edges, row_label, joined = ceaf_change.reached(self, start, metric, False)
                for cells in ceaf_change.labelled_groups(edges, row_label, joined):
                    known.update(matching_duals(cells, edges) or {})
        return known

    def component_index(self) -> tuple[list[int], list[int]]:
        """Each key chain's and response chain's connected component of the overlap graph, named
        by its first key chain (a chain with no cell is a component of its own)."""
        if self._components is None:
            n_rows = len(self.row_cells)
            rows = [k for k, cells in enumerate(self.row_cells) for _ in cells]
            columns = [n_rows + t for cells in self.row_cells for t in cells]
            # key chains are numbered first: a component's least member is its first key chain
            roots = least_members(n_rows + len(self.col_cells), rows, columns).tolist()
            self._components = (roots[:n_rows], roots[n_rows:])
        return self._components


class DeltaTable(CeafCells):
    """The cells of a clean document pair as dictionaries, with the per-chain sums the metrics'
    changes need, and (built on first use) the leaves for CEAF."""

    def __init__(self, key: Document, response: Document, key_row: dict[Span, int]) -> None:
        row_cells: list[dict[int, int]] = [{} for _ in key.chains]
        col_cells: list[dict[int, int]] = [{} for _ in response.chains]
        for t, chain in enumerate(response.chains):
            cells = col_cells[t]
            for span in chain:
                k = key_row.get(span)
                if k is not None:
                    cells[k] = cells.get(k, 0) + 1
            for k, n in cells.items():
                row_cells[k][t] = n
        super().__init__([len(chain) for chain in key.chains], [len(chain) for chain in response.chains],
                         row_cells, col_cells)
        self.key_row = key_row
        self.col_squares = [sum(n * n for n in cells.values()) for cells in col_cells]
        self._response_chains = response.chains

    # Made when first asked for: LEA alone reads `col_common`, edits alone `col_of`; a document
    # priced for other metrics, or by counts only, never pays for them.
    @cached_property
    def col_of(self) -> dict[Span, int]:
        """Each response span's chain (the last listing it: only clean chains are read here)."""
        return {span: t for t, chain in enumerate(self._response_chains) for span in chain}

    @cached_property
    def col_common(self) -> list[float]:
        """LEA's common links of each response chain, summed over its cells."""
        key_sizes, col_sizes = self.key_sizes, self.col_sizes
        return [sum(_lea_common(n, key_sizes[k], col_sizes[t]) for k, n in cells.items())
                for t, cells in enumerate(self.col_cells)]


def joined(tables: Sequence[CeafCells]) -> tuple[CeafCells, list[int], list[int]]:
    """Several documents' cells as one table, with where each document's key chains and response
    chains start in it: each document's chains numbered after the previous documents'.

    Why: CEAF-e's change of a document's single fixes as arrays paid numpy's fixed cost per call
    once per document, about what the searches they replace cost (benchmarks/README.md); over
    one table of all the documents it is paid once (`ceaf_arrays.block_rows`).  No cell joins
    two documents, so each component is one document's, its chains in the same order: every
    value computed per component is the document's own."""
    key_sizes: list[int] = []
    col_sizes: list[int] = []
    row_cells: list[dict[int, int]] = []
    col_cells: list[dict[int, int]] = []
    first_rows, first_cols = [], []
    for table in tables:
        row_start, col_start = len(key_sizes), len(col_sizes)
        first_rows.append(row_start)
        first_cols.append(col_start)
        key_sizes += table.key_sizes
        col_sizes += table.col_sizes
        row_cells += [{t + col_start: n for t, n in cells.items()} for cells in table.row_cells]
        col_cells += [{k + row_start: n for k, n in cells.items()} for cells in table.col_cells]
    return CeafCells(key_sizes, col_sizes, row_cells, col_cells), first_rows, first_cols


def counts_of(table: DeltaTable, moved: dict[Span, int | None]) -> Counts:
    """The counts a set of moves (`Edit.moved`) changes, in the order the moves list them."""
    col_of, key_row = table.col_of, table.key_row
    return tally((key_row.get(span), frm, to, 1) for span, to in moved.items()
                 for frm in (col_of.get(span),) if frm != to)


def tally(moves: Iterable[tuple[int | None, int | None, int | None, int]]) -> Counts:
    """The counts of moves of mentions, each (key chain or None, response chain it leaves or None,
    chain it joins or None, how many mentions), cells and chains in the order the moves list them."""
    cells: dict[tuple[int, int], int] = {}
    sizes: dict[int, int] = {}
    matched = responses = 0
    for k, frm, to, n in moves:
        if frm is not None:
            sizes[frm] = sizes.get(frm, 0) - n
            if k is not None:
                cells[(k, frm)] = cells.get((k, frm), 0) - n
        if to is not None:
            sizes[to] = sizes.get(to, 0) + n
            if k is not None:
                cells[(k, to)] = cells.get((k, to), 0) + n
        if frm is None or to is None:
            step = n if frm is None else -n
            responses += step
            if k is not None:
                matched += step
    return tuple(cells.items()), tuple(sizes.items()), matched, responses


NO_CHANGE: Counts = ((), (), 0, 0)


class _Change:
    """The cells and chain sizes a change (`Counts`) changes, indexed as the metrics read them."""

    def __init__(self, table: CeafCells, counts: Counts) -> None:
        self.table = table
        self.cells = cells = dict(counts[0])
        self.sizes = sizes = dict(counts[1])
        self.mentions = [counts[2], counts[3]]
        self.by_col: dict[int, dict[int, int]] = {}
        self.by_row: dict[int, list[int]] = {}
        for (k, t), d in cells.items():
            self.by_col.setdefault(t, {})[k] = d
            self.by_row.setdefault(k, []).append(t)
        self.rows = {k for k, _ in cells}

    @cached_property
    def cell_counts(self) -> list[tuple[int, int, int, int]]:
        """(key chain, response chain, its cell before, after) of each changed cell, in order
        (listed when a metric asks: CEAF alone, as pricing one fix asks it, reads none)."""
        col_cells, n_cols = self.table.col_cells, len(self.table.col_cells)
        return [(k, t, n, n + d) for (k, t), d in self.cells.items() for n in (col_cells[t].get(k, 0) if t < n_cols else 0,)]

    @cached_property
    def size_counts(self) -> list[tuple[int, int, int]]:
        """(response chain, its size before, after) of each changed chain, in order."""
        col_sizes, n_cols = self.table.col_sizes, len(self.table.col_cells)
        return [(t, n, n + d) for t, d in self.sizes.items() for n in (col_sizes[t] if t < n_cols else 0,)]

    def size(self, t: int, after: bool) -> int:
        before = self.table.col_sizes[t] if t < len(self.table.col_sizes) else 0
        return before + self.sizes.get(t, 0) if after else before

    def n(self, k: int, t: int, after: bool) -> int:
        before = self.table.col_cells[t].get(k, 0) if t < len(self.table.col_cells) else 0
        return before + self.cells.get((k, t), 0) if after else before


def changes(table: DeltaTable, counts: Counts, metrics: tuple[str, ...]) -> dict[str, Score]:
    """The change of each metric's four counts under a change (`counts_of` an edit's moves)."""
    change = _Change(table, counts)
    return {metric: _CHANGES[metric](table, change) if metric in _CHANGES else _ceaf(table, change, metric)
            for metric in metrics}


def _mentions(table: DeltaTable, change: _Change) -> Score:
    matched, responses = change.mentions
    return Score(matched, 0, matched, responses)


def _muc(table: DeltaTable, change: _Change) -> Score:
    correct = sum(max(after - 1, 0) - max(before - 1, 0) for _, _, before, after in change.cell_counts)
    links = sum(max(after - 1, 0) - max(before - 1, 0) for _, before, after in change.size_counts)
    return Score(correct, 0, correct, links)


def _bcub(table: DeltaTable, change: _Change) -> Score:
    recall = 0.0
    squares: dict[int, int] = {}
    key_sizes = table.key_sizes
    for k, t, before, after in change.cell_counts:
        grown = after * after - before * before
        recall += grown / key_sizes[k]
        squares[t] = squares.get(t, 0) + grown
    precision = 0.0
    col_squares = table.col_squares
    for t, s0, s1 in change.size_counts:
        old = col_squares[t] if t < len(col_squares) else 0
        precision += ((old + squares.get(t, 0)) / s1 if s1 else 0.0) - (old / s0 if s0 else 0.0)
    return Score(recall, 0, precision, sum(change.sizes.values()))


def _lea(table: DeltaTable, change: _Change) -> Score:
    """LEA's terms change in the changed cells, and in every cell of a chain whose size leaves or
    reaches 1 (a singleton's self-link): such a chain has at most one cell before or after, and
    one side's many cells were all moved, so listing them costs no more than the moves."""
    redo = set(change.cells)
    for t in change.sizes:
        if min(change.size(t, False), change.size(t, True)) <= 1:
            old = table.col_cells[t] if t < len(table.col_cells) else {}
            redo.update((k, t) for k in old)
            redo.update((k, t) for k in change.by_col.get(t, ()))
    recall = 0.0
    common: dict[int, float] = defaultdict(float)
    for k, t in redo:
        size_k = table.key_sizes[k]
        c0 = _lea_common(change.n(k, t, False), size_k, change.size(t, False))
        c1 = _lea_common(change.n(k, t, True), size_k, change.size(t, True))
        recall += size_k * (c1 - c0) / _links(size_k)
        common[t] += c1 - c0
    precision = 0.0
    for t in change.sizes:
        old = table.col_common[t] if t < len(table.col_common) else 0.0
        s0, s1 = change.size(t, False), change.size(t, True)
        precision += (s1 * (old + common[t]) / _links(s1) if s1 else 0.0) - (s0 * old / _links(s0) if s0 else 0.0)
    return Score(recall, 0, precision, sum(change.sizes.values()))


_CHANGES = {MENTIONS.name: _mentions, MUC.name: _muc, BCUB.name: _bcub, LEA.name: _lea}


ARRAY_METRICS = frozenset((MUC.name, BCUB.name, CEAFE.name))
"""The metrics `change_arrays` computes for many changes at once (CEAF-e: `ceaf_arrays`, which
leaves to `_ceaf` the changes it does not decide)."""


def change_arrays(table: DeltaTable, many: Sequence[Counts], metrics: Sequence[str]) -> dict[str, np.ndarray]:
    """The change of each metric's four counts (MUC, B3: `ARRAY_METRICS`) under each of many
    changes, as rows of an (n, 4) array per metric: `changes(table, counts, (metric,))[metric].counts()`
    of each, to the bit.

    Why: a document's hundreds of single fixes (and its categories) each built a `_Change`, two
    Scores and their dicts for MUC and B3, whose changes are closed forms over a few cells.  Here
    every change's cells and chains are laid end to end as rows, the same float operations run
    element by element, and each change's sums are taken by `np.bincount`, which adds a bin's
    weights one after another from 0.0, in row order: the order `_muc` and `_bcub` add their
    terms (the first cell, then the next), so every value is the same float.  (Padded to the
    largest change, as first written, a category's hundred cells cost a numpy call per column.)"""
    return block_arrays([table], [many], metrics)


def block_arrays(tables: Sequence[DeltaTable], manys: Sequence[Sequence[Counts]], metrics: Sequence[str],
                 moved: move_rows.OneMoves | None = None) -> dict[str, np.ndarray]:
    """`change_arrays` of several documents' changes (`manys[d]` of `tables[d]`) in one pass, their
    rows end to end: CEAF-e's over the tables `joined` (`ceaf_arrays.block_rows`), MUC's and
    B3's sums over every document's rows at once.  Why: a corpus's documents have a hundred
    changes each at the median, and each numpy call's fixed cost was paid once per document.
    `moved`: more changes, of one move each (`move_rows`), their rows after those of `manys`."""
    assert set(metrics) <= ARRAY_METRICS, metrics
    out = {}
    n_counted = sum(map(len, manys))
    if CEAFE.name in metrics:
        table, first_rows, first_cols = (tables[0], [0], [0]) if len(tables) == 1 else joined(tables)
        blocks = [ceaf_arrays.Block(*block) for block in zip(tables, manys, first_rows, first_cols)]
        shared = False  # the documents' tables given what the pass found (`given_before`), once

        def one(b: int, counts: Counts) -> list[float]:
            nonlocal shared
            if not shared:  # the arrays are done when the first change is left to the search
                shared = True
                _share(table, tables, first_rows, first_cols)
            return _ceaf(tables[b], _Change(tables[b], counts), CEAFE.name).counts()

        laid = None
        if moved is not None:
            laid = ceaf_arrays.Laid(len(moved), *move_rows.ceaf_laid(
                moved, n_counted, first_rows, first_cols, n_cols=[len(t.col_cells) for t in tables],
                n_joined_cols=len(table.col_cells)),
                moved.counts)
        out[CEAFE.name] = ceaf_arrays.block_rows(table, blocks, CEAFE.name, one, laid)
        if not shared:
            _share(table, tables, first_rows, first_cols)
        if len(tables) > 1:  # its arrays and leaves point back to it: freed now, not at the next collection
            table.release()
        metrics = [metric for metric in metrics if metric != CEAFE.name]
        if not metrics:
            return out
    cell_rows: list[tuple[int, int, int, int]] = []  # per changed cell: its change, key chain's size, before, after
    size_rows: list[tuple[int, int, int, int, int]] = []  # per changed chain: its change, size before, after,
    # its squares before, the squares its changed cells add
    at = 0
    for table, many in zip(tables, manys):
        col_cells, col_sizes, key_sizes, n_cols = table.col_cells, table.col_sizes, table.key_sizes, len(table.col_cells)
        col_squares = table.col_squares
        for cells, sizes, _, _ in many:
            squares: dict[int, int] = {}
            for (k, t), d in cells:
                n = col_cells[t].get(k, 0) if t < n_cols else 0
                cell_rows.append((at, key_sizes[k], n, n + d))
                squares[t] = squares.get(t, 0) + (n + d) * (n + d) - n * n
            for t, d in sizes:
                n = col_sizes[t] if t < n_cols else 0
                size_rows.append((at, n, n + d, col_squares[t] if t < n_cols else 0, squares.get(t, 0)))
            at += 1
    cell = np.array(cell_rows, dtype=np.int64).reshape(-1, 4)
    size = np.array(size_rows, dtype=np.int64).reshape(-1, 5)
    if moved is not None:
        cells_left, cells_joined, sizes_left, sizes_joined = move_rows.count_rows(
            moved, at, [t.key_sizes for t in tables], [t.col_sizes for t in tables], [t.col_squares for t in tables])
        cell = np.concatenate([cell, cells_left, cells_joined])
        size = np.concatenate([size, sizes_left, sizes_joined])
        at += len(moved)
    out.update((metric, (_muc_arrays if metric == MUC.name else _bcub_arrays)(cell, size, at))
               for metric in metrics)
    return out


def _share(joined: CeafCells, tables: Sequence[CeafCells], first_rows: list[int], first_cols: list[int]) -> None:
    """Each document's table given what the pass over them `joined` found before any change."""
    sizes = [(len(table.row_cells), len(table.col_cells)) for table in tables]
    for table, theirs in zip(tables, joined.arrays().blocks_before(first_rows, first_cols, sizes)):
        table.given_before(theirs, CEAFE.name)


def _sums(change: np.ndarray, terms: np.ndarray, n_many: int) -> np.ndarray:
    """Each change's sum of its rows' terms, added one after another from 0.0 in row order."""
    return np.bincount(change, weights=terms, minlength=n_many) if len(change) else np.zeros(n_many)


def _muc_arrays(cell: np.ndarray, size: np.ndarray, n_many: int) -> np.ndarray:
    """`_muc` of each change, from `change_arrays`'s rows (whole numbers: exact in any order)."""
    out = np.zeros((n_many, 4), dtype=np.float64)
    correct = _sums(cell[:, 0], (np.maximum(cell[:, 3] - 1, 0) - np.maximum(cell[:, 2] - 1, 0)).astype(np.float64),
                    n_many)
    out[:, 0] = out[:, 2] = correct
    out[:, 3] = _sums(size[:, 0], (np.maximum(size[:, 2] - 1, 0) - np.maximum(size[:, 1] - 1, 0)).astype(np.float64),
                      n_many)
    return out


def _bcub_arrays(cell: np.ndarray, size: np.ndarray, n_many: int) -> np.ndarray:
    """`_bcub` of each change, from `change_arrays`'s rows: each term as `_bcub` computes it, then
    summed in its order."""
    out = np.zeros((n_many, 4), dtype=np.float64)
    out[:, 0] = _sums(cell[:, 0], (cell[:, 3] * cell[:, 3] - cell[:, 2] * cell[:, 2]) / cell[:, 1], n_many)
    before, after, old = size[:, 1], size[:, 2], size[:, 3]
    now = np.divide(old + size[:, 4], after, out=np.zeros(len(after)), where=after != 0)
    then = np.divide(old, before, out=np.zeros(len(before)), where=before != 0)
    out[:, 2] = _sums(size[:, 0], now - then, n_many)
    out[:, 3] = _sums(size[:, 0], (after - before).astype(np.float64), n_many)
    return out


def _ceaf(table: DeltaTable, change: _Change, metric: str) -> Score:
    total = ceaf_change.best(table, change, metric, True) - table.best_before(change, metric)
    if metric == CEAFM.name:
        return Score(total, 0, total, sum(change.sizes.values()))
    chains = sum((after > 0) - (before > 0) for _, before, after in change.size_counts)
    return Score(total, 0, total, chains)


def table_of(key: Document, response: Document, key_row: dict[Span, int]) -> DeltaTable | None:
    """The delta table of a document pair, or None when a span is listed twice on a side (v8.01
    then counts cells in three ways, which only rescoring follows)."""
    if sum(map(len, key.chains)) != len(key_row) or sum(map(len, response.chains)) != len({s for c in response.chains for s in c}):
        return None
    return DeltaTable(key, response, key_row)


def partial_table(key: Document, response: Document, key_row: dict[Span, int]) -> DeltaTable:
    """The delta table of any document pair: exact for the chains `document_state.tainted_chains` leaves
    out."""
    return DeltaTable(key, response, key_row)

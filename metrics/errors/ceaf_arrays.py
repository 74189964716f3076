"""CEAF-e's change under many single fixes of clean documents at once, as array work.

Why: `metrics.errors.delta` found each fix's change by searching the components it reaches and
solving them again (`ceaf_change`), 40-100 us of Python per fix, two fifths of pricing a corpus's
errors.  A certificate per fix in Python gained nothing (benchmarks/README.md); what pays is doing
every fix in one pass of numpy: every fix of every document asked at once, the documents as
blocks of one table (`block_rows`; one document's pass cost about the searches it saved, numpy's
fixed cost per call paid per document).  Two kinds of change cover almost every single fix:

- SIZE: one response chain changes size and no cell moves (a mention absent from the key removed,
  or split out into a chain of its own, which overlaps nothing): only that column's weights change;
- MOVE: a key chain k's mentions leave response chain a (or none: mentions added) for chain b (or a
  new one, or none: mentions removed): a link, a split, an added or a removed mention.  Columns a
  and b change; the cell (k, a) goes when it empties, which may part its component in two (a
  bridge: `ceaf_components.search`).

The best alignment after the change: a star's (one key chain, or one response chain that changes
size; or one key chain whose mentions move within its star or to a new chain: a star after too) is
its largest edge, as `best_matching.at_most_one_choice` takes it.  Any other component's comes from
its best matching before the change, as `delta` reduces the component (hubs and each hub's first
best leaf), certified unique by key-chain duals (`ceaf_components.TableArrays`); after the change
only columns a and b are judged again, over the cells the reduction keeps, as
`best_matching.certified` judges a column (from a few best cells per column and size after:
`ceaf_columns`, so a fix costs the same in a column of ten cells or of ten thousand): each other
column keeps its partner, or its lack of one, by the margin it had.  Where a and b decide (each
one's best key chain clear of 0 and of its second by MARGIN, free or let go by the other, and any
key chain they let go with a dual of 0), the matching after is that one and unique, so the search
and the solver would find it too.  Two more moves of one step each are certified with one dual
changed (`ceaf_columns`): a judged column that takes the partner of a column c no change touches
(c moves to its best free key chain or to none: `reseat`), and a key chain with a positive dual
let go (it moves to its best free column or to none: `release`); not both in one change.  A change
to a key chain's first leaf of several stands where the next leaf the reduction brings in stays
free (`next_leaves_left_out`).  Everything else goes to `delta` one change at a time (`one`), as
before: ties, two chains wanting one key chain, longer paths, a next leaf that comes in
(`TableArrays.reduction_keeps`), and components with no certificate.  (A key chain k that is a leaf
of a response chain t with others brings t's next leaf in when it changes: t is judged too, with
its cells as the reduction then keeps them.)

To the bit: the engine sums a component's best matching in key-chain order from 0 (`best_total`,
the solver's pairs too) and two components' sums one after the other (x + y is y + x); here every
key chain of the part reached that weighs anything after (matched before, or taken by a column
judged) holds a slot, in that order; a chain left out adds 0.0, which changes no sum (x + 0.0 is
x), so it holds none, and the cost of a fix is its matchings', not its components' (a response
chain that merged thousands of key chains matches one).  The slots of each side of a parted
component are added apart, column by column.  A star's value is a maximum (no rounding).  The change is that value minus the best before the change as `delta`
keeps it.  tests/test_ceaf_arrays.py checks every change against `delta.changes`, float for float.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple, Protocol

import numpy as np

from metrics.errors.ceaf_columns import Moved, Tops, column_tops, gather, judge, next_leaves_left_out, one_step, \
    release, reseat, segment_max
from metrics.errors.ceaf_change import CeafTable, Counts
from metrics.errors.ceaf_components import TableArrays, best_edges


class ArrayTable(CeafTable, Protocol):
    """A table of cells (`CeafTable`) with its cells as arrays (`delta.CeafCells.arrays`)."""

    def arrays(self) -> TableArrays: ...


SIZE, MOVE = 1, 2
"""The kinds of change computed here (the module's docstring): one chain's size; a key chain's
mentions leaving one chain (or none) for another (or a new one)."""


def kind_of(counts: Counts, n_cols: int) -> tuple[int, ...] | None:
    """(SIZE, response chain, its size change, new chains) or (MOVE, key chain, chain it leaves or
    -1, how many leave, chain it joins (n_cols or more: a new one, or none when none join), how
    many join) for a change computed here; None for any other (`delta` computes it)."""
    cells, sizes = counts[0], counts[1]
    if not cells:
        old = [(t, d) for t, d in sizes if t < n_cols]
        if len(old) == 1:
            return SIZE, old[0][0], old[0][1], sum(d > 0 for t, d in sizes if t >= n_cols)
        return None
    if len(cells) == 1 and len(sizes) == 1:
        (k, t), d = cells[0]
        if sizes[0] == (t, d) and d > 0:
            return MOVE, k, -1, 0, t, d
        if sizes[0] == (t, d) and t < n_cols:  # mentions removed: they join no chain
            return MOVE, k, t, -d, n_cols, 0
        return None
    if len(cells) == 2 and len(sizes) == 2:
        ((k, a), out), ((k2, b), into) = cells
        if out > 0:
            a, out, b, into = b, into, a, out
        if k == k2 and out < 0 < into and dict(sizes) == {a: out, b: into}:
            return MOVE, k, a, -out, b, into
    return None


class Block(NamedTuple):
    """One document's changes in a pass over several documents' (`block_rows`): its table, its
    changes (counts in its own chains' numbers), and where its key chains and response chains
    start in the table of the pass (`delta.joined`)."""

    table: ArrayTable
    many: Sequence[Counts]
    first_row: int
    first_col: int


def change_rows(table: ArrayTable, many: Sequence[Counts], metric: str,
                one: Callable[[Counts], list[float]]) -> np.ndarray:
    """`block_rows` of one document's changes, over its own table."""
    return block_rows(table, [Block(table, many, 0, 0)], metric, lambda _, counts: one(counts))


def block_rows(joined: ArrayTable, blocks: Sequence[Block], metric: str,
               one: Callable[[int, Counts], list[float]], laid: Laid | None = None) -> np.ndarray:
    """CEAF-e's four counts changed by each change of each block (the blocks' changes end to end),
    as rows: the changes of the kinds above as arrays over `joined`, the table all the blocks'
    tables are part of, every other one by `one(block, counts)` (`delta`'s change of one, on the
    block's own table).  CEAF-e's fourth count, the response chains gained, is the chains that
    come to exist less those that cease to.  Each change's chains are renumbered as `joined`
    numbers them (a new chain, or none: `joined`'s n_cols), and every value is computed per
    component, so a change's row is the one its document's table alone gives, float for float.
    `laid`: more changes, already classed (`move_rows.ceaf_laid`), after the blocks' ones."""
    arrays = joined.arrays()
    n_cols = arrays.n_cols
    sized: list[tuple[int, ...]] = []  # (change, response chain, its size change, new chains)
    moves: list[tuple[int, ...]] = []  # (change, key chain, a, its cell before, leaving, b, its cell before, joining)
    others: list[int] = []
    starts = []  # where each block's changes start
    at = 0
    for table, many, first_row, first_col in blocks:
        starts.append(at)
        n_block_cols, row_cells = len(table.col_cells), table.row_cells
        for counts in many:
            kind = kind_of(counts, n_block_cols)
            if kind is None:
                others.append(at)
            elif kind[0] == SIZE:
                sized.append((at, kind[1] + first_col, kind[2], kind[3]))
            else:
                _, k, a, leaving, b, joining = kind
                cells = row_cells[k]
                moves.append((at, k + first_row, a + first_col if a >= 0 else -1, cells.get(a, 0), leaving,
                              b + first_col if b < n_block_cols else n_cols, cells.get(b, 0), joining))
            at += 1
    n_blocks_changes = at
    laid_sized, laid_moves = np.array(sized, dtype=np.int64).reshape(-1, 4), np.array(moves, dtype=np.int64).reshape(-1, 8)
    if laid is not None:
        laid_sized, laid_moves = np.concatenate([laid_sized, laid.sized]), np.concatenate([laid_moves, laid.moves])
        others += laid.others.tolist()
        at += laid.n
    out = np.zeros((at, 4))
    totals = np.zeros(at)
    decided = np.ones(at, dtype=bool)
    decided[others] = False
    sizes = arrays.col_sizes
    reach = np.minimum(arrays.comp_rows, arrays.comp_cols) + 3  # a matching, and the chains judged
    for batch in _batches(laid_sized, reach[arrays.root_col[laid_sized[:, 1]]]):
        at, col, change, new = batch.T
        out[at, 3] = (sizes[col] + change > 0).astype(np.int64) - (sizes[col] > 0) + new
        _sizes(arrays, metric, np.array((at, col, sizes[col] + change)), totals, decided)
    b_reach = np.where(laid_moves[:, 5] < n_cols, reach[arrays.root_col[np.minimum(laid_moves[:, 5], n_cols)]], 0)
    for batch in _batches(laid_moves, reach[arrays.root_row[laid_moves[:, 1]]] + b_reach):
        moved = batch.T
        at, _, a, _, leaving, b, _, joining = moved
        a0, b0 = np.where(a >= 0, a, n_cols), np.where(b < n_cols, b, n_cols)  # n_cols: no chain, size 0
        out[at, 3] = ((sizes[a0] - leaving > 0).astype(np.int64) - (sizes[a0] > 0)
                      + (sizes[b0] + joining > 0) - (sizes[b0] > 0))
        _moves(arrays, metric, moved, totals, decided)
    out[:, 0] = out[:, 2] = totals
    left = np.flatnonzero(~decided)
    for i, b in zip(left.tolist(), (np.searchsorted(starts, left, side="right") - 1).tolist()):
        out[i] = one(b, blocks[b].many[i - starts[b]]) if i < n_blocks_changes else one(*laid.counts(i - n_blocks_changes))
    return out


class Laid(NamedTuple):
    """Changes classed before `block_rows` (`move_rows.ceaf_laid`), placed after the blocks' own:
    how many, the SIZE and MOVE rows (`block_rows`'s layout), the places of the others, and the
    block and counts of a change by its place among them (for `one`)."""

    n: int
    sized: np.ndarray
    moves: np.ndarray
    others: np.ndarray
    counts: Callable[[int], tuple[int, Counts]]


TERMS_AT_ONCE = 1 << 20
"""At most this many (change, key chain) terms laid out at once (`_sorted_sums` holds a row of
the widest matching's length for every change of a call): a component of thousands of key chains
each matched, which every fix on it reaches, laid out for all its changes together took gigabytes
(3,000 key chains: 2.3 GB).  Each change's row is its own, so batches give the same floats."""


def _batches(rows: np.ndarray, reached: np.ndarray) -> list[np.ndarray]:
    """`rows` cut, in order, into batches of at most `TERMS_AT_ONCE` terms: a batch's number of
    rows times the most key chains one of them reaches (a row alone may hold more)."""
    if len(rows) * int(reached.max(initial=0)) <= TERMS_AT_ONCE:
        return [rows] if len(rows) else []
    cuts: list[int] = [0]
    widest = 0
    for n, width in enumerate(reached.tolist()):
        widest_with = max(widest, width, 1)
        if n > cuts[-1] and (n - cuts[-1] + 1) * widest_with > TERMS_AT_ONCE:
            cuts.append(n)
            widest_with = max(width, 1)
        widest = widest_with
    return [rows[start:end] for start, end in zip(cuts, [*cuts[1:], len(rows)])]


_segment_max = segment_max
"""A star's best edge (named here: tests/test_ceaf_arrays.py counts the stars it takes)."""


def _sorted_sums(fix: np.ndarray, row: np.ndarray, term: np.ndarray, apart: np.ndarray, n: int) -> np.ndarray:
    """Per fix, its terms (one per key chain, none twice) added in key-chain order from 0 in two
    groups, those `apart` and the others, then the two sums added: `best_total` of each component
    after the change, summed as `ceaf_change.best` sums two (x + 0.0 is x: a chain left out, an
    empty group, so the terms of chains left out may be missing)."""
    order = np.lexsort((row, fix))
    fix, term, apart = fix[order], term[order], apart[order]
    place = np.arange(len(fix)) - np.searchsorted(fix, fix)
    width = int(place.max()) + 1 if len(place) else 0
    near, far = np.zeros((n, width)), np.zeros((n, width))
    near[fix, place] = np.where(apart, 0.0, term)
    far[fix, place] = np.where(apart, term, 0.0)
    first, second = np.zeros(n), np.zeros(n)
    for j in range(width):
        first = first + near[:, j]
        second = second + far[:, j]
    return first + second


def _terms(arrays: TableArrays, fix: np.ndarray, rows: np.ndarray, olds: list[np.ndarray],
           chosen: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(fix, key chain, weight after) of every key chain of the matching after each fix that may
    weigh anything: `rows` (the matchings before, by fix), and the key chains the judged columns
    take (`chosen`: key chain or -1, its weight), each once (a key chain taken is among `rows`
    when it was matched, and no two columns of a fix decided here take one key chain); the key
    chains judged columns let go (`olds`) weigh 0.0."""
    new = [(taken >= 0) & (arrays.weight[np.maximum(taken, 0)] == 0.0) for taken, _ in chosen]
    fix = np.concatenate([fix] + [np.flatnonzero(there) for there in new])
    rows = np.concatenate([rows] + [taken[there] for (taken, _), there in zip(chosen, new)])
    term = arrays.weight[rows]
    for old in olds:
        term = np.where(rows == old[fix], 0.0, term)
    for taken, weight in chosen:
        term = np.where(rows == taken[fix], weight[fix], term)
    return fix, rows, term


def _sizes(arrays: TableArrays, metric: str, changed: np.ndarray, totals: np.ndarray, decided: np.ndarray) -> None:
    """Changes of one response chain's size, no cell moved (the module's docstring): `changed`
    holds each one's place, response chain and size after, as rows."""
    at, col, size = changed
    has_cells = arrays.col_ptr[col + 1] > arrays.col_ptr[col]
    decided[at[has_cells & (size <= 0)]] = False  # cannot be: its cells would move
    # a chain with no cell is in no component: nothing before or after (0 - 0.0)
    has_cells &= size > 0
    at, col, size = at[has_cells], col[has_cells], size[has_cells]
    if not len(at):
        return
    component = arrays.root_col[col]
    n_rows, n_cols = arrays.comp_rows[component], arrays.comp_cols[component]
    after = np.full(len(at), np.nan)
    # a star on one key chain: the largest of its edges, this chain's at the new size (the
    # chain's best two edges before found once: the best of the others is one of them)
    star = (n_rows == 1) & (n_cols > 1)
    if star.any():
        row = arrays.col_rows[arrays.col_ptr[col[star]]]
        keys, inverse = np.unique(row, return_inverse=True)
        owner, cell = gather(arrays.row_ptr, keys)
        t = arrays.row_cols[cell]
        weights = 2.0 * arrays.row_n[cell] / (arrays.key_sizes[keys][owner] + arrays.col_sizes[t])
        best, best_col = best_edges(owner, weights, t, cell, len(keys))
        inverse = inverse.reshape(-1)
        other = np.where(best_col[inverse, 0] == col[star], best[inverse, 1], best[inverse, 0])
        own = 2.0 * arrays.col_n[arrays.col_ptr[col[star]]] / (arrays.key_sizes[row] + size[star])
        after[star] = _segment_max(np.repeat(np.arange(len(row)), 2), np.column_stack((other, own)).reshape(-1),
                                   len(row))
    # a star on one response chain (this one): its largest edge at the new size; any other
    # component: its matching, this column judged again
    rest = np.flatnonzero(~star)
    if len(rest):
        star = n_cols[rest] == 1
        arrays.certify(component[rest[~star]], metric)  # the key chains' duals the columns are judged by
        tops = column_tops(arrays, col[rest], size[rest])
        after[rest[star]] = tops.top_weight[star]
        if not star.all():
            after[rest[~star]] = _sized_matchings(arrays, metric, component[rest[~star]], col[rest[~star]],
                                                  size[rest[~star]], tops=Tops(*(x[~star] for x in tops)))
    done = ~np.isnan(after)
    totals[at[done]] = after[done] - arrays.component_optimum(component[done], metric)
    decided[at[~done]] = False


def _sized_matchings(arrays: TableArrays, metric: str, component: np.ndarray, col: np.ndarray,
                     size: np.ndarray, *, tops: Tops) -> np.ndarray:
    """The best matching's total after each change of a column's size, in components that are
    no star (`tops`: each column's at its size after); NaN where the certificate does not decide."""
    n = len(component)
    good = arrays.certify(component, metric)
    chosen, chosen_weight, decides, top, second = judge(arrays, tops, np.full(n, -1), np.zeros(n, dtype=np.int64),
                                                        size)
    left_out, brought = next_leaves_left_out(arrays, metric, col, np.full(n, arrays.n_cols))
    good &= left_out
    old = arrays.partner_of_col[col]
    let_go = (old >= 0) & (chosen != old)
    good &= decides
    # the column takes another column c's partner: c moves on (`reseat`); or it lets go a key
    # chain with a positive dual: that one moves on (`release`); not both
    c = np.where(good & (chosen >= 0) & (chosen != old), arrays.partner_of_row[np.maximum(chosen, 0)], -1)
    c = np.where(c >= 0, c, arrays.n_cols)
    moved_on, k2, k2_weight = reseat(arrays, c, top, second, chosen[:, None])
    good &= (c == arrays.n_cols) | moved_on
    k0 = np.where(good & let_go & (arrays.dual[np.maximum(old, 0)] != 0.0), old, -1)
    good &= (k0 < 0) | ((c == arrays.n_cols) & ~brought)
    k0[~good] = -1
    released, t_star, k0_weight = release(arrays, k0, col[:, None], size[:, None],
                                          np.where(chosen >= 0, top, 0.0)[:, None])
    good &= (k0 < 0) | released
    fix, rows = arrays.matched_rows(np.where(good, component, len(arrays.known) - 1))
    fix, rows, term = _terms(arrays, fix, rows, [old, np.where(c < arrays.n_cols, chosen, -1)],
                             [(np.where(good, chosen, -1), chosen_weight), (np.where(good, k2, -1), k2_weight),
                              (np.where(good & (t_star >= 0), k0, -1), k0_weight)])
    out = _sorted_sums(fix, rows, term, np.zeros(len(fix), dtype=bool), n)
    out[~good] = np.nan
    return out


def _star_moves(arrays: TableArrays, metric: str, moves: np.ndarray, totals: np.ndarray) -> None:
    """Moves of the mentions of k, a star's one key chain, from its chain a (or none) to its chain
    b or a new one: every edge after is k's, so the best alignment after is the largest (as
    `best_matching.at_most_one_choice` takes it; none: 0), of a's and b's edges after and k's
    other edges, whose best is among its best three before (found once per key chain)."""
    at, k, a, cell_a, leaving, b, cell_b, joining = moves
    keys, inverse = np.unique(k, return_inverse=True)
    owner, cell = gather(arrays.row_ptr, keys)
    t = arrays.row_cols[cell]
    weights = 2.0 * arrays.row_n[cell] / (arrays.key_sizes[keys][owner] + arrays.col_sizes[t])
    best, best_col = best_edges(owner, weights, t, cell, len(keys), width=3)
    inverse = inverse.reshape(-1)
    best, best_col = best[inverse], best_col[inverse]
    best[(best_col == a[:, None]) | (best_col == b[:, None])] = -np.inf
    a0, b0 = np.maximum(a, 0), np.minimum(b, arrays.n_cols)  # n_cols: no chain, size 0
    size_a, size_b = arrays.col_sizes[a0] - leaving, arrays.col_sizes[b0] + joining
    key_size = arrays.key_sizes[k]
    with np.errstate(divide="ignore", invalid="ignore"):  # an edge gone: no weight
        edge_a = np.where((a >= 0) & (cell_a > leaving), 2.0 * (cell_a - leaving) / (key_size + size_a), -np.inf)
        edge_b = np.where(cell_b + joining > 0, 2.0 * (cell_b + joining) / (key_size + size_b), -np.inf)
    after = np.max(np.column_stack((best, edge_a, edge_b)), axis=1)
    after[after == -np.inf] = 0.0
    totals[at] = after - arrays.component_optimum(arrays.root_row[k], metric)


def _moves(arrays: TableArrays, metric: str, moves: np.ndarray, totals: np.ndarray, decided: np.ndarray) -> None:
    """Changes that move a key chain's mentions from chain a (or none) to chain b (or a new one):
    the components of k and b, the cell (k, a) removed when it empties (a bridge test says
    whether its component parts in two), columns a and b judged again (the module's docstring)."""
    at, k, a, cell_a, leaving, b, cell_b, joining = moves
    n_cols = arrays.n_cols
    has_a, old_b = a >= 0, b < n_cols
    a0, b0 = np.where(has_a, a, n_cols), np.where(old_b, b, n_cols)
    comp_k = np.where(arrays.row_ptr[k + 1] > arrays.row_ptr[k], arrays.root_row[k], -1)
    comp_b = np.where(old_b & (arrays.col_ptr[b0 + 1] > arrays.col_ptr[b0]), arrays.root_col[b0], -1)
    comp_b[comp_b == comp_k] = -1  # one component, counted once
    m = Moved(at, k, a, cell_a, leaving, b, cell_b, joining, has_a, old_b, a0, b0, comp_k, comp_b)
    # a star on k, b new or in it: a star on k after too, its largest edge (no certificate)
    star = (comp_k >= 0) & (comp_b < 0) & (arrays.comp_rows[np.maximum(comp_k, 0)] == 1)
    if star.any():
        _star_moves(arrays, metric, moves[:, star], totals)
        m = m.take(~star)
    good = np.ones(len(m.at), dtype=bool)
    for comp in (m.comp_k, m.comp_b):
        there = comp >= 0
        good[there] &= arrays.certify(comp[there], metric)
    decided[m.at[~good]] = False
    m = m.take(good)
    n = len(m.at)
    if not n:
        return
    columns, olds, good = _judged_columns(arrays, metric, m)
    parted, child = _parted(arrays, m)
    # the key chains of the part reached that weigh anything after: those matched before (the
    # components of k and b) and those the judged columns take (k too when it had no cell)
    none = len(arrays.known) - 1  # the node of no chain: no key chains
    fix_k, rows_k = arrays.matched_rows(np.where(good & (m.comp_k >= 0), m.comp_k, none))
    fix_b, rows_b = arrays.matched_rows(np.where(good & (m.comp_b >= 0), m.comp_b, none))
    taken = [(np.where(good, chosen, -1), weight) for _, chosen, weight, *_ in columns]
    fix, rows, term = _terms(arrays, np.concatenate((fix_k, fix_b)), np.concatenate((rows_k, rows_b)), olds, taken)
    # a key chain on a's side of a bridge removed is apart (b's component joins k's side)
    on_a_side = np.zeros(len(fix), dtype=bool)
    if parted.any():
        c = np.maximum(child[fix], 0)
        below = (arrays.enter[rows] >= arrays.enter[c]) & (arrays.enter[rows] < arrays.leave[c])
        in_k = (m.comp_k[fix] >= 0) & (arrays.root_row[rows] == m.comp_k[fix])
        on_a_side = parted[fix] & in_k & np.where(child[fix] == m.k[fix], ~below, below)
    after = _sorted_sums(fix, rows, term, on_a_side, n)
    before = np.zeros(n)  # as `delta.CeafCells.best_before` sums them: two components add either way
    for comp in (m.comp_k, m.comp_b):
        there = comp >= 0
        before[there] = before[there] + arrays.component_optimum(comp[there], metric)
    totals[m.at[good]] = (after - before)[good]
    decided[m.at[~good]] = False


def _judged_columns(arrays: TableArrays, metric: str, m: Moved
                    ) -> tuple[list[tuple[np.ndarray, ...]], list[np.ndarray], np.ndarray]:
    """The columns each move judges again, as (column or -1, key chain it takes or -1, that
    edge's weight, whether it decides, its best and second slack) per column, and the one-step
    moves' (`one_step`: -1, the key chain moved on, its weight, None, None, None); each judged
    column's partner before (-1: none), and the key chain the column moved on lost; and whether
    the matching after is the one they make: every other column keeps its partner, these take
    theirs (no two the same key chain, every key chain let go with dual 0 or released, and no
    next leaf brought in that takes its key chain: those go to `delta`).

    Column a after: its cells, k's less those leaving (gone if none stay; no cells if a empties);
    column b after: its cells, k's with those joining (a new cell if k had none there); k a leaf
    of t, which has other key chains: t's next leaf comes in, t is judged too (k's one cell, in
    t, as it was).  The three judged in one pass."""
    n, n_cols, k = len(m.at), arrays.n_cols, m.k
    size_a = np.where(m.has_a, arrays.col_sizes[m.a0] - m.leaving, 0)
    size_b = np.where(m.old_b, arrays.col_sizes[m.b0], 0) + m.joining
    leaf_of = arrays.reduction_keeps(metric)[0]
    t = np.where(m.has_a, -1, leaf_of[k])
    t[t == m.b] = -1
    t_now = np.where(t >= 0, t, n_cols)
    k_in_t = np.zeros(n, dtype=np.int64)
    k_in_t[t >= 0] = arrays.row_n[arrays.row_ptr[k[t >= 0]]]
    sizes = np.concatenate((np.maximum(size_a, 0), size_b, arrays.col_sizes[t_now]))
    tops = column_tops(arrays, np.concatenate((np.where(size_a > 0, m.a0, n_cols), m.b0, t_now)), sizes)
    judged = judge(arrays, tops, np.tile(k, 3),
                   np.concatenate((m.cell_a - m.leaving, m.cell_b + m.joining, k_in_t)), sizes)
    columns = [(ids, *(x[j * n:(j + 1) * n] for x in judged))
               for j, ids in enumerate((np.where(m.has_a, m.a, -1), np.where(m.old_b, m.b, -1), t))]
    # where a or b is a key chain's first leaf of several, the reduction brings that chain's next
    # leaf in: the change stands only where it stays free (it goes to delta otherwise)
    good, brought = next_leaves_left_out(arrays, metric, m.a0, m.b0)
    also, brought_b = next_leaves_left_out(arrays, metric, m.b0, m.a0)
    good &= also
    brought |= brought_b
    # a judged column that takes the partner of a column c no change touches: c moves on
    # (`reseat`), one such column per change
    c, lead, runner_up = np.full(n, n_cols), np.zeros(n), np.zeros(n)
    augmenting = np.zeros(n, dtype=np.int64)
    for i, (ids, chosen, _, decides, top, second) in enumerate(columns):
        good &= decides
        for other_ids, other, *_ in columns[i + 1:]:
            good &= ~((chosen >= 0) & (chosen == other))
        was = arrays.partner_of_row[np.maximum(chosen, 0)]
        judged_was = np.zeros(n, dtype=bool)
        for other_ids, *_ in columns:
            judged_was |= (other_ids >= 0) & (was == other_ids)
        takes = (chosen >= 0) & (was >= 0) & ~judged_was
        augmenting += takes
        c, lead, runner_up = np.where(takes, was, c), np.where(takes, top, lead), np.where(takes, second, runner_up)
    olds = [np.where(ids >= 0, arrays.partner_of_col[np.maximum(ids, 0)], -1) for ids, *_ in columns]
    good = one_step(arrays, m, columns, olds, good, brought=brought, taking=(c, lead, runner_up, augmenting),
                    sizes=sizes.reshape(3, n).T)
    return columns, olds, good


def _parted(arrays: TableArrays, m: Moved) -> tuple[np.ndarray, np.ndarray]:
    """Whether the cell (k, a) a move empties parts its component in two, b not joining the sides
    again (a bridge of the component's depth-first tree, `TableArrays.search`), and the node
    below that bridge (-1: none)."""
    n, n_rows, k = len(m.at), arrays.n_rows, m.k
    parted = np.zeros(n, dtype=bool)
    child = np.full(n, -1, dtype=np.int64)
    emptied = m.has_a & (m.cell_a == m.leaving)
    if emptied.any():
        arrays.search(m.comp_k[emptied])
        node_a = n_rows + m.a0
        down = emptied & (arrays.parent[node_a] == k)  # a entered from k
        up = emptied & (arrays.parent[k] == node_a)  # k entered from a
        child = np.where(down, node_a, np.where(up, k, -1))
        top = np.where(down, k, node_a)
        parted = (child >= 0) & (arrays.low[np.maximum(child, 0)] > arrays.enter[top])
        # b on a's side of the bridge joins the two again
        b_in = m.old_b & (m.comp_b < 0) & (np.where(m.old_b, arrays.root_col[m.b0], -1) == m.comp_k)
        b_node = n_rows + m.b0
        b_below = (arrays.enter[b_node] >= arrays.enter[np.maximum(child, 0)]) & \
            (arrays.enter[b_node] < arrays.leave[np.maximum(child, 0)])
        b_side_of_a = np.where(child == k, ~b_below, b_below)
        parted &= ~(b_in & b_side_of_a)
    return parted, child

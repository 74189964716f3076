"""CEAF's components for the solver: each one's best total and matching, as the solver gives
them (`component_total`, `component_matching`: one component in Python), and the best totals and
matchings of many documents' components at once (`best_totals`, `best_matchings`), to the bit, most
of them without the solver.

Why: a corpus of GUM's size has some 1,700 components with two chains or more on both sides, and
every CEAF variant (CEAFm, CEAFe, LCEAFm, LCEAFe) solved each in Python, one by one: a fifth of a
`score` run with the key cached.  Most leave no real choice, and small ones have few matchings.

A component's total is the solver's best matching summed by row (key chain), the weights of the
pairs that are cells (a non-cell weighs 0, and adding 0.0 changes no float).  Taken here, in turn:
- every chain of the smaller side with one strictly best partner (above every other cell of it and
  above 0, the weight of a non-cell), no two sharing one: every other matching takes less from some
  chain, so this one is the unique optimum, the solver's (`no_choice`, as in the error analysis's
  re-solves);
- a small component (`SMALL_MATCHINGS` matchings of its smaller side at most): every matching's
  total at once.  Its total is the best of them when the weights' sums are exact (whole
  multiples of a power of two's inverse, as CEAF-m's and LCEAF-m's: `_sums_exact`; then any
  best matching sums to the same float) or when the smaller side has two chains
  (`_two_total` takes the best of the same sums, and a sum of two terms is the same in
  either order); otherwise when the best matching is better by `MARGIN` than any other with other
  cells (the solver, whose rounding is far below it, finds it), summed by row;
- of exact sums, the rest with three chains or more on each side: scipy's compiled solver
  (`_compiled_totals`: any best matching's total is the solver's; on the 250,000-token corpus
  some 650 of CEAF-m's and LCEAF-m's 1,360 components for the solver, 67 ms of Python against
  8 ms);
- of sums that round (CEAF-e's 2n / (|K| + |R|), LCEAF-e's), the rest with three chains or
  more on each side whose best matchings all give each key chain the same weight: scipy's
  compiled solver finds one, and the longest alternating paths through it certify that every
  matching within `MARGIN` of it does (`_certified`);
- the rest: the solver (`component_total`): real ties among weights whose sums round need its
  own choice, which decides the last bit.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from math import perm
from typing import cast

import numpy as np

from metrics.measures.assignment import sparse_assignment
from metrics.measures.table import Table

SMALL_MATCHINGS = 720
"""Most matchings of a component's smaller side into the other (6 x 6, 5 x 6, 3 x 10) weighed at once."""

WEIGHED_AT_ONCE = 1_000_000
"""Most matchings weighed in one pass (their totals as one array: a few tens of MB at most)."""

MARGIN = 1e-9
"""How much better than any other a best matching of weights that are not whole numbers must be
to be taken without the solver: far above the rounding of a sum of a few weights (CEAF's are at
most a chain's mentions), far below a real difference between two matchings' totals."""


@dataclass(frozen=True)
class Components:
    """The components for the solver of documents laid end to end, in document order and, in each
    document, in `Table.components` order; their cells in one array, component after component."""

    doc: np.ndarray
    """The document of each component."""
    n_rows: np.ndarray
    """Key chains of each component."""
    n_cols: np.ndarray
    """Response chains of each component."""
    cells: np.ndarray
    """Global cell index of each component's cells, component after component."""
    owner: np.ndarray
    """The component of each of `cells`."""
    row: np.ndarray
    """Each cell's key chain, counted in its component (as `Table.component_places`)."""
    col: np.ndarray
    """Each cell's response chain, counted in its component."""


def laid_components(components: dict[int, list[tuple[np.ndarray, np.ndarray, np.ndarray]]], cell_starts: np.ndarray,
                    cell_key: np.ndarray, cell_response: np.ndarray) -> Components:
    """The documents' components (`TableBlock.components`: document -> its (cells, key rows,
    response columns), each document's own) laid end to end, with global cells (each document's
    cells start at `cell_starts`) and each cell's place in its component (from the global chains
    of the cells, `cell_key` and `cell_response`)."""
    found = [(d, cells, len(rows), len(cols)) for d in sorted(components) for cells, rows, cols in components[d]]
    n = len(found)
    doc = np.fromiter((d for d, _, _, _ in found), np.int64, n)
    n_rows = np.fromiter((r for _, _, r, _ in found), np.int64, n)
    n_cols = np.fromiter((c for _, _, _, c in found), np.int64, n)
    sizes = np.fromiter((len(cells) for _, cells, _, _ in found), np.int64, n)
    local = np.concatenate([cells for _, cells, _, _ in found]).astype(np.int64) if n else np.zeros(0, np.int64)
    cells = local + np.repeat(cell_starts[doc], sizes)
    owner = np.repeat(np.arange(n, dtype=np.int64), sizes)
    return Components(doc, n_rows, n_cols, cells, owner, _rank(owner, cell_key[cells]), _rank(owner, cell_response[cells]))


def _rank(owner: np.ndarray, chain: np.ndarray) -> np.ndarray:
    """Each value's rank among the distinct values of its owner (chains are numbered in order, so
    this is `np.searchsorted` of the owner's sorted chains)."""
    if not len(owner):
        return owner
    code = owner * (int(chain.max()) + 1) + chain
    distinct, inverse = np.unique(code, return_inverse=True)
    first = np.searchsorted(distinct // (int(chain.max()) + 1), np.arange(int(owner.max()) + 1))
    return inverse.reshape(-1) - first[owner]


def best_totals(found: Components, phi: np.ndarray) -> list[float]:
    """The best total of every component under these cells' weights (`phi`, over all cells), as
    `component_total` gives it."""
    n = len(found.doc)
    totals: list[float | None] = [None] * n
    values = phi[found.cells]
    exact, nonnegative = _sums_exact(found, values), bool((values >= 0).all())
    if n and nonnegative:  # (the shortcuts' bounds read weights of at least 0, as CEAF's are)
        for c, cells in zip(*_no_choice(found, values)):
            totals[c] = _sum_in_turn(values[cells])
        for shape, members in _small_shapes(found, totals).items():
            top, clear, chosen = _weighed(found, values, members, shape)
            if shape[0] == 2 or exact:
                for c, total in zip(members, top.tolist()):
                    totals[c] = total
            else:
                for c, cells in zip(clear, chosen):
                    totals[c] = _sum_in_turn(values[cells])
    rest = [c for c in range(n) if totals[c] is None]
    if exact and nonnegative:
        for c, total in _compiled_totals(found, values, rest).items():
            totals[c] = total
    if nonnegative:
        for c, cells in _certified(found, values, [c for c in rest if totals[c] is None]).items():
            totals[c] = _sum_in_turn(values[cells])
    for c, first, pieces in _left_to_solver(found, values, [c for c in rest if totals[c] is None]):
        totals[c] = component_total(*pieces)
    return cast(list[float], totals)  # every one found


EXACT_SCALE = 1024.0
"""Weights that are whole multiples of 1/EXACT_SCALE (a power of two) add up exactly."""


def _sums_exact(found: Components, values: np.ndarray) -> bool:
    """Whether every sum of a matching's weights is exact in floating point, so that every best
    matching of a component sums to the same float, in any order: whole multiples of
    1/EXACT_SCALE below 2^40 times it (CEAF-m's overlaps, and LCEAF-m's under the LMetric weights'
    quarters), a matching summing fewer than 2^13 of them (so every partial sum stays below 2^53)."""
    scaled = values * EXACT_SCALE
    return bool((scaled == np.floor(scaled)).all() and (np.abs(scaled) < 2.0 ** 40).all()
                and (np.minimum(found.n_rows, found.n_cols) < 2 ** 13).all())


def _compiled_totals(found: Components, values: np.ndarray, rest: list[int]) -> dict[int, float]:
    """The best totals of the components `rest` with three chains or more on each side (two take
    `_two_total`, cheaper), when the weights' sums are exact (`_sums_exact`): any best matching
    then gives the solver's total to the bit, so scipy's compiled solver (`runtime.lsap`: loaded
    in half a millisecond) finds one, its cells summed by row as the Python solver's are."""
    from metrics.runtime.lsap import linear_sum_assignment

    chosen = [c for c in rest if min(int(found.n_rows[c]), int(found.n_cols[c])) >= 3]
    if not chosen:
        return {}
    solve = linear_sum_assignment()
    totals = {}
    for c, first, (at_row, at_col, weights, n_rows, n_cols) in _left_to_solver(found, values, chosen):
        dense = np.zeros((n_rows, n_cols))
        dense[at_row, at_col] = weights
        rows, cols = solve(dense, maximize=True)  # rows in order: the pairs by key chain
        total = sum(dense[rows, cols].tolist())
        if total > 0:  # (a total of 0 is the solver's to give: an int 0 when it takes no cell)
            totals[c] = total
    return totals


def best_matchings(found: Components, phi: np.ndarray) -> list[np.ndarray]:
    """The solver's best matching of every component under these weights (`formulas.best_cells`
    of each), as its cells by row (places in `found`'s arrays): of a matching unique but for
    cells of weight 0, its cells (those of weight 0 the solver would take may be left out: the
    ACE-value, which reads this, keeps only cells of a positive gain); of the others, the solver's
    own (`component_matching`)."""
    values = phi[found.cells]
    n = len(found.doc)
    matchings: list[np.ndarray | None] = [None] * n
    if n and bool((values >= 0).all()):
        for c, cells in zip(*_no_choice(found, values, idle=True)):
            matchings[c] = cells
        for shape, members in _small_shapes(found, matchings).items():
            for c, cells in zip(*_weighed(found, values, members, shape)[1:]):
                matchings[c] = cells
    for c, first, pieces in _left_to_solver(found, values, [c for c in range(n) if matchings[c] is None]):
        matchings[c] = first + np.array(component_matching(*pieces), dtype=np.int64)
    return cast(list[np.ndarray], matchings)  # every one found


BUCKETS = (3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64)
"""The sizes components are padded to, to have their duals found together (`_certified`); a
component with a side above the largest is left to the solver."""


def _certified(found: Components, values: np.ndarray, rest: list[int]) -> dict[int, np.ndarray]:
    """Of the components `rest` (weights of at least 0) with three chains or more on each side,
    those whose best total every solver sums to the same float, each with a best matching's
    cells of a weight above 0 by row (key chain; places in `found`), which `component_total`'s
    total sums as the solver's.

    Why: CEAF-e's and LCEAF-e's weights do not add up exactly, so on a tie that changes which
    weight a key chain gets, the solver's choice decides the last bit, and the Python solver's
    alone will do; but where every best matching gives each key chain the same weight (a unique
    best, or ties between chains of equal weight), every solver's sums alike.  scipy's compiled
    solver finds a best matching, and the longest alternating paths through it (`_same_best`,
    for all components of a size at once) certify that every matching within `MARGIN` of it
    gives each key chain the same weight: the Python solver's, optimal to within its rounding
    (far below `MARGIN`), is one of them.  Any other component goes to the Python solver.  On
    the 250,000-token corpus: 291 of LCEAF-e's 318 components left to a solver, 192 of CEAF-e's
    393.  The ACE-value's matchings are not asked for here: they must be the solver's cells,
    not only its weights, and its gains (sums of a few mention values) tie too often."""
    smaller = np.minimum(found.n_rows, found.n_cols)
    larger = np.maximum(found.n_rows, found.n_cols)
    chosen = [c for c in rest if smaller[c] >= 3 and larger[c] <= BUCKETS[-1]]
    if not chosen:
        return {}
    by_size: dict[int, list[int]] = {}
    for c in chosen:
        by_size.setdefault(next(b for b in BUCKETS if b >= larger[c]), []).append(c)
    out: dict[int, np.ndarray] = {}
    for size, members in by_size.items():
        out.update(_certified_of_size(found, values, members, size))
    return out


def _certified_of_size(found: Components, values: np.ndarray, members: list[int], size: int) -> dict[int, np.ndarray]:
    """`_certified` of components whose larger side is at most `size`, all at once: each made a
    square of `size` (the smaller side as rows, rows of weight 0 added for the columns a matching
    leaves, the padding matched to itself and shut off from the rest by a weight far below any),
    a best matching found by scipy's compiled solver, and certified (`_same_best`)."""
    from metrics.runtime.lsap import linear_sum_assignment

    count, padding = len(members), np.arange(size)
    place = np.full(len(found.doc), -1, dtype=np.int64)
    place[members] = np.arange(count)
    at = np.flatnonzero(place[found.owner] >= 0)
    b = place[found.owner[at]]
    transposed = found.n_rows[members] > found.n_cols[members]
    small, large = np.where(transposed[b], found.col[at], found.row[at]), np.where(transposed[b], found.row[at], found.col[at])
    k, m = np.minimum(found.n_rows, found.n_cols)[members], np.maximum(found.n_rows, found.n_cols)[members]
    inside = (padding[None, :, None] < m[:, None, None]) & (padding[None, None, :] < m[:, None, None])
    weights = np.where(inside, 0.0, -1e9)  # the padding shut off ...
    weights[:, padding, padding] = 0.0  # ... but matched to itself
    weights[b, small, large] = values[at]
    where = np.full((count, size, size), -1, dtype=np.int64)
    where[b, small, large] = at
    solve = linear_sum_assignment()
    sigma = np.tile(padding, (count, 1))
    taken = np.zeros((count, size), dtype=bool)
    for i, (rows, cols) in enumerate(solve(weights[i, :k_i, :m_i], maximize=True)
                                     for i, (k_i, m_i) in enumerate(zip(k.tolist(), m.tolist()))):
        sigma[i, rows] = cols  # every row of the smaller side is matched
        taken[i, cols] = True
    # the rows added (k .. m - 1 of each) take the columns left, in order
    free_b, free_col = np.nonzero(~taken & (padding[None, :] < m[:, None]))
    free_start = np.concatenate([[0], np.cumsum(m - k)])
    sigma[free_b, k[free_b] + np.arange(len(free_b)) - free_start[free_b]] = free_col
    unique = _same_best(weights, sigma, k, transposed)
    # each certified one's matching: its cells above 0, by row (key chain)
    every = np.arange(count)[:, None]
    cell = where[every, padding[None, :], sigma]
    chosen = (cell >= 0) & (weights[every, padding[None, :], sigma] > 0) & unique[:, None]
    b, row = np.nonzero(chosen)
    key = np.where(transposed[b], sigma[b, row], row)
    order = np.lexsort((key, b))
    owners, parts = _grouped(b[order], cell[b[order], row[order]])
    return {members[owner]: part for owner, part in zip(owners, parts)}


def _same_best(weights: np.ndarray, sigma: np.ndarray, k: np.ndarray, transposed: np.ndarray) -> np.ndarray:
    """For square weights (components by size, the first `k` rows the real ones, the key chains
    the columns where `transposed`) and a matching of each (`sigma`: each row's column), whether
    that matching is a best one and every matching within `MARGIN` of it gives each key chain the
    weight it gives: then all sum their cells, by key chain, to the same float.

    Changing a matching is moving rows round cycles, row i taking row a's column sigma(a), which
    changes the total by w[i, sigma(a)] - w[a, sigma(a)] along the edge a -> i; the longest paths
    between all rows (for all components at once, Floyd and Warshall's way) give the best change
    through each edge: its own plus the longest path from i back to a.  The matching is a best
    one when no cycle gains; a matching within `MARGIN` of it moves rows only along edges whose
    best change is within `MARGIN` of 0, and such an edge keeps each key chain's weight when it
    gives row i a column of the weight it had (key chains the rows), or column sigma(a) a row of
    the weight it had (key chains the columns).  A matching's cells of weight 0 add nothing."""
    count, size = sigma.shape
    every, padding = np.arange(count)[:, None], np.arange(size)
    matched = weights[every, padding[None, :], sigma]  # w[a, sigma(a)]
    taken = np.take_along_axis(weights, np.broadcast_to(sigma[:, None, :], weights.shape), axis=2)  # w[i, sigma(a)]
    change = taken - matched[:, None, :]  # change[b, i, a]: row i taking row a's column
    longest = np.swapaxes(change, 1, 2).copy()  # longest[b, a, i]: the longest path from a to i
    for middle in range(size):
        np.maximum(longest, longest[:, :, middle, None] + longest[:, None, middle, :], out=longest)
    best = longest[:, padding, padding].max(axis=1) <= 1e-12  # no cycle gains
    near = change + longest >= -MARGIN  # edges a -> i a matching within MARGIN of the best may take
    near[:, padding, padding] = False
    kept = np.where(transposed[:, None, None], taken == matched[:, None, :], taken == matched[:, :, None])
    return best & ~(near & ~kept).any(axis=(1, 2))


def _left_to_solver(found: Components, values: np.ndarray, rest: list[int]
                    ) -> Iterator[tuple[int, int, tuple[list[int], list[int], list[float], int, int]]]:
    """Each of the components `rest` as the solver takes it, one by one: (component, its first
    place in `found`'s arrays, (rows, columns, weights of its cells, its numbers of rows and of
    columns)), the arrays made lists once for all of them."""
    if not rest:
        return
    ends = np.cumsum(np.bincount(found.owner, minlength=len(found.doc))).tolist()
    row, col, weights = found.row.tolist(), found.col.tolist(), values.tolist()
    n_rows, n_cols = found.n_rows.tolist(), found.n_cols.tolist()
    for c in rest:
        first = ends[c - 1] if c else 0
        yield c, first, (row[first:ends[c]], col[first:ends[c]], weights[first:ends[c]], n_rows[c], n_cols[c])


def _sum_in_turn(values: np.ndarray) -> float:
    """The values summed one after another from 0, as `sum` adds them."""
    return sum(values.tolist())


def _no_choice(found: Components, values: np.ndarray, idle: bool = False) -> tuple[list[int], list[np.ndarray]]:
    """The components whose smaller side's chains (key chains on a tie) each have one strictly best
    partner, above 0, no two the same; and each one's best cells by row (places in `found`).  With
    `idle`, a chain whose cells all weigh 0 may be among them, left without a cell (whatever the
    solver gives it weighs 0: the matching's cells of weight above 0 are still the only best)."""
    by_row = (found.n_rows <= found.n_cols)[found.owner]
    chain = np.where(by_row, found.row, found.col)
    partner = np.where(by_row, found.col, found.row)
    order = np.lexsort((-values, chain, found.owner))  # by component, chain, best first
    owner, chain, partner, ranked = found.owner[order], chain[order], partner[order], values[order]
    first = np.ones(len(order), dtype=bool)
    first[1:] = (owner[1:] != owner[:-1]) | (chain[1:] != chain[:-1])
    strict = ranked > 0
    strict[:-1] &= ~((ranked[:-1] == ranked[1:]) & ~first[1:])  # a tie with the next cell of the chain
    best = np.flatnonzero(first)
    fine = strict[best]
    if idle:  # a chain of no weight takes no cell
        weighs = ranked[best] > 0
        best, fine = best[weighs], fine[weighs]
    # two chains of a component wanting one partner
    code = owner[best] * (int(partner.max()) + 1) + partner[best]
    by_code = np.argsort(code, kind="stable")
    same = code[by_code][1:] == code[by_code][:-1]
    fine[by_code[1:][same]] = False
    fine[by_code[:-1][same]] = False
    bad = np.zeros(len(found.doc), dtype=bool)
    bad[owner[best][~fine]] = True
    chosen = best[~bad[owner[best]]]
    # by component, then by row (key chain): the order the solver's pairs come in
    rows = np.where(by_row[order][chosen], chain[chosen], partner[chosen])
    chosen = chosen[np.lexsort((rows, owner[chosen]))]
    return _grouped(owner[chosen], order[chosen])


def _grouped(owner: np.ndarray, places: np.ndarray) -> tuple[list[int], list[np.ndarray]]:
    """The owners (places grouped by owner, in order) and each one's places."""
    if not len(owner):
        return [], []
    starts = np.flatnonzero(np.concatenate([[True], owner[1:] != owner[:-1]]))
    return owner[starts].tolist(), np.split(places, starts[1:])


def _small_shapes(found: Components, known: list) -> dict[tuple[int, int, bool], list[int]]:
    """The components not `known` with few matchings, by shape: (smaller side, larger side,
    whether the smaller side is the response's) -> components."""
    shapes: dict[tuple[int, int, bool], list[int]] = {}
    for c, (rows, cols) in enumerate(zip(found.n_rows.tolist(), found.n_cols.tolist())):
        if known[c] is None:
            k, m = min(rows, cols), max(rows, cols)
            if perm(m, k) <= SMALL_MATCHINGS:
                shapes.setdefault((k, m, cols < rows), []).append(c)
    return shapes


@lru_cache(maxsize=64)
def _matchings(k: int, m: int) -> np.ndarray:
    """Every way to give k chains distinct partners among m, as (matchings, k) partners."""
    return np.array(list(permutations(range(m), k)), dtype=np.int64).reshape(-1, k)


def _weighed(found: Components, values: np.ndarray, members: list[int], shape: tuple[int, int, bool]
             ) -> tuple[np.ndarray, list[int], list[np.ndarray]]:
    """Every matching of components of one shape (k chains on the smaller side, m on the other;
    `transposed`: the smaller side is the response's) weighed: each one's best total (its
    matchings' totals summed along the smaller side), the members whose best matching is better
    by `MARGIN` than any other with other cells, and each of those one's cells by row (places in
    `found`, non-cells left out).  Weighed in runs of components (`WEIGHED_AT_ONCE` matchings)."""
    k, m, transposed = shape
    run = max(1, WEIGHED_AT_ONCE // perm(m, k))
    if len(members) > run:
        tops, clear, chosen = [], [], []
        for start in range(0, len(members), run):
            top, more, cells = _weighed(found, values, members[start:start + run], shape)
            tops.append(top)
            clear += more
            chosen += cells
        return np.concatenate(tops), clear, chosen
    place = np.full(len(found.doc), -1, dtype=np.int64)
    place[members] = np.arange(len(members))
    at = np.flatnonzero(place[found.owner] >= 0)
    small, large = (found.col[at], found.row[at]) if transposed else (found.row[at], found.col[at])
    weights = np.zeros((len(members), k, m))
    where = np.full((len(members), k, m), -1, dtype=np.int64)
    weights[place[found.owner[at]], small, large] = values[at]
    where[place[found.owner[at]], small, large] = at
    matchings = _matchings(k, m)
    sums = weights[:, 0, matchings[:, 0]]
    for i in range(1, k):
        sums = sums + weights[:, i, matchings[:, i]]
    best = np.argmax(sums, axis=1)
    every = np.arange(len(members))
    top = sums[every, best]
    # the cells each matching takes, as one number: another matching of the same cells is no choice
    taken = np.zeros(sums.shape, dtype=np.int64)
    for i in range(k):
        taken += np.where(weights[:, i, matchings[:, i]] != 0, (matchings[:, i] + 1) * (m + 1) ** i, 0)
    rivals = np.where(taken != taken[every, best][:, None], sums, -np.inf).max(axis=1)
    clear = np.flatnonzero(top - rivals > MARGIN)
    partners = matchings[best[clear]]  # (clear, k): each smaller-side chain's partner
    chosen = where[clear[:, None], np.arange(k)[None, :], partners]
    if transposed:  # by key chain: the partners are the rows
        chosen = np.take_along_axis(chosen, np.argsort(partners, axis=1, kind="stable"), axis=1)
    return top, [members[i] for i in clear.tolist()], [cells[cells >= 0] for cells in chosen]


def component_total(at_row: list[int], at_col: list[int], values: list[float], n_rows: int, n_cols: int) -> float:
    """The best total of one component for the solver (its cells at these rows and columns, with
    these phi), summed as the solver's pairs come, by row (`component_totals` of each)."""
    if min(n_rows, n_cols) == 2:
        return _two_total(at_row, at_col, values, n_rows == 2)
    weights = dict(zip(zip(at_row, at_col), values))
    return sum([weights[pair] for pair in sparse_assignment(n_rows, n_cols, weights) if pair in weights])


def _two_total(at_row: list[int], at_col: list[int], values: list[float], rows_are_two: bool) -> float:
    """Best total of a component with two chains on one side, as the solver would sum it.

    The solver gives both chains distinct partners and leaves out a pair that is not a cell (phi
    0); so the best is the best sum of two distinct partners' cells, or one chain's cell alone (the
    other partnered with a non-cell).  Sums are taken as the solver's pairs come, by row."""
    two, many = (at_row, at_col) if rows_are_two else (at_col, at_row)
    first: dict[int, float] = {}
    second: dict[int, float] = {}
    for side, other, value in zip(two, many, values):
        (first if side == 0 else second)[other] = value
    candidates = list(first.values()) + list(second.values())
    for i, x in first.items():
        for j, y in second.items():
            if i != j:
                candidates.append(x + y if rows_are_two or i < j else y + x)
    return max(candidates, default=0.0)


def component_matching(at_row: list[int], at_col: list[int], values: list[float], n_rows: int, n_cols: int
                       ) -> list[int]:
    """The cells (their places in the lists) of the solver's best matching of one component (its
    cells at these rows and columns, with these phi), in the order of its pairs (by row)."""
    place = {pair: i for i, pair in enumerate(zip(at_row, at_col))}
    pairs = sparse_assignment(n_rows, n_cols, {pair: values[i] for pair, i in place.items()})
    return [place[pair] for pair in pairs if pair in place]

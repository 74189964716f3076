"""scipy's `linear_sum_assignment` replayed on a sparse matrix: the same pairs, no dense matrix.

Why: corefud-scorer aligns mentions with scipy's solver on the full keys x responses matrix, whose
entries are 0 except where a key and a response overlap; the pairs it picks among equally good
assignments are the scores' result, so they must be scipy's own.  A book of 12,000 x 17,000
mentions needs 1.7 GB for that matrix and time quadratic in its size.  Solving each component of
the overlap graph alone gives other pairs where there are ties: scipy's tie rule depends on every
row and column (a row of zeros takes the first free column, which a later row may have wanted).

This replays scipy's algorithm (scipy/optimize/rectangular_lsap, Crouse's shortest augmenting
path, scipy 1.17: no shift of the costs, rows in order, the wide way round) step by step with the
same floating-point operations, on the few columns each step can choose:

- a row's costs are -0.0 except its negative entries; a column's reduced cost from a visited row k
  is ((minVal_k + cost) - u_k) - v_j.  For a column no visited row has an entry in ("untracked"),
  that is x_k - v_j with x_k = minVal_k - u_k, so every free column (v_j = 0, never scanned) costs
  A = min_k x_k, and, as v_j <= 0, an assigned one costs at least A;
- so a step picks either a tracked column cheaper than A (scipy's tie rule among the equal ones:
  the last free one in the scan order, else the first one), or, when nothing is cheaper than A,
  the last free column in the scan order (scipy's rule prefers a free column among equals, and
  there is always a free one: rows <= columns);
- the scan order is scipy's `remaining` array, columns nc-1 .. 0 with the picked ones swapped out
  for the last one: it is kept as the few positions that changed, and the last free column of
  the rest is the smallest free column at or past nc - (columns left), found by a "next free"
  union-find.

Rounding can leave a scanned column's v_j a hair above 0 (scipy's own minVal - shortestPathCosts
is then -1e-16: exact arithmetic never gives it); such a column may cost less than A, so it is
tracked in every step while its v_j stays positive.  tests/test_lsap_sparse.py checks the pairs
against scipy on matrices full of ties.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TypeVar

import numpy as np  # at the top: every road to this module (head, partial, CorefUD and UA matching) loaded numpy first

_Item = TypeVar("_Item")


def _next_free(after: list[int], j: int) -> int:
    """The smallest free column >= j (`after[c] == c` when c is free), compressing the path."""
    root = j
    while after[root] != root:
        root = after[root]
    while after[j] != root:
        after[j], j = root, after[j]
    return root


@dataclass
class _Solver:
    """scipy's state between rows: the duals, the matching, and what the replay keeps beside."""

    entries: list[dict[int, float]]
    columns: int
    u: list[float]
    v: list[float]
    row4col: list[int]
    col4row: list[int]
    after: list[int]
    """The "next free" union-find (`after[c] == c` when c is free; index `columns` is the end)."""
    positive: set[int] = field(default_factory=set)
    """The columns whose v went above 0 through rounding."""


def sparse_linear_sum_assignment(entries: list[dict[int, float]], columns: int) -> list[int]:
    """Each row's column as scipy's `linear_sum_assignment` gives it on the dense matrix whose row
    i is -0.0 except `entries[i]` (column -> cost, each cost < 0); needs len(entries) <= columns."""
    rows = len(entries)
    solver = _Solver(entries, columns, [0.0] * rows, [0.0] * columns, [-1] * columns, [-1] * rows,
                     list(range(columns + 1)))
    u, v, row4col, col4row = solver.u, solver.v, solver.row4col, solver.col4row
    for current in range(rows):
        min_val, sink, spc, path, seen_rows, scanned = _augmenting_path(solver, current)
        u[current] += min_val
        for i in seen_rows:
            if i != current:
                u[i] += min_val - spc[col4row[i]]
        for j in scanned:
            v[j] -= min_val - spc[j]
            if v[j] > 0:
                solver.positive.add(j)
            else:
                solver.positive.discard(j)
        j = sink
        while True:
            i = path[j]
            row4col[j] = i
            col4row[i], j = j, col4row[i]
            if i == current:
                break
        solver.after[sink] = sink + 1
    return col4row


def _augmenting_path(solver: _Solver, current: int
                     ) -> tuple[float, int, dict[int, float], dict[int, int], list[int], list[int]]:
    """scipy's `augmenting_path` from row `current`: (minVal, sink, the shortest path costs and
    predecessors of the tracked and scanned columns, the rows seen, the columns scanned)."""
    entries, columns, u, v, row4col = solver.entries, solver.columns, solver.u, solver.v, solver.row4col
    min_val = 0.0
    left = columns                 # scipy's num_remaining
    moved: dict[int, int] = {}     # column -> its position, for the columns swapped into a hole
    at: dict[int, int] = {}        # position -> column, the same the other way round
    # shortest path cost of each tracked column still remaining: the columns of the rows visited,
    # and those that may cost less than A through a positive v
    spc: dict[int, float] = dict.fromkeys(solver.positive, math.inf)
    path: dict[int, int] = {}
    done: dict[int, float] = {}    # the scanned columns' costs, frozen when scanned
    visits: list[tuple[float, int]] = []
    cheapest, cheapest_row = math.inf, -1  # A and the first row that reached it
    seen_rows: list[int] = []
    scanned: list[int] = []
    i = current
    while True:
        seen_rows.append(i)
        row = entries[i]
        for j in row:
            if j not in spc and j not in done:
                # an untracked column's cost so far, as each earlier visit left it
                best, by = math.inf, -1
                for x, k in visits:
                    r = x - v[j]
                    if r < best:
                        best, by = r, k
                spc[j], path[j] = best, by
        for j in spc:
            r = ((min_val + row.get(j, -0.0)) - u[i]) - v[j]
            if r < spc[j]:
                spc[j], path[j] = r, i
        x = (min_val + -0.0) - u[i]
        visits.append((x, i))
        if x < cheapest:
            cheapest, cheapest_row = x, i
        low = min(spc.values(), default=math.inf)
        if low < cheapest:
            j = _tie_rule([c for c, cost in spc.items() if cost == low], moved, columns, row4col)
            min_val = low
        else:
            j = _last_free(moved, left, columns, row4col, solver.after)
            min_val = cheapest
            if j not in spc:
                spc[j], path[j] = cheapest, cheapest_row
        scanned.append(j)
        done[j] = spc.pop(j)
        # remaining[index] = remaining[--num_remaining]
        hole = moved.pop(j, columns - 1 - j)
        left -= 1
        last = at.pop(left, columns - 1 - left)
        if hole != left:
            moved[last], at[hole] = hole, last
        else:
            at.pop(hole, None)
        if row4col[j] == -1:
            return min_val, j, done, path, seen_rows, scanned
        i = row4col[j]


def _position(j: int, moved: dict[int, int], columns: int) -> int:
    """Where column j sits in scipy's scan order (`remaining`): where a swap put it, else nc-1-j."""
    return moved.get(j, columns - 1 - j)


def _tie_rule(tied: list[int], moved: dict[int, int], columns: int, row4col: list[int]) -> int:
    """scipy's pick among columns of equal cost: the last free one in the scan order, else the first."""
    free = [j for j in tied if row4col[j] == -1]
    if free:
        return max(free, key=lambda j: _position(j, moved, columns))
    return min(tied, key=lambda j: _position(j, moved, columns))


def _last_free(moved: dict[int, int], left: int, columns: int, row4col: list[int], after: list[int]) -> int:
    """The free column latest in the scan order: a free one swapped into a hole, or the smallest
    free column at or past `columns - left` (those still sit where they started)."""
    best, best_position = -1, -1
    start = _next_free(after, columns - left)
    if start < columns:
        best, best_position = start, columns - 1 - start
    for j, position in moved.items():
        if row4col[j] == -1 and position > best_position:
            best, best_position = j, position
    return best


# A matrix on which a solver that shifts the costs to be >= 0 first (a variant of the algorithm)
# picks other pairs than scipy 1.17 (rows 2, 4 and 6 take other columns).  Every scipy tried picks
# the replay's (1.9.3, 1.10.1, 1.11.4, 1.13.1, 1.15.3, 1.17.1: small11); the dense solve is for one
# that does not (tests/test_lsap_sparse.py takes it under such a solver).
_WITNESS = (
    {0: -0.25, 5: -0.5}, {0: -0.5, 4: -1.0, 7: -0.25}, {0: -2 / 3}, {0: -0.75, 5: -0.75},
    {0: -1.0, 1: -2 / 3, 3: -0.5, 7: -1.0}, {1: -1.0, 6: -0.25}, {1: -0.5, 4: -0.75, 7: -2 / 3},
    {0: -1.0, 1: -1 / 3, 3: -2 / 3, 5: -2 / 3, 7: -1 / 3},
)


@cache
def replays_scipy() -> bool:
    """Whether the scipy installed picks the replay's pairs on a matrix where the known variants
    of its algorithm differ (checked once a process: half a millisecond).  Where it does not, the
    caller solves the dense matrix, so the pairs stay that scipy's."""
    from metrics.runtime.lsap import linear_sum_assignment

    dense = np.full((len(_WITNESS), 8), -0.0)
    for i, row in enumerate(_WITNESS):
        for j, cost in row.items():
            dense[i, j] = cost
    _, cols = linear_sum_assignment()(dense)
    return cols.tolist() == sparse_linear_sum_assignment(list(_WITNESS), 8)


DENSE_CELLS = 1 << 16
"""Up to this many cells (512 KB), scipy solves the dense matrix itself: faster there than the
replay, which pays a Python step per row (gum-open's largest document has 14,751 cells)."""


def assignment(costs: list[dict[int, float]], columns: int) -> list[tuple[int, int]]:
    """scipy's `linear_sum_assignment` of the dense len(costs) x `columns` matrix that is -0.0
    except `costs[i]` (column -> cost < 0): its min(rows, columns) (row, column) pairs, in row order,
    as scipy gives them (a tall matrix solved as its transpose).  Replayed from the entries alone
    past `DENSE_CELLS` cells; solved by scipy itself below, and where this scipy is not the one
    replayed (`replays_scipy`)."""
    if not costs or not columns:
        return []
    if len(costs) * columns <= DENSE_CELLS or not replays_scipy():
        from metrics.runtime.lsap import linear_sum_assignment

        dense = np.full((len(costs), columns), -0.0)
        for i, row in enumerate(costs):
            for j, cost in row.items():
                dense[i, j] = cost
        rows, cols = linear_sum_assignment()(dense)
        return list(zip(rows.tolist(), cols.tolist()))
    if len(costs) <= columns:
        return list(enumerate(sparse_linear_sum_assignment(costs, columns)))
    by_column: list[dict[int, float]] = [{} for _ in range(columns)]
    for i, row in enumerate(costs):
        for j, cost in row.items():
            by_column[j][i] = cost
    return sorted((i, j) for j, i in enumerate(sparse_linear_sum_assignment(by_column, len(costs))))


def assigned_similarity(costs: list[dict[int, float]], columns: int) -> np.float64:
    """CEAF's similarity: the sum of the similarities (minus the costs) of `assignment`'s pairs,
    as numpy sums them on the dense table (over every assigned pair in row order, zeros included),
    so that it is the official scorers' to the bit without the table (a book's took gigabytes)."""
    pairs = assignment(costs, columns)
    return np.array([-costs[i].get(j, -0.0) for i, j in pairs], dtype=float).sum()


def positive_pairs(costs: list[dict[int, float]], columns: int) -> list[tuple[int, int]]:
    """The pairs of `assignment` that score (their cost < 0), as every mention matcher beyond exact
    spans takes them (CoNLL's head and partial, CorefUD's, UA's): a pair of no score stays unaligned."""
    return [(i, j) for i, j in assignment(costs, columns) if j in costs[i]]


def sharing_costs(rows: Sequence[_Item], columns: Sequence[_Item], units: Callable[[_Item], Iterable[Hashable]],
                  score: Callable[[_Item, _Item], float],
                  column_units: Callable[[_Item], Iterable[Hashable]] | None = None) -> list[dict[int, float]]:
    """Each row's costs for `assignment`: -`score` with each column that shares a unit with it (a
    word, a node, a sentence, a head; a column's units are `column_units`' where given) and scores
    above 0.  Why: the others share none and so score 0 whatever `score` is, and scoring every
    pair of a book's mentions was quadratic."""
    holders: dict[Hashable, list[int]] = {}
    for j, column in enumerate(columns):
        for unit in (column_units or units)(column):
            holders.setdefault(unit, []).append(j)
    costs: list[dict[int, float]] = []
    for row in rows:
        row_costs: dict[int, float] = {}
        for j in sorted({j for unit in units(row) for j in holders.get(unit, ())}):
            value = score(row, columns[j])
            if value > 0:
                row_costs[j] = -value
        costs.append(row_costs)
    return costs

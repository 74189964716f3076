"""The best one-to-one assignment of a small weight matrix (Kuhn-Munkres), in plain Python.

Why not always scipy's `linear_sum_assignment`: importing scipy.optimize costs about 0.5 s, a
quarter of a whole `corefwb score` run on a 100-document corpus, while CEAF's sub-problems (the
connected components of a document's key/response overlap graph that have several chains on both
sides) are small: on GUM the largest is 28 x 62 and most are 2 x 2.  The Hungarian algorithm with
potentials (Kuhn 1955, Munkres 1957; the shortest-augmenting-path form of Jonker & Volgenant) solves
such a matrix in well under a millisecond in Python.  Larger components, which this O(n^2 m) loop
would make slow, still go to scipy's compiled solver (`formulas.best_alignment` decides), loaded
only then and alone (`metrics.runtime.lsap`: half a millisecond, not scipy.optimize's 0.5 s).

Checked against scipy on random matrices, ties and zeros included (tests/test_assignment.py).
"""

from __future__ import annotations

from collections.abc import Sequence

SMALL = 100_000
"""Largest rows x columns x min(rows, columns) solved here; above it scipy is faster."""


def max_assignment(matrix: Sequence[Sequence[float]]) -> list[tuple[int, int]]:
    """The (row, column) pairs of a one-to-one assignment of maximum total weight.

    Every row or every column is assigned, whichever side is smaller.
    """
    n_rows = len(matrix)
    n_cols = len(matrix[0]) if n_rows else 0
    if n_rows == 0 or n_cols == 0:
        return []
    if n_rows <= n_cols:
        cost = [[-x for x in row] for row in matrix]
        return [(r, c) for r, c in _min_assignment(cost, n_rows, n_cols)]
    cost = [[-matrix[r][c] for r in range(n_rows)] for c in range(n_cols)]
    return sorted((r, c) for c, r in _min_assignment(cost, n_cols, n_rows))


def sparse_assignment(n_rows: int, n_cols: int, weights: dict[tuple[int, int], float]) -> list[tuple[int, int]]:
    """The best one-to-one assignment of a sparse weight matrix (absent entries weigh 0): here
    when small, by scipy otherwise (imported only then).  Pairs of weight 0 may be returned."""
    if min(n_rows, n_cols) == 2:
        pairs = _two(n_rows, n_cols, weights)
        if pairs is not None:
            return pairs
    if n_rows * n_cols * min(n_rows, n_cols) <= SMALL:
        matrix = [[0.0] * n_cols for _ in range(n_rows)]
        for (r, c), w in weights.items():
            matrix[r][c] = w
        return max_assignment(matrix)
    import numpy as np
    from metrics.runtime.lsap import linear_sum_assignment

    dense = np.zeros((n_rows, n_cols), dtype=np.float64)
    if weights:
        at = np.array(list(weights), dtype=np.int64)
        dense[at[:, 0], at[:, 1]] = np.fromiter(weights.values(), dtype=np.float64, count=len(weights))
    return list(zip(*(x.tolist() for x in linear_sum_assignment()(dense, maximize=True))))


def _two(n_rows: int, n_cols: int, weights: dict[tuple[int, int], float]) -> list[tuple[int, int]] | None:
    """Two chains on one side (most CEAF components: 1,071 of 3,871 are 2 x 2 on GUM, most others
    2 x n): every way to give both a distinct partner, when one is strictly best; None on a tie,
    so that the general solver decides ties exactly as it always has."""
    transposed = n_rows != 2
    get = (lambda a, b: weights.get((b, a), 0.0)) if transposed else (lambda a, b: weights.get((a, b), 0.0))
    n = n_rows if transposed else n_cols
    best, second, choice = -1.0, -1.0, (0, 1)
    for i in range(n):
        wi = get(0, i)
        for j in range(n):
            if i != j:
                total = wi + get(1, j)
                if total > best:
                    best, second, choice = total, best, (i, j)
                elif total > second:
                    second = total
    if best == second:
        return None
    i, j = choice
    return sorted([(i, 0), (j, 1)]) if transposed else [(0, i), (1, j)]


def _min_assignment(cost: list[list[float]], n: int, m: int) -> list[tuple[int, int]]:
    """Minimum-cost assignment of each of n rows to a distinct one of m >= n columns.

    Rows are added one at a time; each addition finds a shortest augmenting path in the reduced
    costs (Dijkstra over columns) and updates the potentials u, v so reduced costs stay >= 0.
    Column 0 is a virtual column holding the row being added (1-based indices inside).

    The columns not yet reached in a search are kept in a list, in order, and the reached ones in
    another, so each step walks only the columns it must (the same operations on the same numbers
    as a walk over all columns that skips the reached ones: the same pairs, ties and all).  Each
    step's lowering of the unreached columns' distances by its delta is done as the next step
    reads them (the same subtraction, one walk fewer), and not at all after the last step of a row.
    """
    inf = float("inf")
    u = [0.0] * (n + 1)
    v = [0.0] * (m + 1)
    owner = [0] * (m + 1)
    """row (1-based) assigned to each column, 0 for none"""
    way = [0] * (m + 1)
    padded = [[0.0] + row for row in cost]  # column j of a row at index j
    for i in range(1, n + 1):
        owner[0] = i
        j0 = 0
        min_to = [inf] * (m + 1)
        reached = [0]
        free = list(range(1, m + 1))
        lowered = 0.0  # the last step's delta, not yet taken off min_to (x - 0.0 is x)
        while True:
            i0 = owner[j0]
            row = padded[i0 - 1]
            ui = u[i0]
            delta, j1 = inf, 0
            for j in free:
                cur = row[j] - ui - v[j]
                known = min_to[j] - lowered
                if cur < known:
                    min_to[j] = cur
                    way[j] = j0
                    if cur < delta:
                        delta, j1 = cur, j
                else:
                    min_to[j] = known
                    if known < delta:
                        delta, j1 = known, j
            for j in reached:
                u[owner[j]] += delta
                v[j] -= delta
            lowered = delta
            j0 = j1
            if owner[j0] == 0:
                break
            reached.append(j0)
            free.remove(j0)
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    return sorted((owner[j] - 1, j - 1) for j in range(1, m + 1) if owner[j])

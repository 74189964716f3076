"""The plain-Python Kuhn-Munkres solver equals scipy's linear_sum_assignment (the reference)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

from metrics.measures.assignment import max_assignment

# Weights as CEAF produces them: zeros (chains that do not overlap), ties, fractions.
weights = st.one_of(st.just(0.0), st.integers(0, 4).map(float), st.floats(0, 1, allow_nan=False))


@st.composite
def matrices(draw) -> list[list[float]]:
    rows, cols = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    return [[draw(weights) for _ in range(cols)] for _ in range(rows)]


@settings(max_examples=400, deadline=None)
@given(matrices())
def test_total_equals_scipy(matrix: list[list[float]]) -> None:
    pairs = max_assignment(matrix)
    rows, cols = zip(*pairs)
    assert len(set(rows)) == len(rows) and len(set(cols)) == len(cols)
    assert len(pairs) == min(len(matrix), len(matrix[0]))
    dense = np.array(matrix)
    ri, ci = linear_sum_assignment(dense, maximize=True)
    assert np.isclose(sum(matrix[r][c] for r, c in pairs), dense[ri, ci].sum(), rtol=0, atol=1e-12)


def test_a_larger_real_shape_equals_scipy() -> None:
    rng = np.random.default_rng(7)
    dense = rng.random((28, 62)) * (rng.random((28, 62)) < 0.1)
    pairs = max_assignment(dense.tolist())
    ri, ci = linear_sum_assignment(dense, maximize=True)
    assert np.isclose(sum(dense[r, c] for r, c in pairs), dense[ri, ci].sum(), rtol=0, atol=1e-12)
    assert max_assignment([]) == [] and max_assignment([[]]) == []


def test_prefers_the_heavier_diagonal() -> None:
    assert max_assignment([[1.0, 0.0], [0.0, 1.0]]) == [(0, 0), (1, 1)]
    assert max_assignment([[0.5, 1.0], [1.0, 0.0]]) == [(0, 1), (1, 0)]


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 7), st.booleans(), st.data())
def test_two_chains_on_a_side_choose_as_the_general_solver(n, transposed, data) -> None:
    """The 2 x n shortcut returns exactly the general solver's pairs (ties go to the solver)."""
    from metrics.measures.assignment import sparse_assignment

    values = st.sampled_from([0.0, 0.25, 0.5, 1.0, 2.0 / 3.0])
    weights = {(r, c): data.draw(values) for r in range(2) for c in range(n) if data.draw(st.booleans())}
    if transposed:
        weights = {(c, r): w for (r, c), w in weights.items()}
    rows, cols = (n, 2) if transposed else (2, n)
    matrix = [[weights.get((r, c), 0.0) for c in range(cols)] for r in range(rows)]
    assert sparse_assignment(rows, cols, weights) == max_assignment(matrix)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_best_alignment_total_equals_the_sum_of_the_best_cells_bit_for_bit(data) -> None:
    """best_alignment takes two-chain components directly (ties and all); its total must be the
    one summing best_cells' pairs gives, to the last bit, under similarities with many ties."""
    from strategies import corpora

    from metrics.measures.formulas import best_alignment, best_cells
    from metrics.corpus.scoring import prepare

    corpus = data.draw(corpora(max_documents=2))
    for pair in prepare([p.key for p in corpus], [p.response for p in corpus]).pairs:
        table = pair.table
        values = data.draw(st.lists(st.sampled_from([0.25, 0.5, 1.0, 1 / 3, 2 / 3]),
                                    min_size=len(table.cell_key), max_size=len(table.cell_key)))
        phi = np.array(values, dtype=np.float64)
        expected = 0.0
        for cells in best_cells(table, phi):
            expected += float(phi[cells].sum()) if isinstance(cells, np.ndarray) else sum(phi[cells].tolist())
        assert best_alignment(table, phi) == expected


def _reference_min_assignment(cost: list[list[float]], n: int, m: int) -> list[tuple[int, int]]:
    """The solver as it walked every column at each step (before it kept the unreached ones in
    a list): the pairs it chose are the figures' reference, ties included."""
    inf = float("inf")
    u, v = [0.0] * (n + 1), [0.0] * (m + 1)
    owner, way = [0] * (m + 1), [0] * (m + 1)
    for i in range(1, n + 1):
        owner[0] = i
        j0 = 0
        min_to, used = [inf] * (m + 1), [False] * (m + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = owner[j0], inf, 0
            for j in range(1, m + 1):
                if not used[j]:
                    cur = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < min_to[j]:
                        min_to[j], way[j] = cur, j0
                    if min_to[j] < delta:
                        delta, j1 = min_to[j], j
            for j in range(m + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    min_to[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    return sorted((owner[j] - 1, j - 1) for j in range(1, m + 1) if owner[j])


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_the_solver_chooses_the_pairs_the_full_column_walk_chose(data) -> None:
    """Same pairs as the reference walk, on costs full of ties (CEAF's similarities, negated)."""
    from metrics.measures.assignment import _min_assignment

    n = data.draw(st.integers(1, 9))
    m = data.draw(st.integers(n, 12))
    values = st.sampled_from([0.0, -0.25, -0.5, -1.0, -2.0 / 3.0, -1.0 / 3.0, -0.4, -3.0]) | st.floats(-5, 0)
    cost = [[data.draw(values) for _ in range(m)] for _ in range(n)]
    assert _min_assignment(cost, n, m) == _reference_min_assignment(cost, n, m)

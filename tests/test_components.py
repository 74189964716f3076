"""CEAF's components solved at once (`metrics.measures.components`) equal, to the bit, each one
solved alone by the solver's road (`components.component_total`): on random components of every
shape the shortcuts take and beyond, with whole-number weights, fractions with ties (CEAF-e's
2n / (|K| + |R|)), zeros and arbitrary floats, and cells left out (non-cells weigh 0)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.measures.components import Components, best_matchings, best_totals, component_total


@st.composite
def component(draw, weights: str):
    """(n_rows, n_cols, [(row, col, weight)]): every row and column with a cell."""
    n_rows = draw(st.integers(2, 7))
    n_cols = draw(st.integers(2, 9 if n_rows <= 3 else 7))
    places = [(r, c) for r in range(n_rows) for c in range(n_cols)]
    taken = draw(st.lists(st.booleans(), min_size=len(places), max_size=len(places)))
    cells = [p for p, keep in zip(places, taken) if keep]
    # every row and every column keeps a cell
    cells += [(r, r % n_cols) for r in range(n_rows)] + [(c % n_rows, c) for c in range(n_cols)]
    cells = sorted(set(cells))
    if weights == "whole":
        value = st.integers(0, 4).map(float)
    elif weights == "quarters":  # LCEAF-m's under the LMetric weights W4 (1, 0.75, 0.5)
        value = st.integers(0, 12).map(lambda k: k / 4)
    elif weights == "fractions":
        value = st.tuples(st.integers(1, 3), st.integers(1, 4), st.integers(1, 4)).map(lambda t: 2.0 * t[0] / (t[1] + t[2]))
    else:
        value = st.one_of(st.sampled_from([0.0, 0.25, 0.5, 1.0, 1 / 3, 2 / 3]), st.floats(0.0, 3.0))
    return n_rows, n_cols, [(r, c, draw(value)) for r, c in cells]


def laid(components: list) -> tuple[Components, np.ndarray]:
    rows, cols, weights, owner = [], [], [], []
    for number, (_, _, cells) in enumerate(components):
        for r, c, w in cells:
            rows.append(r)
            cols.append(c)
            weights.append(w)
            owner.append(number)
    n = len(components)
    found = Components(np.zeros(n, np.int64), np.array([c[0] for c in components], np.int64),
                       np.array([c[1] for c in components], np.int64), np.arange(len(rows), dtype=np.int64),
                       np.array(owner, np.int64), np.array(rows, np.int64), np.array(cols, np.int64))
    return found, np.array(weights, dtype=np.float64)


def bits(x) -> str:
    return f"{type(x).__name__} {float(x).hex()}"


def expected(components: list) -> list[float]:
    return [component_total([r for r, _, _ in cells], [c for _, c, _ in cells], [w for _, _, w in cells], n_rows, n_cols)
            for n_rows, n_cols, cells in components]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["whole", "fractions", "floats"]).flatmap(lambda kind: st.tuples(
    st.just(kind), st.lists(component(kind), min_size=1, max_size=6))))
def test_totals_equal_the_solvers(drawn):
    kind, components = drawn
    found, phi = laid(components)
    got = best_totals(found, phi)
    assert [bits(x) for x in got] == [bits(x) for x in expected(components)]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["whole", "fractions", "floats"]).flatmap(lambda kind: st.lists(component(kind), min_size=1,
                                                                                       max_size=6)))
def test_matchings_are_the_solvers(components):
    """Each component's matching has the cells of a weight above 0 of the solver's
    (`sparse_assignment`, as `formulas.best_cells` reads it), in its order."""
    from metrics.measures.assignment import sparse_assignment

    found, phi = laid(components)
    for (n_rows, n_cols, places), cells in zip(components, best_matchings(found, phi)):
        weights = {(r, col): w for r, col, w in places}
        solver = [(r, col) for r, col in sparse_assignment(n_rows, n_cols, weights) if weights.get((r, col), 0.0) > 0]
        mine = [(int(found.row[i]), int(found.col[i])) for i in cells if phi[i] > 0]
        assert mine == solver


def test_a_component_without_a_clear_best_goes_to_the_solver():
    """Every row best with every column, three by three: a tie the shortcuts leave to the solver."""
    cells = [(r, c, 1.0) for r in range(3) for c in range(3)]
    found, phi = laid([(3, 3, cells)])
    assert best_totals(found, phi) == expected([(3, 3, cells)])
    assert [(int(found.row[i]), int(found.col[i])) for i in best_matchings(found, phi)[0]] == [(0, 0), (1, 1), (2, 2)]


@settings(max_examples=30, deadline=None)
@given(st.lists(component("fractions"), min_size=4, max_size=12))
def test_components_weighed_in_runs_give_the_same(components):
    """Runs of a few components at a time (`WEIGHED_AT_ONCE`) give the totals and matchings of one run."""
    import metrics.measures.components as module

    found, phi = laid(components)
    whole = best_totals(found, phi), best_matchings(found, phi)
    module.WEIGHED_AT_ONCE = 10
    try:
        runs = best_totals(found, phi), best_matchings(found, phi)
    finally:
        module.WEIGHED_AT_ONCE = 1_000_000
    assert [bits(x) for x in runs[0]] == [bits(x) for x in whole[0]] == [bits(x) for x in expected(components)]
    assert [m.tolist() for m in runs[1]] == [m.tolist() for m in whole[1]]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["whole", "quarters"]).flatmap(lambda kind: st.lists(component(kind), min_size=1, max_size=6)))
def test_exact_sums_solved_by_the_compiled_solver_give_the_solvers_totals(components):
    """Weights whose sums are exact: the compiled solver's best matching (another one, on a tie)
    sums to the Python solver's total, to the bit."""
    found, phi = laid(components)
    assert [bits(x) for x in best_totals(found, phi)] == [bits(x) for x in expected(components)]


def test_large_components_of_exact_sums_give_the_solvers_totals():
    rng = np.random.default_rng(42)
    components = []
    for n_rows, n_cols in [(12, 15), (15, 12), (9, 9), (20, 31), (3, 40)]:
        dense = rng.integers(0, 5, size=(n_rows, n_cols)) * (rng.random((n_rows, n_cols)) < 0.4) / 4
        dense[np.arange(n_rows), np.arange(n_rows) % n_cols] += 0.25  # every chain with a cell
        dense[np.arange(n_cols) % n_rows, np.arange(n_cols)] += 0.25
        components.append((n_rows, n_cols, [(r, c, float(dense[r, c])) for r, c in zip(*np.nonzero(dense))]))
    found, phi = laid(components)
    assert [bits(x) for x in best_totals(found, phi)] == [bits(x) for x in expected(components)]


def test_sums_that_round_are_not_exact():
    from metrics.measures.components import _sums_exact

    found, phi = laid([(3, 3, [(r, c, 1.0) for r in range(3) for c in range(3)])])
    assert _sums_exact(found, phi) and _sums_exact(found, phi * 0.75)
    assert not _sums_exact(found, phi * (2 / 3)) and not _sums_exact(found, phi * 2.0 ** 41)


def random_components(rng: np.random.Generator, count: int, kind: str) -> list:
    """Components of 3 to 40 chains a side (beyond what is weighed at once), cells sparse or
    dense, weights with many ties (CEAF-e's fractions, whole numbers) or none (floats)."""
    components = []
    for _ in range(count):
        n_rows, n_cols = int(rng.integers(3, 14)), int(rng.integers(3, 41))
        if rng.random() < 0.5:
            n_rows, n_cols = n_cols, n_rows
        dense = rng.random((n_rows, n_cols)) < rng.choice([0.15, 0.4, 0.9])
        dense[np.arange(n_rows), np.arange(n_rows) % n_cols] = True  # every chain with a cell
        dense[np.arange(n_cols) % n_rows, np.arange(n_cols)] = True
        if kind == "fractions":
            values = 2.0 * rng.integers(1, 4, dense.shape) / (rng.integers(1, 5, dense.shape) + rng.integers(1, 5, dense.shape))
        elif kind == "whole":
            values = rng.integers(0, 3, dense.shape).astype(float)
        else:
            values = rng.random(dense.shape) * 3
        components.append((n_rows, n_cols, [(int(r), int(c), float(values[r, c])) for r, c in zip(*np.nonzero(dense))]))
    return components


def test_components_certified_give_the_solvers_totals():
    """The compiled solver's best matching, certified by the longest alternating paths through it
    (every matching within MARGIN of it gives each key chain the same weight), gives each key
    chain the Python solver's weight, in its order, and so its total to the bit; a tie that
    changes a key chain's weight is left to the Python solver.  Both happen here (the test would
    not see a wrong certificate otherwise)."""
    from metrics.measures.assignment import sparse_assignment
    from metrics.measures.components import _certified

    rng = np.random.default_rng(7)
    for kind in ("fractions", "whole", "floats"):
        components = random_components(rng, 60, kind)
        found, phi = laid(components)
        assert [bits(x) for x in best_totals(found, phi)] == [bits(x) for x in expected(components)]
        certified = _certified(found, phi, list(range(len(components))))
        for c, cells in certified.items():
            n_rows, n_cols, places = components[c]
            weights = {(r, col): w for r, col, w in places}
            solver = [(r, weights[r, col]) for r, col in sparse_assignment(n_rows, n_cols, weights)
                      if weights.get((r, col), 0.0) > 0]
            assert [(int(found.row[i]), float(phi[i])) for i in cells] == solver
        assert 0 < len(certified) < len(components) or kind == "floats" and len(certified) == len(components)

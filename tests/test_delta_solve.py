"""CEAF's re-solve in metrics/errors/delta.py: a component without a real choice skips the solver.

`_no_choice` answers when every chain of the smaller side has one strictly best edge and no two of
them want the same partner.  Its total must be the solver's to the last bit (the impact figures are
compared byte for byte), so each case here is checked with `==` against the solver's own total over
the same component, on random sparse components with ties drawn on purpose (few distinct weights).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_impact_delta import _document, _random_partition

from metrics.corpus.scoring import prepare
from metrics.errors import best_matching, ceaf_change, delta
from metrics.errors.chen_ng.fixes import edit_chains, fix_of
from metrics.errors.chen_ng.impact import Pricer
from metrics.errors.chen_ng.records import classify_corpus
from metrics.measures.assignment import sparse_assignment
from metrics.measures.weights import W4


def _by_solver(cells: list[tuple[int, int]], edges: dict[tuple[int, int], float]) -> float:
    """The component's best total as the solver gives it (the path taken before the shortcut)."""
    rows = sorted({k for k, _ in cells})
    cols = sorted({t for _, t in cells})
    at_row = {k: i for i, k in enumerate(rows)}
    at_col = {t: j for j, t in enumerate(cols)}
    weights = {(at_row[k], at_col[t]): edges[(k, t)] for k, t in cells}
    return sum(weights.get(pair, 0.0) for pair in sparse_assignment(len(rows), len(cols), weights))


def _brute(edges: dict[tuple[int, int], float]) -> float:
    """Best matching by trying every subset of edges (small components only)."""
    cells = list(edges)
    best = 0.0
    for mask in range(1 << len(cells)):
        chosen = [cells[i] for i in range(len(cells)) if mask >> i & 1]
        if len({k for k, _ in chosen}) == len(chosen) == len({t for _, t in chosen}):
            best = max(best, sum(edges[c] for c in chosen))
    return best


phis = st.sampled_from([0.25, 0.4, 0.5, 2 / 3, 0.8, 1.0, 1 / 3, 0.6])


def _changed(edges: dict[tuple[int, int], float], column: int, new_cells: list[tuple[int, float]],
             drop: bool) -> tuple[dict[int, float], dict[tuple[int, int], float]]:
    """The duals of every component before a change, and the edges after it: response chain
    `column` loses its cells (if `drop`) and gains `new_cells`, as a fix rewrites one chain."""
    duals: dict[int, float] = {}
    for cells in _components(edges):
        duals.update(best_matching.matching_duals(cells, edges) or {})
    after = {cell: w for cell, w in edges.items() if cell[1] != column or not drop}
    for k, w in new_cells:
        after[(k, column)] = w
    return duals, after


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.tuples(st.integers(0, 4), st.integers(0, 4)), phis, min_size=1, max_size=12))
def test_a_component_without_a_choice_totals_as_the_solver(edges: dict[tuple[int, int], float]) -> None:
    components = _components_in_order(edges)
    total = sum(best_matching.best_total(cells, edges) for cells in components)
    assert abs(total - _brute(edges)) < 1e-9
    shortcut = best_matching.at_most_one_choice(edges)
    if shortcut is not None:  # two edges or fewer, or a star: the sum the components give, to the bit
        assert shortcut == total and type(shortcut) is type(total)
    for cells in _components(edges):
        rows = {k for k, _ in cells}
        cols = {t for _, t in cells}
        if len(rows) > 1 and len(cols) > 1:
            assert best_matching.best_total(cells, edges) == _by_solver(cells, edges)


def test_the_shortcut_answers_only_without_a_real_choice() -> None:
    # two key chains both best with response chain 0: the solver must decide (2 * 0.5 beats 0.9)
    contested = {(0, 0): 0.9, (0, 1): 0.5, (1, 0): 0.8, (1, 1): 0.0001}
    assert best_matching.no_choice(list(contested), contested, True) is None
    # a tie within one chain: the solver decides
    tied = {(0, 0): 0.5, (0, 1): 0.5, (1, 1): 0.25}
    assert best_matching.no_choice(list(tied), tied, True) is None
    # each key chain strictly best with its own response chain
    free = {(0, 0): 0.9, (0, 1): 0.5, (1, 1): 0.8, (1, 0): 0.1}
    assert best_matching.no_choice(list(free), free, True) == {0: 0.9, 1: 0.8}
    # more key chains than response chains: the response side chooses, keyed by key chain
    wide = {(0, 0): 0.9, (1, 0): 0.5, (2, 1): 0.7, (1, 1): 0.3}
    assert best_matching.no_choice(list(wide), wide, False) == {0: 0.9, 2: 0.7}


def _components(edges: dict[tuple[int, int], float]) -> list[list[tuple[int, int]]]:
    """The connected components of the edges, as lists of cells."""
    groups: list[tuple[set[int], set[int], list[tuple[int, int]]]] = []
    for k, t in edges:
        joined = [g for g in groups if k in g[0] or t in g[1]]
        rows, cols, cells = {k}, {t}, [(k, t)]
        for g in joined:
            rows |= g[0]
            cols |= g[1]
            cells += g[2]
            groups.remove(g)
        groups.append((rows, cols, cells))
    return [cells for _, _, cells in groups]


def _components_in_order(edges: dict[tuple[int, int], float]) -> list[list[tuple[int, int]]]:
    """The connected components of the edges, each one's edges in the dictionary's order and the
    components in the order of their first edge (the order CEAF's change sums them in)."""
    component: dict[tuple[str, int], int] = {}
    for start in edges:
        if ("k", start[0]) in component:
            continue
        number = len(set(component.values()))
        todo = [("k", start[0])]
        while todo:
            node = todo.pop()
            if node in component:
                continue
            component[node] = number
            for k, t in edges:
                if node == ("k", k):
                    todo.append(("t", t))
                elif node == ("t", t):
                    todo.append(("k", k))
    groups: dict[int, list[tuple[int, int]]] = {}
    for cell in edges:
        groups.setdefault(component[("k", cell[0])], []).append(cell)
    return list(groups.values())


def _random_changes(seed: int, n: int, metric: str) -> tuple[object, list[object]]:
    """The delta table of a random document of n tokens, and the changes of each of its fixes
    alone, of all of them at once, and of each category's fixes (which reach many components)."""
    rng = random.Random(seed)
    tokens = list(range(n))
    key = [_document("d", n, _random_partition(rng, tokens, max(1, n // 3)))]
    response = [_document("d", n, _random_partition(rng, [i for i in tokens if rng.random() < 0.85], max(1, n // 4)))]
    prepared = prepare(key, response)
    state = Pricer(prepared, metric, W4)._state(0)
    assert state.delta is not None
    records = classify_corpus(prepared.pairs, W4)
    fixes = [fix_of(r) for r in records]
    by_category: dict[object, list] = {}
    for record, fix in zip(records, fixes):
        by_category.setdefault(record.category, []).append(fix)
    table = state.delta
    return table, [delta._Change(table, delta.counts_of(table, edit_chains(state.base, fix_list).moved))
                   for fix_list in [[f] for f in fixes] + [fixes] + list(by_category.values())]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(6, 30), st.sampled_from(["ceafm", "ceafe"]))
def test_the_search_finds_the_components_in_the_order_of_their_first_edge(seed: int, n: int, metric: str) -> None:
    """`_reached` labels components as it searches; the groups must be the components, in the
    order of their first edge, each one's edges in the order found (a sum's rounding depends on it),
    for every fix of random documents, all at once and by category, before and after."""
    table, changes = _random_changes(seed, n, metric)
    for change in changes:
        for after in (False, True):
            edges, row_label, joined = ceaf_change.reached(table, change, metric, after)
            assert ceaf_change.labelled_groups(edges, row_label, joined) == _components_in_order(edges)


def _dual_total(cells: list[tuple[int, int]], edges: dict[tuple[int, int], float], u: dict[int, float]) -> float:
    """The dual objective of key-chain duals u with each response chain's least feasible dual."""
    v: dict[int, float] = {}
    for k, t in cells:
        v[t] = max(v.get(t, 0.0), edges[(k, t)] - u.get(k, 0.0))
    return sum(u.get(k, 0.0) for k in {k for k, _ in cells}) + sum(v.values())


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.tuples(st.integers(0, 4), st.integers(0, 4)), phis, min_size=1, max_size=12))
def test_the_duals_of_a_best_matching_are_optimal(edges: dict[tuple[int, int], float]) -> None:
    """`matching_duals`: every key chain's dual at least 0, and with each response chain's least
    feasible dual they total the best matching (strong duality, against the brute force); they
    certify the component's own best matching."""
    for cells in _components(edges):
        u = best_matching.matching_duals(cells, edges)
        if u is None:  # a tie in the component (the solver decides every change of it)
            continue
        assert all(x >= 0.0 for x in u.values())
        part = {cell: edges[cell] for cell in cells}
        assert abs(_dual_total(cells, part, u) - _brute(part)) < 1e-9
        assert best_matching.certified(cells, part, u) is not None or len({k for k, _ in cells}) == 1


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.tuples(st.integers(0, 4), st.integers(0, 4)), phis, min_size=2, max_size=12),
       st.integers(0, 5), st.lists(st.tuples(st.integers(0, 4), phis), max_size=4), st.booleans())
def test_a_matching_certified_by_the_duals_before_a_change_totals_as_the_solver(
        edges: dict[tuple[int, int], float], column: int, new_cells: list[tuple[int, float]], drop: bool) -> None:
    """A change rewrites one response chain's edges (as a fix does: its size and cells change), or
    adds a new chain (column 5); the duals of the components before it are kept.  Whatever they
    certify must be the solver's total to the bit, and every component's total is the solver's."""
    duals, after = _changed(edges, column, new_cells, drop)
    certified = 0
    for cells in _components(after):
        rows = {k for k, _ in cells}
        cols = {t for _, t in cells}
        if len(rows) < 2 or len(cols) < 2:
            continue
        solver = _by_solver(cells, after)
        found = best_matching.certified(cells, after, duals)
        if found is not None:
            certified += 1
            assert sum(found[k] for k in sorted(found)) == solver
        assert best_matching.best_total(cells, after, lambda _: duals) == solver
        assert abs(solver - _brute({cell: after[cell] for cell in cells})) < 1e-9


def test_the_certificate_answers_where_the_duals_prove_the_best_and_only_there() -> None:
    # both key chains want response chain 0; the best gives it to key chain 1 (0.6 + 0.8 > 0.9 + 0.3)
    edges = {(0, 0): 0.9, (0, 1): 0.6, (1, 0): 0.8, (1, 1): 0.3}
    assert best_matching.no_choice(list(edges), edges, True) is None
    duals = best_matching.matching_duals(list(edges), edges)
    assert duals is not None
    assert best_matching.certified(list(edges), edges, duals) == {0: 0.6, 1: 0.8}
    # a change of response chain 1 that keeps the best matching: still certified
    changed = {**edges, (0, 1): 0.65}
    assert best_matching.certified(list(changed), changed, duals) == {0: 0.65, 1: 0.8}
    # a change that makes the other matching best: the old duals do not certify it
    flipped = {**edges, (0, 1): 0.1}
    assert best_matching.certified(list(flipped), flipped, duals) is None
    # an exact tie between two matchings (0.9 + 0.3 = 0.6 + 0.6): the solver decides
    tied = {(0, 0): 0.9, (0, 1): 0.6, (1, 0): 0.6, (1, 1): 0.3}
    assert best_matching.matching_duals(list(tied), tied) is None
    assert best_matching.certified(list(tied), tied, {0: 0.6, 1: 0.3}) is None  # duals of the tie's solutions


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.tuples(st.integers(0, 4), st.integers(0, 4)), phis, min_size=2, max_size=12),
       st.integers(0, 5), st.lists(st.tuples(st.integers(0, 4), phis), max_size=4), st.booleans())
def test_mended_duals_certify_only_the_solvers_best(
        edges: dict[tuple[int, int], float], column: int, new_cells: list[tuple[int, float]], drop: bool) -> None:
    """`repaired`: where the duals before a change do not certify the matching after it, the mended
    ones may; whatever they certify is the solver's total to the bit and the brute force's best,
    and the duals given are left at least 0 (the proof needs u >= 0)."""
    duals, after = _changed(edges, column, new_cells, drop)
    for cells in _components(after):
        if len({k for k, _ in cells}) < 2 or len({t for _, t in cells}) < 2:
            continue
        mended = {k: duals.get(k, 0.0) for k, _ in cells}
        found = best_matching.repaired(cells, after, mended)
        assert all(u >= 0.0 for u in mended.values())
        if found is not None:
            assert sum(found[k] for k in sorted(found)) == _by_solver(cells, after)
            assert abs(sum(found.values()) - _brute({cell: after[cell] for cell in cells})) < 1e-9


def test_mending_the_duals_gives_a_wanted_key_chain_to_the_response_chain_that_loses_most_without_it() -> None:
    # before: key chain 0 with response chain 0, key chain 1 with response chain 1 (u = 0.5, 0.5)
    before = {(0, 0): 0.9, (0, 1): 0.3, (1, 1): 0.8}
    duals = best_matching.matching_duals(list(before), before)
    assert duals is not None
    # a fix makes response chain 1 want key chain 0 too (0.95 - u0 beats 0.8 - u1): the old duals
    # see two chains wanting one key chain; key chain 0 stays with 0 (0.9 + 0.8 > 0.95 + 0)
    after = {**before, (0, 1): 0.95, (1, 1): 0.8}
    assert best_matching.certified(list(after), after, duals) is None
    mended = {k: duals.get(k, 0.0) for k, _ in after}
    assert best_matching.repaired(list(after), after, mended) == {0: 0.9, 1: 0.8}
    # a tie the mending cannot break (0.9 + 0.8 = 1.0 + 0.7): the solver decides
    tied = {(0, 0): 0.9, (0, 1): 1.0, (1, 1): 0.8, (1, 0): 0.7}
    assert best_matching.repaired(list(tied), tied, {0: 0.0, 1: 0.0}) is None


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(6, 30), st.sampled_from(["ceafm", "ceafe"]))
def test_the_best_after_a_change_sums_every_component_by_the_solver_path(seed: int, n: int, metric: str) -> None:
    """`ceaf_change.best` takes a one-edge component's value as its edge, without `best_total`:
    the total must be the float the old sum gave (`best_total` of every component, in the order
    of their first edge, from 0), for every fix of random documents, all the fixes at once, and
    every category's fixes (most of which reach many components of one edge)."""
    table, changes = _random_changes(seed, n, metric)
    for change in changes:
        for after in (False, True):
            edges = ceaf_change.reached(table, change, metric, after)[0]
            duals = (lambda rows: table.row_duals(metric, rows)) if after else None
            old = best_matching.at_most_one_choice(edges)
            if old is None:
                old = sum(best_matching.best_total(cells, edges, duals) for cells in _components_in_order(edges))
            got = ceaf_change.best(table, change, metric, after)
            assert got == old and type(got) is type(old), (change.cells, change.sizes, after)


def _random_cells(rng: random.Random, n_rows: int, n_cols: int) -> delta.CeafCells:
    """A table of cells: each key chain overlaps one to three response chains (so that many are
    leaves), its mentions and each response chain's a few more than its cells hold."""
    row_cells: list[dict[int, int]] = [{} for _ in range(n_rows)]
    col_cells: list[dict[int, int]] = [{} for _ in range(n_cols)]
    for k in range(n_rows):
        for t in rng.sample(range(n_cols), min(rng.choice([1, 1, 1, 2, 3]), n_cols)):
            row_cells[k][t] = col_cells[t][k] = rng.randint(1, 4)
    key_sizes = [sum(cells.values()) + rng.randint(0, 6) for cells in row_cells]
    col_sizes = [sum(cells.values()) + rng.randint(0, 3) for cells in col_cells]
    return delta.CeafCells(key_sizes, col_sizes, row_cells, col_cells)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 30), st.integers(1, 8), st.sampled_from(["ceafm", "ceafe"]))
def test_a_columns_leaves_are_in_best_first_order_at_every_size_asked(seed: int, n_rows: int, n_cols: int,
                                                                      metric: str) -> None:
    """`Leaves.col_leaves` keeps a column's leaf rows apart from their order at each size: at any
    size, asked in any order, it is the sort of the leaf rows (a key chain with one cell) by phi
    at that size, as written before (a leaf order can turn as the size does: 1/(1 + s) against
    3/(9 + s))."""
    rng = random.Random(seed)
    table = _random_cells(rng, n_rows, n_cols)
    leaves = table.leaves(metric)
    for _ in range(40):
        t, size = rng.randrange(n_cols), rng.choice([1, 2, 3, 5, 8, 40, 200, table.col_sizes[rng.randrange(n_cols)]])
        size = max(size, 1)
        cells = table.col_cells[t]
        expected = sorted((k for k in cells if len(table.row_cells[k]) == 1),
                          key=lambda k: -ceaf_change._phi(metric, cells[k], table.key_sizes[k], size))
        assert leaves.col_leaves(t, size) == expected, (t, size)

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
from metrics.errors import delta
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


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.tuples(st.integers(0, 4), st.integers(0, 4)), phis, min_size=1, max_size=12))
def test_a_component_without_a_choice_totals_as_the_solver(edges: dict[tuple[int, int], float]) -> None:
    components = _components_in_order(edges)
    total = sum(delta._solve_component(cells, edges) for cells in components)
    assert abs(total - _brute(edges)) < 1e-9
    shortcut = delta._at_most_one_choice(edges)
    if shortcut is not None:  # two edges or fewer, or a star: the sum the components give, to the bit
        assert shortcut == total and type(shortcut) is type(total)
    for cells in _components(edges):
        rows = {k for k, _ in cells}
        cols = {t for _, t in cells}
        if len(rows) > 1 and len(cols) > 1:
            assert delta._solve_component(cells, edges) == _by_solver(cells, edges)


def test_the_shortcut_answers_only_without_a_real_choice() -> None:
    # two key chains both best with response chain 0: the solver must decide (2 * 0.5 beats 0.9)
    contested = {(0, 0): 0.9, (0, 1): 0.5, (1, 0): 0.8, (1, 1): 0.0001}
    assert delta._no_choice(list(contested), contested, True) is None
    # a tie within one chain: the solver decides
    tied = {(0, 0): 0.5, (0, 1): 0.5, (1, 1): 0.25}
    assert delta._no_choice(list(tied), tied, True) is None
    # each key chain strictly best with its own response chain
    free = {(0, 0): 0.9, (0, 1): 0.5, (1, 1): 0.8, (1, 0): 0.1}
    assert delta._no_choice(list(free), free, True) == {0: 0.9, 1: 0.8}
    # more key chains than response chains: the response side chooses, keyed by key chain
    wide = {(0, 0): 0.9, (1, 0): 0.5, (2, 1): 0.7, (1, 1): 0.3}
    assert delta._no_choice(list(wide), wide, False) == {0: 0.9, 2: 0.7}


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


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(6, 30), st.sampled_from(["ceafm", "ceafe"]))
def test_the_search_finds_the_components_in_the_order_of_their_first_edge(seed: int, n: int, metric: str) -> None:
    """`_reached` labels components as it searches; the groups must be the components, in the
    order of their first edge, each one's edges in the order found (a sum's rounding depends on it),
    for every fix of random documents, before and after."""
    rng = random.Random(seed)
    tokens = list(range(n))
    key = [_document("d", n, _random_partition(rng, tokens, max(1, n // 3)))]
    response = [_document("d", n, _random_partition(rng, [i for i in tokens if rng.random() < 0.85], max(1, n // 4)))]
    prepared = prepare(key, response)
    state = Pricer(prepared, metric, W4)._state(0)
    assert state.delta is not None
    fixes = [fix_of(r) for r in classify_corpus(prepared.pairs, W4)]
    for fix_list in [[f] for f in fixes] + [fixes]:
        change = delta._Change(state.delta, edit_chains(state.base, fix_list).moved)
        for after in (False, True):
            edges, row_label, joined = delta._reached(state.delta, change, metric, after)
            assert delta._labelled_groups(edges, row_label, joined) == _components_in_order(edges)

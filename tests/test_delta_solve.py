"""CEAF's re-solve in metrics/errors/delta.py: a component without a real choice skips the solver.

`_no_choice` answers when every chain of the smaller side has one strictly best edge and no two of
them want the same partner.  Its total must be the solver's to the last bit (the impact figures are
compared byte for byte), so each case here is checked with `==` against the solver's own total over
the same component, on random sparse components with ties drawn on purpose (few distinct weights).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.errors import delta
from metrics.measures.assignment import sparse_assignment


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
    total = delta._solve(edges)
    assert abs(total - _brute(edges)) < 1e-9
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

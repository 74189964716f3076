"""The closed forms of metrics.measures.linguistic against a plain Kruskal on explicit graphs, and against the
paper's own numbers (Chen & Ng 2013, Table 1, LMUC with W4)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linguistic_scalar import common_weight, response_weight
from metrics.measures.linguistic import common_weights, key_weight, key_weights, response_weights, tree_weight, \
    tree_weights
from metrics.measures.weights import W4, Weights

NAM, NOM, PRO, ZER = 0, 1, 2, 3


# ---------------------------------------------------------------- brute force, written from the paper


def kruskal_max(n: int, edges: list[tuple[float, int, int]]) -> float:
    """Maximum spanning tree (forest) weight by Kruskal with union-find."""
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    total = 0.0
    for weight, a, b in sorted(edges, key=lambda e: -e[0]):
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
            total += weight
    return total


def link(w: Weights, a: int, b: int) -> float:
    """Rule 1-3 of section 3.1, spelled out."""
    if a == NAM or b == NAM:
        return w.nam
    if a == NOM or b == NOM:
        return w.nom
    if a == PRO or b == PRO:
        return w.pro
    return w.pro if w.zero is None else w.zero  # two zeros: w_zero, the pronoun's unless given


def brute_tree(types: list[int], w: Weights) -> float:
    edges = [(link(w, types[i], types[j]), i, j) for i, j in itertools.combinations(range(len(types)), 2)]
    return kruskal_max(len(types), edges)


def brute_response(parts: list[list[int]], w: Weights) -> float:
    """Equation (11): sum of w_c^L over the parts + max-weight set of links joining the parts.

    E_t is found on the mention graph: spurious links only (between parts), Kruskal, which yields the
    heaviest set of (parts - 1) cross links that connects all parts.
    """
    parts = [p for p in parts if p]
    if sum(len(p) for p in parts) == 1:
        return w.sing
    inside = sum(brute_tree(p, w) for p in parts if len(p) > 1)
    mentions = [(i, t) for i, p in enumerate(parts) for t in p]
    cross = [
        (link(w, mentions[a][1], mentions[b][1]), a, b)
        for a, b in itertools.combinations(range(len(mentions)), 2)
        if mentions[a][0] != mentions[b][0]
    ]
    # Collapse each part to one node first, so that the tree only counts cross links.
    part_of = [m[0] for m in mentions]
    part_edges = [(weight, part_of[a], part_of[b]) for weight, a, b in cross]
    return inside + kruskal_max(len(parts), part_edges)


def counts(types: list[int]) -> tuple[int, ...]:
    """Three counts when there is no zero (as CoNLL-2012 data gives them), else four."""
    four = (types.count(NAM), types.count(NOM), types.count(PRO), types.count(ZER))
    return four if four[3] else four[:3]


# ---------------------------------------------------------------- strategies

weight_value = st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0, 2.0]) | st.floats(0, 10, allow_nan=False)
weights = st.builds(Weights, weight_value, weight_value, weight_value, weight_value, st.none() | weight_value)
typed_chain = st.lists(st.sampled_from([NAM, NOM, PRO, ZER]), min_size=0, max_size=9)
typed_parts = st.lists(st.lists(st.sampled_from([NAM, NOM, PRO, ZER]), min_size=1, max_size=5), min_size=1, max_size=6)


# ---------------------------------------------------------------- properties


@settings(max_examples=400, deadline=None)
@given(typed_chain, weights)
def test_tree_weight_equals_kruskal(types: list[int], w: Weights) -> None:
    got = tree_weight(counts(types), w)
    assert got == pytest.approx(brute_tree(types, w), abs=1e-9)
    assert got >= 0


def test_tree_weight_with_zeros_every_small_case_every_weight_order() -> None:
    """Exhaustive over counts 0..3 of the four types and every ordering of four distinct weights."""
    for nam, nom, pro, zero in itertools.permutations([0.3, 1.0, 2.5, 0.1]):
        w = Weights(nam, nom, pro, 0.7, zero)
        for c in itertools.product(range(4), repeat=4):
            types = [NAM] * c[0] + [NOM] * c[1] + [PRO] * c[2] + [ZER] * c[3]
            assert tree_weight(c, w) == pytest.approx(brute_tree(types, w)), (c, w)


def test_a_zero_weighs_as_a_pronoun_unless_given() -> None:
    assert tree_weight((0, 0, 1, 2), W4) == tree_weight((0, 0, 3), W4) == 1.0
    assert tree_weight((0, 0, 0, 3), W4) == 1.0
    assert tree_weight((0, 0, 0, 3), Weights(1, 0.75, 0.5, 1, 0.1)) == pytest.approx(0.2)
    assert tree_weight((0, 0, 1, 2), Weights(1, 0.75, 0.5, 1, 0.1)) == 1.0  # the pronoun links them


def test_tree_weight_every_small_case_every_weight_order() -> None:
    """Exhaustive over counts 0..4 each and every ordering of three distinct weights, plus ties."""
    orders = list(itertools.permutations([0.3, 1.0, 2.5])) + [(1.0, 1.0, 0.5), (0.5, 1.0, 1.0), (1.0, 0.5, 1.0), (0.0, 0.0, 0.0)]
    for nam, nom, pro in orders:
        w = Weights(nam, nom, pro, 0.7)
        for c in itertools.product(range(5), repeat=3):
            types = [NAM] * c[0] + [NOM] * c[1] + [PRO] * c[2]
            assert tree_weight(c, w) == pytest.approx(brute_tree(types, w)), (c, w)


@settings(max_examples=300, deadline=None)
@given(typed_parts, weights)
def test_response_weight_equals_kruskal(parts: list[list[int]], w: Weights) -> None:
    got = response_weight([counts(p) for p in parts], w)
    assert got == pytest.approx(brute_response(parts, w), abs=1e-9)
    assert got >= 0


@settings(max_examples=200, deadline=None)
@given(typed_chain, weights)
def test_key_weight(types: list[int], w: Weights) -> None:
    expected = w.sing if len(types) == 1 else brute_tree(types, w)
    assert key_weight(counts(types), w) == pytest.approx(expected)


@settings(max_examples=200, deadline=None)
@given(typed_chain, weights)
def test_perfect_response_common_equals_key_and_response(types: list[int], w: Weights) -> None:
    """A response chain equal to its key chain: w_c = w_k = w_s (recall and precision 1)."""
    if not types:
        return
    c = counts(types)
    n = len(types)
    assert common_weight(c, n, n, w) == pytest.approx(key_weight(c, w))
    assert response_weight([c], w) == pytest.approx(key_weight(c, w))


@settings(max_examples=200, deadline=None)
@given(typed_chain, st.integers(1, 5), st.integers(1, 5), weights)
def test_common_weight_cases(types: list[int], k_extra: int, s_extra: int, w: Weights) -> None:
    c = counts(types)
    n = len(types)
    if n > 1:
        assert common_weight(c, n + k_extra, n + s_extra, w) == pytest.approx(brute_tree(types, w))
    if n == 1:
        assert common_weight(c, 1, 1, w) == w.sing
        assert common_weight(c, 1 + k_extra, 1, w) == 0.0
        assert common_weight(c, 1, 1 + s_extra, w) == 0.0
    if n == 0:
        assert common_weight(c, k_extra, s_extra, w) == 0.0


@settings(max_examples=200, deadline=None)
@given(st.lists(typed_parts, min_size=1, max_size=5), weights, st.lists(st.integers(1, 6), min_size=1, max_size=30))
def test_numpy_versions_equal_scalar(chains: list[list[list[int]]], w: Weights, k_sizes: list[int]) -> None:
    part_counts = [counts(p) for chain in chains for p in chain]
    part_chain = [i for i, chain in enumerate(chains) for _ in chain]
    np.testing.assert_allclose(tree_weights(part_counts, w), [tree_weight(c, w) for c in part_counts])
    np.testing.assert_allclose(key_weights(part_counts, w), [key_weight(c, w) for c in part_counts])
    ks = [k_sizes[i % len(k_sizes)] for i in range(len(part_counts))]
    ss = [sum(map(len, chains[j])) for j in part_chain]
    np.testing.assert_allclose(
        common_weights(part_counts, ks, ss, w), [common_weight(c, k, s, w) for c, k, s in zip(part_counts, ks, ss)]
    )
    np.testing.assert_allclose(
        response_weights(part_counts, part_chain, len(chains), w),
        [response_weight([counts(p) for p in chain], w) for chain in chains],
    )


def test_numpy_versions_on_empty_input() -> None:
    assert tree_weights(np.zeros((0, 3), dtype=int), W4).shape == (0,)
    assert list(response_weights(np.zeros((0, 3), dtype=int), [], 2, W4)) == [0.0, 0.0]


# ---------------------------------------------------------------- the paper's running example

# Figure 1 (Chen & Ng 2013): key chains over mentions a..t with their types.
TYPES = {
    "a": NAM, "b": PRO, "c": PRO, "d": NAM, "e": NOM, "f": PRO,
    **{m: PRO for m in "ghijklm"},
    "n": NOM, "o": PRO, "p": NOM, "q": NOM, "r": NOM, "s": NOM, "t": NOM,
}  # fmt: skip
KEY = ["abc", "defghijklm", "no", "p", "q", "r", "s", "t"]
YOU = "ghijklm"
RESPONSES = {  # Figure 2: S_you in all five; (b)-(d) link it to f, e, d; (e) links it to a, b, c.
    "a": [YOU, "bc", *"adefnopqrst"],
    "b": [YOU + "f", "bc", *"adenopqrst"],
    "c": [YOU + "e", "bc", *"adfnopqrst"],
    "d": [YOU + "d", "bc", *"aefnopqrst"],
    "e": [YOU + "abc", "def", "no", *"pqrst"],
}
# Table 1, LMUC with W4: recall and precision in percent.
TABLE1_LMUC = {"a": (50.7, 58.6), "b": (53.7, 64.3), "c": (64.2, 68.3), "d": (74.6, 71.4), "e": (76.1, 92.7)}


def type_counts(mentions: str) -> tuple[int, int, int]:
    return counts([TYPES[m] for m in mentions])


@pytest.mark.parametrize("name", sorted(RESPONSES))
def test_lmuc_reproduces_table_1(name: str) -> None:
    """LMUC = sum w_c^L / sum w_k^L (recall), / sum w_s^L (precision), with W4."""
    response = RESPONSES[name]
    common = sum(
        common_weight(type_counts("".join(m for m in k if m in s)), len(k), len(s), W4) for k in KEY for s in response
    )
    key_total = sum(key_weight(type_counts(k), W4) for k in KEY)
    response_total = sum(response_weight([type_counts("".join(m for m in s if m in k)) for k in KEY], W4) for s in response)
    recall, precision = TABLE1_LMUC[name]
    assert 100 * common / key_total == pytest.approx(recall, abs=0.05)
    assert 100 * common / response_total == pytest.approx(precision, abs=0.05)

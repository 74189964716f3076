"""metrics.runtime.union_find against a brute force: components found by merging sets until no two
share an item, each item's label the least item of its set.  Both ways (the Python loop and the
array work) are checked alone, whatever size the caller would send them.  Then what two callers
in `errors/delta.py` keep of their own: the chains tainted by a repeated span (a span listed twice
within one chain too) and the delta table's components named by their first key chain."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from test_impact_delta import _document, chains_repeating_spans, random_chains

from metrics.errors.chen_ng.document_state import tainted_chains
from metrics.errors.delta import table_of
from metrics.runtime import union_find
from metrics.runtime.union_find import least_members


def merged_sets(n: int, pairs: list[tuple[int, int]]) -> list[int]:
    """The brute force: start from each item alone and each pair as a set, merge any two sets that
    share an item until none do; each item's label is the least item of its set."""
    groups = [{x} for x in range(n)] + [{a, b} for a, b in pairs]
    merged = True
    while merged:
        merged = False
        for i in range(len(groups)):
            for j in range(i + 1, len(groups)):
                if groups[i] & groups[j]:
                    groups[i] |= groups.pop(j)
                    merged = True
                    break
            if merged:
                break
    label = {x: min(group) for group in groups for x in group}
    return [label[x] for x in range(n)]


@st.composite
def pair_lists(draw) -> tuple[int, list[tuple[int, int]]]:
    n = draw(st.integers(0, 30))
    if n == 0:
        return 0, []
    item = st.integers(0, n - 1)
    return n, draw(st.lists(st.tuples(item, item), max_size=40))


WAYS = {"python": union_find._joined_in_python, "arrays": union_find._spread}


@pytest.mark.parametrize("way", sorted(WAYS))
@settings(max_examples=120, deadline=None)
@given(case=pair_lists())
def test_each_way_gives_each_item_its_components_least_member(way, case):
    n, pairs = case
    left = np.array([a for a, _ in pairs], dtype=np.int64)
    right = np.array([b for _, b in pairs], dtype=np.int64)
    got = WAYS[way](n, left, right)
    assert got.dtype == np.int64
    assert got.tolist() == merged_sets(n, pairs)


@settings(max_examples=60, deadline=None)
@given(case=pair_lists())
def test_least_members_takes_lists_and_arrays_alike(case):
    n, pairs = case
    left, right = [a for a, _ in pairs], [b for _, b in pairs]
    expected = merged_sets(n, pairs)
    assert least_members(n, left, right).tolist() == expected
    assert least_members(n, np.array(left, dtype=np.int64), np.array(right, dtype=np.int64)).tolist() == expected


def test_many_pairs_take_the_array_way_and_a_long_path_is_one_component():
    """A path 0-1-...-n-1 given backwards (the worst order for labels spreading one step at a time),
    beyond the size where `least_members` switches ways, plus a second path."""
    n = 3 * union_find.ARRAY_PAIRS
    half = n // 2
    pairs = [(x, x + 1) for x in reversed(range(half - 1))] + [(x + 1, x) for x in range(half, n - 1)]
    left, right = [a for a, _ in pairs], [b for _, b in pairs]
    expected = [0] * half + [half] * (n - half)
    assert least_members(n, left, right).tolist() == expected
    assert union_find._joined_in_python(n, left, right).tolist() == expected


def test_unequal_sides_are_refused():
    with pytest.raises(ValueError):
        least_members(3, [0, 1], [2])


def chains_sharing_spans(chains: list[list]) -> list[int]:
    """The brute force's label of each chain (key chains first), chains joined when they list a
    common span."""
    spans = [set(chain) for chain in chains]
    pairs = [(i, j) for i in range(len(spans)) for j in range(i + 1, len(spans)) if spans[i] & spans[j]]
    return merged_sets(len(spans), pairs)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 24))
def test_tainted_chains_are_the_components_holding_a_span_listed_twice_on_a_side(seed, n):
    key_chains, response_chains = chains_repeating_spans(random.Random(seed), n, most=3)
    key, response = _document("d", n + 6, key_chains), _document("d", n + 6, response_chains)
    label = chains_sharing_spans([*key.chains, *response.chains])
    bad = set()
    for offset, doc in ((0, key), (len(key.chains), response)):
        listed = [span for chain in doc.chains for span in chain]
        repeated = {span for span in listed if listed.count(span) > 1}
        bad |= {label[offset + i] for i, chain in enumerate(doc.chains) if repeated & set(chain)}
    n_key = len(key.chains)
    assert tainted_chains(key, response) == (frozenset(k for k in range(n_key) if label[k] in bad),
                                             frozenset(r for r in range(len(response.chains)) if label[n_key + r] in bad))


def test_a_span_listed_twice_within_one_chain_taints_its_component():
    key = _document("d", 8, [[1, 2], [5]])
    assert tainted_chains(key, _document("d", 8, [[3, 3], [4]])) == (frozenset(), frozenset({0}))
    assert tainted_chains(key, _document("d", 8, [[4], [2, 6, 6]])) == (frozenset({0}), frozenset({1}))
    assert tainted_chains(key, _document("d", 8, [[2, 6], [5]])) == (frozenset(), frozenset())


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 24))
def test_the_delta_tables_components_are_named_by_their_first_key_chain(seed, n):
    key_chains, response_chains = random_chains(random.Random(seed), n)
    key, response = _document("d", n + 6, key_chains), _document("d", n + 6, response_chains)
    table = table_of(key, response, {span: k for k, chain in enumerate(key.chains) for span in chain})
    assert table is not None
    label = chains_sharing_spans([*key.chains, *response.chains])
    rows, columns = table.component_index()
    assert rows + columns == label  # the least chain: a key chain wherever the component has one
    assert all(c < len(key.chains) for c in rows)

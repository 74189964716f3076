"""`fixes.reach` (the part of a document a fix reaches, from the chains' components before any fix)
against a literal search of the chains connected to the touched chains, before or after the edit,
span by span, on documents that list spans twice on either side."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_impact_delta import _document, chains_repeating_spans
from test_impact_fast import _any_fix

from metrics.errors.chen_ng.fixes import ChainComponents, FixBase, edit_chains, reach


def _searched(edit, key_chains, key_chains_of, response_chains_of) -> tuple[list[int], list[int]]:
    """Every chain connected to a touched chain, each chain taken in both its versions."""
    original = edit.base.chains
    keys: set[int] = set()
    responses: set[int] = set(edit.touched)
    todo = [("r", r) for r in edit.touched]
    while todo:
        side, index = todo.pop()
        if side == "r":
            spans = set(edit.chain(index)) | (set(original[index]) if index < len(original) else set())
        else:
            spans = set(key_chains[index])
        for span in spans:
            for k in key_chains_of.get(span, ()):
                if k not in keys:
                    keys.add(k)
                    todo.append(("k", k))
            for r in response_chains_of.get(span, ()):
                if r not in responses:
                    responses.add(r)
                    todo.append(("r", r))
    return sorted(keys), sorted(responses)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(4, 30))
def test_reach_is_the_connected_part_before_or_after(seed: int, n: int) -> None:
    rng = random.Random(seed)
    key_chains, response_chains = chains_repeating_spans(rng, n, most=3)
    key = _document("d", n + 6, key_chains)
    response = _document("d", n + 6, response_chains)
    base = FixBase(key, response)
    key_chains_of, response_chains_of = key.chains_listing(), base.copies
    components = ChainComponents(len(key.chains), len(response.chains), key_chains_of, response_chains_of)
    reached_some = False
    for _ in range(12):
        edit = edit_chains(base, [_any_fix(rng, n) for _ in range(rng.randint(1, 4))])
        found = reach(edit, components, key_chains_of, response_chains_of)
        assert found == _searched(edit, key.chains, key_chains_of, response_chains_of)
        reached_some |= bool(found[0])
    assert reached_some or not key_chains

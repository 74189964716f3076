"""The UA relations' scores from counts (`ua_relations.NonReferring`, `bridging_of_kinds`), which
price one fix at a time without going over a document's lists again, against the scores of the
lists with that fix made (the way the relations' errors priced each fix before: quadratic on a
book).  Markables are drawn with repeats, as a layer may list the same words twice."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.measures.score import Score
from metrics.measures.ua_relations import BridgingOutcome, NonReferring, bridging, bridging_of_kinds, non_referring
from metrics.mentions.ua import Mention

MARKABLES = [Mention((w,)) for w in range(6)] + [Mention((0, 1)), Mention((2, 3, 4))]
markables = st.lists(st.sampled_from(MARKABLES), max_size=10)


def listed(key: list[Mention], response: list[Mention]) -> Score:
    """The rule as the UA scorer states it, over the lists: a key markable is found when the
    response has one of the same words; a response markable the key lacks is spurious."""
    found = sum(1 for m in key if m in response)
    spurious = sum(1 for m in response if m not in key)
    return Score(found, len(key), found, found + spurious)


@settings(max_examples=300, deadline=None)
@given(markables, markables, st.sampled_from(MARKABLES))
def test_non_referring_from_counts_is_the_lists_score(key, response, m):
    counts = NonReferring.of(key, response)
    assert non_referring(key, response) == counts.score() == listed(key, response)
    assert counts.with_response(m) == listed(key, response + [m])
    assert counts.without_response(m) == listed(key, [x for x in response if x != m])


KINDS = ("correct", "same_entity", "wrong_anchor", "missed", "spurious")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(KINDS), max_size=12), st.data())
def test_bridging_of_kinds_is_the_outcomes_score(kinds, data):
    """Also after one outcome is fixed as the relations' errors fix it: a spurious link gone,
    any other made correct."""
    outcomes = [BridgingOutcome(Mention((i,)), None, None, kind) for i, kind in enumerate(kinds)]
    counted = Counter(kinds)
    assert bridging_of_kinds(counted) == bridging(outcomes)
    if not outcomes:
        return
    i = data.draw(st.integers(0, len(outcomes) - 1))
    fixed = list(outcomes)
    if kinds[i] == "spurious":
        del fixed[i]
    else:
        fixed[i] = BridgingOutcome(outcomes[i].anaphor, None, None, "correct")
    counted[kinds[i]] -= 1
    if kinds[i] != "spurious":
        counted["correct"] += 1
    assert bridging_of_kinds(counted) == bridging(fixed)

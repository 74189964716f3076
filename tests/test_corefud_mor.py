"""CorefUD's `mor` against the official scorer's way of summing it (kept here as the reference):
an assignment per group of overlapping mentions, each pair's shared and own words and each unpaired
mention's words added one by one.  The engine counts every mention's words once and only the
optimum's shared words (`metrics.measures.corefud.mor`); the two agree to the last bit."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.measures.corefud import mor, mor_items, overlapping
from metrics.measures.score import Score
from metrics.model import NodeMention
from metrics.runtime.lsap import linear_sum_assignment


def reference_mor(doc) -> Score:
    """The summing the engine had before (corefud-scorer's, step for step), over the same groups."""
    counts = np.zeros(4)
    for group in overlapping(mor_items(doc)):
        keys = [set(nodes) for nodes, is_key in group if is_key]
        responses = [set(nodes) for nodes, is_key in group if not is_key]
        overlap = np.array([[len(k & s) for s in responses] for k in keys], dtype=float).reshape(len(keys), len(responses))
        rows, cols = linear_sum_assignment()(overlap, True)
        for r, c in zip(rows, cols):
            counts += np.array([overlap[r, c], len(responses[c]), overlap[r, c], len(keys[r])])
        for r in set(range(len(keys))).difference(rows):
            counts += np.array([0, 0, 0, len(keys[r])])
        for c in set(range(len(responses))).difference(cols):
            counts += np.array([0, len(responses[c]), 0, 0])
    pn, pd, rn, rd = counts.tolist()
    return Score(rn, rd, pn, pd)


@st.composite
def mention(draw) -> NodeMention:
    sentence = draw(st.integers(1, 3))
    first = draw(st.integers(1, 12))
    words = sorted(set(draw(st.lists(st.integers(first, first + 5), min_size=1, max_size=4)) + [first]))
    nodes = [(sentence, w, 0) for w in words] + ([(sentence, first, 1)] if draw(st.integers(0, 5)) == 0 else [])
    nodes.sort()
    return NodeMention(tuple(nodes), nodes[0])


clusters = st.lists(st.lists(mention(), min_size=1, max_size=4), max_size=6)


@settings(max_examples=400, deadline=None)
@given(clusters, clusters)
def test_mor_counts_as_the_official_scorer_sums(key, response):
    doc = SimpleNamespace(key_mentions=key, response_mentions=response)
    got, expected = mor(doc), reference_mor(doc)
    assert (got.recall_num, got.recall_den, got.precision_num, got.precision_den) == \
        (expected.recall_num, expected.recall_den, expected.precision_num, expected.precision_den)
    assert all(type(value) is float for value in (got.recall_num, got.recall_den))

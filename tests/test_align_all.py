"""v8.01's mention ids for all pairs at once (`alignment.align_all`) equal each pair's own
(`alignment.align`), field for field: repeated spans on either side, empty chains and empty
documents among them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.mentions.alignment import SMALL_DOCUMENT, align, align_all
from metrics.model import Document
from strategies import corpora

SPAN = st.tuples(st.integers(0, 5), st.integers(0, 5)).map(lambda s: (min(s), max(s)))
CHAINS = st.lists(st.lists(SPAN, min_size=0, max_size=4), max_size=4)


def document(name: str, chains: list, tokens: int = 6) -> Document:
    return Document(name=name, words=["w"] * tokens, chains=chains, labels=[str(i) for i in range(len(chains))])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(CHAINS, CHAINS, st.sampled_from([6, 6, 6, SMALL_DOCUMENT + 1])), min_size=0, max_size=8))
def test_all_at_once_equals_one_by_one(sides):
    """Small pairs aligned together, larger ones (`SMALL_DOCUMENT`) alone, in their places."""
    keys = [document(f"d{i}", key, tokens) for i, (key, _, tokens) in enumerate(sides)]
    responses = [document(f"d{i}", response, tokens) for i, (_, response, tokens) in enumerate(sides)]
    assert align_all(keys, responses) == [align(k, r) for k, r in zip(keys, responses)]


@settings(max_examples=60, deadline=None)
@given(corpora(duplicates=True, max_documents=6))
def test_generated_corpora(pairs):
    keys, responses = [p.key for p in pairs], [p.response for p in pairs]
    assert align_all(keys, responses) == [align(k, r) for k, r in zip(keys, responses)]


def test_spans_the_codes_cannot_hold_go_one_by_one():
    """A negative token, a token beyond what 63 bits of codes hold, a token not an int, a span
    not a pair: each pair aligned alone, as `align` tells such spans apart."""
    for span in ((-1, 0), (0, 2 ** 40), (0, 2 ** 70), (0.0, 1), (True, 1), (0, 1, 2)):
        keys = [document("a", [[span, (0, 0)]]), document("b", [[(1, 1)]])]
        responses = [document("a", [[span]]), document("b", [[(1, 1), (2, 2)]])]
        assert align_all(keys, responses) == [align(k, r) for k, r in zip(keys, responses)]


def test_prepare_keeps_each_pairs_warnings_together_in_key_order():
    """Words that differ and repeated spans, in two documents: each pair's warnings in turn, as
    when each pair was aligned in its turn."""
    from metrics.corpus.scoring import partner, prepare
    from metrics.mentions.alignment import duplicate_warnings

    keys = [Document(name=f"d{i}", words=["a", "b", "c"], chains=[[(0, 0), (1, 1)]], path="k") for i in range(3)]
    responses = [Document(name=f"d{i}", words=["a", "x" if i != 1 else "b", "c"],
                          chains=[[(2, 2), (0, 0)], [(2, 2), (1, 1)]] if i != 2 else [[(0, 0)]], path="r")
                 for i in range(3)]
    expected: list[str] = []
    for key, response in zip(keys, responses):
        response = partner(key, response, "r", expected)
        expected.extend(duplicate_warnings(key, response, align(key, response)))
    assert len(expected) == 4
    assert prepare(keys, responses).warnings == expected

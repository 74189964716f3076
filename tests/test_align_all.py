"""v8.01's mention ids for all pairs at once (`alignment.align_all`) equal each pair's own
(`alignment.align`), field for field: repeated spans on either side, empty chains and empty
documents among them."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.mentions.alignment import SMALL_DOCUMENT, AlignedArrays, align, align_all, laid_alignments
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


def cached(documents: list[Document]) -> list[Document]:
    """The documents as the cache of read files gives them back: their chains kept as arrays too."""
    from metrics.formats.packed import pack, unpack

    return unpack(pack(documents))


def walked(alignments: list) -> list[list]:
    """What `laid_alignments` holds, by walking the alignments' lists."""
    return [[s for a in alignments for s, _ in a.spans], [e for a in alignments for _, e in a.spans],
            [len(a.spans) for a in alignments],
            [i for a in alignments for chain in a.key_chains for i in chain],
            [sum(map(len, a.key_chains)) for a in alignments], [len(c) for a in alignments for c in a.key_chains],
            [len(a.key_chains) for a in alignments], [i for a in alignments for chain in a.response_chains for i in chain],
            [sum(map(len, a.response_chains)) for a in alignments],
            [len(c) for a in alignments for c in a.response_chains], [len(a.response_chains) for a in alignments]]


def held(arrays: AlignedArrays) -> list[list]:
    return [arrays.first.tolist(), arrays.last.tolist(), np.diff(arrays.id_starts).tolist(), arrays.key_ids.tolist(),
            np.diff(arrays.key_id_starts).tolist(), arrays.key_sizes.tolist(), np.diff(arrays.key_chain_starts).tolist(),
            arrays.response_ids.tolist(), np.diff(arrays.response_id_starts).tolist(), arrays.response_sizes.tolist(),
            np.diff(arrays.response_chain_starts).tolist()]


@settings(max_examples=100, deadline=None)
@given(st.one_of(corpora(duplicates=True, max_documents=6), corpora(key_duplicates=True, max_documents=6)), st.data())
def test_documents_from_the_cache_all_at_once_with_their_arrays(pairs, data):
    """Documents as the cache gives them (chains as arrays) are aligned all at once, whatever their
    size, equal to each pair's own; their arrays are the lists laid end to end, for all of them and
    for any share in order (a pair with a repeated span aligned alone, its part made from it)."""
    keys, responses = cached([p.key for p in pairs]), cached([p.response for p in pairs])
    alignments = align_all(keys, responses)
    assert alignments == [align(k, r) for k, r in zip(keys, responses)]
    if len(pairs) > 1:
        assert held(laid_alignments(alignments)) == walked(alignments)
        share = sorted(data.draw(st.sets(st.integers(0, len(pairs) - 1), min_size=1)))
        assert held(laid_alignments([alignments[i] for i in share])) == walked([alignments[i] for i in share])
    assert laid_alignments([align(k, r) for k, r in zip(keys, responses)]) is None  # one by one: no arrays


def test_large_documents_from_the_cache_are_aligned_together():
    keys = cached([document("a", [[(0, 0), (3, 4)], [(9, 9)]], 200), document("b", [[(1, 1)]], 6)])
    responses = cached([document("a", [[(3, 4), (5, 5)], [(9, 9), (0, 0)]], 200), document("b", [], 6)])
    alignments = align_all(keys, responses)
    assert all("key_chains" not in a.__dict__ for a in alignments)  # made when first read, from the arrays
    import pickle

    assert pickle.loads(pickle.dumps(alignments[1])) == align(keys[1], responses[1])
    assert alignments == [align(k, r) for k, r in zip(keys, responses)]
    assert laid_alignments(alignments) is not None

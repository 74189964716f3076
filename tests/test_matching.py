"""Head and partial mention matching (CorefUD scorer definitions) as a pre-alignment of the response."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.mentions.matching import match_corpus, match_mentions, mention_alignment
from metrics.model import Document
from metrics.formats.readers import read_documents
from metrics.corpus.scoring import prepare

DATA = Path(__file__).resolve().parent / "data" / "formats"

#            0      1      2      3     4      5         6
WORDS = ["the", "big", "dog", "of", "the", "farmer", "barked"]
HEADS = [2, 2, 6, 5, 5, 2, -1]  # dog <- the, big; farmer <- of, the; dog <- farmer; barked root


def doc(chains: list[list[tuple[int, int]]], heads: list[int] | None = HEADS) -> Document:
    return Document(name="d", words=WORDS, chains=chains, labels=[str(i) for i in range(len(chains))],
                    sentence_starts=[0], heads=heads)


def test_exact_is_the_identity() -> None:
    response = doc([[(0, 2)]])
    assert match_mentions(doc([[(0, 5)]]), response) is response
    assert mention_alignment(doc([[(0, 5)]]), response, "exact") == {}


def test_partial_response_inside_the_key_covering_its_head() -> None:
    key = doc([[(0, 5), (6, 6)]])
    assert mention_alignment(key, doc([[(0, 2)]]), "partial") == {(0, 2): (0, 5)}
    assert mention_alignment(key, doc([[(2, 2)]]), "partial") == {(2, 2): (0, 5)}
    assert mention_alignment(key, doc([[(3, 5)]]), "partial") == {}  # misses the head "dog"
    assert mention_alignment(key, doc([[(0, 6)]]), "partial") == {}  # not inside the key mention


def test_head_match_needs_the_same_head_word() -> None:
    key = doc([[(0, 5)]])
    assert mention_alignment(key, doc([[(2, 3)]]), "head") == {(2, 3): (0, 5)}  # head dog, overlap
    assert mention_alignment(key, doc([[(0, 6)]]), "head") == {}  # head "barked"
    assert mention_alignment(key, doc([[(4, 5)]]), "head") == {}  # head "farmer"


def test_one_to_one_the_closest_match_wins() -> None:
    key = doc([[(0, 5)]])
    assert mention_alignment(key, doc([[(1, 2)], [(0, 2)]]), "partial") == {(0, 2): (0, 5)}
    # two key mentions headed by "dog": the response goes to the proportionally closer one
    key = doc([[(0, 2)], [(1, 2)]])
    assert mention_alignment(key, doc([[(2, 2)]]), "partial") == {(2, 2): (1, 2)}


def test_ties_go_to_the_key_mention_that_starts_first() -> None:
    key = doc([[(0, 2)], [(2, 4)]])  # both headed by "dog", both 3 words
    assert mention_alignment(key, doc([[(2, 2)]]), "partial") == {(2, 2): (0, 2)}


def test_exact_spans_align_before_partial_ones() -> None:
    key = doc([[(0, 5)]])
    response = doc([[(0, 2), (0, 5)]])
    assert mention_alignment(key, response, "partial") == {}
    assert match_mentions(key, response, "partial") is response


def test_rewriting_keeps_chain_and_mention_order() -> None:
    key = doc([[(0, 5), (6, 6)]])
    response = doc([[(6, 6), (0, 2)], [(3, 3)]])
    matched = match_mentions(key, response, "partial")
    assert matched.chains == [[(6, 6), (0, 5)], [(3, 3)]]
    assert response.chains == [[(6, 6), (0, 2)], [(3, 3)]]  # the input is not modified


def test_response_without_syntax_uses_the_key_heads() -> None:
    key = doc([[(0, 5)]])
    response = doc([[(2, 3)]], heads=None)
    assert mention_alignment(key, response, "head") == {(2, 3): (0, 5)}


def test_unknown_mode() -> None:
    with pytest.raises(ValueError, match="unknown mention matching"):
        mention_alignment(doc([]), doc([]), "fuzzy")


def test_partial_matching_raises_mention_recall_on_real_output() -> None:
    """xrenner's GUM output: some mentions are shorter than the key's; partial matching credits them."""
    keys = read_documents(str(DATA / "gum2.conllu"))
    responses = read_documents(str(DATA / "gum2.response.conll"))
    pairs = list(zip(keys, responses))
    exact = prepare(keys, responses).score(metrics=["mentions"]).micro["mentions"]
    partial = prepare(keys, [match_mentions(k, r, "partial") for k, r in pairs]).score(metrics=["mentions"]).micro["mentions"]
    head = prepare(keys, [match_mentions(k, r, "head") for k, r in pairs]).score(metrics=["mentions"]).micro["mentions"]
    assert exact.recall_num < partial.recall_num <= head.recall_num
    assert partial.recall_den == exact.recall_den and partial.precision_den == exact.precision_den


def test_match_corpus_pairs_documents_like_prepare() -> None:
    keys = read_documents(str(DATA / "gum2.conllu"))  # names `X`; the response's are `(X); part 000`
    responses = read_documents(str(DATA / "gum2.response.conll"))
    matched = match_corpus(keys, responses, "partial")
    assert [d.name for d in matched] == [d.name for d in responses]
    for key, response, new in zip(keys, responses, matched):
        assert new.chains == match_mentions(key, response, "partial").chains
    assert matched != responses
    assert match_corpus(keys, responses) is responses


def _dense_alignment(key: Document, response: Document, mode: str) -> dict:
    """The alignment as the full keys x responses matrix gives it (scipy on every pair, the score
    of each pair written out): what `mention_alignment` must equal from the scoring pairs alone."""
    import numpy as np

    from metrics.mentions.heads import head_of
    from metrics.runtime.lsap import linear_sum_assignment

    key_spans, resp_spans = sorted(set(key.mentions())), sorted(set(response.mentions()))
    key_head = {s: head_of(key, s)[0] for s in key_spans}
    resp_head = {s: head_of(response if response.heads is not None else key, s)[0] for s in resp_spans}
    same = {k for k in key_spans if k in set(resp_spans) and (mode == "partial" or resp_head[k] == key_head[k])}
    keys, resps = [k for k in key_spans if k not in same], [s for s in resp_spans if s not in same]
    if not keys or not resps:
        return {}
    similarity = np.zeros((len(keys), len(resps)))
    for i, (ks, ke) in enumerate(keys):
        for j, (ss, se) in enumerate(resps):
            if mode == "partial" and ks <= ss and se <= ke and ss <= key_head[(ks, ke)] <= se:
                similarity[i, j] = (se - ss + 1) / (ke - ks + 1)
            elif mode == "head" and key_head[(ks, ke)] == resp_head[(ss, se)]:
                similarity[i, j] = max(0, min(ke, se) - max(ks, ss) + 1) / (ke - ks + 1)
    cost = -similarity
    rows, cols = linear_sum_assignment()(cost)
    return {resps[c]: keys[r] for r, c in zip(rows.tolist(), cols.tolist()) if cost[r, c] < 0}


spans_of = st.lists(st.tuples(st.integers(0, 9), st.integers(0, 3)).map(lambda p: (p[0], min(9, p[0] + p[1]))),
                    min_size=1, max_size=6)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=10, max_size=10), st.lists(spans_of, min_size=1, max_size=3),
       st.lists(spans_of, min_size=1, max_size=3), st.sampled_from(["head", "partial"]), st.booleans())
def test_alignment_is_the_dense_solves(parents, key_chains, response_chains, mode, replayed) -> None:
    """Head and partial match from the pairs that share a head (or cover the key's head), solved by
    `lsap_sparse` (replayed, or dense below its size), against the full matrix solved by scipy:
    the same pairs, ties included (few distinct spans, many equal scores)."""
    from metrics.runtime import lsap_sparse

    heads = [-1] + [parents[i] % i for i in range(1, 10)]  # a tree: each word's head is before it
    words = [f"w{i}" for i in range(10)]
    key = Document(name="d", words=words, chains=[sorted(set(c)) for c in key_chains],
                   labels=[str(i) for i in range(len(key_chains))], sentence_starts=[0], heads=heads)
    response = Document(name="d", words=words, chains=[sorted(set(c)) for c in response_chains],
                        labels=[str(i) for i in range(len(response_chains))], sentence_starts=[0], heads=heads)
    kept = lsap_sparse.DENSE_CELLS
    lsap_sparse.DENSE_CELLS = 0 if replayed else kept
    try:
        assert mention_alignment(key, response, mode) == _dense_alignment(key, response, mode)
    finally:
        lsap_sparse.DENSE_CELLS = kept

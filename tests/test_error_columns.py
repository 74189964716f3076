"""The Chen & Ng records as columns (`records.classify_columns`, `ErrorColumns`) against the
records found one mention at a time (tests/chen_ng_brute.py, the engine's first classifier):
the same records, field for field, on random documents with repeated spans, all four mention
types, discontinuous mentions and any weights; and the columns' selections and counts against
`filter_records`, `count_errors` and `count_by_document` on the records."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from chen_ng_brute import classify_views as brute_classify_views
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import Pair, corpora, pairs, weights

from records_road import classify_views, count_by_document, counts_by_document, filter_records
from metrics.corpus.scoring import prepare
from metrics.errors.chen_ng.records import CATEGORIES, ErrorColumns, classify_corpus, classify_corpus_columns, count_errors
from metrics.mentions.chains import key_view, response_view
from metrics.model import MentionType
from metrics.measures.weights import W4, Weights

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def awkward_pairs(draw: st.DrawFn) -> tuple[Pair, dict, Weights]:
    """A pair (repeated spans on either side, or gold mentions), each span's type drawn among all
    four (zeros too), some key and response mentions made discontinuous, and weights (zero allowed)."""
    pair = draw(st.one_of(pairs(duplicates=True), pairs(gold_mentions=True), pairs(max_tokens=20, max_mentions=14)))
    spans = sorted({s for doc in (pair.key, pair.response) for chain in doc.chains for s in chain})
    types = {s: MentionType(draw(st.integers(0, 3))) for s in spans}
    wide = [s for s in spans if s[1] > s[0]]
    key_pieces = {s: ((s[0], s[0]), (s[1], s[1])) for s in wide if draw(st.booleans())}
    resp_pieces = {s: ((s[0], s[0]), (s[1], s[1])) for s in wide if draw(st.booleans())}
    key = dataclasses.replace(pair.key, pieces=key_pieces or None)
    response = dataclasses.replace(pair.response, pieces=resp_pieces or None)
    return Pair(key, response), types, draw(weights(positive=False))


@FAST
@given(awkward_pairs())
def test_columns_equal_the_records_found_one_mention_at_a_time(case: tuple[Pair, dict, Weights]) -> None:
    pair, types, w = case
    kv, rv = key_view(pair.key), response_view(pair.response)
    expected = brute_classify_views("d", pair.key, pair.response, kv, rv, types=types, weights=w)
    found = classify_views("d", pair.key, pair.response, kv, rv, types=types, weights=w)
    assert found == expected
    # field types too: a cost is a float as the weights give it, a span's ends are ints
    assert [(type(r.cost), type(r.mention.span[0])) for r in found] == \
           [(type(r.cost), type(r.mention.span[0])) for r in expected]


@FAST
@given(corpora(duplicates=True, max_documents=4), weights(), st.data())
def test_a_corpus_of_columns_equals_its_documents_records(corpus: list[Pair], w: Weights, data: st.DataObject) -> None:
    """The corpus classified at once (documents laid end to end, the pairs not typed yet typed
    together), some documents without key mentions or without a response, against each pair
    alone with its own types."""
    keys, responses = [p.key for p in corpus], [p.response for p in corpus]
    for i in range(len(keys)):
        if data.draw(st.booleans(), label=f"no key mentions in doc{i}"):
            keys[i] = dataclasses.replace(keys[i], chains=[], labels=[])
    responses = [r for i, r in enumerate(responses) if i == 0 or data.draw(st.booleans(), label=f"response doc{i}")]
    columns = classify_corpus_columns(prepare(keys, responses).pairs, w)
    prepared = prepare(keys, responses)
    expected = [r for pair in prepared.pairs
                for r in brute_classify_views(pair.name, pair.key, pair.response, pair.key_view, pair.response_view,
                                              types=pair.types, weights=w)]
    assert columns.documents == [pair.name for pair in prepared.pairs]
    assert classify_corpus(prepared.pairs, w) == expected == columns.records()
    assert ErrorColumns.of(expected).records() == expected
    assert columns.counts() == count_errors(expected)
    assert counts_by_document(columns) == count_by_document(expected)
    for categories, kinds in [(None, None), (CATEGORIES[:2], None), (None, [MentionType.PRONOUN]),
                              (CATEGORIES[3:], [MentionType.NAME, MentionType.NOMINAL])]:
        selected = columns.select(categories, kinds)
        assert selected.records() == filter_records(expected, categories, kinds)
        assert counts_by_document(selected) == count_by_document(selected.records())


def test_no_documents_and_no_errors() -> None:
    empty = classify_corpus_columns([], W4)
    assert len(empty) == 0 and empty.records() == [] and empty.counts() == count_errors([])
    assert counts_by_document(empty) == {}



def test_real_text_typed_together_equals_each_document_typed_alone() -> None:
    """GUM's sample (POS tags and parses: the types found by the POS road, all documents' spans at
    once) classified as a corpus, against each document classified alone with its own types."""
    from metrics.formats.readers import read_documents

    sample = Path(__file__).resolve().parent.parent / "samples" / "gum"
    keys = read_documents(str(sample / "key.gum.conll"))
    responses = read_documents(str(sample / "response.gum.conll"))
    found = classify_corpus_columns(prepare(keys, responses).pairs, W4)
    expected = [r for pair in prepare(keys, responses).pairs
                for r in classify_views(pair.name, pair.key, pair.response, pair.key_view, pair.response_view,
                                        types=pair.types, weights=W4)]
    assert len(expected) > 100 and found.records() == expected

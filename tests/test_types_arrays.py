"""Mention types of many documents' spans at once (`types.types_together`, the POS road as array
work in `types_arrays`) against each span's type from its own document's typer (`type_of`, one
span at a time): drawn documents with dependency heads (cycles, roots, heads past the document
included), tags, words, lemmas and named entities, and spans over them, some outside them."""

from __future__ import annotations

from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.mentions import types_arrays
from metrics.mentions.types import _DocumentTyper, types_together
from metrics.model import Document, Span

TAGS = ["NN", "NNP", "NNPS", "PRP", "PRP$", "WP", "POS", "DT", "IN", "JJ", "VBD", ",", "CD", "WDT", "HYPH"]
WORDS = ["the", "man", "'s", "he", "London", "of", ",", "it", "Mr.", "this", "who", "2014", "’s", "'S", "-",
         "Them", "thee", "THAT", "which", "I"]
LABELS = ["PERSON", "ORG", "DATE", "CARDINAL", "gpe"]


@st.composite
def documents(draw: st.DrawFn) -> tuple[Document, list[Span]]:
    """A document with dependency heads, POS tags, words, maybe lemmas and named entities, and
    spans over it (some past its end)."""
    n = draw(st.integers(1, 16))
    heads = draw(st.lists(st.integers(-1, n), min_size=n, max_size=n))
    tags = draw(st.lists(st.sampled_from(TAGS), min_size=n, max_size=n))
    words = draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n))
    lemmas = draw(st.one_of(st.none(), st.lists(st.sampled_from(WORDS), min_size=n, max_size=n)))
    bounds = st.integers(0, n - 1)
    entities = draw(st.one_of(st.none(), st.lists(
        st.tuples(bounds, st.integers(0, 3), st.sampled_from(LABELS)).map(lambda t: (t[0], min(t[0] + t[1], n - 1), t[2])),
        max_size=5)))
    spans = draw(st.lists(st.tuples(st.integers(0, n), st.integers(0, 5)).map(lambda t: (t[0], t[0] + t[1])),
                          max_size=10))
    parse = draw(st.booleans())  # the heads as a parse column's (found ahead) or as given ones
    doc = Document(name="d", words=words, chains=[], pos=tags, lemmas=lemmas, named_entities=entities,
                   heads=None if parse else heads, parse=["*"] * n if parse else None,
                   parse_heads=heads if parse else None, sentence_starts=[0])
    return doc, spans


def check(drawn: list[tuple[Document, list[Span]]]) -> None:
    docs = [doc for doc, _ in drawn]
    spans = [list(dict.fromkeys(doc_spans)) for _, doc_spans in drawn]
    typed, kinds = types_together(docs, spans)
    expected = [[_DocumentTyper(doc).type_of(span) for span in doc_spans] for doc, doc_spans in zip(docs, spans)]
    assert [list(found.items()) for found in typed] == [list(zip(doc_spans, want))
                                                        for doc_spans, want in zip(spans, expected)]
    assert kinds.tolist() == [kind for want in expected for kind, _ in want]


@settings(max_examples=150, deadline=None)
@given(st.lists(documents(), min_size=1, max_size=4))
def test_spans_typed_at_once_are_each_spans_type(drawn) -> None:
    check(drawn)


@settings(max_examples=60, deadline=None)
@given(st.lists(documents(), min_size=1, max_size=3))
def test_a_candidate_too_deep_to_walk_leaves_its_span_to_its_documents_head_finder(drawn) -> None:
    with patch.object(types_arrays, "DEPTH_WALKED", 1):
        check(drawn)


def test_the_road_types_a_corpus_as_each_documents_typer() -> None:
    """A fixed case through every rule of the road: a pronoun tag, a name tag, a pronoun lemma, a
    lone demonstrative, a name entity within the span, a possessive stepped over ("John 's": a
    name, where its marker is a nominal), a span whose two candidates are told apart by rank."""
    words = ["John", "'s", "dog", "saw", "thee", "and", "this", ",", "New", "York", "she"]
    tags = ["NNP", "POS", "NN", "VBD", "NN", "CC", "DT", ",", "NN", "NN", "PRP"]
    heads = [1, 2, 3, -1, 3, 3, 3, 3, 9, 3, 3]
    doc = Document(name="d", words=words, chains=[], pos=tags, lemmas=[w.lower() for w in words], heads=heads,
                   named_entities=[(8, 9, "GPE")], sentence_starts=[0])
    spans = [(0, 1), (0, 2), (4, 4), (6, 6), (8, 9), (10, 10), (6, 7), (3, 3)]
    assert types_arrays.road(doc) == heads
    check([(doc, spans), (doc, spans[::-1])])


@settings(max_examples=60, deadline=None)
@given(st.lists(documents(), min_size=1, max_size=4))
def test_spans_all_on_the_road_are_typed_in_one_call(drawn) -> None:
    """Every span within its document and every document on the road, none typed ahead (a cold
    run): typed all at once (`types._all_on_road`), each its own typer's type."""
    from metrics.mentions.types import _all_on_road

    inside = [(doc, [(min(s, len(doc.words) - 1), min(e, len(doc.words) - 1)) for s, e in spans]) for doc, spans in drawn]
    assert _all_on_road([doc for doc, _ in inside], [list(dict.fromkeys(spans)) for _, spans in inside]) is not None \
        or any(types_arrays.road(doc) is None for doc, _ in inside)
    check(inside)

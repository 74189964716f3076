"""The array kernels against the per-mention code they replaced (`reference_kernels.py`): the same
chain views (v8.01's keep rule) and the same judgements of Tuggener's metrics, in the same order,
on generated documents with repeated spans, empty chains, zeros and chains without nominals."""

from __future__ import annotations

import functools

from hypothesis import given, settings
from hypothesis import strategies as st

import reference_kernels as reference
from strategies import corpora
from tuggener_support import count_document
from metrics.corpus.scoring import prepare
from metrics.measures import tuggener
from metrics.mentions.chains import chain_view, code_spans, key_view, response_view
from metrics.mentions.heads import DocumentHeads
from metrics.mentions.types import _DocumentTyper, assign_types
from metrics.model import Document, MentionType, Span

SPANS = st.tuples(st.integers(0, 12), st.integers(0, 2)).map(lambda t: (t[0], t[0] + t[1]))
CHAINS = st.lists(st.lists(SPANS, max_size=6), max_size=7)
"""Chains over 15 tokens: spans repeat within and across chains, chains may be empty."""


def document(chains: list[list[Span]]) -> Document:
    return Document(name="d", words=["w"] * 15, chains=chains, labels=[f"c{i}" for i in range(len(chains))])


@st.composite
def typed_pairs(draw: st.DrawFn) -> tuple[Document, Document, dict[Span, MentionType]]:
    key, response = draw(CHAINS), draw(CHAINS)
    if draw(st.booleans()):  # a response sharing most of the key's spans, as real output does
        response = [[span for span in chain if draw(st.integers(0, 3))] for chain in key] + response
    spans = sorted({span for chain in key + response for span in chain})
    kinds = draw(st.lists(st.sampled_from(list(MentionType)), min_size=len(spans), max_size=len(spans)))
    return document(key), document(response), dict(zip(spans, kinds))


@settings(max_examples=300, deadline=None)
@given(CHAINS, st.booleans())
def test_chain_view_is_the_dictionaries_view(chains: list[list[Span]], keep_last: bool) -> None:
    doc = document(chains)
    got, want = chain_view(doc, keep_last), reference.chain_view(doc, keep_last)
    assert got.chains == want.chains
    assert got.chain_of == want.chain_of
    assert got.position == want.position
    assert got.labels == want.labels
    assert code_spans(got.codes) == [span for chain in want.chains for span in chain]


@settings(max_examples=300, deadline=None)
@given(typed_pairs(), st.booleans())
def test_judgements_are_the_loops_judgements(pair, per_entity: bool) -> None:
    key, response, types = pair
    kv, rv = key_view(key), response_view(response)
    got = tuggener._judgements(kv, rv, tuggener._member_types(kv, types), tuggener._member_types(rv, types),
                               per_entity)
    want = reference.judgements(reference.ref_key_view(key), reference.ref_response_view(response), types,
                                per_entity)
    assert list(got) == list(want)
    for name, (codes, kinds, outcomes) in got.items():
        judged = list(zip(code_spans(codes), outcomes.tolist()))
        assert judged == want[name], name
        assert kinds.tolist() == [int(types[span]) for span, _ in want[name]], name


@settings(max_examples=200, deadline=None)
@given(typed_pairs(), st.sampled_from([None, "start"]))
def test_breakdown_classes_come_in_the_loops_order(pair, labelled) -> None:
    """A breakdown by a feature lists its classes in order of first judgement (JSON keeps it)."""
    key, response, types = pair
    label = None if labelled is None else (lambda span: span[0] % 3)
    got = count_document(key, response, types, label)
    kv, rv = reference.ref_key_view(key), reference.ref_response_view(response)
    for name, items in reference.judgements(kv, rv, types).items():
        classes = list(MentionType) if label is None else list(dict.fromkeys(label(span) for span, _ in items))
        assert list(got[name]) == classes
        for c in classes:
            cell = [0, 0, 0, 0]
            for span, outcome in items:
                if (types[span] if label is None else label(span)) == c:
                    cell[outcome] += 1
            assert got[name][c] == tuggener.Tally(*cell)


@settings(max_examples=150, deadline=None)
@given(corpora(duplicates=True, max_documents=4))
def test_documents_scored_together_as_alone(pairs_of_documents) -> None:
    """Many documents' views laid end to end give each document the scores it has alone, and
    those are the loops' counts."""
    corpus = prepare([p.key for p in pairs_of_documents], [p.response for p in pairs_of_documents])
    together = tuggener.score_documents(corpus.pairs)
    for pair, scores in zip(corpus.pairs, together):
        alone = tuggener.score_documents([pair])[0]
        assert repr(scores) == repr(alone)
        want = reference.judgements(reference.ref_key_view(pair.key), reference.ref_response_view(pair.response),
                                    pair.types)
        for name in tuggener.COUNTED:
            cell = [0, 0, 0, 0]
            for _, outcome in want[name]:
                cell[outcome] += 1
            assert scores[name].counts() == tuggener.Tally(*cell).score().counts()


TAGS = ["NN", "NNP", "PRP", "PRP$", "POS", "DT", "IN", "JJ", "VBD", ",", "CD", "WP"]
WORDS_DRAWN = ["the", "man", "'s", "he", "London", "of", ",", "it", "Mr.", "this", "2014", "’s", "'S", "'", "’"]


def _start_and_end(start_and_length: tuple[int, int]) -> Span:
    return start_and_length[0], start_and_length[0] + start_and_length[1]


@functools.lru_cache(maxsize=None)
def _spans_over(n: int) -> st.SearchStrategy[list[Span]]:
    """Kept per n: built at each draw (a new lambda each time), it was validated again at every
    draw.  The same draws either way."""
    return st.lists(st.tuples(st.integers(0, n), st.integers(0, 4)).map(_start_and_end), max_size=12)


@st.composite
def parsed_documents(draw: st.DrawFn) -> tuple[Document, list[Span]]:
    """A document with dependency heads (any: cycles, roots, heads outside the document), POS
    tags and words, and spans over it, some outside it."""
    n = draw(st.integers(1, 14))
    heads = draw(st.lists(st.integers(-1, n), min_size=n, max_size=n))
    tags = draw(st.one_of(st.none(), st.lists(st.sampled_from(TAGS), min_size=n, max_size=n)))
    words = draw(st.lists(st.sampled_from(WORDS_DRAWN), min_size=n, max_size=n))
    spans = draw(_spans_over(n))
    doc = Document(name="d", words=words, chains=[], pos=tags, heads=heads, sentence_starts=[0])
    return doc, spans


@settings(max_examples=200, deadline=None)
@given(parsed_documents())
def test_heads_of_many_spans_are_each_spans_head(drawn) -> None:
    doc, spans = drawn
    finder = DocumentHeads(doc)
    inside = [(s, e) for s, e in spans if e < len(doc.words)]
    assert finder.heads(inside) == [finder.head(span)[0] for span in inside]


def test_heads_of_spans_outside_the_document_are_refused_as_one_spans() -> None:
    """A span outside the document is a ValueError from `heads` as from `head`, not a head read
    from a wrapped-around index (a negative start) or an IndexError (an end past the last token)."""
    import pytest

    finder = DocumentHeads(Document(name="d", words=["a", "b", "c"], chains=[], heads=[1, -1, 1]))
    for span in [(-1, -1), (-3, -3), (2, 3), (1, 0)]:
        with pytest.raises(ValueError):
            finder.head(span)
        with pytest.raises(ValueError):
            finder.heads([(0, 0), span])


@settings(max_examples=200, deadline=None)
@given(parsed_documents())
def test_types_of_many_spans_are_each_spans_type(drawn) -> None:
    doc, spans = drawn
    typer = _DocumentTyper(doc)
    assert typer.types_of(spans) == [typer.type_of(span) for span in spans]
    assert list(assign_types(doc, spans).items()) == [(span, typer.type_of(span)) for span in dict.fromkeys(spans)]

"""Many documents' spans typed at once (`types.types_together`) are typed as each document types them
alone (`types.assign_types`; small ones joined into one, `types._typed_joined`), whatever each document carries: POS tags or none, a parse that gives
heads or a malformed one, dependency heads, lemmas, named entities, explicit types, its own
mentions typed ahead (`prepare_types`) or not, and spans beyond its tokens."""

from __future__ import annotations

import dataclasses
import functools
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.errors.kummerfeld_klein.syntax import NAME, NOMINAL, PRONOUN, DocumentSyntax
from metrics.errors.kummerfeld_klein.view import to_triple
from metrics.mentions.heads import heads_for
from metrics.mentions.types import DocumentTypes, assign_types, prepare_types, types_together
from metrics.model import Document, MentionType

WORDS = ["she", "She", "it", "the", "a", "Smith", "NASA", "museum", "'s", ",", "this", "Mr.", "which", "Monday", "."]
TAGS = ["PRP", "PRP$", "NNP", "NN", "DT", "POS", ",", "CD", "WP", "VBD", "-"]
BITS = ["(TOP(S(NP*", "*)", "*", "(NP*)", "*))", "(NP(NP*", "(VP*", "*)))", "(PP*"]
LABELS = ["PERSON", "ORG", "DATE", "CARDINAL"]


def _ordered(pair: tuple[int, int]) -> tuple[int, int]:
    return min(pair), max(pair)


def _ordered_entity(entity: tuple[int, int, str]) -> tuple[int, int, str]:
    return min(entity[0], entity[1]), max(entity[0], entity[1]), entity[2]


_TYPES = st.sampled_from(list(MentionType))


@functools.lru_cache(maxsize=None)
def _parts(n: int) -> SimpleNamespace:
    """The strategies of an n-token document's parts, built once per n and kept: built afresh at
    each draw (a new lambda each time, which Hypothesis cannot cache), they were validated again
    at every draw, most of these tests' time.  The same draws either way."""
    return SimpleNamespace(
        words=st.lists(st.sampled_from(WORDS), min_size=n, max_size=n),
        pos=st.lists(st.sampled_from(TAGS), min_size=n, max_size=n),
        # a balanced parse (each token its own NP in one sentence) or random bits, often malformed
        parse=st.one_of(st.none(), st.just(["(TOP(S(NP*)"] + ["(NP*)"] * (n - 2) + ["(NP*)))"] if n > 1 else None),
                        st.lists(st.sampled_from(BITS), min_size=n, max_size=n)),
        heads=st.one_of(st.none(), st.lists(st.integers(-2, n), min_size=n, max_size=n)),  # a few out of range
        lemmas=st.one_of(st.none(), st.lists(st.sampled_from(WORDS), min_size=n, max_size=n)),
        entities=st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.sampled_from(LABELS))
                          .map(_ordered_entity), max_size=3),
        spans=st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).map(_ordered), max_size=6, unique=True),
        starts=st.lists(st.integers(0, n - 1), max_size=2),
        # the document's own mentions, others within it, and a few beyond its tokens
        extra=st.lists(st.tuples(st.integers(-1, n + 1), st.integers(-1, n + 1)).map(_ordered), max_size=5),
        inside=st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).map(_ordered), min_size=1, max_size=6),
    )


@st.composite
def documents(draw: st.DrawFn, name: str) -> Document:
    n = draw(st.integers(1, 12))
    parts = _parts(n)
    words = draw(parts.words)
    with_pos = draw(st.booleans())
    pos = draw(parts.pos) if with_pos else None
    parse = draw(parts.parse)
    heads = draw(parts.heads)
    lemmas = draw(parts.lemmas)
    entities = draw(parts.entities) or None
    spans = draw(parts.spans)
    explicit = {span: draw(_TYPES) for span in spans[:1]} \
        if draw(st.integers(0, 5)) == 0 else None
    starts = sorted({0, *draw(parts.starts)})
    return Document(name=name, words=words, chains=[spans] if spans else [], sentence_starts=starts, pos=pos,
                    lemmas=lemmas, parse=parse, heads=heads, named_entities=entities, explicit_types=explicit)


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[Document], list[list[tuple[int, int]]]]:
    docs = [draw(documents(f"d{i}")) for i in range(draw(st.integers(1, 6)))]
    prepare_types([doc for doc in docs if draw(st.booleans())])  # some keys typed ahead, as the cache keeps them
    spans = []
    for doc in docs:
        extra = draw(_parts(len(doc.words)).extra)
        spans.append(list(dict.fromkeys([*doc.mentions(), *extra])))
    return docs, spans


def _typed_at_once_as_each_types_them(docs: list[Document], spans: list[list[tuple[int, int]]]) -> None:
    """`types_together` gives each document's spans the types its own typer gives, in order."""
    expected = [assign_types(doc, doc_spans) for doc, doc_spans in zip(docs, spans)]
    typed, kinds = types_together(docs, spans)
    assert [list(found.items()) for found in typed] == [list(found.items()) for found in expected]
    assert kinds.tolist() == [int(found[span][0]) for found, doc_spans in zip(expected, spans) for span in doc_spans]


@settings(max_examples=300, deadline=None)
@given(corpora())
def test_spans_typed_at_once_as_each_document_types_them(corpus):
    _typed_at_once_as_each_types_them(*corpus)


@settings(max_examples=200, deadline=None)
@given(corpora(), st.randoms(use_true_random=False))
def test_one_documents_typer_asked_again_and_again_types_as_a_fresh_one(corpus, rng):
    """`DocumentTypes` keeps its typer from one question to the next (K&K asks mention by mention):
    each answer is the one a typer made for that question alone gives, whatever was asked before,
    in whatever order, a span asked twice included."""
    for doc, doc_spans in zip(*corpus):
        asked = doc_spans + rng.sample(doc_spans, min(2, len(doc_spans)))
        rng.shuffle(asked)
        kept = DocumentTypes(doc)
        at = 0
        while at < len(asked):
            batch = asked[at:at + rng.randint(1, 3)]
            at += len(batch)
            assert list(kept.of(batch).items()) == list(DocumentTypes(doc).of(batch).items())


@settings(max_examples=100, deadline=None)
@given(documents("d"), st.randoms(use_true_random=False))
def test_kk_kinds_without_a_parse_are_each_mentions_type(doc, rng):
    """K&K's kind of a mention in a sentence without a parse, some typed at once first
    (`type_unparsed`, as `pair_view` types a pair's mentions), the others asked mention by mention
    of one `DocumentSyntax`, is its type as `assign_types` gives it alone (ZERO a pronoun)."""
    doc = dataclasses.replace(doc, parse=None)
    syntax = DocumentSyntax(doc)
    mentions = [m for m in (to_triple(syntax.starts, span) for span in doc.mentions()) if m is not None]
    rng.shuffle(mentions)
    syntax.type_unparsed(mentions[:rng.randint(0, len(mentions))])
    kinds = {MentionType.NAME: NAME, MentionType.NOMINAL: NOMINAL}
    for m in mentions + mentions[:2]:
        span = syntax.span(m)
        assert syntax.kind(m) == kinds.get(assign_types(doc, [span])[span][0], PRONOUN)


def test_a_malformed_parse_is_remembered_as_giving_no_heads():
    """`prepare_types` keeps [] for a parse column that gives no heads, and the head finder then
    takes the rule's heads, as it does when it finds the parse malformed itself."""
    doc = Document(name="cut", words=["the", "museum", "said"], chains=[[(0, 1)]], pos=["DT", "NN", "VBD"],
                   parse=["*)", "(NP*", "*"])
    fresh = dataclasses.replace(doc)
    prepare_types([doc])
    assert doc.parse_heads == []
    assert heads_for(doc).rule == heads_for(fresh).rule == "rule"
    assert assign_types(doc, [(0, 1), (1, 2)]) == assign_types(fresh, [(0, 1), (1, 2)])
    whole = Document(name="whole", words=["the", "museum"], chains=[[(0, 1)]], pos=["DT", "NN"],
                     parse=["(TOP(NP*", "*))"])
    prepare_types([whole])
    assert whole.parse_heads == [1, -1] and heads_for(whole).rule == "parse"


@st.composite
def small_tagged_corpora(draw: st.DrawFn) -> tuple[list[Document], list[list[tuple[int, int]]]]:
    """Small documents with POS tags and heads (given, or a parse's found ahead), spans within
    them: the ones typed joined into one (`types._typed_joined`), beside a few that are not."""
    docs = []
    for i in range(draw(st.integers(2, 7))):
        doc = draw(documents(f"d{i}"))
        n = len(doc.words)
        pos = draw(_parts(n).pos) if draw(st.integers(0, 5)) else doc.pos
        docs.append(dataclasses.replace(doc, pos=pos, explicit_types=None if draw(st.integers(0, 5)) else doc.explicit_types))
    prepare_types([doc for doc in docs if draw(st.booleans())])
    spans = []
    for doc in docs:
        inside = draw(_parts(len(doc.words)).inside)
        spans.append(list(dict.fromkeys(inside)))
    return docs, spans


@settings(max_examples=200, deadline=None)
@given(small_tagged_corpora())
def test_small_documents_typed_joined_as_each_types_them(corpus):
    _typed_at_once_as_each_types_them(*corpus)

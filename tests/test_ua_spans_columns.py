"""`metrics.corpus.ua_spans` reads each layer's markables from the markable table's columns and
makes its tokens as arrays; here every value it returns is compared with the object path it
replaced (tests/ua_spans_reference.py): on the tests/data/ua files as read, and on Hypothesis-made
documents with zeros (before a word, two at one word, after the last word and past it), parts, markables
reaching past the words, non-referring and deixis entities, split antecedents and bridging."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ua_spans_reference import ReferenceTokens, reference_token_spans

from metrics.corpus.ua_spans import Tokens, token_spans
from metrics.formats.ua import read_ua
from metrics.mentions.ua import BridgingLink, Markable, UADocument

DATA = Path(__file__).resolve().parent / "data" / "ua"
FILES = [(DATA / f"{name}.key", DATA / f"{name}.response") for name in ("split", "non_referring", "bridging", "deixis")]
FILES.append((DATA / "codi" / "persuasion.key", DATA / "codi" / "persuasion.response"))
OPTIONS = [(singletons, zeros) for singletons in (True, False) for zeros in (True, False)]


def _ints(spans) -> bool:
    """Whether every number in these markables is a Python int (not a numpy scalar, which prints
    otherwise in the JSON and the views)."""
    return all(type(n) is int for m in spans for n in (*m.span, *(x for piece in m.pieces for x in piece)))


def assert_same(key: UADocument, response: UADocument) -> None:
    """The columns' path returns what the object path returned, under every option."""
    for keep_singletons, keep_zeros in OPTIONS:
        made = token_spans(key, response, keep_singletons=keep_singletons, keep_zeros=keep_zeros)
        expected = reference_token_spans(key, response, keep_singletons=keep_singletons, keep_zeros=keep_zeros)
        assert made == expected
        assert repr(made) == repr(expected)
        for relations in (made.key_relations, made.response_relations):
            assert _ints(relations.identity) and _ints(m for _, chain in relations.deixis for m in chain)
        tokens, reference = Tokens(key, response, keep_zeros), ReferenceTokens(key, response, keep_zeros)
        assert tokens.index == reference.index
        assert (tokens.words, tokens.lines, tokens.sentence_starts) == (
            reference.words, reference.lines, reference.sentence_starts)
        assert all(type(t) is int for t in (*tokens.index.values(), *tokens.sentence_starts))


@pytest.mark.parametrize("pair", FILES, ids=lambda pair: pair[0].name)
def test_the_ua_files_as_read_give_the_same_token_spans(pair):
    for key, response in zip(read_ua(str(pair[0])), read_ua(str(pair[1]))):
        assert_same(key, response)


@st.composite
def documents(draw: st.DrawFn, words: int, zeros: list[str], tag: str) -> UADocument:
    """A UA document over `words` words, its markables on words (at times past them) and zeros."""
    word_positions = st.integers(0, words + 1)
    markables = []
    for layer in ("identity", "deixis"):
        made = []
        for i in range(draw(st.integers(0, 7))):
            suffix = "-DD" if layer == "deixis" else draw(st.sampled_from(("", "", "-Pseudo")))
            entity = f"{draw(st.integers(0, 3))}{suffix}"
            if zeros and draw(st.integers(0, 4)) == 0:
                zero = draw(st.sampled_from([*zeros, "0.5"]))  # "0.5": a zero of the other side or none
                parts: tuple = ((zero, zero),)
            else:
                parts = tuple((first, draw(st.integers(first, first + 2)))
                              for first in draw(st.lists(word_positions, min_size=1, max_size=3, unique=True)))
            is_zero = isinstance(parts[0][0], str)
            element_of = tuple(draw(st.lists(st.sampled_from(("7", "8")), max_size=2))) if not suffix else ()
            made.append(Markable(f"{tag}{layer[0]}{i}", entity, parts, None, is_zero, element_of,
                                 line=draw(st.integers(0, 50))))
        markables.append(made)
    ids = [m.id for m in markables[0]] + ["absent"]
    links = [BridgingLink(draw(st.sampled_from(ids)), draw(st.sampled_from(ids)), draw(st.sampled_from(("", "part"))))
             for _ in range(draw(st.integers(0, 4)))]
    kept_zeros = draw(st.lists(st.sampled_from(zeros), unique=True)) if zeros else []
    return UADocument("d", [f"w{w}" for w in range(words)], markables[0], markables[1], links, path=tag, line=3,
                      word_lines=list(range(10, 10 + draw(st.integers(0, words)))),
                      sentence_starts=draw(st.lists(st.integers(0, words + 1), max_size=4)),
                      zeros={z: "_" for z in kept_zeros})


@st.composite
def pairs(draw: st.DrawFn) -> tuple[UADocument, UADocument]:
    words = draw(st.integers(0, 8))
    zeros = [f"{w}.{k}" for w, k in draw(st.lists(st.tuples(st.integers(0, words + 1), st.integers(0, 2)),
                                                   unique=True, max_size=5))]
    return draw(documents(words, zeros, "k")), draw(documents(words, zeros, "r"))


@settings(max_examples=300, deadline=None)
@given(pairs())
def test_made_documents_give_the_same_token_spans(pair):
    assert_same(*pair)

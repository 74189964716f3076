"""Head finding and mention typing on small hand-made documents, one per annotation level."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.formats.conll import read_conll
from metrics.mentions.heads import head_of, heads_for
from metrics.mentions.types import assign_types
from metrics.model import Document, MentionType

NAME, NOMINAL, PRONOUN = MentionType.NAME, MentionType.NOMINAL, MentionType.PRONOUN

# "Claire Bailey , the director of the museum , said she liked it ."
ROWS = [
    ("Claire", "NNP", "(TOP(S(NP(NP*"),
    ("Bailey", "NNP", "*)"),
    (",", ",", "*"),
    ("the", "DT", "(NP(NP*"),
    ("director", "NN", "*)"),
    ("of", "IN", "(PP*"),
    ("the", "DT", "(NP*"),
    ("museum", "NN", "*)))"),
    (",", ",", "*)"),
    ("said", "VBD", "(VP*"),
    ("she", "PRP", "(SBAR(S(NP*)"),
    ("liked", "VBD", "(VP*"),
    ("it", "PRP", "(NP*)))))"),
    (".", ".", "*))"),
]
WORDS = [r[0] for r in ROWS]
# The same sentence as a dependency tree (UD-style heads, document token indices, -1 = root).
DEP_HEADS = [1, 9, 4, 4, 1, 7, 7, 4, 1, -1, 11, 9, 11, 9]


def parsed_doc() -> Document:
    return Document(
        name="parsed",
        words=WORDS,
        chains=[],
        sentence_starts=[0],
        pos=[r[1] for r in ROWS],
        parse=[r[2] for r in ROWS],
    )


# ------------------------------------------------------------------------------------- heads


def test_parse_heads_follow_collins_rules() -> None:
    doc = parsed_doc()
    assert head_of(doc, (0, 1)) == (1, "parse")  # NP: rightmost noun
    assert head_of(doc, (3, 7)) == (4, "parse")  # NP -> NP PP: the leftmost NP's head
    assert head_of(doc, (6, 7)) == (7, "parse")
    assert head_of(doc, (0, 8)) == (1, "parse")  # apposition: the first NP
    assert head_of(doc, (10, 10)) == (10, "parse")
    assert head_of(doc, (0, 13)) == (9, "parse")  # S -> VP -> the verb


def test_parse_head_of_a_span_that_is_no_constituent() -> None:
    doc = parsed_doc()
    # "director of": director's head lies outside the span, "of" depends on director.
    assert head_of(doc, (4, 5)) == (4, "parse")
    # "museum , said": three tokens with heads outside; the noun wins over the root verb.
    assert head_of(doc, (7, 9))[0] == 7
    # "liked it .": "it" depends on "liked"; of "liked" and ".", the word wins.
    assert head_of(doc, (11, 13))[0] == 11
    # "said she": noun-like candidates only ("she" depends on "liked", outside): "she".
    assert head_of(doc, (9, 10))[0] == 10


def test_dependency_heads_win_over_parse() -> None:
    doc = dataclasses.replace(parsed_doc(), heads=DEP_HEADS)
    assert head_of(doc, (3, 7)) == (4, "dependency")
    assert head_of(doc, (0, 1)) == (1, "dependency")
    assert head_of(doc, (6, 7)) == (7, "dependency")


def test_possessive_marker_is_stepped_over() -> None:
    words = ["John", "'s", "dog", "barked"]
    doc = Document("poss", words, [], sentence_starts=[0], pos=["NNP", "POS", "NN", "VBD"],
                   parse=["(TOP(S(NP(NP*", "*)", "*)", "(VP*)))"])
    assert head_of(doc, (0, 1)) == (0, "parse")
    assert head_of(doc, (0, 2)) == (2, "parse")
    assert assign_types(doc, [(0, 1), (0, 2)]) == {(0, 1): (NAME, "pos"), (0, 2): (NOMINAL, "pos")}


def test_malformed_parse_falls_back_to_the_simple_rule() -> None:
    doc = dataclasses.replace(parsed_doc(), parse=["(TOP*"] + ["*"] * (len(WORDS) - 1))
    assert head_of(doc, (3, 7)) == (4, "rule")  # cut before "of" (POS IN)


def test_simple_rule_without_any_annotation() -> None:
    words = "the man who came , the property itself , World War II , the city of London .".split()
    doc = Document("plain", words, [], sentence_starts=[0])
    assert head_of(doc, (0, 3)) == (1, "rule")  # cut before the relative
    assert head_of(doc, (5, 7)) == (6, "rule")  # trailing reflexive skipped
    assert head_of(doc, (9, 11)) == (10, "rule")  # "II" labels "War"
    assert head_of(doc, (13, 16)) == (14, "rule")  # cut before "of"
    assert head_of(doc, (13, 17)) == (14, "rule")


def test_simple_rule_with_pos_but_no_syntax() -> None:
    words = ["the", "running", "man", "who", "came", "and", "his", "dog", "'s", "bone"]
    pos = ["DT", "VBG", "NN", "WP", "VBD", "CC", "PRP$", "NN", "POS", "NN"]
    doc = Document("pos-only", words, [], sentence_starts=[0], pos=pos)
    assert head_of(doc, (0, 4)) == (2, "rule")  # "running" does not cut: no noun before it
    assert head_of(doc, (6, 8)) == (7, "rule")  # possessive marker skipped
    assert head_of(doc, (6, 9)) == (9, "rule")
    clause = Document("clause", ["the", "book", "he", "wrote"], [], sentence_starts=[0], pos=["DT", "NN", "PRP", "VBD"])
    assert head_of(clause, (0, 3)) == (1, "rule")
    his = Document("his", ["his", "pioneering", "work"], [], sentence_starts=[0], pos=["PRP$", "VBG", "NN"])
    assert head_of(his, (0, 2)) == (2, "rule")
    assert head_of(his, (0, 0)) == (0, "rule")
    many = Document("many", ["many", "of", "them"], [], sentence_starts=[0], pos=["JJ", "IN", "PRP"])
    assert head_of(many, (0, 2)) == (0, "rule")
    assert assign_types(doc, [(6, 6), (0, 2)]) == {(6, 6): (PRONOUN, "pos"), (0, 2): (NOMINAL, "pos")}


def test_head_finder_is_cached_per_document_object() -> None:
    doc = parsed_doc()
    assert heads_for(doc) is heads_for(doc)
    assert heads_for(parsed_doc()) is not heads_for(doc)


# ------------------------------------------------------------------------------------- types


def test_types_from_pos_with_parse() -> None:
    doc = parsed_doc()
    types = assign_types(doc, [(0, 1), (3, 7), (6, 7), (10, 10), (12, 12), (0, 8)])
    assert types == {
        (0, 1): (NAME, "pos"),
        (3, 7): (NOMINAL, "pos"),
        (6, 7): (NOMINAL, "pos"),
        (10, 10): (PRONOUN, "pos"),
        (12, 12): (PRONOUN, "pos"),
        (0, 8): (NAME, "pos"),
    }


def test_explicit_types_win() -> None:
    doc = dataclasses.replace(parsed_doc(), explicit_types={(3, 7): NAME})
    assert assign_types(doc, [(3, 7), (0, 1)]) == {(3, 7): (NAME, "explicit"), (0, 1): (NAME, "pos")}


def test_named_entity_over_the_head() -> None:
    words = ["the", "Guardian", "reported", "on", "2014", "in", "the", "Smith", "2014", "paper", "."]
    pos = ["DT", "JJ", "VBD", "IN", "CD", "IN", "DT", "NNP", "CD", "NN", "."]
    entities = [(1, 1, "ORG"), (4, 4, "DATE"), (7, 8, "PERSON")]
    doc = Document("ne", words, [], sentence_starts=[0], pos=pos, named_entities=entities)
    types = assign_types(doc, [(0, 1), (4, 4), (8, 8), (6, 9)])
    assert types[(0, 1)] == (NAME, "pos+ner")  # head tagged JJ, but an ORG entity over it
    assert types[(4, 4)] == (NOMINAL, "pos")  # a DATE is a value, not a name
    assert types[(8, 8)] == (NOMINAL, "pos")  # the PERSON entity reaches outside this mention
    assert types[(6, 9)] == (NOMINAL, "pos")  # head "paper"


def test_pronoun_lemma_the_tagger_missed() -> None:
    words = ["I", "saw", "'em", "and", "this", "."]
    doc = Document("lemma", words, [], sentence_starts=[0], pos=["PRP", "VBD", "NN", "CC", "DT", "."])
    types = assign_types(doc, [(0, 0), (2, 2), (4, 4)])
    assert types == {(0, 0): (PRONOUN, "pos"), (2, 2): (PRONOUN, "lemma"), (4, 4): (PRONOUN, "lemma")}


def test_words_only_fallback() -> None:
    text = "Mr. Jarndyce came to London . He met the Doctor and a Turk . London was cold . Rain fell . NASA sent YOU the property itself ."
    words = text.split()
    starts = [0] + [i + 1 for i, w in enumerate(words[:-1]) if w == "."]
    doc = Document("words", words, [], sentence_starts=starts)
    spans = {
        (0, 1): (NAME, "capitalisation"),  # capitalised head, not sentence-initial
        (4, 4): (NAME, "capitalisation"),
        (6, 6): (PRONOUN, "lexicon"),
        (8, 9): (NAME, "capitalisation"),
        (11, 12): (NOMINAL, "determiner"),  # "a Turk"
        (14, 14): (NAME, "capitalisation"),  # sentence-initial, but written capitalised mid-sentence
        (18, 18): (NOMINAL, "words"),  # sentence-initial "Rain": the capital says nothing
        (21, 21): (NAME, "capitalisation"),  # acronym
        (23, 23): (PRONOUN, "lexicon"),  # shouted pronoun
        (24, 26): (NOMINAL, "words"),  # head "property", not the intensifier
    }
    assert assign_types(doc, spans) == spans


def test_words_only_heading_in_capitals_is_not_a_name() -> None:
    words = "CHAPTER ONE . The chapter begins .".split()
    doc = Document("heading", words, [], sentence_starts=[0, 3])
    assert assign_types(doc, [(0, 0)]) == {(0, 0): (NOMINAL, "words")}


def test_same_span_same_type_whatever_the_order() -> None:
    doc = parsed_doc()
    spans = [(0, 1), (3, 7), (10, 10)]
    assert assign_types(doc, spans) == assign_types(doc, list(reversed(spans)))


def test_span_outside_the_document() -> None:
    doc = parsed_doc()
    n = len(WORDS)
    assert assign_types(doc, [(n - 1, n), (n + 3, n + 4)]) == {(n - 1, n): (NOMINAL, "no tokens"), (n + 3, n + 4): (NOMINAL, "no tokens")}
    with pytest.raises(ValueError, match="not within"):
        head_of(doc, (n, n))


# ------------------------------------------------------------------------------------- real text

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "gum" / "key.gum.conll"


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_every_span_of_a_real_document_has_its_head_inside(data: st.DataObject) -> None:
    """Any span (constituent or not) of a real parsed document, with each source of heads."""
    doc = _sample_documents()[data.draw(st.integers(0, 1))]
    source = data.draw(st.sampled_from(["parse", "rule with pos", "rule"]))
    if source == "rule with pos":
        doc = dataclasses.replace(doc, parse=None)
    elif source == "rule":
        doc = dataclasses.replace(doc, parse=None, pos=None, lemmas=None, named_entities=None)
    start = data.draw(st.integers(0, len(doc.words) - 1))
    end = data.draw(st.integers(start, min(start + 30, len(doc.words) - 1)))
    head, rule = head_of(doc, (start, end))
    assert start <= head <= end
    assert rule == ("parse" if source == "parse" else "rule")


def test_real_document_mentions_are_typed_from_their_heads() -> None:
    doc = _sample_documents()[0]
    spans = sorted(set(doc.mentions()))
    types = assign_types(doc, spans)
    assert set(types) == set(spans)
    for span, (mention_type, rule) in types.items():
        head, _ = head_of(doc, span)
        tag = doc.pos[head]
        if rule == "pos":
            expected = PRONOUN if tag in ("PRP", "PRP$", "WP", "WP$") else NAME if tag in ("NNP", "NNPS") else NOMINAL
            assert mention_type == expected, (span, doc.words[span[0] : span[1] + 1])
    # Every type occurs in a real biography.
    assert {t for t, _ in types.values()} == {NAME, NOMINAL, PRONOUN}


_documents: list[Document] = []


def _sample_documents() -> list[Document]:
    if not _documents:
        _documents.extend(read_conll(str(SAMPLE)))
    return _documents


def test_possessive_forms_are_the_words_that_lower_to_a_possessive_marker() -> None:
    """`heads.POSSESSIVE_FORMS` (looked up without lowering) holds exactly the words whose lower
    case is a possessive marker: lowering never shortens a word, and of all characters only those
    of the markers and `S` lower to one of the markers' characters."""
    from metrics.mentions.heads import POSSESSIVE_FORMS, POSSESSIVE_WORDS

    characters = {c for word in POSSESSIVE_WORDS for c in word}
    lowering_to_them = {chr(code) for code in range(0x110000) if not 0xD800 <= code < 0xE000
                        and chr(code).lower() in characters}
    assert lowering_to_them == characters | {"S"}
    words = {a + b for a in lowering_to_them for b in lowering_to_them} | lowering_to_them
    assert {word for word in words if word.lower() in POSSESSIVE_WORDS} == POSSESSIVE_FORMS

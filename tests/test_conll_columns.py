"""A CoNLL-2012 file's documents sent between processes as the reader's columns
(`metrics.formats.conll_columns`): what arrives equals what was read, field for field, the fields
left out of equality (`repeated`, `parse_heads`) too; documents changed after reading are sent as
objects, so that nothing set on them is lost."""

from __future__ import annotations

import pickle
from dataclasses import fields, replace
from pathlib import Path

import pytest

from metrics.conventions.conll import CONLL_2012_CONVENTIONS
from metrics.conventions.options import Options
from metrics.formats.conll import parse_conll
from metrics.formats.conll_columns import ReadDocuments, SentDocuments, sendable
from metrics.formats.packed import pack, unpack
from metrics.formats.readers import read_documents
from metrics.mentions.alignment import align_all, laid_alignments
from metrics.mentions.chains import laid_chains
from metrics.mentions.pairing import pair_documents
from metrics.mentions.types import prepare_types, types_together
from metrics.mentions.types_arrays import TokenArrays
from metrics.model import Document

import reference_conll

ROOT = Path(__file__).resolve().parent.parent
KEY = str(ROOT / "samples" / "gum" / "key.gum.conll")
RESPONSE = str(ROOT / "samples" / "gum" / "response.gum.conll")

SMALL = b"""#begin document (a); part 000
d 0 0 The DT (TOP(NP* - - - spk * (1
d 0 1 cat NN *) - - - spk * 1)|(2)
d 0 2 sat VBD (VP*)) sit - - spk * -

d 0 3 it PRP (TOP(NP*)) - - - - * (1)|(1)
#end document
#begin document (b); part 000
e 0 0 Hello UH (TOP*) - - - - (PERSON) (07)
#end document
#begin document (c); part 000
#end document
"""


def _fields(document: Document) -> dict:
    """Every field of a document, those left out of equality included (its file's arrays as lists)."""
    out = {field.name: getattr(document, field.name) for field in fields(document)}
    out["mention_arrays"] = _described(out["mention_arrays"])
    return out


def _described(held: tuple | None) -> tuple | None:
    """A document's `mention_arrays` as values that compare: its place, then its file's arrays
    as lists, its documents' chains, its typed mentions and its tokens."""
    if held is None:
        return None
    arrays, place = held
    tokens = arrays.tokens
    return (place, [values.tolist() for values in arrays[:5]],
            [arrays.stored.value("chains", i) for i in range(len(arrays.chain_starts) - 1)], arrays.typed,
            None if tokens is None else (tokens.starts.tolist(), tokens.words, tokens.word_lists, _tags(tokens),
                                         None if tokens.lemmas is None else list(tokens.lemmas),
                                         tokens.heads.tolist()))


def _tags(tokens: TokenArrays) -> list[str]:
    """The file's tags, as given or as numbered (the reader's: `TokenArrays.tag_ids`)."""
    if tokens.tag_ids is None:
        return tokens.tags
    ids, numbers = tokens.tag_ids
    tag_of = {number: tag for tag, number in numbers.items()}
    return [tag_of[i] for i in ids.tolist()]


def _sent_back(documents: tuple[Document, ...]) -> tuple[Document, ...]:
    return pickle.loads(pickle.dumps(documents, protocol=pickle.HIGHEST_PROTOCOL))


@pytest.mark.parametrize("syntax", [True, False])
def test_a_small_text_arrives_as_read(syntax: bool) -> None:
    read = parse_conll("small.conll", SMALL, syntax=syntax)
    assert isinstance(read, ReadDocuments)
    sent = sendable(read)
    assert isinstance(sent, SentDocuments)
    back = _sent_back(sent)
    assert isinstance(back, SentDocuments) and len(back) == 3
    assert [_fields(d) for d in back] == [_fields(d) for d in read]
    assert back[0].repeated == {(3, 3): (0, 0)} and back[2].words == [] and back[1].labels == ["07"]
    assert (back[0].parse_heads is not None) == syntax


@pytest.mark.parametrize("path", [KEY, RESPONSE])
def test_a_response_read_by_the_convention_arrives_as_read(path: str) -> None:
    read = CONLL_2012_CONVENTIONS.read(path, False, Options(match="head"), None, 1)  # with its syntax
    assert isinstance(read.documents, SentDocuments)
    payload = pickle.dumps(read.documents, protocol=pickle.HIGHEST_PROTOCOL)
    assert b"_documents_of" in payload and b"metrics.model" not in payload  # columns, no Document
    back = pickle.loads(payload)
    assert [_fields(d) for d in back] == [_fields(d) for d in read.documents]
    assert pickle.loads(pickle.dumps(read)) == read
    assert type(CONLL_2012_CONVENTIONS.read(path, True, Options(), None, 1).documents) is tuple  # a key: read here


def test_documents_typed_after_reading_are_sent_as_objects() -> None:
    """`prepare_types` keeps the key's types on its documents: pickled, they keep them (the
    reader's list is pickled as a plain list; a sent tuple whose documents were typed after it
    was made, as objects)."""
    read = parse_conll("small.conll", SMALL)
    sent = sendable(read)
    prepare_types(read)
    assert all(d.rule_types is not None for d in read)
    for documents in (read, sent):
        back = pickle.loads(pickle.dumps(documents))
        assert [d.rule_types for d in back] == [d.rule_types for d in read]
    assert type(pickle.loads(pickle.dumps(read))) is list
    assert type(sendable(read)) is tuple  # typed already: never sent as columns


def test_a_list_changed_after_reading_is_not_sent_as_columns() -> None:
    read = parse_conll("small.conll", SMALL)
    read.pop()
    assert type(sendable(read)) is tuple
    assert type(sendable(list(parse_conll("small.conll", SMALL)))) is tuple


@pytest.mark.parametrize("path", [KEY, RESPONSE])
def test_read_documents_hold_the_arrays_the_cache_gives(path: str) -> None:
    """A file's documents as read hold its chains and tokens as arrays (`Document.mention_arrays`),
    the very arrays unpacking its cache entry makes, each document its lists (the identity the
    array work checks), so that a cold run takes the cached run's array roads."""
    for syntax in (True, False):
        read = read_documents(path, syntax=syntax)
        back = unpack(pack(read))
        untyped = [(*found[:3], found[4]) for found in map(_described, (d.mention_arrays for d in back))]
        assert [(*found[:3], found[4]) for found in map(_described, (d.mention_arrays for d in read))] == untyped
        arrays = read[0].mention_arrays[0]
        assert arrays.typed is None  # typed ahead only for the cache (`types.prepare_types`)
        assert all(d.mention_arrays == (arrays, i) for i, d in enumerate(read))
        assert all(arrays.stored.made("chains", i) is d.chains for i, d in enumerate(read))
        assert laid_chains(read) is not None
        tokens = arrays.tokens
        assert (tokens is not None) == syntax  # kept only where typing reads them, as the cache keeps them
        # packed, each document made its tags and heads, its own still: typing reads the file's arrays
        assert tokens is None or all(tokens.word_lists[i] is d.words and d.holds_stored("pos", arrays.stored, i)
                                     and d.holds_stored("parse_heads", arrays.stored, i) for i, d in enumerate(read))
        fresh = read_documents(path, syntax=syntax)  # (without syntax: None, set when read)
        assert not syntax or not any({"pos", "parse", "lemmas", "parse_heads"} & set(d.__dict__) for d in fresh)
        for held in arrays[:5]:
            with pytest.raises(ValueError):
                held[:1] = 0


def test_heads_laid_only_when_every_document_has_them() -> None:
    """The file's parse heads as one array only when every document's parse column gives them: a
    document without its syntax columns (or an empty one) leaves the array out, and typing then
    joins the documents' lists (`types_arrays._file_tokens` finds none)."""
    read = parse_conll("small.conll", SMALL)
    assert read[0].mention_arrays[0].tokens is None  # document (c) is empty: no columns
    whole = parse_conll("small.conll", SMALL.split(b"#begin document (c)")[0])
    tokens = whole[0].mention_arrays[0].tokens
    assert tokens.heads.tolist() == [*whole[0].parse_heads, *whole[1].parse_heads]
    assert tokens.tags is None  # numbered finding the heads, read so by typing
    assert _tags(tokens) == [*whole[0].pos, *whole[1].pos]


def test_arrays_change_no_alignment_and_no_type() -> None:
    """Aligned and typed with the arrays the reader gives (all pairs at once, over the file's
    tokens), or with them taken away (the lists walked and joined): the same alignments and types."""
    keys, responses = read_documents(KEY), read_documents(RESPONSE, syntax=False)
    bare_keys = [replace(d, mention_arrays=None) for d in keys]
    bare_responses = [replace(d, mention_arrays=None) for d in responses]
    partners, _ = pair_documents(keys, responses)
    bare_partners, _ = pair_documents(bare_keys, bare_responses)
    with_arrays = align_all(keys, partners)
    without = align_all(bare_keys, bare_partners)
    assert with_arrays == without
    assert laid_alignments(with_arrays) is not None and laid_alignments(without) is None
    spans = [alignment.spans for alignment in with_arrays]
    typed, kinds = types_together(keys, spans)
    bare_typed, bare_kinds = types_together(bare_keys, spans)
    assert typed == bare_typed and kinds.tolist() == bare_kinds.tolist()


def test_fields_a_score_reads_as_arrays_are_made_when_first_read() -> None:
    """The chains, the tokens' lines, the sentence starts and the speakers of a read file are made
    when a document first reads one of them, for every document of the file at once (a cold `score`
    reads none of them as lists), and equal what the line-by-line reader gives
    (tests/reference_conll.py)."""
    later = ("chains", "token_lines", "sentence_starts", "speakers")
    read = parse_conll("small.conll", SMALL)
    assert not any(name in vars(d) for d in read for name in later)
    expected = reference_conll.parse_conll("small.conll", SMALL.decode().split("\n")[:-1], [])
    assert read[1].token_lines == expected[1].token_lines == [9]
    assert all("token_lines" in vars(d) and "chains" not in vars(d) for d in read)
    assert [d.speakers for d in read] == [["spk", "spk", "spk", "-"], None, None]
    for name in later:
        assert [getattr(d, name) for d in read] == [getattr(d, name) for d in expected]
    assert read == expected and pickle.loads(pickle.dumps(read)) == expected


def test_a_response_with_the_key_s_words_holds_the_key_s_strings() -> None:
    """A response read after its key, with the same words, holds the key's very strings (one file's
    words split once), each document in a list of its own; other words are split anew."""
    key = parse_conll("key.conll", SMALL)
    response = parse_conll("response.conll", SMALL.replace(b"(1)|(1)", b"-"), syntax=False)
    assert [d.words for d in response] == [d.words for d in key]
    assert all(a is b for d, e in zip(key, response) for a, b in zip(d.words, e.words))
    assert all(d.words is not e.words for d, e in zip(key, response))
    other = parse_conll("other.conll", SMALL.replace(b" cat ", b" dog "), syntax=False)
    assert other[0].words == ["The", "dog", "sat", "it"] and key[0].words[1] == "cat"

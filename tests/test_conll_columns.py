"""A CoNLL-2012 file's documents sent between processes as the reader's columns
(`metrics.formats.conll_columns`): what arrives equals what was read, field for field, the fields
left out of equality (`repeated`, `parse_heads`) too; documents changed after reading are sent as
objects, so that nothing set on them is lost."""

from __future__ import annotations

import pickle
from dataclasses import fields
from pathlib import Path

import pytest

from metrics.conventions.conll import CONLL_2012_CONVENTIONS
from metrics.conventions.options import Options
from metrics.formats.conll import parse_conll
from metrics.formats.conll_columns import ReadDocuments, SentDocuments, sendable
from metrics.mentions.types import prepare_types
from metrics.model import Document

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
    """Every field of a document, those left out of equality included."""
    return {field.name: getattr(document, field.name) for field in fields(document)}


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

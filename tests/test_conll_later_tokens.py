"""The CoNLL-2012 reader's POS, parse and lemma columns and the parse's heads, made when a document
first reads them (`conll._annotations`, `Columns.later`), equal the line-by-line reader's
(tests/reference_conll.py) and the heads its columns give; typing reads a document's tags and
heads from its file's arrays while it holds them unmade (`types_arrays._unmade_road`) and types
every span as the document's own typer does, the lists still unmade after."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from metrics.formats.conll import parse_conll
from metrics.mentions.heads_parse import parse_dependencies
from metrics.mentions.types import _DocumentTyper, types_together
from metrics.mentions.types_arrays import road
from metrics.model import Document

import reference_conll

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted(ROOT.glob("samples/*/*.conll"))
LATER = ("pos", "parse", "lemmas", "parse_heads")

BROKEN = b"""#begin document (a); part 000
d 0 0 The DT (TOP(NP* - - - spk * (1
d 0 1 cat NN *) - - - spk * 1)
d 0 2 sat VBD (VP*)) sit - - spk * -
#end document
#begin document (b); part 000
e 0 0 Hello UH (TOP(S* hello - - - (PERSON) (07)
e 0 1 there RB * - - - - * -
#end document
#begin document (c); part 000
f 0 0 Hi UH - - - - - * -
#end document
"""
"""Document (b)'s parse is left open (it gives no heads: []), (c) has no parse, lemma or POS."""


def _texts() -> list[tuple[str, bytes]]:
    return [(path.name, path.read_bytes()) for path in SAMPLES] + [("broken.conll", BROKEN)]


def _expected_heads(document: Document) -> list[int] | None:
    """The heads the line-by-line reader's columns give: [] for a parse that gives none."""
    if document.parse is None:
        return None
    found = parse_dependencies([document.parse], [document.pos])[0]
    return [] if found is None else found


@pytest.mark.parametrize("name, text", _texts(), ids=lambda v: v if isinstance(v, str) else "")
def test_columns_made_later_equal_the_line_by_line_reader_s(name: str, text: bytes) -> None:
    read = parse_conll(name, text)
    assert not any(field in vars(d) for d in read for field in LATER)
    expected = reference_conll.parse_conll(name, text.decode().split("\n")[:-1], [])
    for field in ("pos", "parse", "lemmas"):
        assert [getattr(d, field) for d in read] == [getattr(d, field) for d in expected], field
    assert [d.parse_heads for d in read] == [_expected_heads(d) for d in expected]
    if name == "broken.conll":
        assert [d.parse_heads for d in read] == [[1, -1, 1], [], None]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_typing_reads_unmade_columns_as_each_document_s_typer(path: Path) -> None:
    read = parse_conll(str(path), path.read_bytes())
    spans = [sorted({*dict.fromkeys(d.mentions()), *((i, i) for i in range(len(d.words)))}) for d in read]
    unmade = [road(d) is not None and "pos" not in vars(d) for d in read]
    typed, _ = types_together(read, spans)
    if all(unmade):  # typed from the file's arrays: no list made
        assert not any(field in vars(d) for d in read for field in LATER)
    whole = [replace(d, mention_arrays=None) for d in read]  # every field made, no arrays
    assert typed == [dict(zip(s, _DocumentTyper(d).types_of(s))) for d, s in zip(whole, spans)]
    if path.name == "key.gum.conll":
        assert all(unmade)  # (a test of the road it names: the gum key's documents take it)


def test_a_document_given_other_tags_is_not_read_from_its_file() -> None:
    read = parse_conll("key.conll", (ROOT / "samples/gum/key.gum.conll").read_bytes())
    first = read[0]
    assert road(first) is not None and "pos" not in vars(first)
    first.pos = ["NNP"] * len(first.words)  # every token a name
    spans = [[(i, i) for i in range(len(d.words))] for d in read]
    typed, _ = types_together(read, spans)
    assert set(kind for kind, _ in typed[0].values()) == {_DocumentTyper(first).types_of([(0, 0)])[0][0]}
    assert typed[0] == dict(zip(spans[0], _DocumentTyper(first).types_of(spans[0])))

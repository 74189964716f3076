"""The whole-buffer CoNLL-2012 reader reads exactly what the line-by-line reader read.

`reference_conll.py` is the earlier reader, a plain walk over lines.  For every input both are
given, they must return the same documents (every field: words, chains in order, labels, lines,
sentences, annotation columns, named entities) and the same warnings, or raise the same first
error (file, line, message).  Inputs: the bundled samples, the samples damaged by the fuzz
mutations, and generated texts built to hit the reader's corners (comments and text between or
inside documents, blank runs, lines of 1 to 13 fields, TABs and spaces, nested, crossing,
unclosed and unopened brackets, bad items, duplicate names, missing ends, CRLF).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import mutate

import reference_conll
from metrics.formats.brackets import parse_cell
from metrics.formats.conll import parse_conll
from metrics.model import InputError

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples").glob("*/*.conll"))
_SPLIT_ONLY_BY_STR = re.compile("[\x1c-\x1f" + "".join(c for c in map(chr, range(128, 0x3001)) if c.isspace()) + "]")
"""Characters `str.split()` splits on and the new reader (ASCII whitespace) does not."""


def outcome(read, path: str, text_or_data):
    """What a reader makes of an input: ("ok", documents, warnings) or ("error", line, message, warnings)."""
    warnings: list[str] = []
    try:
        documents = read(path, text_or_data, warnings)
    except InputError as exc:
        return ("error", exc.line, str(exc), warnings)
    return ("ok", documents, warnings)


def same_reading(data: bytes, path: str = "in.conll") -> None:
    """Both readers on the same bytes (decoded, line ends made `\\n`, as read_text/read_utf8 do)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if _SPLIT_ONLY_BY_STR.search(text):
        return
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()

    def old(path, text, warnings):
        if "\0" in text:  # the old reader got NUL checked by read_lines
            raise InputError(path, text.count("\n", 0, text.index("\0")) + 1, "NUL byte in text")
        return reference_conll.parse_conll(path, lines, warnings)

    expected = outcome(old, path, text)
    got = outcome(parse_conll, path, text.encode("utf-8"))
    assert got[0] == expected[0], (got[:3], expected[:3])
    if got[0] == "ok":
        for a, b in zip(got[1], expected[1]):
            assert a == b, a.name
            assert a.repeated == b.repeated, a.name  # (not compared by ==)
        assert len(got[1]) == len(expected[1])
    else:
        assert got[1:3] == expected[1:3]
    assert got[-1] == expected[-1]


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_samples_read_alike(sample: Path) -> None:
    same_reading(sample.read_bytes())


@pytest.mark.parametrize("sample", [ROOT / "samples/gum/key.gum.conll", ROOT / "samples/gum/response.gum.conll",
                                    ROOT / "samples/chen-ng/key.conll"], ids=lambda p: p.name)
@pytest.mark.parametrize("seed", range(60))
def test_mutated_samples_read_alike(sample: Path, seed: int) -> None:
    data, _ = mutate(sample.read_bytes(), seed)
    same_reading(data)


_LABELS = st.sampled_from(["1", "2", "3", "01", "x", "7", "007", "123456789", "1234567890", "٣", "2x"])
"""Labels read as numbers from the bytes (up to nine ASCII digits; "01" is not "1") and as text."""
_ITEMS = st.one_of(
    _LABELS.map(lambda l: f"({l})"), _LABELS.map(lambda l: f"({l}"), _LABELS.map(lambda l: f"{l})"),
    st.just("(1+2)"), st.sampled_from(["((1)", "1", "()", "(1))", "a(b"]),
)
_CELLS = st.one_of(st.sampled_from(["-", "_"]), st.lists(_ITEMS, min_size=1, max_size=3).map("|".join))


@st.composite
def token_line(draw: st.DrawFn) -> str:
    width = draw(st.sampled_from([1, 2, 4, 5, 12, 13]))
    fields = [draw(st.sampled_from(["w", "d", "0", "NN", "(NP*", "*)", "*", "(PER*", "(GPE)", "-", "_", "x\xa0y"]))
              for _ in range(width - 1)] + [draw(_CELLS)]
    if width == 1:
        fields = [draw(st.sampled_from(["w", "(1)", "-"]))]
    sep = draw(st.sampled_from(["\t", " ", "  ", "\t "]))
    return sep.join(fields) + draw(st.sampled_from(["", "", "\t", " "]))


@st.composite
def conll_text(draw: st.DrawFn) -> str:
    lines: list[str] = []
    for d in range(draw(st.integers(0, 3))):
        if draw(st.integers(0, 9)) == 0:
            lines.append(draw(st.sampled_from(["stray text", "# a comment", "", "#end document"])))
        name = draw(st.sampled_from([f"doc{d}", "doc0", f"(d{d}); part 000 "]))
        lines.append(draw(st.sampled_from(["#begin document ", "# begin document ", "#begin  document ", " #begin document "])) + name)
        for _ in range(draw(st.integers(0, 8))):
            kind = draw(st.integers(0, 19))
            lines.append("" if kind < 3 else "  \t" if kind == 3 else "# note" if kind == 4 else draw(token_line()))
        if draw(st.integers(0, 14)):
            lines.append(draw(st.sampled_from(["#end document", "#end document part", "# end document", "#end  document"])))
    text = "\n".join(lines)
    return text + draw(st.sampled_from(["", "\n", "\n\n"]))


@settings(max_examples=400, deadline=None)
@given(conll_text(), st.booleans())
def test_generated_texts_read_alike(text: str, crlf: bool) -> None:
    data = text.encode("utf-8")
    same_reading(data.replace(b"\n", b"\r\n") if crlf else data)


def test_a_no_break_space_stays_inside_its_field() -> None:
    """A token such as `10 000` written with a NO-BREAK SPACE is one field, as v8.01 (TAB-split)
    has it; `str.split()` would have made it two and moved every column after it."""
    text = "#begin document d\nd\t0\t0\t10\u00a0000\tCD\t(1)\n#end document\n"
    [doc] = parse_conll("d.conll", text.encode("utf-8"))
    assert doc.words == ["10\u00a0000"] and doc.chains == [[(0, 0)]]


SYNTAX = ("pos", "parse", "lemmas", "speakers", "named_entities", "parse_heads")
"""The syntax columns, and the heads the reader finds from the parse column."""


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_reading_without_syntax_leaves_out_the_syntax_columns_only(sample: Path) -> None:
    """A response read for exact matching (`syntax=False`) has every field but the five syntax
    columns, which are None, and scores as the full reading does."""
    from dataclasses import fields

    from metrics.corpus.scoring import prepare

    data = sample.read_bytes()
    full = parse_conll(str(sample), data, [])
    lean = parse_conll(str(sample), data, [], syntax=False)
    assert len(lean) == len(full)
    for a, b in zip(full, lean):
        for f in fields(a):
            if f.name in SYNTAX:
                assert getattr(b, f.name) is None
            elif f.name == "mention_arrays":  # the file's chains as arrays (its tokens' syntax aside)
                (held_a, place_a), (held_b, place_b) = a.mention_arrays, b.mention_arrays
                assert place_a == place_b and [x.tolist() for x in held_a[:5]] == [x.tolist() for x in held_b[:5]]
                assert held_b.tokens is None  # kept only where typing reads them (tags and heads)
            else:
                assert getattr(a, f.name) == getattr(b, f.name), f.name
    assert any(getattr(d, name) for d in full for name in SYNTAX)  # the sample has syntax to leave out
    assert repr(prepare(full, lean).score().micro) == repr(prepare(full, full).score().micro)


def test_a_comment_on_the_last_line_of_a_document_left_open() -> None:
    """Found by hypothesis in CI: the document left open at the end of the file is known only on
    its last line, which a line-by-line reader has read (and warned about as a comment) first."""
    same_reading(b"stray text\n#begin document doc0\n#end document\nstray text\n#begin document doc1\n"
                 b"stray text\n#begin  document doc2")


_CELL_CHARACTERS = st.sampled_from(["(", ")", "|", "+", "1", "2", "0", "x", "-", "_", "*", "\xa0", "\u2003", "\x1c", "é", "٣"])


@settings(max_examples=2000, deadline=None)
@given(st.one_of(st.text(_CELL_CHARACTERS, max_size=12), st.lists(_ITEMS, min_size=1, max_size=4).map("|".join)))
def test_cells_read_as_the_grammar_s_regular_expressions_read_them(cell: str) -> None:
    """The reader's cell grammar, in string methods, against the regular expressions it was: the
    same events, or the same first bad item, on any cell a field can be (no ASCII whitespace in
    it: the fields are split on it), other whitespace and digits of other scripts included."""
    assert parse_cell(cell) == reference_conll.parse_cell(cell)


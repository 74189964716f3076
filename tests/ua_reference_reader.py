"""The line-by-line UA reader (as `metrics.formats.ua` read files before it worked over arrays),
kept as the reference the array reader is checked against (`tests/test_ua_array_reader.py`): every
line split in Python, every cell looked at.  Same documents, same errors at the same lines.  The
cells' grammar is the reader's own (`metrics.formats.ua_cells`, which reads an uncommon file cell by
cell, as this loop does); what is kept here is the walk over the lines, and the array reader's
locating of lines, cells and markables is checked against it.
"""

from __future__ import annotations

import re

from metrics.formats.source import read_lines
from metrics.formats.ua_cells import Document, bridging_links, split_cell_error
from metrics.mentions.ua import Position, UADocument
from metrics.model import InputError
from metrics.runtime.gc_pause import gc_paused

_COLUMNS = re.compile(r"#\s*global\.columns\s*=\s*(.*)$")
_NEWDOC = re.compile(r"#\s*newdoc\s+id\s*=\s*(.*)$")


class _Document(Document):
    """A document while the line loop reads it, with whether a sentence is open (the loop's own state)."""

    def __init__(self, path: str, name: str, line: int) -> None:
        super().__init__(path, name, line)
        self.in_sentence = False


_bridging = bridging_links


def read_ua(path: str) -> list[UADocument]:
    """Every document of a UA file, in file order (documents with no word are left out, as the UA
    scorer leaves them).  The collector is paused meanwhile: thousands of markables, no cycle."""
    with gc_paused():
        try:
            return _read(path)
        except InputError as error:
            lines = list(read_lines(path))
            raise split_cell_error(error, lambda number: lines[number - 1]) from None


def _read(path: str) -> list[UADocument]:
    documents: list[UADocument] = []
    names: dict[str, int] = {}
    current: _Document | None = None
    identity, bridging, deixis = 10, 11, 12
    needed = 13  # columns split off a line: up to the last of the three read (the rest stays whole)
    declared = False
    quick = False  # whether a plain word line may be taken at once: the columns are known, FORM before IDENTITY
    also_blank = (bridging, deixis)  # the other cells a plain word line has `_` in (IDENTITY's when absent)
    words: list[str] = []
    word_lines: list[int] = []
    for number, raw in enumerate(read_lines(path), 1):
        cells = [raw] if raw[:1] == "#" else raw.split(None, needed)  # a comment is read whole, not split
        # the most common line, a word inside a sentence with nothing annotated, taken at once
        if len(cells) >= needed and cells[identity] == cells[also_blank[0]] == cells[also_blank[1]] == "_" and \
                current is not None and current.in_sentence and "." not in cells[0] and quick:
            words.append(cells[1])
            word_lines.append(number)
            continue
        if not cells:
            if current is not None:
                current.in_sentence = False
            continue
        if cells[0][0] == "#":
            line = raw.strip()
            match = _NEWDOC.match(line)
            if match:
                if current is not None:
                    _close(current, documents)
                name = match.group(1).strip()
                if name in names:
                    raise InputError(path, number, f"document {name!r} again (first at line {names[name]})")
                names[name] = number
                current = _Document(path, name, number)
                words, word_lines = current.doc.words, current.doc.word_lines
                continue
            match = _COLUMNS.match(line)
            if match:
                columns = match.group(1).split()
                if "IDENTITY" not in columns:
                    raise InputError(path, number, "global.columns names no IDENTITY column: not a UA file")
                identity = columns.index("IDENTITY")
                bridging = columns.index("BRIDGING") if "BRIDGING" in columns else -1
                deixis = columns.index("DISCOURSE_DEIXIS") if "DISCOURSE_DEIXIS" in columns else -1
                needed = max(identity, bridging, deixis) + 1
                also_blank = (bridging if bridging >= 0 else identity, deixis if deixis >= 0 else identity)
                declared = True
                quick = identity >= 1
            continue
        if not declared:
            raise InputError(path, number, "not a Universal Anaphora file: no '# global.columns = ... IDENTITY ...' "
                                           "line before the first word")
        if current is None:
            raise InputError(path, number, "a word line before any '# newdoc id = ...'")
        if len(cells) <= identity:
            raise InputError(path, number, f"{len(cells)} columns; a UA line has its IDENTITY in column {identity + 1}")
        _word(current, cells, identity=identity, bridging=bridging, deixis=deixis, number=number)
    if current is not None:
        _close(current, documents)
    return documents


def _close(current: _Document, documents: list[UADocument]) -> None:
    doc = current.finish()
    if doc.words:
        documents.append(doc)


def _word(current: _Document, cells: list[str], *, identity: int, bridging: int, deixis: int, number: int) -> None:
    doc = current.doc
    zero = "." in cells[0]
    if zero:
        word, before = current.zeros_here
        before = before + 1 if word == len(doc.words) else 0
        current.zeros_here = (len(doc.words), before)
        position: Position = f"{len(doc.words)}.{before}"
        doc.zeros[position] = cells[1] if len(cells) > 1 else "_"
    else:
        position = len(doc.words)
        if not current.in_sentence:
            doc.sentence_starts.append(position)
    current.in_sentence = True
    if cells[identity] != "_":
        current.identity.cell(cells[identity], position, zero, number)
    if 0 <= deixis < len(cells) and cells[deixis] != "_":
        current.deixis.cell(cells[deixis], position, zero, number)
    if 0 <= bridging < len(cells) and cells[bridging] != "_":
        doc.bridging.extend(_bridging(cells[bridging], doc.path, number))
    if not zero:
        doc.words.append(cells[1] if len(cells) > 1 else "_")
        doc.word_lines.append(number)

"""The line-by-line UA reader (as `metrics.formats.ua` read files before it worked over arrays),
kept as the reference the array reader is checked against (`tests/test_ua_array_reader.py`): every
line split in Python, every cell looked at.  Same documents, same errors at the same lines.
"""

from __future__ import annotations

import re

from metrics.formats.source import read_lines
from metrics.mentions.ua import BridgingLink, Markable, Position, UADocument
from metrics.model import InputError
from metrics.runtime.gc_pause import gc_paused

_COLUMNS = re.compile(r"#\s*global\.columns\s*=\s*(.*)$")
_NEWDOC = re.compile(r"#\s*newdoc\s+id\s*=\s*(.*)$")
_MIN = re.compile(r"([0-9]{1,9})(?:,([0-9]{1,9}))?$")


def is_ua_head(text: str) -> bool:
    """Whether the first lines of a file are a UA file's: a `global.columns` naming IDENTITY."""
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        match = _COLUMNS.match(stripped)
        return bool(match and "IDENTITY" in match.group(1).split())
    return False


def _attributes(text: str, path: str, line: int) -> dict[str, str]:
    """`A=x|B=y` as a dict; a piece without `=` is an error."""
    out = {}
    for piece in text.split("|"):
        name, equals, value = piece.partition("=")
        if not equals:
            raise InputError(path, line, f"attribute {piece!r} in ({text}) has no '='")
        out[name] = value
    return out


class _Open:
    """A markable while it is read."""

    __slots__ = ("id", "entity", "starts", "ends", "min_span", "zero", "element_of", "line", "attribute_text")

    def __init__(self, markable_id: str, line: int, zero: bool, text: str, min_span: tuple[int, int] | None) -> None:
        self.id = markable_id
        self.entity = ""
        self.starts: list[Position] = []
        self.ends: list[Position] = []
        self.min_span = min_span
        self.zero = zero
        self.element_of: list[str] = []
        self.line = line
        self.attribute_text = text


def _min_span(value: str, path: str, column: str, line: int) -> tuple[int, int]:
    """`Min=5` or `Min=5,7` as 0-based word indices (a plain number told without the pattern)."""
    if value.isascii() and value.isdigit() and len(value) <= 9 and value != "0" * len(value):
        first = int(value) - 1
        return (first, first)
    match = _MIN.match(value)
    if not match or int(match.group(1)) == 0 or (match.group(2) and int(match.group(2)) == 0):
        raise InputError(path, line, f"{column}: Min={value} is not N or N,M (word numbers from 1)")
    first = int(match.group(1)) - 1
    return (first, int(match.group(2)) - 1 if match.group(2) else first)


class _Layer:
    """One markable column (IDENTITY or DISCOURSE_DEIXIS) of one document while it is read."""

    def __init__(self, path: str, column: str) -> None:
        self.path = path
        self.column = column
        self.markables: dict[str, _Open] = {}
        self.stack: list[str] = []

    def cell(self, value: str, position: Position, zero: bool, line: int) -> None:
        if value == "_":
            return
        chunks = value.split("(")
        closing = chunks[0]
        if closing:
            if zero:
                raise InputError(self.path, line, f"{self.column}: a zero cannot end a markable ({value})")
            if closing == ")" and self.stack:  # the common close, as _close has it
                self.markables[self.stack.pop()].ends.append(position)
            else:
                self._close(closing, position, line)
        for chunk in chunks[1:]:
            one_word = chunk.endswith(")")
            if one_word:
                chunk = chunk[:-1]
            elif zero:
                raise InputError(self.path, line, f"{self.column}: a zero cannot start a longer markable ({value})")
            self._open(chunk, position, zero, one_word, line)

    def _close(self, text: str, position: Position, line: int) -> None:
        pieces = text.split(")")
        if pieces[-1]:
            raise InputError(self.path, line, f"{self.column}: {text!r} is not a closing bracket")
        for name in pieces[:-1]:
            if name:
                markable = self.markables.get(name)
                if markable is None or len(markable.ends) >= len(markable.starts):
                    raise InputError(self.path, line, f"{self.column}: {name}) closes a markable that is not open")
                if name in self.stack:
                    del self.stack[len(self.stack) - 1 - self.stack[::-1].index(name)]
            else:
                if not self.stack:
                    raise InputError(self.path, line, f"{self.column}: ')' with no markable open")
                markable = self.markables[self.stack.pop()]
            markable.ends.append(position)

    def _open(self, text: str, position: Position, zero: bool, one_word: bool, line: int) -> None:
        attributes = _attributes(text, self.path, line)
        markable_id, entity = attributes.get("MarkableID"), attributes.get("EntityID")
        if not markable_id or not entity:
            raise InputError(self.path, line, f"{self.column}: markable ({text}) needs a MarkableID and an EntityID")
        markable = self.markables.get(markable_id)
        if markable is None:
            min_text = attributes.get("Min")
            min_span = None if min_text is None else _min_span(min_text, self.path, self.column, line)
            markable = self.markables[markable_id] = _Open(markable_id, line, zero, text, min_span)
        elif markable.zero or zero:
            raise InputError(self.path, line, f"{self.column}: zero markable {markable_id} cannot have parts")
        markable.entity = entity
        if "ElementOf" in attributes:
            markable.element_of.extend(attributes["ElementOf"].split(","))
        markable.starts.append(position)
        if one_word:
            markable.ends.append(position)
        else:
            self.stack.append(markable_id)

    def finish(self) -> list[Markable]:
        out = []
        made = Markable.made
        for markable in self.markables.values():
            starts, ends = markable.starts, markable.ends
            if len(ends) < len(starts):
                raise InputError(self.path, markable.line, f"{self.column}: markable {markable.id} is never closed")
            parts = ((starts[0], ends[0]),) if len(starts) == 1 else tuple(zip(starts, ends))
            out.append(made(markable.id, markable.entity, parts, min_span=markable.min_span, zero=markable.zero,
                            element_of=tuple(markable.element_of), line=markable.line,
                            attribute_text=markable.attribute_text))
        _check_plurals(out, self.path, self.column)
        return out


def _check_plurals(markables: list[Markable], path: str, column: str) -> None:
    """Refuse a plural entity that is, through others, an element of itself (the UA scorer loops)."""
    members: dict[str, set[str]] = {}
    line_of: dict[str, int] = {}
    for m in markables:
        if m.element_of:
            for plural in m.element_of:
                members.setdefault(plural, set()).add(m.entity)
                line_of.setdefault(plural, m.line)
    for start in members:
        seen: set[str] = set()
        waiting = list(members[start])
        while waiting:
            entity = waiting.pop()
            if entity == start:
                raise InputError(path, line_of[start], f"{column}: entity {start} is, through ElementOf, "
                                                       "a split antecedent of itself")
            if entity not in seen:
                seen.add(entity)
                waiting.extend(members.get(entity, ()))


class _Document:
    def __init__(self, path: str, name: str, line: int) -> None:
        self.doc = UADocument(name, [], [], [], [], path, line)
        self.identity = _Layer(path, "IDENTITY")
        self.deixis = _Layer(path, "DISCOURSE_DEIXIS")
        self.zeros_here = (-1, 0)
        """(the word a zero precedes, the zeros before it so far): a zero's `W.K`."""
        self.in_sentence = False

    def finish(self) -> UADocument:
        self.doc.identity = self.identity.finish()
        self.doc.deixis = self.deixis.finish()
        return self.doc


def _bridging(value: str, path: str, line: int) -> list[BridgingLink]:
    if value == "_":
        return []
    chunks = value.split("(")
    if chunks[0].strip(")"):
        raise InputError(path, line, f"BRIDGING: {chunks[0]!r} is not a closing bracket")
    out = []
    for chunk in chunks[1:]:
        attributes = _attributes(chunk[:-1] if chunk.endswith(")") else chunk, path, line)
        if not attributes.get("MarkableID") or not attributes.get("MentionAnchor"):
            raise InputError(path, line, f"BRIDGING: ({chunk}) needs a MarkableID and a MentionAnchor")
        out.append(BridgingLink(attributes["MarkableID"], attributes["MentionAnchor"], attributes.get("Rel", ""),
                                attributes.get("EntityAnchor", ""), line))
    return out


def read_ua(path: str) -> list[UADocument]:
    """Every document of a UA file, in file order (documents with no word are left out, as the UA
    scorer leaves them).  The collector is paused meanwhile: thousands of markables, no cycle."""
    with gc_paused():
        return _read(path)


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

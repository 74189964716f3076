"""The cells of a UA file's annotation columns: markables (IDENTITY, DISCOURSE_DEIXIS) and bridging
links (BRIDGING), read as the UA scorer 2.0 reads them (the rules: `metrics.formats.ua`).

A markable layer is read cell by cell in file order (`Layer.cell`): brackets open and close
markables on a stack, a MarkableID opened again adds a part; at a document's end (`Layer.finish`)
each markable becomes a `Markable`.  Every malformed cell is an `InputError` at its line.
"""

from __future__ import annotations

import re

from metrics.mentions.ua import BridgingLink, Markable, Position, UADocument
from metrics.model import InputError

_MIN = re.compile(r"([0-9]{1,9})(?:,([0-9]{1,9}))?$")


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

    __slots__ = ("id", "entity", "starts", "ends", "min_span", "zero", "element_of", "line", "attributes")

    def __init__(self, markable_id: str, line: int, zero: bool, attributes: dict[str, str],
                 min_span: tuple[int, int] | None) -> None:
        self.id = markable_id
        self.entity = ""
        self.starts: list[Position] = []
        self.ends: list[Position] = []
        self.min_span = min_span
        self.zero = zero
        self.element_of: list[str] = []
        self.line = line
        self.attributes = tuple(attributes.items())


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


class Layer:
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
            markable = self.markables[markable_id] = _Open(markable_id, line, zero, attributes, min_span)
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
                            attributes=markable.attributes))
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


class Document:
    """One document while it is read: the document (`doc`) and its two markable layers."""

    def __init__(self, path: str, name: str, line: int) -> None:
        self.doc = UADocument(name, [], [], [], [], path, line)
        self.identity = Layer(path, "IDENTITY")
        self.deixis = Layer(path, "DISCOURSE_DEIXIS")
        self.zeros_here = (-1, 0)
        """(the word a zero precedes, the zeros before it so far): a zero's `W.K`."""

    def finish(self) -> UADocument:
        self.doc.identity = self.identity.finish()
        self.doc.deixis = self.deixis.finish()
        return self.doc


def bridging_links(value: str, path: str, line: int) -> list[BridgingLink]:
    """The links of a BRIDGING cell."""
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

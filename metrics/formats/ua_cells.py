"""The cells of a UA file's annotation columns: markables (IDENTITY, DISCOURSE_DEIXIS) and bridging
links (BRIDGING), read as the UA scorer 2.0 reads them (the rules: `metrics.formats.ua`).

A markable layer is read cell by cell in file order (`Layer.cell`): brackets open and close
markables on a stack, a MarkableID opened again adds a part; at a document's end (`Layer.finish`)
the document's markables become a `MarkableTable` (columns; `whole_layer` makes one for a whole file
of the common kind at once, with no Python step per markable).  Every malformed cell is an `InputError` at its line.
"""

from __future__ import annotations

import re

import numpy as np

from collections.abc import Callable

from metrics.formats.ua_lines import UNICODE_SPACES, gathered, texts_of
from metrics.mentions.ua import BridgingLink, MarkableTable, Position, UADocument
from metrics.model import InputError

_MIN = re.compile(r"([0-9]{1,9})(?:,([0-9]{1,9}))?$")
COLUMNS_LINE = re.compile(r"#\s*global\.columns\s*=\s*(.*)$")
"""The line naming a UA file's columns (`# global.columns = ID FORM ... IDENTITY ...`), stripped."""
_ASCII_SPACES = re.compile(r"[ \t\n\r\x0b\x0c\x1c-\x1f]+")
"""What separates cells when the Unicode spaces are not counted (what the writer of a file meant)."""


def split_cell_error(error: InputError, line_text: Callable[[int], str]) -> InputError:
    """An error met on a line where a cell holds a Unicode space (a no-break space, say), which
    separates cells as a space does (`ua_lines`, as the UA scorer's `split()`): the cells after it
    are shifted, and the error would name the column the shifted text landed in.  Named instead:
    the column the space is in, by the file's last `global.columns` before that line
    (`line_text(number)`: the text of line `number`, from 1)."""
    line = error.line
    if line is None:
        return error
    text = line_text(line)
    if not any(c in UNICODE_SPACES for c in text):
        return error
    cells = [cell for cell in _ASCII_SPACES.split(text) if cell]
    split = [(i, c) for i, c in enumerate(cells) if any(ch in UNICODE_SPACES for ch in c.strip(UNICODE_SPACES))]
    if not split:  # only at a cell's edge: no cell is split, the error is the line's own
        return error
    column, cell = split[0]
    names: list[str] = []
    for number in range(line - 1, 0, -1):
        declared = COLUMNS_LINE.match(line_text(number).strip())
        if declared:
            names = declared.group(1).split()
            break
    name = names[column] if column < len(names) else f"column {column + 1}"
    space = next(ch for ch in cell if ch in UNICODE_SPACES)
    return InputError(error.path, line, f"{name}: {cell!r} holds a Unicode space (U+{ord(space):04X}): it separates "
                                        f"cells as a space does (for the UA scorer too), splitting this one; remove it")


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


class Layer:
    """One markable column (IDENTITY or DISCOURSE_DEIXIS) of one document while it is read."""

    def __init__(self, path: str, column: str) -> None:
        self.path = path
        self.column = column
        self.markables: dict[str, _Open] = {}
        self.stack: list[str] = []
        self.whole: MarkableTable | None = None
        """The document's markables when `whole_layer` read them (no cell is then read here)."""

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
        if text.endswith(")"):  # `(...|ElementOf=3))`: the UA scorer reads ElementOf as `3)`, a plural none has
            name, _, value = text.rpartition("|")[2].partition("=")
            raise InputError(self.path, line, f"{self.column}: ({text}) has a ')' too many (the UA scorer would "
                                              f"read {name} as {value!r})")
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
        elif entity != markable.entity:  # the UA scorer keeps the last: the earlier parts change entity unsaid
            raise InputError(self.path, line, f"{self.column}: markable {markable_id} is opened again with "
                                              f"EntityID={entity}, its earlier part (line {markable.line}) with "
                                              f"EntityID={markable.entity}: the UA scorer would put the whole "
                                              f"markable in {entity}")
        markable.entity = entity
        if "ElementOf" in attributes:
            markable.element_of.extend(attributes["ElementOf"].split(","))
        markable.starts.append(position)
        if one_word:
            markable.ends.append(position)
        else:
            self.stack.append(markable_id)

    def finish(self) -> MarkableTable:
        if self.whole is not None:
            _check_plurals(self.whole, self.path, self.column)
            return self.whole
        count = len(self.markables)
        starts, ends = np.full(count, -1, np.int64), np.full(count, -1, np.int64)
        min_starts, min_ends = np.full(count, -1, np.int64), np.full(count, -1, np.int64)
        irregular: dict[int, tuple[tuple[Position, Position], ...]] = {}
        element_of: dict[int, tuple[str, ...]] = {}
        for i, markable in enumerate(self.markables.values()):
            first, last = markable.starts, markable.ends
            if len(last) < len(first):
                raise InputError(self.path, markable.line, f"{self.column}: markable {markable.id} is never closed")
            if len(first) > 1 or markable.zero:
                irregular[i] = tuple(zip(first, last))
            if not markable.zero:
                starts[i], ends[i] = first[0], last[0]
            if markable.min_span is not None:
                min_starts[i], min_ends[i] = markable.min_span
            if markable.element_of:
                element_of[i] = tuple(markable.element_of)
        opened = list(self.markables.values())
        table = MarkableTable([m.id for m in opened], [m.entity for m in opened], starts, ends, irregular=irregular,
                              min_starts=min_starts, min_ends=min_ends, element_of=element_of,
                              lines=np.array([m.line for m in opened], np.int64),
                              attribute_texts=[m.attribute_text for m in opened])
        _check_plurals(table, self.path, self.column)
        return table


def _check_plurals(table: MarkableTable, path: str, column: str) -> None:
    """Refuse a plural entity that is, through others, an element of itself (the UA scorer loops)."""
    members: dict[str, set[str]] = {}
    line_of: dict[str, int] = {}
    for row in sorted(table.element_of):
        line = int(table.lines[row])
        for plural in table.element_of[row]:
            members.setdefault(plural, set()).add(table.entities[row])
            line_of.setdefault(plural, line)
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

    def finish(self, words: int | None = None) -> UADocument:
        """The document read, its `words` (zeros aside; default: those it holds) known."""
        self.doc.identity = self.identity.finish()
        self.doc.deixis = self.deixis.finish()
        _check_min_inside(self.doc, len(self.doc.words) if words is None else words)
        return self.doc


def _check_min_inside(doc: UADocument, words: int) -> None:
    """Refuse a Min past the document's last word: it names no word (the UA scorer reads it, and
    partial matching then never finds the markable).  A Min outside its markable's words but in the
    document is read as the UA scorer reads it (thousands in the released files; `conventions.ua`
    warns of them where the matching reads Min)."""
    found = []
    for deixis, column in ((False, "IDENTITY"), (True, "DISCOURSE_DEIXIS")):
        table = doc.layer_table(deixis)
        past = np.flatnonzero(np.maximum(table.min_starts, table.min_ends) >= words)
        if len(past):
            row = int(past[np.argmin(table.lines[past])])
            first, last = int(table.min_starts[row]) + 1, int(table.min_ends[row]) + 1
            written = f"{first}" if first == last else f"{first},{last}"
            found.append((int(table.lines[row]), f"{column}: Min={written} of markable {table.ids[row]} lies past the "
                                                 f"document's last word ({words})"))
    if found:
        line, message = min(found)
        raise InputError(doc.path, line, message)


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


def whole_layer(data: bytes | bytearray, cell_starts: np.ndarray, cell_ends: np.ndarray, *, positions: np.ndarray,
                lines: np.ndarray, documents: np.ndarray, path: str, column: str
                ) -> tuple[MarkableTable, list[int]] | None:
    """The markables of a file's layer, as one table, from its annotated cells (`data[cell_starts:cell_ends]`,
    none on a zero; `documents`: the document of each cell, in file order), read at once, with the
    document of each: brackets found and paired by numpy over the cells' bytes, each attribute
    found by numpy over the bytes of all openings.  None when the cells are not all of the common
    kind (closers are runs of `)` before the openings, every attribute has its `=`, each markable
    of a document has one part, a MarkableID, an EntityID and a sound Min, every bracket is closed
    within its document): then `Layer.cell` reads them one by one, and says what is wrong where."""
    cells = gathered(data, cell_starts, cell_ends)
    line_ends = np.flatnonzero(cells == 10)
    line_starts = np.concatenate([[0], line_ends[:-1] + 1])
    opens = np.flatnonzero(cells == 40)  # "("
    if not len(opens):
        return None
    delimiters = np.flatnonzero((cells == 40) | (cells == 10))
    chunk_ends = delimiters[np.searchsorted(delimiters, opens, side="right")]
    closing = np.zeros(len(cells) + 1, np.int32)  # ")" before each byte (4 bytes a byte, not 16: fewer pages)
    np.cumsum(cells == 41, out=closing[1:])
    cell_of = np.searchsorted(line_ends, opens)
    first_open = line_ends.copy()
    has_open = np.flatnonzero(np.append(True, cell_of[1:] != cell_of[:-1])) if len(opens) else opens
    first_open[cell_of[has_open]] = opens[has_open]
    closers = closing[first_open] - closing[line_starts]
    one_word = cells[chunk_ends - 1] == 41
    inner = closing[chunk_ends] - closing[opens + 1] - one_word  # ")" inside an opening
    if (closers != first_open - line_starts).any() or (chunk_ends - opens <= 1 + one_word).any() or inner.any():
        return None  # a closer by name, a stray character, an empty or cut opening
    opened = gathered(cells, opens + 1, chunk_ends - one_word)
    attributes = _Attributes(opened, len(opens))
    if not attributes.sound:
        return None
    ids, entities = attributes.last("MarkableID"), attributes.last("EntityID")
    document_of = documents[cell_of].tolist()
    if not all(ids) or not all(entities) or len(set(zip(document_of, ids))) != len(ids):
        return None
    ends = _paired_ends(closers, cell_of, one_word, documents)
    if ends is None:
        return None
    try:
        min_starts, min_ends = attributes.min_spans(path, column)
    except InputError:
        return None
    texts = opened.tobytes().decode("utf-8").split("\n")[:-1]
    at = np.asarray(positions, np.int64)
    table = MarkableTable(ids, entities, at[cell_of], at[ends], irregular={}, min_starts=min_starts,
                          min_ends=min_ends, element_of={i: tuple(value.split(","))
                                                         for i, value in attributes.sparse("ElementOf").items()},
                          lines=np.asarray(lines, np.int64)[cell_of], attribute_texts=texts)
    return table, document_of


class _Attributes:
    """The attributes of many openings (`A=x|B=y`, one opening a line), located by numpy: each
    piece's name runs to its first `=`, its value from there to the piece's end."""

    def __init__(self, buf: np.ndarray, openings: int) -> None:
        """`buf`: the openings' bytes, each followed by a line end."""
        self.buf = buf
        self.openings = openings
        bounds = np.flatnonzero((buf == 124) | (buf == 10))  # "|" and line ends
        self.piece_starts = np.concatenate([[0], bounds[:-1] + 1])
        self.piece_ends = bounds
        self.opening_of = np.concatenate([[0], np.cumsum(buf[bounds[:-1]] == 10)])
        equals = np.flatnonzero(buf == 61)  # "="
        at = np.searchsorted(equals, self.piece_starts)
        self.sound = bool(len(equals)) and bool((at < len(equals)).all()) and \
            bool((equals[np.minimum(at, len(equals) - 1)] < self.piece_ends).all())
        """Whether every piece has its `=` (else `Layer.cell` says which has not)."""
        self.name_ends = equals[np.minimum(at, len(equals) - 1)] if len(equals) else self.piece_ends

    def _named(self, name: str) -> np.ndarray:
        """The pieces named `name`, in order."""
        key = np.frombuffer(name.encode("ascii"), np.uint8)
        found = np.flatnonzero(self.name_ends - self.piece_starts == len(key))
        if len(found):
            found = found[(self.buf[self.piece_starts[found, None] + np.arange(len(key))] == key).all(axis=1)]
        return found

    def last(self, name: str) -> list[str | None]:
        """Each opening's value of its last `name` piece (a dict of its pieces keeps the last);
        None where it has none."""
        found = self._named(name)
        if len(found) == self.openings and (self.opening_of[found] == np.arange(self.openings)).all():
            return texts_of(self.buf, self.name_ends[found] + 1, self.piece_ends[found])  # one each: the common case
        out: list[str | None] = [None] * self.openings
        out_of = self.sparse(name, found)
        for opening, value in out_of.items():
            out[opening] = value
        return out

    def sparse(self, name: str, found: np.ndarray | None = None) -> dict[int, str]:
        """Opening -> its value of its last `name` piece, for the openings that have one."""
        found = self._named(name) if found is None else found
        if not len(found):
            return {}
        return dict(zip(self.opening_of[found].tolist(), texts_of(self.buf, self.name_ends[found] + 1,
                                                                   self.piece_ends[found])))

    def min_spans(self, path: str, column: str) -> tuple[np.ndarray, np.ndarray]:
        """Each opening's last Min as 0-based word indices (first, last; -1 without one): `N` or
        `N,M`, each number 1 to 9 digits above 0, read by numpy; any other (InputError) by
        `_min_span`."""
        found = self._named("Min")
        starts, ends = np.full(self.openings, -1, np.int64), np.full(self.openings, -1, np.int64)
        if not len(found):
            return starts, ends
        first, last = self.name_ends[found] + 1, self.piece_ends[found]
        commas = np.flatnonzero(self.buf == 44)  # ","
        at = np.minimum(np.searchsorted(commas, first), max(len(commas) - 1, 0))
        comma = np.where(commas[at] < last, commas[at], last) if len(commas) else last
        low, low_sound = _numbers(self.buf, first, comma)
        paired = comma < last
        high, high_sound = _numbers(self.buf, np.where(paired, comma + 1, first), np.where(paired, last, comma))
        plain = low_sound & high_sound
        openings = self.opening_of[found]
        spans = {i: _min_span(self.buf[first[i]:last[i]].tobytes().decode("utf-8"), path, column, 0)
                 for i in np.flatnonzero(~plain).tolist()}
        if len(openings) < 2 or bool((openings[1:] != openings[:-1]).all()):  # one Min an opening: set at once
            starts[openings] = low - 1
            ends[openings] = high - 1
            for i, (first_word, last_word) in spans.items():
                starts[openings[i]], ends[openings[i]] = first_word, last_word
        else:  # an opening with two: the last one given
            for i, opening in enumerate(openings.tolist()):
                starts[opening], ends[opening] = spans.get(i, (int(low[i]) - 1, int(high[i]) - 1))
        return starts, ends


def _numbers(buf: np.ndarray, first: np.ndarray, last: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The number written in each `buf[first:last]`, and whether it is sound: 1 to 9 ASCII digits, above 0."""
    lengths = last - first
    width = int(np.clip(lengths, 1, 10).max())
    digits = buf[np.minimum(first[:, None] + np.arange(width), len(buf) - 1)].astype(np.int64) - 48
    inside = np.arange(width) < lengths[:, None]
    digits[~inside] = 0
    number = np.zeros(len(first), np.int64)
    for k in range(width):
        number = np.where(inside[:, k], number * 10 + digits[:, k], number)
    sound = (lengths >= 1) & (lengths <= 9) & ((digits >= 0) & (digits <= 9)).all(axis=1) & (number > 0)
    return number, sound


def _paired_ends(closers: np.ndarray, cell_of: np.ndarray, one_word: np.ndarray, documents: np.ndarray
                 ) -> np.ndarray | None:
    """The cell each opening closes on: its own for a one-word markable, else the cell of the `)`
    that closes it (the innermost open markable is closed first); None if a `)` finds nothing
    open or a markable is never closed in its document."""
    ends = cell_of.copy()
    longer = np.flatnonzero(~one_word)
    if not len(longer) and not closers.any():
        return ends
    closing_cells = np.repeat(np.arange(len(closers)), closers)
    # events in reading order: a cell's closers, then its openings
    cell = np.concatenate([closing_cells, cell_of[longer]])
    step = np.concatenate([np.full(len(closing_cells), -1), np.ones(len(longer), np.int64)])
    order = np.lexsort((np.concatenate([np.zeros(len(closing_cells), np.int64), longer]), step, cell))
    cell, step = cell[order], step[order]
    depth = np.cumsum(step)
    document = documents[cell]
    last_of_document = np.flatnonzero(np.append(document[1:] != document[:-1], True))
    if depth.min() < 0 or depth[last_of_document].any():
        return None
    level = np.where(step > 0, depth, depth + 1)  # an opening's depth once open, a closer's before it closes
    paired = np.argsort(level, kind="stable")  # at each level: opening, its closer, opening, its closer...
    openings, closings = paired[0::2], paired[1::2]
    which = np.concatenate([np.zeros(len(closing_cells), np.int64), longer])[order]
    ends[which[openings]] = cell[closings]
    return ends

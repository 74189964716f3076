"""The CorefUD node reader over a file's bytes: lines, columns, IDs and HEADs found and checked with
numpy over the whole buffer, and only the lines that say something of documents and mentions
handed to Python, through the line reader's own rules (`corefud_nodes.Reading`).

Why: `score --conventions corefud` on 250,000 words of CoNLL-U (30 MB a file) spent 1.6 s of CPU
per file in the line reader (`corefud.parse_corefud`: a split and a few calls per line, a node
tuple and dictionary entries per word), more than aligning and scoring both files.  Here a Python
loop sees `# newdoc` and `# global.Entity` comments and the MISC cells holding `Entity=`,
`Bridge=` or `Split` (a third of a GUM file's node lines), in file order; every node is made once
and shared by the document's words, its line index and its mentions.

What it declines (`nodes_of_bytes` returns None; `read_corefud` then reads the file line by line,
so every error and every warning of an odd file is the line reader's, at its line): a file that is
not UTF-8 or holds a NUL byte; a line neither empty, a comment (`#` first) nor ten TAB-separated
columns; an ID that is no word, empty node or range of plain digits; word IDs of a sentence other
than 1, 2, 3, ...; an empty node N.k not right after word N or N.j (j < k); a word's HEAD other
than `_`, 0 or a word of its sentence; a range that its sentence does not hold or whose MISC has
`Entity=`; a `# newdoc` inside a sentence.  The rules raise the rest (`InputError`): declined too,
so the line reader says it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from metrics.formats.conllu import newdoc
from metrics.formats.corefud_nodes import Reading, _Document
from metrics.formats.layout import BLOCK_BYTES, joined_text
from metrics.formats.source import read_utf8
from metrics.model import InputError, Node, NodeDocument

_TAB, _NEWLINE, _HASH, _DOT, _DASH, _UNDERSCORE = 9, 10, 35, 46, 45, 95
_WIDEST_ID = 19
"""An ID's bytes at most: `123456789.123456789`."""
ATTRIBUTES = (b"Entity=", b"Bridge=", b"Split")
"""What in a MISC cell sends its line to `Reading.misc` (the line reader's test, `in` the cell)."""


class _Declined(Exception):
    """The file is not one this reader reads (see the module's text): the line reader reads it."""


class _BytesDocument(_Document):
    """A document whose nodes, words and lines the byte reader made for the whole file at once."""

    def __init__(self, path: str, name: str, note: Callable[[str, int, str], None]) -> None:
        super().__init__(path, name, note)
        self.nodes: list[Node] = []
        """The file's nodes, in file order (each sentence's in the order of its tuples)."""
        self.at = 0
        """Where in `nodes` the line being read is."""

    def _between(self, last: Node, node: Node) -> list[Node]:
        """The line reader's nodes after `last` up to `node` (`self.nodes[self.at]`), found from the
        end: the sentence's nodes are in order, so they are the run back from `node` above `last`."""
        nodes, stop = self.nodes, self.at + 1
        start = stop
        while nodes[start - 1] > last:
            start -= 1
        return nodes[start:stop]


class _Deps:
    """A node's DEPS cell, decoded when asked (the line reader keeps every cell that is not `_`;
    only the heads' are ever read): `get` as the line reader's dictionary answers it."""

    def __init__(self, data: bytes | bytearray, lines: list[int], begin: np.ndarray, end: np.ndarray,
                 line_of: dict[Node, int]) -> None:
        self.data, self.lines, self.begin, self.end, self.line_of = data, lines, begin, end, line_of

    def get(self, node: Node, default: str) -> str:
        at = bisect_left(self.lines, self.line_of[node])
        return str(self.data[int(self.begin[at]):int(self.end[at])], "utf-8")  # (`_` where the line reader has none)


def nodes_of_bytes(path: str, warnings: list[str] | None = None) -> list[NodeDocument] | None:
    """The file's node documents as `corefud.parse_corefud` reads them, with its warnings added to
    `warnings`; None where this reader declines the file (see the module's text)."""
    try:
        data = read_utf8(path)
    except InputError:
        return None
    if b"\0" in data:
        return None
    notes: list[str] = []
    try:
        documents = _read(path, data, notes)
    except (_Declined, InputError):
        return None
    if warnings is not None:
        warnings.extend(notes)
    return documents


def _check(condition: bool | np.bool_) -> None:
    if not condition:
        raise _Declined


def _gathered(buf: np.ndarray, begin: np.ndarray, width: int) -> np.ndarray:
    """Each field's first `width` bytes as a row (bytes past a field's end are left as they are)."""
    return buf[np.minimum(begin[:, None] + np.arange(width), len(buf) - 1)]


_POWERS = 10 ** np.arange(_WIDEST_ID + 1, dtype=np.int64)
_POWERS[10:] = 0  # (a number of more than 9 digits is never read: `_ids` refuses it)


def _value(rows: np.ndarray, first: np.ndarray, stop: np.ndarray) -> np.ndarray:
    """The number the digits `first[i]:stop[i]` of each row write."""
    place = np.arange(rows.shape[1])
    power = stop[:, None] - 1 - place
    power[(place < first[:, None]) | (power < 0)] = _WIDEST_ID  # (outside the digits: a weight of 0)
    return ((rows.astype(np.int64) - 48) * _POWERS[power]).sum(axis=1)


ROWS_AT_ONCE = 1 << 16
"""Fields `_in_blocks` reads at a time."""


def _in_blocks(read: Callable[..., tuple[np.ndarray, ...]], buf: np.ndarray, begin: np.ndarray,
               end: np.ndarray) -> tuple[np.ndarray, ...]:
    """`read(buf, begin, end)` (a tuple of arrays of a row each) of `ROWS_AT_ONCE` fields at a time,
    joined: over all of a file's lines at once its rows of bytes and their weights were temporaries
    of 60 MB for a 30 MB file, which the C heap keeps once freed (the peak rose by as much)."""
    parts = [read(buf, begin[at:at + ROWS_AT_ONCE], end[at:at + ROWS_AT_ONCE])
             for at in range(0, len(begin), ROWS_AT_ONCE)] or [read(buf, begin, end)]
    return tuple(np.concatenate(column) for column in zip(*parts))


def _ids(buf: np.ndarray, begin: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(kind: 0 word, 1 empty node, 2 range; first number; second number) of each ID field."""
    width = end - begin
    _check(not len(width) or (width.min() >= 1 and width.max() <= _WIDEST_ID))
    rows = _gathered(buf, begin, int(width.max()) if len(width) else 1)
    inside = np.arange(rows.shape[1]) < width[:, None]
    other = inside & ((rows < 48) | (rows > 57))
    n_other = other.sum(axis=1)
    cut = np.where(n_other > 0, other.argmax(axis=1), width)
    mark = rows[np.arange(len(rows)), np.minimum(cut, rows.shape[1] - 1)]
    word = (n_other == 0) & (width <= 9)
    two = (n_other == 1) & (cut >= 1) & (cut <= 9) & (width - cut >= 2) & (width - cut <= 10)
    kind = np.where(word, 0, np.where(two & (mark == _DOT), 1, np.where(two & (mark == _DASH), 2, -1)))
    _check((kind >= 0).all())
    second = np.where(word, 0, _value(rows, cut + 1, width))
    return kind, _value(rows, np.zeros_like(cut), cut), second


def _heads(buf: np.ndarray, begin: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Each HEAD field's number, -1 for `_`; declined for anything else."""
    width = end - begin
    blank = (width == 1) & (buf[np.minimum(begin, len(buf) - 1)] == _UNDERSCORE)
    number = ~blank
    _check(((width[number] >= 1) & (width[number] <= 9)).all())
    widest = int(width.max()) if len(width) else 1
    rows = _gathered(buf, begin, widest)
    inside = np.arange(widest) < width[:, None]
    _check(((rows >= 48) & (rows <= 57) | ~inside)[number].all())
    return np.where(blank, -1, _value(rows, np.zeros_like(width), width))


def _lines_holding(data: bytes | bytearray, patterns: tuple[bytes, ...], starts: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The byte offsets where any of `patterns` occurs, in order, and the index of each one's line."""
    found: list[int] = []
    for pattern in patterns:
        at = data.find(pattern)
        while at >= 0:
            found.append(at)
            at = data.find(pattern, at + 1)
    at = np.array(found, dtype=np.int64)
    if len(patterns) > 1:
        at.sort()
    return at, np.searchsorted(starts, at, side="right") - 1


def _positions(buf: np.ndarray, byte: int, index: type) -> np.ndarray:
    """Where `byte` is in `buf`, found `BLOCK_BYTES` at a time: over the whole buffer at once its
    flags and positions were temporaries of twice the file's size, which the C heap keeps once
    freed (the reader's peak memory rose by 70 MB on a 30 MB file)."""
    flags = np.empty(min(BLOCK_BYTES, len(buf)), dtype=bool)
    found = []
    for at in range(0, len(buf), BLOCK_BYTES):
        piece = buf[at:at + BLOCK_BYTES]
        np.equal(piece, byte, out=flags[:len(piece)])
        found.append(np.flatnonzero(flags[:len(piece)]).astype(index) + index(at))
    return np.concatenate(found) if found else np.zeros(0, dtype=index)


@dataclass
class _Lines:
    """Where a buffer's lines and, on its node and range lines (`body`), its columns are."""

    data: bytes | bytearray
    buf: np.ndarray
    """The same bytes, as uint8."""
    starts: np.ndarray
    ends: np.ndarray
    """Each line's first byte, and its end (its line end, or the buffer's end)."""
    hashed: np.ndarray
    """True for each comment line (`#` first)."""
    blanks_through: np.ndarray
    """How many empty lines there are up to each line (a sentence ends at one)."""
    body: np.ndarray
    """The lines that are neither empty nor comments: each has ten columns."""
    tabs: np.ndarray
    first_tab: np.ndarray

    @classmethod
    def of(cls, data: bytes | bytearray) -> _Lines:
        buf = np.frombuffer(data, dtype=np.uint8)
        index = np.int32 if len(buf) < 2 ** 31 else np.int64  # (offsets: half the memory where they fit)
        ends = _positions(buf, _NEWLINE, index)
        if len(buf) and buf[-1] != _NEWLINE:
            ends = np.append(ends, np.array([len(buf)], dtype=index))
        starts = np.zeros_like(ends)
        starts[1:] = ends[:-1] + 1
        filled = ends > starts
        hashed = np.zeros(len(ends), dtype=bool)
        hashed[filled] = buf[starts[filled]] == _HASH
        body = np.flatnonzero(filled & ~hashed)
        tabs = _positions(buf, _TAB, index)
        first_tab = np.searchsorted(tabs, starts[body])
        _check((np.searchsorted(tabs, ends[body]) - first_tab == 9).all())
        return cls(data, buf, starts, ends, hashed, np.cumsum(~filled), body, tabs, first_tab)

    def column(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """The first byte and the end of column `k` (0-9) of each body line."""
        begin = self.starts[self.body] if k == 0 else self.tabs[self.first_tab + k - 1] + 1
        return begin, (self.ends[self.body] if k == 9 else self.tabs[self.first_tab + k])


@dataclass
class _Nodes:
    """The word and empty node lines of a file, checked as the line reader would pass them."""

    kind: np.ndarray
    """Of each body line: 0 a word, 1 an empty node, 2 a range (`_ids`)."""
    lines: np.ndarray
    """The node lines (words and empty nodes), and of each:"""
    word: np.ndarray
    empty: np.ndarray
    """its ID's two numbers (N.k; k = 0 for a word);"""
    doc: np.ndarray
    """its document's number (the first is 1; `Reading.count` when it starts);"""
    sentence: np.ndarray
    """its sentence's number in its document (from 1);"""
    sentence_words: np.ndarray
    """how many words its sentence has."""
    comments: list[tuple[int, str, bool]]
    """The comments `Reading.comment` acts on (`_comments`)."""
    newdocs: np.ndarray
    implicit: int
    """1 when nodes come before any `# newdoc` (the line reader starts a document for them)."""

    @property
    def is_word(self) -> np.ndarray:
        return self.empty == 0

    @classmethod
    def of(cls, lines: _Lines) -> _Nodes:
        kind, first, second = _in_blocks(_ids, lines.buf, *lines.column(0))
        at = lines.body[kind < 2]
        word, empty = first[kind < 2], second[kind < 2]
        is_word = kind[kind < 2] == 0
        comments = _comments(lines.data, lines.starts, lines.ends, lines.hashed)
        newdocs = np.array([line for line, _, starts in comments if starts], dtype=np.int64)
        implicit = int(len(at) > 0 and (not len(newdocs) or at[0] < newdocs[0]))
        doc = implicit + np.searchsorted(newdocs, at, side="right")
        before = np.searchsorted(at, newdocs) - 1  # a `# newdoc` after a node with no empty line
        after_node = before >= 0                   # between them: inside a sentence
        blanks = lines.blanks_through
        _check((blanks[at[before[after_node]]] != blanks[newdocs[after_node]]).all())
        # a sentence: a run of node lines of one document with no empty line between them
        new = np.ones(len(at), dtype=bool)
        new[1:] = (doc[1:] != doc[:-1]) | (blanks[at[1:]] != blanks[at[:-1]])
        counted = np.cumsum(new)
        opens = np.ones(len(at), dtype=bool)
        opens[1:] = doc[1:] != doc[:-1]
        sentence = counted - np.maximum.accumulate(np.where(opens, counted, 0)) + 1
        words_through = np.cumsum(is_word)
        firsts = np.flatnonzero(new)
        words_in = words_through - (words_through - is_word)[firsts][counted - 1]
        _check((word == words_in).all())  # words 1, 2, 3...; an empty node N.k right after word N
        after_empty = np.zeros(len(at), dtype=bool)
        after_empty[1:] = ~is_word[1:] & ~is_word[:-1] & ~new[1:]
        _check((is_word | (empty >= 1)).all() and not (after_empty[1:] & (empty[1:] <= empty[:-1])).any())
        lasts = np.append(firsts[1:] - 1, len(at) - 1)
        sentence_words = words_in[lasts][counted - 1] if len(at) else words_in
        head_begin, head_end = lines.column(6)
        [heads] = _in_blocks(lambda *fields: (_heads(*fields),), lines.buf, head_begin[kind == 0], head_end[kind == 0])
        _check((heads <= sentence_words[is_word]).all())
        nodes = cls(kind, at, word, empty, doc, sentence, sentence_words, comments, newdocs, implicit)
        nodes.check_ranges(lines.body[kind == 2], first[kind == 2], second[kind == 2], blanks)
        return nodes

    def check_ranges(self, ranges: np.ndarray, first: np.ndarray, last: np.ndarray, blanks: np.ndarray) -> None:
        """Declined unless every range the line reader checks lies within the sentence of its lines
        (first <= last <= its last word), or is one it skips (before any document)."""
        at = self.lines
        if not len(ranges) or not len(at):  # (no node: no sentence ever checks a range)
            return
        doc = self.implicit + np.searchsorted(self.newdocs, ranges, side="right")
        before_any = (doc == 0) | ((doc == self.implicit) & (ranges < at[0]))  # (no document yet: skipped)
        after = np.minimum(np.searchsorted(at, ranges), len(at) - 1)
        back = np.maximum(after - 1, 0)
        same_after = (self.doc[after] == doc) & (blanks[at[after]] == blanks[ranges])
        same_back = (self.doc[back] == doc) & (blanks[at[back]] == blanks[ranges])
        fits = (same_after | same_back) & (first <= last)
        fits &= last <= self.sentence_words[np.where(same_after, after, back)]
        _check((fits | before_any).all())


def _misc_rows(lines: _Lines, kind: np.ndarray) -> np.ndarray:
    """The body lines whose MISC holds one of `ATTRIBUTES`, in order; declined for a range's `Entity=`."""
    misc_begin, misc_end = lines.column(9)
    at, where = _lines_holding(lines.data, ATTRIBUTES, lines.starts)
    row = np.searchsorted(lines.body, where)
    found = row < len(lines.body)
    found[found] = lines.body[row[found]] == where[found]
    row, at = row[found], at[found]
    row = row[at >= misc_begin[row]]
    row = row[np.r_[True, row[1:] != row[:-1]]] if len(row) else row  # (each line once)
    ranges = row[kind[row] == 2]
    _check(not any(b"Entity=" in lines.data[b:e] for b, e in zip(misc_begin[ranges].tolist(),
                                                                 misc_end[ranges].tolist())))
    return row[kind[row] < 2]


def _read(path: str, data: bytes | bytearray, warnings: list[str]) -> list[NodeDocument]:
    lines = _Lines.of(data)
    found = _Nodes.of(lines)
    row = _misc_rows(lines, found.kind)
    misc_begin, misc_end = (part[row].tolist() for part in lines.column(9))
    misc_lines = lines.body[row].tolist()
    is_node = found.kind < 2
    misc_nodes = (np.cumsum(is_node) - 1)[row].tolist()
    is_word = found.is_word
    nodes = list(zip(found.sentence.tolist(), found.word.tolist(), found.empty.tolist()))
    word_nodes = nodes if is_word.all() else [nodes[i] for i in np.flatnonzero(is_word).tolist()]
    form_begin, form_end = lines.column(1)
    words = found.kind == 0
    forms = list(zip(word_nodes, joined_text(lines.buf, form_begin[words], form_end[words]).split("\n")
                     if words.any() else []))
    deps_begin, deps_end = (part[is_node] for part in lines.column(8))
    line_numbers = (found.lines + 1).tolist()
    numbers = np.arange(len(found.newdocs) + found.implicit + 2)
    node_cuts = np.searchsorted(found.doc, numbers).tolist()
    word_cuts = np.searchsorted(found.doc[is_word], numbers).tolist()
    comments, implicit, first_node = found.comments, found.implicit, int(found.lines[0]) if len(found.lines) else 0
    del lines, found  # (their arrays are not held while the documents are made)
    reading = Reading(path, warnings, _BytesDocument)

    def started() -> None:
        doc, number = reading.doc, reading.count
        begin, stop = node_cuts[number], node_cuts[number + 1]
        doc.nodes = nodes
        doc.forms = forms[word_cuts[number]:word_cuts[number + 1]]
        doc.line_of = dict(zip(nodes[begin:stop], line_numbers[begin:stop]))
        doc.raw_deps = _Deps(data, line_numbers, deps_begin, deps_end, doc.line_of)

    def special(line: int, text: str | None) -> None:
        count = reading.count
        if text is None:  # the first node before any `# newdoc`
            reading.document(line + 1)
        else:
            reading.comment(text, line + 1)
        if reading.count != count:
            started()

    specials = sorted([(line, text) for line, text, _ in comments] + ([(first_node, None)] if implicit else []))
    done = 0
    for line, begin, end, node in zip(misc_lines, misc_begin, misc_end, misc_nodes):
        while done < len(specials) and specials[done][0] <= line:
            special(*specials[done])
            done += 1
        reading.doc.at = node
        reading.misc(str(data[begin:end], "utf-8"), line + 1, nodes[node])
    for line, text in specials[done:]:
        special(line, text)
    return reading.end()


def _comments(data: bytes | bytearray, starts: np.ndarray, ends: np.ndarray, hashed: np.ndarray
              ) -> list[tuple[int, str, bool]]:
    """The comment lines `Reading.comment` may act on (those holding `newdoc` or `global.Entity`):
    (line index, text, whether it starts a document)."""
    _, where = _lines_holding(data, (b"newdoc", b"global.Entity"), starts)
    out = []
    for line in np.unique(where).tolist():
        if hashed[line]:
            text = str(data[starts[line]:ends[line]], "utf-8")
            out.append((line, text, newdoc(text) is not None))
    return out

"""Lines and fields of a whole text buffer, found with numpy over its bytes, not line by line.

Why: reading is as much of a `corefwb score` run as scoring is, and a Python loop over 100,000
lines (split each, look at each cell) costs more than all the scoring.  Here the whole UTF-8
buffer is scanned at once: where each line starts, how many fields it has, where each field
starts and ends.  A reader then asks for one column of many lines at a time (`strings`), which
gathers those bytes into one buffer and decodes it with a single `split`; only the columns it
needs are ever made into Python strings.

What a line and a field are (the one definition for the whole-buffer readers):
- lines end at `\\n` (the caller has made `\\r\\n` and lone `\\r` into `\\n`); the empty piece after a
  final line end is not a line;
- fields are separated by runs of ASCII whitespace (space, TAB, VT, FF, CR), as `bytes.split()`
  has it.  Whitespace outside ASCII (a NO-BREAK SPACE in `10 000`) is part of a field: v8.01 splits
  on TAB alone, and a token with such a space in it is still one token.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_NEWLINE, _HASH = 10, 35
_PLACEHOLDERS = (ord("-"), ord("_"))


def _mark_spaces(data: np.ndarray, out: np.ndarray, scratch: np.ndarray) -> None:
    """Set `out` True for each byte that separates fields: TAB, LF, VT, FF, CR (9-13) and space
    (`scratch`: room for as many bytes, overwritten)."""
    np.subtract(data, 9, out=scratch)  # 9-13 become 0-4; below 9 wraps past 4 (uint8)
    np.less_equal(scratch, 4, out=out)
    flags = scratch.view(bool)
    np.equal(data, 32, out=flags)
    np.logical_or(out, flags, out=out)


def joined_text(data: np.ndarray, begin: np.ndarray, end: np.ndarray) -> str:
    """The bytes `begin[i]:end[i]` of `data` (uint8) for each i, joined by line ends and decoded at
    once (no piece may hold a line end; at least one piece): one gather, one decode, where a
    slice and a decode per piece cost a Python call each."""
    taken = end - begin + 1  # each piece with the byte after it, made a `\n`
    ends = np.cumsum(taken)
    index = np.arange(int(ends[-1])) + np.repeat(begin - (ends - taken), taken)
    out = np.take(data, index, mode="clip")  # past the buffer's end: only a last piece's line end
    out[ends - 1] = _NEWLINE
    return out[:-1].tobytes().decode("utf-8")


BLOCK_BYTES = 1 << 20
"""Bytes a scan for fields looks at at a time (`_scanned`)."""


def _scanned(data: np.ndarray, block: int, index: type) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(each field's first byte, one past each field's last byte, each line end) of `data`, as
    arrays of `index`, found a block of `block` bytes at a time.

    Why blocks: over the whole buffer at once, the scan's bytes of flags and its positions (found
    as int64, kept as int32) were about seven times the file's size in temporaries, 125 MB for an
    18 MB file, every page of it new memory to fault in: as much time as the scan itself, and
    more on a machine whose freed memory goes back to its host.  A block's flags and positions
    are a few MB, written again for each block in memory already faulted in; the positions kept
    are written once, where they stay: into arrays of the most there can be (a field takes a
    byte and the space after it), of which only the pages written are ever memory (the line
    ends, a tenth as many, are joined at the end: counting them first took as long)."""
    size = len(data)
    block = max(1, min(block, size))  # (a short text, a document streamed alone: no room for more)
    space = np.empty(block + 2, dtype=bool)  # a block's bytes, with the byte before it and one past it
    scratch = np.empty(block + 1, dtype=np.uint8)
    flags = scratch.view(bool)
    starts = np.empty(size // 2 + 1, dtype=index)
    ends = np.empty(size // 2 + 1, dtype=index)
    newlines = []
    found = [0, 0]  # positions kept so far in each
    for at in range(0, size, block):
        end = min(at + block, size)
        n = end - at
        here = space[:n + 2]
        if at:
            _mark_spaces(data[at - 1:end], here[:n + 1], scratch[:n + 1])
        else:  # a space before the buffer
            here[0] = True
            _mark_spaces(data[:end], here[1:n + 1], scratch[:n])
        if end == size:
            here[n + 1] = True  # and one after it
        else:
            _mark_spaces(data[end:end + 1], here[n + 1:n + 2], scratch[:1])
        # a flag at i + 1 of `here` is byte at + i: a field starts where a space is followed by text,
        # and ends (one past its last byte) where text is followed by a space; the changes between
        # space and text (i in 0..n, one pass) alternate between the two, a start at i = n being
        # the next block's and an end at i = 0 the last block's
        np.not_equal(here[:n + 1], here[1:n + 2], out=flags[:n + 1])
        changes = np.flatnonzero(flags[:n + 1])
        if len(changes):
            starting = 0 if not here[changes[0] + 1] else 1
            found[0] = _kept(changes[starting::2], at, starts, found[0], below=n)
            found[1] = _kept(changes[1 - starting::2], at, ends, found[1], above=0)
        np.equal(data[at:end], _NEWLINE, out=flags[:n])
        lines = np.flatnonzero(flags[:n])
        lines += at
        newlines.append(lines.astype(index))
    return starts[:found[0]], ends[:found[1]], np.concatenate([np.zeros(0, dtype=index), *newlines])


def _kept(positions: np.ndarray, offset: int, out: np.ndarray, count: int, *, below: int | None = None,
          above: int | None = None) -> int:
    """Write the positions (ascending) below `below` and above `above`, plus `offset`, into `out`
    after its first `count` values; how many it holds then."""
    if below is not None and len(positions) and positions[-1] >= below:
        positions = positions[:-1]
    if above is not None and len(positions) and positions[0] <= above:
        positions = positions[1:]
    np.add(positions, offset, out=out[count:count + len(positions)], casting="unsafe")
    return count + len(positions)


@dataclass(frozen=True)
class Layout:
    """Where the lines and fields of a buffer are (all offsets in bytes)."""

    data: np.ndarray
    """The buffer, as uint8."""
    line_starts: np.ndarray
    """Offset of each line's first byte."""
    counts: np.ndarray
    """Number of fields on each line."""
    offsets: np.ndarray
    """Index (in `field_starts`) of each line's first field."""
    field_starts: np.ndarray
    field_ends: np.ndarray
    """Offset of each field's first byte, and one past its last."""
    hashed: np.ndarray
    """True for each line whose first byte is `#`."""
    first_line: int
    """The number the first line has in its file (a slice of a file starts further down)."""

    @classmethod
    def of(cls, buffer: bytes | bytearray, first_line: int = 1, block: int = BLOCK_BYTES) -> Layout:
        """Find the lines and fields of `buffer`, `block` bytes at a time (`BLOCK_BYTES`)."""
        data = np.frombuffer(buffer, dtype=np.uint8)
        size = len(data)
        index = np.int32 if size < 2 ** 31 else np.int64  # offsets: half the memory when they fit
        field_starts, field_ends, newlines = _scanned(data, block, index)
        n_lines = len(newlines) + (1 if size and data[-1] != _NEWLINE else 0)
        line_starts = np.empty(n_lines, dtype=index)
        line_starts[:1] = 0
        np.add(newlines[:n_lines - 1], 1, out=line_starts[1:])
        line_ends = np.append(newlines, np.array([size], dtype=index))[:n_lines]
        through = np.searchsorted(field_starts, line_ends)  # fields starting before each line's end
        counts = np.diff(through, prepend=0)
        hashed = np.zeros(n_lines, dtype=bool)
        nonempty = line_starts < line_ends
        hashed[nonempty] = data[line_starts[nonempty]] == _HASH
        return cls(data, line_starts, counts, through - counts, field_starts, field_ends, hashed, first_line)

    @property
    def n_lines(self) -> int:
        return len(self.counts)

    def line(self, index: int) -> str:
        """The text of one line (without its line end)."""
        start = int(self.line_starts[index])
        end = int(self.line_starts[index + 1]) - 1 if index + 1 < self.n_lines else len(self.data)
        if end > start and self.data[end - 1] == _NEWLINE:
            end -= 1
        return self.data[start:end].tobytes().decode("utf-8")

    def fields(self, lines: np.ndarray, index: int | np.ndarray) -> np.ndarray:
        """Which field (an index into field_starts) is field `index` of each line; a negative
        index counts from the end, as in a list.  Every line must have that field."""
        index = np.asarray(index)
        return self.offsets[lines] + np.where(index < 0, self.counts[lines] + index, index)

    def strings(self, fields: np.ndarray) -> list[str]:
        """The text of the given fields, decoded together: one buffer, one decode, one split."""
        return self.text(fields).split("\n") if len(fields) else []

    def text(self, fields: np.ndarray) -> str:
        """The text of the given fields joined by line ends (which no field holds), decoded at once."""
        if not len(fields):
            return ""
        return joined_text(self.data, self.field_starts[fields], self.field_ends[fields])

    def placeholders(self, fields: np.ndarray) -> np.ndarray:
        """True for each field that is `-` or `_` (an empty annotation)."""
        begin = self.field_starts[fields]
        byte = self.data[begin]
        return (self.field_ends[fields] - begin == 1) & ((byte == _PLACEHOLDERS[0]) | (byte == _PLACEHOLDERS[1]))

    def equal(self, fields: np.ndarray, text: bytes) -> np.ndarray:
        """True for each field whose bytes are exactly `text` (a short constant such as `*`)."""
        begin = self.field_starts[fields]
        same = self.field_ends[fields] - begin == len(text)
        for i, byte in enumerate(text):
            same &= self.data[np.minimum(begin + i, len(self.data) - 1)] == byte
        return same


class FieldTexts:
    """The texts of some fields of a buffer (field i: bytes `starts[i]:ends[i]`), decoded only
    where asked: one at a time by index, or many at once (`take`: one gather, one decode).  Why: a
    `score` reads a key's lemmas at its spans' heads alone (typing), a fifth of the tokens, and
    splitting the column into a string per token cost more than the rest of typing's lookups."""

    def __init__(self, data: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> None:
        self.data, self.starts, self.ends = data, starts, ends

    @classmethod
    def joined(cls, text: str, widths: np.ndarray) -> FieldTexts:
        """The texts joined by line ends in `text` (as `Layout.text` joins fields), of `widths`
        bytes each: held in a buffer of their own, not the file's (a reader's documents sent to
        another process take them along)."""
        widths = widths.astype(np.int64)
        starts = np.cumsum(widths + 1) - (widths + 1)
        return cls(np.frombuffer(text.encode("utf-8"), dtype=np.uint8), starts, starts + widths)

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, index: int) -> str:
        return self.data[self.starts[index]:self.ends[index]].tobytes().decode("utf-8")

    def take(self, indices: list[int]) -> list[str]:
        """The texts at `indices`, in order."""
        if not indices:
            return []
        return joined_text(self.data, self.starts[indices], self.ends[indices]).split("\n")

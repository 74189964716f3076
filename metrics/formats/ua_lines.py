"""Where the lines and the cells of a UA file lie in its bytes, found by numpy over the whole file.

Why: a UA file is mostly words with nothing annotated (`_` in IDENTITY, BRIDGING and
DISCOURSE_DEIXIS), padded with runs of spaces to line its columns up: 1.8 MB for 12,000 lines in
CODI-CRAC 2022.  Splitting every line in Python costs more than scoring the file; finding every
line end and cell edge with a few numpy passes over the bytes costs a couple of milliseconds, and
leaves Python only the lines whose annotated cells must be parsed.

The cells are exactly what `str.split()` makes of a line of the decoded text (so exactly what
the UA scorer reads): a cell is a run of characters that are not whitespace, and whitespace is
what Python's `str.isspace` says, the ASCII controls 0x1c-0x1f and the Unicode spaces (no-break
space, em space...) included.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

import numpy as np

UNICODE_SPACES = "\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029" \
                 "\u202f\u205f\u3000"
"""Every character above ASCII that `str.isspace` (and so `str.split`) counts as whitespace."""
_UNICODE_SPACE = re.compile(b"|".join(re.escape(c.encode("utf-8")) for c in UNICODE_SPACES))


@dataclass(frozen=True)
class LineIndex:
    """A file's lines and cells, as offsets into its bytes.

    Line `i` (0-based) holds the cells `first_cell[i]` to `first_cell[i + 1] - 1`; cell `c` is
    `data[cell_starts[c]:cell_ends[c]]`.  A line with no cell is blank."""

    data: bytes | bytearray
    line_starts: np.ndarray
    first_cell: np.ndarray
    cell_starts: np.ndarray
    cell_ends: np.ndarray

    @property
    def lines(self) -> int:
        return len(self.line_starts)

    def cells_in(self, line: int) -> int:
        return int(self.first_cell[line + 1] - self.first_cell[line])

    def cell(self, line: int, column: int) -> str:
        """The text of a line's cell (the line has it)."""
        c = int(self.first_cell[line]) + column
        return self.data[self.cell_starts[c]:self.cell_ends[c]].decode("utf-8")

    def line_text(self, line: int) -> str:
        end = self.line_starts[line + 1] - 1 if line + 1 < self.lines else len(self.data)
        return self.data[self.line_starts[line]:end].decode("utf-8")

    def cell_of(self, lines: np.ndarray, column: int) -> tuple[np.ndarray, np.ndarray]:
        """(start, end) of a column's cell on each of these lines (lines that have it)."""
        cells = self.first_cell[lines] + column
        return self.cell_starts[cells], self.cell_ends[cells]

    def blank(self, lines: np.ndarray, column: int) -> np.ndarray:
        """Whether a column's cell is `_` (or absent) on each of these lines."""
        has = self.first_cell[lines + 1] - self.first_cell[lines] > column
        out = ~has
        present = lines[has]
        if len(present):
            starts, ends = self.cell_of(present, column)
            buf = np.frombuffer(self.data, np.uint8)
            out[has] = (ends - starts == 1) & (buf[starts] == 95)  # "_"
        return out


_SPACE_LEADS = sorted({c.encode("utf-8")[:1] for c in UNICODE_SPACES})
"""The first bytes of the Unicode spaces in UTF-8 (C2, E1, E2, E3): any match starts on one."""


def _unicode_spaces(data: bytes | bytearray) -> list[tuple[int, int]]:
    """Where the Unicode spaces of UTF-8 text lie, as the pattern finds them: each place one of
    their first bytes occurs (found by `bytes.find`, at C speed) tried by the pattern.  Why: the
    pattern run over every byte took 10 ms of a 2.5 MB file with a few accented letters; a text
    full of such first bytes (CJK) is still searched by the pattern at once."""
    tried: list[int] = []
    for lead in _SPACE_LEADS:
        at = data.find(lead)
        while at >= 0:
            if len(tried) >= 4096:
                return [(match.start(), match.end()) for match in _UNICODE_SPACE.finditer(data)]
            tried.append(at)
            at = data.find(lead, at + 1)
    found = (_UNICODE_SPACE.match(data, at) for at in sorted(tried))
    return [(match.start(), match.end()) for match in found if match]


_workspaces = threading.local()


def _workspace(name: str, size: int, kind: type = bool) -> np.ndarray:
    """An array of `size` for one pass over a file's bytes (or its cells'), reused file after file
    (this thread's own; its content is whatever the last pass left).  Why: a fresh array of a file's
    size has its pages mapped by the system as it is first written, which cost more than the numpy
    pass that fills it (2-3 ms of a 2 MB file's 5); kept, the largest file's arrays stay mapped
    (2 bytes a byte of the file, 8 a byte of the cells gathered)."""
    held = getattr(_workspaces, name, None)
    if held is None or len(held) < size:
        held = np.empty(max(size, 1 << 16), kind)
        setattr(_workspaces, name, held)
    return held[:size]


def index_lines(data: bytes | bytearray) -> LineIndex:
    """The lines (split at `\\n`, a last empty piece dropped, as `read_lines` has them) and the
    cells of UTF-8 text whose line ends are `\\n` (`read_utf8`'s)."""
    buf = np.frombuffer(data, np.uint8)
    inside = _workspace("inside", len(buf) + 2)  # padded with a space at each end: every run opens and closes
    inside[0] = inside[-1] = False
    scratch = inside[1:-1]
    controls = np.flatnonzero(np.less(buf, 28, out=scratch))  # line ends, tabs, controls that are not whitespace
    line_ends = controls[buf[controls] == 10]
    controls = controls[(buf[controls] < 9) | (buf[controls] > 13)]
    line_starts = np.empty(len(line_ends) + 1, np.int64)
    line_starts[0] = 0
    line_starts[1:] = line_ends + 1
    if len(data) == 0 or data[-1:] == b"\n":
        line_starts = line_starts[:-1]
    np.greater(buf, 32, out=scratch)
    inside[controls + 1] = True
    if not data.isascii():
        for start, end in _unicode_spaces(data):
            inside[start + 1:end + 1] = False
    edges = np.flatnonzero(np.not_equal(inside[1:], inside[:-1], out=_workspace("edges", len(buf) + 1)))
    cell_starts, cell_ends = edges[0::2], edges[1::2]
    first_cell = np.empty(len(line_starts) + 1, np.int64)
    first_cell[:-1] = np.searchsorted(cell_starts, line_starts)
    first_cell[-1] = len(cell_starts)
    return LineIndex(data, line_starts, first_cell, cell_starts, cell_ends)


def texts_of(data: bytes | bytearray | np.ndarray, starts: np.ndarray, ends: np.ndarray) -> list[str]:
    """The text of each slice `data[start:end]` (none holding a line end): gathered by numpy into
    one line each, decoded and split at once (one string made per slice, no Python step)."""
    if not len(starts):
        return []
    return gathered(data, starts, ends).tobytes().decode("utf-8").split("\n")[:-1]


def gathered(data: bytes | bytearray | np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The bytes of the slices `data[start:end]`, each followed by a line end, as one array."""
    buf = data if isinstance(data, np.ndarray) else np.frombuffer(data, np.uint8)
    lengths = ends - starts + 1  # with a line end after each
    total = int(lengths.sum())
    if not total or not len(buf):
        return np.full(total, 10, np.uint8)
    placed = np.cumsum(lengths) - lengths
    # each output byte's source, as steps added up in place (one array of them, kept: `_workspace`)
    source = _workspace("gathered", total, np.int64)
    source.fill(1)
    source[placed[0]] = starts[0]
    source[placed[1:]] = starts[1:] - ends[:-1]
    np.cumsum(source, out=source)
    np.minimum(source, len(buf) - 1, out=source)
    joined = buf[source]
    joined[placed + lengths - 1] = 10
    return joined

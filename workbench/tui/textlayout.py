"""The text view's layout, made on demand: a book's lines are built only when drawn.

Why: laying out a 300,000-token book whole (every mention's `Marked`, every token's atoms, every
line) took 4 s; the first screen waited for a part of it and a worker did the rest, sharing the
GIL with everything else.  What the view needs of the whole text is only where each line starts:
that follows from each token's width in cells (its word, its opening brackets, its closing
brackets with their labels), which array work over the chains gives without building a label
(`unit_widths`), and a greedy wrap over those integers (`_wrap_widths`).  The lines themselves
are built, a block of them at a time, when one of them is drawn, by the same `token_units_between`
and `wrap_units` that lay out a whole text (tests check the two agree line for line, against
tests/text_reference.py's whole-text marks and units).  Greedy
wrapping starts every line afresh (empty, no room used), so a block can begin at any line that
starts with a token's unit, and the block's lines are exactly the whole text's.

Plain data, no Textual, as every view-model.
"""

from __future__ import annotations

import threading
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import chain as _chain

import numpy as np
from rich.cells import cell_len

from metrics.model import Document, MentionType, Span
from metrics.runtime.ondemand import OnDemand

from .rows import (WORD_SEPARATOR, Atom, Marked, Side, display_words, label_marks, mention_type,
                   token_units_between, wrap_units)

BLOCK_LINES = 64
"""Lines built together when one of them is drawn (a screen is 20-50)."""
BLOCKS_KEPT = 64
"""Blocks kept built (the view's strips are cached apart)."""


class SideIndex:
    """One document's mentions as arrays sorted by (start, end, chain): which chains list each
    span (each chain once), and the width of the label part they make (`7` or `7,12`).

    Why arrays: the text's widths need every mention's label length, and a book has 100,000."""

    def __init__(self, doc: Document, words: int) -> None:
        self.labels = doc.chain_labels()
        chain = np.repeat(np.arange(len(doc.chains), dtype=np.int64), [len(c) for c in doc.chains])
        spans = np.fromiter(_chain.from_iterable(_chain.from_iterable(doc.chains)), dtype=np.int64,
                            count=2 * len(chain)).reshape(-1, 2)
        starts, ends = spans[:, 0], spans[:, 1]
        inside = (starts >= 0) & (starts <= ends) & (ends < words)  # what the text can bracket
        self.complete = bool(inside.all())
        """Whether every span is within the text (else those outside are not indexed)."""
        starts, ends, chain = starts[inside], ends[inside], chain[inside]
        order = np.lexsort((chain, ends, starts))
        starts, ends, chain = starts[order], ends[order], chain[order]
        new = np.ones(len(starts), dtype=bool)
        new[1:] = (starts[1:] != starts[:-1]) | (ends[1:] != ends[:-1]) | (chain[1:] != chain[:-1])
        self.starts, self.ends, self.chains = starts[new], ends[new], chain[new]
        """Every (span, chain) once, by start, end, chain."""
        self.codes = self.starts * (words + 1) + self.ends
        first = np.ones(len(self.codes), dtype=bool)
        first[1:] = self.codes[1:] != self.codes[:-1]
        groups = np.flatnonzero(first)
        label_cells = np.array([len(label) if label.isascii() else cell_len(label) for label in self.labels] or [0],
                               dtype=np.int64)
        self.span_codes = self.codes[groups]
        """Each distinct span, as start * (words + 1) + end, sorted."""
        self.label_cells = (np.add.reduceat(label_cells[self.chains], groups) + np.diff(np.append(groups, len(self.codes)))
                            - 1) if len(groups) else np.zeros(0, dtype=np.int64)
        """Per distinct span: the cells of its chains' labels joined by commas."""
        self.longest = int((self.ends - self.starts).max()) if len(self.starts) else 0
        """The longest span, less one: a span reaching a token starts at most this far before it."""

    def ids(self, code: int) -> list[str]:
        """The labels of the chains listing the span of `code`, in chain order (`rows.chain_ids`)."""
        low, high = np.searchsorted(self.codes, [code, code + 1])
        return [self.labels[index] for index in self.chains[low:high].tolist()]

    def codes_between(self, first: int, last: int, words: int) -> np.ndarray:
        """The distinct spans reaching a token in [first, last), as codes."""
        low = np.searchsorted(self.span_codes, max(0, first - self.longest) * (words + 1))
        high = np.searchsorted(self.span_codes, last * (words + 1))
        codes = self.span_codes[low:high]
        return codes[codes % (words + 1) >= first]


_INDEXED: dict[int, tuple[Document, int, SideIndex]] = {}
_DISPLAYED: dict[int, tuple[Document, list[str], np.ndarray]] = {}
_KEEPING = threading.Lock()
"""The two memos above are filled from the UI thread and from the text's layout worker."""


def side_index(doc: Document, words: int) -> SideIndex:
    """A document's `SideIndex`, kept for the last few documents (a mode switch reuses it)."""
    with _KEEPING:
        kept = _INDEXED.get(id(doc))
        if kept is None or kept[0] is not doc or kept[1] != words:
            while len(_INDEXED) >= 6:
                del _INDEXED[next(iter(_INDEXED))]
            kept = _INDEXED[id(doc)] = (doc, words, SideIndex(doc, words))
        return kept[2]


def displayed_words(doc: Document) -> tuple[list[str], np.ndarray]:
    """A document's words as drawn (`rows.display_words`) and each one's width in cells, kept.
    The widths come from the code points of all words at once; only a word holding a non-ASCII
    character is measured by `cell_len` (a wide or a combining character)."""
    with _KEEPING:
        return _displayed_words(doc)


def _displayed_words(doc: Document) -> tuple[list[str], np.ndarray]:
    kept = _DISPLAYED.get(id(doc))
    if kept is None or kept[0] is not doc:
        shown = display_words(doc.words)
        joined = WORD_SEPARATOR.join(shown)
        points = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
        separators = points == ord(WORD_SEPARATOR)
        ends = np.flatnonzero(separators)
        if len(ends) != max(len(shown) - 1, 0):  # a word holds the separator: measured one by one
            cells = np.array([cell_len(word) for word in shown], dtype=np.int64)
        else:
            bounds = np.concatenate(([-1], ends, [len(points)])) if shown else np.zeros(1, dtype=np.int64)
            cells = np.diff(bounds).astype(np.int64) - 1
            wide = np.flatnonzero((points > 0x7F) & ~separators)
            for word in np.unique(np.searchsorted(ends, wide)).tolist():
                cells[word] = cell_len(shown[word])
        while len(_DISPLAYED) >= 3:
            del _DISPLAYED[next(iter(_DISPLAYED))]
        kept = _DISPLAYED[id(doc)] = (doc, shown, cells)
    return kept[1], kept[2]


class TextMarks:
    """The mentions a mode draws over a document's text, asked for a range of tokens at a time,
    and each token's unit width (what wrapping needs of the whole text).

    The same mentions, labels and changes as tests/text_reference.py's `marked_mentions` (one side per label part:
    the key and/or the responses), without making a `Marked` for a mention not drawn; under the
    UA conventions with the relations' markables and label endings (`relations.Overlay`) added as
    tests/text_reference.py's `overlaid` adds them."""

    def __init__(self, base: Document, sides: Sequence[Document], types: dict[Span, MentionType], *,
                 changes: dict[Span, str] | None = None, pieces: dict[Span, tuple[Span, ...]] | None = None,
                 relation_marks: Sequence[Marked] = (), endings: dict[Span, str] | None = None) -> None:
        self.base, self.types, self.changes, self.pieces = base, types, changes or {}, pieces or {}
        self.marks_of_change = label_marks()
        self.words = n = len(base.words)
        self.sides = [side_index(doc, n) for doc in sides]
        self.shown, word_cells = displayed_words(base)
        codes = self.codes = _union([side.span_codes for side in self.sides])
        """Every span drawn (on any side), as start * (words + 1) + end, sorted."""
        label = np.full(len(codes), len(self.sides), dtype=np.int64)  # the type letter and the slashes
        for side in self.sides:
            found = np.searchsorted(side.span_codes, codes)
            found = np.minimum(found, max(len(side.span_codes) - 1, 0))
            present = side.span_codes[found] == codes if len(side.span_codes) else np.zeros(len(codes), dtype=bool)
            label += np.where(present, side.label_cells[found] if len(side.label_cells) else 0, 1)  # `-` when absent
        starts, ends = codes // (n + 1), codes % (n + 1)
        closing = 1 + label  # `]` and the label
        for span, change in self.changes.items():
            at = self._place(span)
            if at is not None:
                closing[at] += cell_len(self.marks_of_change.get(change, "") if change else "")
        self.endings, self.extra = self._overlaid(relation_marks, endings or {})
        for span, ending in self.endings.items():
            closing[self._place(span)] += cell_len(ending)
        widths = word_cells.copy()
        np.add.at(widths, starts, 1)
        np.add.at(widths, ends, closing)
        for span, runs in self.pieces.items():  # each piece bracketed and labelled, not the span
            at = self._place(span)
            if at is None:
                continue
            widths[span[0]] -= 1
            widths[span[1]] -= closing[at]
            for start, end in runs:
                if 0 <= start <= end < n:
                    widths[start] += 1
                    widths[end] += closing[at]
        reach = []
        for mark in self.extra:
            runs = mark.pieces or (mark.span,)
            closing_cells = 1 + (len(mark.label) if mark.label.isascii() else cell_len(mark.label))
            for start, end in runs:
                if 0 <= start <= end < n:
                    widths[start] += 1
                    widths[end] += closing_cells
            reach.append(runs[0] if len(runs) == 1 else (min(run[0] for run in runs), max(run[1] for run in runs)))
        self.extra_reach = np.array(reach or np.zeros((0, 2)), dtype=np.int64).reshape(-1, 2)
        """Each of `extra`'s first and last token (a UA book has 19,235: made in one pass)."""
        self.widths: list[int] = widths.tolist()
        """Each token's unit in cells: its opening brackets, its word, its closing brackets and labels."""

    def _overlaid(self, relation_marks: Sequence[Marked], endings: dict[Span, str]
                  ) -> tuple[dict[Span, str], list[Marked]]:
        """Where the relations' label endings go, as tests/text_reference.py's `overlaid` puts
        them: the endings of drawn chain mentions (by span), and the marks drawn besides the chains' (the relations'
        markables, the first at a span taking its ending, then a bracket of its own for each
        ending left), in its order."""
        chained = {span: ending for span, ending in endings.items() if ending and self._place(span) is not None}
        ended = set(chained)
        extra = []
        for mark in relation_marks:
            ending = endings.get(mark.span)
            if ending and mark.span not in ended:
                ended.add(mark.span)
                mark = Marked(mark.span, mark.type, mark.label + ending, mark.change, mark.pieces)
            extra.append(mark)
        extra += [Marked(span, None, ending) for span, ending in endings.items() if span not in ended]
        return chained, extra

    def _place(self, span: Span) -> int | None:
        """Where a span is in `codes` (None: not drawn)."""
        start, end = span
        if not 0 <= start <= end < self.words:
            return None
        code = start * (self.words + 1) + end
        at = int(np.searchsorted(self.codes, code))
        return at if at < len(self.codes) and self.codes[at] == code else None

    def marks_between(self, first: int, last: int) -> list[Marked]:
        """The `Marked` of every mention reaching a token in [first, last), sorted by span."""
        n = self.words
        codes = _union([side.codes_between(first, last, n) for side in self.sides])
        marks = []
        for code in codes.tolist():
            span = (code // (n + 1), code % (n + 1))
            kind = mention_type(self.types, span)
            label = "/".join(",".join(ids) if ids else "-" for ids in (side.ids(code) for side in self.sides))
            change = self.changes.get(span)
            mark = self.marks_of_change.get(change, "") if change else ""
            marks.append(Marked(span, kind, kind.letter + label + mark + self.endings.get(span, ""), change,
                                self.pieces.get(span, ())))
        if self.extra:
            reach = self.extra_reach
            marks += [self.extra[i] for i in np.flatnonzero((reach[:, 0] < last) & (reach[:, 1] >= first)).tolist()]
        return marks

    def units_between(self, first: int, last: int) -> list[list[Atom]]:
        """The token units of tokens [first, last) (`rows.token_units_between`)."""
        return token_units_between(self.shown, self.marks_between(first, last), first, last)


def _union(sorted_codes: Sequence[np.ndarray]) -> np.ndarray:
    """The distinct codes of several sorted arrays, sorted (a sort, not numpy's hashing unique:
    ten times faster on a book's 100,000 spans)."""
    if not sorted_codes:
        return np.zeros(0, dtype=np.int64)
    codes = np.sort(np.concatenate(sorted_codes))
    if len(codes) > 1:
        codes = codes[np.append(True, codes[1:] != codes[:-1])]
    return codes


def text_marks(key: Document, response: Document, types: dict[Span, MentionType], mode: Side, *,
               other: Document | None = None, changes: dict[Span, str] | None = None,
               relation_marks: Sequence[Marked] = (), endings: dict[Span, str] | None = None) -> TextMarks:
    """The marks of a mode over the key's text (the response's when the key has no words), as
    tests/text_reference.py's `marked_mentions` labels them; under the UA conventions with a `relations.Overlay`'s
    `marks` and `endings`, as tests/text_reference.py's `overlaid` adds them."""
    from .rows import _sides

    base = key if key.words or not response.words else response
    pieces: dict[Span, tuple[Span, ...]] = {}
    for doc in (key, response, other):
        if doc is not None and doc.pieces:
            pieces.update(doc.pieces)
    return TextMarks(base, _sides(key, response, other, mode), types, changes=changes, pieces=pieces,
                     relation_marks=relation_marks, endings=endings)


class LazyLines(OnDemand[list[Atom]]):
    """A layout's lines, each block built when one of its lines is asked for."""

    def __init__(self, layout: LazyLayout) -> None:
        self._layout = layout

    def __len__(self) -> int:
        return self._layout.line_count

    def _at(self, index: int) -> list[Atom]:
        return self._layout.line(index)


class LazyLayout:
    """A document's text wrapped to a width: every token's line at once, the lines when drawn.

    `lines` and `token_line` read as `rows.TextLayout`'s (which lays out the whole text)."""

    def __init__(self, marks: TextMarks, sentence_starts: Sequence[int], width: int) -> None:
        self.marks = marks
        self.width = max(width, 8)
        n = marks.words
        self.sentence_starts = sorted({s for s in sentence_starts if 0 < s < n})
        self.token_line, self._line_token = _wrap_widths(marks, self.sentence_starts, self.width)
        self.line_count = len(self._line_token)
        self._blocks = _block_starts(self._line_token, BLOCK_LINES)
        self._built: dict[int, list[list[Atom]]] = {}
        self.lines = LazyLines(self)

    def line(self, index: int) -> list[Atom]:
        """Line `index`, its block built if it is not."""
        block = bisect_right(self._blocks, index) - 1
        first_line = self._blocks[block]
        lines = self._built.get(first_line)
        if lines is None:
            lines = self._build(block)
            while len(self._built) >= BLOCKS_KEPT:
                del self._built[next(iter(self._built))]
            self._built[first_line] = lines
        return lines[index - first_line]

    def _build(self, block: int) -> list[list[Atom]]:
        first_line = self._blocks[block]
        end_line = self._blocks[block + 1] if block + 1 < len(self._blocks) else self.line_count
        first = self._line_token[first_line]
        last = self._line_token[end_line] if end_line < self.line_count else self.marks.words
        starts = self.sentence_starts
        inside = [s - first for s in starts[bisect_right(starts, first):bisect_left(starts, last)]]
        lines = wrap_units(self.marks.units_between(first, last), inside, self.width).lines
        if first == last:  # a text with no words: one empty line
            lines = [[]]
        return lines

    def first_token_on(self, line: int) -> int:
        """The first token whose unit starts on line `line` or after it."""
        return bisect_left(self.token_line, line)


def _wrap_widths(marks: TextMarks, sentence_starts: Sequence[int], width: int) -> tuple[list[int], list[int]]:
    """Greedy wrap of the token widths, as `rows.wrap_units` wraps the units: each token's line,
    and each line's first token (-1 for a line that continues a unit wider than the line, which
    is cut into pieces: such a sentence is wrapped by `wrap_units` itself)."""
    widths = marks.widths
    n = len(widths)
    token_line = [0] * n
    line_token: list[int] = []
    bounds = [0, *sentence_starts, n]
    for first, last in zip(bounds, bounds[1:]):
        if first >= last:
            continue
        if max(widths[first:last]) > width:
            layout = wrap_units(marks.units_between(first, last), [], width)
            base = len(line_token)
            line_token.append(first)
            line_token.extend([-1] * (len(layout.lines) - 1))
            token_line[first:last] = [base + line for line in layout.token_line]
            continue
        line = len(line_token)
        line_token.append(first)
        used = widths[first]
        token_line[first] = line
        for token in range(first + 1, last):
            cells = widths[token]
            if used + 1 + cells > width:
                line += 1
                line_token.append(token)
                used = cells
            else:
                used += 1 + cells
            token_line[token] = line
    if not line_token:
        line_token.append(0)
    return token_line, line_token


def _block_starts(line_token: list[int], size: int) -> list[int]:
    """The first line of each block: every `size` lines, moved on to a line that starts a unit."""
    starts = [0]
    at = size
    while at < len(line_token):
        while at < len(line_token) and line_token[at] < 0:
            at += 1
        if at < len(line_token):
            starts.append(at)
        at += size
    return starts

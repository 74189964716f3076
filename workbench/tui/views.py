"""The centre's other views: key and response chains side by side (F3), and the warnings (F5)."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate
from typing import Iterable, Sequence

from rich.cells import cell_len
from rich.text import Text
from textual.app import App, ComposeResult
from textual.cache import LRUCache
from textual.containers import Horizontal, VerticalScroll
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Static

from metrics.model import Span

from ..output import shortened
from ..warning_kinds import summarised
from .cells import type_colour, type_text
from .chains import ChainRow
from .rows import display_text


@dataclass(frozen=True)
class ChainSide:
    """How one column of the chains view names things: its chains (`own`), the other side's
    (`other`), a chain split over or merging several of them (`several`), and mentions the other
    side lacks (`lacking`)."""

    own: str
    other: str
    several: str
    lacking: str


KEY_SIDE = ChainSide("K", "R", "divided over", "missing")
RESPONSE_SIDE = ChainSide("R", "K", "conflates", "spurious")


class ChainLines(ScrollView, can_focus=True):
    """One column of the chains view, drawn line by line (the Line API, as the text view).

    Why: a book has tens of thousands of chains; one `Static` of all of them took minutes to lay
    out.  A chain is a header and a line per distinct mention (its "items"), so where each chain
    starts in items is known from the counts alone, and a chain's items are built when one of
    them is drawn.  An item longer than the column wraps (`wrap_offsets`: at spaces, continued
    under its start), so the view scrolls by items: the top of the view is an item, and the
    screen is filled from it with the wrapped lines of the items that follow, each item wrapped
    when drawn.  The scrollable height is the items' count, less the items the last screen holds,
    plus the screen: the last item can always be brought into view, and no item's wrapped height
    is needed but those on screen."""

    DEFAULT_CSS = """
    ChainLines { background: $surface; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._rows: Sequence[ChainRow] = []
        self._side = KEY_SIDE
        self._starts: list[int] = [0]
        """The first item of each chain, and after them the number of items."""
        self.marked: frozenset[Span] = frozenset()
        self._lines: LRUCache[int, list[Text]] = LRUCache(256)
        self._wrapped: LRUCache[tuple[int, int], list[Strip]] = LRUCache(1024)
        """(item, width) -> the item's lines drawn at that width."""
        self._screen: tuple[tuple, list[Strip]] | None = None
        """The lines on screen, for the scroll position and size they were made at."""

    def show(self, rows: Sequence[ChainRow], side: ChainSide, marked: frozenset[Span]) -> None:
        """These chains, from the top; `marked` spans reversed."""
        counts = getattr(rows, "mention_counts", None)
        if counts is None:
            counts = [len(row.mentions) for row in rows]
        self._rows, self._side, self.marked = rows, side, marked
        self._starts = [0, *accumulate(1 + count for count in counts)]
        self._forget(lines=True)
        self._size_to_items()
        self.scroll_to(0, 0, animate=False, immediate=True)

    def _forget(self, lines: bool = False) -> None:
        if lines:
            self._lines.clear()
        self._wrapped.clear()
        self._screen = None
        self.refresh()

    def mark(self, marked: frozenset[Span]) -> None:
        self.marked = marked
        self._forget(lines=True)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._forget(lines=True)

    def on_resize(self) -> None:
        self._forget()
        self._size_to_items()

    def watch_show_vertical_scrollbar(self, shown: bool) -> None:
        """The scrollbar narrows the column (no resize says so): the last screen measured again."""
        self.call_after_refresh(self.on_resize)

    @property
    def item_count(self) -> int:
        return self._starts[-1]

    def _size_to_items(self) -> None:
        """The scrollable height: the top item can go as far as the first of the items that the
        last screen holds (only those are wrapped to know it)."""
        width, height = self.scrollable_content_region.width, self.scrollable_content_region.height
        items = self.item_count
        if not self.is_mounted or width <= 0 or height <= 0:
            self.virtual_size = Size(max(width, 0), items)
            return
        first, used = items, 0
        while first > 0:
            lines = len(self.item_lines(first - 1, width))
            if used + lines > height and first < items:
                break
            used += lines
            first -= 1
        self.virtual_size = Size(width, used if first == 0 else first + height)

    def chain_lines(self, index: int) -> list[Text]:
        """The items of chain `index`: its header, then a line per mention (unwrapped)."""
        lines = self._lines.get(index)
        if lines is None:
            lines = self._lines[index] = chain_lines(self.app, self._rows[index], self._side, self.marked)
        return lines

    def item_lines(self, item: int, width: int) -> list[Strip]:
        """Item `item` (a chain's header or one of its mentions) wrapped to `width` cells."""
        key = (item, width)
        strips = self._wrapped.get(key)
        if strips is None:
            chain = bisect_right(self._starts, item) - 1
            text = self.chain_lines(chain)[item - self._starts[chain]]
            indent = ITEM_INDENT if item > self._starts[chain] else HEADER_INDENT
            strips = []
            for number, part in enumerate(text.divide(wrap_offsets(text.plain, width, indent))):
                if number:
                    part = Text(" " * indent, end="").append_text(part)
                part.rstrip()
                segments = list(part.render(self.app.console, end=""))
                strips.append(Strip(segments).crop_extend(0, width, None).apply_style(self.rich_style))
            self._wrapped[key] = strips
        return strips

    def screen_lines(self) -> list[Strip]:
        """The lines on screen: the wrapped items from the top one on, until the screen is full."""
        width, height = self.scrollable_content_region.width, self.scrollable_content_region.height
        top = int(self.scroll_offset.y)
        shown = (top, width, height)
        if self._screen is not None and self._screen[0] == shown:
            return self._screen[1]
        lines: list[Strip] = []
        item = top
        while len(lines) < height and item < self.item_count:
            lines.extend(self.item_lines(item, width))
            item += 1
        self._screen = (shown, lines[:height])
        return self._screen[1]

    def render_line(self, y: int) -> Strip:
        lines = self.screen_lines()
        if y < len(lines):
            return lines[y]
        return Strip.blank(self.scrollable_content_region.width, self.rich_style)


ITEM_INDENT = 5
"""Where a mention's wrapped words continue: under its words (after the indent and type letter)."""
HEADER_INDENT = 2
"""Where a chain's wrapped header continues."""
KEPT_TOGETHER = "\u00a0"
"""Joins words a wrap must not part (a no-break space: `wrap_offsets` breaks at plain spaces
only): a count and what it counts, `2 missing`, read as `2` at a line's end and `missing` below
it at 100 columns."""


def wrap_offsets(plain: str, width: int, indent: int) -> list[int]:
    """Where to break a line of `plain` text so that each piece fits `width` cells, the pieces
    after the first indented by `indent`: before a word (what plain spaces part: `KEPT_TOGETHER`
    joins a word) that does not fit, or inside a word longer than a line.  Offsets as `Text.divide` takes them (a piece keeps the spaces after it, which
    the view strips)."""
    if cell_len(plain) <= width:
        return []
    indent = min(indent, max(width - 8, 0))  # a narrow column: a continuation starts further left
    offsets: list[int] = []
    room, used, position = width, 0, 0
    for match in re.finditer(r"[^ ]+", plain):
        start, word = match.start(), match.group()
        gap = cell_len(plain[position:start]) if used or not offsets else 0
        cells = cell_len(word)
        if used and used + gap + cells > room and cells <= width - indent:  # the word starts the next line
            offsets.append(start)
            room, used, gap = width - indent, 0, 0
        while used + gap + cells > room:  # longer than the line: cut where the room ends
            fits = room - used - gap
            taken = cut = 0
            while cut < len(word) and taken + cell_len(word[cut]) <= fits:
                taken += cell_len(word[cut])
                cut += 1
            cut = max(cut, 0 if used + gap else 1)  # a fresh line takes a character at least
            if cut >= len(word):  # the rest is that one character, wider than the line: it stays here
                break
            offsets.append(start + cut)
            word, start = word[cut:], start + cut
            cells = cell_len(word)
            room, used, gap = width - indent, 0, 0
        used += gap + cells
        position = match.end()
    return [offset for offset in offsets if 0 < offset < len(plain) and not plain[offset:].isspace()]


def chain_lines(app: App, row: ChainRow, side: ChainSide, marked: frozenset[Span] = frozenset()) -> list[Text]:
    """A chain as the chains view shows it: its label, type counts and partners, then each mention
    (type letter, words, span), a marked one reversed."""
    own, other, several, lacking = side.own, side.other, side.several, side.lacking
    n, m, p = row.type_counts
    header = Text(no_wrap=True)
    header.append(f"{own}{row.number}", style="bold")
    header.append(f"  N{n} M{m} P{p}")
    if len(row.partners) > 1:
        header.append(f"  {several} " + " ".join(f"{other}{x}" for x in row.partners), style="bold reverse")
    elif row.partners:
        header.append(f"  {row.relation} {other}{row.partners[0]}")
    if row.unmatched:
        header.append(f"  {row.unmatched}{KEPT_TOGETHER}{lacking}", style="italic")
    if row.note:
        header.append(f"  {row.note}", style="bold")
    lines = [header]
    notes = row.notes or {}
    for span, kind, words in row.mentions:
        line = Text("   ", no_wrap=True)
        line.append_text(type_text(app, kind))
        line.append(" ")
        line.append(words, style=type_colour(app, kind) + (" reverse" if span in marked else ""))
        line.append(f" {span[0]}-{span[1]}", style="dim")
        if span in notes:
            line.append(f" {notes[span]}", style="bold")
        lines.append(line)
    return lines


class ChainsView(Horizontal):
    """Key chains beside response chains: which key chains a response chain divides or conflates."""

    HELP = """\
Left: key chains, right: response chains, each numbered by its label in the file (`(3)` is
K3 or R3; `corefwb errors` and the exports use the same numbers).  Each chain lists its type counts and
mentions (type letter before the text).  "= R2": the same mentions; "part of R2": all of its
mentions are in R2, which has more; "holds all of R2": the other way round; "overlaps R2":
each has mentions the other lacks.  "divided over R2 R5" marks a key chain the response
split; "conflates K1 K4" marks a response chain that merges key chains; "n missing" /
"n spurious" count mentions the other side lacks.  A header or a mention longer than its
column wraps, continued under its start.  Under --conventions ua (the borders' legend): `→ K2`
a bridging anaphor's anchor chain, `⊃` a plural entity's split antecedents, `D1` a discourse
deixis chain, `¬` the non-referring markables; b, a, x, r show or hide each.
"""

    def compose(self) -> ComposeResult:
        yield ChainLines(id="key-chains")
        yield ChainLines(id="response-chains")

    marked: frozenset[Span] = frozenset()
    """Spans to mark (an entity error's mentions, `t`), reversed in both columns."""
    _rows: tuple[Sequence[ChainRow], Sequence[ChainRow] | None] | None = None

    def mark(self, spans: Iterable[Span]) -> None:
        """Mark these spans (an empty set: none), redrawing the chains shown."""
        if frozenset(spans) != self.marked:
            self.marked = frozenset(spans)
            for column in self.query(ChainLines):
                column.mark(self.marked)

    def show(self, key_rows: Sequence[ChainRow], response_rows: Sequence[ChainRow] | None,
             legends: Sequence[Sequence[str]] = ()) -> None:
        """Both sides; `response_rows` None: a key browsed alone (its chains only).  `legends`:
        the glyphs' legends, longest first, each as parts (`relations.chains_legends`)."""
        self._rows = (key_rows, response_rows)
        self._legends = legends
        self._fit_legends()
        self.call_after_refresh(self._fit_legends)  # again once the columns have their widths
        keys = self.query_one("#key-chains", ChainLines)
        keys.show(key_rows, KEY_SIDE, self.marked)
        keys.border_title = f"key chains ({len(key_rows)})"
        responses = self.query_one("#response-chains", ChainLines)
        responses.display = response_rows is not None
        if response_rows is not None:
            responses.show(response_rows, RESPONSE_SIDE, self.marked)
            responses.border_title = f"response chains ({len(response_rows)})"

    _legends: Sequence[Sequence[str]] = ()

    def on_resize(self) -> None:
        self._fit_legends()

    def _fit_legends(self) -> None:
        """The longest legend whose parts fit the columns' borders: all on the key column's when it
        is alone, else the first half there and the rest on the response column's."""
        columns = [column for column in self.query(ChainLines) if column.display]
        if not self._legends:
            for column in columns:
                column.border_subtitle = ""
            return
        half = -(-len(self._legends[0]) // len(columns))
        for parts in self._legends:
            sep = "  " if any(" " in part for part in parts) else " "
            texts = [sep.join(parts[i * half:(i + 1) * half]) for i in range(len(columns))]
            room = [column.outer_size.width - 6 for column in columns]  # the corners, rules and spaces
            if all(cell_len(text) <= cells for text, cells in zip(texts, room)):
                break
        for text, column in zip(texts, columns):
            column.border_subtitle = text


class WarningsView(VerticalScroll):
    """What the readers and the aligner noticed about the input files (F5), one per paragraph."""

    HELP = """\
Warnings about the input files: repeated spans, words that differ between key and response,
documents missing on one side.  The scores follow v8.01's treatment of each; `corefwb score`
prints the same lines on stderr.
"""

    def compose(self) -> ComposeResult:
        yield Static("", id="warnings-text")

    def show(self, warnings: Sequence[str], every: bool = False) -> None:
        """List the warnings (text from the files: plain Text, never markup), as `corefwb` says
        them on stderr: a few of each kind and a line counting the rest, unless `every`."""
        text = Text()
        for number, warning in enumerate(summarised(warnings, every), start=1):
            text.append(f"{number}. ", style="bold")
            text.append(display_text(shortened(warning)) + "\n\n")
        self.query_one("#warnings-text", Static).update(text if warnings else Text("no warnings"))
        self.border_title = f"warnings ({len(warnings):,})"

    def show_failure(self, message: str, width: int) -> str:
        """Files that could not be read: the whole message here, wrapped (a path and a line are
        often longer than the status line), and returned as the status line says it in `width`
        cells: whole if it fits, else with directories left out of its paths and cut, pointing here."""
        self.query_one("#warnings-text", Static).update(Text(display_text(message)))
        self.border_title = "the files could not be read"
        line = " ".join(message.split())
        if cell_len(line) <= width:
            return line
        line = re.sub(r"(?<!\S)\.{0,2}/(?:[^\s/:]+/)*(?=[^\s/])", "", line)  # a path's file name only
        pointer = " … (whole: below)"
        return line if cell_len(line) <= width else line[:max(0, width - len(pointer))].rstrip() + pointer

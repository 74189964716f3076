"""The centre's other views: key and response chains side by side (F3), and the warnings (F5)."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate
from typing import Iterable, Sequence

from rich.text import Text
from textual.app import App, ComposeResult
from textual.cache import LRUCache
from textual.containers import Horizontal, VerticalScroll
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Static

from metrics.model import Span

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
    out.  A chain takes a line and a line per distinct mention, so where each chain starts is
    known from the counts alone; a chain's lines are built when one of them is drawn.  A line
    longer than the column ends in an ellipsis at its edge (a mention's words are at most 40
    characters; the partners of a chain divided many ways can be more than a narrow column shows)."""

    DEFAULT_CSS = """
    ChainLines { background: $surface; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._rows: Sequence[ChainRow] = []
        self._side = KEY_SIDE
        self._starts: list[int] = [0]
        """The first line of each chain, and after them the number of lines."""
        self.marked: frozenset[Span] = frozenset()
        self._lines: LRUCache[int, list[Text]] = LRUCache(256)
        self._strips: LRUCache[tuple, Strip] = LRUCache(1024)

    def show(self, rows: Sequence[ChainRow], side: ChainSide, marked: frozenset[Span]) -> None:
        """These chains, from the top; `marked` spans reversed."""
        counts = getattr(rows, "mention_counts", None)
        if counts is None:
            counts = [len(row.mentions) for row in rows]
        self._rows, self._side, self.marked = rows, side, marked
        self._starts = [0, *accumulate(1 + count for count in counts)]
        self._lines.clear()
        self._strips.clear()
        self.virtual_size = Size(self.scrollable_content_region.width, self._starts[-1])
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.refresh()

    def mark(self, marked: frozenset[Span]) -> None:
        self.marked = marked
        self._lines.clear()
        self._strips.clear()
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._lines.clear()
        self._strips.clear()

    def on_resize(self) -> None:
        self.virtual_size = Size(self.scrollable_content_region.width, self._starts[-1])
        self._strips.clear()

    def chain_lines(self, index: int) -> list[Text]:
        """The lines of chain `index`: its header, then a line per mention."""
        lines = self._lines.get(index)
        if lines is None:
            lines = self._lines[index] = chain_lines(self.app, self._rows[index], self._side, self.marked)
        return lines

    def plain_text(self) -> str:
        """Every line, as plain text (builds every chain: for tests and small documents)."""
        return "".join(line.plain + "\n" for index in range(len(self._rows)) for line in self.chain_lines(index))

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.scrollable_content_region.width
        if index >= self._starts[-1]:
            return Strip.blank(width, self.rich_style)
        key = (index, scroll_x, width)
        strip = self._strips.get(key)
        if strip is None:
            chain = bisect_right(self._starts, index) - 1
            text = self.chain_lines(chain)[index - self._starts[chain]]
            if text.cell_len > width and not scroll_x:  # cut visibly, never silently
                text = text.copy()
                text.truncate(width, overflow="ellipsis")
            segments = list(text.render(self.app.console, end=""))
            strip = Strip(segments).crop_extend(scroll_x, scroll_x + width, None).apply_style(self.rich_style)
            self._strips[key] = strip
        return strip


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
        header.append(f"  {row.unmatched} {lacking}", style="italic")
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
"n spurious" count mentions the other side lacks.
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

    def show(self, key_rows: Sequence[ChainRow], response_rows: Sequence[ChainRow] | None) -> None:
        """Both sides; `response_rows` None: a key browsed alone (its chains only)."""
        self._rows = (key_rows, response_rows)
        keys = self.query_one("#key-chains", ChainLines)
        keys.show(key_rows, KEY_SIDE, self.marked)
        keys.border_title = f"key chains ({len(key_rows)})"
        responses = self.query_one("#response-chains", ChainLines)
        responses.display = response_rows is not None
        if response_rows is not None:
            responses.show(response_rows, RESPONSE_SIDE, self.marked)
            responses.border_title = f"response chains ({len(response_rows)})"


class WarningsView(VerticalScroll):
    """What the readers and the aligner noticed about the input files (F5), one per paragraph."""

    HELP = """\
Warnings about the input files: repeated spans, words that differ between key and response,
documents missing on one side.  The scores follow v8.01's treatment of each; `corefwb score`
prints the same lines on stderr.
"""

    def compose(self) -> ComposeResult:
        yield Static("", id="warnings-text")

    def show(self, warnings: Sequence[str]) -> None:
        """List the warnings (text from the files: plain Text, never markup)."""
        text = Text()
        for number, warning in enumerate(warnings, start=1):
            text.append(f"{number}. ", style="bold")
            text.append(display_text(warning) + "\n\n")
        self.query_one("#warnings-text", Static).update(text if warnings else Text("no warnings"))
        self.border_title = f"warnings ({len(warnings)})"

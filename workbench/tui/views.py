"""The centre's other views: key and response chains side by side (F3), and the warnings (F5)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static

from metrics.model import Span

from .cells import type_colour, type_text
from .rows import ChainRow, display_text


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
        with VerticalScroll(id="key-chains"):
            yield Static("", id="key-chains-text")
        with VerticalScroll(id="response-chains"):
            yield Static("", id="response-chains-text")

    marked: frozenset[Span] = frozenset()
    """Spans to mark (an entity error's mentions, `t`), reversed in both columns."""
    _rows: tuple[list[ChainRow], list[ChainRow] | None] | None = None

    def mark(self, spans: Iterable[Span]) -> None:
        """Mark these spans (an empty set: none), redrawing the chains shown."""
        if frozenset(spans) != self.marked:
            self.marked = frozenset(spans)
            if self._rows is not None:
                self.show(*self._rows)

    def show(self, key_rows: list[ChainRow], response_rows: list[ChainRow] | None) -> None:
        """Both sides; `response_rows` None: a key browsed alone (its chains only)."""
        self._rows = (key_rows, response_rows)
        self.query_one("#key-chains-text", Static).update(self._chains_text(self.app, key_rows, KEY_SIDE, self.marked))
        self.query_one("#key-chains", VerticalScroll).border_title = f"key chains ({len(key_rows)})"
        responses = self.query_one("#response-chains", VerticalScroll)
        responses.display = response_rows is not None
        if response_rows is not None:
            self.query_one("#response-chains-text", Static).update(
                self._chains_text(self.app, response_rows, RESPONSE_SIDE, self.marked))
            responses.border_title = f"response chains ({len(response_rows)})"

    @staticmethod
    def _chains_text(app: App, rows: list[ChainRow], side: ChainSide, marked: frozenset[Span] = frozenset()) -> Text:
        own, other, several, lacking = side.own, side.other, side.several, side.lacking
        text = Text(no_wrap=False)
        for row in rows:
            n, m, p = row.type_counts
            text.append(f"{own}{row.number}", style="bold")
            text.append(f"  N{n} M{m} P{p}")
            if len(row.partners) > 1:
                text.append(f"  {several} " + " ".join(f"{other}{x}" for x in row.partners), style="bold reverse")
            elif row.partners:
                text.append(f"  {row.relation} {other}{row.partners[0]}")
            if row.unmatched:
                text.append(f"  {row.unmatched} {lacking}", style="italic")
            text.append("\n")
            for span, kind, words in row.mentions:
                text.append("   ")
                text.append_text(type_text(app, kind))
                text.append(" ")
                text.append(words, style=type_colour(app, kind) + (" reverse" if span in marked else ""))
                text.append(f" {span[0]}-{span[1]}\n", style="dim")
        return text


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

"""Under --conventions ua, the errors of the Universal Anaphora relations (`t` cycles to it; the
list shown first under those conventions): a row per error, the counts by type beside it.

Why a panel of its own: a relation's error is about a link (a bridging anaphor and its anchor), a
markable's status (non-referring) or a plural entity's members, not about a mention and its
antecedent in a chain; its columns are the relation, the type, where, the price and the
explanation (`corefwb errors --conventions ua` prints the same).  Selecting a row emphasises the
mention in the text.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Static

from metrics.errors.ua.records import KINDS, RELATIONS, UAError
from metrics.measures.catalog import label

from .cells import ListTable, next_row
from .errorlist import PADDING, column_widths
from .rows import display_text

RELATION_SHORT = {"bridging": "BR", "non_referring": "NR", "split_antecedents": "SA"}
KIND_SHORT = {"missed": "MISS", "spurious": "SPUR", "wrong_anchor": "ANCH", "wrong_relation": "REL",
              "marked_referring": "REF", "marked_non_referring": "NREF", "missing": "MISS", "extra": "XTRA",
              "wrong_members": "MEMB"}
"""The abbreviations the list and the counts show (the help spells them out)."""
FIXED = (("rel", 3), ("type", 4), ("price", 20))
TEXT = (("mention", 0.35), ("explanation", 0.65))


class RelationErrorPanel(Horizontal):
    """The UA relations' errors of the current document (see the module docstring)."""

    HELP = """\
The errors of the Universal Anaphora relations (--conventions ua), as `corefwb errors
--conventions ua` lists them.  BR bridging: MISS the key's anaphor has no link in the response,
SPUR a link from a markable that is no anaphor in the key, ANCH another anchor (of the key
anchor's entity: right at entity level), REL the right anchor with another relation (the UA
scorer does not score relations: it costs nothing).  NR non-referring: REF non-referring in the
key, referring (or absent) in the response; NREF the reverse.  SA split antecedents (with
--split-antecedents keep): MISS the key's plural entity has split antecedents and its response
entity none, XTRA the reverse, MEMB both with other members.  The price: the points of corpus
F1 of each score it touches that fixing this error alone gains.  The counts box: this document's
errors per type (in compare mode A, the baseline's, beside B's).  In the text, b, a, x and r
show or hide bridging links (→), split antecedents (⊃), discourse deixis (D) and non-referring
markables (¬).  The price column: a bridging error's on the recognition, markable and entity
scores (in that order), a non-referring one's on non_referring, a split antecedent's on CoNLL;
selecting a row names every score it touches.  `t` switches to the next list.
"""

    class Picked(Message):
        """The cursor is on an error (jump=False) or Enter was pressed on it (jump=True)."""

        def __init__(self, panel: RelationErrorPanel, row: UAError | None, jump: bool) -> None:
            super().__init__()
            self.panel = panel
            self.row = row
            self.jump = jump

        @property
        def control(self) -> RelationErrorPanel:
            return self.panel

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.rows: list[UAError] = []
        self.state = "analysing"
        self._widths: dict[str, int] | None = None
        self._picked = False
        self._counts: list[tuple[str, list[UAError]]] = []
        self.split_scored = True

    def compose(self) -> ComposeResult:
        with Vertical(id="ua-main"):
            yield ListTable(id="ua-errors", cursor_type="row", zebra_stripes=True, cell_padding=PADDING)
        yield Static("", id="ua-counts")

    def on_mount(self) -> None:
        self.border_subtitle = "price: F1 points the fix alone gains · t: per-mention errors · F1 legend"
        self._columns()

    def on_resize(self) -> None:
        if self._columns():
            self.refill()

    def _columns(self) -> bool:
        table = self.query_one("#ua-errors", ListTable)
        widths = column_widths(table.size.width or 76, FIXED, TEXT)
        if widths == self._widths:
            return False
        self._widths = widths
        table.clear(columns=True)
        for name, width in widths.items():
            table.add_column(Text(name, overflow="ellipsis", no_wrap=True), width=width)
        return True

    def set_rows(self, rows: list[UAError] | None, counts: list[tuple[str, list[UAError]]] | None = None,
                 state: str = "ready", split_scored: bool = True) -> None:
        """This document's errors (None while analysing); `counts`: (system label, its errors of
        this document) per system shown, for the counts box; `split_scored`: whether split
        antecedents are scored (`--split-antecedents keep`), else the box says so instead of 0s."""
        self.split_scored = split_scored
        self.state = state if rows is None else "ready"
        self.rows = rows or []
        self._counts = counts or ([("", self.rows)] if rows is not None else [])
        self._picked = False
        self.refill()

    def refill(self) -> None:
        table = self.query_one("#ua-errors", ListTable)
        rows = self.rows
        if table.size.width:
            table.set_lazy_rows(len(rows), lambda number: self._cells(rows[number]))
        else:
            table.clear()
        self.border_title = {"analysing": "relation errors (analysing ...)",
                             "failed": "relation errors (not available)"}.get(
            self.state, f"relation errors{' of B' if len(self._counts) > 1 else ''} ({len(self.rows)})")
        self._show_counts()

    @staticmethod
    def _cells(row: UAError) -> list[Text]:
        price = price_text(row)
        return [Text(RELATION_SHORT[row.relation]), Text(KIND_SHORT[row.kind]), Text(price, overflow="ellipsis", no_wrap=True),
                *(Text(display_text(t), overflow="ellipsis", no_wrap=True) for t in (row.mention, row.explanation))]

    def _show_counts(self) -> None:
        self.query_one("#ua-counts", Static).update(counts_text(self._counts, self.split_scored))

    @on(ListTable.RowHighlighted, "#ua-errors")
    def _highlighted(self, event: ListTable.RowHighlighted) -> None:
        event.stop()
        if not event.data_table.has_focus:
            return
        self._picked = True
        self.post_message(self.Picked(self, self._row(event.cursor_row), jump=False))

    @on(ListTable.RowSelected, "#ua-errors")
    def _selected(self, event: ListTable.RowSelected) -> None:
        event.stop()
        self._picked = True
        self.post_message(self.Picked(self, self._row(event.cursor_row), jump=True))

    def _row(self, index: int) -> UAError | None:
        return self.rows[index] if 0 <= index < len(self.rows) else None

    def filters(self) -> tuple[None, None]:
        """No category or type filter here (the counts box shows every type)."""
        return None, None

    def move(self, step: int, from_token: int | None = None) -> bool:
        """n / p: the next or previous error, in text order."""
        table = self.query_one("#ua-errors", ListTable)
        if not self.rows:
            return False
        row = next_row([word_span(r) for r in self.rows], table.cursor_row, self._picked, step,
                       from_token=from_token, text_order=True)
        self._picked = True
        table.move_cursor(row=row, animate=False)
        self.post_message(self.Picked(self, self._row(table.cursor_row), jump=False))
        return True


SPLIT_NOT_SCORED = "SA not scored (removed)"
"""The counts box's split-antecedent line when they are removed (the UA scorer's default): their
errors are not looked for, so a 0 there would say the response got them right."""


def counts_text(systems: list[tuple[str, list[UAError]]], split_scored: bool = True) -> Text:
    """The counts box: each type's errors, two types a line (so that the box fits the shortest
    panel), a count per system shown (compare mode: A/B, the baseline's first); without
    `split_scored`, one line saying split antecedents are not scored."""
    cells = {}
    for relation in RELATIONS:
        for kind in KINDS[relation]:
            counts = [sum(1 for e in rows if (e.relation, e.kind) == (relation, kind)) for _, rows in systems]
            cells[(relation, kind)] = "/".join(str(n) for n in counts)
    width = max(len(cell) for cell in cells.values())
    text = Text("relation errors" if len(systems) <= 1 else "errors: A/B", style="bold")
    for relation in RELATIONS:
        kinds = KINDS[relation]
        if relation == "split_antecedents" and not split_scored:
            text.append(f"\n{SPLIT_NOT_SCORED}")
            continue
        for pair in (kinds[i:i + 2] for i in range(0, len(kinds), 2)):
            line = "  ".join(f"{KIND_SHORT[k]:<4} {cells[(relation, k)]:>{width}}" for k in pair)
            text.append(f"\n{RELATION_SHORT[relation]} {line}")
    return text


def price_text(error: UAError) -> str:
    """An error's price, short: a bridging error's on its three scores (recognition, markable,
    entity), a non-referring one's on non_referring, a split antecedent's on CoNLL (the text's
    subtitle and `corefwb errors` name every metric)."""
    prices = error.price
    if "conll" in prices:
        prices = {"conll": prices["conll"]}
    return " ".join(f"{value:+.2f}" for value in prices.values())


def price_names(error: UAError) -> str:
    """Every price of an error with its metric's label (the text's subtitle says them)."""
    return ", ".join(f"{label(metric)} {value:+.2f}" for metric, value in error.price.items())


def word_span(error: UAError) -> tuple[int, int]:
    """The word an error is at, as a one-word span (its mention's first word)."""
    word = error.position[0] if error.position else 0
    return (word, word)

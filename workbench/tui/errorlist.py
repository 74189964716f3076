"""The error list of the current document, with the category x type counts beside it.

Why its columns are measured: the three text columns (mention, antecedent, best key antecedent)
share what the fixed ones (category, type, cost, impact) leave, so at 100 columns every column is
on screen, shortened with an ellipsis, instead of the last three scrolling out of sight.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Select, Static

from metrics.errors.records import CATEGORIES, Category, ErrorRecord, count_errors
from metrics.model import MentionType

from ..output import IMPACT_UNIT, impact_text
from .cells import ListTable, type_text
from .rows import display_text, filter_errors

FIXED = (("cat", 4), ("type", 4), ("cost", 5), ("impact", 9))
"""Columns of a fixed width (`impact`: `+0.000812`)."""
TEXT = (("mention", 0.4), ("antecedent", 0.3), ("best key antecedent", 0.3))
"""Columns sharing the rest, by these fractions."""
PADDING = 1
"""Cells on each side of a cell (DataTable's cell_padding)."""
SCROLLBAR = 1


def column_widths(width: int) -> dict[str, int]:
    """The width of every column of an error table `width` cells wide (scrollbar reserved)."""
    fixed = sum(w for _, w in FIXED)
    padding = 2 * PADDING * (len(FIXED) + len(TEXT))
    rest = max(3 * 8, width - SCROLLBAR - fixed - padding)
    widths = {name: w for name, w in FIXED}
    for name, share in TEXT:
        widths[name] = max(8, int(rest * share))
    return widths


class ErrorPanel(Horizontal):
    """The errors of the current document, filterable, sortable; category x type counts beside."""

    BINDINGS = [
        Binding("i", "toggle_sort", "Sort errors by impact", id="errors.sort"),
    ]
    HELP = f"""\
One row per error: its category (see the legend), the mention's type (N/M/P) and words, the
response antecedent and the best key antecedent, the cost of a suboptimal link, and the impact
(corpus CoNLL F1 gained, in {IMPACT_UNIT}, if that error alone were fixed).  Filter by
category and type in the boxes above; `i` toggles sorting by impact; Enter jumps to the
mention in the text; n / p go to the next / previous error from anywhere.
"""

    class Picked(Message):
        """The cursor is on an error (jump=False) or Enter was pressed on it (jump=True)."""

        def __init__(self, row: ErrorRecord | None, jump: bool) -> None:
            super().__init__()
            self.row = row
            self.jump = jump

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[ErrorRecord] = []
        self.shown: list[ErrorRecord] = []
        self.by_impact = False
        self.state = "analysing"
        """"ready", "analysing" (the records are being computed) or "failed"."""
        self._filled: object | None = None
        """Token of a deferred fill; a newer set_rows supersedes it."""
        self._picked = False
        """Whether the user has picked an error in this list (the first `n` picks the first row)."""
        self._widths: dict[str, int] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="error-main"):
            with Horizontal(id="error-filters"):
                yield Select(
                    [(f"{c.short} {c.label}", c.value) for c in CATEGORIES],
                    prompt="all categories", id="error-category", compact=True,
                )
                yield Select([(f"{t.letter} {t.name}", t.name) for t in MentionType], prompt="all types", id="error-type", compact=True)
                yield Static("", id="error-sort")
            yield ListTable(id="errors", cursor_type="row", zebra_stripes=True, cell_padding=PADDING)
        yield Static("", id="error-counts")

    def on_mount(self) -> None:
        self.border_subtitle = f"impact: CoNLL F1 {IMPACT_UNIT} gained by the fix · F1 legend"
        self._columns()

    def on_resize(self) -> None:
        cursor_span = self._cursor_span()
        if self._columns():
            self.refill(cursor_span=cursor_span)

    def _cursor_span(self):
        table = self.query_one("#errors", ListTable)
        return self.shown[table.cursor_row].mention.span if 0 <= table.cursor_row < len(self.shown) else None

    def _columns(self) -> bool:
        """Size the columns to the table's width; True when they changed."""
        table = self.query_one("#errors", ListTable)
        width = table.size.width or 76
        widths = column_widths(width)
        if widths == self._widths:
            return False
        self._widths = widths
        table.clear(columns=True)
        for name in ("cat", "type", "mention", "antecedent", "best key antecedent", "cost", "impact"):
            label = name.rjust(widths[name]) if name in ("cost", "impact") else name
            table.add_column(Text(label, overflow="ellipsis", no_wrap=True), width=widths[name])
        return True

    def set_rows(self, rows: list[ErrorRecord] | None, keep_cursor: bool = False, defer: bool = False,
                 state: str = "ready") -> None:
        """New rows (None with `state` "analysing" or "failed"); `keep_cursor` (same document,
        impacts priced) keeps the cursor and selection.

        `defer` (a new document): the table is emptied now and filled after the next frame, so
        the text and scores of the new document appear first (a DataTable measures every cell
        it is given: ~40 ms for the 400 errors of a long document)."""
        self.state = state if rows is None else "ready"
        self.rows = rows or []
        if defer:
            self.shown = []
            self.query_one("#errors", ListTable).clear()
            self.border_title = self._title()
            self._filled = object()
            token = self._filled
            self.call_after_refresh(lambda: self._filled is token and self.refill())
        else:
            self._filled = None
            self.refill(keep_cursor)

    def _title(self) -> str:
        if self.state == "analysing":
            return "errors (analysing ...)"
        if self.state == "failed":
            return "errors (error analysis not available)"
        return f"errors ({len(self.shown)}/{len(self.rows)})"

    def filters(self) -> tuple[Category | None, MentionType | None]:
        category = self.query_one("#error-category", Select).value
        kind = self.query_one("#error-type", Select).value
        return (
            Category(category) if isinstance(category, str) else None,
            MentionType[kind] if isinstance(kind, str) else None,
        )

    def refill(self, keep_cursor: bool = False, cursor_span=None) -> None:
        """Fill the table from `rows` through the filters; `keep_cursor` keeps the cursor on the
        same error (or on `cursor_span`, taken before the columns were rebuilt)."""
        category, kind = self.filters()
        table = self.query_one("#errors", ListTable)
        if keep_cursor:
            cursor_span = self._cursor_span()
        self.shown = filter_errors(self.rows, category, kind, self.by_impact)
        self._picked = self._picked and cursor_span is not None
        table.clear()
        for number, row in enumerate(self.shown):
            table.add_row(
                Text(row.category.short),
                type_text(self.app, row.mention.type),
                Text(display_text(row.mention.text), overflow="ellipsis", no_wrap=True),
                self._ref(row.antecedent),
                self._ref(row.best_antecedent),
                Text("" if row.cost is None else f"{row.cost:.2f}", justify="right"),
                Text(impact_text(row.impact), justify="right"),
                key=str(number),
            )
        if cursor_span is not None:
            position = next((i for i, row in enumerate(self.shown) if row.mention.span == cursor_span), 0)
            table.move_cursor(row=position, animate=False)
        self.query_one("#error-sort", Static).update(Text("by impact" if self.by_impact else "in text order"))
        self.border_title = self._title()
        self._show_counts()

    def _ref(self, ref) -> Text:
        if ref is None:
            return Text("")
        text = type_text(self.app, ref.type)
        text.append(" ")
        text.append(display_text(ref.text))
        text.overflow, text.no_wrap = "ellipsis", True
        return text

    def _show_counts(self) -> None:
        counts = count_errors(self.rows)
        text = Text("        N    M    P\n", style="bold")
        for category in CATEGORIES:
            n, m, p = (counts[category][t] for t in MentionType)
            text.append(f"{category.short:<5}{n:>4} {m:>4} {p:>4}\n")
        self.query_one("#error-counts", Static).update(text)

    @on(Select.Changed)
    def _filter(self) -> None:
        self.refill()

    @on(ListTable.RowHighlighted, "#errors")
    def _highlighted(self, event: ListTable.RowHighlighted) -> None:
        """The text follows the cursor only while the user is in the list: a refill elsewhere
        (new document, impacts arriving) must not select an error by itself."""
        if not event.data_table.has_focus:
            return
        self._picked = True
        self.post_message(self.Picked(self._row(event.cursor_row), jump=False))

    @on(ListTable.RowSelected, "#errors")
    def _selected(self, event: ListTable.RowSelected) -> None:
        self._picked = True
        self.post_message(self.Picked(self._row(event.cursor_row), jump=True))

    def _row(self, index: int) -> ErrorRecord | None:
        return self.shown[index] if 0 <= index < len(self.shown) else None

    def move(self, step: int, from_token: int | None = None) -> bool:
        """Go to the next (step 1) or previous (-1) error; False when none is listed.

        `from_token`: the first token the text view shows, given when the user has scrolled the
        text away from the selected error: `n` then goes to the first error from there on (`p`
        to the last one before it), not back to where the cursor was."""
        table = self.query_one("#errors", ListTable)
        if not self.shown:
            return False
        if from_token is not None:
            after = [i for i, row in enumerate(self.shown) if row.mention.span[0] >= from_token]
            before = [i for i, row in enumerate(self.shown) if row.mention.span[0] < from_token]
            if self.by_impact:  # the list is not in text order: the first (last) in text order
                after.sort(key=lambda i: self.shown[i].mention.span)
                before.sort(key=lambda i: self.shown[i].mention.span)
            row = (after[0] if after else 0) if step > 0 else (before[-1] if before else len(self.shown) - 1)
        elif not self._picked and step > 0:
            row = table.cursor_row
        else:
            row = (table.cursor_row + step) % len(self.shown)
        self._picked = True
        table.move_cursor(row=row, animate=False)
        # n / p emphasise and scroll the text but leave focus and view where the user has them
        self.post_message(self.Picked(self._row(table.cursor_row), jump=False))
        return True

    def action_toggle_sort(self) -> None:
        self.by_impact = not self.by_impact
        self.refill()

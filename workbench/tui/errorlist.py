"""The error list of the current document, with the category x type counts beside it.

Why its columns are measured: the three text columns (mention, antecedent, best key antecedent)
share what the fixed ones (category, type, cost, impact) leave, so at 100 columns every column is
on screen, shortened with an ellipsis, instead of the last three scrolling out of sight.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Select, Static

from metrics.errors.chen_ng.records import CATEGORIES, Category, ErrorRecord, count_errors, shown_types
from metrics.model import MentionType

from ..output import IMPACT_UNIT, impact_text
from .cells import ListTable, next_row, type_text
from ..comparison import CHANGES, Change
from .rows import display_text, filter_errors

FIXED = (("cat", 4), ("type", 4), ("cost", 5), ("impact", 9))
"""Columns of a fixed width (`impact`: `+0.000812`)."""
COMPARE_FIXED = (("chg", 4), ("A", 4), ("B", 4), ("type", 4), ("cost", 5), ("impact", 10))
"""Compare mode: the change, the category under the baseline (A) and the compared system (B); the
impact says whose error it prices (`A+0.000812`)."""
COMPACT_FIXED = (("chg", 4), ("A", 4), ("B", 4), ("type", 4), ("impact", 10))
"""Compare mode in a narrow list (`COMPACT_BELOW`): no cost column."""
COMPACT_TEXT = (("mention", 0.6), ("antecedent", 0.4))
"""Compare mode in a narrow list: the mention and its antecedent share the rest (the best key
antecedent is the one the text underlines in bold when the row is picked)."""
COMPACT_BELOW = 100
"""Compare mode: a list narrower than this (100 columns of terminal) takes the compact columns, or
its mention column would be ten cells (`23 Januar…`)."""
CHANGE_LABELS = {"fixed": "fix", "introduced": "new", "changed": "chg", "same": "="}
TEXT = (("mention", 0.4), ("antecedent", 0.3), ("best key antecedent", 0.3))
SHORTER = {"antecedent": ("antec.", "ant."), "best key antecedent": ("best antecedent", "best ant.", "best")}
"""Headers for narrow columns, longest first: a header is never cut."""
"""Columns sharing the rest, by these fractions."""
PADDING = 1
"""Cells on each side of a cell (DataTable's cell_padding)."""
SCROLLBAR = 1


def column_widths(width: int, columns: tuple[tuple[str, int], ...] = FIXED,
                  text: tuple[tuple[str, float], ...] = TEXT) -> dict[str, int]:
    """The width of every column of an error table `width` cells wide (scrollbar reserved): the
    fixed `columns`, then the `text` columns sharing the rest by their fractions."""
    fixed = sum(w for _, w in columns)
    padding = 2 * PADDING * (len(columns) + len(text))
    rest = max(3 * 8, width - SCROLLBAR - fixed - padding)
    widths = {name: w for name, w in columns}
    for name, share in text:
        widths[name] = max(8, int(rest * share))
    return widths


COUNTS_WIDTH = 22
"""Columns of the counts box with the N, M, P columns (workbench.tcss sets the same)."""


class ErrorPanel(Horizontal):
    """The errors of the current document, filterable, sortable; category x type counts beside."""

    HELP = f"""\
One row per error: its category (see the legend), the mention's type (N/M/P) and words, the
response antecedent and the best key antecedent, the cost of a suboptimal link, and the impact
(the change of the corpus CoNLL F1, in {IMPACT_UNIT}, if that error alone were fixed: red when
negative, as fixing one error alone can lower a score; see the README).  Filter by
category and type in the boxes above; `i` toggles sorting by impact; Enter jumps to the
mention in the text; n / p go to the next / previous error from anywhere.
In compare mode a row is a mention with an error under the baseline (A), the compared
system (B) or both: chg says whether B fixed A's error (fix), introduced one (new), changed
its category (chg) or makes the same (=); A and B are the two categories.  The first box
filters by change (`c` cycles it); antecedents, cost and impact are B's (A's for a fix): the
impact's letter says whose (`A+0.0660`: fixing A's error alone).
In a list under 100 columns wide (a terminal of 100) the compare mode shows no best key
antecedent and no cost, so that the mention is readable (the text underlines the best
antecedent in bold when a row is picked).
The table beside counts per category A's errors B fixed and the errors B introduced, as
`corefwb compare` does; a mention whose category changed is in neither (its own line).
"""

    class Picked(Message):
        """The cursor is on an error (jump=False) or Enter was pressed on it (jump=True); in
        compare mode the row is a `comparison.Change`."""

        def __init__(self, panel: ErrorPanel, row: ErrorRecord | Change | None, jump: bool) -> None:
            super().__init__()
            self.panel = panel
            self.row = row
            self.jump = jump

        @property
        def control(self) -> ErrorPanel:
            """The list it came from (so that `@on(ErrorPanel.Picked, "#id")` can select it)."""
            return self.panel

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
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
        self._unfilled = False
        """Rows given before the table was laid out: filled at its first resize."""
        self.compare = False
        """Compare mode: rows are `comparison.Change`s, the change filter and columns shown."""
        self._spans: list[tuple[int, int]] = []
        self._spans_of: list | None = None
        """The list `_spans` was read off (`_shown_spans`)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="error-main"):
            with Horizontal(id="error-filters"):
                yield Select([(f"{CHANGE_LABELS[c]} {c}", c) for c in CHANGES], prompt="all changes",
                             id="error-change", compact=True)
                yield Select(
                    [(f"{c.short} {c.label}", c.value) for c in CATEGORIES],
                    prompt="all categories", id="error-category", compact=True,
                )
                yield Select([(f"{t.letter} {t.name}", t.name) for t in MentionType], prompt="all types", id="error-type", compact=True)
                yield Static("", id="error-sort")
            yield ListTable(id="errors", cursor_type="row", zebra_stripes=True, cell_padding=PADDING)
        yield Static("", id="error-counts")

    def on_mount(self) -> None:
        self.border_subtitle = f"impact: CoNLL F1 {IMPACT_UNIT} the fix alone changes, red: lowers · F1 legend"
        self._columns()

    def on_resize(self) -> None:
        cursor_span = self._cursor_span()
        if self._columns() or self._unfilled:
            self.refill(cursor_span=cursor_span)

    def _cursor_span(self):
        table = self.query_one("#errors", ListTable)
        return self.shown[table.cursor_row].mention.span if 0 <= table.cursor_row < len(self.shown) else None

    def set_compare(self) -> None:
        """Compare mode: the change filter and the columns of both categories."""
        if self.compare:
            return
        self.compare = True
        self.add_class("-compare")
        self.border_subtitle = f"impact: CoNLL F1 {IMPACT_UNIT} fixing A's / B's error alone changes · F1 legend"
        self._widths = None
        self._columns()

    def _columns(self) -> bool:
        """Size the columns to the table's width; True when they changed."""
        table = self.query_one("#errors", ListTable)
        width = table.size.width or 76
        if self.compare and width < COMPACT_BELOW:
            widths = column_widths(width, COMPACT_FIXED, COMPACT_TEXT)
        else:
            widths = column_widths(width, COMPARE_FIXED if self.compare else FIXED)
        if widths == self._widths:
            return False
        self._widths = widths
        table.clear(columns=True)
        first = ("chg", "A", "B") if self.compare else ("cat",)
        names = (*first, "type", "mention", "antecedent", "best key antecedent", "cost", "impact")
        for name in (name for name in names if name in widths):
            label = name.rjust(widths[name]) if name in ("cost", "impact") else name
            if name in SHORTER:  # never a cut word in a header (`best key a…`, `anteced…` at 100 columns)
                label = next((t for t in (name, *SHORTER[name]) if len(t) <= widths[name]), SHORTER[name][-1])
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

    def change_filter(self) -> str | None:
        """Compare mode: the change shown (fixed, introduced, changed, same), None for all."""
        value = self.query_one("#error-change", Select).value
        return value if self.compare and isinstance(value, str) else None

    def cycle_change(self) -> None:
        """`c`: the next change filter (all, fixed, introduced, changed, same, all ...)."""
        box = self.query_one("#error-change", Select)
        value = box.value if isinstance(box.value, str) else None
        following = (None, *CHANGES, None)[(None, *CHANGES).index(value) + 1]
        self.show_change(following)

    def show_change(self, change: str | None) -> None:
        """Show the errors of one change (None: all)."""
        box = self.query_one("#error-change", Select)
        if change is None:
            box.clear()
        else:
            box.value = change

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
        change = self.change_filter()
        rows = self.rows if change is None else [row for row in self.rows if row.kind == change]
        self.shown = filter_errors(rows, category, kind, self.by_impact)
        # Not laid out yet (the first screen): its columns are rebuilt for its real width when it
        # is, and the rows filled then, once (filling them now too cost the first frame 20 ms).
        self._unfilled = not table.size.width
        if self._unfilled:
            self.border_title = self._title()
            self._show_counts()
            return
        self._picked = self._picked and cursor_span is not None
        shown = self.shown
        table.set_lazy_rows(len(shown), lambda number: self._cells(shown[number]))  # built when drawn
        if cursor_span is not None:
            position = next((i for i, row in enumerate(self.shown) if row.mention.span == cursor_span), 0)
            table.move_cursor(row=position, animate=False)
        self.query_one("#error-sort", Static).update(Text("by impact" if self.by_impact else "in text order"))
        self.border_title = self._title()
        self._show_counts()

    def _cells(self, row: ErrorRecord | Change) -> list[Text]:
        """One row of the table (built when the row is first drawn)."""
        first = ([Text(CHANGE_LABELS[row.kind]), Text(row.a.category.short if row.a else "-"),
                  Text(row.b.category.short if row.b else "-")] if self.compare else [Text(row.category.short)])
        cells = [
            *first,
            type_text(self.app, row.mention.type),
            Text(display_text(row.mention.text), overflow="ellipsis", no_wrap=True),
            self._ref(row.antecedent),
        ]
        if self._widths is None or "cost" in self._widths:  # not in compare mode's compact columns
            cells += [self._ref(row.best_antecedent), Text("" if row.cost is None else f"{row.cost:.2f}", justify="right")]
        return [*cells, impact_cell(row.impact, ("A" if row.kind == "fixed" else "B") if self.compare else "")]

    def _ref(self, ref) -> Text:
        if ref is None:
            return Text("")
        text = type_text(self.app, ref.type)
        text.append(" ")
        text.append(display_text(ref.text))
        text.overflow, text.no_wrap = "ellipsis", True
        return text

    def _show_counts(self) -> None:
        if self.compare:
            self._show_change_counts()
            return
        counts = count_errors(self.shown)  # the filters apply to the counts too, as in `corefwb errors`
        kinds = shown_types(counts)
        text = Text("     " + " ".join(f"{t.letter:>4}" for t in kinds) + "\n", style="bold")
        for category in CATEGORIES:  # no count while there are none yet (a book's are being analysed), not 0
            numbers = " ".join(f"{counts[category][t]:>4}" for t in kinds) if self.state == "ready" else ""
            text.append(f"{category.short:<5}{numbers}\n")
        box = self.query_one("#error-counts", Static)
        wanted = COUNTS_WIDTH + 5 * (len(kinds) - 3)  # a ZERO column when zeros have errors
        if box.styles.width is None or box.styles.width.value != wanted:
            box.styles.width = wanted
            self.call_after_refresh(self.on_resize)  # the table is narrower: its columns follow
        box.update(text)

    def _show_change_counts(self) -> None:
        """Compare mode: per category, the baseline's errors the system fixed and those it
        introduced, as `corefwb compare` counts them (`comparison.summary`); the mentions whose
        error changed category are neither, and have their own line."""
        from ..comparison import summary

        counts = summary([(row.a, row.b) for row in self.rows])
        fixed, new = counts["fixed"], counts["introduced"]
        changed = sum(sum(by_type.values()) for by_type in counts["changed"].values())
        text = Text("      fixed  new\n", style="bold")
        for category in CATEGORIES:
            text.append(f"{category.short:<5}{sum(fixed[category].values()):>6} {sum(new[category].values()):>4}\n")
        text.append(f"~ changed  {changed:>5}" if changed else "")
        self.query_one("#error-counts", Static).update(text)

    @on(Select.Changed)
    def _filter(self, event: Select.Changed) -> None:
        event.stop()  # the list's own filters: what the user picks goes up as `Picked`
        self.refill()

    @on(ListTable.RowHighlighted, "#errors")
    def _highlighted(self, event: ListTable.RowHighlighted) -> None:
        event.stop()  # the list's own table: the row goes up as `Picked`
        """The text follows the cursor only while the user is in the list: a refill elsewhere
        (new document, impacts arriving) must not select an error by itself."""
        if not event.data_table.has_focus:
            return
        self._picked = True
        self.post_message(self.Picked(self, self._row(event.cursor_row), jump=False))

    @on(ListTable.RowSelected, "#errors")
    def _selected(self, event: ListTable.RowSelected) -> None:
        event.stop()
        self._picked = True
        self.post_message(self.Picked(self, self._row(event.cursor_row), jump=True))

    def _row(self, index: int) -> ErrorRecord | Change | None:
        return self.shown[index] if 0 <= index < len(self.shown) else None

    def move(self, step: int, from_token: int | None = None) -> bool:
        """Go to the next (step 1) or previous (-1) error; False when none is listed.

        `from_token`: the first token the text view shows, given when the user has scrolled the
        text away from the selected error: `n` then goes to the first error from there on (`p`
        to the last one before it), not back to where the cursor was."""
        table = self.query_one("#errors", ListTable)
        if not self.shown:
            return False
        row = next_row(self._shown_spans(), table.cursor_row, self._picked, step, from_token=from_token,
                       text_order=not self.by_impact)
        self._picked = True
        table.move_cursor(row=row, animate=False)
        # n / p emphasise and scroll the text but leave focus and view where the user has them
        self.post_message(self.Picked(self, self._row(table.cursor_row), jump=False))
        return True

    def _shown_spans(self) -> list[tuple[int, int]]:
        """The spans of the rows shown, listed once per list shown (a book's 52,000: 18 ms a key)."""
        if self._spans_of is not self.shown:
            self._spans, self._spans_of = [row.mention.span for row in self.shown], self.shown
        return self._spans

    def action_toggle_sort(self) -> None:
        self.by_impact = not self.by_impact
        self.refill()


def impact_cell(impact: float | None, whose: str = "") -> Text:
    """An error's impact, right-aligned; red when the fix alone lowers the score (it can: the
    README says when), so that a negative number is never read as a gain.  `whose`: compare
    mode's letter of the system whose error it prices (A for an error B fixed, else B)."""
    shown = impact_text(impact)
    return Text(whose + shown if shown else "", justify="right",
                style="red" if impact is not None and impact < 0 else "")

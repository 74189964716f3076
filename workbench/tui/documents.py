"""The documents list: every document with its CoNLL F1, MUC F1 and error count, filterable, sortable.

Why its columns are measured: a fixed `err` column cut `63` to `6` once the list grew a scrollbar.
Here the numeric columns are as wide as their widest cell (counts abbreviated visibly when even
that cannot fit, `cells.count_text`), the scrollbar is reserved, and the name takes what is left.
The list follows the document on screen (`show_current`), whichever way it was opened.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input

from metrics.measures.catalog import CONLL, MUC

from .cells import ListTable, count_text, pair_heads
from .documentrows import BROWSE_SORT_KEYS, COMPARE_SORT_KEYS, SORT_KEYS, DocumentRow, order_text, select_documents
from .rows import DELTA_WIDTH, LISTED_SCORE, SCORE_WIDTH, display_text, percent, short_name
from ..output import fitted_points

SCROLLBAR = 1
"""Cells the table's vertical scrollbar takes (`scrollbar-size-vertical` in workbench.tcss)."""
MAX_COUNT_WIDTH = 6
"""The error count column grows to this; larger counts are abbreviated (`123k`)."""


class DocumentList(Vertical):
    """Documents with their scores, worst first; a name filter above."""

    BINDINGS = [
        Binding("s", "cycle_sort", "Sort documents", id="documents.sort"),
        Binding("down", "into_list", "Into the list", show=False, id="documents.into_list"),
        Binding("enter", "open", "Open the document under the cursor", show=False, id="documents.open"),
    ]
    HELP = """\
The documents of the corpus with their CoNLL F1, MUC F1 and number of errors.
Sorted worst first; `s` cycles the sort key (CoNLL, MUC, errors, name).  Type in the box
above to filter by name (`/` goes there), Enter opens the first match, Down goes into the list.
Moving the cursor in the list, or Enter, opens the document under it; Home and End go to the first and last.
In compare mode: the baseline's and the compared system's CoNLL F1 and their difference
(ΔF), sorted by ΔF, largest loss first (`s`: by |ΔF|, by CoNLL F1, by name); `*` marks the
tenth of the documents where the two systems differ most.
"""

    class Chosen(Message):
        """The user opened document `index` here (moved the cursor onto it, or Enter in the filter or the list)."""

        def __init__(self, documents: DocumentList, index: int) -> None:
            super().__init__()
            self.documents = documents
            self.index = index

        @property
        def control(self) -> DocumentList:
            """The list it came from (so that `@on(DocumentList.Chosen, "#id")` can select it)."""
            return self.documents

    class Reordered(Message):
        """The list was refilled: its order or filter may have changed."""

        def __init__(self, documents: DocumentList) -> None:
            super().__init__()
            self.documents = documents

        @property
        def control(self) -> DocumentList:
            return self.documents

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[DocumentRow] = []
        self.sort_key = "conll"
        self.current = 0
        self._widths: tuple[int, int] | None = None
        self.systems: tuple[str, str] | None = None
        """Compare mode: the column labels of the baseline and the compared system."""
        self.listed = 0
        """How many documents the filter lets through (the status line says it while one is set)."""
        self.browsing = False
        """A key browsed alone (`browse`): nothing scored to sort by."""

    def compose(self) -> ComposeResult:
        yield Input(placeholder="filter documents", id="doc-filter")
        yield ListTable(id="documents", cursor_type="row", zebra_stripes=True, cell_padding=0)

    def set_rows(self, rows: list[DocumentRow]) -> None:
        self.rows = rows
        self.refill()

    def browse(self) -> None:
        """A key browsed alone: in the file's order (or by name), as the title and the status line
        say; sorted "by conll" with nothing scored, the status line named an order that was none."""
        self.browsing = True
        self.sort_key = BROWSE_SORT_KEYS[0]
        self.refill()

    def compare(self, baseline: str, system: str) -> None:
        """Compare mode: columns of the two systems and their difference, sorted by it."""
        if self.systems is None:
            self.sort_key = COMPARE_SORT_KEYS[0]
        if self.systems != (baseline, system):
            self.systems = (baseline, system)
            self._widths = None  # new headers

    def column_widths(self, shown: list[DocumentRow]) -> tuple[int, int]:
        """(name width, error count width) for the width this panel has now."""
        counts = [len(str(row.errors)) for row in shown if row.errors is not None]
        count_width = min(MAX_COUNT_WIDTH, max([3] + counts)) + 1  # a space before the number
        if self.systems is not None:  # compare mode: ΔF (` -1.25`, ` -32.07`: `fitted_points`) in the count's place
            count_width = DELTA_WIDTH  # two decimals, as the scores panel and `corefwb compare` (one cell of name)
        inner = self.content_region.width if self.content_region.width > 0 else 42
        name_width = max(8, inner - SCROLLBAR - 2 * SCORE_WIDTH - count_width)
        return name_width, count_width

    def _columns(self, table: ListTable, widths: tuple[int, int]) -> None:
        if widths == self._widths:
            return
        self._widths = widths
        name_width, count_width = widths
        table.clear(columns=True)
        table.add_column(" document", key="name", width=name_width)
        if self.systems is not None:  # A and B when a name is too long, the border naming them
            names, legend = pair_heads(*(display_text(name) for name in self.systems), SCORE_WIDTH - 1)
            self.border_subtitle = Text(legend)
            for place, name in zip(("baseline", "system"), names):
                table.add_column(Text(name.rjust(SCORE_WIDTH)), key=place, width=SCORE_WIDTH)
            table.add_column("ΔF".rjust(count_width), key="delta", width=count_width)
            return
        for metric in (CONLL, MUC):
            table.add_column(metric.label.rjust(SCORE_WIDTH), key=metric.name, width=SCORE_WIDTH)
        table.add_column("err".rjust(count_width), key="errors", width=count_width)

    def refill(self) -> None:
        table = self.query_one("#documents", ListTable)
        shown = select_documents(self.rows, self.query_one("#doc-filter", Input).value, self.sort_key)
        self.listed = len(shown)
        widths = self.column_widths(shown)
        self._columns(table, widths)
        table.clear()
        cursor = 0
        for position, row in enumerate(shown):
            table.add_row(*self._cells(row, widths), key=str(row.index))
            if row.index == self.current:
                cursor = position
        if shown:
            table.move_cursor(row=cursor, animate=False, scroll=True)
            self.call_after_refresh(self._scroll_to_cursor)
        # compare mode's columns are headed by the systems' names: the title names their score
        scored = f", {LISTED_SCORE}," if self.systems is not None else ""
        self.border_title = (f"documents ({len(shown)}/{len(self.rows)}){scored} "
                             f"{order_text(self.sort_key)}")
        self.post_message(self.Reordered(self))  # the status line's place follows the order

    def _cells(self, row: DocumentRow, widths: tuple[int, int]) -> list[Text]:
        """A row's cells: name, CoNLL, MUC, errors; in compare mode the mark `*` before the name,
        the baseline's and the system's CoNLL F1 and the change."""
        if self.systems is None:
            return [Text(" " + display_text(short_name(row.name)), overflow="ellipsis", no_wrap=True),
                    Text(percent(row.f1(CONLL.name)) if row.scores else "", justify="right"),
                    Text(percent(row.f1(MUC.name)) if row.scores else "", justify="right"),
                    Text(count_text(row.errors, widths[1] - 1), justify="right")]
        base = row.baseline.get("conll")
        return [Text(("*" if row.marked else " ") + display_text(short_name(row.name)), overflow="ellipsis", no_wrap=True),
                Text(percent(base.f1) if base is not None else "", justify="right"),
                Text(percent(row.f1("conll")) if row.scores else "", justify="right"),
                Text(fitted_points(row.delta, widths[1]) if row.delta is not None else "", justify="right")]

    def _scroll_to_cursor(self) -> None:
        """After a refill the rows are measured on the next frame: bring the cursor into view then."""
        table = self.query_one("#documents", ListTable)
        if table.row_count:
            table.move_cursor(row=table.cursor_row, animate=False, scroll=True)

    def show_current(self, index: int) -> None:
        """Put the cursor on document `index` (opened some other way: `/`, `]`, the palette),
        without opening it again."""
        self.current = index
        table = self.query_one("#documents", ListTable)
        if str(index) in table.rows:  # not when the filter hides it
            table.move_cursor(row=table.get_row_index(str(index)), animate=False, scroll=True)

    def on_resize(self) -> None:
        if self.rows and self.column_widths(self.rows) != self._widths:
            self.refill()

    @on(Input.Changed, "#doc-filter")
    def _filter(self, event: Input.Changed) -> None:
        event.stop()  # the list's own box: what it means goes up as `Chosen` and `Reordered`
        self.refill()

    @on(ListTable.RowHighlighted, "#documents")
    def _highlighted(self, event: ListTable.RowHighlighted) -> None:
        """Only the user moving the cursor opens a document, never a refill (filter, sort)."""
        event.stop()
        if not event.data_table.has_focus or event.row_key.value is None:
            return
        self._choose(int(event.row_key.value))

    @on(ListTable.RowSelected, "#documents")
    def _selected(self, event: ListTable.RowSelected) -> None:
        """Enter (or a click) on a row opens it: in a list filtered to one row, up and down cannot."""
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        table = self.query_one("#documents", ListTable)
        if table.row_count and table.has_focus:
            self._choose(int(table.coordinate_to_cell_key((table.cursor_row, 0)).row_key.value))

    @on(Input.Submitted, "#doc-filter")
    def _open_first(self, event: Input.Submitted) -> None:
        """Enter in the filter opens the first document listed."""
        event.stop()
        table = self.query_one("#documents", ListTable)
        if table.row_count:
            self._choose(int(table.coordinate_to_cell_key((0, 0)).row_key.value))
            table.focus()

    def _choose(self, index: int) -> None:
        if index != self.current:
            self.current = index
            self.post_message(self.Chosen(self, index))

    def order(self) -> list[int]:
        """Every document (the filter aside) in the list's order: the order ctrl+down follows."""
        return [row.index for row in select_documents(self.rows, "", self.sort_key)]

    def position(self, index: int) -> str:
        """`3/108 by conll`: a document's place in that order, and the order's name."""
        order = self.order()
        if index not in order:
            return f"{index + 1}/{max(len(self.rows), index + 1)}"
        return f"{order.index(index) + 1}/{len(order)} {order_text(self.sort_key)}"

    def action_into_list(self) -> None:
        """Down in the filter box: into the list, its cursor on the open document (the list's
        own Down moves the cursor; this binding is reached from the box only)."""
        table = self.query_one("#documents", ListTable)
        if table.row_count:
            table.focus()

    def action_cycle_sort(self) -> None:
        keys = BROWSE_SORT_KEYS if self.browsing else SORT_KEYS if self.systems is None else COMPARE_SORT_KEYS
        self.sort_key = keys[(keys.index(self.sort_key) + 1) % len(keys)] if self.sort_key in keys else keys[0]
        self.refill()

"""An error list that is a table of records beside a counts box: what the entity-error list
(Kummerfeld & Klein, `entityerrors`) and the UA relations' list (`relationerrors`) share.

Why one base: both lists take a document's records (None while analysing), draw only the rows on
screen, keep their column widths to the panel, pass a row up as `Picked` when the cursor is on it
or Enter is pressed, and move with n / p.  What differs is data: the ids of their widgets, their
title, their columns, a row's cells, the counts box, and the span a row is at.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Static

from .cells import ListTable, next_row
from .errorlist import PADDING, column_widths

Row = TypeVar("Row")


class RecordListPanel(Horizontal, Generic[Row]):
    """A table of one document's records and a box of their counts (see the module docstring).
    A subclass sets the class variables and defines `_cells`, `counts_text`, `row_span`."""

    PREFIX: ClassVar[str] = ""
    """Names the widgets: `#{PREFIX}-errors` (the table), `#{PREFIX}-counts`, `#{PREFIX}-main`."""
    TITLE: ClassVar[str] = ""
    """The border's title ("entity errors"), with the state or the number of rows after it."""
    SUBTITLE: ClassVar[str] = ""
    FIXED: ClassVar[Sequence[tuple[str, int]]] = ()
    """The columns of fixed width (name, cells)."""
    TEXT: ClassVar[Sequence[tuple[str, float]]] = ()
    """The columns sharing the rest (name, share)."""
    TEXT_ORDER: ClassVar[bool] = True
    """Whether the rows are in text order (n / p go by the cursor), else by type then position."""

    class Picked(Message):
        """The cursor is on a record (jump=False) or Enter was pressed on it (jump=True)."""

        def __init__(self, panel: RecordListPanel, row: object | None, jump: bool) -> None:
            super().__init__()
            self.panel = panel
            self.row = row
            self.jump = jump

        @property
        def control(self) -> RecordListPanel:
            """The list it came from (so that `@on(Panel.Picked, "#id")` can select it)."""
            return self.panel

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.rows: list[Row] = []
        self.state = "analysing"
        self._widths: dict[str, int] | None = None
        self._picked = False
        self._counts: list[tuple[str, list[Row]]] = []

    if TYPE_CHECKING:  # what each subclass defines (the base has no row of its own to draw)
        def _cells(self, row: Row) -> list[Text]:
            """A row's cells, one per column."""

        def counts_text(self, systems: list[tuple[str, list[Row]]]) -> Text:
            """The counts box: (system label, its records) per system shown."""

        def row_span(self, row: Row) -> tuple[int, int]:
            """The span n / p go to for a row."""

    # ------------------------------------------------------------------ the list
    def compose(self) -> ComposeResult:
        with Vertical(id=f"{self.PREFIX}-main"):
            yield ListTable(id=f"{self.PREFIX}-errors", cursor_type="row", zebra_stripes=True, cell_padding=PADDING)
        yield Static("", id=f"{self.PREFIX}-counts")

    @property
    def table(self) -> ListTable:
        return self.query_one(f"#{self.PREFIX}-errors", ListTable)

    def on_mount(self) -> None:
        self.border_subtitle = self.SUBTITLE
        self._columns()

    def on_resize(self) -> None:
        """New widths, or rows set while the list was hidden (its table had no width, so none
        were entered: `t` back to a list showed it empty under its count): filled again."""
        if self._columns() or self.table.row_count != len(self.rows):
            self.refill()

    def _columns(self) -> bool:
        table = self.table
        widths = column_widths(table.size.width or 76, self.FIXED, self.TEXT)
        if widths == self._widths:
            return False
        self._widths = widths
        table.clear(columns=True)
        for name, width in widths.items():
            table.add_column(Text(name, overflow="ellipsis", no_wrap=True), width=width)
        return True

    def set_rows(self, rows: list[Row] | None, counts: list[tuple[str, list[Row]]] | None = None,
                 state: str = "ready") -> None:
        """This document's records (None while analysing); `counts`: (system label, its records of
        this document) per system shown, for the counts box."""
        self.state = state if rows is None else "ready"
        self.rows = rows or []
        self._counts = counts or ([("", self.rows)] if rows is not None else [])
        self._picked = False
        self.refill()

    def refill(self) -> None:
        table = self.table
        rows = self.rows
        if table.size.width:
            table.set_lazy_rows(len(rows), lambda number: self._cells(rows[number]))  # built when drawn
        else:
            table.clear()
        self.border_title = {"analysing": f"{self.TITLE} (analysing ...)",
                             "failed": f"{self.TITLE} (not available)"}.get(
            self.state, f"{self.TITLE}{' of B' if len(self._counts) > 1 else ''} ({len(self.rows)})")
        self.query_one(f"#{self.PREFIX}-counts", Static).update(self.counts_text(self._counts))

    @on(ListTable.RowHighlighted)
    def _highlighted(self, event: ListTable.RowHighlighted) -> None:
        event.stop()  # the list's own table: the row goes up as `Picked`
        if not event.data_table.has_focus:
            return
        self._picked = True
        self.post_message(self.Picked(self, self._row(event.cursor_row), jump=False))

    @on(ListTable.RowSelected)
    def _selected(self, event: ListTable.RowSelected) -> None:
        event.stop()
        self._picked = True
        self.post_message(self.Picked(self, self._row(event.cursor_row), jump=True))

    def _row(self, index: int) -> Row | None:
        return self.rows[index] if 0 <= index < len(self.rows) else None

    def row_spans(self) -> list[tuple[int, int]]:
        """Each row's span, for n / p (a subclass with its rows as arrays reads them there)."""
        return [self.row_span(r) for r in self.rows]

    def filters(self) -> tuple[None, None]:
        """No category or type filter here (the counts box shows every type)."""
        return None, None

    def move(self, step: int, from_token: int | None = None) -> bool:
        """n / p: the next or previous record, as the per-mention list does."""
        table = self.table
        if not self.rows:
            return False
        row = next_row(self.row_spans(), table.cursor_row, self._picked, step,
                       from_token=from_token, text_order=self.TEXT_ORDER)
        self._picked = True
        table.move_cursor(row=row, animate=False)
        self.post_message(self.Picked(self, self._row(table.cursor_row), jump=False))
        return True

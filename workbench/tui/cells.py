"""Cells the panels share: a mention type as a coloured letter, and counts that never lose a digit.

Why here: the documents list, the error list and the chains view all show types and counts; one
definition keeps their look (and their NO_COLOR meaning: the letter) the same everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.geometry import Size
from textual.widgets import DataTable
from textual.widgets.data_table import RowKey

from metrics.model import MentionType

TYPE_STYLE = {MentionType.NAME: "name", MentionType.NOMINAL: "nominal", MentionType.PRONOUN: "pronoun"}


def type_colour(app: Any, kind: MentionType) -> str:
    """The current theme's colour of a mention type (theme variables `type-name` etc.)."""
    return app.theme_variables.get(f"type-{TYPE_STYLE[kind]}", "")


def type_text(app: Any, kind: MentionType, text: str = "") -> Text:
    """A mention type as a letter (meaning without colour) coloured by the theme's type colour."""
    return Text(kind.letter + (" " + text if text else ""), style=f"bold {type_colour(app, kind)}")


def count_text(count: int | None, width: int) -> str:
    """A count in at most `width` cells: in full when it fits, else visibly abbreviated (`1.2k`,
    `12k`, `3.4M`), never with digits cut off; empty for None (not known yet)."""
    if count is None:
        return ""
    full = str(count)
    if len(full) <= width:
        return full
    for unit, size in (("k", 1_000), ("M", 1_000_000), ("G", 1_000_000_000)):
        value = abs(count) / size
        if round(value, 1) < 1:
            break
        for decimals in (1, 0):
            number = f"{value:.{decimals}f}"
            text = ("-" if count < 0 else "") + number.removesuffix(".0") + unit
            if len(text) <= width:
                return text
    return "#" * width  # more than the column can say even abbreviated: never a wrong number


class ListTable(DataTable):
    """A row-cursor table where Home and End go to the first and last row (DataTable's own Home
    and End scroll sideways, which a list of rows never needs)."""

    BINDINGS = [
        Binding("home", "first_row", "First row", show=False, id="list.first"),
        Binding("end", "last_row", "Last row", show=False, id="list.last"),
    ]

    def action_first_row(self) -> None:
        if self.row_count:
            self.move_cursor(row=0)

    def action_last_row(self) -> None:
        if self.row_count:
            self.move_cursor(row=self.row_count - 1)

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        """DataTable measures every cell of new rows, to size auto-width columns and tall rows.
        The workbench's lists have neither: every column has a width and every row one line, so
        the measuring is skipped (on a long document's 392 errors, a third of filling the list).
        What the measuring would not change is set as DataTable sets it: the scrollable size.
        (The textual version is pinned: this replaces a private method of DataTable 8.2.8, and
        a test draws a ListTable beside a DataTable.)"""
        if any(column.auto_width for column in self.columns.values()) or any(
                row.auto_height or row.label is not None or row.height != 1 for row in self.rows.values()):
            super()._update_dimensions(new_rows)
            return
        width = sum(column.get_render_width(self) for column in self.columns.values())
        header_height = self.header_height if self.show_header else 0
        self.virtual_size = Size(width + self._row_label_column_width, self._total_row_height + header_height)

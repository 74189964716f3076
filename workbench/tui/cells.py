"""Cells the panels share: a mention type as a coloured letter, and counts that never lose a digit.

Why here: the documents list, the error list and the chains view all show types and counts; one
definition keeps their look (and their NO_COLOR meaning: the letter) the same everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import zip_longest

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.segment import Segment
from rich.style import Style
from rich.text import DEFAULT_JUSTIFY, DEFAULT_OVERFLOW, Text
from textual.app import App
from textual.binding import Binding
from textual.geometry import Size
from textual.widgets import DataTable
from textual._two_way_dict import TwoWayDict
from textual.widgets.data_table import Row, RowKey

from metrics.model import MentionType

TYPE_STYLE = {MentionType.NAME: "name", MentionType.NOMINAL: "nominal", MentionType.PRONOUN: "pronoun",
              MentionType.ZERO: "zero"}


def type_colour(app: App, kind: MentionType) -> str:
    """The current theme's colour of a mention type (theme variables `type-name` etc.)."""
    return app.theme_variables.get(f"type-{TYPE_STYLE[kind]}", "")


def type_text(app: App, kind: MentionType, text: str = "") -> Text:
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


def fitted_names(names: Sequence[str], width: int) -> list[str]:
    """Systems' names in `width` cells each, for column headers: whole when they fit, else cut
    at the end (`ontonotes` -> `onton`), or, when that makes two alike, their ends after `…`
    (`response-a`, `response-b` -> `…se-a`, `…se-b`)."""
    heads = [name[:width] for name in names]
    if len(set(heads)) == len(set(names)):
        return heads
    return [name if len(name) <= width else "…" + name[len(name) - width + 1:] for name in names]


def pair_heads(baseline: str, system: str, width: int) -> tuple[tuple[str, str], str]:
    """Heads of the baseline's and the compared system's columns, `width` cells each: their names
    when both fit, else A and B, as the error list calls them, with the legend that names them
    (`A gum · B ontonotes`, for a border), never a name cut (`onton`)."""
    if cell_len(baseline) <= width and cell_len(system) <= width:
        return (baseline, system), ""
    return ("A", "B"), f"A {baseline} · B {system}"


class FastTable(DataTable):
    """A DataTable whose plain one-line cells are drawn without Rich's general layout machinery.

    Why: every list and the scores panel are DataTables, and a switch of document or system
    redraws all their visible cells (about 230 on an F9 switch at 160x48, 170 on the first
    screen).  DataTable draws a cell by laying out `Styled(Padding(cell))` through
    `Console.render_lines`, about 80 microseconds a cell.  For a `Text` on one line (no newline,
    tab or wrapping: the workbench's cells) the same segments come from the Text's own `wrap` and
    `render`, cropped and padded, and styled as `Styled` styles them, in about half the time.
    Anything else is drawn by DataTable itself.  (The textual version is pinned: this replaces
    private methods of DataTable 8.2.8; tests draw random cells both ways and compare segments.)"""

    def _render_cell(self, row_index: int, column_index: int, base_style: Style, width: int, *,
                     cursor: bool = False, hover: bool = False) -> list[list[Segment]]:
        # cursor and hover keyword-only: DataTable 8.2.8 passes them so at every call
        if row_index < 0 or column_index < 0 or self.fixed_rows or self.fixed_columns:
            return super()._render_cell(row_index, column_index, base_style, width, cursor=cursor, hover=hover)
        row_key = self._row_locations.get_key(row_index)
        column_key = self._column_locations.get_key(column_index)
        cache_key = (row_key, column_key, base_style, cursor, hover, self._show_hover_cursor, self._update_count,
                     self._pseudo_class_state)  # as DataTable keys its cache
        lines = self._cell_render_cache.get(cache_key)
        if lines is not None:
            return lines
        row = self.rows[row_key]
        cell = self._get_row_renderables(row_index).cells[column_index]
        inner = width - 2 * self.cell_padding
        if (row.height != 1 or row.auto_height or type(cell) is not Text or cell.no_wrap is False
                or cell.end != "\n" or inner < 1 or "\n" in cell.plain or "\t" in cell.plain):
            return super()._render_cell(row_index, column_index, base_style, width, cursor=cursor, hover=hover)
        component_style, post_style = self._get_styles_to_render_cell(
            False, False, False, hover, cursor, self.show_cursor, self._show_hover_cursor,
            self.cursor_foreground_priority == "css", self.cursor_background_priority == "css")
        pre_style = base_style + Style.from_meta({"row": row_index, "column": column_index}) + component_style
        lines = [one_line(self.app.console, self.app.console_options, cell, inner, padding=self.cell_padding,
                          pre_style=pre_style, post_style=post_style)]
        self._cell_render_cache[cache_key] = lines
        return lines

    def set_lazy_rows(self, count: int, cells_of: Callable[[int], Sequence[Text]]) -> None:
        """Replace the rows by `count` one-line rows keyed `"0"`, `"1"`, ..., whose cells
        `cells_of(i)` gives when row `i` is first drawn or read.

        Why: a book's error list has tens of thousands of rows; `add_row` builds every cell and
        updates the table once per row (seconds), where only the fifty rows on screen are ever
        drawn.  The rows are entered into DataTable's own structures at once, as `add_row`
        enters them one by one (the version is pinned; a test compares with `add_row`).

        The same number of lazy rows again (their impacts priced, the errors of new weights): only
        the cells' source and the drawings are replaced; the rows, their order and their offsets,
        which cost a book's list a second each time, stay."""
        if isinstance(self._data, LazyCells) and self._data.count == count == self.row_count:
            self._data = LazyCells(self, count, cells_of, self._data.ordered)
            for cache in (self._row_render_cache, self._cell_render_cache, self._row_renderable_cache,
                          self._line_cache):
                cache.clear()
            self.refresh()
            return
        self.clear()
        keys = row_keys(count)
        self._row_locations = TwoWayDict(dict(zip(keys, range(count))))
        rows = [Row(key, 1, None, False) for key in keys]
        self.rows.update(zip(keys, rows))
        # kept with the cells: the rows in screen order, as DataTable's `ordered_rows` would sort
        # them out of the keys again (three times for the cursor's first highlight: 0.2 s on a
        # book's list, and again after each resize)
        self._data = LazyCells(self, count, cells_of, rows)
        self._new_rows.update(keys)
        self._require_update_dimensions = True
        self._update_count += 1
        self.cursor_coordinate = self.cursor_coordinate
        if count and self.columns and self.show_cursor and self.cursor_type != "none":
            self._highlight_cursor()
        self.check_idle()

    def clear(self, columns: bool = False):
        self._data = {}  # rows added one by one again (lazy ones are gone)
        return super().clear(columns)

    @property
    def ordered_rows(self) -> list[Row]:
        """The rows in screen order: of lazy rows, the list `set_lazy_rows` made.

        Why not DataTable's: it keeps the list under its count of updates, which a resize bumps,
        so an error list hidden and shown again (`t` there and back) sorted a book's 52,000 rows
        out of their keys again at the next `n`, and listed their line offsets again
        (`_y_offsets`) at the next frame: 0.15 s on the UI thread."""
        if isinstance(self._data, LazyCells) and len(self._data.ordered) == self.row_count:
            return self._data.ordered
        return super().ordered_rows

    @property
    def _y_offsets(self) -> Sequence[tuple[RowKey, int]]:
        """Each line's row and line within it: of lazy rows (one line each), read off their list."""
        if isinstance(self._data, LazyCells) and len(self._data.ordered) == self.row_count:
            return OneLineOffsets(self._data.ordered)
        return super()._y_offsets

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        """DataTable measures every cell of new rows, to size auto-width columns and tall rows.
        The workbench's tables have neither: every column has a width and every row one line, so
        the measuring is skipped (on a long document's 392 errors, a third of filling the list).
        What the measuring would not change is set as DataTable sets it: the scrollable size.
        (A test draws a FastTable beside a DataTable.)"""
        lazy = isinstance(self._data, LazyCells)  # `set_lazy_rows` rows: one line, no label (no need to look)
        if any(column.auto_width for column in self.columns.values()) or not lazy and any(
                row.auto_height or row.label is not None or row.height != 1 for row in self.rows.values()):
            super()._update_dimensions(new_rows)
            return
        width = sum(column.get_render_width(self) for column in self.columns.values())
        header_height = self.header_height if self.show_header else 0
        self.virtual_size = Size(width + self._row_label_column_width, self._total_row_height + header_height)


_ROW_KEYS: list[RowKey] = []
"""Lazy rows' keys `"0"`, `"1"`, ..., made once for every table (a book's 52,000 took 0.2 s)."""


def row_keys(count: int) -> list[RowKey]:
    """The keys of `count` lazy rows (`FastTable.set_lazy_rows`)."""
    if len(_ROW_KEYS) < count:
        _ROW_KEYS.extend(RowKey(str(index)) for index in range(len(_ROW_KEYS), count))
    return _ROW_KEYS[:count]


class LazyCells(dict):
    """DataTable's cell data (`_data`: row key -> column key -> cell) of rows given by
    `FastTable.set_lazy_rows`: a row's cells are built when first looked up; its length is the
    number of rows, as DataTable reads it."""

    def __init__(self, table: FastTable, count: int, cells_of: Callable[[int], Sequence[Text]],
                 ordered: list[Row]) -> None:
        super().__init__()
        self.table, self.count, self.cells_of = table, count, cells_of
        self.ordered = ordered
        """The rows in screen order (`FastTable.ordered_rows`)."""

    def __len__(self) -> int:
        return self.count

    def __missing__(self, row_key: RowKey) -> dict:
        index = self.table._row_locations.get(row_key)
        if index is None:
            raise KeyError(row_key)
        cells = self.cells_of(index)
        row = self[row_key] = {column.key: cell for column, cell in zip_longest(self.table.ordered_columns, cells)}
        return row

    def get(self, row_key, default=None):
        try:
            return self[row_key]
        except KeyError:
            return default


class OneLineOffsets(Sequence):
    """DataTable's `_y_offsets` (each line's row key and line within the row) of rows one line
    each: line y is row y's first, read off the rows when asked rather than listed (a book's
    error list: 52,000 pairs, 55 ms at its first frame and after each resize)."""

    def __init__(self, rows: list[Row]) -> None:
        self._rows = rows

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, line):
        if isinstance(line, slice):
            return [(row.key, 0) for row in self._rows[line]]
        return self._rows[line].key, 0

    def clear(self) -> None:
        """DataTable's `clear` empties its list in place; the rows are dropped with the cells."""


def one_line(console: Console, options: ConsoleOptions, text: Text, inner: int, *, padding: int, pre_style: Style,
             post_style: Style) -> list[Segment]:
    """The segments DataTable draws for `text` in a cell `inner` cells wide plus `padding` each
    side: what `Console.render_lines(Styled(Padding(text, (0, padding)), pre_style, post_style))`
    gives on one line with no wrapping, made by the same Rich calls without the layers between."""
    justify = text.justify or options.justify or DEFAULT_JUSTIFY
    overflow = text.overflow or options.overflow or DEFAULT_OVERFLOW
    wrapped = text.wrap(console, inner, justify=justify, overflow=overflow, no_wrap=True)
    segments = Text("\n").join(wrapped).render(console, end=text.end)
    blank = Style.null()  # Padding's own style, "none"
    line = next(Segment.split_and_crop_lines(segments, inner, pad=True, style=blank, include_new_lines=False))
    if padding:
        side = Segment(" " * padding, blank)
        line = [side, *line, side]
    return list(Segment.apply_style(line, style=pre_style, post_style=post_style))


class ListTable(FastTable):
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


def next_row(spans: Sequence[tuple[int, int]], cursor: int, picked: bool, step: int, *, from_token: int | None = None,
             text_order: bool = True) -> int:
    """Where `n` (step 1) or `p` (-1) goes in an error list whose rows are at these spans.

    From the cursor, wrapping around; before the user has picked a row, `n` takes the cursor's
    own row.  `from_token` (the user paged the text away from the selection): the first row from
    that token on (`p`: the last one before it), in text order even when the list is sorted
    otherwise (`text_order` False)."""
    if from_token is not None:
        after = [i for i, span in enumerate(spans) if span[0] >= from_token]
        before = [i for i, span in enumerate(spans) if span[0] < from_token]
        if not text_order:
            after.sort(key=lambda i: spans[i])
            before.sort(key=lambda i: spans[i])
        return (after[0] if after else 0) if step > 0 else (before[-1] if before else len(spans) - 1)
    if not picked and step > 0:
        return cursor
    return (cursor + step) % len(spans)

"""`FastTable` (workbench/tui/cells.py) draws exactly what DataTable draws: it replaces two private
methods of DataTable for speed (measuring new rows, drawing a one-line cell), so every drawn
segment, its text and its style (colours, attributes, the row and column a click reports), is
compared with DataTable's own on the same cells."""

from __future__ import annotations

import random

from app_support import pilot_test
from rich.style import Style
from rich.text import Text
from textual.app import App
from textual.widgets import DataTable

from workbench.tui.cells import FastTable, ListTable

WORDS = ["", "a", "document", "GUM_academic_art", "12.34", "-0.5", "語彙の分析", "naïve café", "e\u0301t\u00e9",
         "🙂 ok", "    spaced  ", "x" * 40, "[bold]not markup[/]", "…", "N", "M P"]
STYLES = ["", "bold", "italic red", "bold #ff8800", "reverse", "dim on blue", "underline green"]


def random_text(rng: random.Random) -> Text:
    """A cell as the workbench makes them and beyond: any justify, overflow, style and spans."""
    plain = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 3)))
    text = Text(plain, style=rng.choice(STYLES), justify=rng.choice([None, "left", "right", "center", "full"]),
                overflow=rng.choice([None, "ellipsis", "crop", "fold"]), no_wrap=rng.choice([None, True, False]))
    if plain and rng.random() < 0.4:
        start = rng.randrange(len(plain))
        text.stylize(rng.choice(STYLES[1:]), start, rng.randint(start, len(plain)))
    return text


class Tables(App):
    def compose(self):
        yield FastTable(id="fast", cursor_type="row", zebra_stripes=True)
        yield DataTable(id="data", cursor_type="row", zebra_stripes=True)


@pilot_test
async def test_fast_cells_are_the_segments_a_data_table_draws():
    """Random cells, widths, paddings, cursor and hover states: each cell's lines from both tables
    must be equal segment by segment (a fallback to DataTable's drawing counts too: the cells with
    wrapping or a newline go there)."""
    rng = random.Random(2026)
    app = Tables()
    async with app.run_test(size=(120, 40)) as pilot:
        fast, data = app.query_one("#fast", FastTable), app.query_one("#data", DataTable)
        app.set_focus(None)  # both drawn unfocused (the focused table's cursor has another style)
        compared = drawn_fast = 0
        for round_ in range(60):
            padding = rng.choice([0, 1, 2])
            widths = [rng.randint(1, 24) for _ in range(rng.randint(1, 5))]
            rows = [[random_text(rng) for _ in widths] for _ in range(12)]
            if round_ % 5 == 0:
                rows[0][0] = Text("two\nlines")
            for table in (fast, data):
                table.clear(columns=True)
                table.cell_padding = padding
                for number, width in enumerate(widths):
                    table.add_column(f"c{number}", width=width)
                for row in rows:
                    table.add_row(*[text.copy() for text in row])
            await pilot.pause()
            for row in range(len(rows)):
                for column, width in enumerate(widths):
                    base = Style.parse(rng.choice(STYLES[1:]))
                    cursor, hover = rng.random() < 0.2, rng.random() < 0.2
                    render_width = width + 2 * padding
                    ours = fast._render_cell(row, column, base, render_width, cursor=cursor, hover=hover)
                    theirs = DataTable._render_cell(data, row, column, base, render_width, cursor, hover)
                    assert _segments(ours) == _segments(theirs), (rows[row][column], width, padding)
                    compared += 1
                    text = rows[row][column]
                    drawn_fast += "\n" not in text.plain and text.no_wrap is not False and width >= 1
        assert compared > 1500 and drawn_fast > compared // 2  # the fast path was really taken


def _segments(lines) -> list[list[tuple]]:
    """Lines as comparable values: text, the style's attributes and its meta (row and column)."""
    return [[(segment.text, segment.style, segment.style.meta if segment.style else None, segment.control)
             for segment in line] for line in lines]


@pilot_test
async def test_list_tables_skip_measuring_and_draw_as_a_data_table_does():
    """`ListTable` skips DataTable's measuring of every cell (all its columns have widths): the
    scrollable size and every drawn line must be DataTable's own."""

    class Lists(App):
        def compose(self):
            yield ListTable(id="list")
            yield DataTable(id="data")

    app = Lists()
    async with app.run_test(size=(60, 40)) as pilot:
        for table in (app.query_one("#list"), app.query_one("#data")):
            table.styles.height = 15
            table.add_column("name", width=12)
            table.add_column("score", width=6)
            for i in range(30):
                table.add_row(Text(f"document number {i}", overflow="ellipsis", no_wrap=True),
                              Text(f"{i * 3.5:.1f}", justify="right"))
        await pilot.pause()
        ours, theirs = app.query_one("#list"), app.query_one("#data")
        assert ours.virtual_size == theirs.virtual_size
        assert [strip.text for strip in ours.render_lines(ours.region.reset_offset)] == \
               [strip.text for strip in theirs.render_lines(theirs.region.reset_offset)]


@pilot_test
async def test_lazy_rows_are_the_rows_add_row_makes_built_only_when_drawn():
    """`set_lazy_rows` (a book's error list: tens of thousands of rows) enters its rows into the
    table at once and builds a row's cells only when it is drawn or read: the table must be the
    one `add_row` makes (size, lines drawn, cursor moves and the row highlighted), and the rows
    never drawn never built."""

    class Lists(App):
        highlighted: list[tuple[str, int]] = []

        def compose(self):
            yield ListTable(id="lazy", cursor_type="row")
            yield ListTable(id="eager", cursor_type="row")

        def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
            self.highlighted.append((event.data_table.id, event.cursor_row))

    def cells(index: int) -> list[Text]:
        built.append(index)
        return [Text(f"error {index}", overflow="ellipsis", no_wrap=True), Text(f"{index / 7:.2f}", justify="right")]

    built: list[int] = []
    app = Lists()
    async with app.run_test(size=(60, 40)) as pilot:
        lazy, eager = app.query_one("#lazy", ListTable), app.query_one("#eager", ListTable)
        for table in (lazy, eager):
            table.styles.height = 15
            table.add_column("error", width=12)
            table.add_column("cost", width=6)
        for index in range(5000):
            eager.add_row(*cells(index), key=str(index))
        built.clear()
        lazy.set_lazy_rows(5000, cells)
        await pilot.pause()
        assert lazy.row_count == eager.row_count == 5000 and lazy.virtual_size == eager.virtual_size
        assert [row.key for row in lazy.ordered_rows] == [row.key for row in eager.ordered_rows]
        assert [row.key for row in DataTable.ordered_rows.fget(lazy)] == [row.key for row in eager.ordered_rows]
        assert list(lazy._y_offsets) == eager._y_offsets == DataTable._y_offsets.fget(lazy)
        for row in (0, 4321, 4999):
            for table in (lazy, eager):
                table.move_cursor(row=row, animate=False)
            await pilot.pause()
            assert [strip.text for strip in lazy.render_lines(lazy.region.reset_offset)] == \
                   [strip.text for strip in eager.render_lines(eager.region.reset_offset)]
            assert lazy.get_row_at(row)[0].plain == f"error {row}"
        assert 0 < len(set(built)) < 200  # only rows around the three places drawn were built
        for table in ("lazy", "eager"):  # the rows highlighted as the cursor moved: the same
            assert [row for name, row in app.highlighted if name == table] == [0, 4321, 4999]
        # hidden and shown again, resized (`t` there and back): the rows' order and offsets kept,
        # and the cursor moves and draws as DataTable's
        for table in (lazy, eager):
            table.display = False
        await pilot.pause()
        for table in (lazy, eager):
            table.display = True
            table.styles.height = 12
        await pilot.pause()
        assert lazy.ordered_rows is lazy._data.ordered
        assert list(lazy._y_offsets) == eager._y_offsets and lazy._y_offsets[-2:] == eager._y_offsets[-2:]
        for table in (lazy, eager):
            table.move_cursor(row=2500, animate=False)
        await pilot.pause()
        assert [strip.text for strip in lazy.render_lines(lazy.region.reset_offset)] == \
               [strip.text for strip in eager.render_lines(eager.region.reset_offset)]
        lazy.move_cursor(row=4999, animate=False)
        # the same number of rows again (a list's impacts priced): the new cells drawn, the cursor kept
        lazy.set_lazy_rows(5000, lambda index: [Text(f"priced {index}"), Text("1")])
        await pilot.pause()
        assert lazy.cursor_row == 4999 and lazy.get_row_at(4999)[0].plain == "priced 4999"
        assert any("priced 4999" in strip.text for strip in lazy.render_lines(lazy.region.reset_offset))
        assert not any("error" in strip.text for strip in lazy.render_lines(lazy.region.reset_offset)[1:])
        lazy.clear()
        assert lazy.row_count == 0
        lazy.add_row(Text("plain"), Text("1"))  # a cleared table takes rows one by one again
        assert lazy.get_row_at(0)[0].plain == "plain"

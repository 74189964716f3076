"""The workbench as a new user sees it (issue 17): whole numbers, every panel reachable from 100x30
up, the list in step with the document, `n` that continues from the view, help from anywhere."""

from __future__ import annotations

import re

import pytest
from app_support import ROOT, SAMPLE_KEY, SAMPLE_RESPONSE, many_documents, pilot_test, screen_text, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)
from textual.widgets import Button, Input, Select

from workbench.tui.app import Workbench
from workbench.tui.cells import count_text
from workbench.tui.documents import DocumentList
from workbench.tui.errorlist import ErrorPanel, column_widths
from workbench.tui.text import DocumentText

SMALL, LARGE = (100, 30), (200, 50)
BLOCKS = "▁▂▃▄▅▆▇█▉▊▋▌▍▎▏"


def sample() -> Workbench:
    return Workbench(SAMPLE_KEY, SAMPLE_RESPONSE)


@pytest.mark.parametrize("count, width, text", [
    (0, 3, "0"), (63, 3, "63"), (392, 3, "392"), (1180, 4, "1180"), (1180, 3, "1k"), (12345, 4, "12k"),
    (1234567, 4, "1.2M"), (99999, 3, "###"), (None, 3, ""),
])
def test_count_text_abbreviates_visibly_never_cuts(count, width, text):
    assert count_text(count, width) == text


def _document_rows(lines: list[str], right_edge: int) -> dict[str, str]:
    """document name -> the error count shown on its row of the documents list."""
    rows = {}
    for line in lines:
        m = re.match(r"│ (doc\d\d)\s+[\d.]+\s+[\d.]+\s+(\S+?)[" + BLOCKS + r"]?\s*│", line[:right_edge])
        if m:
            rows[m.group(1)] = m.group(2)
    return rows


@pytest.mark.parametrize("size", [SMALL, LARGE])
@pilot_test
async def test_documents_list_shows_every_digit(tmp_path, size):
    key, response = many_documents(tmp_path)
    app = Workbench(key, response)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        if size == SMALL:
            await pilot.press("f6")  # below 130 columns the list starts hidden
        documents = app.query_one(DocumentList)
        for sort in ("conll", "muc", "errors"):
            await pilot.pause()
            width = documents.region.right
            shown = _document_rows(screen_text(app), width)
            assert len(shown) >= 10, (sort, screen_text(app))
            for name, text in shown.items():
                true = len(app.errors.get(f"({name}); part 000", []))
                assert text == str(true), (name, text, true)  # 0 too: never blank
            await pilot.press("s")
        assert "err" in "".join(screen_text(app))


@pilot_test
async def test_100x30_keeps_every_panel_and_column_reachable():
    app = sample()
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        lines = screen_text(app)
        text = "\n".join(lines)
        assert "metric           F     R     P" in text  # the scores header is whole (ΔF once W changes)
        for metric in ("LMUC", "LB3", "LCEAFm", "LCEAFe"):
            assert metric in text, metric
        header = next(line for line in lines if " cat " in line and "mention" in line)
        for column in ("type", "antecedent", "best", "cost", "impact"):
            assert column in header, column
        panel = app.query_one(ErrorPanel)
        counts = app.query_one("#error-counts")
        edge = counts.region.x  # the counts' left border: no error row may run into it
        for y in range(panel.region.y + 1, panel.region.bottom - 1):
            assert lines[y][edge] in "│┃", (y, lines[y])
        await pilot.press("f6")
        assert app.query_one(DocumentList).display and "documents (" in "\n".join(screen_text(app))
        await pilot.press("f6", "f7")
        assert not app.query_one("#scorepanel").display
        await pilot.press("f7")
        # the rest of the scores by scrolling the panel (the weights by ctrl+w)
        await pilot.press("ctrl+w")
        await pilot.pause(0.3)
        shown = "\n".join(screen_text(app))
        assert "S 1" in shown and "LCEAFe" in shown  # editing W, the LMetrics stay in sight (type letters below 130)


def test_error_columns_fit_the_width():
    for width in (76, 120, 176):
        widths = column_widths(width)
        used = sum(widths.values()) + 2 * len(widths) + 1
        assert used <= width, (width, used)


@pilot_test
async def test_selected_error_stays_in_view_after_resize():
    app = sample()
    async with app.run_test(size=LARGE) as pilot:
        await settle(app, pilot)
        panel = app.query_one(ErrorPanel)
        panel.query_one("#errors").focus()
        await pilot.press("end")
        await pilot.pause()
        chosen = app.selected_error
        assert chosen is not None and chosen.mention.span[0] > 300  # far down GUM_news_korea, the list's top
        text = app.query_one(DocumentText)
        assert text.span_in_view(chosen.mention.span)
        await pilot.resize_terminal(*SMALL)
        await pilot.pause()
        await pilot.pause()
        assert app.selected_error is chosen and text.span_in_view(chosen.mention.span)


@pilot_test
async def test_next_error_continues_from_the_view():
    app = sample()
    async with app.run_test(size=LARGE) as pilot:
        await settle(app, pilot)
        await pilot.press("n")
        first = app.selected_error
        text = app.query_one(DocumentText)
        text.scroll_to(y=60, animate=False, immediate=True)
        await pilot.pause()
        top = text.first_visible_token()
        assert top > first.mention.span[1]
        await pilot.press("n")
        after = app.selected_error
        assert after.mention.span[0] >= top
        earlier = [r for r in app.query_one(ErrorPanel).shown if first.mention.span[0] < r.mention.span[0] < top]
        assert earlier  # n did skip errors the user paged past, rather than step to the next row
        await pilot.press("n")
        assert app.selected_error.mention.span >= after.mention.span  # and then steps on from there


@pilot_test
async def test_next_error_with_none_listed_says_so():
    app = sample()
    async with app.run_test(size=LARGE) as pilot:
        await settle(app, pilot)
        panel = app.query_one(ErrorPanel)
        empty = next((c, t) for c in ("suboptimal_link", "wrong_link", "false_new") for t in ("NAME", "NOMINAL", "PRONOUN")
                     if not [r for r in panel.rows if r.category.value == c and r.mention.type.name == t])
        panel.query_one("#error-category", Select).value = empty[0]
        panel.query_one("#error-type", Select).value = empty[1]
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert any("no errors" in str(n.message) for n in app._notifications)


@pilot_test
async def test_documents_list_follows_the_document():
    app = sample()
    async with app.run_test(size=LARGE) as pilot:
        await settle(app, pilot)
        table = app.query_one("#documents")
        await pilot.press("slash", *"korea", "enter")
        await pilot.pause()
        assert "korea" in app.corpus.pairs[app.doc_index].name
        assert table.coordinate_to_cell_key((table.cursor_row, 0)).row_key.value == str(app.doc_index)
        app.query_one("#doc-filter", Input).value = ""
        await pilot.pause()
        await pilot.press("s")  # another sort: the current document stays selected
        assert table.coordinate_to_cell_key((table.cursor_row, 0)).row_key.value == str(app.doc_index)
        table.focus()
        await pilot.press("home")
        await pilot.pause()
        assert table.cursor_row == 0
        await pilot.press("end")
        await pilot.pause()
        assert table.cursor_row == table.row_count - 1
        assert table.coordinate_to_cell_key((table.cursor_row, 0)).row_key.value == str(app.doc_index)
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert table.coordinate_to_cell_key((table.cursor_row, 0)).row_key.value == str(app.doc_index)


@pilot_test
async def test_focus_never_lands_on_a_preset_and_q_quits_outside_boxes():
    app = sample()
    async with app.run_test(size=LARGE) as pilot:
        await settle(app, pilot)
        app.query_one("#errors").focus()
        for _ in range(len(app.screen.focus_chain) + 1):  # the whole cycle, back to where it started
            await pilot.press("shift+tab")
            assert not isinstance(app.focused, Button), app.focused
        app.query_one("#doc-filter").focus()
        await pilot.press("q")
        assert app.query_one("#doc-filter", Input).value == "q" and app.is_running
        await pilot.press("escape", "q")
        await pilot.pause()
        assert not app.is_running


@pilot_test
async def test_focused_panel_is_visibly_marked():
    app = sample()
    async with app.run_test(size=LARGE) as pilot:
        await settle(app, pilot)
        panel = app.query_one("#errorpanel")
        before = panel.styles.border_top
        app.query_one("#errors").focus()
        await pilot.pause()
        assert panel.styles.border_top != before


@pilot_test
async def test_errors_say_analysing_while_loading_and_warnings_stay_in_their_panel():
    app = sample()
    async with app.run_test(size=LARGE) as pilot:
        assert app.query_one(ErrorPanel).border_title == "errors (analysing ...)"
        await settle(app, pilot)
        assert not app._notifications  # no pop-up over the screen at start
        assert f"warnings ({len(app.session.warnings)})" == app.query_one("#warnings").border_title
        assert f"{len(app.session.warnings)} warnings (F5)" in "\n".join(screen_text(app))


@pilot_test
async def test_export_writes_what_is_shown_and_asks_before_replacing(tmp_path):
    app = sample()
    async with app.run_test(size=LARGE) as pilot:
        await settle(app, pilot)
        panel = app.query_one(ErrorPanel)
        panel.query_one("#error-category", Select).value = "false_new"
        await pilot.pause()
        import json

        path = tmp_path / "fn.json"
        app.write_export("corpus", "json", str(path))
        report = json.loads(path.read_text(encoding="utf-8"))
        assert report["errors"] and {e["category"] for e in report["errors"]} == {"false_new"}
        path.write_text("keep me", encoding="utf-8")
        app.export("corpus", "json", str(path))
        await pilot.pause()
        assert type(app.screen).__name__ == "ConfirmScreen"
        await pilot.press("n")
        await settle(app, pilot)
        assert path.read_text(encoding="utf-8") == "keep me"
        app.export("corpus", "json", str(path))
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        await app.workers.wait_for_complete()
        assert json.loads(path.read_text(encoding="utf-8"))["scope"] == "corpus"


@pilot_test
async def test_a_key_alone_opens_for_browsing():
    app = Workbench(SAMPLE_KEY, [])
    async with app.run_test(size=LARGE) as pilot:
        await settle(app, pilot)
        assert not app.query_one("#scorepanel").display and not app.query_one("#errorpanel").display
        assert app.query_one(DocumentText).mode == "key"
        await pilot.press("f3")
        assert not app.query_one("#response-chains").display
        assert "key chains (" in app.query_one("#key-chains").border_title
        await pilot.press("n")
        await pilot.pause()
        assert any("no errors" in str(n.message) for n in app._notifications)
        assert "browsing the key alone" in "\n".join(screen_text(app))


@pilot_test
async def test_a_malformed_input_exits_1(tmp_path):
    bad = tmp_path / "bad.conll"
    bad.write_text("#begin document (x); part 000\nx 0 0 w (1\n#end document\n", encoding="utf-8")
    app = Workbench(str(bad), str(bad))
    async with app.run_test(size=LARGE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.load_failed
        assert "errors (error analysis not available)" in "\n".join(screen_text(app))  # not "analysing ..."


README_BEGIN, README_END = "<!-- keys: made by workbench/tui/keys.py -->", "<!-- end of keys -->"
"""Where the README's keys table stands (made from `keys.key_rows`, the bindings' own list)."""


def test_readme_lists_the_keys_the_bindings_declare():
    """The README's keys table is made from the bindings (workbench/tui/keys.py): it cannot drift.
    COREFWB_WRITE_README=1 rewrites it after a change of keys."""
    import os

    from workbench.tui.keys import key_rows

    def markdown_table(app_class: type) -> str:
        """The README's keys table: a row per binding of `app_class` (`keys.key_rows`)."""
        lines = ["| keys | what | where |", "|---|---|---|"]
        lines += [f"| `{keys}` | {what} | {where} |" for keys, what, where in key_rows(app_class)]
        return "\n".join(lines) + "\n"

    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    assert README_BEGIN in text and README_END in text
    head, rest = text.split(README_BEGIN)
    _, tail = rest.split(README_END)
    expected = head + README_BEGIN + "\n" + markdown_table(Workbench) + README_END + tail
    if os.environ.get("COREFWB_WRITE_README") == "1" and text != expected:
        readme.write_text(expected, encoding="utf-8")
        return
    assert text == expected, "README keys table is stale: run COREFWB_WRITE_README=1 pytest tests/test_app_layout.py"
    for needle in ("f6", "Next error", "Sort errors by impact", "Home".lower()):
        assert needle in text


@pytest.mark.parametrize("labels, headers", [
    (["response", "ronto"], [" response", "    ronto"]),  # two systems: whole names
    (["response-a", "response-b", "response-c"], [" …ponse-a", " …ponse-b", " …ponse-c"]),  # told apart by the end
    (["a" * 30, "b" * 30], [" " + "a" * 13, " " + "b" * 13]),  # told apart by the start
    (["a", "b"], ["     a", "     b"]),
])
def test_compare_columns_show_system_names_whole_when_they_fit(labels, headers) -> None:
    from workbench.tui.scores import MAX_SYSTEM_COLUMNS, SCORES_WIDTH, compare_columns

    columns = compare_columns(labels)
    assert [label for label, _ in columns[1:-2]] == headers
    assert all(len(label) <= width for label, width in columns)
    assert sum(width for _, width in columns) <= SCORES_WIDTH
    assert sum(width for _, width in compare_columns(["x" * 30] * MAX_SYSTEM_COLUMNS)) <= SCORES_WIDTH


@pytest.mark.parametrize("size", [SMALL, LARGE])
@pilot_test
async def test_help_scrollbar_keeps_a_gutter_from_the_text(size):
    """The help's scrollbar stands against its border, two blank cells right of the text: it was
    drawn inside the scroll's padding, its thumb touching the text's last letter."""
    app = sample()
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("f1")
        await pilot.pause()
        scroll, text = app.screen.query_one("#help"), app.screen.query_one("#help-text")
        bar = scroll.vertical_scrollbar.region
        assert scroll.show_vertical_scrollbar and bar.width == 1
        assert bar.right == scroll.region.right - 1  # the border's cell next to it
        assert text.content_region.right == bar.x - 2  # the text's lines end two cells before it
        rows = screen_text(app)[bar.y:bar.bottom]
        assert len(rows) > 20 and all(line[bar.x - 2:bar.x] == "  " for line in rows)

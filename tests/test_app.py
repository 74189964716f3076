"""Pilot tests of the workbench flows, run as a user would drive them (keys, clicks, typing)."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console
from app_support import (ESCAPE_TOKEN, MARKUP_TOKEN, ROOT, SAMPLE_KEY, SAMPLE_RESPONSE, hostile_pair, huge_word_pair,
                         chain_text, pilot_test, settle)
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)
from textual.widgets import DataTable, Input, Select

from metrics.measures.weights import PRESETS, W4
from workbench.output import percent
from workbench.session import LoadOptions
from workbench.tui.app import Workbench
from workbench.tui.errorlist import ErrorPanel
from workbench.tui.scores import ScoresPanel
from workbench.tui.text import DocumentText

SIZE = (160, 48)


def sample_app(weights=W4, **options) -> Workbench:
    return Workbench(SAMPLE_KEY, SAMPLE_RESPONSE, LoadOptions(**options), weights=weights)


def cell(table: DataTable, row_key: str, column: int) -> str:
    return str(table.get_row(row_key)[column]).strip()


def screen_lines(text: DocumentText) -> list[str]:
    return [text.render_line(y).text for y in range(text.scrollable_content_region.height)]


@pilot_test
async def test_loads_sample_and_shows_scores():
    app = sample_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert [pair.name for pair in app.corpus.pairs] == ["(GUM_bio_moreau); part 000", "(GUM_news_korea); part 000"]
        scores = app.query_one("#scores", DataTable)
        corpus_conll = app.result.micro["conll"].f1
        assert cell(scores, "conll", 7) == percent(corpus_conll)  # what `corefwb score` prints
        documents = app.query_one("#documents", DataTable)
        assert documents.row_count == 2
        # worst document first
        assert "GUM_news_korea" in str(documents.get_row_at(0)[0])
        assert app.errors is not None and app.errors[app.corpus.pairs[0].name]


@pilot_test
async def test_weight_edit_rescores_lmetrics_only():
    app = sample_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        scores = app.query_one("#scores", DataTable)
        before_lmuc, before_muc = cell(scores, "lmuc", 7), cell(scores, "muc", 7)
        before = app.result.micro["lmuc"].f1
        box = app.query_one("#w-nom", Input)
        box.focus()
        box.value = ""
        await pilot.press("0", ".", "1")
        await settle(app, pilot)
        assert app.weights == W4._replace(nom=0.1)
        assert app.result.micro["lmuc"].f1 != before
        assert cell(scores, "lmuc", 7) != before_lmuc
        assert cell(scores, "muc", 7) == before_muc  # W does not touch the OMetrics
        assert cell(scores, "lmuc", 8) != ""  # the change is shown


@pilot_test
async def test_a_box_typed_back_to_the_weights_in_force_takes_back_the_complaint():
    app = sample_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        status = app.query_one("#score-status")
        box = app.query_one("#w-nom", Input)
        box.focus()
        box.value = ""
        await pilot.pause()
        assert "four numbers" in str(status.render())
        box.value = "0.75"  # pasted: the weight in force again, so nothing to rescore
        await settle(app, pilot)
        assert app.weights == W4
        assert str(status.render()) == "scored with W = (1, 0.75, 0.5, 1)"


@pilot_test
async def test_preset_button_rescores():
    app = sample_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.click("#preset-W1")
        await settle(app, pilot)
        assert app.weights == PRESETS["W1"]
        assert app.query_one("#w-sing", Input).value == "1e-20"
        assert app.result.weights == PRESETS["W1"]


@pilot_test
async def test_newer_edit_wins():
    app = sample_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        for preset in ("W1", "W2", "W3", "W5"):
            app.rescore(PRESETS[preset])
        await settle(app, pilot)
        assert app.result.weights == PRESETS["W5"]
        assert app.settled_weights == PRESETS["W5"]


@pilot_test
async def test_selecting_an_error_jumps_the_text_to_it():
    app = sample_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        text = app.query_one(DocumentText)
        assert text.scroll_y == 0
        table = app.query_one("#errors", DataTable)
        table.focus()
        table.move_cursor(row=table.row_count - 1)  # the last error of the longest document
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        row = app.query_one(ErrorPanel).shown[-1]
        assert app.selected_error == row
        line = text.line_of_token(row.mention.span[0])
        assert line > text.scrollable_content_region.height  # it was off screen before
        assert text.scroll_y <= line < text.scroll_y + text.scrollable_content_region.height
        assert app.focused is text
        visible = "".join(screen_lines(text))
        assert row.mention.text.split()[0] in visible
        # the border says why the mention has its type: rule and head
        pair = app.corpus.pairs[app.doc_index]
        kind, rule = pair.typed_spans()[row.mention.span]
        assert text.border_subtitle.startswith(f"{kind.name} by rule {rule}")


@pilot_test
async def test_next_error_key_moves_selection():
    app = sample_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("n")
        first = app.selected_error
        await pilot.press("n")
        assert app.selected_error is not None and app.selected_error != first
        await pilot.press("p")
        assert app.selected_error == first


@pilot_test
async def test_switch_document():
    app = sample_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        text = app.query_one(DocumentText)
        # it opens on the top of the list (worst CoNLL F1 first: GUM_news_korea, the file's second)
        assert app.doc_index == 1 and "Jeanne" not in screen_lines(text)[0]
        await pilot.press("ctrl+down")
        await pilot.pause()
        assert app.doc_index == 0
        assert "Jeanne" in screen_lines(text)[0]
        errors = app.query_one(ErrorPanel)
        assert errors.rows == app.errors[app.corpus.pairs[0].name]
        assert "GUM_bio_moreau" in str(app.query_one("#status").render())
        # the scores table shows the new document's values (its cells are updated in place)
        scores = app.query_one("#scores", DataTable)
        moreau = dict(app.result.documents)[app.corpus.pairs[0].name]
        for metric in ("muc", "conll", "lmuc"):
            assert cell(scores, metric, 3) == percent(moreau[metric].f1)
            assert cell(scores, metric, 7) == percent(app.result.micro[metric].f1)


@pilot_test
async def test_filter_documents_by_name():
    app = sample_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await pilot.press(*"moreau")  # the workbench opened on the top of the list, GUM_news_korea
        await pilot.pause()
        table = app.query_one("#documents", DataTable)
        assert table.row_count == 1
        assert app.doc_index == 1  # filtering alone does not change the document
        await pilot.press("enter")
        await pilot.pause()
        assert app.doc_index == 0 and app.focused is table
        await pilot.press("escape", "n")  # leave the box: single-letter keys act again
        assert app.query_one("#doc-filter", Input).value == "moreau"
        assert app.focused is app.query_one(DocumentText) and app.selected_error is not None


@pilot_test
async def test_enter_in_the_documents_list_opens_the_row_under_the_cursor():
    app = sample_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"moreau", "down")  # filtered to one row, not the open one: down cannot open it
        await pilot.pause()
        assert app.doc_index == 1 and app.focused is app.query_one("#documents", DataTable)
        await pilot.press("enter")
        await pilot.pause()
        assert app.doc_index == 0


@pilot_test
async def test_filter_errors_by_category_and_type():
    app = sample_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        panel = app.query_one(ErrorPanel)
        everything = len(panel.rows)
        app.query_one("#error-category", Select).value = "false_new"
        await pilot.pause()
        assert 0 < len(panel.shown) < everything
        assert {row.category for row in panel.shown} == {"false_new"}
        app.query_one("#error-type", Select).value = "NAME"
        await pilot.pause()
        assert panel.shown and all(row.mention.type.name == "NAME" for row in panel.shown)
        assert app.query_one("#errors", DataTable).row_count == len(panel.shown)


@pilot_test
async def test_sort_errors_by_impact_toggles():
    app = sample_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.query_one("#errors", DataTable).focus()
        await pilot.press("i")
        panel = app.query_one(ErrorPanel)
        assert panel.by_impact
        # settled means the shown document is priced: every listed error has its impact, and the
        # impacts differ, so the order below is a real check
        impacts = [row.impact for row in panel.shown]
        assert len(impacts) > 10 and None not in impacts and len({round(x, 9) for x in impacts}) > 3
        assert [abs(x) for x in impacts] == sorted((abs(x) for x in impacts), reverse=True)


@pilot_test
async def test_views_and_modes():
    app = sample_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f3")
        assert app.query_one("#centre").current == "chains"
        chains = chain_text(app.query_one("#key-chains"))
        assert "K0" in chains  # the file's labels
        await pilot.press("f2")
        text = app.query_one(DocumentText)
        assert text.mode == "both" and "/" in screen_lines(text)[0]
        await pilot.press("f4")
        assert text.mode == "key"
        assert "]N0" in screen_lines(text)[0] and "/" not in screen_lines(text)[0].split("]N0")[1][:2]


@pilot_test
async def test_help_and_palette():
    app = sample_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f1")
        assert type(app.screen).__name__ == "HelpScreen"
        console = Console(width=120, file=io.StringIO())
        console.print(app.screen._help_table())
        shown = console.file.getvalue()
        # global: from the default focus (the text) every key and the legend of the error list
        assert "Next error" in shown and "ctrl+p" in shown and "Sort documents" in shown and "Sort errors" in shown
        for term in ("FN  false new", "WL  wrong link", "SUB  suboptimal link", "FA  false anaphoric",
                     "MISS  missing mention", "SPUR  spurious mention", "column cost", "column impact", "points"):
            assert term in shown, term
        assert "here: text" in shown and "DocumentText" not in shown and "errors.md" not in shown
        await pilot.press("escape")
        assert type(app.screen).__name__ != "HelpScreen"
        await pilot.press("ctrl+p")
        await pilot.press(*"chains view")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert app.query_one("#centre").current == "chains"


@pilot_test
async def test_theme_toggle_keeps_type_colours_as_variables():
    app = sample_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        dark = dict(app.theme_variables)
        await pilot.press("f10")
        assert app.theme == "corefwb-light"
        assert app.theme_variables["type-name"] != dark["type-name"]


@pilot_test
async def test_markup_and_escape_tokens_show_literally(tmp_path):
    key, response = hostile_pair(tmp_path)
    app = Workbench(key, response)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        line = screen_lines(app.query_one(DocumentText))[0]
        assert MARKUP_TOKEN in line
        assert "\x1b" not in line and "\u241b[31mred" in line
        panel = app.query_one(ErrorPanel)
        [row] = panel.rows
        assert row.category == "wrong_link" and row.mention.text == "him"
        assert MARKUP_TOKEN in row.best_antecedent.text
        assert row.antecedent.text == ESCAPE_TOKEN  # the data is kept; only its display is made safe
        table = app.query_one("#errors", DataTable)
        cells = [str(c) for r in range(table.row_count) for c in table.get_row_at(r)]
        assert any(MARKUP_TOKEN in c for c in cells)
        assert ESCAPE_TOKEN not in "".join(cells) and any("\u241b[31mred" in c for c in cells)
        # names are data in titles too: the scores panel's title shows the markup as written
        assert MARKUP_TOKEN in app.query_one(ScoresPanel)._border_title.plain


@pilot_test
async def test_load_error_is_shown_not_raised(tmp_path):
    bad = tmp_path / "bad.conll"
    bad.write_text("#begin document (x); part 000\nx\t0\t0\tword\n", encoding="utf-8")
    app = Workbench(str(bad), str(bad))
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        status = str(app.query_one("#status").render())
        assert "error" in status and "bad.conll" in status
        assert app.corpus is None


@pilot_test
async def test_error_analysis_fault_is_reported_not_fatal(monkeypatch):
    import metrics.errors.chen_ng.records  # the session imports it when it classifies

    def broken(pairs, weights):
        raise RuntimeError("boom")

    monkeypatch.setattr(metrics.errors.chen_ng.records, "classify_corpus", broken)
    app = sample_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.result is not None and app.errors is None
        assert any("error analysis failed: RuntimeError: boom" in str(n.message) for n in app._notifications)
        assert "not available" in app.query_one(ErrorPanel).border_title


@pilot_test
async def test_match_option_reaches_the_workbench():
    """`corefwb KEY RESP --match head` opens with the corpus scores of `corefwb score --match head`."""
    from cli_support import corefwb_in_process

    done = corefwb_in_process("score", SAMPLE_KEY, SAMPLE_RESPONSE, "--match", "head", "--format", "json", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    expected = json.loads(done.stdout)["metrics"]
    exact = json.loads(corefwb_in_process("score", SAMPLE_KEY, SAMPLE_RESPONSE, "--format", "json", cwd=ROOT).stdout)["metrics"]
    assert expected["mentions"] != exact["mentions"]  # head matching changes the sample's scores
    app = sample_app(match="head")
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        for name, score in app.result.micro.items():
            assert score.f1 == expected[name].get("f1", expected[name].get("value")), name


@pilot_test
async def test_reader_warnings_reach_the_warnings_panel():
    from workbench.tui.views import WarningsView

    app = sample_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        warnings = app.session.warnings
        assert warnings  # the sample repeats a key-matching span in GUM_bio_moreau
        panel = app.query_one(WarningsView)
        assert panel.border_title == f"warnings ({len(warnings)})"
        await pilot.press("f5")
        assert app.query_one("#centre").current == "warnings"
        assert "repeated key-matching spans removed" in str(app.query_one("#warnings-text").render())
        assert f"{len(warnings)} warnings (F5)" in str(app.query_one("#status").render())


@pilot_test
async def test_quitting_while_loading_or_scoring_raises_nothing():
    """A worker's message that arrives while the app closes finds its widgets gone: it is dropped
    (before, quitting within the first second of a run could end in a traceback)."""
    import asyncio

    for attempt in range(12):
        app = Workbench(SAMPLE_KEY, SAMPLE_RESPONSE)
        async with app.run_test(size=SIZE):
            await asyncio.sleep(0.01 * (attempt % 6))


@pilot_test
async def test_the_collectors_thresholds_are_the_apps_while_it_runs_and_given_back():
    import gc

    from workbench.tui.app import GC_THRESHOLDS

    before = gc.get_threshold()
    app = Workbench(SAMPLE_KEY, SAMPLE_RESPONSE)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert gc.get_threshold() == GC_THRESHOLDS
    assert gc.get_threshold() == before


@pilot_test
async def test_escape_goes_back_to_the_text_from_another_view_and_leaves_a_box_first():
    """The help says Escape is "Back to the text": from the warnings (F5) or the chains (F3) it
    is; in the document filter it first leaves the box, the view staying."""
    app = sample_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        centre = app.query_one("#centre")
        for key in ("f5", "f3"):
            await pilot.press(key)
            await pilot.pause()
            assert centre.current != "text"
            await pilot.press("escape")
            await pilot.pause()
            assert centre.current == "text" and isinstance(app.focused, DocumentText)
        await pilot.press("f5", "slash")
        await pilot.pause()
        assert isinstance(app.focused, Input)
        await pilot.press("escape")
        await pilot.pause()
        assert centre.current == "warnings" and not isinstance(app.focused, Input)


def test_a_warning_quoting_a_huge_word_is_cut_in_the_warnings_panel(tmp_path):
    from workbench.tui.views import WarningsView

    key, response = huge_word_pair(tmp_path)

    @pilot_test
    async def body():
        app = Workbench(key, response, LoadOptions(cache=False))
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            assert any(len(warning) > 50_000 for warning in app.session.warnings)  # kept whole
            shown = str(app.query_one(WarningsView).query_one("#warnings-text").render())
            assert "characters more)" in shown and len(shown) < 2_500

    body()

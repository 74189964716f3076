"""Issue 44 (the workbench and the CLI as a newcomer meets them, round three): each reproduction,
fixed. The chain numbering shared by every view and export has its own file
(tests/test_chain_numbering.py)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from test_crac import make_run
from workbench.cli import main

ROOT = Path(__file__).resolve().parent.parent
KEY, RESPONSE = str(ROOT / "samples/gum/key.gum.conll"), str(ROOT / "samples/gum/response.gum.conll")


def test_crac_csv_and_json_hold_plain_numbers(tmp_path, capsys):
    """Item 1: no `np.float64(...)` in a CSV cell, and the significance level is 0.05."""
    systems = make_run(tmp_path, {"aa_one": 3, "bb_two": 2})
    main(["crac", str(tmp_path / "key"), *systems, "--format", "csv", "--no-cache", "--bootstrap", "0"])
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    for row in rows[1:]:
        for cell in row[4:]:
            assert cell == "" or float(cell) >= 0, row
    main(["crac", str(tmp_path / "key"), *systems, "--format", "json", "--no-cache", "--bootstrap", "20"])
    assert json.loads(capsys.readouterr().out)["significance"]["level"] == 0.05


def test_compare_modes_fixed_and_new_are_the_clis(capsys):
    """Item 3: the workbench's fixed/new table, its `c` filter and `corefwb compare --document`
    count the same mentions; a changed category is neither fixed nor new, and has its own line."""
    import asyncio

    from app_support import settle
    from workbench.session import LoadOptions
    from workbench.tui.app import Workbench
    from workbench.tui.errorlist import ErrorPanel

    other = str(ROOT / "samples/gum/response.ontonotes.conll")

    async def body():
        app = Workbench(KEY, [RESPONSE, other], LoadOptions(cache=False))
        async with app.run_test(size=(200, 50)) as pilot:
            await settle(app, pilot)
            name = app.corpus.pairs[app.doc_index].name
            panel = app.query_one(ErrorPanel)
            box = str(panel.query_one("#error-counts").render()).splitlines()
            kinds = {kind: sum(1 for row in panel.rows if row.kind == kind) for kind in ("fixed", "introduced", "changed")}
            return name, box, kinds

    name, box, kinds = asyncio.run(body())
    main(["compare", KEY, RESPONSE, other, "--document", name, "--format", "json", "--bootstrap", "0", "--no-cache"])
    changes = json.loads(capsys.readouterr().out)["changes"][0]
    from metrics.errors.chen_ng.records import CATEGORIES

    for category in CATEGORIES:
        line = next(ln for ln in box if ln.split() and ln.split()[0] == category.short)
        assert line.split()[1:] == [str(sum(changes["fixed"][category.value].values())),
                                    str(sum(changes["introduced"][category.value].values()))], line
    fixed = sum(sum(row.values()) for row in changes["fixed"].values())
    introduced = sum(sum(row.values()) for row in changes["introduced"].values())
    changed = sum(row["count"] for row in changes["changed"])
    assert (kinds["fixed"], kinds["introduced"], kinds["changed"]) == (fixed, introduced, changed) and changed
    assert box[-1].split() == ["~", "changed", str(changed)]


def test_convert_with_a_key_writes_the_keys_names(tmp_path, capsys):
    """Item 4: `convert R resp.conllu --key key.conllu` writes the key's document names, so `score
    key.conllu resp.conllu` pairs them, and the scores are the response's own."""
    key = str(ROOT / "tests/data/formats/gum2.conllu")
    response = str(ROOT / "tests/data/formats/gum2.response.conll")
    out = tmp_path / "resp.conllu"
    assert main(["convert", response, str(out), "--key", key]) == 0
    names = [ln.split("=", 1)[1].strip() for ln in out.read_text().splitlines() if ln.startswith("# newdoc id")]
    assert names == ["GUM_news_asylum", "GUM_interview_brotherhood"]
    capsys.readouterr()
    assert main(["score", key, str(out), "--format", "json", "--no-cache"]) == 0  # corefud: pairs by name
    capsys.readouterr()
    scores = []
    for scored in (str(out), response):
        main(["score", key, scored, "--conventions", "conll", "--format", "json", "--no-cache"])
        scores.append(json.loads(capsys.readouterr().out)["metrics"])
    assert scores[0] == scores[1]


def test_the_stages_chart_follows_d():
    """Item 5: the K&K stages chart shows the document's progression in the document scope and
    the corpus's after `d`, as its status line says."""
    import asyncio

    from app_support import settle
    from workbench.session import LoadOptions
    from workbench.tui.app import Workbench
    from workbench.tui.charts import ChartsScreen

    async def stages(app, pilot, screen, document):
        for _ in range(400):
            await pilot.pause(0.05)
            if screen.stage_data is not None and screen.stage_data.document == document:
                return screen.stage_data
        raise AssertionError("no stages")

    async def body():
        app = Workbench(KEY, RESPONSE, LoadOptions(cache=False))
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(app, pilot)
            name = app.corpus.pairs[app.doc_index].name
            await pilot.press("f8")
            screen = app.screen
            assert isinstance(screen, ChartsScreen)
            of_document = await stages(app, pilot, screen, name)
            report = app.session.kk_report([name], system=0)
            assert of_document.f1[0] == [100 * report.baseline["conll"]] + [100 * v["conll"] for _, v in report.progression]
            screen.query_one("#charts").active = "tab-stages"  # `d` acts on the tabs it changes (not the Sweep)
            await pilot.pause()
            await pilot.press("d")
            of_corpus = await stages(app, pilot, screen, None)
            corpus = app.session.kk_report(system=0)
            assert of_corpus.f1[0] == [100 * corpus.baseline["conll"]] + [100 * v["conll"] for _, v in corpus.progression]
            assert of_corpus.f1[0] != of_document.f1[0]
            await pilot.pause()  # the line under the charts says the shown tab's
            assert "K&K stages of the corpus" in str(screen.query_one("#charts-status").render())

    asyncio.run(body())


def test_compare_mode_says_whose_impact_and_whose_entity_errors():
    """Item 6: an impact in compare mode carries the letter of the system whose error it prices; the
    K&K list is titled with B, whose errors it lists; a single response's counts never say A B."""
    import asyncio

    from app_support import settle
    from workbench.output import impact_text
    from workbench.session import LoadOptions
    from workbench.tui.app import Workbench
    from workbench.tui.entityerrors import EntityErrorPanel
    from workbench.tui.errorlist import ErrorPanel

    other = str(ROOT / "samples/gum/response.ontonotes.conll")

    async def body():
        app = Workbench(KEY, [RESPONSE, other], LoadOptions(cache=False))
        async with app.run_test(size=(200, 50)) as pilot:
            await settle(app, pilot)
            panel = app.query_one(ErrorPanel)
            for _ in range(200):  # the document's impacts are priced after it opens
                await pilot.pause(0.05)
                if all(row.impact is not None for row in panel.shown):
                    break
            table = panel.query_one("#errors")
            seen = set()
            for number, row in enumerate(panel.shown):
                cell = str(table.get_row_at(number)[-1])
                whose = "A" if row.kind == "fixed" else "B"
                assert cell == whose + impact_text(row.impact), (row.kind, cell)
                seen.add(row.kind)
            assert {"fixed", "same"} <= seen
            await pilot.press("t")
            entity = app.query_one(EntityErrorPanel)
            for _ in range(400):
                await pilot.pause(0.05)
                if entity.state == "ready":
                    break
            assert entity.border_title == f"entity errors of B ({len(entity.rows)})"
            assert list(entity.rows) == [e for e in app.entity_errors[app.system]
                                   if e.document == app.corpus.pairs[app.doc_index].name]

        app = Workbench(KEY, RESPONSE, LoadOptions(cache=False))
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(app, pilot)
            entity = app.query_one(EntityErrorPanel)
            entity.set_rows(None, state="analysing")
            await pilot.pause()
            assert str(entity.query_one("#kk-counts").render()).startswith("entity errors")

    asyncio.run(body())


def test_group_by_type_has_no_zero_row_without_zeros_and_a_table_names_its_column(tmp_path, capsys):
    """Item 7: no `ZERO 0.00 0.00 ...` row on CoNLL-2012 data; groups read from a table's column are
    titled by that column, not "genre"."""
    assert main(["score", KEY, RESPONSE, "--group-by", "type", "--no-cache"]) == 0
    out = capsys.readouterr().out
    assert "ZERO" not in out and "PRONOUN" in out
    main(["score", KEY, RESPONSE, "--group-by", "type", "--format", "json", "--no-cache"])
    types = json.loads(capsys.readouterr().out)["groups"]["types"]
    assert all(row["type"] != "ZERO" for rows in types.values() for row in rows)
    table = tmp_path / "docs.tsv"
    table.write_text("doc\tgenre\tsplit\nGUM_bio_moreau\tbio\ttrain\nGUM_news_korea\tnews\ttest\n")
    main(["score", KEY, RESPONSE, "--group-by", "genre", "--groups", str(table), "--groups-column", "split",
          "--no-cache"])
    out = capsys.readouterr().out
    assert "F1 (%) by split: micro (macro)" in out and "by genre" not in out


def _gum_conllu_pair(tmp_path) -> tuple[str, str]:
    """The GUM excerpt's CoNLL-U key and xrenner's response written as CoNLL-U on it."""
    key = str(ROOT / "tests/data/formats/gum2.conllu")
    response = tmp_path / "response.conllu"
    assert main(["convert", str(ROOT / "tests/data/formats/gum2.response.conll"), str(response), "--key", key]) == 0
    return key, str(response)


def test_corefud_takes_conll_among_its_metrics(tmp_path, capsys):
    """Item 9: `--metrics conll` under corefud gives the CoNLL row the full output prints."""
    key, response = _gum_conllu_pair(tmp_path)
    capsys.readouterr()
    main(["score", key, response, "--format", "json", "--no-cache"])
    full = json.loads(capsys.readouterr().out)["metrics"]
    assert main(["score", key, response, "--metrics", "conll", "--format", "json", "--no-cache"]) == 0
    alone = json.loads(capsys.readouterr().out)["metrics"]
    assert alone == {"conll": full["conll"]} and 0 < full["conll"]["f1"] < 1
    main(["score", key, response, "--metrics", "muc,conll", "--no-cache"])
    rows = [ln.split()[1] for ln in capsys.readouterr().out.splitlines()[2:]]
    assert rows == ["MUC", "CoNLL"]


def test_an_option_refused_under_corefud_says_why_and_what_to_do(capsys):
    """Item 10: the user typed no --conventions: the message says they were chosen, and how to
    get the option."""
    key, response = str(ROOT / "tests/data/corefud/key.conllu"), str(ROOT / "tests/data/corefud/response.conllu")
    assert main(["score", key, response, "--stream"]) == 2  # (--ci: the grouped report, as compare's, small13)
    err = capsys.readouterr().err
    assert "chosen because the key and the response are CoNLL-U" in err and "--conventions conll" in err
    assert len(err.strip().splitlines()) == 1


def test_compare_text_aligns_marked_and_unmarked_cells(capsys):
    """Item 16: in `compare`'s text tables the digits of a cell with `*` and of one without line up,
    and every system column is as wide as the others (CEAF-phi1 was one narrower)."""
    import re

    other = str(ROOT / "samples/gum/response.ontonotes.conll")
    main(["compare", KEY, RESPONSE, other, KEY, "--metrics", "muc,ceaf_phi1,conll,inferred", "--no-cache"])
    lines = capsys.readouterr().out.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("system "))
    ends = [[m.end() for m in re.finditer(r"\d+\.\d\d ± \d+\.\d\d", ln)] for ln in lines[start + 1:start + 4]]
    assert ends[0] == ends[1] == ends[2] and len(ends[0]) == 4
    widths = {b - a for a, b in zip(ends[0], ends[0][1:])}
    assert len(widths) == 1, ends[0]
    assert any(ln.endswith("*") for ln in lines[start + 1:start + 4])


def test_the_readmes_test_command_with_q_still_says_how_many_passed(tmp_path):
    """Item 21: the project adds no -q of its own, so `python -m pytest ... -q` prints its summary line."""
    import subprocess
    import sys

    (tmp_path / "test_one.py").write_text("def test_one():\n    assert True\n")
    done = subprocess.run([sys.executable, "-m", "pytest", str(tmp_path / "test_one.py"), "-q", "-p", "no:cacheprovider",
                           "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert "1 passed" in done.stdout, done.stdout


def _app(responses, size):
    """(app, its run_test) on the sample; compare mode with several responses."""
    from workbench.session import LoadOptions
    from workbench.tui.app import Workbench

    app = Workbench(KEY, responses, LoadOptions(cache=False))
    return app, app.run_test(size=size)


def test_the_documents_list_is_driven_from_the_keyboard():
    """Item 11: `/` then Down goes into the list, and Up/Down there open documents; Tab reaches the
    list, and its panel shows it has the focus."""
    import asyncio

    from app_support import settle

    async def body():
        app, running = _app(RESPONSE, (200, 50))
        async with running as pilot:
            await settle(app, pilot)
            table = app.query_one("#documents")
            opened = app.doc_index
            await pilot.press("slash", "down")
            await pilot.pause()
            assert app.focused is table and app.doc_index == opened
            await pilot.press("down")
            await pilot.pause()
            assert app.doc_index != opened  # the cursor moved: the document under it is open
            await pilot.press("up")
            await pilot.pause()
            assert app.doc_index == opened
            app.query_one("#text").focus()
            for _ in range(20):
                await pilot.press("tab")
                if app.focused is table:
                    break
            assert app.focused is table and app.query_one("#doclist").has_focus_within
            await pilot.press("down")
            await pilot.pause()
            assert app.doc_index != opened

    asyncio.run(body())


def test_compare_mode_at_100_columns_keeps_the_scores_panel_at_40():
    """Item 12: below 130 columns compare mode's scores panel is 40 wide (A, B, ΔF and a `*` where
    the interval excludes 0), so the text keeps its room; no header of the error list is cut."""
    import asyncio

    from app_support import settle
    from workbench.tui.scores import ScoresPanel

    other = str(ROOT / "samples/gum/response.ontonotes.conll")

    async def body():
        app, running = _app([RESPONSE, other], (100, 30))
        async with running as pilot:
            await settle(app, pilot)
            for _ in range(200):  # the bootstrap's intervals
                await pilot.pause(0.05)
                if app.intervals:
                    break
            await pilot.pause()
            panel = app.query_one(ScoresPanel)
            assert panel.size.width + 2 <= 40 and app.query_one("#text").size.width >= 54
            table = panel.query_one("#scores")
            # `ontonotes` does not fit 5 cells: A and B, as the error list calls them, never `onton`;
            # the border says which is which (and so does the documents list's)
            assert [str(c.label).strip() for c in table.columns.values()] == ["metric", "A", "B", "ΔF", "95%"]
            assert str(panel.border_subtitle) == "A gum · B ontonotes"
            assert str(panel.border_title).endswith("ΔF = B - A")
            row = table.get_row("conll")
            assert str(row[-1]) == "*" and len(panel.border_title) <= 36
            headers = [str(c.label) for c in app.query_one("#errors").columns.values()]
            assert not any(h.endswith("…") for h in headers)
            await pilot.resize_terminal(200, 50)
            await pilot.pause()
            await pilot.pause()
            assert "95% interval" in [str(c.label).strip() for c in table.columns.values()]

    asyncio.run(body())


def test_a_crac_run_keeps_the_panels_shown_across_datasets(tmp_path):
    """Item 12: `}` with the documents list shown (F6 at 100 columns) opens the next dataset with it
    still shown."""
    import asyncio

    from app_support import settle
    from test_crac_workbench import _run
    from metrics.measures.weights import W4
    from workbench.tui.app import Workbench
    from workbench.tui.datasets import DatasetSwitch

    run, options = _run(tmp_path)

    async def open_at(dataset, keys):
        run.current = dataset
        key, responses = run.files(dataset)
        app = Workbench(key, responses, options, weights=W4, run=run)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(app, pilot)
            shown = app.query_one("#doclist").display and app.screen.has_class("-toggled-documents")
            await pilot.press(*keys)
            await pilot.pause()
        return app, shown

    app, _ = asyncio.run(open_at(0, ["f6", "right_curly_bracket"]))
    assert app.return_value == DatasetSwitch(1) and "-toggled-documents" in run.panels
    _, shown = asyncio.run(open_at(1, ["escape"]))
    assert shown


def test_help_names_panels_as_the_user_sees_them_and_kk_says_miss():
    """Item 14: the help says `here: documents`, not a class name; a missing mention is MISS in the
    K&K list (MMEN read as MENT, a missing entity)."""
    import asyncio

    from app_support import settle, screen_text
    from workbench.tui.entityerrors import SHORT

    assert SHORT["missing_mention"] == "MISS" and SHORT["missing_entity"] == "MENT"

    async def body():
        app, running = _app(RESPONSE, (200, 50))
        async with running as pilot:
            await settle(app, pilot)
            app.query_one("#documents").focus()
            await pilot.press("f1")
            await pilot.pause()
            text = "\n".join(screen_text(app))
            assert "here: documents" in text and "DocumentList" not in text

    asyncio.run(body())


def test_at_100_columns_a_weight_box_shows_its_whole_value_and_legends_fit():
    """Items 15 and 19: each weight box holds `0.25` and the cursor after it; the text panel's legend
    and a selected mention's type explanation fit its border."""
    import asyncio

    from app_support import settle
    from rich.cells import cell_len
    from textual.widgets import Input

    async def body():
        app, running = _app(RESPONSE, (100, 30))
        async with running as pilot:
            await settle(app, pilot)
            await pilot.press("ctrl+w")
            box = app.focused
            assert isinstance(box, Input)
            box.value = "0.25"
            box.cursor_position = 4
            await pilot.pause()
            for name in ("nam", "nom", "pro", "sing"):
                assert app.query_one(f"#w-{name}", Input).content_region.width >= len("0.25") + 1
            text = app.query_one("#text")
            assert cell_len(str(text.border_subtitle)) <= text.size.width - 4
            await pilot.press("escape")
            for _ in range(12):
                await pilot.press("n")
                await pilot.pause()
                assert cell_len(str(text.border_subtitle)) <= text.size.width - 4, text.border_subtitle

    asyncio.run(body())


def test_plot_errors_labels_do_not_touch(tmp_path, capsys):
    """Item 20: the x labels of `plot errors` keep apart (each word on its own line), drawn and
    measured by matplotlib."""
    import pytest

    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from workbench.charts import error_counts
    from workbench.commands.plot import draw_errors
    from workbench.session import LoadOptions, Session
    from metrics.measures.weights import W4

    session = Session.load(KEY, [RESPONSE], LoadOptions(cache=False))
    figure = draw_errors(plt, error_counts(session, ["gum"], W4, None))
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    boxes = [label.get_window_extent(renderer) for label in figure.axes[0].get_xticklabels()]
    assert all(a.x1 + 2 < b.x0 for a, b in zip(boxes, boxes[1:])), [(b.x0, b.x1) for b in boxes]
    plt.close(figure)


def test_compare_mode_at_100_columns_heads_its_columns_by_what_tells_the_systems_apart():
    """At 100 columns the 40-column scores panel heads the systems by what tells their names apart
    (`a`, `b` for `response-a`, `response-b`), not by names cut to `…se-a`; the title says the same."""
    import asyncio

    from app_support import settle
    from workbench.session import LoadOptions
    from workbench.tui.app import Workbench
    from workbench.tui.scores import ScoresPanel

    chen = ROOT / "samples/chen-ng"
    responses = [str(chen / f"response-{letter}.conll") for letter in "ab"]

    async def body():
        app = Workbench(str(chen / "key.conll"), responses, LoadOptions(cache=False))
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(app, pilot)
            panel = app.query_one(ScoresPanel)
            labels = [str(c.label).strip() for c in panel.query_one("#scores").columns.values()]
            assert labels[1:3] == ["a", "b"]
            assert str(panel.border_title).endswith("ΔF = b - a")

    asyncio.run(body())

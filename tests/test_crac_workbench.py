"""The workbench on a CRAC run: the datasets list above the documents, its numbers those of the
scores panel for the dataset open, and `}` / Enter / the palette ending the app with the choice
(the launcher then opens the chosen dataset: workbench/tui/launch.py)."""

from __future__ import annotations

import os
from pathlib import Path

from app_support import pilot_test, settle, screen_text
from test_crac import make_run

from metrics.statistics.crac import score_layout
from metrics.formats.datasets import pair
from metrics.measures.weights import W4
from workbench.session import LoadOptions
from workbench.tui.app import Workbench
from workbench.tui.datasets import SHOWN, DatasetList, DatasetRun, DatasetSwitch


def _run(tmp_path: Path) -> DatasetRun:
    systems = make_run(tmp_path, {"aa_one": 3, "bb_two": 2})
    layout = pair(str(tmp_path / "key"), systems)
    options = LoadOptions(conventions="corefud", match="head", singletons="remove")
    return DatasetRun(layout, ["A", "B"], options.corefud), options


@pilot_test
async def test_the_datasets_list_agrees_with_the_scores_and_switches(tmp_path):
    run, options = _run(tmp_path)
    run.results = score_layout(run.layout, None, {SHOWN: run.settings}, 1)  # what the background child sends
    key, responses = run.files(0)
    app = Workbench(key, responses, options, weights=W4, run=run)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        listed = app.query_one(DatasetList)
        assert listed.query_one("#datasets").row_count == 3  # two datasets and the macro-average
        # the list's CoNLL F1 of the dataset open is the corpus CoNLL F1 of each system on screen
        for system in range(2):
            assert run.value(0, system) == app.view_of(system).result.micro["conll"].f1
        screen = "\n".join(screen_text(app))
        assert "datasets (1/2)" in screen and "aa_one" in screen and "macro" in screen
        assert "aa_one (1/2) · " in screen.splitlines()[0]
        assert [d for d in app.response_names()] == ["A", "B"]
        await pilot.press("right_curly_bracket")
        await pilot.pause()
    assert app.return_value == DatasetSwitch(1)


@pilot_test
async def test_enter_in_the_list_opens_the_dataset_under_the_cursor(tmp_path):
    run, options = _run(tmp_path)
    key, responses = run.files(0)
    app = Workbench(key, responses, options, weights=W4, run=run)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("f6")
        table = app.query_one("#datasets")
        table.focus()
        await pilot.press("down", "enter")
        await pilot.pause()
    assert app.return_value == DatasetSwitch(1)


def test_the_files_of_a_dataset_are_the_key_and_each_systems(tmp_path):
    run, _ = _run(tmp_path)
    key, responses = run.files(1)
    assert os.path.basename(key) == "bb_two-corefud-dev.conllu"
    assert [Path(r).parent.name for r in responses] == ["sys0", "sys1"]


def test_a_run_without_systems_or_with_a_missing_dataset_is_refused(tmp_path, capsys):
    from workbench.cli import main

    run, _ = _run(tmp_path)
    key_dir = os.path.dirname(run.layout.datasets[0].key)
    assert main([key_dir]) == 2 and "system folders" in capsys.readouterr().err
    partial = tmp_path / "partial"
    partial.mkdir()
    (partial / "aa_one-corefud-dev.conllu").write_bytes(Path(run.layout.datasets[0].key).read_bytes())
    assert main([key_dir, str(partial)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "partial" in err and "bb_two" in err


def test_the_workbench_on_the_bundled_sample_starts_without_files(capsys):
    """`corefwb` alone (the README's first command) opens the sample: without a terminal it says
    it needs one (exit 2), never a traceback (the conventions' detection once met a key of None)."""
    from workbench.cli import main

    assert main([]) == 2
    assert "needs a terminal" in capsys.readouterr().err

"""Snapshot tests of the workbench screens (pytest-textual-snapshot; textual is pinned exactly).

Regenerate after an intended change with `pytest tests/test_app_snapshots.py --snapshot-update`
and look at the SVGs before committing them.
"""

from __future__ import annotations

from app_support import SAMPLE_KEY, SAMPLE_RESPONSE, hostile_pair, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)
from textual.widgets import Select

from workbench.tui.app import Workbench

SIZE = (160, 48)


def sample() -> Workbench:
    return Workbench(SAMPLE_KEY, SAMPLE_RESPONSE)


def after(*keys: str, then=None):
    """run_before: wait for loading and scoring, press keys, wait again, then an optional step."""

    async def run(pilot) -> None:
        await settle(pilot.app, pilot)
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        if then is not None:
            await then(pilot)
        await settle(pilot.app, pilot)

    return run


def test_main_screen(snap_compare):
    assert snap_compare(sample(), terminal_size=SIZE, run_before=after())


def test_chains_view(snap_compare):
    assert snap_compare(sample(), terminal_size=SIZE, run_before=after("f3"))


def test_key_mentions_only(snap_compare):
    assert snap_compare(sample(), terminal_size=SIZE, run_before=after("f4"))


def test_response_mentions_only(snap_compare):
    assert snap_compare(sample(), terminal_size=SIZE, run_before=after("f4", "f4"))


def test_error_selected_and_emphasised(snap_compare):
    assert snap_compare(sample(), terminal_size=SIZE, run_before=after("n", "n", "n", "n", "n", "n", "n", "n"))


def test_errors_filtered_to_false_new(snap_compare):
    async def filter_fn(pilot) -> None:
        pilot.app.query_one("#error-category", Select).value = "false_new"
        await pilot.pause()

    assert snap_compare(sample(), terminal_size=SIZE, run_before=after(then=filter_fn))


def test_second_document_with_preset_w1(snap_compare):
    async def preset(pilot) -> None:
        pilot.app.query_one("#preset-W1").press()  # not a click: no hover state in the picture
        await pilot.pause()

    assert snap_compare(sample(), terminal_size=SIZE, run_before=after("ctrl+down", then=preset))


def test_help_screen(snap_compare):
    assert snap_compare(sample(), terminal_size=SIZE, run_before=after("f1"))


def test_export_dialog(snap_compare):
    assert snap_compare(sample(), terminal_size=SIZE, run_before=after("ctrl+e"))


def test_light_theme(snap_compare):
    assert snap_compare(sample(), terminal_size=SIZE, run_before=after("f10"))


def test_no_colour(snap_compare, monkeypatch):
    """NO_COLOR: monochrome, the type letters and brackets still carry every distinction."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(sample(), terminal_size=SIZE, run_before=after("n", "n"))


def test_hostile_text_is_literal(snap_compare, tmp_path):
    key, response = hostile_pair(tmp_path)
    app = Workbench(key, response)
    assert snap_compare(app, terminal_size=(120, 30), run_before=after())


# The two sizes the workbench is designed for (issue 17): 100x30 (the smallest) and 200x50.

def test_smallest_terminal(snap_compare):
    assert snap_compare(sample(), terminal_size=(100, 30), run_before=after("n", "n", "n"))


def test_smallest_terminal_documents_shown(snap_compare):
    assert snap_compare(sample(), terminal_size=(100, 30), run_before=after("f6"))


def test_smallest_terminal_help(snap_compare):
    assert snap_compare(sample(), terminal_size=(100, 30), run_before=after("f1"))


def test_large_terminal(snap_compare):
    assert snap_compare(sample(), terminal_size=(200, 50), run_before=after("n", "n", "n"))


def test_large_terminal_chains(snap_compare):
    assert snap_compare(sample(), terminal_size=(200, 50), run_before=after("f3"))


def test_key_alone(snap_compare):
    app = Workbench(SAMPLE_KEY, [])
    assert snap_compare(app, terminal_size=(100, 30), run_before=after())


def test_entity_errors_at_100x30(snap_compare):
    """`t`: Kummerfeld & Klein's list, its first error bracketed (part and cluster) at 100x30."""

    async def ready(pilot) -> None:
        app = pilot.app
        for _ in range(200):
            if app.system in app.entity_errors:
                break
            await pilot.pause(0.05)
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()

    assert snap_compare(sample(), terminal_size=(100, 30), run_before=after("t", then=ready))

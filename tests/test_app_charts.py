"""The charts view (F8) as a user drives it, and its snapshots (both themes, NO_COLOR).

With Chen & Ng's five sample responses the sweep is their Figure 3: its W4 and OMetric points are
checked against their Table 1, and the "now" line follows the weights."""

from __future__ import annotations

import pytest
from app_support import pilot_test, screen_text, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)
from paper_tables import CHEN_NG_TABLE1, printed_tolerance

from workbench.charts import SWEEP_PANELS
from workbench.tui.app import Workbench
from workbench.tui.charts import ChartsScreen

KEY = "samples/chen-ng/key.conll"
LETTERS = "abcde"
RESPONSES = [f"samples/chen-ng/response-{x}.conll" for x in LETTERS]
SMALL = (100, 30)


def chen_ng() -> Workbench:
    return Workbench(KEY, RESPONSES)


async def open_charts(pilot, tab: str | None = None) -> ChartsScreen:
    await settle(pilot.app, pilot)
    await pilot.press("f8")
    for _ in range(200):
        await pilot.pause(0.05)
        screen = pilot.app.screen
        if isinstance(screen, ChartsScreen) and screen.sweep_data is not None:
            break
    else:
        raise AssertionError("the charts did not arrive")
    if tab is not None:
        screen.query_one("#charts").active = tab
    await pilot.pause(0.2)
    return screen


@pilot_test
async def test_the_sweep_is_chen_and_ngs_figure_3():
    app = chen_ng()
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_charts(pilot)
        data = screen.sweep_data
        assert data.systems == [f"response-{x}" for x in LETTERS]
        assert [name for name, _ in data.weights] == ["W1", "W2", "W3", "W4", "W5", "now"]
        for i, letter in enumerate(LETTERS):
            for lmetric, ometric in SWEEP_PANELS:
                printed = CHEN_NG_TABLE1[letter][lmetric][2]
                assert data.lines[lmetric]["W4"][i] == pytest.approx(float(printed), abs=printed_tolerance(printed))
                printed = CHEN_NG_TABLE1[letter][ometric][2]
                assert data.official[lmetric][i] == pytest.approx(float(printed), abs=printed_tolerance(printed))
        text = "\n".join(screen_text(app))
        for title in ("LMUC: 1-5 = W1..W5, * = now; O = MUC", "LB3:", "LCEAFm:", "LCEAFe:"):
            assert title in text
        assert "a = response-a" in text  # the axis names, explained
        await pilot.press("escape")
        assert not isinstance(app.screen, ChartsScreen)


@pilot_test
async def test_the_now_line_follows_the_weights():
    app = chen_ng()
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        app.apply_preset("W1")
        await settle(app, pilot)
        screen = await open_charts(pilot)
        lines = screen.sweep_data.lines
        assert lines["lmuc"]["now"] == lines["lmuc"]["W1"] != lines["lmuc"]["W4"]


@pilot_test
async def test_errors_of_the_document_or_the_corpus():
    app = Workbench(KEY, RESPONSES[:2])
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_charts(pilot, "tab-errors")
        assert screen.error_data.scope != "corpus"
        await pilot.press("d")
        for _ in range(100):
            await pilot.pause(0.05)
            if screen.error_data.scope == "corpus":
                break
        text = "\n".join(screen_text(app))
        assert screen.error_data.scope == "corpus" and "errors of the corpus" in text
        assert "response-a: # name  = nominal  . pronoun" not in text and "a: # name  = nominal  . pronoun" in text


@pilot_test
async def test_the_footer_offers_d_on_the_tabs_it_changes_only():
    """Sweep and Documents cover the corpus whatever `d` says: the footer showed `d` there."""
    app = Workbench(KEY, RESPONSES[:2])
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_charts(pilot)
        for tab, offered in (("tab-sweep", False), ("tab-errors", True), ("tab-documents", False),
                             ("tab-stages", True), ("tab-sweep", False)):
            screen.query_one("#charts").active = tab
            await pilot.pause(0.2)
            footer = screen_text(app)[-1]
            assert ("Document / corpus errors" in footer) == offered, (tab, footer)
            assert ("d" in screen.active_bindings) == offered, tab
        before = screen.scope_document
        await pilot.press("d")  # on the Sweep: nothing to switch
        await pilot.pause(0.1)
        assert screen.scope_document == before


@pilot_test
async def test_a_key_alone_has_no_charts():
    app = Workbench(KEY, [])
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        await pilot.press("f8")
        await pilot.pause()
        assert not isinstance(app.screen, ChartsScreen)


def after_charts(tab: str | None = None, theme: str | None = None):
    async def run(pilot) -> None:
        if theme:
            pilot.app.theme = theme
        await open_charts(pilot, tab)
        pilot.app.clear_notifications()  # a toast's timeout would make the picture depend on speed
        await pilot.pause()

    return run


def test_snapshot_sweep(snap_compare):
    assert snap_compare(chen_ng(), terminal_size=SMALL, run_before=after_charts())


def test_snapshot_sweep_light(snap_compare):
    assert snap_compare(chen_ng(), terminal_size=SMALL, run_before=after_charts(theme="corefwb-light"))


def test_snapshot_sweep_no_color(snap_compare, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(chen_ng(), terminal_size=SMALL, run_before=after_charts())


def test_snapshot_errors(snap_compare):
    assert snap_compare(Workbench(KEY, RESPONSES[:2]), terminal_size=SMALL, run_before=after_charts("tab-errors"))


def test_snapshot_documents_histogram(snap_compare):
    app = Workbench("samples/gum/key.gum.conll", ["samples/gum/response.gum.conll"])
    assert snap_compare(app, terminal_size=(200, 50), run_before=after_charts("tab-documents"))

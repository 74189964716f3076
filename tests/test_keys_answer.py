"""Every key the help lists answers (a newcomer's third look, tui10): with one response F9 and c
changed nothing and said nothing (their bindings give way outside compare mode, and the notice
`action_next_system` had for that case could not be reached); browsing a key alone, `i` sorted a
hidden list in silence.
"""

from __future__ import annotations

from app_support import SAMPLE_KEY, SAMPLE_RESPONSE, pilot_test, screen_text, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)

from workbench.tui.app import Workbench


@pilot_test
async def test_f9_and_c_with_one_response_say_why_nothing_changes():
    app = Workbench(SAMPLE_KEY, SAMPLE_RESPONSE)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        footer = screen_text(app)[-1]
        assert "Switch" not in footer and "Changes" not in footer  # still hidden from the footer
        for key in ("f9", "c"):
            app.clear_notifications()
            shown = (app.system, app.baseline, app.query_one("#errorpanel").shown)
            await pilot.press(key)
            await pilot.pause()
            assert [n.message for n in app._notifications] == [
                "one response: F9 and c compare several (open the workbench with two or more responses)"], key
            assert (app.system, app.baseline, app.query_one("#errorpanel").shown) == shown


@pilot_test
async def test_in_compare_mode_f9_still_switches_and_c_still_filters():
    response_b = "samples/gum/response.gum.conll"
    app = Workbench(SAMPLE_KEY, [SAMPLE_RESPONSE, response_b])
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        system, baseline = app.system, app.baseline
        await pilot.press("f9")
        await settle(app, pilot)
        assert (app.system, app.baseline) == (baseline, system)
        app.clear_notifications()
        box = app.query_one("#error-change")
        before = box.value
        await pilot.press("c")
        await pilot.pause()
        assert box.value != before
        assert not [n for n in app._notifications if "one response" in n.message]


@pilot_test
async def test_i_while_browsing_a_key_alone_says_there_are_no_errors():
    """`i` sorted the hidden error list of a key browsed alone: nothing on screen changed and
    nothing was said (`n` and `p` said it already)."""
    from workbench.tui.navigation import NO_ERRORS_BROWSING

    app = Workbench(SAMPLE_KEY, [])
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        for key in ("i", "n"):
            app.clear_notifications()
            await pilot.press(key)
            await pilot.pause()
            assert [n.message for n in app._notifications] == [NO_ERRORS_BROWSING], key
        assert not app.query_one("#errorpanel").by_impact

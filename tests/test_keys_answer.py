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


@pilot_test
async def test_browsing_a_key_alone_the_footer_offers_what_works_and_the_status_names_the_order():
    """A key alone: the status said "(1/2 by conll)" with nothing scored, and the footer offered
    F8, n and ^e, which only said "browsing a key alone".  The order is the file's; those keys leave
    the footer, and pressed still say why nothing happens; `s` sorts by name and back."""
    for size in ((100, 30), (200, 50)):
        app = Workbench(SAMPLE_KEY, [])
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            lines = screen_text(app)
            assert "(1/2 in file order" in lines[0] and "by conll" not in "\n".join(lines)
            footer = lines[-1]
            assert "Docs" in footer and not any(word in footer for word in ("Scores", "Charts", "Next error", "Export")), footer
            for key, said in (("f7", "no scores"), ("f8", "charts need a response"), ("n", "no errors"), ("p", "no errors"),
                              ("ctrl+e", "nothing scored to export")):
                app.clear_notifications()
                await pilot.press(key)
                await pilot.pause()
                assert [said in n.message for n in app._notifications] == [True], key
            from workbench.tui.documents import DocumentList

            documents = app.query_one(DocumentList)
            documents.action_cycle_sort()
            assert documents.sort_key == "name" and "by name" in documents.border_title
            documents.action_cycle_sort()
            assert documents.sort_key == "file"
    scored = Workbench(SAMPLE_KEY, SAMPLE_RESPONSE)
    async with scored.run_test(size=(200, 50)) as pilot:
        await settle(scored, pilot)
        footer = screen_text(scored)[-1]
        assert all(word in footer for word in ("Scores", "Charts", "Export"))  # offered where they work

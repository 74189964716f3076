"""The workbench on a CRAC LLM-track output: the mentions its repair made are marked in the text
view (`*`, a tint, the legend's `* repaired`), * hides and shows the marks, and a selected
repaired mention says what was done.

`gum2.repaired.txt` is `gum2.seq_zero.txt` (tests/data/crac/README.md) with two repairs to make: the
opening bracket of `the people` (e8) dropped, so `people|e8]` closes nothing and becomes the
one-word mention `people`; and `[e10` of `the Indonesian Navy` written `[e10.1`, read as `[e10`.
"""

from __future__ import annotations

from app_support import laid_text, pilot_test, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)

from workbench.session import LoadOptions
from workbench.tui.app import Workbench
from workbench.tui.rows import REPAIRED
from workbench.tui.text import DocumentText

KEY = "tests/data/formats/gum2.conllu"
OUTPUT = "tests/data/crac/gum2.repaired.txt"
OPTIONS = LoadOptions(conventions="corefud", match="head", singletons="remove")


def crac_app() -> Workbench:
    return Workbench(KEY, [OUTPUT], OPTIONS)


def test_repaired_mentions_marked_at_100x30(snap_compare):
    assert snap_compare(crac_app(), terminal_size=(100, 30), run_before=lambda pilot: settle(pilot.app, pilot))


def test_repaired_mentions_marked_at_200x50(snap_compare):
    assert snap_compare(crac_app(), terminal_size=(200, 50), run_before=lambda pilot: settle(pilot.app, pilot))


@pilot_test
async def test_the_marks_follow_the_repairs_and_r_toggles_them():
    app = crac_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        text = app.query_one(DocumentText)
        pair = app.corpus.pairs[0]
        assert pair.response.repaired == {
            (64, 64): "e8] closed no open mention: made the one-word mention [e8]",
            (28, 30): "mark '[e10.1' read as e10"}
        shown = laid_text(text)
        assert "[people]M-/e8*" in shown and "Indonesian Navy]N10/e10*" in shown
        assert shown.count("*") == 2  # no other mention is marked
        tinted = {atom.span for line in text._layout.lines for atom in line if atom.change == REPAIRED}
        assert tinted == {(64, 64), (28, 30)}
        assert str(text.border_subtitle).startswith("* repaired")
        text.focus()
        await pilot.press("asterisk")
        await settle(app, pilot)
        assert "*" not in laid_text(text) and not str(text.border_subtitle).startswith("* repaired")
        await pilot.press("asterisk")
        await settle(app, pilot)
        assert laid_text(text).count("*") == 2
        # the second document has no repair: no mark, the plain legend
        app.show_document(1)
        await settle(app, pilot)
        assert "*" not in laid_text(text) and not str(text.border_subtitle).startswith("* repaired")


@pilot_test
async def test_a_selected_repaired_mention_says_what_the_repair_did():
    app = crac_app()
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        text = app.query_one(DocumentText)
        said = []
        for _ in range(2):
            await pilot.press("n")
            await settle(app, pilot)
            said.append((app.selected_error.mention.span, str(text.border_subtitle)))
        repaired = [subtitle for span, subtitle in said if span == (64, 64)]
        assert repaired and repaired[0].startswith("* repaired: e8] closed no open mention: made the one-word mention")
        assert any(span == (63, 64) and "NOMINAL" in subtitle for span, subtitle in said)  # not repaired: its type


@pilot_test
async def test_the_mouse_on_a_repaired_mention_says_what_the_repair_did():
    app = crac_app()
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        text = app.query_one(DocumentText)
        row, column = next((y, sum(len(a.text) for a in line[:i]))
                           for y, line in enumerate(text._layout.lines) for i, atom in enumerate(line)
                           if atom.role == "word" and atom.span == (64, 64))
        region = text.content_region
        await pilot.hover(offset=(region.x + column, region.y + row))
        assert text.tooltip == "* repaired: e8] closed no open mention: made the one-word mention [e8]"
        await pilot.hover(offset=(region.x, region.y))  # the first word: no repair
        assert text.tooltip is None


@pilot_test
async def test_compare_mode_marks_each_systems_repairs_and_says_whose():
    """Compare mode marks the repaired mentions too (the compared system's here: the baseline has
    none), `*` before the changes' marks in the legend; where an error changed, its mark comes first."""
    app = Workbench(KEY, ["tests/data/crac/gum2.seq_zero.txt", OUTPUT], OPTIONS)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        text = app.query_one(DocumentText)
        assert app.comparing
        shown = laid_text(text)
        assert "Indonesian Navy]N10/e10/e10*" in shown and shown.count("*") == 1
        assert "[people]M-/-/e8!" in shown  # repaired, and an error introduced there: the change's mark
        assert text._repaired == {(64, 64): "B: e8] closed no open mention: made the one-word mention [e8]",
                                  (28, 30): "B: mark '[e10.1' read as e10"}
        assert str(text.border_subtitle).startswith("* repaired (*)  + fixed")
        text.focus()
        await pilot.press("asterisk")
        await settle(app, pilot)
        assert "*" not in laid_text(text) and str(text.border_subtitle).startswith("+ fixed")


@pilot_test
async def test_a_repair_note_too_long_for_the_border_is_said_whole_once():
    """At 100 columns the note is cut on the border; a toast says it whole (it wraps), once."""
    app = crac_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        text = app.query_one(DocumentText)
        whole = "* repaired: e8] closed no open mention: made the one-word mention [e8]"
        for _ in range(4):
            await pilot.press("n")
            await settle(app, pilot)
            if app.selected_error.mention.span == (64, 64):
                break
        assert str(text.border_subtitle).endswith("…") and whole.startswith(str(text.border_subtitle)[:-1])
        app._status()
        await pilot.pause()
        assert [str(n.message) for n in app._notifications].count(whole) == 1

"""A long text laid out again in a worker (issue 42): b a x r and the mode on a book.

On the UA book a relation key took 0.1-2.2 s of the UI thread (the whole text's marks and wrap
made again).  A text of `text.ASYNC_TOKENS` tokens or more is now laid out in a worker: the text
shown stays, its title says it is being laid out, a later key overtakes the layout under way, and
what ends on screen is what laying it out at once gives.  Here the limit is lowered to the
CODI-CRAC dialogue of test_app_ua.py, and the worker held until the test lets it go."""

from __future__ import annotations

import threading

from app_support import laid_text, pilot_test, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)

from workbench.session import LoadOptions
from workbench.tui import text as text_module
from workbench.tui.app import Workbench
from workbench.tui.text import LAYING_OUT, DocumentText

KEY = "tests/data/ua/codi/persuasion.key"
RESPONSE = "tests/data/ua/codi/persuasion.response"
OPTIONS = LoadOptions(conventions="ua", singletons="keep", split_antecedents=True)
KEYS = ("b", "x", "m")


async def laid_after_each_key(size=(200, 50)) -> list[str]:
    """The text as laid out at once after each of `KEYS` (the limit not reached)."""
    app = Workbench(KEY, [RESPONSE], OPTIONS)
    out = []
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        for key in KEYS:
            await pilot.press(key)
            await pilot.pause()
            out.append(laid_text(app.query_one(DocumentText)))
    return out


def hold_layouts(monkeypatch, started: list | None = None) -> threading.Event:
    """Every text long enough for the worker, and the worker's wrap held until the event is set
    (the UI thread's own layouts, `show`'s, are not held); `started` notes each held layout."""
    monkeypatch.setattr(text_module, "ASYNC_TOKENS", 1)
    held = threading.Event()
    wrapped = DocumentText._wrapped

    def held_wrap(marks, starts, geometry):
        if threading.current_thread() is not threading.main_thread():
            if started is not None:
                started.append(marks)
            assert held.wait(10)
        return wrapped(marks, starts, geometry)

    monkeypatch.setattr(DocumentText, "_wrapped", staticmethod(held_wrap))
    return held


async def b_held(app, pilot, monkeypatch) -> tuple[DocumentText, threading.Event]:
    """The app settled, then `b` pressed with its layout held: the text view and the event that
    lets the layout go."""
    await settle(app, pilot)
    text = app.query_one(DocumentText)
    held = hold_layouts(monkeypatch)
    await pilot.press("b")
    await pilot.pause()
    return text, held


@pilot_test
async def test_a_long_text_is_laid_out_in_a_worker_that_a_later_key_overtakes(monkeypatch):
    expected = await laid_after_each_key()
    assert len(set(expected)) == len(KEYS)  # each key changes the text
    started: list = []
    held = hold_layouts(monkeypatch, started)
    app = Workbench(KEY, [RESPONSE], OPTIONS)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)  # the first screen is laid out at once (`show`)
        text = app.query_one(DocumentText)
        before = laid_text(text)
        title = str(text.border_title)
        assert not started and LAYING_OUT not in title
        await pilot.press(KEYS[0])
        await pilot.pause()
        assert text.laying_out and str(text.border_title) == f"{title} · {LAYING_OUT}"
        assert laid_text(text) == before  # the text shown stays meanwhile
        await pilot.press(KEYS[1])  # overtakes the first
        await pilot.pause()
        held.set()
        await settle(app, pilot)
        assert not text.laying_out and LAYING_OUT not in str(text.border_title)
        assert laid_text(text) == expected[1]
        await pilot.press(KEYS[2])  # the mode, laid out in a worker too
        await settle(app, pilot)
        assert laid_text(text) == expected[2]
        assert str(text.border_title) != title and LAYING_OUT not in str(text.border_title)


@pilot_test
async def test_another_document_shown_meanwhile_is_not_replaced_by_the_layout_under_way(monkeypatch):
    """`show` (another document, or the same again) cancels the layout under way: what it shows
    stays."""
    app = Workbench(KEY, [RESPONSE], OPTIONS)
    async with app.run_test(size=(200, 50)) as pilot:
        text, held = await b_held(app, pilot, monkeypatch)
        assert text.laying_out
        pair = app.corpus.pairs[0]
        app.relations_shown = app.relations_shown | {"bridging"}
        text.show(pair.key, pair.response, pair.types, "both", relations=app.relations_of(pair))
        shown = laid_text(text)
        assert not text.laying_out
        held.set()
        await settle(app, pilot)
        assert laid_text(text) == shown and "→" in shown


@pilot_test
async def test_the_token_on_top_when_the_layout_ends_stays_on_top(monkeypatch):
    """The view moved while the worker laid the text out (scrolled, or `n`): the token on its top
    line then is on the top line of the new layout, not the one of when the key was pressed."""
    app = Workbench(KEY, [RESPONSE], OPTIONS)
    async with app.run_test(size=(100, 30)) as pilot:
        text, held = await b_held(app, pilot, monkeypatch)
        text.scroll_to(0, 40, animate=False, immediate=True)
        await pilot.pause()
        top = text.first_visible_token()
        assert top > 0
        held.set()
        await settle(app, pilot)
        assert not text.laying_out
        assert text.scroll_y == text._layout.token_line[top]

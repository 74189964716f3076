"""A long document's text (issue 42): its first sentences laid out at once, the whole in a worker.

The sample's documents stand in for a book by lowering the thresholds: what matters is that the
first part is a prefix of the whole (the same lines), that a note says the rest is coming, that the
whole arrives and is the layout made at once, and that a newer `show` overtakes an older one."""

from __future__ import annotations

from app_support import pilot_test, settle

from workbench.tui import text as text_module
from workbench.tui.app import SAMPLE_KEY, SAMPLE_RESPONSE, Workbench
from workbench.tui.rows import marked_mentions, token_units, wrap_units
from workbench.tui.text import DocumentText


def eager_lines(app: Workbench, view: DocumentText, mode: str) -> list[list[str]]:
    pair = app.corpus.pairs[app.doc_index]
    marks = marked_mentions(pair.key, pair.response, pair.types, mode)
    layout = wrap_units(token_units(pair.key, marks), pair.key.sentence_starts, view._layout.width)
    return [[atom.text for atom in line] for line in layout.lines]


async def laid_out(app, pilot) -> None:
    """Wait for the text's workers (an overtaken one ends cancelled)."""
    from textual.worker import WorkerCancelled

    while any(worker.is_running for worker in app.workers):
        try:
            await app.workers.wait_for_complete()
        except WorkerCancelled:
            continue
    await pilot.pause()


def shown_lines(view: DocumentText) -> list[list[str]]:
    return [[atom.text for atom in line] for line in view._layout.lines]


@pilot_test
async def test_a_long_text_shows_its_first_part_then_the_whole(monkeypatch):
    monkeypatch.setattr(text_module, "WHOLE_AT_ONCE", 100)
    monkeypatch.setattr(text_module, "FIRST_PART", 60)
    app = Workbench(SAMPLE_KEY, SAMPLE_RESPONSE)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        view = app.query_one(DocumentText)
        pair = app.corpus.pairs[app.doc_index]
        assert len(pair.key.words) > 100
        view.show(pair.key, pair.response, pair.types, "both")
        first = shown_lines(view)
        whole = eager_lines(app, view, "both")
        assert view._rest > 0 and len(first) < len(whole)
        assert first[:-1] == whole[:len(first) - 1]  # the same lines (the last may continue)
        assert "laying out the rest" in view.render_line(len(first) - int(view.scroll_y)).text
        await laid_out(app, pilot)
        assert view._rest == 0 and shown_lines(view) == whole
        # a mode switch overtakes: only the newest showing's layout is taken
        view.mode = "key"
        view.mode = "response"
        await laid_out(app, pilot)
        assert shown_lines(view) == eager_lines(app, view, "response")


@pilot_test
async def test_a_long_error_list_is_priced_from_its_top(monkeypatch):
    """The pricing of a long list posts its first rows' impacts first (the rest unpriced, the
    document not yet settled), then the whole list priced, each impact the one-go pricing's."""
    from workbench.tui import workers as workers_module
    from workbench.tui.messages import ImpactsReady

    posted: list[ImpactsReady] = []

    def noted(*args, **kwargs) -> ImpactsReady:
        posted.append(ImpactsReady(*args, **kwargs))
        return posted[-1]

    monkeypatch.setattr(workers_module, "FIRST_PRICED", 5)
    monkeypatch.setattr(workers_module, "ImpactsReady", noted)
    app = Workbench(SAMPLE_KEY, SAMPLE_RESPONSE)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        name = app.corpus.pairs[app.doc_index].name
        partial = [m for m in posted if m.partial and name in m.errors]
        whole = [m for m in posted if not m.partial and name in m.errors]
        assert partial and whole and len(app.errors[name]) > 10
        first = partial[0].errors[name]
        assert all(r.impact is not None for r in first[:5]) and all(r.impact is None for r in first[5:])
        expected = app.session.price(app.errors[name], "conll", app.weights)
        assert [r.impact for r in app.errors[name]] == [r.impact for r in expected]
        assert app.settled_weights == app.weights

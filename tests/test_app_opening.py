"""The workbench opened as `corefwb` opens it (`workbench/tui/opening.py`): inputs read and every
system's scoring started in forked children before the UI starts.  What it shows must be what the
app shows when it loads and scores everything in its own worker, from the first frame on."""

from __future__ import annotations

import os
import time

import pytest
from app_support import pilot_test, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)

from metrics.corpus import children as children_module, scoring
from metrics.corpus.children import score_in_children
from metrics.runtime import parallel
from metrics.measures.weights import W4, Weights
from workbench.session import LoadOptions, Session
from workbench.tui import opening as opening_module
from workbench.tui.app import Workbench
from workbench.tui.comparing import FIRST_METRICS, REST_METRICS, shown_at_start
from workbench.tui.errorlist import ErrorPanel
from workbench.tui.opening import open_inputs

KEY = "samples/gum/key.gum.conll"
GUM, ONTO = "samples/gum/response.gum.conll", "samples/gum/response.ontonotes.conll"
SIZE = (160, 48)

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="opening before the UI forks")


@pytest.fixture
def small_corpora_fork(monkeypatch):
    """The samples are far below the size at which scoring forks: let them fork."""
    monkeypatch.setattr(scoring, "PARALLEL_TOKENS", 1)
    monkeypatch.setattr(children_module, "BACKGROUND_TOKENS", 1)


def opened(responses: list[str], weights: Weights = W4) -> Workbench:
    opening = open_inputs(KEY, responses, LoadOptions(), weights=weights, shown=shown_at_start(len(responses)), processes=2)
    assert opening is not None and opening.session is not None
    return Workbench(KEY, responses, weights=weights, opening=opening)


async def settled_state(app: Workbench) -> dict:
    """Everything the app computed, once settled: every system's scores and error records."""
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        return {system: (repr(view.result.micro), repr(view.result.macro), repr(view.result.documents),
                         repr(view.errors)) for system, view in sorted(app.views.items())}


@needs_fork
@pytest.mark.parametrize("responses", [[GUM], [GUM, ONTO]])
@pilot_test
async def test_opened_workbench_settles_on_what_the_loading_worker_computes(small_corpora_fork, responses):
    weights = Weights(2.0, 1.0, 0.5, 0.25)
    app = opened(responses, weights)
    assert all(children is not None for children in app.opening.scoring.values())
    assert set(app.opening.scoring) == set(range(len(responses)))
    assert await settled_state(app) == await settled_state(Workbench(KEY, responses, weights=weights))


@needs_fork
@pytest.mark.parametrize("responses", [[GUM], [GUM, ONTO]])
@pilot_test
async def test_the_first_frame_has_scores_documents_and_the_first_documents_errors(small_corpora_fork, responses):
    from workbench.tui.text import DocumentText

    app = opened(responses)
    frames: list[tuple[bool, bool, int]] = []  # per frame written: scores, text laid out, error rows
    display = app._display

    def noted(screen, renderable) -> None:
        display(screen, renderable)
        if renderable is not None and screen is app.screen:
            table = app.query_one(ErrorPanel).query_one("#errors")
            frames.append((app.result is not None, app.query_one(DocumentText)._layout is not None, table.row_count))

    app._display = noted
    async with app.run_test(size=SIZE) as pilot:
        assert not app.query_one("#progress").display  # read before the UI: no bar to wait on meanwhile
        while app.session is None:  # taken once the screen is laid out, so all of it fills one frame
            await pilot.pause()
        await pilot.pause()
        first = next(frame for frame in frames if frame[0])
        assert first[1] and first[2] > 0  # the frame with the scores has the text and the error rows
        assert app.result is not None and app.view_of(app.baseline).result is not None
        assert set(app.result.metrics) >= set(FIRST_METRICS)
        rows = app.query_one("#doclist").rows
        assert len(rows) == len(app.session.document_names()) and all("conll" in row.scores for row in rows)
        panel = app.query_one(ErrorPanel)
        assert panel.state == "ready" and panel.rows
        first = app.corpus.pairs[app.doc_index].name  # the top of the list, classified for the first frame too
        assert app.doc_index == app.query_one("#doclist").order()[0]
        shown = [(r.category, r.mention) for r in app.session.classify(W4, [first], app.system)]
        if app.comparing:
            assert {(c.b.category, c.b.mention) for c in panel.rows if c.b is not None} == set(shown)
        else:
            assert [(r.category, r.mention) for r in panel.rows] == shown
        await settle(app, pilot)
        assert len(app.result.metrics) == len(FIRST_METRICS) + len(REST_METRICS)


@needs_fork
def test_scores_in_children_equal_the_scores_stage_by_stage(small_corpora_fork):
    session = Session.load(KEY, [GUM])
    weights = Weights(1.0, 0.5, 0.25, 2.0)
    children = score_in_children(session.corpus, weights, [FIRST_METRICS, REST_METRICS], 3)
    assert children is not None and len(children.pieces) == min(3, len(session.corpus.pairs)) > 1
    first = session.corpus.score(weights, FIRST_METRICS)
    assert repr(children.stage(0).micro) == repr(first.micro)
    whole = first.updated(session.corpus.score(weights, REST_METRICS))
    assert repr(children.stage(1).documents) == repr(whole.documents)
    assert repr(children.stage(1).micro) == repr(whole.micro) and repr(children.stage(0).micro) == repr(first.micro)
    children.close()


def test_no_scoring_in_children_for_a_small_corpus_or_without_fork(monkeypatch):
    session = Session.load(KEY, [GUM])
    assert score_in_children(session.corpus, W4, [FIRST_METRICS], 2) is None  # below BACKGROUND_TOKENS
    monkeypatch.setattr(children_module, "BACKGROUND_TOKENS", 1)
    monkeypatch.setattr(children_module, "can_fork", lambda: False)
    assert score_in_children(session.corpus, W4, [FIRST_METRICS], 2) is None


def test_the_app_loads_by_itself_when_opening_first_does_not_pay(monkeypatch):
    assert open_inputs(KEY, [GUM], LoadOptions(), weights=W4, shown=[0], processes=1) is None  # one process asked for
    monkeypatch.setattr(opening_module, "OPEN_BYTES", 100)
    assert open_inputs(KEY, [GUM], LoadOptions(), weights=W4, shown=[0], processes=2) is None  # too large to keep the screen blank
    monkeypatch.setattr(opening_module, "OPEN_BYTES", 1 << 30)
    monkeypatch.setattr(opening_module, "can_fork", lambda: False)
    assert open_inputs(KEY, [GUM], LoadOptions(), weights=W4, shown=[0], processes=2) is None


@needs_fork
@pilot_test
async def test_an_input_that_cannot_be_read_is_shown_not_raised(tmp_path):
    bad = tmp_path / "bad.conll"
    bad.write_text("#begin document (x); part 000\nx\t0\t0\tword\n", encoding="utf-8")
    opening = open_inputs(str(bad), [str(bad)], LoadOptions(), weights=W4, shown=[0], processes=2)
    assert opening is not None and opening.session is None and "bad.conll" in opening.failure
    app = Workbench(str(bad), [str(bad)], opening=opening)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        status = str(app.query_one("#status").render())
        assert "error" in status and "bad.conll" in status and ":2" in status
        assert app.load_failed and app.corpus is None


@needs_fork
@pilot_test
async def test_a_child_that_dies_is_replaced_by_scoring_in_the_app(small_corpora_fork):
    app = opened([GUM])
    for children in app.opening.scoring.values():
        children.close()  # killed before the UI took anything from them
    assert await settled_state(app) == await settled_state(Workbench(KEY, [GUM]))


@needs_fork
def test_forked_children_send_a_series_each_and_close_ends_them():
    def count(piece: int):
        yield piece
        yield piece * 10
        if piece == 2:
            raise ValueError("piece 2 fails at its third result")
        yield piece * 100

    children = parallel.Forked(count, [1, 2, 3])
    assert children.next() == [1, 2, 3]
    assert children.next() == [10, 20, 30]
    with pytest.raises(ValueError, match="third result"):
        children.next()
    children.close()

    def forever(piece: int):
        yield piece
        while True:
            pass

    children = parallel.Forked(forever, [7])
    assert children.next() == [7]
    pids = [pid for pid, _ in children._children]
    children.close()  # must not wait for a computation that never ends
    for pid in pids:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


@needs_fork
def test_serving_children_answer_each_request_in_piece_order_until_closed():
    def serve(piece: int, requests):
        yield piece
        for factor in requests:
            if factor == 0:
                raise ZeroDivisionError("no factor 0")
            yield piece * factor

    children = parallel.Forked(serve, [1, 2, 3], serving=True)
    assert children.next() == [1, 2, 3]
    assert children.ask(10) == [10, 20, 30] and children.ask(7) == [7, 14, 21]
    with pytest.raises(ZeroDivisionError):
        children.ask(0)
    with pytest.raises(RuntimeError):  # the children ended at their error: no answer comes
        children.ask(2)
    pids = [pid for pid, _ in children._children]
    children.close()
    for pid in pids:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
    with pytest.raises(RuntimeError):
        children.ask(2)


@needs_fork
def test_children_rescore_a_weight_edit_as_the_engine_does(small_corpora_fork):
    """After their stages the children stay and rescore under new weights: the same result as
    `Session.rescore`, weight after weight, and back to the first weights."""
    session = Session.load(KEY, [GUM])
    children = score_in_children(session.corpus, W4, [FIRST_METRICS, REST_METRICS], 3, serving=True)
    result = children.stage(1)
    for weights in (Weights(1.0, 0.5, 0.25, 2.0), Weights(0.5, 1.0, 1.0, 0.0), W4):
        ours, engine = children.rescore(result, weights), session.rescore(result, weights)
        assert ours.weights == weights and ours.metrics == engine.metrics
        assert repr(ours.micro) == repr(engine.micro) and repr(ours.documents) == repr(engine.documents)
        result = ours
    children.close()
    with pytest.raises(RuntimeError):
        children.rescore(result, Weights(1.0, 0.5, 0.25, 2.0))
    ended = score_in_children(session.corpus, W4, [FIRST_METRICS, REST_METRICS], 3)  # not serving: they end
    result = ended.stage(1)
    with pytest.raises(RuntimeError):
        ended.rescore(result, Weights(1.0, 0.5, 0.25, 2.0))


@needs_fork
@pilot_test
async def test_a_weight_edit_in_an_opened_app_is_rescored_by_its_children(small_corpora_fork, monkeypatch):
    """The opened app's weight edit is answered by its children (the engine's own rescoring is not
    called for the shown system) and settles on what an app loading by itself computes."""
    weights = Weights(1.0, 0.5, 0.25, 2.0)
    app = opened([GUM])
    calls = []
    original = Session.rescore
    monkeypatch.setattr(Session, "rescore", lambda self, *args, **kw: calls.append(args) or original(self, *args, **kw))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.rescore(weights)
        await settle(app, pilot)
        ours = (repr(app.result.micro), repr(app.result.documents), repr(app.errors))
    assert calls == []
    plain = Workbench(KEY, [GUM])
    async with plain.run_test(size=SIZE) as pilot:
        await settle(plain, pilot)
        plain.rescore(weights)
        await settle(plain, pilot)
        assert ours == (repr(plain.result.micro), repr(plain.result.documents), repr(plain.errors))


@needs_fork
def test_no_process_to_be_had_leaves_the_scoring_to_the_app(small_corpora_fork, monkeypatch):
    def refuse():
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(parallel.os, "fork", refuse)
    opening = open_inputs(KEY, [GUM], LoadOptions(), weights=W4, shown=[0], processes=2)
    assert opening is not None and opening.session is not None and opening.scoring == {}
    assert opening.preview[0]  # the first document's errors all the same


@needs_fork
def test_a_notice_says_what_is_read_while_the_terminal_waits(monkeypatch):
    said: list[str] = []
    assert open_inputs(KEY, [GUM, ONTO], LoadOptions(), weights=W4, shown=[1, 0], processes=2, notice=said.append) is not None
    assert said == ["reading the key and 2 responses ..."]
    said.clear()
    monkeypatch.setattr(opening_module, "OPEN_BYTES", 100)
    assert open_inputs(KEY, [GUM], LoadOptions(), weights=W4, shown=[0], processes=2, notice=said.append) is None
    assert said == []  # the app loads by itself, behind its progress bar


@needs_fork
@pilot_test
async def test_a_corpus_of_one_document_is_classified_once(tmp_path, monkeypatch):
    """The opening classified the only document (a book: a second and a half): the scoring
    worker takes those errors instead of classifying it again, and they are what it would find."""
    from workbench.tui.rows import group_errors

    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    for source, target in ((KEY, key), (GUM, response)):
        text = open(source, encoding="utf-8").read()
        target.write_text(text[:text.index("#end document")] + "#end document\n", encoding="utf-8")
    opening = open_inputs(str(key), [str(response)], LoadOptions(), weights=W4, shown=[0], processes=2)
    assert opening is not None and len(opening.session.document_names()) == 1
    calls: list[tuple] = []
    classify = Session.classify
    monkeypatch.setattr(Session, "classify", lambda self, *args, **kwargs: calls.append(args) or
                        classify(self, *args, **kwargs))
    app = Workbench(str(key), [str(response)], opening=opening)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert calls == []
        found = group_errors(classify(app.session, W4))
        assert {name: [(r.category, r.mention.span) for r in rows] for name, rows in app.errors.items()} == \
            {name: [(r.category, r.mention.span) for r in rows] for name, rows in found.items()}


def _spied(child) -> list[object]:
    """What `child` is asked from now on (each request recorded, then asked as before)."""
    asked: list[object] = []
    ask = child.ask
    child.ask = lambda request: asked.append(request) or ask(request)
    return asked


@needs_fork
@pilot_test
async def test_the_entity_errors_come_from_the_child_waiting_for_them():
    """`t`: the K&K errors are analysed by the child the opening left waiting (on the other core,
    so the UI keeps its thread), and are the ones the session finds itself."""
    from metrics.runtime.parallel import Forked

    app = opened([GUM, ONTO])
    child = app.opening.entity_errors
    asked = _spied(child)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("t")
        for _ in range(400):
            await pilot.pause(0.05)
            if all(system in app.entity_errors for system in app.shown_systems()):
                break
        assert sorted(asked) == sorted(app.shown_systems())  # one child answers for both systems
        for system in app.shown_systems():
            assert [e.to_json() for e in app.entity_errors[system]] == \
                [e.to_json() for e in app.session.kk_errors(system)]
    assert isinstance(child, Forked) and child._closed  # ended with the app


@needs_fork
@pilot_test
async def test_the_entity_errors_are_asked_for_once_the_first_screen_is_drawn_before_t():
    """The child analyses the shown system's K&K errors as soon as the first screen is drawn,
    so `t` finds them without waiting; they come as arrays (`kkpacked`), each row equal to the
    session's own."""
    from workbench.tui.entityerrors import EntityErrorPanel
    from workbench.tui.kkpacked import PackedKKErrors

    app = opened([GUM])
    child = app.opening.entity_errors
    asked = _spied(child)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        for _ in range(400):
            if app.system in app.entity_errors:
                break
            await pilot.pause(0.05)
        assert asked == [app.system] and app.taxonomy == "chen-ng"  # asked for, `t` not pressed
        assert isinstance(app.entity_errors[app.system], PackedKKErrors)
        await pilot.press("t")
        panel = app.query_one(EntityErrorPanel)
        assert panel.state == "ready"  # at once: nothing left to analyse
        name = app.corpus.pairs[app.doc_index].name
        assert list(panel.rows) == [e for e in app.session.kk_errors(app.system) if e.document == name]
        assert asked == [app.system]  # not asked twice


@needs_fork
def test_every_child_of_the_opening_runs_below_the_ui(small_corpora_fork, monkeypatch):
    """Scoring, pricing and the K&K analysis: each child gives way to the UI's start and drawing
    (the K&K analysis, which starts at once, to every other child too)."""
    from workbench.tui import impacts as impacts_module

    monkeypatch.setattr(impacts_module, "FIRST_PRICED", 5)  # a long first list: a pricing child too
    opening = open_inputs(KEY, [GUM], LoadOptions(), weights=W4, shown=[0], processes=2)
    try:
        assert opening is not None and opening.pricing is not None and opening.entity_errors is not None
        forked = [opening.entity_errors, opening.pricing, *(c._children for c in opening.scoring.values())]
        pids = [pid for children in forked for pid, _ in children._children]
        assert len(pids) >= 3
        own = os.getpriority(os.PRIO_PROCESS, 0)
        lowered = [min(19, own + opening_module.KK_NICE)] + [min(19, own + opening_module.SCORING_NICE)] * (len(pids) - 1)
        for _ in range(100):  # each child lowers itself once forked
            if [os.getpriority(os.PRIO_PROCESS, pid) for pid in pids] == lowered:
                break
            time.sleep(0.02)
        assert [os.getpriority(os.PRIO_PROCESS, pid) for pid in pids] == lowered and own <= lowered[1] <= lowered[0]
    finally:
        opening.close()

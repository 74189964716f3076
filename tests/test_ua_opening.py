"""A UA input read before the UI (`opening.py`, issue 42's UA book): a larger limit than other
formats' (`UA_OPEN_BYTES`), the scoring and relations' children forked before the first document
is typed (they need no types), the relations' errors found in a child and taken by the app, a
long first document's scores not waited for on the UI thread, the per-mention list classified
after the relations' errors, and neither K&K's analysis nor the pricer's set-up beside them.
Every answer of a child is checked against the session computing it itself."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator

import pytest
from app_support import pilot_test, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)

from metrics.corpus import children as children_module
from metrics.measures.weights import W4
from workbench.session import LoadOptions, Session
from workbench.tui import opening as opening_module
from workbench.tui.app import Workbench
from workbench.tui.comparing import complete
from workbench.tui.opening import Opening, open_inputs

KEY = "tests/data/ua/codi/persuasion.key"
RESPONSE = "tests/data/ua/codi/persuasion.response"
UA = LoadOptions(conventions="ua", cache=False)
SIZE = (200, 50)

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="the opening forks")


def _opened(options: LoadOptions = UA, key: str = KEY, response: str = RESPONSE) -> Opening:
    opening = open_inputs(key, [response], options, weights=W4, shown=[0], processes=2)
    assert opening is not None and opening.session is not None
    return opening


@pytest.fixture
def long_book(monkeypatch):
    """The UA pair taken as a book: its first document long whatever its size, scored in a child."""
    monkeypatch.setattr(opening_module, "LONG_FIRST_TOKENS", 1)
    monkeypatch.setattr(children_module, "BACKGROUND_TOKENS", 0)


def _logged(monkeypatch, method: str, events: list[str], said: str):
    """`Session.<method>(system)` saying `said system` in `events` first; the original returned."""
    original = getattr(Session, method)
    monkeypatch.setattr(Session, method, lambda self, system=0: events.append(f"{said} {system}") or
                        original(self, system))
    return original


def _asked(events: list[str], *systems: int) -> Iterator[int]:
    """A child's questions: `asked` said when the first is read."""
    events.append("asked")
    yield from systems


def _slow_relations(monkeypatch, events: list[str], seconds: float) -> None:
    """The relations' child answering `seconds` later (a book's), `relations in` said once it has."""
    relation_errors_of = Opening.relation_errors_of

    def slow(self, system):
        time.sleep(seconds)
        try:
            return relation_errors_of(self, system)
        finally:
            events.append("relations in")

    monkeypatch.setattr(Opening, "relation_errors_of", slow)


def _as_tuples(errors) -> list[tuple]:
    return [(e.relation, e.kind, e.document, e.mention, e.explanation, e.price, e.position, e.words,
             e.key_links, e.response_links) for e in errors]


@needs_fork
def test_ua_inputs_past_the_other_formats_limit_are_read_before_the_ui(monkeypatch):
    size = os.path.getsize(KEY) + os.path.getsize(RESPONSE)
    monkeypatch.setattr(opening_module, "OPEN_BYTES", size - 1)
    monkeypatch.setattr(opening_module, "UA_OPEN_BYTES", size)
    conll = open_inputs("samples/gum/key.gum.conll", ["samples/gum/response.gum.conll"], LoadOptions(cache=False),
                        weights=W4, shown=[0], processes=2)
    assert conll is None  # larger than OPEN_BYTES: the app's worker reads it
    opening = _opened()
    try:
        assert opening.session.options.conventions == "ua"
    finally:
        opening.close()
    monkeypatch.setattr(opening_module, "UA_OPEN_BYTES", size - 1)
    assert open_inputs(KEY, [RESPONSE], UA, weights=W4, shown=[0], processes=2) is None


def test_the_relations_child_finds_the_shown_systems_errors_before_it_is_asked(monkeypatch):
    session = Session.load(KEY, [RESPONSE], UA)
    expected = _as_tuples(Session.load(KEY, [RESPONSE], UA).ua_errors(0))
    events: list[str] = []
    _logged(monkeypatch, "ua_errors", events, "found")
    answers = opening_module._serve_relation_errors(session, [0], None, _asked(events, 0, 0))
    assert _as_tuples(next(answers)) == expected and events == ["found 0", "asked"]
    assert _as_tuples(next(answers)) == expected and events.count("found 0") == 1


@needs_fork
@pilot_test
async def test_the_app_lists_the_relations_errors_the_child_found(monkeypatch):
    expected = _as_tuples(Session.load(KEY, [RESPONSE], UA).ua_errors(0))
    opening = _opened()
    assert opening.relation_errors is not None

    def not_here(self, system=0):
        raise AssertionError("found in the app, not taken from the child")

    monkeypatch.setattr(Session, "ua_errors", not_here)  # the child was forked with the real one
    app = Workbench(KEY, [RESPONSE], UA, opening=opening)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            assert _as_tuples(app.relation_errors[0]) == expected and expected
    finally:
        opening.close()


@needs_fork
def test_under_ua_the_scoring_and_relations_children_come_before_the_typing(monkeypatch, long_book):
    events: list[str] = []
    first_typed, score_in_children = opening_module.first_typed, opening_module.score_in_children
    forked = opening_module.Forked
    monkeypatch.setattr(opening_module, "first_typed", lambda *a: events.append("typed") or first_typed(*a))
    monkeypatch.setattr(opening_module, "score_in_children",
                        lambda *a, **k: events.append("scoring") or score_in_children(*a, **k))

    def logged_fork(function, *args, **kwargs):
        events.append(function.func.__name__)
        return forked(function, *args, **kwargs)

    monkeypatch.setattr(opening_module, "Forked", logged_fork)
    opening = _opened()
    try:
        assert events.index("scoring") < events.index("typed") and "scoring" in events
        assert events.index("_serve_relation_errors") < events.index("typed")
        assert events.index("typed") < events.index("_serve_entity_errors")  # K&K and pricing share the types
        assert opening.scoring and opening.relation_errors is not None
    finally:
        opening.close()
    events.clear()
    opening = _opened(LoadOptions(cache=False), "samples/gum/key.gum.conll", "samples/gum/response.gum.conll")
    try:  # other conventions: every child shares the types (their scores are weighted by them)
        assert events[0] == "typed" and "_serve_relation_errors" not in events and opening.relation_errors is None
    finally:
        opening.close()


@needs_fork
@pilot_test
async def test_a_long_first_documents_scores_are_not_waited_for_on_the_ui_thread(monkeypatch, long_book):
    waited_on: list[bool] = []
    stage = children_module.ScoresInChildren.stage

    def logged(self, index):
        waited_on.append(threading.current_thread() is threading.main_thread())
        return stage(self, index)

    monkeypatch.setattr(children_module.ScoresInChildren, "stage", logged)
    opening = _opened()
    assert opening.scoring and opening.errors_deferred
    app = Workbench(KEY, [RESPONSE], UA, opening=opening)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            expected = Session.load(KEY, [RESPONSE], UA).score(W4, app.result.metrics).micro
            assert complete(app.result, "ua") and app.result.micro == expected
    finally:
        opening.close()
    assert waited_on and not any(waited_on), waited_on


@needs_fork
@pilot_test
async def test_the_per_mention_list_waits_for_the_childs_relations_errors(monkeypatch, long_book):
    events: list[str] = []
    classify = Session.classify
    _slow_relations(monkeypatch, events, 0.5)
    monkeypatch.setattr(Session, "classify", lambda self, *a, **k: events.append("per mention") or classify(self, *a, **k))
    opening = _opened()
    assert opening.errors_deferred
    app = Workbench(KEY, [RESPONSE], UA, opening=opening)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            assert app.relation_errors.get(0) and app.errors
    finally:
        opening.close()
    assert events.index("relations in") < events.index("per mention") and events.count("relations in") == 1, events


def test_the_kk_child_asked_to_wait_analyses_once_asked(monkeypatch):
    session = Session.load(KEY, [RESPONSE], UA)
    events: list[str] = []
    kk_errors = _logged(monkeypatch, "kk_errors", events, "analysed")
    answers = opening_module._serve_entity_errors(session, [0], None, _asked(events, 0), at_once=False)
    assert events == []
    first = next(answers)
    assert events == ["asked", "analysed 0"]
    assert [e.to_json() for e in first] == [e.to_json() for e in kk_errors(session, 0)]


@needs_fork
@pilot_test
async def test_under_ua_kk_and_pricing_wait_for_the_relations_errors(monkeypatch, long_book):
    """Neither the K&K analysis nor the pricer's set-up runs beside the relations' errors: the
    K&K child is asked once they are in, and the pricing child sets up nothing before it is asked."""
    events: list[str] = []
    forked = opening_module.Forked
    entity_errors_of = Opening.entity_errors_of

    def logged_fork(function, *args, **kwargs):
        events.append(f"{function.func.__name__} {sorted(function.keywords.items())}")
        return forked(function, *args, **kwargs)

    monkeypatch.setattr(opening_module, "Forked", logged_fork)
    _slow_relations(monkeypatch, events, 0.3)
    monkeypatch.setattr(Opening, "entity_errors_of", lambda self, system: events.append("kk asked") or
                        entity_errors_of(self, system))
    opening = _opened()
    assert "_serve_entity_errors [('at_once', False)]" in events
    assert any(e.startswith("serve_impacts") and "('warm', [])" in e for e in events), events
    app = Workbench(KEY, [RESPONSE], UA, opening=opening)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            for _ in range(100):
                if 0 in app.entity_errors:
                    break
                await pilot.pause(0.05)
            assert app.entity_errors.get(0) is not None
    finally:
        opening.close()
    assert events.index("relations in") < events.index("kk asked"), events


@needs_fork
def test_closing_a_ua_opening_ends_every_child_it_forked(monkeypatch, long_book):
    """Scoring, relations' errors, K&K and pricing: each child reaped by `close`, none left behind."""
    opening = _opened()
    forked = [*(scores._children for scores in opening.scoring.values()),
              *(c for c in (opening.relation_errors, opening.entity_errors, opening.pricing) if c is not None)]
    assert opening.relation_errors is not None and opening.pricing is not None
    pids = [pid for children in forked for pid, _ in children._children]
    assert len(pids) >= 4
    opening.close()
    for pid in pids:
        with pytest.raises(ChildProcessError):  # reaped: no longer this process's child
            os.waitpid(pid, os.WNOHANG)

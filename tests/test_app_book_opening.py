"""Opening a long first document (a book, issue 42): nothing is classified before the UI (the first
screen shows the text and the scores, the list "analysing", and the app's worker classifies it
then), the pricing child is forked at once, sets up its pricer meanwhile and is sent the errors
it prices, and the K&K child analyses the shown systems from the start.  Each result is checked against the
session computing it itself."""

from __future__ import annotations

import os
import time

import pytest
from app_support import pilot_test, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)

from metrics.measures.weights import W4
from workbench.session import LoadOptions, Session
from workbench.tui import opening as opening_module
from workbench.tui.app import Workbench
from workbench.tui.errorlist import ErrorPanel
from workbench.tui.impacts import Asked, Request, serve_impacts
from workbench.tui.opening import open_inputs
from workbench.tui.rows import group_errors

KEY, GUM = "samples/gum/key.gum.conll", "samples/gum/response.gum.conll"
SIZE = (160, 48)

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="the opening forks")


@pytest.fixture
def book(tmp_path, monkeypatch) -> tuple[str, str]:
    """The sample's first document alone (a corpus of one document, as a book is), taken as long
    whatever its size."""
    monkeypatch.setattr(opening_module, "LONG_FIRST_TOKENS", 1)
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    for source, target in ((KEY, key), (GUM, response)):
        text = open(source, encoding="utf-8").read()
        target.write_text(text[:text.index("#end document")] + "#end document\n", encoding="utf-8")
    return str(key), str(response)


def rows_of(errors: dict) -> dict:
    return {name: [(r.category, r.mention.span, r.fix) for r in rows] for name, rows in errors.items()}


@needs_fork
@pilot_test
async def test_a_long_first_document_is_classified_by_the_app_after_its_scores_and_priced_by_the_child(book, monkeypatch):
    key, response = book
    forked_with: list[dict] = []
    fork = opening_module._fork_pricing
    monkeypatch.setattr(opening_module, "_fork_pricing", lambda opening, serve: forked_with.append(
        {system: dict(errors) for system, errors in opening.preview.items()}) or fork(opening, serve))
    opening = open_inputs(key, [response], LoadOptions(), weights=W4, shown=[0], processes=2)
    assert opening is not None and opening.sends_errors and opening.pricing is not None
    # forked once, and nothing classified before the UI: the app's worker classifies the errors
    assert forked_with == [{}] and opening.preview == {} and opening.errors_deferred
    requests: list[Request] = []
    ask = opening.pricing.ask
    opening.pricing.ask = lambda request: requests.append(request) or ask(request)
    app = Workbench(key, [response], opening=opening)
    when_classified: list[tuple] = []
    classified = Workbench._classified

    def noted(self, *args):  # what the screen held when the worker began classifying
        panel = self.query_one(ErrorPanel)
        when_classified.append((self.result is not None, panel.state, str(panel.border_title)))
        return classified(self, *args)

    monkeypatch.setattr(Workbench, "_classified", noted)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        # once, by the worker, with the scores on screen and the list saying it is being analysed
        assert when_classified == [(True, "analysing", "errors (analysing ...)")]
        found = group_errors(app.session.classify(W4))
        assert rows_of(app.errors) == rows_of(found) and app.errors_weights == W4
        name = app.corpus.pairs[0].name
        assert requests and all(r.rows is not None and r.asked.name == name for r in requests)
        assert [row for r in requests for row in r.rows] == found[name]  # the errors it was sent, in order
        expected = app.session.price(found[name], "conll", W4)
        assert [r.impact for r in app.errors[name]] == [r.impact for r in expected]
        assert all(r.impact is not None for r in app.errors[name]) and app.settled_weights == app.weights
        assert app.query_one(ErrorPanel).state == "ready"


def test_the_pricing_child_prices_the_errors_it_is_sent_as_the_session_does(book):
    """`serve_impacts` run here (as the child runs it): a pricer set up on the document first, then
    each question answered for the errors it carries, the same impacts as `Session.price`."""
    key, response = book
    session = Session.load(key, [response], LoadOptions(cache=False))
    name = session.document_names()[0]
    rows = group_errors(session.classify(W4))[name]
    questions = [Request(Asked(0, W4, name, 0, 3), rows[:3]), Request(Asked(0, W4, name, 3, len(rows)), rows[3:])]
    answers = list(serve_impacts(None, iter(questions), session=session, preview={}, weights=W4, first=[],
                                 warm=[(0, name)]))
    fresh = Session.load(key, [response], LoadOptions(cache=False))
    expected = [r.impact for r in fresh.price(rows, "conll", W4)]
    assert [impact for answer in answers for impact in answer.impacts.tolist()] == expected
    assert [c for answer in answers for c in answer.categories] == [r.category.value for r in rows]


def test_the_kk_child_analyses_the_shown_systems_before_it_is_asked(monkeypatch):
    """The K&K child's work starts with the child, not with the app's question, and answers that
    question (and one for a system not shown) with the session's errors."""
    from workbench.tui.opening import _serve_entity_errors

    session = Session.load(KEY, [GUM], LoadOptions(cache=False))
    events: list[str] = []
    kk_errors = Session.kk_errors
    monkeypatch.setattr(Session, "kk_errors", lambda self, system=0: events.append(f"analysed {system}") or
                        kk_errors(self, system))

    def questions():
        events.append("asked")
        yield 0
        yield 0

    answers = _serve_entity_errors(session, [0], None, questions())
    first = next(answers)
    assert events == ["analysed 0", "asked"]
    assert [e.to_json() for e in first] == [e.to_json() for e in kk_errors(session, 0)]
    assert [e.to_json() for e in next(answers)] == [e.to_json() for e in first] and events.count("analysed 0") == 1


@needs_fork
def test_the_kk_child_runs_below_the_other_children(book):
    key, response = book
    opening = open_inputs(key, [response], LoadOptions(), weights=W4, shown=[0], processes=2)
    try:
        assert opening is not None and opening.entity_errors is not None
        own = os.getpriority(os.PRIO_PROCESS, 0)
        pid = opening.entity_errors._children[0][0]
        wanted = min(19, own + opening_module.KK_NICE)
        for _ in range(100):  # the child lowers itself once forked
            if os.getpriority(os.PRIO_PROCESS, pid) == wanted:
                break
            time.sleep(0.02)
        assert os.getpriority(os.PRIO_PROCESS, pid) == wanted and opening_module.KK_NICE > opening_module.SCORING_NICE
    finally:
        opening.close()

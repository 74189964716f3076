"""Inputs too large for the opening are read by the app's loading worker (`Workbench.load`): the
first document's spans and mention types are found there too, not on the UI thread when its text
is first drawn (a UA book's: 2.7 s in which no key was answered)."""

from __future__ import annotations

import threading

from app_support import pilot_test, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)

from metrics.mentions import types as mention_types
from workbench.session import LoadOptions
from workbench.tui.app import Workbench

KEY = "tests/data/ua/codi/persuasion.key"
RESPONSE = "tests/data/ua/codi/persuasion.response"


@pilot_test
async def test_the_loading_worker_types_the_first_document(monkeypatch):
    typed_on: list[threading.Thread] = []
    assign = mention_types.assign_types

    def noted(*args, **kwargs):
        typed_on.append(threading.current_thread())
        return assign(*args, **kwargs)

    monkeypatch.setattr(mention_types, "assign_types", noted)
    app = Workbench(KEY, [RESPONSE], LoadOptions(conventions="ua"))  # no opening: loaded by its worker
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.corpus.pairs[0].types  # drawn with them
    assert typed_on and threading.main_thread() not in typed_on[:1]


@pilot_test
async def test_the_relations_errors_wait_for_the_scores_made_in_this_process(monkeypatch):
    """Loaded by the app (no scoring child), the relations' errors are found once every metric is
    scored: both made the document's objects and its MOR at once, each for itself."""
    from workbench.session import Session
    from workbench.tui.comparing import complete

    app = Workbench(KEY, [RESPONSE], LoadOptions(conventions="ua"))
    scored_before: list[bool] = []
    ua_errors = Session.ua_errors

    def noted(session, system=0):
        scored_before.append(complete(app.view_of(system).result, "ua"))
        return ua_errors(session, system)

    monkeypatch.setattr(Session, "ua_errors", noted)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.relation_errors[0]
    assert scored_before and all(scored_before)

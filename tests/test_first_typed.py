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

"""Under --conventions ua the workbench opens on the relations' error list; the per-mention list
(Chen & Ng's) is hidden until `t`.  Its classification and pricing therefore wait until the
relations' errors are in: on the UA book they shared the GIL with them and held back the first
screen (`Workers._after_relation_errors`)."""

from __future__ import annotations

import time

from app_support import pilot_test, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)

from workbench.session import LoadOptions, Session
from workbench.tui.app import Workbench
from workbench.tui.errorlist import ErrorPanel

KEY = "tests/data/ua/codi/persuasion.key"
RESPONSE = "tests/data/ua/codi/persuasion.response"


def _logged(events: list[str], name: str, method, pause: float = 0.0):
    """`method`, with its start and end logged (after `pause` seconds: a slow analysis)."""
    def logged(self, *args, **kwargs):
        events.append(f"{name} start")
        time.sleep(pause)
        try:
            return method(self, *args, **kwargs)
        finally:
            events.append(f"{name} end")

    return logged


def test_the_per_mention_errors_wait_for_the_relations_errors(monkeypatch):
    events: list[str] = []
    monkeypatch.setattr(Session, "ua_errors", _logged(events, "relations", Session.ua_errors, pause=0.5))
    monkeypatch.setattr(Session, "classify", _logged(events, "per mention", Session.classify))

    @pilot_test
    async def body() -> None:
        app = Workbench(KEY, [RESPONSE], LoadOptions(conventions="ua"))
        async with app.run_test(size=(200, 50)) as pilot:
            await settle(app, pilot)
            assert app.relation_errors.get(0)  # the list the first screen shows
            assert app.errors  # and the per-mention errors after it
            await pilot.press("t")  # to the per-mention list: its rows are there
            await settle(app, pilot)
            assert app.query_one(ErrorPanel).state == "ready"

    body()
    assert events.index("relations end") < events.index("per mention start"), events


def test_the_hidden_per_mention_list_is_priced_once_shown(monkeypatch):
    """While the relations' list hides it, the per-mention list is not priced (on the UA book
    its pricing was seconds of GIL that every key after the first screen shared); `t` to it
    prices it, its top first (a long list: `FIRST_PRICED` made small)."""
    from workbench.tui import impacts as impacts_module

    monkeypatch.setattr(impacts_module, "FIRST_PRICED", 5)

    @pilot_test
    async def body() -> None:
        app = Workbench(KEY, [RESPONSE], LoadOptions(conventions="ua"))
        async with app.run_test(size=(200, 50)) as pilot:
            await settle(app, pilot)
            rows = next(iter(app.errors.values()))
            assert len(rows) > 2 * 5
            assert all(row.impact is None for row in rows) and not app.priced
            await pilot.press("t")  # to the per-mention list
            await settle(app, pilot)
            rows = next(iter(app.errors.values()))
            assert all(row.impact is not None for row in rows) and app.priced

    body()

"""Impacts priced by the opening's child (`workbench.tui.impacts`): the same numbers as pricing in
the app, the first screen's priced before the app asks, and errors that are not the app's refused."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest
from app_support import SAMPLE_KEY, SAMPLE_RESPONSE, pilot_test, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture)

from metrics.conventions.options import CONLL_2012
from metrics.measures.weights import W4
from workbench.session import LoadOptions
from workbench.tui import impacts as impacts_module
from workbench.tui.app import Workbench
from workbench.tui.comparing import complete
from workbench.tui.impacts import Asked, Priced, pieces, with_impacts
from workbench.tui.opening import open_inputs

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="the opening forks")


def test_a_long_list_is_priced_from_its_top_then_in_runs() -> None:
    assert pieces(0) == [(0, 0)] and pieces(400) == [(0, 400)]
    assert pieces(401) == [(0, 200), (200, 401)]
    assert pieces(5000) == [(0, 200), (200, 2200), (2200, 4200), (4200, 5000)]
    whole = pieces(52572)
    assert whole[0] == (0, 200) and whole[-1][1] == 52572
    assert all(a[1] == b[0] and b[1] - b[0] <= 2000 for a, b in zip(whole, whole[1:]))


@needs_fork
@pilot_test
async def test_the_child_prices_as_the_app_would_and_the_first_screens_before_it_is_asked(monkeypatch):
    monkeypatch.setattr(impacts_module, "FIRST_PRICED", 5)
    monkeypatch.setattr(impacts_module, "PRICED_TOGETHER", 7)
    opening = open_inputs(SAMPLE_KEY, [SAMPLE_RESPONSE], LoadOptions(), weights=W4, shown=[0], processes=2)
    assert opening is not None and opening.pricing is not None
    asked: list[Asked] = []
    scored: list[bool] = []  # whether the scores and the K&K errors were in when each part was asked for
    ask = opening.pricing.ask
    app = Workbench(SAMPLE_KEY, SAMPLE_RESPONSE, opening=opening)

    def noted(request):
        asked.append(request.asked)
        scored.append(complete(app.result, CONLL_2012) and app.system in app.entity_errors)
        return ask(request)

    opening.pricing.ask = noted
    called: list[int] = []
    async with app.run_test(size=(120, 40)) as pilot:
        while app.session is None:
            await pilot.pause()
        monkeypatch.setattr(app.session, "price", lambda records, *a, **k: called.append(len(records)) or [])
        await settle(app, pilot)
        name = app.corpus.pairs[app.doc_index].name
        listed = app.errors[name]
        assert len(listed) > 12 and called == []  # every impact came from the child
        assert asked[0] == Asked(0, W4, name, 0, 5) and [a.end - a.start for a in asked][1:3] == [7, 7]
        assert all(scored[1:])  # the rest priced once the scores and the K&K analysis were in
        monkeypatch.undo()
        expected = app.session.price(listed, "conll", app.weights)
        assert [r.impact for r in listed] == [r.impact for r in expected] and all(r.impact is not None for r in listed)
        assert app.settled_weights == app.weights


def test_impacts_of_other_errors_are_refused() -> None:
    import numpy as np

    from workbench.session import Session
    from workbench.tui.rows import group_errors

    session = Session.load(SAMPLE_KEY, [SAMPLE_RESPONSE], LoadOptions(cache=False))
    rows = next(iter(group_errors(session.classify(W4, session.document_names()[:1], 0)).values()))[:6]
    priced = session.price(rows, "conll", W4)
    answer = Priced(np.array([r.mention.span for r in rows]).reshape(-1, 2), [r.category.value for r in rows],
                    np.array([r.impact for r in priced]))
    assert with_impacts(rows, answer) == priced
    assert with_impacts(rows[1:], answer) is None
    assert with_impacts([rows[1], rows[0], *rows[2:]], answer) is None  # two errors swapped
    different = next(r.category for r in rows if r.category != rows[0].category)
    assert with_impacts([replace(rows[0], category=different), *rows[1:]], answer) is None


@needs_fork
def test_no_pricing_child_for_a_short_first_list() -> None:
    """A first list priced in one go (the sample's) costs the app's worker milliseconds: no child
    is forked for it (forking would come out of the first screen's time)."""
    opening = open_inputs(SAMPLE_KEY, [SAMPLE_RESPONSE], LoadOptions(), weights=W4, shown=[0], processes=2)
    try:
        assert opening is not None and opening.session is not None
        listed = [len(rows) for rows in opening.preview[0].values()]
        assert listed and all(len(pieces(count)) == 1 for count in listed)
        assert opening.pricing is None
    finally:
        opening.close()

"""The workbench's status line names a match or singletons setting v8.01 lacks, as every command's
output does (`output.conventions_header`): the scores beside it are not v8.01's."""

from __future__ import annotations

import pytest
from app_support import SAMPLE_KEY, SAMPLE_RESPONSE, pilot_test, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)

from metrics.measures.weights import W4
from workbench.session import LoadOptions
from workbench.tui.app import Workbench


@pytest.mark.parametrize(("options", "said"), [({}, None), ({"match": "head"}, "conll head"),
                                               ({"singletons": "remove"}, "conll exact, no singletons"),
                                               ({"match": "partial", "singletons": "remove"},
                                                "conll partial, no singletons")])
@pilot_test
async def test_status_line_names_what_departs_from_v801(options, said):
    app = Workbench(SAMPLE_KEY, SAMPLE_RESPONSE, LoadOptions(**options), weights=W4)
    for size in ((100, 30), (200, 50)):
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            status = str(app.query_one("#status").render())
            if said is None:
                assert "conll" not in status.replace("by conll", ""), status
            else:
                assert said in status and "CoNLL F1" in status, status
        app = Workbench(SAMPLE_KEY, SAMPLE_RESPONSE, LoadOptions(**options), weights=W4)

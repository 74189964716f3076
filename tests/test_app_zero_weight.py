"""The weight editor offers w_zero where `--weights` takes a fifth number (CorefUD's and UA's
conventions) and keeps it through an edit of the other four; under CoNLL-2012's it has four boxes,
as the CLI refuses a fifth there.  (An edit of w_nam dropped a w_zero given on the command line.)"""

from __future__ import annotations

from pathlib import Path

from app_support import SAMPLE_KEY, SAMPLE_RESPONSE, pilot_test, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)
from textual.widgets import Input

from metrics.measures.weights import W4
from workbench.session import LoadOptions
from workbench.tui.app import Workbench

COREFUD = Path(__file__).resolve().parent / "data" / "corefud"
SIZE = (160, 48)


def corefud_app(weights) -> Workbench:
    options = LoadOptions(conventions="corefud", match="head", singletons="remove", cache=False)
    return Workbench(str(COREFUD / "key.conllu"), [str(COREFUD / "response.conllu")], options, weights=weights)


@pilot_test
async def test_a_zero_weight_is_shown_and_kept_through_an_edit_of_the_others() -> None:
    app = corefud_app(W4._replace(zero=0.25))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        zero = app.query_one("#w-zero", Input)
        assert zero.value == "0.25"
        box = app.query_one("#w-nom", Input)
        box.focus()
        box.value = ""
        await pilot.press("0", ".", "1")
        await settle(app, pilot)
        assert app.weights == W4._replace(nom=0.1, zero=0.25)
        zero.value = ""  # empty: as w_pro, as `--weights` with four numbers
        await settle(app, pilot)
        assert app.weights == W4._replace(nom=0.1) and app.weights.zero is None
        zero.value = "x"
        await pilot.pause()
        assert "w_zero" in str(app.query_one("#score-status").render())
        assert app.weights.zero is None  # refused, not taken
        zero.value = "2"
        await settle(app, pilot)
        assert app.weights == W4._replace(nom=0.1, zero=2.0) and app.result.weights.zero == 2.0
        assert str(app.query_one("#score-status").render()) == "scored with W = (1, 0.1, 0.5, 1, 2)"


@pilot_test
async def test_conll_offers_no_zero_weight() -> None:
    app = Workbench(SAMPLE_KEY, SAMPLE_RESPONSE, LoadOptions(), weights=W4)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert not app.query("#w-zero") and len(app.query("#weights Input")) == 4

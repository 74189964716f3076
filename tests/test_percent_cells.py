"""The workbench's percentages keep to the six columns its panels give them, with the CLI's
decimals wherever the column has room (`output.fitted_percent`, the one rule)."""

from hypothesis import given
from hypothesis import strategies as st

from workbench.output import SCORE_DECIMALS, percent as cli_percent
from workbench.tui.rows import percent


def test_an_ordinary_score_keeps_the_cli_decimals() -> None:
    assert percent(0.6101) == " 61.01"
    assert percent(0.0) == "  0.00"
    assert percent(None) == ""


def test_a_score_too_wide_for_its_decimals_and_a_blank_loses_a_decimal() -> None:
    assert percent(1.0) == " 100.0"  # `100.00` would touch the column before it
    assert percent(-0.1553) == " -15.5"
    assert percent(-0.9999) == "  -100"


def test_an_ace_value_far_below_zero_fits_without_running_into_the_next_column() -> None:
    assert percent(-155.35) == "-15535"
    assert percent(-1553.5) == "-2e+05"


@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False))
def test_every_value_fits_six_columns(value: float) -> None:
    assert len(percent(value)) == 6


@given(st.floats(min_value=-0.0999, max_value=0.9999, allow_nan=False))
def test_the_workbench_shows_what_the_cli_prints(value: float) -> None:
    """Every score from -9.99 to 99.99: the text and Markdown tables' `percent`, to the character."""
    assert percent(value).strip() == cli_percent(value)
    assert SCORE_DECIMALS == 2 and len(cli_percent(value).partition(".")[2]) == SCORE_DECIMALS

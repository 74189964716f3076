"""The workbench's percentages keep to the six columns its panels give them."""

from hypothesis import given
from hypothesis import strategies as st

from workbench.tui.rows import percent


def test_an_ordinary_score_keeps_its_decimal() -> None:
    assert percent(0.6101) == "  61.0"
    assert percent(-0.9999) == "-100.0"
    assert percent(None) == ""


def test_an_ace_value_far_below_zero_fits_without_running_into_the_next_column() -> None:
    assert percent(-155.35) == "-15535"
    assert percent(-1553.5) == "-2e+05"


@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False))
def test_every_value_fits_six_columns(value: float) -> None:
    assert len(percent(value)) == 6

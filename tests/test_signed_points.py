"""A change in points is never written `-0.0`: a drop that rounds to zero has no direction to show
(agree11 saw the workbench's ΔF read `-0.0`; `compare`'s differences could read `-0.00`)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from workbench.output import SCORE_DECIMALS, fitted_interval, fitted_points, signed_points


def test_signs_and_zero() -> None:
    assert signed_points(1.254, 2) == "+1.25"
    assert signed_points(-0.4, 2) == "-0.40"
    assert signed_points(-0.004, 2) == "0.00"
    assert signed_points(0.004, 2) == "0.00"
    assert signed_points(-0.04, 1, 6) == "   0.0"
    assert signed_points(-0.06, 1, 6) == "  -0.1"


@given(st.floats(-200, 200), st.sampled_from((1, 2)))
def test_value_kept_and_no_negative_zero(points: float, digits: int) -> None:
    text = signed_points(points, digits)
    assert float(text) == float(f"{points:.{digits}f}")
    assert not text.startswith("-") or float(text) < 0
    assert text.startswith(("+", "-")) or float(text) == 0


@given(st.floats(-100, 100), st.integers(5, 9))
def test_fitted_points_keep_the_scores_decimals_where_they_fit(points: float, width: int) -> None:
    """The workbench's ΔF: `signed_points` with the most decimals, up to the scores' (`SCORE_DECIMALS`,
    as `corefwb compare` writes them), that leave a blank before it in `width` cells."""
    text = fitted_points(points, width)
    assert len(text) == width and text[0] == " "
    fits = [d for d in range(SCORE_DECIMALS, 0, -1) if len(signed_points(points, d)) < width]
    assert text.strip() == signed_points(points, fits[0] if fits else 0)


@given(st.floats(-100, 100), st.floats(-100, 100), st.integers(12, 16))
def test_fitted_interval_keeps_the_scores_decimals_where_they_fit(low: float, high: float, width: int) -> None:
    text = fitted_interval(low, high, width)
    fits = [d for d in range(SCORE_DECIMALS, 0, -1)
            if len(f"[{signed_points(low, d)},{signed_points(high, d)}]") < width]
    decimals = fits[0] if fits else 0
    assert text.strip() == f"[{signed_points(low, decimals)},{signed_points(high, decimals)}]"
    assert len(text) >= width and (len(text) == width or not fits)


def test_the_panels_examples() -> None:
    assert fitted_points(1.254, 6) == " +1.25" and fitted_points(-26.63, 6) == " -26.6"
    assert fitted_points(-0.004, 6) == "  0.00" and fitted_points(-100.0, 6) == "  -100"
    assert fitted_interval(1.25, 3.4, 14) == " [+1.25,+3.40]" and fitted_interval(-26.63, -23.8, 14) == " [-26.6,-23.8]"
    assert fitted_interval(1.26, 3.4, 13) == "  [+1.3,+3.4]"

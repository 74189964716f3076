"""A change in points is never written `-0.0`: a drop that rounds to zero has no direction to show
(agree11 saw the workbench's ΔF read `-0.0`; `compare`'s differences could read `-0.00`)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from workbench.output import signed_points


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

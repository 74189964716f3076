"""One unit for an error's impact (issue 17, item 2): points of the corpus metric, written the same
way on screen, in `corefwb errors` (text, Markdown) and in exports, never `-0.0000`; CSV and JSON at full
precision."""

from __future__ import annotations

import csv
import io
import json
import math

import pytest
from hypothesis import given, strategies as st

from workbench.cli import main
from workbench.output import impact_points, impact_text

KEY, RESPONSE = "samples/gum/key.gum.conll", "samples/gum/response.gum.conll"


@pytest.mark.parametrize("value, text", [
    (None, ""), (0.0, "0"), (-0.0, "0"), (1e-12, "0"), (-1e-12, "0"),
    (0.0123, "+1.23"), (-0.0123, "-1.23"), (0.000812, "+0.0812"), (0.00000812, "+0.000812"),
    (0.25, "+25.00"), (0.0000000812, "+8.12e-06"), (0.000000903, "+9.03e-05"), (-0.000000999, "-9.99e-05"),
])
def test_impact_text(value, text):
    assert impact_text(value) == text


@given(st.floats(min_value=-1, max_value=1, allow_nan=False))
def test_impact_text_never_negative_zero_and_keeps_three_digits(value):
    text = impact_text(value)
    assert text == "0" or float(text) != 0  # a shown zero is "0", never "-0.0000" or "+0.000"
    points = 100 * value
    if abs(points) >= 5e-7:  # three significant digits: the relative error is at most 0.5%
        assert math.isclose(float(text), points, rel_tol=6e-3) and len(text) <= 9
    assert impact_points(value) is not None and str(impact_points(value)) != "-0.0"


def test_errors_command_uses_one_unit_in_every_format(capsys):
    args = ["errors", KEY, RESPONSE, "--impact", "conll", "--limit", "40"]
    assert main(args + ["--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert main(args + ["--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "impact (points)" in text
    assert rows and len(rows) == len(report["errors"])
    for row, error in zip(rows, report["errors"]):  # points everywhere; CSV, for programs, as precise as JSON
        assert float(row["impact_points"]) == error["impact_points"]
        assert impact_text(error["impact_points"] / 100) in text
        assert not row["impact_points"].startswith("-0") or float(row["impact_points"]) < 0
    nonzero = [r for r in rows if float(r["impact_points"]) != 0]
    assert len(nonzero) > len(rows) // 2  # the unit is fine enough to show that errors cost

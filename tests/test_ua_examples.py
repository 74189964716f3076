"""docs/ua.md's worked examples (tests/data/ua), one per relation, scored through the CLI as a user
would; every number the page prints is asserted here, and the page is checked to print them.

The files are our own small texts; the UA scorer 2.0 prints the same numbers for them (run it with
the options each example names).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.cli import main

DATA = Path(__file__).parent / "data" / "ua"
DOC = (Path(__file__).parent.parent / "docs" / "ua.md").read_text(encoding="utf-8")


def score(capsys, example: str, *options: str) -> dict:
    status = main(["score", str(DATA / f"{example}.key"), str(DATA / f"{example}.response"), "--format", "json",
                   *options])
    out = capsys.readouterr().out
    assert status == 0
    return json.loads(out)


def percents(value: dict) -> tuple[str, str, str]:
    return tuple(f"{100 * value[k]:.2f}" for k in ("recall", "precision", "f1"))  # type: ignore[return-value]


def on_the_page(label: str, numbers: tuple[str, ...]) -> None:
    """The page's table row of this score: `| label | R | P | F |`."""
    assert f"| {label} | {' | '.join(numbers)} |" in DOC, (label, numbers)


EXAMPLES = [
    ("split", ("--split-antecedents", "keep", "--metrics", "muc,bcub,ceafe,ceafm,blanc,lea"), {
        "muc": ("75.00", "100.00", "85.71"), "bcub": ("77.78", "100.00", "87.50"), "ceafe": ("94.44", "94.44", "94.44"),
        "ceafm": ("90.00", "90.00", "90.00"), "blanc": ("56.25", "56.25", "56.25"), "lea": ("73.33", "100.00", "84.62"),
        "conll": ("82.41", "98.15", "89.22")}),
    ("split", ("--only-split-antecedents", "--metrics", "muc"), {"muc": ("50.00", "100.00", "66.67")}),
    ("non_referring", ("--metrics", "non_referring"), {"non_referring": ("50.00", "100.00", "66.67")}),
    ("bridging", ("--preset", "codicrac22br"), {
        "bridging_recognition": ("50.00", "50.00", "50.00"), "bridging_markable": ("0.00", "0.00", "0.00"),
        "bridging_entity": ("50.00", "50.00", "50.00")}),
    ("deixis", ("--discourse-deixis", "--metrics", "muc,bcub,ceafe"), {
        "muc": ("50.00", "100.00", "66.67"), "bcub": ("44.44", "100.00", "61.54"), "ceafe": ("80.00", "80.00", "80.00")}),
]


@pytest.mark.parametrize("example, options, expected", EXAMPLES)
def test_each_worked_example_scores_as_the_page_says(capsys, example, options, expected):
    result = score(capsys, example, *options)
    assert result["conventions"] == "ua"
    for metric, numbers in expected.items():
        assert percents(result["metrics"][metric]) == numbers, metric
        on_the_page(f"{example} {metric}", numbers)


def test_the_split_example_by_hand(capsys):
    """MUC's recall, link by link: They + the split antecedents {Mary; John} against the
    response's {John}: the pair's MUC recall 1/2 is its credit, so the plural entity keeps
    2 - 1 (partition of They) - (1 - 1/2) = 1/2 of its link; Mary-She keeps its 1: (1 + 1/2) / 2."""
    muc = score(capsys, "split", "--split-antecedents", "keep", "--metrics", "muc")["metrics"]["muc"]
    assert muc["counts"] == [1.5, 2.0, 2.0, 2.0]


def test_the_bridging_example_errors_are_priced(capsys):
    status = main(["errors", str(DATA / "bridging.key"), str(DATA / "bridging.response"), "--conventions", "ua",
                   "--format", "json", "--singletons", "keep"])
    assert status == 0
    out = json.loads(capsys.readouterr().out)
    kinds = sorted((e["type"], e["mention"]) for e in out["errors"] if e["relation"] == "bridging")
    assert kinds == [("missed", "10-11 'the roof'"), ("spurious", "13-14 'the garden'"), ("wrong_anchor", "4-5 'the door'")]
    missed = next(e for e in out["errors"] if e["type"] == "missed")
    # fixed, recognition is 2/2 recall and 2/3 precision: F1 0.8, up from 0.5
    assert missed["price"]["bridging_recognition"] == pytest.approx(30.0)
    on_the_page("bridging missed price", ("+30.00",))

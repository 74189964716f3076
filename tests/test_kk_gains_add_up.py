"""K&K's table (`errors --taxonomy kk`): each stage's gain is the difference of the two CoNLL F1
the table shows beside it (agree11).  From the unrounded values a reader found 61.02 followed by
63.86 with a gain of +2.83 on gum-open, and 77.30 then 89.73 with +12.44."""

from __future__ import annotations

from types import SimpleNamespace

from metrics.errors.kummerfeld_klein import KK_TYPES
from workbench.cli import main
from workbench.commands.errors_kk import paper_table

SAMPLE = ("samples/gum/key.gum.conll", "samples/gum/response.gum.conll")


def adds_up(rows: list[list], column: int) -> None:
    """Every stage's gain (the cell after `column`) is its F1 less the row above's, as shown."""
    for above, row in zip(rows, rows[1:]):
        shown = float(row[column]) - float(above[column])
        assert row[column + 1] == f"{shown:+.2f}", (above, row)


def test_gains_are_the_differences_of_the_f1_shown():
    # gum-open's unrounded progression: every gain rounded alone, two of them a hundredth off
    values = [61.0249, 63.8551, 74.2370, 76.5168, 77.2995, 89.7345, 92.7514, 93.3278]
    report = SimpleNamespace(metric="conll", baseline={"conll": values[0] / 100},  # the engine's fractions
                             progression=[(kind, {"conll": value / 100}) for kind, value in zip(KK_TYPES, values[1:])])
    headers, rows = paper_table(report, [])
    column = headers.index("CoNLL F1 after (points)")
    assert [row[column] for row in rows] == [f"{value:.2f}" for value in values]
    adds_up(rows, column)


def test_the_clis_table_adds_up(capsys, monkeypatch):
    monkeypatch.chdir(__file__.rsplit("/tests/", 1)[0])
    assert main(["errors", "--taxonomy", "kk", "--format", "csv", *SAMPLE]) == 0
    lines = [line.split(",") for line in capsys.readouterr().out.splitlines()]
    header = next(i for i, line in enumerate(lines) if "CoNLL F1 after (points)" in line)
    column = lines[header].index("CoNLL F1 after (points)")
    rows = [line for line in lines[header + 1:header + 1 + 1 + len(KK_TYPES)]]
    adds_up(rows, column)

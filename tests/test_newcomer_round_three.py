"""Issue 44 (the workbench and the CLI as a newcomer meets them, round three): each reproduction,
fixed. The chain numbering shared by every view and export has its own file
(tests/test_chain_numbering.py)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from test_crac import make_run
from workbench.cli import main

ROOT = Path(__file__).resolve().parent.parent
KEY, RESPONSE = str(ROOT / "samples/gum/key.gum.conll"), str(ROOT / "samples/gum/response.gum.conll")


def test_crac_csv_and_json_hold_plain_numbers(tmp_path, capsys):
    """Item 1: no `np.float64(...)` in a CSV cell, and the significance level is 0.05."""
    systems = make_run(tmp_path, {"aa_one": 3, "bb_two": 2})
    main(["crac", str(tmp_path / "key"), *systems, "--format", "csv", "--no-cache", "--bootstrap", "0"])
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    for row in rows[1:]:
        for cell in row[4:]:
            assert cell == "" or float(cell) >= 0, row
    main(["crac", str(tmp_path / "key"), *systems, "--format", "json", "--no-cache", "--bootstrap", "20"])
    assert json.loads(capsys.readouterr().out)["significance"]["level"] == 0.05

"""Every CSV of scores says, in a column a CSV reader sees, that the ACE-value's row holds the value
in its f1 column (text, Markdown and JSON say it too): a script must not take it for an F1.  And every convention's JSON report lists its documents in one
shape."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from metrics.measures.catalog import METRICS
from workbench.cli import main
from workbench.output import SCORE_CSV_COLUMNS, single_valued_note

ROOT = Path(__file__).resolve().parent.parent
LUO = ROOT / "samples" / "luo"
COREFUD = ROOT / "tests" / "data" / "corefud"
UA = ROOT / "tests" / "data" / "ua"


def _csv(capsys, *args: str) -> list[dict[str, str]]:
    assert main(list(args)) == 0
    return list(csv.DictReader(io.StringIO(capsys.readouterr().out.split("\n\n")[0])))


def _notes_hold_exactly_the_single_valued(rows: list[dict[str, str]]) -> None:
    assert rows and {row["metric"] for row in rows} >= {"muc", "ace"}
    for row in rows:
        wanted = single_valued_note([row["metric"]]) or ""
        assert row["note"] == wanted, row
        assert bool(row["note"]) == METRICS[row["metric"]].single


@pytest.mark.parametrize("conventions, key, response", [
    ("conll", LUO / "key.conll", LUO / "response-a.conll"),
    ("corefud", COREFUD / "key.conllu", COREFUD / "response.conllu"),
])
def test_score_csv_notes_the_ace_row_under_every_convention(capsys, conventions, key, response) -> None:
    rows = _csv(capsys, "score", str(key), str(response), "--conventions", conventions, "--metrics", "muc,ace",
                "--per-doc", "--format", "csv")
    assert list(rows[0]) == SCORE_CSV_COLUMNS
    _notes_hold_exactly_the_single_valued(rows)
    assert "ACE-value" in rows[1]["note"] and "F1" in rows[1]["note"]


def test_score_ci_and_compare_csv_note_the_ace_row(capsys) -> None:
    key, a, b = str(LUO / "key.conll"), str(LUO / "response-a.conll"), str(LUO / "response-b.conll")
    _notes_hold_exactly_the_single_valued(_csv(capsys, "score", key, a, "--metrics", "muc,ace", "--ci",
                                               "--bootstrap", "20", "--format", "csv"))
    compared = _csv(capsys, "compare", key, a, b, "--metrics", "muc,ace", "--format", "csv")
    assert list(compared[0])[-1] == "note"
    _notes_hold_exactly_the_single_valued(compared)


@pytest.mark.parametrize("args", [
    ("--conventions", "conll", str(LUO / "key.conll"), str(LUO / "response-a.conll")),
    ("--conventions", "corefud", str(COREFUD / "key.conllu"), str(COREFUD / "response.conllu")),
    ("--conventions", "ua", str(UA / "bridging.key"), str(UA / "bridging.response")),
])
def test_per_document_json_has_one_shape_under_every_convention(capsys, args) -> None:
    """`documents` the count, `per_document` a list of {document, metrics}: CorefUD's and UA's
    reports listed the documents in `documents`, each under `name`, so a script reading CoNLL's broke."""
    assert main(["score", *args, "--per-doc", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["documents"] == len(report["per_document"]) >= 1
    for entry in report["per_document"]:
        assert set(entry) == {"document", "metrics"} and set(entry["metrics"]) == set(report["metrics"])
        assert set(next(iter(entry["metrics"].values()))) >= {"recall", "precision", "f1"}


def _tables(capsys, *args: str) -> list[list[dict[str, str]]]:
    assert main(list(args)) == 0
    return [list(csv.DictReader(io.StringIO(part))) for part in capsys.readouterr().out.split("\n\n") if part.strip()]


def test_every_csv_table_of_a_metrics_scores_notes_its_ace_row(capsys) -> None:
    """The `--ci` interval table (`metric,f1,low,high`) and the group tables had no `note` while the
    main table had: one rule for every CSV table with a row per metric."""
    key, a, b = str(LUO / "key.conll"), str(LUO / "response-a.conll"), str(LUO / "response-b.conll")
    for args in (("score", key, a, "--ci", "--bootstrap", "20", "--group-by", "genre"),
                 ("compare", key, a, b, "--bootstrap", "20", "--group-by", "genre")):
        tables = [t for t in _tables(capsys, *args, "--metrics", "muc,ace", "--format", "csv") if t and "metric" in t[0]]
        assert len(tables) == (3 if args[0] == "score" else 2)  # scores, (intervals,) groups
        for rows in tables:
            assert list(rows[0])[-1] == "note"
            _notes_hold_exactly_the_single_valued(rows)

"""One UA pair through every view (`score` as text, JSON and CSV; `compare` with its significance
tests and per-system counts; `errors`; the workbench's scores panel, single and compare mode): the
same metrics, the UA convention's `scores` (the UA scorer's list, one definition), and the same
numbers, all from the engine's one entry point.

Before, `compare --conventions ua` listed the catalogue's metrics (the LMetrics, Tuggener's, CEAF-φ
and the ACE-value over the identity chains) and refused the UA scorer's own (`--metrics
bridging_recognition` was an unknown metric); the workbench's panel listed both lists."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from app_support import pilot_test, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)

from metrics.conventions.registry import convention
from metrics.measures.catalog import label
from workbench.cli import main
from workbench.session import LoadOptions
from workbench.tui.app import Workbench
from workbench.tui.rows import percent
from workbench.tui.scores import ScoresPanel

KEY = "tests/data/ua/codi/persuasion.key"
RESPONSE = "tests/data/ua/codi/persuasion.response"
UA_OPTIONS = ("--conventions", "ua", "--split-antecedents", "keep")
LISTED = [metric.name for metric in convention("ua").scores]


def run(capsys, *argv: str) -> str:
    status = main(list(argv))
    out = capsys.readouterr().out
    assert status == 0
    return out


def percents(score: dict) -> list[str]:
    """The workbench's cells (`fitted_percent`) of a JSON score."""
    return [percent(score[part]).strip() for part in ("recall", "precision", "f1")]


def test_score_compare_and_errors_list_the_same_metrics_with_the_same_numbers(capsys):
    scored = json.loads(run(capsys, "score", KEY, RESPONSE, *UA_OPTIONS, "--format", "json"))["metrics"]
    assert list(scored) == LISTED
    assert {"mor", "non_referring", "bridging_recognition", "bridging_markable", "bridging_entity"} <= set(LISTED)
    assert not {"lmuc", "immediate", "ceaf_phi1", "ace"} & set(LISTED)

    rows = list(csv.reader(io.StringIO(run(capsys, "score", KEY, RESPONSE, *UA_OPTIONS, "--format", "csv"))))
    assert rows[0][5] == "note" and not any(row[5] for row in rows[1:])  # no single-valued metric under UA
    assert {row[1]: [float(v) for v in row[2:5]] for row in rows[1:]} == \
        {m: [s["recall"], s["precision"], s["f1"]] for m, s in scored.items()}
    text = run(capsys, "score", KEY, RESPONSE, *UA_OPTIONS).splitlines()
    for name, score in scored.items():  # two decimals in the CLI's text
        wanted = [f"{100 * score[part]:.2f}" for part in ("recall", "precision", "f1")]
        assert any(line.split()[-3:] == wanted and label(name) in line for line in text), name

    compared = json.loads(run(capsys, "compare", KEY, RESPONSE, KEY, *UA_OPTIONS, "--format", "json",
                              "--bootstrap", "50"))
    assert list(compared["metrics"]) == LISTED
    assert list(compared["intervals"]) == LISTED and list(compared["differences"]) == LISTED
    for name, score in scored.items():
        mine = compared["metrics"][name]["persuasion.response"]
        assert [mine[part] for part in ("recall", "precision", "f1")] == [score[p] for p in ("recall", "precision", "f1")]
        assert compared["metrics"][name]["persuasion.key"]["f1"] == 1.0  # the key against itself
        assert "p_value" in compared["differences"][name]["persuasion.key"]  # tested, not left out (one document: None)
    text = run(capsys, "compare", KEY, RESPONSE, KEY, *UA_OPTIONS, "--bootstrap", "50")
    header = next(line for line in text.splitlines() if line.startswith("system "))
    assert all(label(name) in header for name in LISTED) and "LMUC" not in header

    errors = json.loads(run(capsys, "errors", KEY, RESPONSE, *UA_OPTIONS, "--format", "json"))
    assert {metric for error in errors["errors"] for metric in error["price"]} <= set(LISTED)
    assert compared["ua_relations"][0] == {"system": "persuasion.response", "counts": errors["counts"]}


def test_compare_takes_the_ua_scorers_metric_names_and_refuses_the_others(capsys):
    compared = json.loads(run(capsys, "compare", KEY, RESPONSE, KEY, *UA_OPTIONS, "--format", "json",
                              "--metrics", "bridging,non-referring,muc", "--bootstrap", "20"))
    assert list(compared["metrics"]) == ["muc", "non_referring", "bridging_recognition", "bridging_markable",
                                         "bridging_entity"]
    assert main(["compare", KEY, RESPONSE, KEY, *UA_OPTIONS, "--metrics", "lmuc"]) == 2
    assert "unknown UA metric 'lmuc'" in capsys.readouterr().err


def options() -> LoadOptions:
    return LoadOptions(conventions="ua", singletons="keep", split_antecedents=True)


@pilot_test
async def test_the_workbench_scores_panel_lists_those_metrics_with_those_numbers(capsys):
    scored = json.loads(run(capsys, "score", KEY, RESPONSE, *UA_OPTIONS, "--format", "json"))
    corpus, (document,) = scored["metrics"], scored["per_document"]
    app = Workbench(KEY, [RESPONSE], options())
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        panel = app.query_one(ScoresPanel)
        assert sorted(panel._shown_metrics) == sorted(LISTED)
        for name, row in zip(panel._shown_metrics, panel._shown):
            cells = [cell.strip() for cell in row]
            assert cells[1:4] == percents(document["metrics"][name]), name
            assert cells[5:8] == percents(corpus[name]), name


@pilot_test
async def test_compare_mode_lists_them_too_each_with_its_interval(capsys):
    compared = json.loads(run(capsys, "compare", KEY, RESPONSE, KEY, *UA_OPTIONS, "--format", "json",
                              "--bootstrap", "20"))
    app = Workbench(KEY, [RESPONSE, KEY], options())
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        panel = app.query_one(ScoresPanel)
        assert sorted(panel._shown_metrics) == sorted(LISTED)
        for name, row in zip(panel._shown_metrics, panel._shown):
            assert percent(compared["metrics"][name]["persuasion.response"]["f1"]).strip() in [c.strip() for c in row]
            assert row[-1] not in ("", "…"), name  # the interval came


def test_a_resample_of_any_ua_score_is_the_score_of_those_documents_summed(tmp_path):
    """Why compare may test every UA score: its paired tests score a resample of documents by
    summing their counts (`significance`); for each UA score, bridging and BLANC's two parts
    included, that equals the corpus score of the resampled documents taken as a corpus.  (Weights
    0, 1 and 2: each document left out, taken once or twice.)"""
    import numpy as np

    from metrics.corpus.scoring import aggregate
    from metrics.measures.catalog import with_parts
    from metrics.statistics.significance import _Counts
    from workbench.session import Session

    examples = ("bridging", "deixis", "non_referring", "split")
    for side in ("key", "response"):
        text = "".join((Path("tests/data/ua") / f"{name}.{side}").read_text(encoding="utf-8") for name in examples)
        (tmp_path / side).write_text(text, encoding="utf-8")
    session = Session.load(str(tmp_path / "key"), [str(tmp_path / "response")], options())
    result = session.score(metrics=with_parts(LISTED))
    documents = list(result.documents)
    counts = _Counts(result, LISTED)
    draws = np.random.default_rng(7).integers(0, 3, size=(6, len(documents)))
    assert draws.sum(axis=1).min() > 0
    for name in LISTED:
        values = counts.values(draws.astype(np.float64), name)
        for row, value in zip(draws, values):
            resampled = [document for document, times in zip(documents, row) for _ in range(times)]
            # summed by a matrix product: equal but for the order of float additions
            assert value == pytest.approx(aggregate(resampled, result.weights, (name,)).micro[name].f1, rel=1e-12,
                                          abs=1e-15), name

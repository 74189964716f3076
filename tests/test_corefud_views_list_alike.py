"""Under the CorefUD conventions every view can show every metric any of them shows, with the same
number (agree11).

The workbench's scores panel lists the convention's metrics and corefud-scorer's own
(`metrics.conventions.base.listed`: LMUC, Mentions, the ACE-value... and MOR, zero).  Before,
`corefwb score` refused LMUC or Mentions ("not among corefud's") though `compare` and the panel
showed them, and `compare` refused MOR and zero ("unknown metric") though `score` and the panel
showed them; `score --weights` was not passed to its scoring.  Each command's default list is
what it was (`score`: the official scorer's; `compare`: the convention's `scores`)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from app_support import pilot_test, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)
from corefud_support import gum2_response

from metrics.conventions.base import listed
from metrics.conventions.registry import convention
from workbench.cli import build_parser, main
from workbench.commands.common import load_options
from workbench.tui.app import Workbench

ROOT = Path(__file__).resolve().parent.parent
KEY = str(ROOT / "tests/data/formats/gum2.conllu")
EVERY = [metric.name for metric in listed(convention("corefud"))]


def as_json(capsys, *args: str) -> dict:
    capsys.readouterr()
    assert main([*args, "--format", "json", "--no-cache"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def f1(numbers: dict) -> float:
    return numbers["value"] if "f1" not in numbers else numbers["f1"]


def test_score_and_compare_take_every_metric_the_panel_lists_with_the_same_numbers(tmp_path, capsys):
    resp = gum2_response(tmp_path, capsys)
    for weights in ("W4", "W1"):
        asked = ("--metrics", ",".join(EVERY), "--weights", weights)
        scored = as_json(capsys, "score", KEY, resp, *asked)["metrics"]
        compared = as_json(capsys, "compare", KEY, resp, resp, "--bootstrap", "0", *asked)["metrics"]
        assert set(scored) == set(compared) == set(EVERY)  # (score lists CoNLL last, as corefud-scorer)
        for metric in EVERY:
            system = next(iter(compared[metric].values()))
            assert f1(scored[metric]) == f1(system), (weights, metric)
        assert 0 < scored["lmuc"]["f1"] < 1
    assert scored["lmuc"]["f1"] == scored["muc"]["f1"] != as_json(capsys, "score", KEY, resp, "--metrics", "lmuc")["metrics"]["lmuc"]["f1"]


def test_the_default_lists_are_unchanged(tmp_path, capsys):
    resp = gum2_response(tmp_path, capsys)
    official = [metric.name for metric in convention("corefud").official]
    assert list(as_json(capsys, "score", KEY, resp)["metrics"]) == [*official, "conll"]
    capsys.readouterr()
    assert main(["score", KEY, resp, "--metrics", "lmuc,mor"]) == 0
    out = capsys.readouterr().out
    assert "weights nam=1 nom=0.75 pro=0.5 sing=1" in out.splitlines()[0]
    assert main(["score", KEY, resp, "--metrics", "muc,ace"]) == 0
    out = capsys.readouterr().out
    assert "weights" not in out.splitlines()[0] and "ACE-value: F1 column is the value" in out
    assert main(["score", KEY, resp, "--metrics", "lmuc,ace", "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert "weights nam=1" in out.splitlines()[0] and "ACE-value: F1 column is the value" in out
    assert as_json(capsys, "score", KEY, resp, "--metrics", "lmuc", "--weights", "W1")["weights"] == [1, 1, 1, 1e-20]
    assert "weights" not in as_json(capsys, "score", KEY, resp)


@pilot_test
async def test_the_panels_numbers_are_the_commands(tmp_path, capsys):
    resp = gum2_response(tmp_path, capsys)
    scored = as_json(capsys, "score", KEY, resp, "--metrics", ",".join(EVERY))["metrics"]
    args = build_parser().parse_args([KEY, resp, "--no-cache"])
    app = Workbench(KEY, [resp], load_options(argparse.Namespace(**vars(args)), [resp], ua_taken=True))
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert list(app.result.micro) == EVERY
        for metric in EVERY:
            assert app.result.micro[metric].f1 == f1(scored[metric]), metric


@pilot_test
async def test_a_documents_conll_f1_is_in_score_per_doc_as_the_documents_list_shows_it(tmp_path, capsys):
    """The workbench lists and sorts the documents by their CoNLL F1; `score` under CorefUD gave
    each document's metrics but not its CoNLL F1."""
    resp = gum2_response(tmp_path, capsys)
    documents = {entry["document"]: entry["metrics"]
                 for entry in as_json(capsys, "score", KEY, resp, "--per-doc")["per_document"]}
    args = build_parser().parse_args([KEY, resp, "--no-cache"])
    app = Workbench(KEY, [resp], load_options(argparse.Namespace(**vars(args)), [resp], ua_taken=True))
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        shown = dict(app.result.documents)
        assert set(shown) == set(documents)
        for name, metrics in documents.items():
            assert list(metrics)[-1] == "conll" and metrics["conll"]["f1"] == shown[name]["conll"].f1, name

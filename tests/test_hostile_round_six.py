"""Hostile input, round six: the newest readers (the CRAC LLM track's JSON form, Universal Anaphora)
given what a careless or hostile producer writes.  Each case as a user meets it: the exit status,
the one line naming the file and line, and never a number the official tool would not give."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.cli import main

DATA = Path(__file__).parent / "data"
GUM2 = str(DATA / "crac" / "gum2.eid.conllu")
UA_KEY = str(DATA / "ua" / "bridging.key")
UA_RESPONSE = str(DATA / "ua" / "bridging.response")


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out = capsys.readouterr()
    return status, out.out, out.err


def error_line(status: int, err: str, wanted: int = 1) -> str:
    lines = [line for line in err.splitlines() if not line.startswith("corefwb: warning")]
    assert status == wanted and len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.fixture(scope="module")
def gold_json(tmp_path_factory) -> list[dict]:
    path = tmp_path_factory.mktemp("crac") / "gold.json"
    assert main(["convert", GUM2, str(path), "--to", "crac-json"]) == 0
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("value", ["missing", None, {}, ""])
def test_a_json_document_without_its_clusters_is_refused_not_scored_as_no_mention(capsys, tmp_path, gold_json, value):
    """text2text-coref's json2conllu stops on a document without `clusters_token_offsets` (a
    KeyError, or a TypeError on null); before, corefwb scored it silently as a document without any
    mention (a blind file given as the output scored 0).  An empty list stays a model that found
    nothing, as the pipeline scores it."""
    documents = [dict(d) for d in gold_json]
    if value == "missing":
        del documents[1]["clusters_token_offsets"]
    else:
        documents[1]["clusters_token_offsets"] = value
    output = tmp_path / "output.json"
    output.write_text(json.dumps(documents, indent=1), encoding="utf-8")
    status, out, err = run(capsys, "score", GUM2, str(output), "--no-cache")
    line = error_line(status, err)
    assert out == "" and f"{output}:" in line and "document 2" in line and "clusters_token_offsets" in line
    second_line = json.dumps(documents, indent=1).split("\n").index(" {", 2) + 1
    assert line.startswith(f"corefwb: error: {output}:{second_line}:")


def test_a_json_document_with_an_empty_list_of_clusters_is_scored(capsys, tmp_path, gold_json):
    documents = [dict(d) for d in gold_json]
    documents[1]["clusters_token_offsets"] = []
    output = tmp_path / "output.json"
    output.write_text(json.dumps(documents), encoding="utf-8")
    status, out, _ = run(capsys, "score", GUM2, str(output), "--no-cache", "--format", "json")
    assert status == 0 and 0 < json.loads(out)["metrics"]["muc"]["recall"] < 1

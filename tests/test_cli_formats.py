"""The commands' output formats agree, and options mean one thing (issue 17, items 7-9)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from workbench.cli import main

GUM = Path(__file__).resolve().parent.parent / "samples" / "gum"
KEY, RESPONSE = str(GUM / "key.gum.conll"), str(GUM / "response.gum.conll")


def run(capsys, *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exit:  # argparse's own exits (usage errors, --help), as the shell sees them
        code = int(exit.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("option, values", [
    ("--weights", ("W1", "W5")), ("--metrics", ("muc", "bcub")), ("--format", ("json", "csv")),
    ("--match", ("head", "exact")),
])
def test_a_repeated_single_value_option_is_refused(capsys, option, values):
    code, out, err = run(capsys, "score", KEY, RESPONSE, option, values[0], option, values[1])
    assert code == 2 and out == ""
    assert err.strip() == f"corefwb score: usage error: {option} given twice; give it once (see --help)"


def test_accumulating_options_still_accumulate(capsys):
    code, out, _ = run(capsys, "errors", KEY, RESPONSE, "--category", "FN", "--category", "WL", "--format", "json")
    assert code == 0 and {e["category"] for e in json.loads(out)["errors"]} == {"false_new", "wrong_link"}


def test_document_by_the_short_name_the_workbench_shows(capsys):
    code, full, _ = run(capsys, "errors", KEY, RESPONSE, "--document", "(GUM_news_korea); part 000", "--format", "json")
    assert code == 0
    code, short, _ = run(capsys, "errors", KEY, RESPONSE, "--document", "GUM_news_korea", "--format", "json")
    assert code == 0 and short == full and json.loads(short)["errors"]
    code, _, err = run(capsys, "errors", KEY, RESPONSE, "--document", "GUM_news")
    assert code == 2 and "no document 'GUM_news'" in err
    code, out, _ = run(capsys, "errors", "--help")
    assert "short name" in " ".join(out.split())


def test_short_name_that_names_two_documents_is_refused(capsys, tmp_path):
    text = Path(KEY).read_text(encoding="utf-8")
    first = text.split("#end document")[0] + "#end document\n"
    two = first + first.replace("part 000", "part 0")  # '(X); part 000' and '(X); part 0': both short 'X'
    key = tmp_path / "two.conll"
    key.write_text(two, encoding="utf-8")
    code, _, err = run(capsys, "errors", str(key), str(key), "--document", "GUM_bio_moreau")
    assert code == 2 and "names 2 documents" in err


def test_csv_and_markdown_list_documents_only_with_per_doc(capsys):
    for fmt in ("csv", "markdown"):
        code, out, _ = run(capsys, "score", KEY, RESPONSE, "--format", fmt, "--metrics", "muc")
        assert code == 0 and "GUM_news_korea" not in out and ("corpus, micro" in out or "| corpus | MUC |" in out)
        code, out, _ = run(capsys, "score", KEY, RESPONSE, "--format", fmt, "--metrics", "muc", "--per-doc")
        assert code == 0 and "GUM_news_korea" in out.replace("\\_", "_")


def test_per_doc_text_is_one_document_by_metric_table(capsys):
    code, out, _ = run(capsys, "score", KEY, RESPONSE, "--per-doc", "--metrics", "muc,bcub,conll")
    assert code == 0
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("document"))
    assert lines[header].split() == ["document", "MUC", "B3", "CoNLL"]
    rows = lines[header + 1:]
    rows = rows[: rows.index("")] if "" in rows else rows
    assert [row.split()[0] for row in rows] == ["GUM_bio_moreau", "GUM_news_korea"]
    code, js, _ = run(capsys, "score", KEY, RESPONSE, "--format", "json", "--metrics", "muc")
    muc = json.loads(js)["per_document"][1]["metrics"]["muc"]["f1"]
    assert f"{100 * muc:.2f}" == rows[1].split()[1]


def test_key_sharing_no_document_with_the_response_is_an_input_error(capsys, tmp_path):
    other = tmp_path / "other.conll"
    other.write_text(Path(KEY).read_text(encoding="utf-8").replace("(GUM_", "(LIT_"), encoding="utf-8")
    for extra in ([], ["--stream", "--jobs", "2"]):
        code, out, err = run(capsys, "score", str(other), RESPONSE, *extra)
        assert code == 1 and out == ""
        lines = [line for line in err.splitlines() if not line.startswith("corefwb: warning")]
        assert len(lines) == 1 and "no document in common with the key" in lines[0] and RESPONSE in lines[0]


@pytest.mark.parametrize("inputs", [
    (KEY, RESPONSE),
    (str(Path(__file__).parent / "data" / "corefud" / "key.conllu"),
     str(Path(__file__).parent / "data" / "corefud" / "response.conllu"), "--conventions", "corefud"),
    (str(Path(__file__).parent / "data" / "ua" / "non_referring.key"),
     str(Path(__file__).parent / "data" / "ua" / "non_referring.key")),
])
def test_the_csv_corpus_row_has_one_name_under_every_convention(capsys, inputs) -> None:
    """A script reading CoNLL's, CorefUD's and UA's CSV finds the corpus score under one name
    (`output.CORPUS_MICRO_ROW`); CorefUD and UA said "corpus", CoNLL "(corpus, micro)"."""
    code, out, err = run(capsys, "score", *inputs, "--format", "csv", "--no-cache")
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0][:2] == ["document", "metric"] and rows[1][0] == "(corpus, micro)", rows[:2]

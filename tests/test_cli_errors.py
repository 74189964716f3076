"""`corefwb errors` and `corefwb compare`: formats, filters, exit codes (in process, via cli.main)."""

from __future__ import annotations

from records_road import price_all
import csv
import io
import json
from pathlib import Path

import pytest

from workbench.cli import main

CHEN = Path(__file__).resolve().parent.parent / "samples" / "chen-ng"
KEY, RESP_B, RESP_E, RESP_A = (str(CHEN / n) for n in ("key.conll", "response-b.conll", "response-e.conll",
                                                        "response-a.conll"))


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_errors_json_contract(capsys) -> None:
    code, out, err = run(capsys, "errors", KEY, RESP_B, "--format", "json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert len(data["errors"]) == 12
    first = data["errors"][0]
    assert set(first) >= {"document", "category", "mention", "antecedent", "best_antecedent", "key_chain",
                          "response_chain", "cost", "impact_points"}
    assert first["category"] == "false_new"
    assert first["mention"] == {"start": 7, "end": 8, "text": "the city", "type": "NOMINAL"}
    assert first["antecedent"] is None and first["best_antecedent"]["text"] == "Jerusalem"
    assert first["impact_points"] is None
    assert data["counts"]["corpus"]["suboptimal_link"] == {"NAME": 0, "NOMINAL": 0, "PRONOUN": 8, "total": 8}
    doc = first["document"]
    assert data["counts"]["documents"][doc]["false_new"]["total"] == 4


def test_errors_filters_and_impact(capsys) -> None:
    code, out, _ = run(capsys, "errors", KEY, RESP_E, "--format", "json", "--category", "wrong_link,suboptimal_link",
                       "--type", "P", "--impact", "lmuc")
    data = json.loads(out)
    assert code == 0 and data["impact_metric"] == "lmuc"
    assert [e["category"] for e in data["errors"]] == ["wrong_link"] + ["suboptimal_link"] * 6
    assert all(e["impact_points"] > 0 for e in data["errors"])
    # the category table prices what its counts count: the categories asked for, their P errors
    assert sorted(data["category_impact_points"]) == ["suboptimal_link", "wrong_link"]
    _, out, _ = run(capsys, "errors", KEY, RESP_B, "--format", "json", "--type", "NOMINAL")
    assert [e["mention"]["text"] for e in json.loads(out)["errors"]] == ["the city"]


def test_errors_sort_by_impact_and_limit(capsys) -> None:
    code, out, _ = run(capsys, "errors", KEY, RESP_B, "--format", "json", "--sort", "impact", "--limit", "3")
    data = json.loads(out)
    impacts = [e["impact_points"] for e in data["errors"]]
    assert code == 0 and len(impacts) == 3 and impacts == sorted(impacts, reverse=True)
    assert sum(c["total"] for c in data["counts"]["corpus"].values()) == 12  # counts cover all errors


def test_errors_text_is_aligned(capsys) -> None:
    code, out, _ = run(capsys, "errors", KEY, RESP_E, "--impact", "conll")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("7 errors in 1 document(s)")
    header = next(i for i, line in enumerate(lines) if line.startswith("document"))
    rows = lines[header + 1:]
    assert len(rows) == 7
    column = lines[header].index("category")
    assert all(row[column:].startswith(("wrong link", "suboptimal link")) for row in rows)
    assert "+14.26" in rows[0]


def test_errors_csv(capsys) -> None:
    code, out, _ = run(capsys, "errors", KEY, RESP_B, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and len(rows) == 12
    assert rows[0]["category"] == "false_new" and rows[0]["text"] == "the city" and rows[0]["cost"] == ""


def test_errors_output_file(tmp_path, capsys) -> None:
    target = tmp_path / "errors.json"
    code, out, _ = run(capsys, "errors", KEY, RESP_B, "--format", "json", "--output", str(target))
    assert code == 0 and out == ""
    assert len(json.loads(target.read_text())["errors"]) == 12


@pytest.mark.parametrize("args", [("--category", "bad"), ("--type", "VERB"), ("--impact", "nope"),
                                  ("--document", "missing"), ("--limit", "-1")])
def test_errors_usage_errors(capsys, args) -> None:
    code, out, err = run(capsys, "errors", KEY, RESP_B, *args)
    assert code == 2 and out == ""
    assert err.startswith("corefwb: usage error: ") and len(err.strip().splitlines()) == 1


def test_errors_input_error(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.conll"
    bad.write_text("#begin document (x); part 000\nx\t0\t0\tword\n")
    code, _, err = run(capsys, "errors", KEY, str(bad))
    assert code == 1 and err.startswith("corefwb: error: ") and str(bad) in err


def test_compare(capsys) -> None:
    code, out, err = run(capsys, "compare", KEY, RESP_A, RESP_E, "--format", "json", "--name", "A,E")
    assert code == 0
    data = json.loads(out)
    change = data["changes"][0]
    assert (change["baseline"], change["system"]) == ("A", "E")
    assert change["fixed"]["false_new"] == {"NAME": 0, "NOMINAL": 1, "PRONOUN": 3}
    assert change["fixed"]["suboptimal_link"]["PRONOUN"] == 1
    assert change["changed"] == [{"a": "false_new", "b": "wrong_link", "count": 1,
                                  "types": {"NAME": 0, "NOMINAL": 0, "PRONOUN": 1}}]
    assert change["unchanged"]["suboptimal_link"] == 6
    changes = {(m["mention"]["text"], m["mention"]["start"]): (m["a"], m["b"], m["change"]) for m in change["mentions"]}
    assert changes[("you", 21)] == ("false_new", "wrong_link", "changed")
    assert ("you", 26) not in changes  # the same category under A and B: counted in "unchanged", not listed
    assert change["mentions_total"] == len(change["mentions"]) == 6
    assert data["metrics"]["muc"]["A"]["f1"] < data["metrics"]["muc"]["E"]["f1"]


def test_compare_text_and_csv(capsys) -> None:
    code, out, _ = run(capsys, "compare", KEY, RESP_A, RESP_E)
    assert code == 0
    assert "response-e - response-a" in out and "6 mentions whose category differs" in out
    code, out, _ = run(capsys, "compare", KEY, RESP_E, RESP_E, "--format", "csv", "--name", "E1,E2")
    scores, mentions = out.split("\n\n")
    assert code == 0 and "E1,muc" in scores and mentions.splitlines() == [
        "baseline,system,document,start,end,text,type,category_a,category_b,change"]  # E against itself: no change


def test_compare_limit_in_every_format(capsys) -> None:
    """--limit bounds the listed mentions in text, JSON, CSV and Markdown alike; the tables cover all."""
    for fmt in ("text", "json", "csv", "markdown"):
        code, out, _ = run(capsys, "compare", KEY, RESP_A, RESP_E, "--format", fmt, "--limit", "2")
        assert code == 0
        if fmt == "json":
            data = json.loads(out)["changes"][0]
            assert len(data["mentions"]) == 2 and data["mentions_total"] == 6
        elif fmt == "csv":
            scores, mentions = out.split("\n\n")
            assert scores.startswith("system,metric,recall") and len(mentions.splitlines()) == 3
        else:
            assert "listing 2 of 6 mentions" in out


def test_errors_distinct_fixes(capsys) -> None:
    """Response (e): the wrong link g and the six suboptimal links after it share one fix."""
    code, out, _ = run(capsys, "errors", KEY, RESP_E, "--format", "json", "--distinct", "--impact", "conll")
    data = json.loads(out)
    assert code == 0 and len(data["errors"]) == 1
    assert data["errors"][0]["category"] == "wrong_link" and data["errors"][0]["same_fix"] == 7
    assert data["counts"]["corpus"]["suboptimal_link"]["total"] == 6
    code, out, _ = run(capsys, "errors", KEY, RESP_B, "--distinct")
    assert code == 0 and "same fix" in out


def test_markdown_reports(capsys) -> None:
    code, out, _ = run(capsys, "errors", KEY, RESP_E, "--format", "markdown", "--impact", "conll")
    assert code == 0
    assert "## Errors by category and mention type" in out and "| wrong link | 0 | 0 | 1 | 1 | +14.26 |" in out
    assert out.count("| chen\\_ng\\_2013\\_figure1 |") == 7  # the shown name (`shown_document`); Markdown escapes _
    code, out, _ = run(capsys, "compare", KEY, RESP_A, RESP_E, "--format", "markdown", "--metrics", "muc,conll")
    assert code == 0 and "| system | MUC | CoNLL |" in out and "| response-e | 91.67 ± 0.00 |" in out
    assert "| false new | wrong link | 0 | 0 | 1 | 1 |" in out


def test_compare_document_filter_and_usage(capsys) -> None:
    code, out, _ = run(capsys, "compare", KEY, RESP_A, RESP_E, "--format", "json",
                       "--document", "(chen_ng_2013_figure1); part 000")
    assert code == 0 and len(json.loads(out)["changes"][0]["mentions"]) == 6
    code, out, err = run(capsys, "compare", KEY, RESP_A, RESP_E, "--document", "nope")
    assert code == 2 and out == "" and err.startswith("corefwb: usage error: --document")


def test_errors_with_head_matching(capsys) -> None:
    """--match (a common option) reaches the error analysis: identical files stay error-free."""
    code, out, _ = run(capsys, "errors", KEY, KEY, "--match", "head", "--format", "json")
    assert code == 0 and json.loads(out)["errors"] == []


@pytest.mark.parametrize("extra", [["--weights", "bogus"], ["--match", "bogus"], ["--key-format", "xml"],
                                   ["--no-such-option"]])
def test_workbench_options_are_checked_before_the_screen_opens(extra):
    """Every option of `corefwb KEY RESP` takes effect or is a one-line usage error, exit 2,
    before the terminal UI starts (no traceback, nothing on stdout)."""
    import subprocess
    import sys

    key, response = "samples/gum/key.gum.conll", "samples/gum/response.gum.conll"
    done = subprocess.run([sys.executable, "-m", "workbench.cli", key, response, *extra], capture_output=True,
                          text=True, cwd=Path(__file__).resolve().parent.parent, stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "usage error" in done.stderr
    assert "Traceback" not in done.stderr


def test_category_impacts_follow_the_same_filters_as_the_counts(capsys) -> None:
    """Issue 36: `--category wl` printed the other categories' counts as 0 beside their unfiltered
    impacts.  Now a category the filter leaves out has no impact ("-"), and one it keeps has the
    impact it has without the filter (the same errors fixed)."""
    _, out, _ = run(capsys, "errors", KEY, RESP_E, "--impact", "conll")
    whole = {line.split()[0] + line.split()[1]: line.split()[-1] for line in out.splitlines()[4:10]}
    _, out, _ = run(capsys, "errors", KEY, RESP_E, "--impact", "conll", "--category", "wl")
    rows = {line.split()[0] + line.split()[1]: line.split()[-1] for line in out.splitlines()[4:10]}
    assert rows["wronglink"] == whole["wronglink"] and rows["wronglink"] != "-"
    assert all(value == "-" for name, value in rows.items() if name != "wronglink")
    _, out, _ = run(capsys, "errors", KEY, RESP_E, "--impact", "conll", "--category", "wl", "--distinct")
    assert {line.split()[0] + line.split()[1]: line.split()[-1] for line in out.splitlines()[4:10]} == rows


def test_negative_impacts_are_marked_and_explained() -> None:
    """Issue 36: a fix alone can lower the score; the workbench shows such an impact in red, and
    its help and the error list's legend say so."""
    from workbench.tui.errorlist import ErrorPanel, impact_cell
    from workbench.tui.keys import COLUMNS

    assert str(impact_cell(-0.000204).style) == "red" and impact_cell(-0.000204).plain == "-0.0204"
    assert str(impact_cell(0.000752).style) == "" and impact_cell(None).plain == ""
    assert "can lower a score" in dict(COLUMNS)["impact"] and "can lower a score" in ErrorPanel.HELP


def test_distinct_fixes_priced_as_columns_are_the_records_priced_one_by_one(capsys) -> None:
    """`--distinct --impact --sort impact` lists columns priced by `Pricer.price_columns`; the same
    list as the records' road: the first record of each group (`group_by_fix`) priced by
    `price_all` against all, sorted by impact (stable), each with its group's size."""
    from workbench.output import error_json
    from workbench.session import LoadOptions, Session

    gum = Path(__file__).resolve().parent.parent / "samples" / "gum"
    key, response = str(gum / "key.ontogum.conll"), str(gum / "response.ontonotes.conll")
    code, out, _ = run(capsys, "errors", key, response, "--distinct", "--impact", "conll", "--sort", "impact",
                       "--format", "json", "--jobs", "1")
    listed = json.loads(out)["errors"]
    session = Session.load(key, [response], LoadOptions(cache=False))
    columns = session.error_columns()
    records = columns.records()
    pricer = session.pricer("conll")
    groups = [[records[row] for row in group] for group in pricer.group_by_fix(columns)]
    priced, _ = price_all(pricer, [group[0] for group in groups], records)
    ordered = sorted(zip(priced, groups), key=lambda pair: -(pair[0].impact or 0.0))
    expected = [{**error_json(r), "same_fix": len(group)} for r, group in ordered]
    assert code == 0 and len(listed) > 20 and any(entry["same_fix"] > 1 for entry in listed)
    assert json.loads(json.dumps(expected)) == listed


def test_errors_csv_impacts_are_the_jsons_at_full_precision(capsys) -> None:
    """`--format csv --impact` wrote `impact_points` as people read it ("+0.306") where the JSON's
    field of that name is full precision, and had no category impacts: a program reading the CSV
    gets the JSON's values, each row with its category's impact."""
    code, out, _ = run(capsys, "errors", KEY, RESP_B, "--impact", "conll", "--format", "json")
    data = json.loads(out)
    code_csv, out_csv, _ = run(capsys, "errors", KEY, RESP_B, "--impact", "conll", "--format", "csv")
    assert code == code_csv == 0
    rows = list(csv.DictReader(io.StringIO(out_csv)))
    assert [float(r["impact_points"]) for r in rows] == [e["impact_points"] for e in data["errors"]]
    assert any(len(r["impact_points"].lstrip("-").split(".")[-1]) > 4 for r in rows)  # not rounded for people
    assert [float(r["category_impact_points"]) for r in rows] == \
        [data["category_impact_points"][e["category"]] for e in data["errors"]]
    _, plain, _ = run(capsys, "errors", KEY, RESP_B, "--format", "csv")
    assert "category_impact_points" not in plain.splitlines()[0]  # unpriced: no impact to give

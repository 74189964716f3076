"""`score --ci` and `--group-by` under the CorefUD conventions: the grouped report `compare` makes
there, by the same road (`systems.build_report`), over the metrics `score` lists under CorefUD (its
official scorer's, then CoNLL), with the same numbers as the plain `score`; `--stream` refused with
its reason.  And the CSV of these reports writes numpy's floats as numbers (`np.float64(...)` was
written under CorefUD, whose CEAF scores are numpy's)."""

from __future__ import annotations

import csv
import io
import json
from corefud_support import GUM2_KEY as KEY, gum2_response
from workbench.cli import main


def output(capsys, *args: str) -> str:
    capsys.readouterr()
    assert main([*args, "--no-cache"]) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def test_score_groups_under_corefud_as_compare_does(tmp_path, capsys) -> None:
    resp = gum2_response(tmp_path, capsys)
    plain = json.loads(output(capsys, "score", KEY, resp, "--format", "json"))
    grouped = json.loads(output(capsys, "score", KEY, resp, "--group-by", "genre", "--format", "json"))
    assert grouped["conventions"] == plain["conventions"] == "corefud"
    assert grouped["match"] == plain["match"] and grouped["zero_match"] == plain["zero_match"]
    assert list(grouped["metrics"]) == list(plain["metrics"])  # the official scorer's order, CoNLL last
    for metric, numbers in plain["metrics"].items():
        assert grouped["metrics"][metric]["f1"] == numbers["f1"], metric
    compared = json.loads(output(capsys, "compare", KEY, resp, resp, "--group-by", "genre", "--bootstrap", "0",
                                 "--metrics", ",".join(plain["metrics"]), "--format", "json"))
    ours, theirs = grouped["groups"]["groups"], compared["groups"]["groups"]
    assert [g["name"] for g in ours] == [g["name"] for g in theirs] and ours
    for mine, other in zip(ours, theirs):
        for metric, systems in mine["metrics"].items():
            (value,) = systems.values()
            assert value == next(iter(other["metrics"][metric].values())), (mine["name"], metric)
    text = output(capsys, "score", KEY, resp, "--group-by", "genre")
    assert text.splitlines()[0].startswith("conventions corefud")  # the settings first, as compare's
    assert "F1 (%) by genre" in text and "MOR (mention overlap)" in text


def test_score_ci_under_corefud_and_numbers_in_csv(tmp_path, capsys) -> None:
    resp = gum2_response(tmp_path, capsys)
    text = output(capsys, "score", KEY, resp, "--ci", "--bootstrap", "50", "--format", "csv")
    assert "np." not in text
    rows = list(csv.reader(io.StringIO(text.split("\n\n")[0])))
    assert [float(cell) for row in rows[1:] for cell in row[2:5]]  # every score a number (then the note)
    text = output(capsys, "compare", KEY, resp, resp, "--bootstrap", "50", "--group-by", "genre", "--format", "csv")
    assert "np." not in text


def test_stream_under_corefud_is_refused_with_its_reason(tmp_path, capsys) -> None:
    resp = gum2_response(tmp_path, capsys)
    capsys.readouterr()
    assert main(["score", KEY, resp, "--group-by", "genre", "--stream"]) == 2
    err = capsys.readouterr().err
    assert "--stream is not available under the CorefUD conventions" in err and "Traceback" not in err

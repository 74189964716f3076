"""`corefwb compare` with N systems, `score --ci`, `--group-by` and `--singletons`, as a user runs them."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from metrics.formats.readers import read_documents
from metrics.formats.writers import write_conll
from metrics.model import without_singletons
from workbench.cli import main

ROOT = Path(__file__).resolve().parent.parent
KEY = str(ROOT / "samples" / "gum" / "key.gum.conll")
RESPONSE = str(ROOT / "samples" / "gum" / "response.gum.conll")


def run(capsys, *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exit:  # argparse's own refusals
        code = exit.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _errors(err: str) -> list[str]:
    return [line for line in err.splitlines() if not line.startswith("corefwb: warning")]


@pytest.fixture
def third(tmp_path) -> str:
    """A third system: the sample response with every other chain dropped."""
    docs = read_documents(RESPONSE)
    worse = [d.keeping_chains(list(range(0, len(d.chains), 2))) for d in docs]
    path = tmp_path / "worse.conll"
    with open(path, "w", encoding="utf-8") as out:
        write_conll(worse, out)
    return str(path)


def test_three_systems_side_by_side_in_json(capsys, third) -> None:
    code, out, _ = run(capsys, "compare", KEY, RESPONSE, third, RESPONSE, "--format", "json", "--bootstrap", "200",
                       "--metrics", "muc,conll")
    assert code == 0
    data = json.loads(out)
    names = [s["name"] for s in data["systems"]]
    assert names == ["response.gum#1", "worse", "response.gum#3"] and data["systems"][0]["baseline"]
    assert set(data) >= {"systems", "metrics", "intervals", "differences", "method", "changes"}
    assert set(data["metrics"]) == {"muc", "conll"} and set(data["metrics"]["muc"]) == set(names)
    for m in ("muc", "conll"):
        for name in names:
            low, high = data["intervals"][m][name]["low"], data["intervals"][m][name]["high"]
            assert low <= data["metrics"][m][name]["f1"] <= high
        same = data["differences"][m]["response.gum#3"]
        assert same["value"] == 0.0 and same["p_value"] == 1.0 and not same["significant"]
        assert data["differences"][m]["worse"]["value"] < 0
    assert data["method"]["resamples"] == 200 and data["method"]["unit"] == "document"
    assert [c["system"] for c in data["changes"]] == ["worse", "response.gum#3"]


def test_the_same_seed_gives_the_same_bytes(capsys, third) -> None:
    args = ["compare", KEY, RESPONSE, third, "--format", "json", "--bootstrap", "300", "--metrics", "conll"]
    outputs = [run(capsys, *args, "--seed", seed)[1] for seed in ("7", "7", "8")]
    assert outputs[0] == outputs[1] and outputs[0] != outputs[2]


def test_approximate_randomization_is_stated(capsys, third) -> None:
    code, out, _ = run(capsys, "compare", KEY, RESPONSE, third, "--format", "json", "--test", "ar", "--trials", "500",
                       "--metrics", "muc")
    method = json.loads(out)["method"]
    assert code == 0 and method["trials"] == 500 and "randomization" in method["test"]


def test_paper_table_and_csv(capsys, third) -> None:
    code, out, _ = run(capsys, "compare", KEY, RESPONSE, third, "--format", "markdown", "--metrics", "muc,conll",
                       "--name", "base,worse", "--bootstrap", "100")
    assert code == 0 and "| system | MUC | CoNLL |" in out and "| base | " in out and " ± " in out
    assert "percentile bootstrap interval over documents (100 resamples, seed 12345)" in out
    code, out, _ = run(capsys, "compare", KEY, RESPONSE, third, "--format", "csv", "--metrics", "muc",
                       "--name", "base,worse", "--bootstrap", "100", "--group-by", "genre")
    tables = out.split("\n\n")
    assert tables[0].splitlines()[0] == ("system,metric,recall,precision,f1,low,high,difference,difference_low,"
                                         "difference_high,p_value,note")
    assert tables[1].splitlines()[0] == "system,group,documents,metric,micro_f1,macro_f1,note"
    assert {line.split(",")[1] for line in tables[1].splitlines()[1:]} == {"bio", "news"}


@pytest.mark.parametrize("by, expected", [("genre", "F1 (%) by genre"), ("file", "F1 (%) by file"),
                                          ("length", "recall by key chain length"),
                                          ("type", "mention detection and linking by mention type")])
def test_group_by_in_score_and_compare(capsys, third, by, expected) -> None:
    code, out, _ = run(capsys, "score", KEY, RESPONSE, "--group-by", by, "--metrics", "muc")
    assert code == 0 and expected in out
    code, out, _ = run(capsys, "compare", KEY, RESPONSE, third, "--group-by", by, "--metrics", "muc", "--bootstrap", "50")
    assert code == 0 and expected in out
    code, out, _ = run(capsys, "score", KEY, RESPONSE, "--group-by", by, "--format", "json", "--metrics", "muc")
    assert json.loads(out)["groups"]["by"] == by


def test_groups_from_a_table(capsys, tmp_path) -> None:
    table = tmp_path / "docs.tsv"
    table.write_text("doc\tsplit\nGUM_bio_moreau\ttest\nGUM_news_korea\ttrain\n", encoding="utf-8")
    code, out, _ = run(capsys, "score", KEY, RESPONSE, "--group-by", "genre", "--groups", str(table),
                       "--groups-column", "split", "--format", "json", "--metrics", "muc")
    assert code == 0 and [g["name"] for g in json.loads(out)["groups"]["groups"]] == ["test", "train"]
    code, _, err = run(capsys, "score", KEY, RESPONSE, "--group-by", "genre", "--groups", str(tmp_path / "no.tsv"))
    assert code == 1 and _errors(err) == [err.splitlines()[-1]] and "no.tsv" in err


def test_score_ci(capsys, tmp_path) -> None:
    code, out, _ = run(capsys, "score", KEY, RESPONSE, "--ci", "--bootstrap", "400", "--metrics", "muc,conll")
    assert code == 0 and "95% interval" in out and "400 resamples" in out
    code, out, _ = run(capsys, "score", KEY, RESPONSE, "--ci", "--format", "json", "--metrics", "conll")
    data = json.loads(out)
    assert data["method"]["resamples"] == 1000 and "response.gum" in data["intervals"]["conll"]
    # --stream reads documents one at a time, --jobs scores them in processes: the same bytes
    key, response = tmp_path / "k.conll", tmp_path / "r.conll"
    key.write_bytes(Path(KEY).read_bytes())
    response.write_bytes(Path(RESPONSE).read_bytes())
    args = ["score", str(key), str(response), "--ci", "--format", "json", "--group-by", "genre"]
    assert run(capsys, *args)[1] == run(capsys, *args, "--stream", "--jobs", "2")[1] == run(capsys, *args, "--jobs", "2")[1]


@pytest.mark.parametrize("args", [["compare", KEY, RESPONSE], ["compare", KEY, RESPONSE, RESPONSE, "--name", "a"],
                                  ["compare", KEY, RESPONSE, RESPONSE, "--name", "a,a"],
                                  ["score", KEY, RESPONSE, "--ci", "--confidence", "2"],
                                  ["score", KEY, RESPONSE, "--group-by", "genre", "--genre-regex", "("],
                                  ["score", KEY, RESPONSE, "--ci", "--bootstrap", "-1"],
                                  ["score", KEY, RESPONSE, "--group-by", "type", "--stream"],
                                  ["score", KEY, RESPONSE, "--singletons", "drop"]])
def test_usage_errors(capsys, args) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and len(_errors(err)) == 1 and "usage error" in err


def test_singletons_removed_equal_scoring_files_without_them(capsys, tmp_path) -> None:
    code, removed, err = run(capsys, "score", KEY, RESPONSE, "--singletons", "remove", "--format", "json")
    assert code == 0
    lines = [line for line in err.splitlines() if "--singletons remove" in line]
    assert len(lines) == 2 and KEY in lines[0] and RESPONSE in lines[1] and "singleton chains removed" in lines[0]
    paths = []
    for path in (KEY, RESPONSE):
        kept, count = without_singletons(read_documents(path))
        assert f"{count:,} singleton chains" in err
        buffer = io.StringIO()
        write_conll(kept, buffer)
        paths.append(tmp_path / Path(path).name)
        paths[-1].write_text(buffer.getvalue(), encoding="utf-8")
    code, plain, _ = run(capsys, "score", str(paths[0]), str(paths[1]), "--format", "json")
    ours, theirs = json.loads(removed)["metrics"], json.loads(plain)["metrics"]
    for metric in ("muc", "bcub", "ceafe", "lea", "mentions", "blanc"):
        assert ours[metric]["f1"] == pytest.approx(theirs[metric]["f1"], abs=1e-15), metric


def test_short_labels_cut_shared_parts_at_separators_only() -> None:
    from workbench.names import short_labels

    assert short_labels(["response-a", "response-b", "response-e"]) == ["a", "b", "e"]
    assert short_labels(["response.xrenner-gum", "response.xrenner-ontonotes"]) == ["gum", "ontonotes"]
    assert short_labels(["response", "ronto"]) == ["response", "ronto"]  # never "esponse"
    assert short_labels(["a-run", "b-run"]) == ["a", "b"]

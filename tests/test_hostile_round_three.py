"""Hostile input, round three (issue 45): the four silent wrong results, and a CorefUD entity
split across documents (issue 40, item 8).  Each case as a user meets it: the CLI's exit status,
its one-line message or warning, and the numbers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import corefwb_in_process

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "hostile"
TWO_SENTENCES = DATA / "two_sentences.conllu"


def corefwb(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """In this process (`cli_support`): these cases are about what the command says and returns."""
    return corefwb_in_process(*args, cwd=cwd, env={"NO_COLOR": "1", "COREFWB_NO_CACHE": "1"})


def corefwb_process(*args: str) -> subprocess.CompletedProcess:
    """A real `python -m workbench.cli` run: one case here keeps the process boundary (status, stderr)."""
    return subprocess.run([sys.executable, "-m", "workbench.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "NO_COLOR": "1", "COREFWB_NO_CACHE": "1", "PYTHONPATH": str(ROOT)},
                          timeout=120)


def error_line(result: subprocess.CompletedProcess, status: int = 1) -> str:
    """The one line of an input (1) or usage (2) error; warnings may precede it, never a traceback."""
    lines = [line for line in result.stderr.splitlines() if not line.startswith("corefwb: warning")]
    assert result.returncode == status and len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


def warnings_of(result: subprocess.CompletedProcess) -> list[str]:
    assert "Traceback" not in result.stderr, result.stderr
    return [line for line in result.stderr.splitlines() if line.startswith("corefwb: warning")]


def muc(result: subprocess.CompletedProcess) -> dict:
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["metrics"]["muc"]


# ----------------------------------------------------------------------- 1. a repeated newdoc id under CorefUD

def _with_second_copy(tmp_path: Path, first_changed: bool) -> Path:
    """The key, then a copy of its document under the same `# newdoc id` with e2's mentions in e1."""
    text = TWO_SENTENCES.read_text(encoding="utf-8")
    changed = text.replace("(e2-person-1-)", "(e1-person-1-)").replace("# global.Entity = eid-etype-head-other\n", "")
    plain = text.replace("# global.Entity = eid-etype-head-other\n", "")
    path = tmp_path / "dup.conllu"
    path.write_text(text.replace(plain, "") + (changed + plain if first_changed else plain + changed), encoding="utf-8")
    return path


@pytest.mark.parametrize("first_changed", [False, True])
@pytest.mark.parametrize("command", [["score", "--metrics", "muc"], ["score", "--per-doc"], ["compare"], ["errors"]])
def test_a_repeated_newdoc_id_is_refused_under_corefud(tmp_path, first_changed, command):
    dup = _with_second_copy(tmp_path, first_changed)
    for files in ([str(TWO_SENTENCES), str(dup)], [str(dup), str(TWO_SENTENCES)]):  # as response, as key
        files = files + files[1:] if command == ["compare"] else files
        line = error_line(corefwb(*command, *files, "--conventions", "corefud"))
        assert f"{dup}:18: document 'd1' appears twice (also on line 1)" in line, line


def test_response_documents_the_key_lacks_are_named_under_corefud(tmp_path):
    extra = tmp_path / "extra.conllu"
    text = TWO_SENTENCES.read_text(encoding="utf-8")
    extra.write_text(text + text.replace("newdoc id = d1", "newdoc id = d9").replace("# global.Entity = eid-etype-head-other\n", ""),
                     encoding="utf-8")
    for command in (["score"], ["errors"]):
        result = corefwb_process(*command, str(TWO_SENTENCES), str(extra), "--conventions", "corefud")
        assert result.returncode == 0, result.stderr
        # (e1 and e2 name one entity each over the file: their mentions in d9 are split off too)
        assert f"corefwb: warning: {extra}: 1 response document(s) not in the key are ignored: 'd9'" in warnings_of(result)


# ----------------------------------------------------------------------- issue 40, item 8: one entity in two documents

SPLIT_KEY, SPLIT_RESPONSE = DATA / "split_entity.key.conllu", DATA / "split_entity.response.conllu"
COREFUD_SCORER = {  # corefud-scorer's numbers on these files (recall, precision, F1), full floats
    ("head", "remove", "response"): {
        "muc": [1.0, 0.75, 0.8571428571428571], "bcub": [1.0, 0.8095238095238095, 0.8947368421052632],
        "ceafe": [0.9333333333333332, 0.9333333333333332, 0.9333333333333332],
        "ceafm": [1.0, 0.8571428571428571, 0.923076923076923], "lea": [1.0, 0.7142857142857143, 0.8333333333333333],
        "blanc": [1.0, 0.6333333333333333, 0.7749999999999999], "mor": [1.0, 0.8571428571428571, 0.923076923076923]},
    ("exact", "keep", "response"): {
        "muc": [1.0, 0.75, 0.8571428571428571], "bcub": [1.0, 0.8333333333333334, 0.9090909090909091],
        "ceafe": [0.95, 0.95, 0.9500000000000001], "ceafm": [1.0, 0.875, 0.9333333333333333],
        "lea": [1.0, 0.75, 0.8571428571428571], "blanc": [1.0, 0.675, 0.8035714285714285],
        "mor": [1.0, 0.875, 0.9333333333333333]},
    ("head", "remove", "renamed"): {  # r9's mention in A renamed r8: r9 no longer leaves B
        "muc": [0.6666666666666666, 0.75, 0.7058823529411765], "bcub": [0.8333333333333334, 0.8095238095238095, 0.8212560386473431],
        "ceafe": [0.9333333333333332, 0.9333333333333332, 0.9333333333333332],
        "ceafm": [1.0, 0.8571428571428571, 0.923076923076923], "lea": [0.6666666666666666, 0.7142857142857143, 0.689655172413793],
        "blanc": [0.5833333333333333, 0.3666666666666667, 0.45], "mor": [1.0, 0.8571428571428571, 0.923076923076923]},
}


def _renamed(tmp_path: Path) -> Path:
    path = tmp_path / "renamed.conllu"
    text = SPLIT_RESPONSE.read_text(encoding="utf-8")
    head, _, tail = text.partition("# newdoc id = B")
    path.write_text(head.replace("(r9-", "(r8-") + "# newdoc id = B" + tail, encoding="utf-8")
    return path


@pytest.mark.parametrize("match, singletons, response", sorted(COREFUD_SCORER))
def test_an_entity_across_two_documents_scores_as_corefud_scorer(tmp_path, match, singletons, response):
    path = SPLIT_RESPONSE if response == "response" else _renamed(tmp_path)
    result = corefwb("score", str(SPLIT_KEY), str(path), "--conventions", "corefud", "--match", match,
                     "--singletons", singletons, "--format", "json")
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout)["metrics"]
    for metric, expected in COREFUD_SCORER[match, singletons, response].items():
        assert [got[metric]["recall"], got[metric]["precision"], got[metric]["f1"]] == expected, metric
    split = [w for w in warnings_of(result) if "spans two documents" in w]
    assert split == ([f"corefwb: warning: {path}:17: cluster r9 spans two documents (A, B). It will be split "
                      "(one entity per document, as corefud-scorer does)"] if response == "response" else [])


def test_an_entity_across_two_documents_in_errors_and_under_conll(tmp_path):
    """errors and the workbench take the same order (the session reads through the same reader);
    under CoNLL-2012's conventions a chain never leaves its document, and the renaming changes nothing."""
    result = corefwb("errors", str(SPLIT_KEY), str(SPLIT_RESPONSE), "--conventions", "corefud", "--format", "json")
    assert result.returncode == 0 and any("spans two documents" in w for w in warnings_of(result))
    as_conll = [corefwb("score", str(SPLIT_KEY), str(path), "--conventions", "conll", "--format", "json")
                for path in (SPLIT_RESPONSE, _renamed(tmp_path))]
    assert as_conll[0].returncode == 0 and as_conll[0].stdout == as_conll[1].stdout
    assert not any("spans two documents" in w for r in as_conll for w in warnings_of(r))


# ----------------------------------------------------------------------- 2. convert of a record without a name

KEY2 = ("#begin document (k); part 000\n" + "".join(f"k\t0\t{i}\t{w}\t{p}\t-\t-\t-\t-\t-\t*\t{c}\n" for i, (w, p, c) in
        enumerate([("I", "PRP", "(1)"), ("saw", "VBD", "-"), ("me", "PRP", "(1)")])) + "\n#end document\n")


@pytest.mark.parametrize("with_key", [True, False])
def test_a_record_without_a_name_converts_to_conll_that_reads_back(tmp_path, with_key):
    key, record, out = tmp_path / "key2.conll", tmp_path / "m.jsonl", tmp_path / "m.conll"
    key.write_text(KEY2, encoding="utf-8")
    record.write_text('{"tokens": ["I","saw","me"], "clusters_token_offsets": [[[0,0],[2,2]]]}\n', encoding="utf-8")
    converted = corefwb("convert", str(record), str(out), *(["--key", str(key)] if with_key else []))
    assert converted.returncode == 0, converted.stderr
    lines = out.read_text(encoding="utf-8").splitlines()
    # with --key it takes the key document's name (it pairs by place); without, no token line is a comment
    assert lines[0] == ("#begin document (k); part 000" if with_key else "#begin document #1")
    assert not any(line.startswith("#") for line in lines[1:-1])
    assert muc(corefwb("score", str(key), str(out), "--metrics", "muc", "--format", "json"))["f1"] == 1.0


# ----------------------------------------------------------------------- 3. crossing mentions of one chain

@pytest.mark.parametrize("target", ["conllu", "conll"])
def test_crossing_mentions_of_one_chain_are_refused_not_rewritten(tmp_path, target):
    """A closing bracket closes its chain's latest open mention: [0, 2] and [1, 3] would come back
    as [1, 2] and [0, 3].  Both bracket formats refuse; the offset formats carry them."""
    record = tmp_path / "x.jsonl"
    record.write_text('{"doc_key":"x_0","sentences":[["a","b","c","d"],["e","f"]],"clusters":[[[0,2],[1,3]]]}\n',
                      encoding="utf-8")
    out = tmp_path / f"c.{target}"
    line = error_line(corefwb("convert", str(record), str(out)))
    assert line.startswith(f"corefwb: error: {record}: cannot be written as {target}: document 'x_0': chain ")
    assert "has crossing mentions ending at 2 and 3" in line and not out.exists()
    back = tmp_path / "back.jsonl"
    assert corefwb("convert", str(record), str(tmp_path / "m.jsonl"), "--to", "maverick").returncode == 0
    assert corefwb("convert", str(tmp_path / "m.jsonl"), str(back), "--key", str(record)).returncode == 0
    assert json.loads(back.read_text(encoding="utf-8"))["clusters"] == [[[0, 2], [1, 3]]]


# ----------------------------------------------------------------------- 4. a text response that is another text

ONE = ["John\t(0)", "met\t-", "Mary\t(1)", ".\t-", "", "He\t(0)", "liked\t-", "her\t(1)", ".\t-"]


def _one_key(tmp_path: Path) -> Path:
    lines, index = ["#begin document (one); part 000"], 0
    for row in ONE:
        if not row:
            lines.append("")
            index = 0
            continue
        word, coref = row.split("\t")
        lines.append("\t".join(["one", "0", str(index), word, "-", "-", "-", "-", "-", "-", "*", coref]))
        index += 1
    path = tmp_path / "one.conll"
    path.write_text("\n".join(lines + ["", "#end document", ""]), encoding="utf-8")
    return path


def _text(tmp_path: Path, text: str, chains: list) -> Path:
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps({"doc_key": "one_0", "text": text, "clusters_char_offsets": chains}) + "\n", encoding="utf-8")
    return path


def test_a_text_sharing_nothing_with_its_key_gets_no_credit(tmp_path):
    """'yyy' used to snap onto 'Mary' on one shared letter: mention precision 100."""
    key = _one_key(tmp_path)
    text = _text(tmp_path, "Zzz qqq xxx. Www vvv yyy.", [[[0, 3], [13, 16]], [[8, 11], [21, 24]]])
    result = corefwb("score", str(key), str(text), "--metrics", "mentions,muc", "--format", "json")
    assert result.returncode == 0, result.stderr
    scores = json.loads(result.stdout)
    assert scores["metrics"]["mentions"]["precision"] == 0 and scores["metrics"]["mentions"]["recall"] == 0
    assert scores["alignment"] == {"mentions": 4, "snapped": 0, "lost": 4}
    assert warnings_of(result) == [
        f"corefwb: warning: {text}:1: document 'one_0': its text does not align with the key's ({key}:1): only 10.0% "
        "of its characters match, so none of its 4 mention(s) is mapped onto the key's words"]


def test_a_mention_mostly_unmatched_is_lost_with_its_place(tmp_path):
    """'hqxzw' shares one letter with 'her': lost, not snapped; the warning says where it was."""
    key = _one_key(tmp_path)
    text = _text(tmp_path, "John met Mary. He liked hqxzw.", [[[0, 4], [15, 17]], [[9, 13], [24, 29]]])
    result = corefwb("score", str(key), str(text), "--metrics", "muc", "--format", "json")
    assert muc(result)["recall"] == 0.5 and json.loads(result.stdout)["alignment"]["lost"] == 1
    assert warnings_of(result) == [
        f"corefwb: warning: {text}:1: document 'one_0': mention lost in mapping onto the key's words: "
        "'hqxzw' (its words 6-6, chain 1): not in the key's text"]


def test_identical_lost_mentions_stay_apart_by_their_place(tmp_path):
    key = _one_key(tmp_path)
    text = _text(tmp_path, "John met Mary. He liked her. Qq Qq.", [[[0, 4], [29, 31], [32, 34]]])
    result = corefwb("score", str(key), str(text), "--metrics", "muc")
    assert result.returncode == 0 and json.loads(corefwb("score", str(key), str(text), "--format", "json").stdout)["alignment"]["lost"] == 2
    assert [w.split("lost in mapping onto the key's words: ")[1] for w in warnings_of(result)] == [
        "'Qq' (its words 6-6, chain 0): not in the key's text", "'Qq' (its words 7-7, chain 0): not in the key's text"]


@pytest.mark.parametrize("side", ["key", "response"])
def test_a_folder_given_as_a_file_is_named_as_a_folder(tmp_path, side):
    folder = tmp_path / "outputs"
    folder.mkdir()
    files = [str(folder), str(TWO_SENTENCES)] if side == "key" else [str(TWO_SENTENCES), str(folder)]
    line = error_line(corefwb("score", *files))
    assert f"{folder}: is a folder, not a file" in line


def test_a_warning_quoting_a_huge_word_is_shown_cut_with_a_count_of_the_rest(tmp_path):
    from app_support import huge_word_pair

    result = corefwb("score", *huge_word_pair(tmp_path))
    warned = warnings_of(result)
    assert result.returncode == 0 and len(warned) == 1
    assert len(warned[0]) < 2_200 and "words differ from the key's" in warned[0]
    assert warned[0].endswith("characters more)")

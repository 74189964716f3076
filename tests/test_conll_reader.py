"""The CoNLL-2012 reader: what it accepts (as v8.01 does) and every malformed case, located."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from metrics.formats.conll import read_conll
from metrics.model import InputError

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_KEY = ROOT / "samples" / "gum" / "key.gum.conll"
SAMPLE_RESPONSE = ROOT / "samples" / "gum" / "response.gum.conll"


def write(tmp_path: Path, text: str, name: str = "f.conll") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def doc(cells: list[str], name: str = "(d); part 000", sep: str = "\t") -> str:
    lines = [f"#begin document {name}"]
    for i, cell in enumerate(cells):
        if cell == "":
            lines.append("")
            continue
        lines.append(sep.join(["d", "0", str(i), f"w{i}", "NN", "*", "-", "-", "-", "-", "*", cell]))
    lines.append("#end document")
    return "\n".join(lines) + "\n"


def test_parts_are_documents_and_blank_lines_are_not_tokens(tmp_path):
    text = doc(["(1", "1)", "", "(1)"], "(a); part 000") + doc(["(2)", "-"], "(a); part 001")
    docs = read_conll(write(tmp_path, text))
    assert [d.name for d in docs] == ["(a); part 000", "(a); part 001"]
    assert docs[0].words == ["w0", "w1", "w3"]
    assert docs[0].chains == [[(0, 1), (2, 2)]]
    assert docs[0].sentence_starts == [0, 2]


def test_nested_same_label_and_item_order(tmp_path):
    # one-token items first, then openings, then closings, as v8.01; labels are strings
    docs = read_conll(write(tmp_path, doc(["(1|(01", "(1", "1)|(2)", "01)|1)"])))
    d = docs[0]
    assert d.labels == ["1", "01", "2"]
    assert d.chains == [[(1, 2), (0, 3)], [(0, 3)], [(2, 2)]]


def test_space_aligned_trailing_tab_and_split_antecedents(tmp_path):
    text = "#begin document (x); part 0\nx 0 0 A _ _ _ _ _ _ _ (3)\t\nx 0 1 B _ _ _ _ _ _ _ (4+5)|(3\t\nx 0 2 C _ _ _ _ _ _ _ 3)\t\n#end document\n"
    d = read_conll(write(tmp_path, text))[0]
    assert d.chains == [[(0, 0), (1, 2)]]
    assert d.pos is None  # '_' columns mean no annotation


@pytest.mark.parametrize("text, line, words", [
    (doc(["1)"]), 2, "closes but no mention (1 is open"),
    (doc(["(1", "-"]), 4, "opened on line 2 is never closed"),
    (doc(["(1)"]).replace("#end document\n", ""), 2, "has no #end document"),
    (doc(["(1)"]) + doc(["-"]), 4, "appears twice (also on line 1)"),
    (doc(["(1)x"]), 2, "bad coreference item"),
    (doc(["((1)"]), 2, "bad coreference item"),
    ("#end document\n", 1, "#end document without #begin"),
    (doc(["-"]).replace("#end document\n", "") + doc(["-"], "(e); part 000"), 3, "#begin document inside document"),
])
def test_malformed_inputs_are_located(tmp_path, text, line, words):
    path = write(tmp_path, text)
    with pytest.raises(InputError) as info:
        read_conll(path)
    assert info.value.path == path
    assert info.value.line == line
    assert words in str(info.value)
    assert str(info.value).startswith(f"{path}:{line}: ")


def test_not_coreference_file_or_not_text(tmp_path):
    with pytest.raises(InputError, match="no '#begin document'"):
        read_conll(write(tmp_path, "hello\n"))
    binary = tmp_path / "b.conll"
    binary.write_bytes(b"#begin document (d); part 000\n\xff\xfe\x00\n#end document\n")
    with pytest.raises(InputError, match="not UTF-8"):
        read_conll(str(binary))
    with pytest.raises(InputError, match="cannot open"):
        read_conll(str(tmp_path / "missing.conll"))


def test_crlf_and_bom_are_tolerated(tmp_path):
    path = tmp_path / "crlf.conll"
    path.write_bytes(b"\xef\xbb\xbf" + doc(["(1", "1)"]).replace("\n", "\r\n").encode())
    assert read_conll(str(path))[0].chains == [[(0, 1)]]


def run_cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "workbench.cli", *args], capture_output=True, text=True,
                          cwd=cwd, env={**os.environ, "NO_COLOR": "1"})


def digest(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest() + str(os.stat(path).st_mtime_ns)


def test_cli_bad_input_is_one_line_exit_1_and_inputs_untouched(tmp_path):
    key = write(tmp_path, doc(["(1", "1)", "(1)"]), "key.conll")
    bad = write(tmp_path, doc(["(1", "2)", "-"]), "bad.conll")
    before = digest(key), digest(bad)
    result = run_cli("score", key, bad)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.strip().count("\n") == 0
    assert result.stderr.startswith(f"corefwb: error: {bad}:3: ")
    assert "Traceback" not in result.stderr
    assert (digest(key), digest(bad)) == before


def test_cli_token_mismatch_is_an_input_error(tmp_path):
    key = write(tmp_path, doc(["(1", "1)", "(1)"]), "key.conll")
    short = write(tmp_path, doc(["(1", "1)"]), "short.conll")
    result = run_cli("score", key, short)
    assert result.returncode == 1
    assert "do not align" in result.stderr and "Traceback" not in result.stderr


def test_cli_usage_errors_exit_2(tmp_path):
    key = write(tmp_path, doc(["(1", "1)", "(1)"]), "key.conll")
    assert run_cli("score", key, key, "--metrics", "muc,nonsense").returncode == 2
    assert run_cli("score", key, key, "--weights", "1,2").returncode == 2
    assert run_cli("score", key).returncode == 2
    alone = run_cli(key)  # a key alone opens the workbench for browsing: not without a terminal
    assert alone.returncode == 2 and "needs a terminal" in alone.stderr and alone.stderr.count("\n") == 1
    assert run_cli(str(tmp_path / "missing.conll")).returncode == 1  # a missing file first


def test_cli_missing_document_warns_on_stderr_and_scores(tmp_path):
    key = write(tmp_path, doc(["(1", "1)", "(1)"]) + doc(["(2)", "(2)"], "(other); part 000"), "key.conll")
    response = write(tmp_path, doc(["(1", "1)", "(1)"]), "response.conll")
    result = run_cli("score", key, response, "--format", "json", "--metrics", "muc,bcub")
    assert result.returncode == 0
    assert "missing from the response" in result.stderr
    assert '"documents": 2' in result.stdout


def test_score_json_on_sample_has_the_contract_shape():
    import json

    result = run_cli("score", str(SAMPLE_KEY), str(SAMPLE_RESPONSE), "--format", "json",
                     "--metrics", "muc,bcub,ceafm,ceafe,blanc,lea,mentions,conll,lmuc,lbcub,lceafm,lceafe")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["documents"] == 2
    assert data["weights"] == [1.0, 0.75, 0.5, 1.0]
    for name in ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mentions", "conll", "lmuc", "lbcub", "lceafm", "lceafe"):
        score = data["metrics"][name]
        assert 0.0 <= score["recall"] <= 1.0 and 0.0 <= score["precision"] <= 1.0 and 0.0 <= score["f1"] <= 1.0
    conll = data["metrics"]["conll"]["f1"]
    assert conll == pytest.approx((data["metrics"]["muc"]["f1"] + data["metrics"]["bcub"]["f1"] + data["metrics"]["ceafe"]["f1"]) / 3)
    assert [d["document"] for d in data["per_document"]] == ["(GUM_bio_moreau); part 000", "(GUM_news_korea); part 000"]


def test_import_metrics_loads_no_ui_library():
    code = ("import sys, metrics\n"
            "from metrics.corpus.scoring import prepare\n"
            "from metrics.formats.readers import read_documents\n"
            f"c = prepare(read_documents({str(SAMPLE_KEY)!r}), read_documents({str(SAMPLE_RESPONSE)!r}))\n"
            "c.score(metrics=['muc', 'lmuc'])\n"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')]\n"
            "assert not bad, bad\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr

"""`corefwb score --format json` is byte-identical across runs, hash seeds, `--jobs` values and
`--stream`.

Scores end up in papers and in CI diffs, so the same inputs must give the same bytes: no set or
dict iteration order leaking into the output (each run gets a different PYTHONHASHSEED), no
floating-point sums whose order depends on how documents were spread over processes (`--jobs`),
and `--output FILE` writes exactly what stdout would show.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUM = ROOT / "samples" / "gum"


def corefwb(*args: str, hash_seed: int = 0) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED=str(hash_seed))
    proc = subprocess.run([sys.executable, "-m", "workbench.cli", "score", *args], capture_output=True,
                          timeout=300, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    return proc


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A 12-document key/response pair: the GUM sample's two documents, six times under new names,
    so that `--stream --jobs 2` really spreads documents over processes (the in-memory fork is
    tested in tests/test_parallel.py: this corpus is below its threshold)."""
    folder = tmp_path_factory.mktemp("corpus")
    out = []
    for side, name in (("key", "key.gum.conll"), ("response", "response.gum.conll")):
        text = (GUM / name).read_text(encoding="utf-8")
        copies = [re.sub(r"\(GUM_(\w+)\)", rf"(GUM_\1_copy{i})", text) for i in range(6)]
        path = folder / f"{side}.conll"
        path.write_text("".join(copies), encoding="utf-8")
        out.append(path)
    return out[0], out[1]


PAIRS = {
    "gum": (GUM / "key.gum.conll", GUM / "response.gum.conll"),
    "ontonotes": (GUM / "key.ontogum.conll", GUM / "response.ontonotes.conll"),
}


@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_same_bytes_across_runs_and_hash_seeds(pair: str) -> None:
    key, response = PAIRS[pair]
    first = corefwb(str(key), str(response), "--format", "json", hash_seed=1)
    second = corefwb(str(key), str(response), "--format", "json", hash_seed=2)
    assert first.stdout == second.stdout
    assert first.stderr == second.stderr  # warnings too, in the same order
    assert first.stdout.startswith(b"{") and b'"metrics"' in first.stdout


def test_same_bytes_across_jobs(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    key, response = corpus
    plain = corefwb(str(key), str(response), "--format", "json", hash_seed=3)
    assert plain.stdout.count(b'"document":') == 12
    for seed, options in enumerate((["--jobs", "1"], ["--jobs", "2"], ["--stream", "--jobs", "1"],
                                    ["--stream", "--jobs", "2"])):
        run = corefwb(str(key), str(response), "--format", "json", *options, hash_seed=4 + seed)
        assert run.stdout == plain.stdout, f"{' '.join(options)} differs from the default"
        assert run.stderr == plain.stderr, f"{' '.join(options)}: warnings differ"
    out = tmp_path / "scores.json"
    corefwb(str(key), str(response), "--format", "json", "--stream", "--jobs", "2", "--output", str(out))
    assert out.read_bytes() == plain.stdout


def test_same_bytes_when_a_file_cannot_stream(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    """A gzipped key is not streamed in parallel; the result must not depend on that either."""
    import gzip

    key, response = corpus
    packed = tmp_path / "key.conll.gz"
    packed.write_bytes(gzip.compress(key.read_bytes()))
    plain = corefwb(str(key), str(response), "--format", "json")
    run = corefwb(str(packed), str(response), "--format", "json", "--stream", "--jobs", "2")
    assert run.stdout == plain.stdout


VARIANTS = {
    "bom": lambda text: "\ufeff" + text,
    "crlf": lambda text: text.replace("\n", "\r\n"),
    "spaces": lambda text: text.replace("\t", "   "),
    "trailing_tabs": lambda text: text.replace("\n", "\t\n"),
    "text_between_documents": lambda text: text.replace("#end document\n", "#end document\nstray line\n\n"),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_same_scores_streamed_and_whole_on_odd_but_valid_files(variant: str, corpus: tuple[Path, Path],
                                                                   tmp_path: Path) -> None:
    """--stream indexes the raw bytes itself; it must see the documents the whole-file reader sees
    (a BOM once hid the first document from it: 11 of 12 documents scored, silently)."""
    key, response = corpus
    odd_key = tmp_path / "key.conll"
    odd_response = tmp_path / "response.conll"
    odd_key.write_bytes(VARIANTS[variant](key.read_text(encoding="utf-8")).encode("utf-8"))
    odd_response.write_bytes(VARIANTS[variant](response.read_text(encoding="utf-8")).encode("utf-8"))
    whole = corefwb(str(odd_key), str(odd_response), "--format", "json")
    streamed = corefwb(str(odd_key), str(odd_response), "--format", "json", "--stream", "--jobs", "2")
    assert whole.stdout.count(b'"document":') == 12
    assert streamed.stdout == whole.stdout


def test_streaming_refuses_lone_cr_line_ends(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    """Classic Mac OS line ends: the whole-file reader takes a lone CR for a line end, the
    streaming index would see one huge line and pair nothing (scores silently wrong), so --stream
    refuses them with a located message."""
    key, response = corpus
    odd = tmp_path / "key.conll"
    odd.write_bytes(key.read_bytes().replace(b"\n", b"\r"))
    corefwb(str(odd), str(response), "--format", "json")  # whole-file reading accepts them
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "workbench.cli", "score", str(odd), str(response), "--format", "json",
                           "--stream", "--jobs", "2"], capture_output=True, timeout=300, cwd=ROOT, env=env)
    assert proc.returncode == 1 and proc.stdout == b""
    assert proc.stderr.decode().startswith(f"corefwb: error: {odd}:1: a lone CR")



def test_json_written_in_pieces_is_plain_indented_json(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    """The report is streamed a document at a time; its bytes are those of json.dumps(indent=1)."""
    from metrics.corpus.scoring import CorpusResult
    from workbench.commands.score import json_chunks

    key, response = corpus
    text = corefwb(str(key), str(response), "--format", "json").stdout.decode()
    assert text == json.dumps(json.loads(text), indent=1) + "\n"
    assert len(json.loads(text)["per_document"]) == 12
    empty = "".join(json_chunks(CorpusResult((1.0, 0.75, 0.5, 1.0), (), {}, {}, [])))
    assert empty == json.dumps(json.loads(empty), indent=1) + "\n"
    assert json.loads(empty)["per_document"] == []

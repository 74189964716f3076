"""Hostile input and fragile output (issue 18): special files, pipes, escapes, markup, encodings,
numbers, sizes, resource options and failing stdout, each as a user meets it (CLI subprocesses;
in this process where only what the command writes and returns is checked)."""

from __future__ import annotations

import gzip
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
KEY = str(ROOT / "samples" / "gum" / "key.gum.conll")


def corefwb(*args: str, stdin=None, stdout=subprocess.PIPE, env: dict | None = None, **kwargs):
    return subprocess.run([sys.executable, "-m", "workbench.cli", *args], stdin=stdin, stdout=stdout,
                          stderr=subprocess.PIPE, cwd=ROOT, env={**os.environ, "NO_COLOR": "1", **(env or {})},
                          timeout=120, **kwargs)


def corefwb_here(*args: str) -> subprocess.CompletedProcess:
    """`corefwb` run in this process (tests/cli_support.py), its output as bytes, for the cases
    about what the command writes and returns rather than about its process: a subprocess each
    was most of this file's time.  Streams, a failing stdout, encodings and limits keep theirs."""
    from cli_support import corefwb_in_process

    return corefwb_in_process(*args, env={"NO_COLOR": "1"}, text=False)


def one_line_error(result, status: int = 1) -> str:
    err = result.stderr.decode("utf-8", "replace")
    lines = [line for line in err.splitlines() if not line.startswith("corefwb: warning")]
    assert result.returncode == status and len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# ----------------------------------------------------------------------- 1. special output files

def test_output_into_a_fifo_or_a_character_device_writes_into_it(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    result = corefwb("score", "--metrics", "muc", "--output", str(fifo), KEY, KEY)
    got = reader.communicate(timeout=60)[0].decode()
    assert result.returncode == 0 and "MUC" in got
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # still a FIFO, not replaced by a regular file
    assert corefwb("score", "--metrics", "muc", "--output", os.devnull, KEY, KEY).returncode == 0
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_output_onto_a_directory_is_refused(tmp_path):
    line = one_line_error(corefwb("score", "--output", str(tmp_path), KEY, KEY))
    assert str(tmp_path) in line and "not a regular file" in line


# ----------------------------------------------------------------------- 2. pipes

def _key_with_boundary_past_64k(path: Path) -> int:
    """Documents of 20 tokens, padded so that an `#end document` falls at byte 65,531."""
    parts, size, n = [], 0, 0
    while size < 65531 + 20000:
        lines = [f"#begin document (d{n}); part 000"]
        lines += [f"d{n} 0 {t} w{t} {'(1)' if t in (0, 5) else '-'}" for t in range(20)]
        block = "\n".join(lines) + "\n"
        end = "#end document\n"
        if size < 65531 <= size + len(block) + len(end) + 200:
            block += "#" + " " * max(0, 65531 - size - len(block) - 1 - 1) + "\n"  # a comment pads
        parts.append(block + end)
        size += len(block) + len(end)
        n += 1
    path.write_text("".join(parts), encoding="utf-8")
    return n


def test_a_pipe_is_read_whole_once(tmp_path):
    key = tmp_path / "k.conll"
    n = _key_with_boundary_past_64k(key)
    with open(key, "rb") as handle:  # stdin as `-`: a pipe, not seekable
        piped = corefwb("score", "--format", "json", "--metrics", "muc", "-", str(key), stdin=handle)
    assert piped.returncode == 0, piped.stderr
    assert json.loads(piped.stdout)["documents"] == n
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"cat '{key}' > '{fifo}'"])
    result = corefwb("score", "--format", "json", "--metrics", "muc", str(fifo), str(key))
    writer.wait(timeout=60)
    assert result.returncode == 0 and json.loads(result.stdout)["documents"] == n


def test_gzip_is_told_by_its_bytes_not_its_name(tmp_path):
    upper = tmp_path / "K.CONLL.GZ"
    upper.write_bytes(gzip.compress(Path(KEY).read_bytes()))
    result = corefwb("score", "--format", "json", "--metrics", "muc", str(upper), KEY)
    assert result.returncode == 0 and json.loads(result.stdout)["metrics"]["muc"]["f1"] == 1.0


# ----------------------------------------------------------------------- 3-5. escapes, markup, encodings

def _hostile_jsonl(tmp_path: Path, name: str) -> str:
    path = tmp_path / "h.jsonl"
    sentences = [["The", "x", "said", "\x1b]0;PWNED\x07", "to", "him", "\x9b31m", "."]]
    path.write_text(json.dumps({"doc_key": name, "sentences": sentences,
                                "clusters": [[[0, 1], [5, 5]], [[3, 3], [6, 6]]]}) + "\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("command", [["score", "--per-doc"], ["errors"], ["compare"], ["errors", "--format", "csv"],
                                     ["score", "--per-doc", "--format", "markdown"]])
def test_no_control_character_reaches_the_output(tmp_path, command):
    path = _hostile_jsonl(tmp_path, "doc\x1b]52;c;SGVsbG8=\x07")
    other = tmp_path / "r.jsonl"
    other.write_text(Path(path).read_text(encoding="utf-8").replace("[[0, 1], [5, 5]], ", ""), encoding="utf-8")
    files = [path, path, str(other)] if command[0] == "compare" else [path, str(other)]
    result = corefwb_here(*command, *files)
    assert result.returncode == 0, result.stderr
    for stream in (result.stdout, result.stderr):
        text = stream.decode("utf-8")
        assert not any(ord(c) < 0x20 and c not in "\t\n" or 0x7F <= ord(c) < 0xA0 for c in text), repr(text)
    assert "␛" in result.stdout.decode() + result.stderr.decode()


def test_json_escapes_control_characters_itself(tmp_path):
    """`score --format json` is written unscanned (`emit(..., escaped=True)`): its writer escapes
    every control character, so none reaches the output and the name reads back whole."""
    name = "doc\x1b]52;c;SGVsbG8=\x07\x9b"
    path = _hostile_jsonl(tmp_path, name)
    result = corefwb_here("score", "--format", "json", path, path)
    assert result.returncode == 0, result.stderr
    text = result.stdout.decode("ascii")
    assert not any(ord(c) < 0x20 and c not in "\n" or ord(c) >= 0x7F for c in text), repr(text)
    assert json.loads(text)["per_document"][0]["document"] == name


def test_a_markup_name_prints_as_itself_on_a_terminal(tmp_path):
    """`[/]` as a document name: the rich table a terminal gets never parses it as markup."""
    from rich.console import Console

    from metrics.formats.readers import read_documents
    from metrics.corpus.scoring import prepare
    from workbench.commands import score

    path = _hostile_jsonl(tmp_path, "[/]")
    docs = read_documents(path)
    result = prepare(docs, docs).score()
    import io
    import unittest.mock

    buffer = io.StringIO()
    with unittest.mock.patch("rich.console.Console", lambda: Console(file=buffer, width=200)):
        assert score.render_text(result, per_doc=True, rich_table=True) is None
    assert "[/]" in buffer.getvalue()


def test_any_stdout_encoding_and_lone_surrogates(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps({"doc_key": "d\ud800ü", "sentences": [["a", "b"]], "clusters": [[[0, 0], [1, 1]]]}) + "\n",
                    encoding="utf-8")
    for env in ({"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}, {}):
        result = corefwb("score", "--per-doc", "--metrics", "muc", str(path), str(path), env=env)
        assert result.returncode == 0 and b"Traceback" not in result.stderr, (env, result.stderr)
        assert b"d\\ud800" in result.stdout


# ----------------------------------------------------------------------- 6. numbers

@pytest.mark.parametrize("weights", ["1e308,1e308,1e308,1e308", "nan,1,1,1", "-1,1,1,1", "inf,1,1,1"])
def test_weights_that_would_overflow_are_a_usage_error(weights):
    line = one_line_error(corefwb_here("score", "--weights", weights, KEY, KEY), status=2)
    assert "--weights" in line


def test_json_always_parses_strictly():
    result = corefwb_here("score", "--format", "json", "--weights", "1e6,1e6,1e6,1e6", KEY, KEY)
    assert result.returncode == 0 and result.stderr == b""

    def refuse(token):
        raise ValueError(token)

    json.loads(result.stdout, parse_constant=refuse)  # no NaN, no Infinity


# ----------------------------------------------------------------------- 7. sizes

def test_a_decompression_bomb_stops_at_the_limit(tmp_path):
    bomb = tmp_path / "bomb.conll.gz"
    with gzip.open(bomb, "wb", compresslevel=9) as out:
        line = b"x 0 0 w -\n" * 100_000
        for _ in range(20):  # 20 MB of text in a few tens of KB
            out.write(line)
    assert bomb.stat().st_size < 200_000
    line = one_line_error(corefwb("score", "--max-input-size", "1M", str(bomb), KEY))
    assert str(bomb) in line and "1,048,576 bytes" in line and "--max-input-size" in line
    assert one_line_error(corefwb("score", "--max-input-size", "lots", KEY, KEY), status=2).count("--max-input-size")


@pytest.mark.parametrize("command, jobs", [("score", []), ("score", ["--stream", "--jobs", "2"]), ("errors", []), ("compare", [])])
def test_a_document_over_the_token_limit_is_refused_at_its_header(command, jobs):
    args = [KEY, KEY] + ([KEY] if command == "compare" else [])
    line = one_line_error(corefwb(command, "--max-document-tokens", "500", *jobs, *args))
    assert line.startswith(f"corefwb: error: {KEY}:") and "over the limit of 500 tokens" in line
    assert "--max-document-tokens" in line
    assert corefwb(command, "--max-document-tokens", "100000", *jobs, *args).returncode == 0
    assert "--max-document-tokens" in one_line_error(corefwb(command, "--max-document-tokens", "0", *args), status=2)


def test_out_of_memory_anywhere_is_one_line(monkeypatch, capsys):
    """A MemoryError (under `ulimit -v`, or a corpus too large for the machine) ends in one line,
    exit 1: simulated where the session loads, since a real one takes minutes to provoke."""
    from workbench import cli
    from workbench.session import Session

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(Session, "load", exhausted)
    assert cli.main(["score", KEY, KEY]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "out of memory" in err and "--max-input-size" in err


# ----------------------------------------------------------------------- 9-11. options, stdout, smaller

@pytest.mark.parametrize("jobs", ["99999999999999999999", "0", "1000", "-3"])
def test_nonsense_jobs_are_refused(jobs):
    line = one_line_error(corefwb_here("score", "--jobs", jobs, KEY, KEY), status=2)
    assert "--jobs" in line


def test_stdout_that_fails_is_one_line():
    with open("/dev/full", "wb") as full:
        line = one_line_error(corefwb("score", KEY, KEY, stdout=full))
    assert "No space left" in line
    closed = subprocess.run(["sh", "-c", f"'{sys.executable}' -m workbench.cli score '{KEY}' '{KEY}' >&-"],
                            capture_output=True, cwd=ROOT, timeout=120)
    assert "standard output is closed" in one_line_error(closed)


def test_empty_metrics_list_is_a_usage_error():
    assert "--metrics" in one_line_error(corefwb("score", "--metrics=", KEY, KEY), status=2)


def test_not_utf8_names_line_and_column(tmp_path):
    bad = tmp_path / "bad.conll"
    bad.write_bytes(b"#begin document (d); part 000\nd 0 0 caf\xe9 (1)\n#end document\n")
    line = one_line_error(corefwb("score", str(bad), str(bad)))
    assert f"{bad}:2:" in line and "column 10" in line


@pytest.mark.parametrize("junk", [b"caf\xe9\n", b"a\x00b\n"])
def test_streaming_and_whole_reading_agree_on_junk_before_the_first_document(tmp_path, junk):
    bad = tmp_path / "junk.conll"
    bad.write_bytes(junk + Path(KEY).read_bytes())
    whole = one_line_error(corefwb("score", str(bad), KEY))
    streamed = one_line_error(corefwb("score", "--stream", "--jobs", "2", str(bad), KEY))
    assert f"{bad}:1:" in whole and f"{bad}:1:" in streamed


def test_a_file_that_fails_while_being_read_says_so_in_one_line(tmp_path, monkeypatch):
    """Opened, then an I/O error part-way (a failing disk, a network file system gone): the error
    is the reading's, not the opening's, on one line naming the file."""
    import errno
    import io

    from metrics.formats import source

    broken = tmp_path / "response.conll"
    broken.write_bytes(Path(KEY).read_bytes())

    class FailingRead(io.BytesIO):
        def read(self, *args):
            raise OSError(errno.EIO, os.strerror(errno.EIO))

    real_open = open
    monkeypatch.setattr(source, "open", lambda path, *args, **kwargs: FailingRead() if str(path) == str(broken)
                        else real_open(path, *args, **kwargs), raising=False)
    line = one_line_error(corefwb_here("score", "--no-cache", KEY, str(broken)))
    assert str(broken) in line and f"cannot read: {os.strerror(errno.EIO)}" in line

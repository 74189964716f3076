"""Report rendering (CSV, Markdown), the atomic write that never hits an input, the progress bar."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pytest

from metrics.model import InputError
from workbench.commands.progress import Progress
from workbench.output import _umask, render_csv, render_markdown, write_atomic

HEADERS = ["document", "metric", "recall", "f1"]
ROWS = [["(d); part 000", "muc", 2 / 3, 0.5], ['a "quoted", name', "b3|x", 1.0, 0.0]]


def test_csv_round_trips_through_the_csv_module() -> None:
    text = render_csv(HEADERS, ROWS)
    parsed = list(csv.reader(io.StringIO(text)))
    assert parsed[0] == HEADERS
    assert parsed[1] == ["(d); part 000", "muc", repr(2 / 3), "0.5"]
    assert parsed[2][0] == 'a "quoted", name'
    assert float(parsed[1][2]) == 2 / 3  # full precision, not rounded


def test_markdown_table_escapes_pipes_and_aligns_numbers() -> None:
    text = render_markdown(HEADERS, ROWS, title="Scores")
    lines = text.splitlines()
    assert lines[0] == "## Scores"
    assert lines[2] == "| document | metric | recall | f1 |"
    assert lines[3] == "|---|---|---:|---:|"
    assert lines[5].startswith('| a "quoted", name | b3\\|x | 1.0 |')
    assert all(line.count("|") - line.count("\\|") == 5 for line in lines[2:])


def test_markdown_cells_lose_line_breaks() -> None:
    text = render_markdown(["a"], [["one\ntwo"]])
    assert text.splitlines()[-1] == "| one two |"


def test_write_atomic_replaces_the_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    target.write_text("old\n", encoding="utf-8")
    write_atomic(str(target), "new\n")
    assert target.read_text(encoding="utf-8") == "new\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]  # no temporary left behind
    assert os.stat(target).st_mode & 0o777 == 0o666 & ~_umask()  # not the temporary file's 0600


def test_write_atomic_refuses_an_input_file(tmp_path: Path) -> None:
    key = tmp_path / "key.conll"
    key.write_text("#begin document (d); part 000\n#end document\n", encoding="utf-8")
    alias = tmp_path / "sub" / ".." / "key.conll"
    (tmp_path / "sub").mkdir()
    with pytest.raises(InputError, match="refusing to write the output onto an input file"):
        write_atomic(str(alias), "scores\n", inputs=[str(key), "response.conll"])
    assert key.read_text(encoding="utf-8").startswith("#begin document")


def test_write_atomic_into_a_missing_directory_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot write"):
        write_atomic(str(tmp_path / "nowhere" / "out.csv"), "x")


class FakeTerminal(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_progress_draws_only_on_a_terminal_after_the_delay_and_clears() -> None:
    clock = Clock()
    term = FakeTerminal(tty=True)
    with Progress(4, "scoring", stream=term, clock=clock) as bar:
        bar.advance()
        assert term.getvalue() == ""  # the first second stays quiet
        clock.now = 1.5
        bar.advance()
        assert term.getvalue().endswith("scoring [###############...............] 2/4 2s")
    assert term.getvalue().endswith("\r\x1b[2K")  # the line is cleared at the end


def test_progress_is_silent_when_stderr_is_not_a_terminal() -> None:
    clock = Clock()
    log = FakeTerminal(tty=False)
    with Progress(2, stream=log, clock=clock) as bar:
        clock.now = 5
        bar.advance(2)
    assert log.getvalue() == ""

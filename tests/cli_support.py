"""`corefwb` run in the test's own process, seen as a subprocess run would be seen.

Why: a test that runs the command line in a subprocess pays a fresh interpreter and its imports
(numpy, the engine; matplotlib for `plot`: a second or more) on every run, for dozens of runs.
Where a test is about what the command says and returns, not about the process boundary, it runs
`workbench.cli.main` here instead, with the same environment, working directory, streams (UTF-8
byte streams that `main` reconfigures as it does a terminal's) and the same result object
(`returncode`, `stdout`, `stderr` as text).  An exception that escapes `main` is raised in the
test (in a subprocess it would be a traceback on stderr: the test fails either way).  Tests about
the boundary itself (a closed stdout, a full disk, a signal, resource limits, the console
script's exit) keep real subprocesses.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def _working_directory(path: Path) -> Iterator[None]:
    before = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def _as_text(stream: io.TextIOWrapper) -> str:
    """What `subprocess.run(..., text=True)` reads: UTF-8, universal newlines."""
    stream.flush()
    return stream.buffer.getvalue().decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def corefwb_in_process(*args: str, cwd: Path | str = ROOT, env: Mapping[str, str] | None = None,
                       text: bool = True) -> subprocess.CompletedProcess:
    """Run `corefwb ARGS` by `workbench.cli.main` in this process; the result as `subprocess.run`
    with `capture_output=True, text=text` gives it (`text=False`: the bytes written, a lone CR
    among them).  `env` is added to the environment for the run."""
    from workbench.cli import main

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="")
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="")
    with mock.patch.dict(os.environ, dict(env or {})), _working_directory(Path(cwd)), \
            mock.patch.object(sys, "stdout", out), mock.patch.object(sys, "stderr", err):
        try:
            status = main(list(args))
        except SystemExit as exc:  # argparse's --help, were a test to ask for it
            status = exc.code if isinstance(exc.code, int) else 1
    if not text:
        out.flush(), err.flush()
        return subprocess.CompletedProcess(["corefwb", *args], status, out.buffer.getvalue(), err.buffer.getvalue())
    return subprocess.CompletedProcess(["corefwb", *args], status, _as_text(out), _as_text(err))

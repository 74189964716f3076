"""The whole test run reads and writes a cache directory of its own, never the user's.

Why: every command a test runs (in-process or as a subprocess, which inherits the environment)
caches the inputs it reads.  In the user's directory, a run of the suite left 100 MB entries of
its fuzzed files there, and a test could pass on an entry left by an earlier run.  Tests about the
cache itself point `COREFWB_CACHE_DIR` elsewhere with monkeypatch, as before.

`--shard K/N` runs every Nth test from the Kth (0-based), so that N pytest processes run the suite
between them (CI runs two on a machine of two cores or more; see .ci/run).  Tests are dealt out
one at a time, not file by file: the cost is spread thinly over thousands of tests and a few
heavy files, so whole files would split unevenly.
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

_DIRECTORY = tempfile.mkdtemp(prefix="corefwb-test-cache-")
os.environ["COREFWB_CACHE_DIR"] = _DIRECTORY


def pytest_unconfigure(config) -> None:
    shutil.rmtree(_DIRECTORY, ignore_errors=True)


def pytest_addoption(parser) -> None:
    parser.addoption("--shard", default=None, metavar="K/N",
                     help="run only every Nth collected test, from the Kth (0 <= K < N)")


def pytest_collection_modifyitems(config, items) -> None:
    shard = config.getoption("--shard")
    if shard is None:
        return
    try:
        index, count = (int(part) for part in shard.split("/"))
    except ValueError:
        raise pytest.UsageError(f"--shard {shard}: expected K/N, two whole numbers") from None
    if not 0 <= index < count:
        raise pytest.UsageError(f"--shard {shard}: K must be at least 0 and less than N")
    kept = items[index::count]
    config.hook.pytest_deselected(items=[item for i, item in enumerate(items) if i % count != index])
    items[:] = kept

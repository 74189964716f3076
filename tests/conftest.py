"""The whole test run reads and writes a cache directory of its own, never the user's.

Why: every command a test runs (in-process or as a subprocess, which inherits the environment)
caches the inputs it reads.  In the user's directory, a run of the suite left 100 MB entries of
its fuzzed files there, and a test could pass on an entry left by an earlier run.  Tests about the
cache itself point `COREFWB_CACHE_DIR` elsewhere with monkeypatch, as before.

`--shard K/N` runs every Nth test from the Kth (0-based), so that N pytest processes run the suite
between them (a quicker run by hand on two cores or more; CI runs the README's one-process
command).  Tests are dealt out one at a time, not file by file: the cost is spread thinly over
thousands of tests and a few heavy files, so whole files would split unevenly (files with
snapshot tests excepted, below).
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


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items) -> None:
    """After every other plugin has seen the whole collection: the snapshot plugin (syrupy) must
    know these tests were deselected, not deleted, or it calls their snapshots unused and fails.
    A file with snapshot tests goes whole to one shard, for the same plugin: it matches unused
    snapshots to the tests that ran by name, so a test of that file run without its neighbours
    would make their snapshots look unused."""
    shard = config.getoption("--shard")
    if shard is None:
        return
    try:
        index, count = (int(part) for part in shard.split("/"))
    except ValueError:
        raise pytest.UsageError(f"--shard {shard}: expected K/N, two whole numbers") from None
    if not 0 <= index < count:
        raise pytest.UsageError(f"--shard {shard}: K must be at least 0 and less than N")
    with_snapshots = {item.path for item in items if "snap_compare" in getattr(item, "fixturenames", ())}
    units: list[list] = []
    whole_files: dict = {}
    for item in items:
        if item.path not in with_snapshots:
            units.append([item])
        elif item.path in whole_files:
            whole_files[item.path].append(item)
        else:
            whole_files[item.path] = [item]
            units.append(whole_files[item.path])
    kept = [item for i, unit in enumerate(units) if i % count == index for item in unit]
    chosen = set(map(id, kept))
    config.hook.pytest_deselected(items=[item for item in items if id(item) not in chosen])
    items[:] = kept

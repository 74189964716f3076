"""The whole test run reads and writes a cache directory of its own, never the user's.

Why: every command a test runs (in-process or as a subprocess, which inherits the environment)
caches the inputs it reads.  In the user's directory, a run of the suite left 100 MB entries of
its fuzzed files there, and a test could pass on an entry left by an earlier run.  Tests about the
cache itself point `COREFWB_CACHE_DIR` elsewhere with monkeypatch, as before.
"""

from __future__ import annotations

import os
import shutil
import tempfile

_DIRECTORY = tempfile.mkdtemp(prefix="corefwb-test-cache-")
os.environ["COREFWB_CACHE_DIR"] = _DIRECTORY


def pytest_unconfigure(config) -> None:
    shutil.rmtree(_DIRECTORY, ignore_errors=True)

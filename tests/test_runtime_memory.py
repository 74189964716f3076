"""`corefwb`'s subcommands keep the memory they free (`metrics.runtime.memory`): glibc takes both
settings, in a process of its own (this one keeps the defaults), and a `score` prints the same
with them as without."""

from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GLIBC = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"


@pytest.mark.skipif(not GLIBC, reason="glibc's mallopt only")
def test_glibc_takes_both_settings() -> None:
    done = subprocess.run([sys.executable, "-c", "import sys\nfrom metrics.runtime.memory import keep_freed_memory\n"
                           "sys.exit(0 if keep_freed_memory() else 1)"], cwd=ROOT)
    assert done.returncode == 0


def test_a_score_is_the_same_with_memory_kept() -> None:
    key, response = ROOT / "samples" / "gum" / "key.gum.conll", ROOT / "samples" / "gum" / "response.gum.conll"
    outputs = []
    for setup in ("", "from metrics.runtime.memory import keep_freed_memory; keep_freed_memory()\n"):
        code = setup + "import sys\nfrom workbench.cli import main\nsys.exit(main())"
        done = subprocess.run([sys.executable, "-c", code, "score", str(key), str(response), "--format", "json",
                               "--no-cache"], cwd=ROOT, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]

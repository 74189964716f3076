"""The README's section on large corpora states the thresholds the code uses: from how many tokens
a corpus is scored in forked processes, and from what size responses are read beside the key.
(Both were raised once and the README kept the old numbers.)"""

from __future__ import annotations

from pathlib import Path

from metrics.conventions.pipeline import PARALLEL_READ_BYTES
from metrics.runtime.parallel import PARALLEL_TOKENS

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = README.index(f"## {title}\n")
    end = README.find("\n## ", start + 1)
    return " ".join(README[start:end if end > 0 else None].split())


def test_the_large_corpora_section_states_the_forking_thresholds() -> None:
    text = _section("Large corpora")
    assert f"under {PARALLEL_TOKENS:,} tokens" in text
    assert f"Responses of {PARALLEL_READ_BYTES // 1_000_000:,} MB or more" in text
    assert PARALLEL_READ_BYTES % 1_000_000 == 0

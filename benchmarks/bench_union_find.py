"""The union-find's two ways on the calls real runs make: where the array work starts to pay.

    python benchmarks/bench_union_find.py --dir DIR [--repeat 5]

Runs `score` and `errors --impact conll` (JSON, one process) on the corpus and the book that
`book.py` wrote in DIR (corpus.key.conll, corpus.response.conll, book.*) with `metrics.runtime.union_find.least_members` wrapped to record every call (items,
pairs), then times each recorded call both ways, the Python loop (`_joined_in_python`) and the
labels spread as array work (`_spread`), best of `--repeat`, in CPU time, and prints the calls
grouped by their number of pairs: how many, and the total time of each way.  `least_members`
switches ways at `ARRAY_PAIRS` pairs; the figures say where that should be.  Nothing here
asserts: the figures go in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from metrics.runtime import union_find  # noqa: E402

BUCKETS = (0, 1, 4, 16, 32, 64, 128, 256, 1024, 4096, 16384, 1 << 62)


def recorded_calls(directory: Path) -> dict[str, list[tuple[int, np.ndarray, np.ndarray]]]:
    """Each run's calls of `least_members`, recorded (the wrapper is set before the engine's
    modules import the name)."""
    calls: list[tuple[int, np.ndarray, np.ndarray]] = []
    original = union_find.least_members

    def recording(n, left, right):
        calls.append((n, np.asarray(left, dtype=np.int64).copy(), np.asarray(right, dtype=np.int64).copy()))
        return original(n, left, right)

    union_find.least_members = recording
    from workbench.cli import main  # noqa: PLC0415  (imported after the wrapper is set)

    found: dict[str, list[tuple[int, np.ndarray, np.ndarray]]] = {}
    for name in ("corpus", "book"):
        key, response = str(directory / f"{name}.key.conll"), str(directory / f"{name}.response.conll")
        for command in (["score", key, response, "--format", "json", "--jobs", "1"],
                        ["errors", key, response, "--impact", "conll", "--format", "json", "--jobs", "1"]):
            calls.clear()
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                main(command)
            found[f"{name} {command[0]}"] = list(calls)
    union_find.least_members = original
    return found


def best_cpu(way, call: tuple[int, np.ndarray, np.ndarray], repeat: int) -> float:
    n, left, right = call
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        way(n, left, right)
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    os.environ.setdefault("COREFWB_CACHE_DIR", str(args.dir / "cache"))
    for run, calls in recorded_calls(args.dir).items():
        print(f"{run}: {len(calls)} calls, switch at {union_find.ARRAY_PAIRS} pairs")
        print(f"  {'pairs':>13} {'calls':>6} {'python ms':>10} {'arrays ms':>10}")
        chosen = 0.0
        for low, high in zip(BUCKETS, BUCKETS[1:]):
            group = [c for c in calls if low <= len(c[1]) < high]
            if not group:
                continue
            python_each = [best_cpu(union_find._joined_in_python, c, args.repeat) for c in group]
            arrays_each = [best_cpu(union_find._spread, c, args.repeat) for c in group]
            python, arrays = sum(python_each), sum(arrays_each)
            chosen += sum(p if len(c[1]) < union_find.ARRAY_PAIRS else a
                          for c, p, a in zip(group, python_each, arrays_each))
            label = f"{low}-{high - 1}" if high < 1 << 61 else f"{low}-"
            print(f"  {label:>13} {len(group):>6} {python * 1e3:>10.2f} {arrays * 1e3:>10.2f}")
        print(f"  as least_members chooses: {chosen * 1e3:.2f} ms")
    print("synthetic: random pairs between two halves of 2m + 5 items, 200 cases each, mean per call")
    rng = np.random.default_rng(0)
    for m in (1, 4, 8, 16, 24, 32, 48, 64):
        n = 2 * m + 5
        cases = [(n, rng.integers(0, n // 2, m), n // 2 + rng.integers(0, n - n // 2, m)) for _ in range(200)]
        python = sum(best_cpu(union_find._joined_in_python, c, args.repeat) for c in cases) / len(cases)
        arrays = sum(best_cpu(union_find._spread, c, args.repeat) for c in cases) / len(cases)
        print(f"  {m:>3} pairs: python {python * 1e6:6.1f} us, arrays {arrays * 1e6:6.1f} us")


if __name__ == "__main__":
    main()

"""The reading and typing part of a cold `score`, measured apart from scoring, against another tree.

    python benchmarks/cold_parts.py KEY RESPONSE [--base DIR] [--rounds 5]

Each round runs, in a fresh process (no memo or cache of an earlier read warms it), what a cold
`corefwb score --no-cache` does before scoring: read the key with its syntax, read the response
without it (exact matching), and find the types of the key's mentions (`types.types_together`, as
the LMetrics ask for them).  It prints the CPU time (user + system of the process, in
`time.process_time`) of each part, the median over the rounds.  With `--base DIR` (an exported tree
of another revision) each round runs that tree right after this one, so both are measured in one
alternating run.  Nothing here asserts: the figures go in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

PARTS = ("read key", "read response", "type key mentions")

CHILD = """
import gc, json, sys, time
from metrics.formats.readers import read_documents
from metrics.mentions.types import types_together
gc.disable()  # as the readers run (gc_paused), so that collections do not fall on one part
key, response = sys.argv[1:3]
started = time.process_time()
keys = read_documents(key)
read_key = time.process_time()
read_documents(response, syntax=False)
read_response = time.process_time()
spans = [list(dict.fromkeys(doc.mentions())) for doc in keys]
typing = time.process_time()
types_together(keys, spans)
typed = time.process_time()
print(json.dumps({"read key": read_key - started, "read response": read_response - read_key,
                  "type key mentions": typed - typing}))
"""


def run(tree: Path, key: str, response: str) -> dict[str, float]:
    """The parts' CPU seconds in one fresh process importing `tree`'s engine."""
    done = subprocess.run([sys.executable, "-c", CHILD, key, response], cwd=tree, capture_output=True, text=True,
                          env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"})
    if done.returncode != 0:
        raise SystemExit(f"cold_parts: {tree}: {done.stderr[-2000:]}")
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("key")
    parser.add_argument("response")
    parser.add_argument("--base", type=Path, help="an exported tree of another revision, run alternately")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    trees = {"here": HERE.parent, **({"base": args.base.resolve()} if args.base else {})}
    samples: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    for _ in range(args.rounds):
        for name, tree in trees.items():
            samples[name].append(run(tree, args.key, args.response))
    print(f"{'tree':<6} " + " ".join(f"{part:>18}" for part in PARTS) + f" {'total':>8}   (CPU ms, median)")
    for name, rounds in samples.items():
        medians = [statistics.median(r[part] for r in rounds) for part in PARTS]
        total = statistics.median(sum(r[part] for part in PARTS) for r in rounds)
        print(f"{name:<6} " + " ".join(f"{m * 1000:18.0f}" for m in medians) + f" {total * 1000:8.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

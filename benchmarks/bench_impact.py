"""Impact pricing at scale: `corefwb errors --impact conll` on the documents that made it quadratic.

Three shapes (`--shape`), each one document of N chains:

- `singletons`: the key holds N singleton mentions (one token each); the response links every
  other token into one chain and leaves the rest as singletons (issue 18, item 8).  Each of the
  N/2 - 1 linked mentions is a false anaphoric error whose fix reaches the whole chain: rescoring
  what a fix reaches costs O(N) per error, O(N^2) in all; pricing by count changes
  (metrics/errors/delta.py) costs O(1) per error.
- `merged`: N key chains of two mentions each, one sentence each; the response one chain holding
  every mention (a system that merged them all).  Each of the N fixes (a chain split out) moves one
  key chain's cell of a column of N cells: CEAF-e's change judged over every cell of the column
  was O(N) per fix (metrics/errors/ceaf_columns.py ranks the column once per size after).
- `split`: the mirror: one key chain of 2N mentions, N response chains of two, one sentence each.

Times `corefwb errors --format json` without and with `--impact conll` (`--jobs 1 --no-cache`,
so a run's CPU time is its work), medians of --repeat runs of wall time, CPU time (user + system,
from GNU time) and peak memory.  `--base DIR` (a tree of another revision, exported) runs each
command there too, in turn with this tree's, so that before and after share one alternating run.

    python benchmarks/bench_impact.py --shape merged --sizes 1000 4000 16000 --base /tmp/base
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from bench_book import HERE, compiled, timed

SHAPES: dict[str, tuple[int, Callable[[int], int | None], Callable[[int], int | None]]] = {
    # shape: (tokens per sentence, key chain of token i, response chain of token i), over N units
    "singletons": (20, lambda i: i, lambda i: 0 if i % 2 == 0 else i),
    "merged": (4, lambda i: i // 4 if i % 2 == 0 else None, lambda i: 0 if i % 2 == 0 else None),
    "split": (4, lambda i: 0 if i % 2 == 0 else None, lambda i: i // 4 if i % 2 == 0 else None),
}
"""Each shape's sentence length and chains by token (None: no mention)."""


def tokens(shape: str, n: int) -> int:
    """Tokens of a document of n units: n singletons, or n sentences of one chain's two mentions."""
    return n if shape == "singletons" else 4 * n


def write(path: Path, n_tokens: int, per_sentence: int, chain_of: Callable[[int], int | None]) -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write("#begin document (d); part 000\n")
        for i in range(n_tokens):
            chain = chain_of(i)
            out.write(f"d\t0\t{i % per_sentence}\tw{i}\t-\t-\t-\t-\t-\t-\t{f'({chain})' if chain is not None else '-'}\n")
            if i % per_sentence == per_sentence - 1:
                out.write("\n")
        out.write("\n#end document\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", choices=sorted(SHAPES), default="singletons")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--base", type=Path, help="a tree of another revision: each command also runs there, in turn")
    args = parser.parse_args()
    trees = {"": HERE.parent} | ({"base ": args.base.resolve()} if args.base is not None else {})
    compiled([tree / part for tree in trees.values() for part in ("metrics", "workbench")])
    per_sentence, key_chain, response_chain = SHAPES[args.shape]
    print(f"{args.shape}\n{'tree':>5} {'N':>7} {'errors CPU s':>12} {'--impact CPU s':>14} {'wall s':>7} {'ratio':>6} "
          f"{'peak MB':>8}")
    with tempfile.TemporaryDirectory() as folder:
        for n in args.sizes:
            key, response = Path(folder) / f"key{n}.conll", Path(folder) / f"response{n}.conll"
            write(key, tokens(args.shape, n), per_sentence, key_chain)
            write(response, tokens(args.shape, n), per_sentence, response_chain)
            plain = [sys.executable, "-m", "workbench", "errors", "--format", "json", "--jobs", "1", "--no-cache",
                     str(key), str(response)]
            priced = plain[:4] + ["--impact", "conll"] + plain[4:]
            runs: dict[str, list[tuple[float, float, int]]] = {}
            for _ in range(args.repeat):
                for label, tree in trees.items():
                    for name, argv in ((f"{label}plain", plain), (f"{label}priced", priced)):
                        runs.setdefault(name, []).append(timed(argv, tree))
            for label in trees:
                cpu_plain = statistics.median(cpu for _, cpu, _ in runs[f"{label}plain"])
                cpu_priced = statistics.median(cpu for _, cpu, _ in runs[f"{label}priced"])
                wall = statistics.median(w for w, _, _ in runs[f"{label}priced"])
                peak = max(p for _, _, p in runs[f"{label}priced"]) / 1024
                print(f"{label.strip() or 'this':>5} {n:>7} {cpu_plain:>12.2f} {cpu_priced:>14.2f} {wall:>7.2f} "
                      f"{cpu_priced / cpu_plain:>6.2f} {peak:>8.0f}", flush=True)


if __name__ == "__main__":
    main()

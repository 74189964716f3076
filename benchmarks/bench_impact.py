"""Impact pricing at scale: `corefwb errors --impact conll` on the document that made it quadratic.

The key holds N singleton mentions (one token each); the response links every other token into one
chain and leaves the rest as singletons (issue 18, item 8).  Each of the N/2 - 1 linked mentions is
a false anaphoric error whose fix reaches the whole chain: rescoring what a fix reaches costs O(N)
per error, O(N^2) in all; pricing by count changes (metrics/errors/delta.py) costs O(1) per error.
Times `corefwb errors --format json` with and without `--impact conll` (wall time and peak memory
of the process, from /usr/bin/time when present), median of --repeat runs.

    python benchmarks/bench_impact.py --sizes 1000 10000 100000
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CORE = Path(sys.executable).parent / "corefwb"


def write(path: Path, n: int, chain_of) -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write("#begin document (d); part 000\n")
        for i in range(n):
            chain = chain_of(i)
            out.write(f"d\t0\t{i % 20}\tw{i}\t-\t-\t-\t-\t-\t-\t{f'({chain})' if chain is not None else '-'}\n")
            if i % 20 == 19:
                out.write("\n")
        out.write("\n#end document\n")


def run(command: list[str]) -> tuple[float, int | None]:
    """Wall seconds and peak resident KB of one run."""
    timer = Path("/usr/bin/time")
    prefix = [str(timer), "-f", "%M"] if timer.exists() else []
    start = time.perf_counter()
    done = subprocess.run(prefix + command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
    seconds = time.perf_counter() - start
    peak = int(done.stderr.strip().splitlines()[-1]) if prefix else None
    return seconds, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'N':>8} {'errors s':>9} {'--impact s':>10} {'ratio':>6} {'peak MB':>8}")
    with tempfile.TemporaryDirectory() as folder:
        for n in args.sizes:
            key, response = Path(folder) / f"key{n}.conll", Path(folder) / f"response{n}.conll"
            write(key, n, lambda i: i)
            write(response, n, lambda i: 0 if i % 2 == 0 else i)
            base = [str(CORE), "errors", "--format", "json", str(key), str(response)]
            plain = [run(base) for _ in range(args.repeat)]
            priced = [run(base[:2] + ["--impact", "conll"] + base[2:]) for _ in range(args.repeat)]
            t_plain = statistics.median(s for s, _ in plain)
            t_priced = statistics.median(s for s, _ in priced)
            peak = max((p for _, p in priced if p is not None), default=0) / 1024
            print(f"{n:>8} {t_plain:>9.2f} {t_priced:>10.2f} {t_priced / t_plain:>6.2f} {peak:>8.0f}", flush=True)


if __name__ == "__main__":
    main()

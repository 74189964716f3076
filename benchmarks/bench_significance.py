"""Time of intervals and tests beyond the scoring itself: 1,000 paired bootstrap resamples of every
metric for three systems on gum-open (the GUM key, xrenner in GUM mode and OntoNotes mode, and the
GUM mode again as a third system), and 10,000 approximate randomization trials of CoNLL.

    .venv/bin/python benchmarks/bench_significance.py [--data ../shared/data/gum-open] [--repeat 5]

Scoring (reading, alignment, every metric per document) is timed apart: the figure that matters
here is what `compare` adds on top of it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from metrics.measures.catalog import ALL_METRICS, with_parts  # noqa: E402
from metrics.statistics.significance import Method, compare  # noqa: E402
from workbench.session import Session  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "gum-open")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    d = args.data
    responses = [d / "response.xrenner-gum.conll.gz", d / "response.xrenner-ontonotes.conll.gz",
                 d / "response.xrenner-gum.conll.gz"]
    start = time.perf_counter()
    session = Session.load(str(d / "key.gum.conll.gz"), [str(r) for r in responses])
    results = [session.score(metrics=with_parts(ALL_METRICS), system=s) for s in range(3)]
    scoring = time.perf_counter() - start
    timings = {"bootstrap": [], "ar": []}
    for _ in range(args.repeat):
        t = time.perf_counter()
        compare(results, ALL_METRICS, Method(resamples=1000))
        timings["bootstrap"].append(time.perf_counter() - t)
        t = time.perf_counter()
        compare(results[:2], ("conll",), Method(resamples=1, test="ar", trials=10_000))
        timings["ar"].append(time.perf_counter() - t)
    print(f"documents {len(results[0].documents)}, metrics {len(ALL_METRICS)}, systems 3")
    print(f"load and score (once):                                  {scoring:6.2f} s")
    print(f"1,000 paired bootstrap resamples, all metrics, 3 systems: {statistics.median(timings['bootstrap']):6.3f} s "
          f"(median of {args.repeat})")
    print(f"10,000 randomization trials, CoNLL, 2 systems:           {statistics.median(timings['ar']):6.3f} s")


if __name__ == "__main__":
    main()

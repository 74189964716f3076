"""Does `corefwb crac` give what corefud-scorer gives per dataset and variant, and their mean?  How fast?

    python benchmarks/check_crac.py --checkout CHECKOUT --peer-python PY KEY_DIR SYSTEM_DIR [...] [--time N]

CHECKOUT is a corefud-scorer checkout (github ufal/corefud-scorer, commit 4fd7b0e), PY a Python
with udapi (benchmarks/setup.sh).  It runs `corefwb crac --format json` once, then corefud-scorer's
own reader and evaluator (benchmarks/corefud_reference.py) on every system, dataset and variant
(head, partial, exact match with singletons removed; head match with them kept; zeros aligned
by dependencies), and compares every MUC, B3, CEAFe and zero recall, precision and F1, each
dataset's CoNLL F1 (the three F1 summed in corefud-scorer's order, over 3) and each
macro-average (the plain mean of the datasets' CoNLL F1, summed in dataset order) to the last
digit.  With `--time N` it then times, N times each in turn, the whole report (`corefwb crac`,
four variants, JSON, key cache off; then with the keys cached) against `corefud-scorer.py -m muc
bcub ceafe zero` run once per system, dataset and variant, one after another, as a participant
runs it, and prints the medians and ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from metrics.statistics.crac import VARIANTS, variant_settings  # noqa: E402
from metrics.formats.datasets import pair  # noqa: E402

PARTS = ("muc", "bcub", "ceafe")


def corefwb() -> str:
    return str(Path(sys.executable).parent / "corefwb")


def peer_jobs(key_dir: str, systems: list[str]) -> list[tuple[int, int, str, str, str]]:
    """(system, dataset, variant, key, response) for every pair the report scores."""
    layout = pair(key_dir, systems)
    return [(s, d, v, dataset.key, row[d]) for s, row in enumerate(layout.responses)
            for d, dataset in enumerate(layout.datasets) for v in VARIANTS if row[d] is not None]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", type=Path, required=True)
    parser.add_argument("--peer-python", required=True)
    parser.add_argument("--time", type=int, default=0, metavar="N")
    parser.add_argument("key_dir")
    parser.add_argument("systems", nargs="+")
    args = parser.parse_args()
    done = subprocess.run([corefwb(), "crac", args.key_dir, *args.systems, "--format", "json", "--bootstrap", "0",
                           "--no-cache"], capture_output=True, text=True, check=True)
    ours = json.loads(done.stdout)
    jobs = peer_jobs(args.key_dir, args.systems)
    lines = "".join(f"{k}\t{r}\t{st.match}\t{'keep' if st.keep_singletons else 'remove'}\tdependent\n"
                    for _, _, v, k, r in jobs for st in [variant_settings(v)])
    reference = subprocess.run([args.peer_python, str(ROOT / "benchmarks" / "corefud_reference.py"), str(args.checkout)],
                               input=lines, capture_output=True, text=True, check=True)
    theirs = [json.loads(line) for line in reference.stdout.splitlines()]
    compared = equal = 0
    conll: dict[tuple[int, str], list[float]] = {}
    for (s, d, v, _, response), ref in zip(jobs, theirs):
        if "error" in ref:
            print(f"REFUSED by corefud-scorer: {response} {v}: {ref['error']}")
            continue
        mine = ours["systems"][s]["datasets"][d]["variants"][v]
        for metric in (*PARTS, "zero"):
            for part, theirs_value in zip(("recall", "precision", "f1"), ref[metric]):
                compared += 1
                if mine[metric][part] == theirs_value:
                    equal += 1
                else:
                    print(f"DIFFERENT {response} {v} {metric} {part}: ours {mine[metric][part]!r} theirs {theirs_value!r}")
        total = 0
        for metric in PARTS:  # corefud-scorer's CoNLL score: the F1 summed in this order, over 3
            total += ref[metric][2]
        compared += 1
        equal += mine["conll"] == total / 3
        if mine["conll"] != total / 3:
            print(f"DIFFERENT {response} {v} conll: ours {mine['conll']!r} theirs {total / 3!r}")
        conll.setdefault((s, v), []).append(total / 3)
    for (s, v), values in conll.items():
        total = 0.0
        for value in values:
            total += value
        compared += 1
        mean = total / len(values)
        mine = ours["systems"][s]["macro"][v]
        equal += mine == mean
        if mine != mean:
            print(f"DIFFERENT macro {ours['systems'][s]['name']} {v}: ours {mine!r} theirs {mean!r}")
    print(f"{len(jobs)} corefud-scorer runs ({len(args.systems)} systems x {len(jobs) // max(len(args.systems), 1) // len(VARIANTS)} "
          f"datasets x {len(VARIANTS)} variants): {compared} numbers, {equal} equal to the last digit")
    if args.time:
        timings(args, jobs)
    return 0 if equal == compared else 1


def timings(args: argparse.Namespace, jobs: list[tuple[int, int, str, str, str]]) -> None:
    """The whole report both ways, alternating; medians and ratios."""
    cache = tempfile.mkdtemp(prefix="corefwb-crac-cache-")
    env = {**os.environ, "COREFWB_CACHE_DIR": cache}
    report = [corefwb(), "crac", args.key_dir, *args.systems, "--format", "json"]
    runs = {"corefwb cold": report + ["--no-cache"], "corefwb 1 job": report + ["--no-cache", "--jobs", "1"],
            "corefwb keys cached": report}
    subprocess.run(report, capture_output=True, check=True, env=env)  # fills the cache
    times: dict[str, list[float]] = {name: [] for name in [*runs, "corefud-scorer"]}
    for _ in range(args.time):
        for name, argv in runs.items():
            start = time.perf_counter()
            subprocess.run(argv, capture_output=True, check=True, env=env)
            times[name].append(time.perf_counter() - start)
        start = time.perf_counter()
        for _, _, v, key, response in jobs:
            st = variant_settings(v)
            argv = [args.peer_python, str(args.checkout / "corefud-scorer.py"), key, response, "-m", "muc", "bcub",
                    "ceafe", "zero", "-a", st.match] + (["-s"] if st.keep_singletons else [])
            subprocess.run(argv, capture_output=True, check=True, cwd=args.checkout)
        times["corefud-scorer"].append(time.perf_counter() - start)
    peer = statistics.median(times["corefud-scorer"])
    print(f"corefud-scorer, {len(jobs)} runs one after another: {peer:.2f} s (median of {args.time})")
    for name in runs:
        ours = statistics.median(times[name])
        print(f"{name}: {ours:.2f} s: {peer / ours:.1f}x")


if __name__ == "__main__":
    sys.exit(main())

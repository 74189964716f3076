"""Our UA reading and scoring before and after a change, beside the UA scorer, in one run.

    python benchmarks/ua_before_after.py --before TREE --scorer PEER_CHECKOUT --python PEER_PYTHON
                                         --codi CODI_CRAC22_CHECKOUT [--rounds 3] [--repeats 5]
                                         [--presets crac18 ...] [--files all|FILE...]

TREE is an exported tree of the earlier revision (`git archive REV | tar -x -C TREE`); the later
one is this checkout, or `--after TREE2` (an exported tree of the later one: this checkout may then
change while it runs).  For each CODI-CRAC train file (or `--files`) and UA preset, rounds alternate the UA
scorer (its reader and evaluator in process, `ua_reference.py`), the earlier tree and this one,
each in its own process (imports done, one warm-up run, the collector off as `corefwb` runs):
CPU seconds of reading both files and scoring, medians over every round's repeats.  The machine
may be shared, so the three are timed in turns and compared as ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from check_ua import (PRESETS, child_seconds, codi_files, command_line, job_of, our_command, patched_copy,  # noqa: E402
                      reference)

OURS = """
import gc, json, sys, time
sys.path.insert(0, sys.argv[1])
from metrics.corpus.ua import PRESETS, score_corpus
from metrics.formats.ua import read_ua
try:
    from metrics.corpus.ua import layers_read
except ImportError:  # before the reader read only the columns a score reads
    layers_read = None
key, response, preset, repeats = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
settings = PRESETS[preset]
options = {"layers": layers_read(settings)} if layers_read else {}
def run():
    score_corpus(read_ua(key, **options), read_ua(response, **options), key, response, settings)
run()
gc.disable()
seconds = []
for _ in range(repeats):
    started = time.process_time()
    run()
    seconds.append(time.process_time() - started)
print(json.dumps(seconds))
"""


def ours(tree: str, key: str, response: str, preset: str, repeats: int) -> list[float]:
    out = subprocess.run([sys.executable, "-c", OURS, tree, key, response, preset, str(repeats)],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def whole_times(args: argparse.Namespace, copy: str, key: str, response: str, preset: str) -> None:
    """The three as whole command lines, in turns: the UA scorer's, ours before and after."""
    settings = PRESETS[preset]
    before_env = {**os.environ, "PYTHONPATH": args.before}
    after_env = {**os.environ, "PYTHONPATH": args.after}
    times: dict[str, list[float]] = {"ua-scorer": [], "before": [], "after": []}
    for _ in range(args.rounds * args.repeats):
        times["ua-scorer"].append(child_seconds([args.python, "ua-scorer.py", key, response, *command_line(settings)],
                                                copy))
        times["before"].append(child_seconds(our_command(key, response, settings), env=before_env))
        times["after"].append(child_seconds(our_command(key, response, settings), env=after_env))
    peer, before, after = (statistics.median(times[name]) for name in ("ua-scorer", "before", "after"))
    print(f"{Path(key).name} {preset} whole command: UA scorer {peer:.2f} s, before {before:.2f} s "
          f"({peer / before:.1f}x), after {after:.2f} s ({peer / after:.1f}x) (CPU, medians of "
          f"{args.rounds * args.repeats}, in turns)", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="an exported tree of the earlier revision")
    parser.add_argument("--scorer", required=True, help="a corefud-scorer checkout (4fd7b0e)")
    parser.add_argument("--python", required=True, help="a Python with the peer's dependencies")
    parser.add_argument("--codi", required=True, help="a CODI-CRAC22-Corpus checkout")
    parser.add_argument("--files", nargs="+", help="`all` (every *.2022.CONLLUA) or these files instead of "
                        "the train files")
    parser.add_argument("--after", default=str(ROOT), help="an exported tree of the later revision (default: "
                        "this checkout)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--whole", action="store_true", help="also whole command lines (`corefwb score "
                        "--no-cache`, the earlier tree's through PYTHONPATH), in the same turns")
    parser.add_argument("--presets", nargs="+", default=["crac18", "craft19", "codicrac22ar", "codicrac22dd",
                                                          "codicrac22br"])
    args = parser.parse_args()
    copy = patched_copy(args.scorer)
    workdir = tempfile.mkdtemp(prefix="ua-before-after-")
    try:
        for key in codi_files(args.codi, args.files):
            response = str(Path(workdir, f"{Path(key).stem}.response"))
            subprocess.run([sys.executable, str(ROOT / "benchmarks" / "make_ua_response.py"), key, response],
                           check=True)
            for preset in args.presets:
                job = job_of(key, response, PRESETS[preset])
                times: dict[str, list[float]] = {"ua-scorer": [], "before": [], "after": []}
                for _ in range(args.rounds):
                    times["ua-scorer"] += reference(args.python, copy, [job], args.repeats)[0]["seconds"]
                    times["before"] += ours(args.before, key, response, preset, args.repeats)
                    times["after"] += ours(args.after, key, response, preset, args.repeats)
                peer, before, after = (statistics.median(times[name]) for name in ("ua-scorer", "before", "after"))
                print(f"{Path(key).name} {preset}: UA scorer {peer:.3f} s, before {before:.3f} s ({peer / before:.1f}x), "
                      f"after {after:.3f} s ({peer / after:.1f}x); after/before {after / before:.2f} "
                      f"(CPU, medians of {args.rounds} x {args.repeats}, in turns)", flush=True)
                if args.whole:
                    whole_times(args, copy, key, response, preset)
    finally:
        shutil.rmtree(copy, ignore_errors=True)
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

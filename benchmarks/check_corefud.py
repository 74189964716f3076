"""Does `--conventions corefud` give corefud-scorer's numbers?  Both run on the same pairs.

    python benchmarks/check_corefud.py --checkout CHECKOUT --peer-python PY [--pairs FILE] [--settings all|crac]
                                       [--time N]

CHECKOUT is a corefud-scorer checkout (github ufal/corefud-scorer, commit 4fd7b0e) and PY a Python
with udapi (benchmarks/setup.sh makes one).  By default the pairs are every key and response of
its test suite (`tests/tests-corefud`, TC-A-8/9 left out as its own tests leave them out), each
under the 12 settings (head, partial, exact match x singletons kept, removed x zeros aligned by
dependencies, by position); `--pairs FILE` takes lines `KEY<TAB>RESPONSE` instead.  It prints one
line per disagreement and a summary: scores compared, equal to the last digit, equal at the
official scorer's printed precision (%.2f of percentages), and the pairs either side refused.
With `--time N` it then times, per pair, `corefwb score --format json` (CRAC's setting: head match,
singletons removed, zeros by dependencies, all metrics) against `corefud-scorer.py` with its
defaults, N runs each in turn, and prints the medians and their ratio.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import subprocess
import time
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from metrics.conventions.corefud import COREFUD_CONVENTIONS, Settings  # noqa: E402
from metrics.conventions.projection import prepare_nodes  # noqa: E402
from metrics.formats.corefud import read_corefud  # noqa: E402
from metrics.measures.catalog import CONLL  # noqa: E402
from metrics.model import InputError  # noqa: E402

METRICS = tuple(m.name for m in COREFUD_CONVENTIONS.official)
MATCH_NAMES = {"dependency": "dependent", "linear": "linear"}


def suite_pairs(checkout: Path) -> list[tuple[str, str]]:
    out = []
    for key in sorted((checkout / "tests" / "tests-corefud").rglob("*.key")):
        for response in sorted(key.parent.glob(key.stem + "-*.response")):
            if key.parent.name == "exact-match" and response.stem in ("TC-A-8", "TC-A-9"):
                continue
            out.append((str(key), str(response)))
    return out


def ours(key: str, response: str, settings: Settings) -> dict:
    try:
        corpus = prepare_nodes(read_corefud(key), read_corefud(response), key_path=key, response_path=response,
                               settings=settings, spans=False)
        result = corpus.score(metrics=(*METRICS, CONLL.name))
    except InputError as error:
        return {"error": str(error)}
    return {name: [result.micro[name].recall, result.micro[name].precision, result.micro[name].f1] for name in METRICS}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", type=Path, required=True)
    parser.add_argument("--peer-python", required=True)
    parser.add_argument("--pairs", type=Path)
    parser.add_argument("--settings", choices=("all", "crac"), default="all")
    parser.add_argument("--time", type=int, default=0, metavar="N", help="also time both command lines, N runs each")
    args = parser.parse_args()
    pairs = ([tuple(line.split("\t")) for line in args.pairs.read_text().splitlines() if line.strip()]
             if args.pairs else suite_pairs(args.checkout))
    grid = (list(itertools.product(("head", "partial", "exact"), (False, True), ("dependency", "linear")))
            if args.settings == "all" else [("head", False, "dependency"), ("partial", False, "dependency"),
                                            ("exact", False, "dependency"), ("head", True, "dependency")])
    jobs = [(k, r, Settings(m, s, z)) for (k, r) in pairs for (m, s, z) in grid]
    lines = "".join(f"{k}\t{r}\t{st.match}\t{'keep' if st.keep_singletons else 'remove'}\t{MATCH_NAMES[st.zero_match]}\n"
                    for k, r, st in jobs)
    done = subprocess.run([args.peer_python, str(ROOT / "benchmarks" / "corefud_reference.py"), str(args.checkout)],
                          input=lines, capture_output=True, text=True, check=True)
    theirs = [json.loads(line) for line in done.stdout.splitlines()]
    compared = exact = printed = refused_both = 0
    for (key, response, st), reference in zip(jobs, theirs):
        mine = ours(key, response, st)
        label = f"{Path(response).parent.name}/{Path(response).name} {st.match} {'keep' if st.keep_singletons else 'remove'} {st.zero_match}"
        if "error" in reference or "error" in mine:
            if "error" in reference and "error" in mine:
                refused_both += 1
            else:
                print(f"REFUSED ONE SIDE  {label}: ours {mine.get('error', 'scored')} | theirs {reference.get('error', 'scored')}")
            continue
        for name in METRICS:
            for part, a, b in zip("RPF", mine[name], reference[name]):
                compared += 1
                exact += a == b
                printed += f"{a * 100:.2f}" == f"{b * 100:.2f}"
                if f"{a * 100:.2f}" != f"{b * 100:.2f}":
                    print(f"DIFFERENT {label} {name} {part}: ours {a!r} theirs {b!r}")
    print(f"{len(jobs)} runs ({len(pairs)} pairs x {len(grid)} settings), {refused_both} refused by both; "
          f"{compared} scores: {exact} equal to the last digit, {printed} at the printed precision")
    if args.time:
        for key, response in pairs:
            timings(key, response, args.checkout, args.peer_python, args.time)
    return 0 if printed == compared else 1


def timings(key: str, response: str, checkout: Path, peer_python: str, repeat: int) -> None:
    """Wall times of both command lines on one pair, alternating; medians and ratio."""
    corefwb = Path(sys.executable).parent / "corefwb"
    commands = {"corefwb": [str(corefwb), "score", key, response, "--format", "json", "--no-cache"],
                "corefud-scorer": [peer_python, str(checkout / "corefud-scorer.py"), key, response]}
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, argv in commands.items():
            start = time.perf_counter()
            subprocess.run(argv, capture_output=True, check=True, cwd=checkout)
            times[name].append(time.perf_counter() - start)
    ours, theirs = (statistics.median(times[n]) for n in commands)
    print(f"time {Path(response).name}: corefwb {ours:.2f} s, corefud-scorer {theirs:.2f} s "
          f"(medians of {repeat}): {theirs / ours:.1f}x")


if __name__ == "__main__":
    sys.exit(main())

"""Book scale against the floor: one alternating run of every command on the inputs of `book.py`.

    python benchmarks/bench_book.py [--dir /tmp/corefwb-book] [--repeat 3] [--coval PATH] [--only NAME ...]
                                    [--base DIR]

Runs, round after round (each command once per round, in turn, so that a busy machine slows all
alike), each as a subprocess under `/usr/bin/time`:
- on the book (one 250,000-token document) and the corpus (the same text as separate documents):
  `errors`, `errors --taxonomy kk` and `errors --impact conll`, all `--format json`, and `score`
  (all metrics, JSON);
- `score` on 20,000 tiny documents and on the same text as one document;
- under `--conventions corefud`, on `book_conllu.py`'s CoNLL-U book and on its corpus (the same
  text as 324 documents): `score`, `errors`, `errors --taxonomy kk` and `errors --impact conll`
  (`conllu book score`, `conllu corpus kk`, ...), and the corpus's `score --no-cache` (`conllu
  corpus score cold`: the key read, not loaded); `score` on gum-open's CoNLL-U key (108
  documents) with a response made the same way (`conllu gum score`);
- on the corpus: the floor (start Python, import numpy, read both files and split them into lines),
  `score --no-cache` (cold) and `score` with both files in the cache of read files; coval's
  `scorer.py` when `--coval` is given.
It prints each command's median wall time, median CPU time (user + system: steadier than wall on a
machine shared with other work) and peak memory (largest resident set), then the issue's ratios
of medians.  With `--base DIR` (an exported tree of another revision, say the one before a
change) every corefwb command also runs under that tree, right after the same command here, so
before and after are measured in one alternating run; its rows and ratios are printed as `base ...`.
Nothing here asserts: the figures go in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from book import DATA, build  # noqa: E402  (a sibling script)
from book_conllu import build as build_conllu  # noqa: E402  (a sibling script)

TARGETS = [  # (label, numerator, denominator, at most)
    ("errors: book / corpus", "book errors", "corpus errors", 1.5),
    ("errors --taxonomy kk: book / corpus", "book kk", "corpus kk", 1.5),
    ("errors --impact conll: book / corpus", "book impact", "corpus impact", 1.5),
    ("CoNLL-U score: book / corpus", "conllu book score", "conllu corpus score", 1.5),
    ("CoNLL-U errors: book / corpus", "conllu book errors", "conllu corpus errors", 1.5),
    ("CoNLL-U errors --taxonomy kk: book / corpus", "conllu book kk", "conllu corpus kk", 1.5),
    ("CoNLL-U errors --impact conll: book / corpus", "conllu book impact", "conllu corpus impact", 1.5),
    ("score: 20,000 tiny documents / one", "tiny score", "tinyone score", 2.0),
    ("corpus score cold / floor", "corpus score cold", "floor", 5.0),
    ("corpus score cached / floor", "corpus score", "floor", 3.0),
    ("corpus errors / score cached", "corpus errors", "corpus score", 1.5),
    ("corpus errors --impact / score cached", "corpus impact", "corpus score", 2.0),
    ("coval / corpus score cold", "coval", "corpus score cold", None),
]


def commands(pairs: dict[str, tuple[Path, Path]], coval: Path | None) -> dict[str, list[str]]:
    py = sys.executable
    corefwb = [py, "-m", "workbench"]
    out: dict[str, list[str]] = {}
    for name in ("book", "corpus"):
        key, response = map(str, pairs[name])
        out[f"{name} errors"] = [*corefwb, "errors", key, response, "--format", "json"]
        out[f"{name} kk"] = [*corefwb, "errors", key, response, "--taxonomy", "kk", "--format", "json"]
        out[f"{name} impact"] = [*corefwb, "errors", key, response, "--impact", "conll", "--format", "json"]
        out[f"{name} score"] = [*corefwb, "score", key, response, "--format", "json"]
    key, response = map(str, pairs["corpus"])
    out["corpus score cold"] = [*corefwb, "score", key, response, "--format", "json", "--no-cache"]
    out["floor"] = [py, "-c", "import sys, numpy\nfor p in sys.argv[1:]:\n    open(p, 'rb').read().split(b'\\n')",
                    key, response]
    for name in ("tiny", "tinyone"):
        key, response = map(str, pairs[name])
        out[f"{name} score"] = [*corefwb, "score", key, response, "--format", "json"]
    for name in ("book", "corpus", "gum"):  # CoNLL-U, CorefUD's conventions (book_conllu.py)
        key, response = map(str, pairs[f"conllu {name}"])
        corefud = [key, response, "--conventions", "corefud", "--format", "json"]
        out[f"conllu {name} score"] = [*corefwb, "score", *corefud]
        if name == "corpus":  # the key read too, not loaded from the cache of read files
            out["conllu corpus score cold"] = [*corefwb, "score", *corefud, "--no-cache"]
        if name != "gum":
            out[f"conllu {name} errors"] = [*corefwb, "errors", *corefud]
            out[f"conllu {name} kk"] = [*corefwb, "errors", *corefud, "--taxonomy", "kk"]
            out[f"conllu {name} impact"] = [*corefwb, "errors", *corefud, "--impact", "conll"]
    if coval is not None:
        out["coval"] = [py, str(coval / "scorer.py"), *map(str, pairs["corpus"])]
    return out


ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
"""The commands' environment: Python keeps the bytecode it compiles, as on a user's machine (a
machine that forbids it would charge every corefwb run about 0.1 s of compiling the project's
modules again, which the floor, numpy already compiled, never pays)."""


def compiled(trees: list[Path]) -> None:
    """Compile every tree's modules once before timing (what the first run on a user's machine
    does), so that no round pays for it."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", *map(str, trees)], check=True, env=ENV,
                   stdout=subprocess.DEVNULL)


def timed(argv: list[str], where: Path = HERE.parent) -> tuple[float, float, int]:
    """(wall s, user + system s, peak resident KB) of one run in `where` (`python -m workbench`
    runs the tree it starts in), from GNU time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        done = subprocess.run(["/usr/bin/time", "-o", report.name, "-f", "%e %U %S %M", *argv],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=where, env=ENV)
        if done.returncode != 0:
            sys.stderr.write(done.stderr.decode(errors="replace")[-2000:])
            raise SystemExit(f"bench_book: {' '.join(argv[:4])} ... exited {done.returncode}")
        wall, user, system, peak = report.read().split()[-4:]
    return float(wall), float(user) + float(system), int(peak)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/corefwb-book"))
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--coval", type=Path, help="a checkout of github.com/ns-moosavi/coval")
    parser.add_argument("--only", nargs="+", help="run only these commands (names as printed)")
    parser.add_argument("--base", type=Path, help="a tree of another revision: each corefwb command also runs there, "
                                                  "alternating with this one")
    args = parser.parse_args()
    pairs = build(args.dir, args.data, 250_000, 20_000, 11)
    pairs.update({f"conllu {name}": pair for name, pair in
                  build_conllu(args.dir, args.data / "key.gum.conllu.gz", 250_000, 1).items()})
    runs = {name: (argv, HERE.parent) for name, argv in commands(pairs, args.coval).items()}
    if args.only:
        runs = {name: run for name, run in runs.items() if name in args.only}
    if args.base is not None:
        with_base = {}
        for name, (argv, where) in runs.items():
            with_base[name] = (argv, where)
            if argv[1:3] == ["-m", "workbench"]:
                with_base[f"base {name}"] = (argv, args.base.resolve())
        runs = with_base
    compiled([HERE.parent / "metrics", HERE.parent / "workbench"]
             + ([args.base / "metrics", args.base / "workbench"] if args.base is not None else [])
             + ([args.coval] if args.coval is not None else []))
    for name, (argv, where) in runs.items():  # warm-up: fills the cache of read files, pays first imports
        if "cold" not in name and not name.endswith(("floor", "coval")):
            timed(argv, where)
    samples: dict[str, list[tuple[float, float, int]]] = {name: [] for name in runs}
    for round_ in range(args.repeat):
        for name, (argv, where) in runs.items():
            samples[name].append(timed(argv, where))
            wall, cpu, peak = samples[name][-1]
            print(f"round {round_ + 1} {name:<25} {wall:8.2f} s wall {cpu:8.2f} s cpu {peak / 1024:8.0f} MB",
                  file=sys.stderr, flush=True)
    medians = {name: (statistics.median(s[0] for s in runs_),
                      statistics.median(s[1] for s in runs_),
                      max(s[2] for s in runs_)) for name, runs_ in samples.items()}
    print(f"{'command':<25} {'wall s':>8} {'cpu s':>8} {'peak MB':>8}")
    for name, (wall, cpu, peak) in medians.items():
        print(f"{name:<25} {wall:8.2f} {cpu:8.2f} {peak / 1024:8.0f}")
    print()
    print(f"{'ratio of medians':<45} {'wall':>6} {'cpu':>6}  target")
    for prefix in ("", "base ") if args.base is not None else ("",):
        for label, top, bottom, limit in TARGETS:
            top = top if f"{prefix}{top}" not in medians else f"{prefix}{top}"
            bottom = bottom if f"{prefix}{bottom}" not in medians else f"{prefix}{bottom}"
            if top in medians and bottom in medians:
                wall = medians[top][0] / medians[bottom][0]
                cpu = medians[top][1] / medians[bottom][1]
                goal = (f"<= {limit}x: {'met' if max(wall, cpu) <= limit else 'met on cpu' if cpu <= limit else 'not met'}"
                        if limit else "")
                print(f"{prefix + label:<45} {wall:6.2f} {cpu:6.2f}  {goal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

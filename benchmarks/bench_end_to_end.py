"""End to end, as a user measures: wall time and peak memory of whole commands, in one alternating run.

    benchmarks/.venv/bin/python benchmarks/bench_end_to_end.py --coval /tmp/coval [--repeat 5] [--sizes 1 4 10]
                                                               [--base REV] [--corefud]

Rows, each the median of --repeat runs taken in turn (ours, then each peer, then ours again...),
so a busy machine slows all of them alike:
- `corefwb score --format json` (all metrics) cold: `--no-cache`, every input read afresh;
- the same with the key cached (its entry written by an untimed run; the response read afresh);
- the same with both cached;
- coval's `scorer.py` (its four metrics and mentions), from a checkout given with --coval
  (github.com/ns-moosavi/coval; not on PyPI), run by this environment's Python;
- scorch's CLI (MUC, B3, CEAFm, CEAFe, BLANC) on its JSON input (written by synthetic.py);
- with `--base REV`, the same corefwb rows of that revision (checked out in a temporary git
  worktree, with a cache of its own), in the same turns: before and after a change, in one run.
  Both revisions then start as `python -c` on their tree, each through its console script's
  function (`workbench.cli.entry`, which ends a command as the installed `corefwb` does);
- with `--corefud`, `corefwb score` under the CorefUD conventions too (gum-open's CoNLL-U key and a
  response made from it by make_corefud_response.py), cold and with the key cached.
Inputs: gum-open's GUM layer (1x) and synthetic pairs 4x and 10x its size (synthetic.py, seed 13).
Ratios are peer median over ours.  Peak memory is the process's maximum resident size, CPU time
its user and system time with the processes it forked (wait4): on a machine shared with other
work, CPU time moves less than wall time.
Every program runs as an installed one does: its modules compiled to bytecode once, before the
timing (`compileall`), and PYTHONDONTWRITEBYTECODE removed from the environment (some machines
set it, which makes every run compile every module again: a cost no user pays).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BIN = Path(sys.executable).parent


def run(argv: list[str], env: dict | None = None) -> tuple[float, int, float]:
    """Wall seconds, peak resident MB and CPU seconds (user and system, the processes it forked and
    waited for included) of one command (which must succeed)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    err = proc.stderr.read().decode("utf-8", "replace")
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{argv[:3]} failed: {err[-300:]}")
    return seconds, usage.ru_maxrss // 1024, usage.ru_utime + usage.ru_stime


def inputs(data: Path, size: int, folder: Path) -> tuple[Path, Path, tuple[str, str] | None]:
    """(key, response, scorch JSON dirs) of a size: 1 is gum-open's GUM layer, others synthetic."""
    out = folder / f"x{size}"
    out.mkdir(exist_ok=True)
    if size == 1:
        key, response = out / "key.conll", out / "response.conll"
        key.write_bytes(gzip.decompress((data / "key.gum.conll.gz").read_bytes()))
        response.write_bytes(gzip.decompress((data / "response.xrenner-gum.conll.gz").read_bytes()))
        return key, response, None
    subprocess.run([sys.executable, str(HERE / "synthetic.py"), str(out), "--docs", str(108 * size),
                    "--tokens", str(98363 * size)], check=True, capture_output=True)
    return out / "key.conll", out / "response.conll", (str(out / "scorch" / "key"), str(out / "scorch" / "response"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coval", type=Path, help="a checkout of github.com/ns-moosavi/coval")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "gum-open")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 4, 10])
    parser.add_argument("--base", help="a git revision to time beside the working tree, in the same turns")
    parser.add_argument("--corefud", action="store_true", help="also time score under the CorefUD conventions")
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        base = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
        trees = {"corefwb": ROOT}
        if args.base:
            trees[f"base {args.base}"] = folder / "base"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(folder / "base"),
                            args.base], check=True)
        try:
            compiled = [str(t / p) for t in trees.values() for p in ("metrics", "workbench")]
            subprocess.run([sys.executable, "-m", "compileall", "-q", *compiled,
                            *([str(args.coval)] if args.coval else [])], check=True, env=base)
            _measure(args, folder, base, trees, results)
        finally:
            if args.base:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder / "base")], check=False)
    (HERE / "out").mkdir(exist_ok=True)
    (HERE / "out" / "end_to_end.json").write_text(json.dumps(results, indent=1))
    return 0


RUN = "import sys; sys.path.insert(0, sys.argv.pop(1)); from workbench.cli import entry; entry()"
"""Each tree's console script (`entry`, as `corefwb` is installed) run on its own source."""


def _launcher(name: str, tree: Path, several: bool) -> list[str]:
    """How a tree's corefwb starts: the installed script alone, `python -c` on each tree when compared."""
    return [sys.executable, "-c", RUN, str(tree)] if several else [str(BIN / "corefwb")]


def _measure(args: argparse.Namespace, folder: Path, base: dict, trees: dict[str, Path], results: dict) -> None:
    env_cold = {**base, "COREFWB_NO_CACHE": "1"}
    sizes: list[int | str] = [*args.sizes, *(["corefud"] if args.corefud else [])]
    for size in sizes:
        if size == "corefud":
            key, response, scorch = corefud_inputs(args.data, folder)
        else:
            key, response, scorch = inputs(args.data, size, folder)
        commands: dict[str, tuple[list[str], dict]] = {}
        copy = folder / f"response-copy{size}{response.suffix}"
        warm_runs = []
        for name, tree in trees.items():
            env_warm = {**base, "COREFWB_CACHE_DIR": str(folder / f"cache-{len(warm_runs)}")}
            ours = [*_launcher(name, tree, len(trees) > 1), "score", "--format", "json", str(key), str(response)]
            commands[f"{name} cold"] = (ours, env_cold)
            commands[f"{name} both cached"] = (ours, env_warm)
            # the key cached, the response not: the response read through a fresh copy each time
            commands[f"{name} key cached"] = (ours[:-1] + [str(copy)], {**env_warm})
            warm_runs.append((ours, env_warm))
        if args.coval and size != "corefud":
            commands["coval"] = ([sys.executable, str(args.coval / "scorer.py"), str(key), str(response)],
                                 {**base, "PYTHONPATH": str(args.coval)})
        if scorch and (BIN / "scorch").exists():
            commands["scorch"] = ([str(BIN / "scorch"), scorch[0], scorch[1], "-"], base)
        for ours, env_warm in warm_runs:
            run(ours, env_warm)  # fills the cache: key and response
        times: dict[str, list[tuple[float, int, float]]] = {name: [] for name in commands}
        for turn in range(args.repeat):
            for name, (argv, env) in commands.items():
                if name.endswith("key cached"):  # other bytes each time: not in the cache
                    tail = b"\n" * (turn + 1) if size == "corefud" else f"\n# {time.time_ns()}\n".encode()
                    copy.write_bytes(response.read_bytes() + tail)
                times[name].append(run(argv, env))
        row = {name: {"median_s": statistics.median(t for t, _, _ in runs), "peak_mb": max(m for _, m, _ in runs),
                      "median_cpu_s": statistics.median(c for _, _, c in runs)}
               for name, runs in times.items()}
        results[size] = row
        print(f"\nsize {size}x: {key}")
        print(f"  {'command':<22} {'median s':>9} {'peak MB':>8} {'CPU s':>7}")
        for name, entry in row.items():
            print(f"  {name:<22} {entry['median_s']:9.2f} {entry['peak_mb']:8d} {entry['median_cpu_s']:7.2f}")
        for peer in ("coval", "scorch"):
            if peer in row:
                for measure, unit in (("median_s", "wall"), ("median_cpu_s", "CPU")):
                    print(f"  {unit:<4} " + "  ".join(
                        f"{peer}/{ours_row.split()[1]}{' ' + ours_row.split()[2] if len(ours_row.split()) > 2 else ''}"
                        f" = {row[peer][measure] / row[ours_row][measure]:.1f}x"
                        for ours_row in row if ours_row.startswith("corefwb")))
        for name in list(trees)[1:]:
            for measure, unit in (("median_s", "wall"), ("median_cpu_s", "CPU")):
                print(f"  {unit:<4} " + "  ".join(f"{kind}: {name}/corefwb = "
                                                  f"{row[f'{name} {kind}'][measure] / row[f'corefwb {kind}'][measure]:.2f}x"
                                                  for kind in ("cold", "both cached", "key cached")))


def corefud_inputs(data: Path, folder: Path) -> tuple[Path, Path, None]:
    """gum-open's CoNLL-U key, gunzipped, and a system-like response made from it (seed 1)."""
    out = folder / "corefud"
    out.mkdir(exist_ok=True)
    key, response = out / "key.conllu", out / "response.conllu"
    key.write_bytes(gzip.decompress((data / "key.gum.conllu.gz").read_bytes()))
    subprocess.run([sys.executable, str(HERE / "make_corefud_response.py"), str(key), str(response)], check=True)
    return key, response, None


if __name__ == "__main__":
    sys.exit(main())

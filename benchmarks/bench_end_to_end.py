"""End to end, as a user measures: wall time and peak memory of whole commands, in one alternating run.

    benchmarks/.venv/bin/python benchmarks/bench_end_to_end.py --coval /tmp/coval [--repeat 5] [--sizes 1 4 10]

Rows, each the median of --repeat runs taken in turn (ours, then each peer, then ours again...),
so a busy machine slows all of them alike:
- `corefwb score --format json` (all metrics) cold: `--no-cache`, every input read afresh;
- the same with the key cached (its entry written by an untimed run; the response read afresh);
- the same with both cached;
- coval's `scorer.py` (its four metrics and mentions), from a checkout given with --coval
  (github.com/ns-moosavi/coval; not on PyPI), run by this environment's Python;
- scorch's CLI (MUC, B3, CEAFm, CEAFe, BLANC) on its JSON input (written by synthetic.py).
Inputs: gum-open's GUM layer (1x) and synthetic pairs 4x and 10x its size (synthetic.py, seed 13).
Ratios are peer median over ours.  Peak memory is the process's maximum resident size (wait4).
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


def run(argv: list[str], env: dict | None = None) -> tuple[float, int]:
    """Wall seconds and peak resident MB of one command (which must succeed)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    err = proc.stderr.read().decode("utf-8", "replace")
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{argv[:3]} failed: {err[-300:]}")
    return seconds, usage.ru_maxrss // 1024


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
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        cache = folder / "cache"
        base = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
        compiled = [str(ROOT / "metrics"), str(ROOT / "workbench")] + ([str(args.coval)] if args.coval else [])
        subprocess.run([sys.executable, "-m", "compileall", "-q", *compiled], check=True, env=base)
        env_cold = {**base, "COREFWB_NO_CACHE": "1"}
        env_warm = {**base, "COREFWB_CACHE_DIR": str(cache)}
        for size in args.sizes:
            key, response, scorch = inputs(args.data, size, folder)
            ours = [str(BIN / "corefwb"), "score", "--format", "json", str(key), str(response)]
            commands = {"corefwb cold": (ours, env_cold), "corefwb both cached": (ours, env_warm)}
            # the key cached, the response not: the response read through a fresh copy each time
            copy = folder / f"response-copy{size}.conll"
            commands["corefwb key cached"] = (ours[:-1] + [str(copy)], {**env_warm})
            if args.coval:
                commands["coval"] = ([sys.executable, str(args.coval / "scorer.py"), str(key), str(response)],
                                     {**base, "PYTHONPATH": str(args.coval)})
            if scorch:
                commands["scorch"] = ([str(BIN / "scorch"), scorch[0], scorch[1], "-"], base)
            run(ours, env_warm)  # fills the cache: key and response
            times: dict[str, list[tuple[float, int]]] = {name: [] for name in commands}
            for _ in range(args.repeat):
                for name, (argv, env) in commands.items():
                    if name == "corefwb key cached":
                        copy.write_bytes(response.read_bytes() + f"\n# {time.time_ns()}\n".encode())
                    times[name].append(run(argv, env))
            row = {name: {"median_s": statistics.median(t for t, _ in runs), "peak_mb": max(m for _, m in runs)}
                   for name, runs in times.items()}
            results[size] = row
            print(f"\nsize {size}x: {key}")
            print(f"  {'command':<22} {'median s':>9} {'peak MB':>8}")
            for name, entry in row.items():
                print(f"  {name:<22} {entry['median_s']:9.2f} {entry['peak_mb']:8d}")
            for peer in ("coval", "scorch"):
                if peer in row:
                    print("  " + "  ".join(f"{peer}/{ours_row.split()[1]}{' ' + ours_row.split()[2] if len(ours_row.split()) > 2 else ''}"
                                           f" = {row[peer]['median_s'] / row[ours_row]['median_s']:.1f}x"
                                           for ours_row in row if ours_row.startswith("corefwb")))
    (HERE / "out").mkdir(exist_ok=True)
    (HERE / "out" / "end_to_end.json").write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

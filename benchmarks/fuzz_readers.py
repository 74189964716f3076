"""Long-running reader fuzzer: tests/test_fuzz_readers.py's mutations, for as long as you like.

    .venv/bin/python benchmarks/fuzz_readers.py --minutes 10           # in-process, every reader
    .venv/bin/python benchmarks/fuzz_readers.py --minutes 10 --cli 5   # + every 5th case via the CLI
                                                                        #   (CoNLL also with --jobs 2,
                                                                        #   and `corefwb errors`)
    .venv/bin/python benchmarks/fuzz_readers.py --huge                 # 100 MB lines: time, peak memory

Not run in CI.  Each failing case (an exception other than InputError, a badly located message,
a hang, a traceback from the CLI) is printed with its base file, seed and mutations, and the
mutated file is kept in --keep (default /tmp/corefwb-fuzz) so it can be replayed with
`corefwb score KEY FILE`.  Seeds start at --first-seed, so separate runs can cover separate ranges.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from strategies import HUGE_SHAPES, mutate, write_huge_line  # noqa: E402
from test_fuzz_readers import READERS, check_cli, read_checked, score_checked, to_conllu, to_jsonlines  # noqa: E402

from metrics.formats.conll import read_conll  # noqa: E402
from metrics.formats.readers import read_documents  # noqa: E402


def make_bases(folder: Path) -> dict[str, Path]:
    bases = {p.name: p for p in sorted((ROOT / "samples" / "gum").glob("*.conll"))}
    key = read_conll(str(ROOT / "samples" / "gum" / "key.gum.conll"))
    (folder / "key.gum.conllu").write_text(to_conllu(key), encoding="utf-8")
    (folder / "key.gum.jsonl").write_text(to_jsonlines(key), encoding="utf-8")
    bases["key.gum.conllu"] = folder / "key.gum.conllu"
    bases["key.gum.jsonl"] = folder / "key.gum.jsonl"
    return bases


def run_cli_measured(key: Path, response: Path, timeout: float, *extra: str,
                     command: str = "score") -> tuple[subprocess.CompletedProcess, float, int]:
    """Run `corefwb COMMAND KEY RESPONSE --format json`; (result, seconds, peak RSS in MB).

    Peak memory comes from wait4's rusage of that very child, so nothing else is counted.
    """
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    argv = [sys.executable, "-m", "workbench.cli", command, str(key), str(response), "--format", "json", *extra]
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
    out: dict[str, bytes] = {}

    def drain(name: str, stream) -> None:
        out[name] = stream.read()

    readers = [threading.Thread(target=drain, args=(n, s)) for n, s in (("out", proc.stdout), ("err", proc.stderr))]
    for t in readers:
        t.start()
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    _, status, usage = os.wait4(proc.pid, 0)
    timer.cancel()
    for t in readers:
        t.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    result = subprocess.CompletedProcess(argv, proc.returncode, out.get("out", b""), out.get("err", b""))
    return result, seconds, usage.ru_maxrss // 1024


def fuzz(bases: dict[str, Path], work: Path, keep: Path, minutes: float, first_seed: int, cli_every: int) -> int:
    """Mutate, read with every reader, score, (sometimes) run the CLI, until the time is up."""
    deadline = time.monotonic() + 60 * minutes
    names = sorted(bases)
    intact = {name: read_documents(str(path)) for name, path in bases.items()}
    failures = cases = 0
    seed = first_seed
    while time.monotonic() < deadline:
        name = names[seed % len(names)]
        source = bases[name]
        data, mutations = mutate(source.read_bytes(), seed)
        path = work / f"case{source.suffix}"
        path.write_bytes(data)
        what = f"{name} seed {seed} ({', '.join(mutations)})"
        try:
            for reader in READERS:
                docs = read_checked(reader, path, f"{what}, reader {reader}")
                if reader == "auto" and docs is not None:
                    score_checked(intact[name], docs, f"{what}, as response")
                    score_checked(docs, intact[name], f"{what}, as key")
            if cli_every and seed % cli_every == 0:
                proc, _, _ = run_cli_measured(bases["key.gum.conll"], path, 120)
                check_cli(proc, [bases["key.gum.conll"], path], f"{what}, CLI")
                if source.suffix == ".conll":  # the streaming path too
                    proc, _, _ = run_cli_measured(bases["key.gum.conll"], path, 120, "--jobs", "2")
                    check_cli(proc, [bases["key.gum.conll"], path], f"{what}, CLI --jobs 2")
                proc, _, _ = run_cli_measured(path, bases["key.gum.conll"], 120, command="errors")
                check_cli(proc, [bases["key.gum.conll"], path], f"{what}, CLI errors", "errors")
        except Exception as exc:  # noqa: BLE001 - every kind is a finding (assertions, timeouts, crashes)
            failures += 1
            kept = keep / f"{name}.seed{seed}{source.suffix}"
            shutil.copyfile(path, kept)
            print(f"FAIL {what}: {type(exc).__name__}: {str(exc)[:500]}\n     kept as {kept}", flush=True)
        cases += 1
        seed += 1
    print(f"{cases} cases (seeds {first_seed}..{seed - 1}), {failures} failures")
    return failures


def huge(work: Path, size_mb: int, timeout: float) -> int:
    """Every one-line shape of strategies.HUGE_SHAPES through the CLI: time, peak memory, outcome."""
    failures = 0
    print(f"{'format':<7} {'shape':<11} {'seconds':>8} {'peak MB':>8}  outcome")
    for fmt, shapes in HUGE_SHAPES.items():
        for shape in shapes:
            path = work / f"huge.{fmt}"
            write_huge_line(str(path), fmt, shape, size_mb * 2**20)
            try:
                proc, seconds, peak = run_cli_measured(path, path, timeout)
                err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
                outcome = f"exit {proc.returncode}: {err[-1][:90] if err else 'scored'}"
                check_cli(proc, [path], f"{size_mb} MB {fmt} {shape}")
            except AssertionError as exc:
                failures += 1
                outcome = f"FAIL {str(exc)[:200]}"
            print(f"{fmt:<7} {shape:<11} {seconds:8.1f} {peak:8d}  {outcome}", flush=True)
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=5.0, help="how long to fuzz (default 5)")
    parser.add_argument("--first-seed", type=int, default=100_000)
    parser.add_argument("--cli", type=int, default=0, metavar="K", help="also run every K-th case through the CLI")
    parser.add_argument("--huge", action="store_true", help="run the one-huge-line shapes instead")
    parser.add_argument("--size-mb", type=int, default=100, help="size of the huge lines (default 100)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds before a huge case counts as a hang")
    parser.add_argument("--keep", type=Path, default=Path("/tmp/corefwb-fuzz"), help="where failing files are kept")
    args = parser.parse_args()
    args.keep.mkdir(parents=True, exist_ok=True)
    work = args.keep / "work"
    work.mkdir(exist_ok=True)
    if args.huge:
        return 1 if huge(work, args.size_mb, args.timeout) else 0
    return 1 if fuzz(make_bases(work), work, args.keep, args.minutes, args.first_seed, args.cli) else 0


if __name__ == "__main__":
    sys.exit(main())

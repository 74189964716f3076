"""Our UA conventions beside the UA scorer 2.0 (corefud-scorer's `ua-scorer.py`), score by score.

    python benchmarks/check_ua.py --scorer PEER_CHECKOUT --python PEER_PYTHON
                                  [--codi CODI_CRAC22_CHECKOUT [--files all|FILE...]] [--suite]
                                  [--timing [--timed NAME...] [--repeats N]]

The peer's `ua-scorer.py` prints nothing (its `main` has `evaluate(args)` commented out) and its
presets crash (they replace the options instead of completing them), so it runs from a temporary
copy with `evaluate` restored; a preset is given to it as the options it stands for, completed with
its command line's defaults (`metrics.corpus.ua.PRESETS`).  Two comparisons:

- `--suite`: the peer's UA test suite (tests/tests-ua), each case with the settings of its
  tests/unittests-ua.py (singletons and split antecedents kept, the case's matching, zeros and
  boundary crossing), every metric of the suite;
- `--codi`: each CODI-CRAC 2022 train file (or `--files`: every file, or those named) against
  responses derived from it
  (benchmarks/make_ua_response.py), under each UA preset and under split antecedents kept with
  only split antecedents scored.

Each score is compared twice: to the last digit the UA scorer prints (`%.2f` of a percentage, from
its own command line), and at full precision (its evaluator called by benchmarks/ua_reference.py).
`--timing` times both on each CODI-CRAC train file (or `--files`) in the same run (CPU seconds, medians of
`--repeats`), under every UA preset and extra setting (or those `--timed` names): reading and
scoring in a running process (ours with the collector off, as `corefwb` runs, reading only the
columns the settings score, as `corefwb score` reads), and whole command lines (ours also with the
key in the cache of read files, the usual case) beside the interpreter's own start; and per
setting the floor of reading in process (the two files' bytes; their lines and cells located by
numpy; a string made per annotated cell of the columns read).
"""

from __future__ import annotations

import argparse
import ast
import gc
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from metrics.corpus.ua import PRESETS, Settings, layers_read, score_corpus  # noqa: E402
from metrics.formats.source import read_lines  # noqa: E402
from metrics.formats.ua import read_ua  # noqa: E402

SUITE_METRICS = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea")
UA_PRESETS = [name for name, preset in PRESETS.items() if isinstance(preset, Settings)]


def patched_copy(checkout: str) -> str:
    """A temporary copy of the peer checkout with `evaluate(args)` restored in ua-scorer.py."""
    target = tempfile.mkdtemp(prefix="ua-scorer-")
    shutil.copytree(checkout, target, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".git"))
    script = Path(target, "ua-scorer.py")
    text = script.read_text()
    if "    #evaluate(args)" not in text:
        raise SystemExit("ua-scorer.py: no commented-out evaluate(args) to restore (a different version?)")
    script.write_text(text.replace("    #evaluate(args)", "    evaluate(args)"))
    return target


def suite_cases(checkout: str) -> list[dict]:
    """Every read(...) of tests/unittests-ua.py as a job (the settings its `read` uses)."""
    tree = ast.parse(Path(checkout, "tests", "unittests-ua.py").read_text())
    jobs, seen = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "read":
            args = [ast.literal_eval(a) for a in node.args]
            kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords}
            key, response = args[0], args[1]
            test_type = args[2] if len(args) > 2 else kwargs.get("test_type", "original-conll")
            match = kwargs.get("matching", "exact")
            folder = Path(checkout, "tests", "tests-ua", test_type)
            job = {"key": str(folder / key), "response": str(folder / response), "unit_test": True,
                   "allow_boundary_crossing": kwargs.get("allow_boundary_crossing", False),
                   "settings": {"match": "partial" if match == "partial-corefud" else match,
                                "keep_singletons": True, "keep_split": True, "only_split": False,
                                "discourse_deixis": False, "keep_zeros": kwargs.get("keep_zeros", False),
                                "metrics": list(SUITE_METRICS)}}
            ident = json.dumps(job, sort_keys=True)
            if ident not in seen:
                seen.add(ident)
                jobs.append(job)
    return jobs


def reference(python: str, copy: str, jobs: list[dict], repeats: int = 0) -> list[dict]:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(jobs, handle)
    try:
        out = subprocess.run([python, str(ROOT / "benchmarks" / "ua_reference.py"), copy, handle.name, str(repeats)],
                             capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(handle.name)
    return [json.loads(line) for line in out.splitlines()]


def ours(job: dict) -> dict:
    s = job["settings"]
    settings = Settings(s["match"], s["keep_singletons"], s["keep_split"], s["only_split"], s["discourse_deixis"],
                        s["keep_zeros"], tuple(s["metrics"]))
    layers = layers_read(settings)  # what `corefwb score` reads
    result = score_corpus(read_ua(job["key"], layers=layers), read_ua(job["response"], layers=layers), job["key"],
                          job["response"], settings, check_words=not job.get("unit_test"))
    return {name: [v.recall, v.precision, v.f1] for name, v in result.micro.items()}


def compare(jobs: list[dict], theirs: list[dict], label: str) -> tuple[int, int, list[str]]:
    """(scores equal at full precision, scores compared, differences)."""
    same = total = 0
    notes = []
    for job, reference_scores in zip(jobs, theirs):
        name = f"{label} {Path(job['key']).name} {Path(job['response']).name} {job['settings']['match']}"
        if "error" in reference_scores:
            notes.append(f"{name}: the UA scorer fails: {reference_scores['error']}")
            continue
        try:
            mine = ours(job)
        except Exception as error:  # noqa: BLE001 - reported
            notes.append(f"{name}: ours fails: {type(error).__name__}: {error}")
            continue
        for metric, value in reference_scores.items():
            if isinstance(value, str):
                notes.append(f"{name} {metric}: the UA scorer fails: {value}")
                continue
            total += 1
            if metric not in mine:
                notes.append(f"{name} {metric}: missing in ours")
                continue
            if mine[metric] == value:
                same += 1
            else:
                notes.append(f"{name} {metric}: ours {mine[metric]} theirs {value}")
    return same, total, notes


EXTRA_SETTINGS = {
    "split-only": Settings(keep_singletons=True, keep_split=True, only_split=True,
                           metrics=("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "non_referring",
                                    "bridging_recognition", "bridging_markable", "bridging_entity")),
    "all-exact": Settings(keep_singletons=True, keep_split=True,
                          metrics=("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "non_referring",
                                   "bridging_recognition", "bridging_markable", "bridging_entity")),
    "all-partial": Settings(match="partial", keep_singletons=True, keep_split=True,
                            metrics=("muc", "bcub", "ceafe", "ceafm", "blanc", "lea")),
    "all-craft": Settings(match="partial-craft", keep_singletons=True,
                          metrics=("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor")),
    "no-singletons": Settings(metrics=("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor")),
}
"""Settings beyond the presets: only split antecedents (as the issue asks), and every metric
under each matching."""


def job_of(key: str, response: str, settings: Settings) -> dict:
    return {"key": key, "response": response,
            "settings": {"match": settings.match, "keep_singletons": settings.keep_singletons,
                         "keep_split": settings.keep_split, "only_split": settings.only_split,
                         "discourse_deixis": settings.discourse_deixis, "keep_zeros": settings.keep_zeros,
                         "metrics": [m for m in settings.metrics if m != "conll"]}}


def command_line(settings: Settings) -> list[str]:
    """The UA scorer's options for these settings (a preset given as what it stands for)."""
    names = {"mentions": "mention", "non_referring": "non-referring", "bridging_recognition": "bridging"}
    metrics = list(dict.fromkeys(names.get(m, m) for m in settings.metrics
                                 if m not in ("conll", "mor", "bridging_markable", "bridging_entity")))
    out = ["-a", {"partial": "partial-corefud"}.get(settings.match, settings.match), "-m", *metrics]
    for flag, on in (("-s", settings.keep_singletons), ("-l", settings.keep_split), ("-z", settings.keep_zeros),
                     ("-d", settings.discourse_deixis), ("--only-split-antecedent", settings.only_split)):
        if on:
            out.append(flag)
    return out


PRINTED = {"Non-referring markable identification scores:": "non_referring",
           "Bridging anaphora recognition scores:": "bridging_recognition",
           "Full bridging scores (Markable Level):": "bridging_markable",
           "Full bridging scores (Entity Level):": "bridging_entity"}


def printed_scores(output: str) -> dict[str, list[str]]:
    """The scores the UA scorer's command line prints, as their printed strings."""
    out: dict[str, list[str]] = {}
    name = None
    for line in output.splitlines():
        line = line.strip()
        if line.startswith("Recall:") and name:
            parts = line.split()
            out[name] = [parts[1], parts[3], parts[5]]
            name = None
        elif line.startswith("CoNLL score:"):
            out["conll"] = [line.split()[-1]]
        elif line in PRINTED:
            name = PRINTED[line]
        elif line in ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "mention"):
            name = "mentions" if line == "mention" else line
    return out


def printed_comparison(python: str, copy: str, key: str, response: str, settings: Settings) -> tuple[int, int, list[str], float]:
    """(printed scores equal, printed scores, differences, the UA scorer's seconds)."""
    started = time.perf_counter()
    run = subprocess.run([python, "ua-scorer.py", key, response, *command_line(settings)], cwd=copy,
                         capture_output=True, text=True)
    seconds = time.perf_counter() - started
    theirs = printed_scores(run.stdout)
    if run.returncode:
        return 0, 0, [f"the UA scorer fails: {run.stderr.strip().splitlines()[-1]}"], seconds
    layers = layers_read(settings)
    result = score_corpus(read_ua(key, layers=layers), read_ua(response, layers=layers), key, response, settings)
    same = total = 0
    notes = []
    for name, values in theirs.items():
        score = result.micro[name]
        mine = ["%.2f" % (score.f1 * 100)] if name == "conll" else \
            ["%.2f" % (v * 100) for v in (score.recall, score.precision, score.f1)]
        total += len(values)
        same += sum(a == b for a, b in zip(mine, values))
        if mine != values:
            notes.append(f"{name}: ours {mine} printed {values}")
    return same, total, notes, seconds


def codi_files(codi: str, chosen: list[str] | None = None) -> list[str]:
    """The CODI-CRAC files to use: the checkout's train files (the default), every *.2022.CONLLUA
    of it (`all`: train, dev and test, which the issue is measured on), or the files named (a
    path, or a name in the checkout: `AMI_test` or `AMI_test.2022.CONLLUA`)."""
    if not chosen:
        return sorted(str(p) for p in Path(codi).glob("*_train.2022.CONLLUA"))
    if chosen == ["all"]:
        return sorted(str(p) for p in Path(codi).glob("*.2022.CONLLUA"))
    found = []
    for name in chosen:
        candidates = [Path(name), Path(codi, name), Path(codi, f"{name}.2022.CONLLUA")]
        path = next((c for c in candidates if c.is_file()), None)
        if path is None:
            raise SystemExit(f"--files: no file {name} (nor in {codi})")
        found.append(str(path))
    return found


def check_codi(args: argparse.Namespace, copy: str, workdir: str) -> bool:
    """Every CODI-CRAC file chosen against derived responses, under every setting; True if any differs."""
    failed = False
    all_settings = {name: PRESETS[name] for name in UA_PRESETS} | EXTRA_SETTINGS
    for key in codi_files(args.codi, args.files):
        for seed in args.seeds:
            response = str(Path(workdir, f"{Path(key).stem}.{seed}.response"))
            subprocess.run([sys.executable, str(ROOT / "benchmarks" / "make_ua_response.py"), key, response,
                            "--seed", str(seed)], check=True)
            jobs = [job_of(key, response, settings) for settings in all_settings.values()]
            theirs = reference(args.python, copy, jobs)
            for (name, settings), job, reference_scores in zip(all_settings.items(), jobs, theirs):
                same, total, notes = compare([job], [reference_scores], name)
                printed_same, printed_total, printed_notes, _ = printed_comparison(args.python, copy, key, response, settings)
                print(f"{Path(key).name} seed {seed} {name}: {same}/{total} equal at full precision, "
                      f"{printed_same}/{printed_total} printed digits equal")
                for note in notes + printed_notes:
                    print("  " + note)
                failed |= same != total or printed_same != printed_total
    return failed


NOT_UA_PRESETS = [name for name in PRESETS if name not in UA_PRESETS]
"""The presets of other formats (the UA scorer's conll12 reads CoNLL-2012 files, crac22-24 CorefUD
files): no UA file is scored under them, so they are not timed here."""
FLOORS = {"python": "pass", "python+numpy": "import numpy",
          "python+numpy+scipy.optimize": "import numpy, scipy.optimize"}
"""What starting the interpreter costs before either scorer reads a line (both need numpy and
scipy's linear_sum_assignment): a whole command line cannot take less."""


def child_seconds(line: list[str], cwd: str | None = None, env: dict[str, str] | None = None) -> float:
    """CPU seconds (user and system) of one command line run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(line, cwd=cwd, capture_output=True, check=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def key_cached_seconds(key: str, response: str, settings: Settings, workdir: str, repeats: int) -> float:
    """`corefwb score` with the cache of read files, as people run it: the key's entry made by a
    first run, each timed run on a response not seen before (a fresh copy: its path is part of
    its entry's name).  The median of `repeats` CPU times."""
    cache = tempfile.mkdtemp(prefix="ua-cache-", dir=workdir)
    env = {**os.environ, "COREFWB_CACHE_DIR": cache}
    env.pop("COREFWB_NO_CACHE", None)
    times = []
    for run in range(repeats + 1):
        copy = str(Path(cache, f"response-{run}.CONLLUA"))
        shutil.copyfile(response, copy)
        line = [part for part in our_command(key, copy, settings) if part != "--no-cache"]
        seconds = child_seconds(line, env=env)
        if run:
            times.append(seconds)
    shutil.rmtree(cache, ignore_errors=True)
    return statistics.median(times)


def our_command(key: str, response: str, settings: Settings) -> list[str]:
    """`corefwb score` with these settings."""
    line = [str(Path(sys.executable).parent / "corefwb"), "score", key, response, "--no-cache", "--metrics",
            ",".join(m for m in settings.metrics if m != "conll"), "--match", settings.match]
    line += ["--singletons", "keep"] if settings.keep_singletons else []
    line += ["--split-antecedents", "keep"] if settings.keep_split else []
    line += ["--only-split-antecedents"] if settings.only_split else []
    line += ["--discourse-deixis"] if settings.discourse_deixis else []
    line += ["--zero-match", "linear"] if settings.keep_zeros else []
    return line


def _floors(key: str, response: str, settings: Settings) -> tuple[float, float, float]:
    """CPU seconds of the least a Python program does to read what these settings score, on both
    files: (their bytes read; and their lines and cells located by numpy; and a string made of
    each annotated cell of the columns the settings read).  Nothing parsed: a floor."""
    from metrics.formats.source import read_utf8
    from metrics.formats.ua_lines import index_lines, texts_of

    columns = [{"identity": 10, "bridging": 11, "deixis": 12}[layer] for layer in layers_read(settings)]
    times = []
    for depth in range(3):
        started = time.process_time()
        for path in (key, response):
            data = read_utf8(path)
            if depth == 0:
                continue
            index = index_lines(data)
            if depth == 1:
                continue
            lines = np.flatnonzero(np.diff(index.first_cell) > max(columns))
            for column in columns:
                annotated = lines[~index.blank(lines, column)]
                texts_of(data, *index.cell_of(annotated, column))
        times.append(time.process_time() - started)
    return times[0], times[1], times[2]


def _split_lines(key: str, response: str) -> float:
    """CPU seconds to read both files' lines and split each word line into its columns (nothing parsed)."""
    started = time.process_time()
    for path in (key, response):
        for line in read_lines(path):
            if line[:1] != "#":
                line.split(None, 13)
    return time.process_time() - started


def timed_settings(names: list[str] | None) -> dict[str, Settings]:
    """The settings `--timing` runs: every UA preset and every extra setting (or those named)."""
    every = {name: PRESETS[name] for name in UA_PRESETS} | EXTRA_SETTINGS
    unknown = [name for name in names or () if name not in every]
    if unknown:
        raise SystemExit(f"--timed: unknown {', '.join(unknown)}; choose from {', '.join(every)}")
    return {name: every[name] for name in names} if names else every


def our_seconds(job: dict, repeats: int) -> float:
    """Our reading and scoring in this process, the collector off as `corefwb` runs it (its
    subcommands keep the cyclic collector off to the end): the median of `repeats` CPU times."""
    ours(job)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        times = []
        for _ in range(repeats):
            started = time.process_time()
            ours(job)
            times.append(time.process_time() - started)
    finally:
        if was_enabled:
            gc.enable()
    return statistics.median(times)


def _reading(key: str, response: str) -> float:
    """CPU seconds of our reader on both files, the collector off (as `corefwb` runs)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        started = time.process_time()
        read_ua(key), read_ua(response)
        return time.process_time() - started
    finally:
        if was_enabled:
            gc.enable()


def check_timing(args: argparse.Namespace, copy: str, workdir: str) -> None:
    """Both scorers on each CODI-CRAC file chosen, in one run, in CPU seconds (the machine may be
    shared: wall time would count the others' work), medians of `args.repeats`, under every UA
    preset and every extra setting (`args.timed`): reading and scoring in a running process
    (imports done; ours with the collector off, as `corefwb` runs), and whole command lines (the
    interpreter's start and imports included); then the interpreter's own start, the floor of any
    command line."""
    repeats = args.repeats
    print(f"not timed: {', '.join(NOT_UA_PRESETS)} (presets of CoNLL-2012 and CorefUD files, no UA file's)")
    floors = {name: statistics.median(child_seconds([sys.executable, "-c", code]) for _ in range(repeats))
              for name, code in FLOORS.items()}
    for key in codi_files(args.codi, args.files):
        response = str(Path(workdir, f"{Path(key).stem}.timed.response"))
        subprocess.run([sys.executable, str(ROOT / "benchmarks" / "make_ua_response.py"), key, response], check=True)
        for name, settings in timed_settings(args.timed).items():
            job = job_of(key, response, settings)
            theirs = statistics.median(reference(args.python, copy, [job], repeats)[0]["seconds"])
            mine = our_seconds(job, repeats)
            ua_line = [args.python, "ua-scorer.py", key, response, *command_line(settings)]
            their_whole = statistics.median(child_seconds(ua_line, copy) for _ in range(repeats))
            our_whole = statistics.median(child_seconds(our_command(key, response, settings)) for _ in range(repeats))
            our_cached = key_cached_seconds(key, response, settings, workdir, repeats)
            least = [statistics.median(values) for values in zip(*(_floors(key, response, settings)
                                                                    for _ in range(repeats)))]
            print(f"timing {Path(key).name} {name}: in process {theirs:.3f} s (UA scorer) vs {mine:.3f} s (ours), "
                  f"{theirs / mine:.1f}x; whole command {their_whole:.2f} s vs {our_whole:.2f} s, "
                  f"{their_whole / our_whole:.1f}x, the key cached {our_cached:.2f} s, {their_whole / our_cached:.1f}x "
                  f"(CPU seconds, medians of {repeats}); floor in process: bytes "
                  f"{least[0]:.4f} s, lines and cells located {least[1]:.4f} s, a string per annotated cell "
                  f"read {least[2]:.4f} s")
        lines = statistics.median(_split_lines(key, response) for _ in range(repeats))
        reading = statistics.median(_reading(key, response) for _ in range(repeats))
        print(f"timing {Path(key).name}: reading both files' lines and splitting each into columns, the least "
              f"a line-by-line reader does, takes {lines:.3f} s; our reader (read_ua, both files, the "
              f"collector off) {reading:.3f} s")
    print("floor of a command line (CPU seconds, medians of {}): {}".format(
        repeats, ", ".join(f"{name} {seconds:.3f} s" for name, seconds in floors.items())))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scorer", required=True, help="a corefud-scorer checkout (4fd7b0e)")
    parser.add_argument("--python", required=True, help="a Python with the peer's dependencies (numpy, scipy)")
    parser.add_argument("--codi", help="a CODI-CRAC22-Corpus checkout (its *_train.2022.CONLLUA are used)")
    parser.add_argument("--files", nargs="+", help="with --codi: `all` (every *.2022.CONLLUA: train, dev and "
                        "test) or these files (paths or names in the checkout) instead of the train files")
    parser.add_argument("--suite", action="store_true", help="the peer's UA test suite")
    parser.add_argument("--timing", action="store_true", help="time both on the CODI-CRAC files")
    parser.add_argument("--timed", nargs="+", help="with --timing: only these settings (default every UA "
                        "preset and extra setting)")
    parser.add_argument("--repeats", type=int, default=7, help="with --timing: runs per median (default 7)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2], help="responses derived per train file")
    args = parser.parse_args()
    copy = patched_copy(args.scorer)
    failed = False
    try:
        if args.suite:
            jobs = suite_cases(args.scorer)
            same, total, notes = compare(jobs, reference(args.python, copy, jobs), "suite")
            print(f"suite: {len(jobs)} cases, {same}/{total} scores equal at full precision")
            for note in notes:
                print("  " + note)
            failed |= same != total
        if args.codi and args.timing:
            workdir = tempfile.mkdtemp(prefix="ua-timing-")
            try:
                check_timing(args, copy, workdir)
            finally:
                shutil.rmtree(workdir, ignore_errors=True)
        if args.codi and not args.timing:
            workdir = tempfile.mkdtemp(prefix="ua-responses-")
            try:
                failed |= check_codi(args, copy, workdir)
            finally:
                shutil.rmtree(workdir, ignore_errors=True)
    finally:
        shutil.rmtree(copy, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

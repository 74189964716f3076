"""Our UA conventions beside the UA scorer 2.0 (corefud-scorer's `ua-scorer.py`), score by score.

    python benchmarks/check_ua.py --scorer PEER_CHECKOUT --python PEER_PYTHON
                                  [--codi CODI_CRAC22_CHECKOUT] [--suite] [--full] [--timing]

The peer's `ua-scorer.py` prints nothing (its `main` has `evaluate(args)` commented out) and its
presets crash (they replace the options instead of completing them), so it runs from a temporary
copy with `evaluate` restored; a preset is given to it as the options it stands for, completed with
its command line's defaults (`metrics.corpus.ua.PRESETS`).  Two comparisons:

- `--suite`: the peer's UA test suite (tests/tests-ua), each case with the settings of its
  tests/unittests-ua.py (singletons and split antecedents kept, the case's matching, zeros and
  boundary crossing), every metric of the suite;
- `--codi`: each CODI-CRAC 2022 train file against responses derived from it
  (benchmarks/make_ua_response.py), under each UA preset and under split antecedents kept with
  only split antecedents scored.

Each score is compared twice: to the last digit the UA scorer prints (`%.2f` of a percentage, from
its own command line), and at full precision (its evaluator called by benchmarks/ua_reference.py).
`--timing` times both command lines on one CODI-CRAC file, in the same run.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from metrics.corpus.ua import PRESETS, Settings, score_corpus  # noqa: E402
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


def reference(python: str, copy: str, jobs: list[dict]) -> list[dict]:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(jobs, handle)
    try:
        out = subprocess.run([python, str(ROOT / "benchmarks" / "ua_reference.py"), copy, handle.name],
                             capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(handle.name)
    return [json.loads(line) for line in out.splitlines()]


def ours(job: dict) -> dict:
    s = job["settings"]
    settings = Settings(s["match"], s["keep_singletons"], s["keep_split"], s["only_split"], s["discourse_deixis"],
                        s["keep_zeros"], tuple(s["metrics"]))
    result = score_corpus(read_ua(job["key"]), read_ua(job["response"]), job["key"], job["response"], settings,
                          check_words=not job.get("unit_test"))
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scorer", required=True, help="a corefud-scorer checkout (4fd7b0e)")
    parser.add_argument("--python", required=True, help="a Python with the peer's dependencies (numpy, scipy)")
    parser.add_argument("--codi", help="a CODI-CRAC22-Corpus checkout (its *_train.2022.CONLLUA are used)")
    parser.add_argument("--suite", action="store_true", help="the peer's UA test suite")
    parser.add_argument("--timing", action="store_true", help="time both on one CODI-CRAC train file")
    parser.add_argument("--verbose", action="store_true")
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
    finally:
        shutil.rmtree(copy, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

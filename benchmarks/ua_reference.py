"""Run by the peer's Python inside a patched copy of corefud-scorer: the UA scorer's numbers at
full precision, as JSON, for `check_ua.py` to compare with ours to the last bit.

    python ua_reference.py SCORER_COPY JOBS.json   ->  one JSON line per job on stdout

A job is {"key", "response", "settings": {match, keep_singletons, keep_split, only_split,
discourse_deixis, keep_zeros, metrics}, "unit_test": bool}.  It calls the UA scorer's own reader
and evaluator as its `evaluate` does (the metric list, BLANC's two parts, the only-split switch),
and reports an exception's type and message instead of numbers when it fails.
"""

import json
import logging
import sys

logging.disable(logging.CRITICAL)


def run(job: dict) -> dict:
    from scorer.ua.reader import UAReader
    from scorer.eval import evaluator

    s = job["settings"]
    functions = {"muc": evaluator.muc, "bcub": evaluator.b_cubed, "ceafe": evaluator.ceafe,
                 "ceafm": evaluator.ceafm, "blanc": [evaluator.blancc, evaluator.blancn], "lea": evaluator.lea,
                 "mentions": evaluator.mentions, "mor": evaluator.mention_overlap}
    bridging = any(m.startswith("bridging") for m in s["metrics"])
    reader = UAReader(format="ua", match={"partial": "partial-corefud"}.get(s["match"], s["match"]),
                      keep_singletons=s["keep_singletons"], keep_split_antecedents=s["keep_split"],
                      keep_zeros=s["keep_zeros"], evaluate_discourse_deixis=s["discourse_deixis"],
                      keep_non_referring="non_referring" in s["metrics"], keep_bridging=bridging,
                      allow_boundary_crossing=job.get("allow_boundary_crossing", False))
    reader.get_coref_infos(job["key"], job["response"], unit_test=job.get("unit_test", False))
    infos = reader.doc_discourse_deixis_infos if s["discourse_deixis"] else reader.doc_coref_infos
    out = {}
    for name in s["metrics"]:
        try:
            if name == "non_referring":
                out[name] = list(evaluator.evaluate_non_referrings(reader.doc_non_referring_infos))
            elif name.startswith("bridging"):
                scores = evaluator.evaluate_bridgings(reader.doc_bridging_infos)
                for key, value in zip(("bridging_recognition", "bridging_markable", "bridging_entity"), scores):
                    out[key] = list(value)
            elif name in functions:
                out[name] = [float(v) for v in evaluator.evaluate_documents(
                    infos, functions[name], beta=1, only_split_antecedent=s["only_split"])]
        except Exception as error:  # the UA scorer's own failure, reported
            out[name] = f"{type(error).__name__}: {error}"
    return out


def main() -> None:
    sys.path.insert(0, sys.argv[1])
    import time

    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    for job in json.load(open(sys.argv[2])):
        if repeats:  # timing: `repeats` runs of reading and scoring, imports done (after one run)
            run(job)
            print(json.dumps({"seconds": [_timed(run, job, time) for _ in range(repeats)]}), flush=True)
            continue
        try:
            result = run(job)
        except BaseException as error:  # its reader's errors derive from BaseException
            result = {"error": f"{type(error).__name__}: {error}"}
        print(json.dumps(result), flush=True)


def _timed(function, job, time) -> float:
    """CPU seconds (the machine may be shared: wall time would count the others' work)."""
    started = time.process_time()
    function(job)
    return time.process_time() - started


if __name__ == "__main__":
    main()

"""Run corefud-scorer's own reader and evaluator in-process and print its numbers as JSON.

Runs in the benchmark's environment (udapi installed), never the project's:

    PYTHON_WITH_UDAPI benchmarks/corefud_reference.py CHECKOUT < JOBS

CHECKOUT is a corefud-scorer checkout (github ufal/corefud-scorer, commit 4fd7b0e).  Each line of
JOBS is KEY, RESPONSE, MATCH (head|partial|exact), SINGLETONS (keep|remove) and ZERO_MATCH
(dependent|linear), TAB-separated; for each it prints one line of JSON,
{"muc": [recall, precision, f1], ...} with full floats, for benchmarks/check_corefud.py.
"""

import json
import logging
import sys

checkout = sys.argv[1]
sys.path.insert(0, checkout)
logging.disable(logging.WARNING)
from scorer.corefud.reader import CorefUDReader  # noqa: E402
from scorer.eval import evaluator  # noqa: E402

METRICS = {"muc": evaluator.muc, "bcub": evaluator.b_cubed, "ceafe": evaluator.ceafe, "ceafm": evaluator.ceafm,
           "lea": evaluator.lea, "blanc": [evaluator.blancc, evaluator.blancn], "mor": evaluator.mention_overlap,
           "zero": evaluator.als_zeros}


def run(key: str, response: str, match: str, keep: str, zero_match: str) -> dict:
    reader = CorefUDReader(format="corefud", keep_singletons=keep == "keep", keep_zeros=True,
                           match={"partial": "partial-corefud"}.get(match, match), zero_match_method=zero_match)
    try:
        reader.get_coref_infos(key, response)
        return {name: list(evaluator.evaluate_documents(reader.doc_coref_infos, metric))
                for name, metric in METRICS.items()}
    except BaseException as error:  # its own exceptions derive from BaseException
        return {"error": f"{type(error).__name__}: {error}"}


for line in sys.stdin:
    print(json.dumps(run(*line.rstrip("\n").split("\t"))), flush=True)

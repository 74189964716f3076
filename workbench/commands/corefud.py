"""`corefwb score --conventions corefud`: the scores corefud-scorer (the CRAC shared task's
official scorer) gives, with its matching, singleton and zero settings named in the header.

Which conventions apply: `--conventions conll` is v8.01's (the rest of `corefwb`); `corefud` is
corefud-scorer's; `auto` (the default) takes corefud when the key and the response are both
CoNLL-U, else conll.  Under corefud, `--match` defaults to head and `--singletons` to remove, as
corefud-scorer's `-a` and `-s` do; `--zero-match` is its `-z` (dependency, its default, or linear).
"""

from __future__ import annotations

import argparse
from dataclasses import replace

from metrics.measures.catalog import label
from metrics.corpus.corefud import CorefudResult, score_corpus
from metrics.formats.corefud import read_corefud
from metrics.runtime.parallel import fork_map
from metrics.measures.corefud import METRICS

from ..json_text import dumps
from ..output import align_rows, emit, percent, render_csv, render_markdown, score_json
from ..session import LoadOptions
from ..options import UsageError

CONLL_PARTS = ("muc", "bcub", "ceafe")
LABELS = {name: label(name) for name in ("muc", "bcub", "ceafe", "ceafm", "lea", "blanc", "conll")}
LABELS.update({"mor": "MOR (mention overlap)", "zero": "zero anaphora"})  # CorefUD's own, not in the catalogue


def run(args: argparse.Namespace, options: LoadOptions) -> int:
    for option, value in (("--stream", args.stream), ("--ci", args.ci), ("--group-by", args.group_by)):
        if value:
            why = ("; they were chosen because the key and the response are CoNLL-U" if args.conventions == "auto"
                   else "")
            raise UsageError(f"{option} is not available under the CorefUD conventions yet{why}: "
                             f"--conventions conll gives v8.01's scores, with {option}")
    settings = options.corefud
    wanted = METRICS if args.metrics == "all" else tuple(m.strip() for m in args.metrics.split(","))
    unknown = [m for m in wanted if m not in METRICS + ("conll",)]
    if unknown:
        raise UsageError(f"--metrics: {', '.join(unknown)} not among corefud's: {','.join(METRICS)},conll")
    # the CoNLL score is the mean of MUC, B3 and CEAFe: asked for alone, they are computed, not shown
    computed = tuple(dict.fromkeys(m for name in wanted for m in (CONLL_PARTS if name == "conll" else (name,))))
    # the response read in a forked process beside the key: reading is most of the time
    keys, responses = fork_map(read_corefud, [args.key, args.response])
    result = score_corpus(keys, responses, args.key, args.response, settings, computed)
    if computed != wanted:
        shown = set(wanted) | ({"conll"} if set(CONLL_PARTS) <= set(wanted) else set())
        result = replace(result, micro={m: s for m, s in result.micro.items() if m in shown},
                         documents=[(doc, {m: s for m, s in scores.items() if m in shown})
                                    for doc, scores in result.documents])
    if args.format == "json":
        text = dumps(result_json(result)) + "\n"
    elif args.format == "csv":  # fractions and metric names, as every CSV of corefwb
        text = render_csv(["document", "metric", "recall", "precision", "f1"],
                          [[doc, name, s.recall, s.precision, s.f1] for doc, scores in
                           [("corpus", result.micro)] + (result.documents if args.per_doc else [])
                           for name, s in scores.items()])
    else:
        headers, rows = rows_of(result, args.per_doc)
        if args.format == "markdown":
            text = f"{settings.describe()}\n\n" + render_markdown(headers, rows)
        else:
            text = f"{settings.describe()} (percentages)\n" + "\n".join(align_rows(headers, rows, right=headers[2:])) + "\n"
    emit(text, args.output, inputs=[args.key, args.response])
    return 0


def result_json(result: CorefudResult) -> dict:
    return {
        **result.settings.fields(),
        "metrics": {name: score_json(score) for name, score in result.micro.items()},
        "documents": [{"name": name, "metrics": {m: score_json(v) for m, v in scores.items()}}
                      for name, scores in result.documents],
    }


def rows_of(result: CorefudResult, per_doc: bool) -> tuple[list[str], list[list[str]]]:
    headers = ["document", "metric", "recall", "precision", "F1"]
    rows = [["corpus", LABELS[name], percent(s.recall), percent(s.precision), percent(s.f1)]
            for name, s in result.micro.items()]
    if per_doc:
        rows += [[doc, LABELS[name], percent(s.recall), percent(s.precision), percent(s.f1)]
                 for doc, scores in result.documents for name, s in scores.items()]
    return headers, rows


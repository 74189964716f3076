"""`corefwb score --conventions corefud`: the scores corefud-scorer (the CRAC shared task's
official scorer) gives, with its matching, singleton and zero settings named in the header.

Which conventions apply: `--conventions conll` is v8.01's (the rest of `corefwb`); `corefud` is
corefud-scorer's; `auto` (the default) takes corefud when the key and the response are both
CoNLL-U, else conll.  Under corefud, `--match` defaults to head and `--singletons` to remove, as
corefud-scorer's `-a` and `-s` do; `--zero-match` is its `-z` (dependency, its default, or linear).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from metrics.conventions.base import listed
from metrics.conventions.options import COREFUD
from metrics.conventions.registry import convention
from metrics.formats.detection import CRAC_FORMATS
from metrics.corpus.scoring import CorpusResult
from metrics.measures.catalog import CONLL, METRICS
from metrics.measures.weights import given

from ..json_text import dumps
from ..output import CORPUS_MICRO_ROW, SCORE_CSV_COLUMNS, align_rows, emit, percent, render_csv, render_markdown, score_json, \
    document_json, nothing_to_score, nothing_to_score_note, score_csv_cells, shown_document, single_valued_note
from ..session import LoadOptions, Session, input_format
from ..options import UsageError, jobs_option, weights_option
from .common import kept_until_exit, warn_all

if TYPE_CHECKING:  # the CorefUD convention's own code is loaded when it scores, not with the command line
    from metrics.conventions.corefud import Settings



def refuse_unavailable(args: argparse.Namespace) -> None:
    """What `score` cannot do under the CorefUD conventions: `--stream` (its streaming reader is
    CoNLL-2012's).  `--ci` and `--group-by` are the grouped report's, which `score` and `compare`
    make the same way under every convention (`score._run_report`, `systems.build_report`)."""
    if args.stream:
        if input_format(args.response, args.response_format) in CRAC_FORMATS:  # (conll cannot read it: no way out there)
            raise UsageError("--stream is not available for a CRAC LLM-track output (laid onto its whole key): "
                             "score it without --stream")
        why = ("; they were chosen because the key and the response are CoNLL-U" if args.conventions == "auto"
               else "")
        raise UsageError(f"--stream is not available under the CorefUD conventions yet{why}: "
                         f"--conventions conll gives v8.01's scores, with --stream")


def asked_metrics(args: argparse.Namespace) -> tuple[str, ...]:
    """`--metrics` under the CorefUD conventions: any metric a view lists under CorefUD (`compare`'s,
    the workbench's panel); by default the official scorer's, in its order; the others (LMUC,
    Mentions, ...) when asked, as the others show them."""
    corefud = convention(COREFUD)
    official = tuple(m.name for m in corefud.official)
    available = tuple(m.name for m in listed(corefud))
    asked = official if args.metrics == "all" else tuple(m.strip() for m in args.metrics.split(","))
    unknown = [m for m in asked if m not in available]
    if unknown:
        raise UsageError(f"--metrics: {', '.join(unknown)} not among corefud's: {','.join(available)}")
    return asked


def run(args: argparse.Namespace, options: LoadOptions) -> int:
    refuse_unavailable(args)
    settings = options.corefud
    official = tuple(m.name for m in convention(COREFUD).official)
    asked = asked_metrics(args)
    # the one road, scores alone: the key read once, as node mentions (with its token spans and
    # their mention types only when a metric beyond the official scorer's needs them)
    spans = any(m not in official and m != CONLL.name for m in asked)
    session = kept_until_exit(Session.load(args.key, [args.response], options, processes=jobs_option(args.jobs),
                                           spans=spans))
    warn_all(session.warnings, args)
    weights = weights_option(args.weights)  # the LMetrics' and CEAF's weights, when asked for them
    result = Scores(settings, session.score(weights, metrics=(*asked, CONLL.name)), asked)
    repairs = session.corpus.repairs  # a CRAC LLM-track response: what laying it onto the key repaired
    header = repairs.describe() if repairs is not None else ""
    weighted = any(METRICS[m].weighted for m in asked)  # then the weights are said, as under CoNLL's conventions
    if args.format == "json":
        text = dumps({**result_json(result), **({"weights": given(weights)} if weighted else {}),
                      **(repairs.to_json() if repairs is not None else {})}) + "\n"
    elif args.format == "csv":  # fractions and metric names, as every CSV of corefwb
        text = render_csv(SCORE_CSV_COLUMNS,
                          [[doc, name, *score_csv_cells(name, s)] for doc, scores in
                           [(CORPUS_MICRO_ROW, result.micro)] + (result.documents if args.per_doc else [])
                           for name, s in scores.items()])
    else:
        headers, rows = rows_of(result, args.per_doc)
        notes = [single_valued_note(list(result.micro))]
        # zero anaphora without zeros: corefud-scorer's 0.00, said to be nothing counted
        notes.append(nothing_to_score_note([METRICS[name].label for name, s in result.micro.items()
                                            if nothing_to_score(s)]))
        said = "".join(f"{note}\n" for note in notes if note is not None)
        described = settings.describe() + (f"; weights {weights.describe()}" if weighted else "")
        if args.format == "markdown":
            text = header + f"{described}\n\n" + render_markdown(headers, rows) + (f"\n{said}" if said else "")
        else:
            text = header + f"{described} (percentages)\n" + "\n".join(align_rows(headers, rows, right=headers[2:])) + "\n"
            text += said
    emit(text, args.output, inputs=[args.key, args.response])
    return 0


class Scores:
    """A corpus result in corefud-scorer's order: its metrics as asked, then CoNLL (when its parts
    are there); each document's in the same order, CoNLL too (the workbench lists and sorts the
    documents by it: `score --per-doc` lacked it under CorefUD alone)."""

    def __init__(self, settings: Settings, result: CorpusResult, asked: tuple[str, ...]) -> None:
        self.settings = settings
        self.micro = {name: result.micro[name] for name in shown_metrics(asked) if name in result.micro}
        shown = list(self.micro)
        self.documents = [(name, {m: scores[m] for m in shown if m in scores}) for name, scores in result.documents]


def shown_metrics(asked: tuple[str, ...]) -> tuple[str, ...]:
    """The metrics a CorefUD report shows, in its order: those asked, then CoNLL when asked for or
    when its parts are (as corefud-scorer prints it), in every report of `score` (plain or grouped)."""
    metrics = tuple(name for name in asked if name != CONLL.name)
    with_conll = CONLL.name in asked or set(CONLL.parts) <= set(metrics)
    return metrics + ((CONLL.name,) if with_conll else ())


def result_json(result: Scores) -> dict:
    """The JSON report, in CoNLL-2012's shape (`documents` a count, `per_document` the list) with
    CorefUD's settings first; no `macro`, which corefud-scorer does not give."""
    return {
        "documents": len(result.documents),
        **result.settings.fields(),
        "metrics": {name: score_json(score) for name, score in result.micro.items()},
        "per_document": [document_json(name, scores) for name, scores in result.documents],
    }


def rows_of(result: Scores, per_doc: bool) -> tuple[list[str], list[list[str]]]:
    headers = ["document", "metric", "recall", "precision", "F1"]
    rows = [["corpus", METRICS[name].label, percent(s.recall), percent(s.precision), percent(s.f1)]
            for name, s in result.micro.items()]
    if per_doc:
        rows += [[shown_document(doc), METRICS[name].label, percent(s.recall), percent(s.precision), percent(s.f1)]
                 for doc, scores in result.documents for name, s in scores.items()]
    return headers, rows


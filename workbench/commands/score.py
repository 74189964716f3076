"""`corefwb score KEY RESPONSE`: the scores, as a table for people or JSON for programs.

JSON is the contract other tools rely on: fractions in [0, 1] at full float precision, raw
counts beside them, corpus scores micro-averaged as the official scorer does, a macro average
labelled as such, and per-document scores.  Text rounds to two decimals and says so.
"""

from __future__ import annotations

import argparse
from metrics.measures.weights import Weights, given
from ..json_text import dumps
import sys
from collections.abc import Iterator, Sequence

from metrics.measures.catalog import ALL_METRICS, label
from metrics.corpus.scoring import CorpusResult

from . import corefud, ua
from .common import add_output_argument, load_options, load_session, warn, warn_all

from ..output import CORPUS_MACRO_ROW, CORPUS_MICRO_ROW, SCORE_CSV_COLUMNS, csv_note, align_rows, conventions_header, \
    conventions_json, document_json, emit, percent, render_csv, render_markdown, score_csv_cells, score_json, \
    shown_document, single_valued_note
from ..score_rows import document_entries
from ..names import system_names
from ..session import LoadOptions
from ..options import jobs_option, metrics_option, weights_option
from .systems import (Report, add_group_arguments, add_uncertainty_arguments, build_report, check_group_options,
                      csv_tables, files_read, group_tables, method_note, method_option, report_json,
                      resamples_option)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("key", help="key (gold) file")
    parser.add_argument("response", help="response (system) file")
    parser.add_argument("--metrics", default="all", metavar="LIST",
                        help=f"comma-separated metrics (default all): {','.join(ALL_METRICS)}")
    parser.add_argument("--per-doc", action="store_true",
                        help="also show per-document scores: in text one document x metric table of F1 (under "
                             "--conventions corefud a row per document and metric, with recall and precision, as "
                             "its corpus rows); in CSV and Markdown a row per document and metric (JSON always has "
                             "them)")
    parser.add_argument("--format", choices=("text", "json", "csv", "markdown"), default="text")
    add_output_argument(parser)
    parser.add_argument("--ci", action="store_true",
                        help="a confidence interval for each corpus score: percentile bootstrap over documents")
    add_uncertainty_arguments(parser, default_resamples=None)
    add_group_arguments(parser)
    parser.add_argument("--jobs", type=int, metavar="N",
                        help="read the response beside the key and score documents in N processes (default: one per "
                             "processor, at most 8); results identical for every N")
    parser.add_argument("--stream", action="store_true",
                        help="read and score one document at a time (uncompressed CoNLL-2012 inputs): memory stays "
                             "near one document per process, for corpora too large to hold")


def run(args: argparse.Namespace) -> int:
    check_group_options(args)
    resamples_option(args)  # --bootstrap without --ci refused before any reading
    if ua.selected(args):
        return ua.run_score(args, warn)
    options = load_options(args, [args.response])
    if options.conventions == "corefud":
        corefud.refuse_unavailable(args)
        if not (args.ci or args.group_by):
            return corefud.run(args, options)
        wanted: tuple[str, ...] | None = corefud.shown_metrics(corefud.asked_metrics(args))
    else:
        wanted = metrics_option(args.metrics)
    weights = weights_option(args.weights)
    jobs = jobs_option(args.jobs)
    if args.ci or args.group_by:  # the grouped report, one road under every convention (as `compare`'s)
        return _run_report(args, options, wanted, weights, jobs)
    result = None
    if args.stream:
        result, notes = score_streaming(args.key, args.response, options, weights, metrics=wanted, jobs=jobs)
        warn_all(notes, args)
    characters = None
    if result is None:
        session = load_session(args, [args.response])
        result, characters = session.score(weights, wanted, processes=jobs), session.corpora[0].characters
    header = conventions_header(options) + alignment_header(characters)
    if args.format == "json":
        text = json_chunks(result, {**conventions_json(options),
                                    **({"alignment": characters.to_json()} if characters is not None else {})})
    elif args.format in ("csv", "markdown"):
        if args.format == "csv":
            text = render_csv(*score_rows(result, per_doc=args.per_doc))
        else:  # paper-ready, as compare's: percentages with 2 decimals, the metrics by their names
            text = header + render_markdown(*percent_rows(result, per_doc=args.per_doc),
                                            title=f"{len(result.documents)} documents; corpus scores micro-averaged "
                                                  f"(official); percentages; weights {result.weights.describe()}")
            single = single_valued_note(result.metrics)  # a paper's reader must know it too
            text += "" if single is None else f"\n{single}\n"
    else:
        to_terminal = args.output is None and sys.stdout.isatty()
        if to_terminal and header:
            emit(header, None, inputs=[])
        text = render_text(result, args.per_doc, rich_table=to_terminal)
        if text is None:
            return 0
        text = ("" if to_terminal else header) + text
    emit(text, args.output, inputs=files_read(args, [args.key, args.response]), escaped=args.format == "json")
    return 0


def _run_report(args: argparse.Namespace, options: LoadOptions, asked: tuple[str, ...] | None, weights,
                jobs: int) -> int:
    """`--ci` and `--group-by`: the corpus scores with their intervals and breakdown, under v8.01's
    conventions or CorefUD's (their settings first, as `compare` names them).  With `--stream` the
    documents are read one at a time (their per-document scores are all intervals need)."""
    from metrics.measures.catalog import resolve, with_parts
    from metrics.corpus.scoring import aggregate

    # CorefUD's are named already, in its scorer's order (as its plain report lists them)
    wanted = asked if asked is not None and options.conventions == "corefud" else resolve(asked)
    resamples = resamples_option(args)
    method = method_option(args, resamples) if resamples is not None else None
    session, full = None, None
    if args.stream:
        full, notes = score_streaming(args.key, args.response, options, weights, metrics=with_parts(wanted), jobs=jobs)
        warn_all(notes, args)
    if full is None:
        session = load_session(args, [args.response])
        full = session.score(weights, with_parts(wanted), processes=jobs)
    report = build_report(session, [args.response], system_names([args.response], None), [full], metrics=wanted,
                          method=method, args=args)
    result = aggregate(full.documents, weights, wanted)
    if args.format == "json":
        extra = {**conventions_json(options),
                 **{k: v for k, v in report_json(report).items() if k in ("intervals", "groups", "method")}}
        text = json_chunks(result, extra)
    elif args.format == "csv":
        headers, rows = score_rows(result, per_doc=args.per_doc)
        tables = [(headers, rows)] + csv_tables(report)[1:]
        if report.comparison is not None:
            c = report.comparison.intervals[0]
            tables.insert(1, (["metric", "f1", "low", "high", "note"],
                              [[m, full.micro[m].f1, c[m].low, c[m].high, csv_note(m)] for m in wanted]))
        text = "\n".join(render_csv(h, r) for h, r in tables)
    else:
        text = conventions_header(options) + _report_text(report, result, args.per_doc,
                                                          markdown=args.format == "markdown")
    emit(text, args.output, inputs=files_read(args, [args.key, args.response]))
    return 0


def _report_text(report: Report, result: CorpusResult, per_doc: bool, markdown: bool) -> str:
    c = report.comparison
    columns = ["metric", "recall", "precision", "F1"] + ([f"{100 * c.method.confidence:g}% interval"] if c else [])
    rows = []
    for m in report.metrics:
        s = result.micro[m]
        row = [label(m), _pct(s.recall).strip(), _pct(s.precision).strip(), _pct(s.f1).strip()]
        if c:
            row.append(f"[{100 * c.intervals[0][m].low:.2f}, {100 * c.intervals[0][m].high:.2f}]")
        rows.append(row)
    title = f"{len(result.documents)} documents; {method_note(report, bounds=True)}; weights {result.weights.describe()}"
    tables = [(title, columns, rows)] + group_tables(report)
    single = single_valued_note(report.metrics)  # its F1 column (and its groups') holds the value, as without them
    if per_doc:
        metrics = list(report.metrics)
        tables.append(("F1 per document", ["document"] + [label(m) for m in metrics],
                       [[shown_document(name)] + [_pct(s[m].f1).strip() if m in s else "" for m in metrics]
                        for name, s in result.documents]))
    if markdown:
        return "\n".join(render_markdown(h, r, title=t) for t, h, r in tables) + ("" if single is None else f"\n{single}\n")
    lines = []
    for heading, headers, table_rows in tables:
        lines += [heading] + align_rows(headers, table_rows, right=headers[1:]) + [""]
    return "\n".join(lines + ([] if single is None else [single, ""]))


def json_chunks(result: CorpusResult, extra: dict | None = None) -> Iterator[str]:
    """The JSON report, `json.dumps(report, indent=1)` to the byte (`json_text.dumps`), in pieces: one per document.

    Why pieces: a PreCo-sized corpus (38,000 documents) gives 100 MB of JSON, and building it whole
    as Python objects took more memory than scoring the corpus; here one document's entry exists
    at a time.  `per_document` comes last, so the corpus scores can be written first.
    """
    head = dumps({
        "documents": len(result.documents),
        "weights": given(result.weights),
        "averaging": "micro: counts summed over documents (official); macro: mean of per-document values",
        "metrics": {name: score_json(s) for name, s in result.micro.items()},
        "macro": {name: score_json(s) for name, s in result.macro.items()},
        **(extra or {}),
    })
    yield head[:-2] + ',\n "per_document": ['  # head ends with "\n}"
    # nested two levels down: indent=1 puts two more spaces before each of its lines
    if result.documents:
        yield "\n  "
    entries = document_entries(result.documents, 2, ",\n  ")
    if entries is None:
        entries = (("," if i else "") + ("\n  " if i else "")
                   + dumps(document_json(name, scores), depth=2)
                   for i, (name, scores) in enumerate(result.documents))
    yield from entries
    yield ("\n ]" if result.documents else "]") + "\n}\n"


def score_rows(result: CorpusResult, per_doc: bool) -> tuple[list[str], list[list[str]]]:
    """Rows of `SCORE_CSV_COLUMNS` with full precision, for CSV."""
    rows = [[CORPUS_MICRO_ROW, name, *score_csv_cells(name, s)] for name, s in result.micro.items()]
    rows += [[CORPUS_MACRO_ROW, name, *score_csv_cells(name, s)] for name, s in result.macro.items()]
    if per_doc:
        for doc, scores in result.documents:
            rows += [[doc, name, *score_csv_cells(name, s)] for name, s in scores.items()]
    return list(SCORE_CSV_COLUMNS), rows


def percent_rows(result: CorpusResult, per_doc: bool) -> tuple[list[str], list[list[str]]]:
    """Rows of (scope, metric name, recall, precision, F1) in percentages, for Markdown."""
    headers = ["document", "metric", "recall", "precision", "F1"]
    scopes = [("corpus", result.micro)] + [(shown_document(name), scores) for name, scores in result.documents
                                           if per_doc]
    return headers, [[scope, label(name), percent(s.recall), percent(s.precision), percent(s.f1)]
                     for scope, scores in scopes for name, s in scores.items()]


def alignment_header(characters) -> str:
    """A response in its own words (plain text, subtokens, another tokenizer): what mapping it onto
    the key's words did, first in a text output, so that what the alignment lost is never taken
    for coreference errors (the lost mentions are listed as warnings)."""
    if characters is None:
        return ""
    return (f"mapped onto the key's words by characters: {characters.mentions} mentions, {characters.snapped} "
            f"snapped to a key word's edge, {characters.lost} lost\n")


def _notes(result: CorpusResult) -> list[str]:
    """Lines under the table: precision, and how to read a single-valued metric's row."""
    notes = ["percentages rounded to 2 decimals; --format json gives full precision"]
    single = single_valued_note(result.metrics)
    return notes if single is None else [*notes, single]


def _pct(x: float) -> str:
    return f"{100 * x:6.2f}"


def render_text(result: CorpusResult, per_doc: bool, rich_table: bool) -> str | None:
    """Aligned plain text (or a rich table on a terminal, printed directly: returns None): the
    corpus table, then with `per_doc` one table of documents (rows) x metrics (F1 columns)."""
    title = (f"{len(result.documents)} documents; corpus scores micro-averaged (official); "
             f"weights {result.weights.describe()}")
    corpus_columns = ["metric", "recall", "precision", "F1"]
    corpus_rows = [[label(name), _pct(s.recall), _pct(s.precision), _pct(s.f1)] for name, s in result.micro.items()]
    tables = [(title, corpus_columns, corpus_rows)]
    if per_doc:
        metrics = list(result.micro)
        doc_rows = [[shown_document(name)] + [_pct(scores[m].f1) if m in scores else "" for m in metrics]
                    for name, scores in result.documents]
        tables.append(("F1 per document (recall and precision: --format json or csv)",
                       ["document"] + [label(m) for m in metrics], doc_rows))
    if rich_table:
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text

        console = Console()
        for heading, columns, rows in tables:
            table = Table(title=Text(heading), title_justify="left")  # names are data: never markup
            for i, column in enumerate(columns):
                table.add_column(Text(column), justify="left" if i == 0 else "right", no_wrap=i == 0)
            for row in rows:
                table.add_row(*(Text(cell) for cell in row))
            console.print(table)
        for note in _notes(result):
            console.print(note, style="dim", markup=False)
        return None
    lines = [title, *_notes(result), ""]
    for heading, columns, rows in tables:
        if heading != title:
            lines.append(heading)
        lines += align_rows(columns, rows, right=columns[1:])
        lines.append("")
    return "\n".join(lines)


def score_streaming(key_path: str, response_path: str, options: LoadOptions, weights: Weights, *,
                    metrics: Sequence[str] | None, jobs: int) -> tuple[CorpusResult | None, list[str]]:
    """Score two CoNLL-2012 files a document at a time in `jobs` processes (memory near one
    document per process; results identical for every `jobs`), on the road's `stream`.  The
    convention says which files stream (uncompressed CoNLL-2012 files, exact matching, singletons
    kept): for other inputs the result is None and a warning says that they are read whole."""
    from metrics.conventions.pipeline import stream

    options.apply_limits()
    streamed = stream(key_path, response_path, options.engine(), weights=weights, metrics=metrics, jobs=jobs)
    if streamed is None:
        return None, ["--stream reads uncompressed regular CoNLL-2012 files with exact matching and singletons kept only; "
                      "reading these inputs whole instead"]
    return streamed

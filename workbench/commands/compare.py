"""`corefwb compare KEY RESPONSE_1 RESPONSE_2 [...]`: N systems against one key, the first the baseline.

Every metric side by side with its interval, each system's difference to the baseline with its
interval and p-value (metrics.statistics.significance: resampling documents, paired), an optional breakdown
(`--group-by`), and, for each system, the mentions whose error changed against the baseline
(`changes.py`), so that a difference of numbers can be traced to mentions.
"""

from __future__ import annotations

import argparse
from metrics.measures.weights import given
from ..json_text import dumps

from metrics.conventions.registry import convention
from metrics.measures.catalog import ALL_METRICS, resolve, with_parts

from ..output import align_rows, conventions_header, conventions_json, emit, render_csv, render_markdown, \
    single_valued_note
from ..names import system_names
from ..session import resolve_conventions
from ..options import limit_option, metrics_option, weights_option
from ..comparison import change_of, compare_records
from .changes import CSV_COLUMNS, changes_csv_rows, changes_json, changes_sections
from . import ua
from .common import add_output_argument, load_session
from .systems import (SIGNIFICANT, Report, add_group_arguments, add_uncertainty_arguments, build_report,
                      check_group_options, csv_tables, differences_table, files_read, group_tables, method_note,
                      method_option, report_json, systems_table)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("key", help="key (gold) file")
    parser.add_argument("responses", nargs="+", metavar="RESPONSE",
                        help="two or more responses; the first is the baseline")
    parser.add_argument("--name", metavar="A,B,...", help="the systems' names, one per response (default: file names)")
    parser.add_argument("--metrics", default="all", metavar="LIST",
                        help=f"comma-separated metrics (default all): {','.join(ALL_METRICS)}")
    parser.add_argument("--document", action="append", metavar="D",
                        help="list changed mentions of this document only (repeatable): its full name, e.g. "
                             "\"(GUM_news_korea); part 000\", or the short name the workbench shows (GUM_news_korea)")
    parser.add_argument("--limit", type=int, metavar="N",
                        help="list at most N changed mentions per system (tables cover all)")
    parser.add_argument("--taxonomy", choices=("chen-ng", "kk"), default="chen-ng",
                        help="kk: also each system's Kummerfeld & Klein error counts and the CoNLL F1 after "
                             "correcting each type (docs/errors-kk.md)")
    add_uncertainty_arguments(parser, default_resamples=1000)
    add_group_arguments(parser)
    parser.add_argument("--format", choices=("text", "json", "csv", "markdown"), default="text")
    add_output_argument(parser)


def run(args: argparse.Namespace) -> int:
    from ..options import UsageError

    if len(args.responses) < 2:
        raise UsageError("compare: give at least two responses (the first is the baseline)")
    check_group_options(args)
    limit = limit_option(args.limit)
    weights = weights_option(args.weights)
    if ua.selected(args):
        wanted = ua.listed_metrics(args)
    else:  # any metric the convention's views list (CorefUD's MOR and zero too, as `score` and the workbench show them)
        conventions = resolve_conventions(args.conventions, args.key, args.responses, args.key_format, args.response_format)
        scorer = convention(conventions).scorer
        wanted = resolve(metrics_option(args.metrics, scorer=scorer), scorer)
    names = system_names(args.responses, args.name)
    method = method_option(args) if args.bootstrap else None
    session = load_session(args, list(args.responses), ua_taken=True)
    documents = session.select_documents(args.document)
    results = [session.score(weights, with_parts(wanted), system) for system in range(len(names))]
    report = build_report(session, session.response_paths, names, results, metrics=wanted, method=method, args=args)
    baseline_records = session.classify(weights, documents, 0)
    changes = []
    for system in range(1, len(names)):
        rows = compare_records(baseline_records, session.classify(weights, documents, system))
        changed = [(ra, rb) for ra, rb in rows if change_of(ra, rb) != "same"]
        changes.append((names[system], rows, changed if limit is None else changed[:limit], len(changed)))
    kk = None
    if args.taxonomy == "kk":
        from .errors_kk import systems_csv_rows as kk_csv, systems_json as kk_json
        kk = [session.kk_report(documents, system, weights=weights) for system in range(len(names))]
    relations = None
    if session.options.conventions == "ua":  # the UA relations' errors, counted per system
        from .ua import systems_json as ua_json, systems_table as ua_table

        relations = [session.ua_errors(system) for system in range(len(names))]
        if documents is not None:
            relations = [[e for e in found if e.document in documents] for found in relations]
    if args.format == "json":
        out = {**conventions_json(session.options), **report_json(report)}
        if kk is not None:
            out["kk"] = kk_json(names, kk)
        if relations is not None:
            out["ua_relations"] = ua_json(names, relations)
        out["documents"] = len(results[0].documents)
        out["weights"] = given(weights)
        out["singletons"] = session.options.singletons
        out["changes"] = [{"baseline": names[0], "system": name, **changes_json(rows, listed, n)}
                          for name, rows, listed, n in changes]
        text = dumps(out) + "\n"
    elif args.format == "csv":
        tables = csv_tables(report) + [(CSV_COLUMNS, [row for name, _, listed, _ in changes
                                                      for row in changes_csv_rows(names[0], name, listed)])]
        if kk is not None:
            tables.append(kk_csv(names, kk))
        if relations is not None:
            tables.append(ua_table(names, relations))
        text = "\n".join(render_csv(headers, rows) for headers, rows in tables)
    else:
        text = conventions_header(session.options) + render(report, changes, args.format == "markdown", weights, kk=kk,
                                                            relations=relations)
    emit(text, args.output, inputs=files_read(args, session.inputs))
    return 0


def _sections(report: Report, changes, kk=None, relations=None) -> list[tuple[str, list[str], list[list[str]], set[str]]]:
    n_docs = len(report.results[0].documents)
    headers, rows = systems_table(report)
    method = "" if report.comparison is None else f"; {method_note(report)}"  # (without: it said micro-averaged twice)
    out = [(f"F1 (%), {n_docs} documents, corpus micro-averaged{method}", headers, rows, set(headers[1:]))]
    if report.comparison is not None:
        headers, rows = differences_table(report)
        out.append((f"differences to {report.names[0]} (F1 points), their intervals and p-values", headers, rows,
                    set(headers[1:])))
    out += [(title, headers, rows, set(headers[1:])) for title, headers, rows in group_tables(report)]
    if kk is not None:
        from .errors_kk import systems_table as kk_table

        headers, rows = kk_table(report.names, kk)
        out.append(("Kummerfeld & Klein errors per system (BCA's rules) and the CoNLL F1 after correcting each "
                    "type and those above it", headers, rows, set(headers[1:])))
    if relations is not None:
        from .ua import systems_table as ua_table

        headers, rows = ua_table(report.names, relations)
        out.append(("errors of the Universal Anaphora relations per system (corefwb errors --conventions ua)",
                    headers, rows, set(headers[1:])))
    for name, rows, listed, n in changes:
        out += changes_sections(rows, listed, n, report.names[0], name)
    return out


def render(report: Report, changes, markdown: bool, weights, *, kk=None, relations=None) -> str:
    systems = [f"{n} = {p}" for n, p in zip(report.names, report.paths)]
    single = single_valued_note(report.metrics)  # every column says F1, and the differences F1 points
    head = [f"systems (baseline first): {'; '.join(systems)}",
            f"link weights {weights.describe()}", *([] if single is None else [single]), ""]
    if markdown:
        return "\n".join(head) + "\n" + "\n".join(render_markdown(headers, rows, title=title)
                                                  for title, headers, rows, _ in _sections(report, changes, kk, relations))
    lines = head
    for title, headers, rows, right in _sections(report, changes, kk, relations):
        lines.append(title)
        lines += align_rows(headers, _marks_aligned(headers, rows, right), right=right)
        lines.append("")
    return "\n".join(lines)


def _marks_aligned(headers: list[str], rows: list[list[str]], right: set[str]) -> list[list[str]]:
    """A table with significance marks: a number without one keeps the mark's place (a space), so
    the digits of marked and unmarked cells line up and every such column is as wide."""
    if not any(cell.endswith(SIGNIFICANT) for row in rows for cell in row):
        return rows
    return [[cell + " " if header in right and cell[-1:].isdigit() else cell for header, cell in zip(headers, row)]
            for row in rows]

"""`corefwb errors KEY RESPONSE`: every error, one per mention, with its fix and (optionally) price.

The records and counts come from metrics.errors.chen_ng.records (docs/errors-fixes.md defines them); this module
only filters and renders.  Text is aligned plain text (pipes and terminals alike), JSON is the
contract for programs (document-level token offsets, 0-based, inclusive end), CSV one row per error.
Impacts are changes of the corpus F1 of `--impact METRIC` in points (F1 x 100), in every format
(`output.impact_text`; JSON at full precision).
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Iterator

import numpy as np

from metrics.measures.weights import given
from ..json_text import Written, dumps

from metrics.errors.chen_ng.records import CATEGORIES, Category, Counts, ErrorColumns, counts_to_json, \
    shown_types
from metrics.errors.kummerfeld_klein import KK_TYPES
from metrics.measures.catalog import METRICS
from metrics.model import MentionType

from . import ua
from .common import add_output_argument, load_session, warn
from ..error_rows import document_counts_json, error_pieces, errors_csv, impact_cell, table_cells, table_headers
from ..output import IMPACT_UNIT, align_rows, conventions_header, conventions_json, emit, impact_points
from ..options import UsageError, categories_option, impact_option, jobs_option, limit_option, listed, types_option, \
    weights_option


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("key", help="key (gold) file")
    parser.add_argument("response", help="response (system) file")
    parser.add_argument("--taxonomy", choices=("chen-ng", "kk"), default="chen-ng",
                        help="chen-ng (default): one record per mention (Durrett & Klein's categories, Chen & Ng's "
                             "suboptimal link); kk: Kummerfeld & Klein's seven types over entities, as the Berkeley "
                             "Coreference Analyser finds them, with the CoNLL F1 after correcting each type")
    parser.add_argument("--category", action="append", metavar="C",
                        help="only these categories (repeat or comma-separate): " + ", ".join(c.value for c in CATEGORIES)
                             + "; with --taxonomy kk: " + ", ".join(KK_TYPES)
                             + "; under --conventions ua: a relation (docs/ua.md, Errors)")
    parser.add_argument("--type", action="append", metavar="T",
                        help="only mentions of these types (repeat or comma-separate): NAME,NOMINAL,PRONOUN "
                             "(or N,M,P), and ZERO (Z) under --conventions corefud; "
                             "under --conventions ua: the relations' error types (docs/ua.md, Errors)")
    parser.add_argument("--document", action="append", metavar="D",
                        help="only this document (repeatable): its full name, e.g. \"(GUM_news_korea); part 000\", "
                             "or the short name the workbench shows (GUM_news_korea) when it is unambiguous")
    parser.add_argument("--impact", metavar="METRIC",
                        help="price each error and category: change of the corpus F1 of METRIC (e.g. conll, lmuc) "
                             "when the fix is applied (with singletons removed, the fixed response's too); "
                             "under --conventions ua it lists Chen & Ng's errors of the "
                             "identity chains (one per mention, as the workbench's t list) instead of the relations' "
                             "errors, each fix's change of v8.01's counts of those chains added to the UA scorer's "
                             "corpus counts (split antecedents' partial credit left out: docs/ua.md, Errors)")
    parser.add_argument("--sort", choices=("document", "impact"), default="document",
                        help="order of the listed errors (impact: largest gain first; without --impact, CoNLL F1)")
    parser.add_argument("--limit", type=int, metavar="N", help="list at most N errors (counts cover all)")
    parser.add_argument("--distinct", action="store_true",
                        help="list one error per distinct fix (the first in document order) with the number of "
                             "errors that fix removes (the suboptimal links of one chain share one fix)")
    parser.add_argument("--format", choices=("text", "json", "csv", "markdown"), default="text")
    add_output_argument(parser)
    parser.add_argument("--jobs", type=int, metavar="N",
                        help="read the response beside the key and price errors (--impact) in N processes (default: "
                             "one per processor, at most 8); results identical for every N")


def run(args: argparse.Namespace) -> int:
    under_ua = ua.selected(args)
    if under_ua and args.taxonomy != "kk" and args.impact is None:
        return ua.run_errors(args, warn)
    if args.taxonomy == "kk":  # under ua too: K&K's errors of the identity chains
        from .errors_kk import run as run_kk

        return run_kk(args)
    if under_ua:
        _refuse_relation_categories(args.category)
    categories = categories_option(args.category)
    types = types_option(args.type)
    metric = args.impact if args.impact is not None else ("conll" if args.sort == "impact" else None)
    if metric is not None:
        metric = impact_option(metric)
    limit = limit_option(args.limit)
    weights = weights_option(args.weights)
    session = load_session(args, [args.response], ua_taken=under_ua)  # under ua: the identity chains' mentions
    documents = session.select_documents(args.document)
    selected = session.error_columns(weights, documents).select(categories, types)
    category_impact: dict[Category, float] | None = None
    same_fix: list[int] | None = None
    if metric is not None or args.distinct:
        listed_columns, category_impact, same_fix = _priced(session, selected, args, metric=metric, weights=weights)
    else:  # in document order, unpriced: the columns as classified
        listed_columns = selected
    if limit is not None and limit < len(listed_columns):
        listed_columns = listed_columns.take(np.arange(limit))
        same_fix = same_fix[:limit] if same_fix is not None else None
    if category_impact is not None and categories is not None:  # the category table lists the categories asked for
        category_impact = {c: v for c, v in category_impact.items() if c in categories}
    n_documents = len(documents) if documents is not None else len(session.corpus.pairs)
    if args.format == "json":
        text = json_pieces(listed_columns, selected, metric, weights, options=session.options,
                           category_impact=category_impact, same_fix=same_fix)
    elif args.format == "csv":
        text = errors_csv(listed_columns, same_fix, category_impact)
    elif args.format == "markdown":
        text = conventions_header(session.options) + render_markdown(listed_columns, selected, n_documents, metric,
                                                                     weights, category_impact=category_impact,
                                                                     same_fix=same_fix)
    else:
        text = conventions_header(session.options) + render_text(listed_columns, selected, n_documents, metric, weights,
                                                                 category_impact=category_impact, same_fix=same_fix)
    emit(text, args.output, inputs=session.inputs, escaped=args.format == "json")
    return 0


def _refuse_relation_categories(values: list[str] | None) -> None:
    """Under UA, `--impact` lists Chen & Ng's errors of the identity chains: a relation asked for
    as a category (`bridging`) is refused with where its errors are, not as an unknown name."""
    from metrics.errors.ua.records import RELATIONS

    relations = [v for v in listed(values or ()) if v in RELATIONS]
    if relations:
        raise UsageError(f"--category {', '.join(relations)}: under --conventions ua, --impact lists Chen & Ng's "
                         f"errors of the identity chains (categories {', '.join(c.value for c in CATEGORIES)}); "
                         f"the relations' errors are listed without --impact")


def _priced(session, selected: ErrorColumns, args: argparse.Namespace, *, metric: str | None,
            weights) -> tuple[ErrorColumns, dict[Category, float] | None, list[int] | None]:
    """The rows listed under --impact, --distinct and --sort impact: with --distinct one per
    distinct fix (`Pricer.group_by_fix`: the first in document order), with --impact priced as
    columns (`Pricer.price_columns`: no record made per error), with --sort impact sorted by
    impact, largest first, equal impacts in their order; with the category table's prices and,
    with --distinct, how many errors each listed row's fix removes."""
    pricer = session.pricer(metric or "conll", weights)
    listed, same_fix = selected, None
    if args.distinct:
        groups = pricer.group_by_fix(selected)
        listed = selected.take(np.array([group[0] for group in groups], dtype=np.int64))
        same_fix = [len(group) for group in groups]
    category_impact = None
    if metric is not None:
        # the category table prices what the counts count: the errors the filters select
        prices, category_impact = pricer.price_columns(listed, selected, processes=jobs_option(args.jobs))
        listed = dataclasses.replace(listed, impact=prices)
    if args.sort == "impact":  # by -(impact or 0.0), stable
        order = np.argsort(-np.array([price or 0.0 for price in listed.impact], dtype=np.float64), kind="stable")
        listed = listed.take(order)
        same_fix = None if same_fix is None else [same_fix[i] for i in order.tolist()]
    return listed, category_impact, same_fix


def impact_name(metric: str) -> str:
    """What an impact changes: 'CoNLL F1', or a single-valued metric's value ('ACE-value')."""
    found = METRICS[metric]
    return found.label if found.single else f"{found.label} F1"


# ------------------------------------------------------------------------------ JSON


def json_pieces(listed: ErrorColumns, selected: ErrorColumns, metric: str | None, weights, *, options,
                category_impact: dict[Category, float] | None, same_fix: list[int] | None = None) -> Iterator[str]:
    """The JSON report (`to_json`'s fields, after the conventions' under `options`), in pieces: its
    errors a block of records at a time (`error_rows.error_pieces`), never the whole text at once."""
    report = {**conventions_json(options), **to_json(listed, selected, metric, weights, category_impact=category_impact)}
    head, _, tail = dumps(report).partition(_ERRORS_HERE)
    yield head
    yield from error_pieces(listed, same_fix, depth=1)
    yield tail + "\n"


_ERRORS_HERE = Written('"\\u0000errors"')
"""Where `to_json` puts the errors, which `json_pieces` writes itself (a string no field before them holds)."""


def to_json(listed: ErrorColumns, selected: ErrorColumns, metric: str | None, weights, *,
            category_impact: dict[Category, float] | None) -> dict:
    """The report's fields, the errors (`listed`) marked by `_ERRORS_HERE` and the counts of `selected`."""
    corpus_counts = selected.counts()
    kinds = shown_types(corpus_counts)
    out = {
        "weights": given(weights),
        "impact_metric": metric,
        "errors": _ERRORS_HERE,
        "counts": {
            "corpus": counts_to_json(corpus_counts),
            "documents": document_counts_json(selected, kinds, depth=2),
        },
    }
    if category_impact is not None:
        out["category_impact_points"] = {c.value: impact_points(v) for c, v in category_impact.items()}
    return out


# ------------------------------------------------------------------------------ Markdown


def render_markdown(listed: ErrorColumns, selected: ErrorColumns, n_documents: int, metric: str | None, weights, *,
                    category_impact: dict[Category, float] | None, same_fix: list[int] | None = None) -> str:
    """Two tables for a report: counts by category x type (of the selected errors), then the listed
    errors; under the same first line as the text's (the weights the costs and LMetric impacts
    depend on) and titled with what a `--limit` left of the list, as the text says it."""
    from ..output import render_markdown as table

    counts = selected.counts()
    kinds = shown_types(counts)
    headers = ["category", *(t.name for t in kinds), "total"]
    if category_impact is not None:
        headers.append(f"impact ({impact_name(metric)} {IMPACT_UNIT})")
    out = f"{_first_line(selected, n_documents, weights)}\n\n" + table(
        headers, _category_rows(counts, kinds, category_impact), title="Errors by category and mention type")
    headers = table_headers(impacts=metric is not None, same_fix=same_fix is not None)
    cells = table_cells(listed, width=60, letters=False, missing="", impacts=metric is not None, same_fix=same_fix)
    rows = list(zip(*cells))
    title = "Errors" if same_fix is not None or len(listed) == len(selected) else \
        f"Errors (listing {len(listed)} of {len(selected)})"
    return out + "\n" + table(headers, rows, title=title)


def _first_line(selected: ErrorColumns, n_documents: int, weights) -> str:
    return f"{len(selected)} errors in {n_documents} document(s); link weights {weights.describe()}"


# ------------------------------------------------------------------------------ text


def count_table(counts: Counts, category_impact: dict[Category, float] | None) -> list[str]:
    """The category x mention type table as aligned lines."""
    kinds = shown_types(counts)
    widths = {MentionType.NAME: 6, MentionType.NOMINAL: 8, MentionType.PRONOUN: 8, MentionType.ZERO: 6}
    header = f"{'category':<17} " + " ".join(f"{t.name:>{widths[t]}}" for t in kinds) + f" {'total':>7}"
    if category_impact is not None:
        header += f" {'impact':>9}"
    lines = [header]
    for cells in _category_rows(counts, kinds, category_impact):
        numbers, total = cells[1:1 + len(kinds)], cells[1 + len(kinds)]
        line = f"{cells[0]:<17} " + " ".join(f"{n:>{widths[t]}}" for t, n in zip(kinds, numbers)) + f" {total:>7}"
        lines.append(line + f" {cells[-1]:>9}" if category_impact is not None else line)
    totals = {t: sum(counts[c][t] for c in CATEGORIES) for t in MentionType}
    lines.append(f"{'total':<17} " + " ".join(f"{totals[t]:>{widths[t]}}" for t in kinds) + f" {sum(totals.values()):>7}")
    return lines


def _category_rows(counts: Counts, kinds: list[MentionType], category_impact: dict[Category, float] | None
                   ) -> list[list]:
    """The category table's rows, text and Markdown alike: each category's label, its count of each
    shown type and in all, and its impact when priced (`impact_cell`)."""
    rows = []
    for category in CATEGORIES:
        row = counts[category]
        cells = [category.label, *(row[t] for t in kinds), sum(row.values())]
        if category_impact is not None:
            cells.append(impact_cell(category_impact.get(category)))
        rows.append(cells)
    return rows


def render_text(listed: ErrorColumns, selected: ErrorColumns, n_documents: int, metric: str | None,
                weights, *, category_impact: dict[Category, float] | None, same_fix: list[int] | None = None) -> str:
    lines = [_first_line(selected, n_documents, weights)]
    if metric is not None:
        lines.append(f"impact: change of the corpus {impact_name(metric)}, in {IMPACT_UNIT}, when the fix is applied "
                     f"(per error: its fix alone; per category: all its fixes)")
    lines.append("")
    lines += count_table(selected.counts(), category_impact)
    lines.append("")
    if same_fix is not None:
        lines.append(f"listing one error per distinct fix ({len(listed)} shown); 'same fix': errors that fix removes")
    elif len(listed) < len(selected):
        lines.append(f"listing {len(listed)} of {len(selected)} errors")
    columns = table_headers(impacts=metric is not None, same_fix=same_fix is not None)
    cells = table_cells(listed, width=28, letters=True, missing="-", impacts=metric is not None, same_fix=same_fix)
    lines += align_rows(columns, list(zip(*cells)), right={"cost", f"impact ({IMPACT_UNIT})", "same fix"})
    return "\n".join(lines) + "\n"

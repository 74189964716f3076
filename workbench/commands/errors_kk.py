"""`corefwb errors KEY RESPONSE --taxonomy kk`: Kummerfeld & Klein's (2013) errors and their cost.

The classification and the scores come from metrics.errors.kummerfeld_klein (docs/errors-kk.md
states its rules); this module filters and renders.  The tables are the ones papers print: counts
by error type and mention type, and the CoNLL F1 after correcting each type in BCA's order (with
`--impact METRIC`, that metric too).  Text also lists the errors; JSON holds everything; CSV is the
paper table, one row per type; Markdown the two tables and the errors.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from metrics.errors.kummerfeld_klein import KK_DESCRIPTIONS, KK_LABELS, KK_TYPES
from metrics.errors.chen_ng.records import shown_types
from metrics.errors.kummerfeld_klein.report import KKError, KKReport, count_kk
from metrics.errors.kummerfeld_klein.syntax import GUESSED_HEADS, HEADS_WITHOUT_PARSE
from metrics.measures.catalog import CONLL, label
from metrics.model import MentionType

from ..error_rows import mention_text
from ..json_text import dumps
from ..options import UsageError, impact_option, jobs_option, limit_option, types_option, weights_option
from ..output import align_rows, conventions_header, conventions_json, emit, render_csv, render_markdown, \
    shown_document
from .common import load_session, warn


def kk_types_option(values: Sequence[str] | None) -> list[str] | None:
    """`--category` under K&K: its type names (span_error ...), spaces or hyphens allowed."""
    if not values:
        return None
    out = []
    for value in (v.strip() for item in values for v in item.split(",") if v.strip()):
        wanted = value.lower().replace("-", "_").replace(" ", "_")
        if wanted not in KK_TYPES:
            raise UsageError(f"--category: unknown K&K type {value!r}; choose from {', '.join(KK_TYPES)}")
        out.append(wanted)
    return out


def run(args: argparse.Namespace) -> int:
    if args.distinct:
        raise UsageError("--distinct: K&K errors have no shared fixes; use it with --taxonomy chen-ng")
    if args.sort == "impact":
        raise UsageError("--sort impact: K&K errors are priced per type (the stages), not one by one")
    kinds = kk_types_option(args.category)
    types = types_option(args.type)
    metric = "conll" if args.impact is None else impact_option(args.impact)
    limit = limit_option(args.limit)
    weights = weights_option(args.weights)
    session = load_session(args, [args.response], ua_taken=True)  # under ua: the identity chains
    documents = session.select_documents(args.document)
    report = session.kk_report(documents, metric=metric, weights=weights, processes=jobs_option(args.jobs))
    if GUESSED_HEADS & set(report.fallback):  # once for the key, whose syntax K&K reads: no syntax to read
        warn(f"{args.key}: no parse BCA can read in some sentences: K&K's heads there come from "
             f"{heads_fallback(report)}")
    official = _official(session, weights, documents)
    selected = [e for e in report.errors if (kinds is None or e.kind in kinds) and (types is None or e.type in types)]
    listed = selected[:limit] if limit is not None else selected
    n_documents = len(documents) if documents is not None else len(session.corpus.pairs)
    if args.format == "json":
        text = dumps({**conventions_json(session.options), **to_json(report, listed, selected, official)}) + "\n"
    elif args.format == "csv":
        text = render_csv(*paper_table(report, selected))
    elif args.format == "markdown":
        headers, rows = paper_table(report, selected)
        text = conventions_header(session.options) + render_markdown(
            headers, rows, title="Errors by type (Kummerfeld & Klein 2013) and the CoNLL F1 after correcting each")
        text += "\n" + render_markdown(ERROR_HEADERS, [error_row(e, 60) for e in listed], title="Errors")
    else:
        text = conventions_header(session.options) + render_text(report, listed, selected, n_documents, official,
                                                                 whole=documents is None)
    emit(text, args.output, inputs=session.inputs)
    return 0


def _official(session, weights, documents: list[str] | None) -> float | None:
    """v8.01's CoNLL F1 on the files as given, of the documents analysed (to set beside BCA's)."""
    from metrics.corpus.scoring import aggregate

    result = session.score(weights, (*CONLL.parts, CONLL.name))  # the parts, to sum a selection
    if documents is None:
        return result.micro[CONLL.name].f1
    wanted = set(documents)
    chosen = [(name, scores) for name, scores in result.documents if name in wanted]
    return aggregate(chosen, weights, (CONLL.name,)).micro[CONLL.name].f1 if chosen else None


def counts_json(errors: Sequence[KKError]) -> dict:
    counts = count_kk(errors)
    kinds = shown_types(counts)
    return {kind: {**{t.name: row[t] for t in kinds}, "total": sum(row.values())} for kind, row in counts.items()}


def to_json(report: KKReport, listed: Sequence[KKError], selected: Sequence[KKError], official: float | None) -> dict:
    by_document: dict[str, list[KKError]] = {}
    for error in selected:
        by_document.setdefault(error.document, []).append(error)
    metric = report.metric
    return {
        "taxonomy": "kk",
        "impact_metric": None if metric == "conll" else metric,
        "heads": "parse" if report.parsed else "parse where present, else our mention heads and types",
        **({} if report.parsed else {"heads_without_parse": [HEADS_WITHOUT_PARSE[f] for f in report.fallback]}),
        "reading": report.reading,
        "operations": report.operations,
        "baseline_conll_f1": report.baseline["conll"],
        **({} if metric == "conll" else {f"baseline_{metric}": report.baseline[metric]}),
        "v801_conll_f1": official,
        "progression": [{"category": kind, "conll_f1": values["conll"],
                         **({} if metric == "conll" else {metric: values[metric]})}
                        for kind, values in report.progression],
        "errors": [e.to_json() for e in listed],
        "counts": {"corpus": counts_json(selected),
                   "documents": {name: counts_json(errors) for name, errors in by_document.items()}},
    }


def gain_text(after: float, before: float) -> str:
    """A stage's gain in points (`after`, `before`: fractions) as the difference of the two F1 the
    table shows (each to two decimals), so
    that the column adds up as a reader adds it: from the unrounded values, 61.02 was followed by
    63.86 with a gain of +2.83 on gum-open (the JSON keeps the unrounded values)."""
    return f"{float(f'{100 * after:.2f}') - float(f'{100 * before:.2f}'):+.2f}"


def paper_table(report: KKReport, selected: Sequence[KKError]) -> tuple[list[str], list[list]]:
    """Counts by type and mention type, the CoNLL F1 after each stage and what it gained, in points
    as papers print them (the headers say so: the JSON's are fractions, as every score's)."""
    counts = count_kk(selected)
    kinds = shown_types(counts)
    metric = report.metric
    headers = ["error type", *(t.name for t in kinds), "total", "CoNLL F1 after (points)", "gain"]
    if metric != "conll":
        headers += [f"{label(metric)} after (points)", f"{label(metric)} gain"]
    previous = report.baseline
    rows: list[list] = [["(none corrected)", *("" for _ in kinds), "", f"{100 * previous['conll']:.2f}", "",
                         *([f"{100 * previous[metric]:.2f}", ""] if metric != "conll" else [])]]
    for kind, values in report.progression:
        row = counts[kind]
        cells = [KK_LABELS[kind], *(row[t] for t in kinds), sum(row.values()), f"{100 * values['conll']:.2f}",
                 gain_text(values['conll'], previous['conll'])]
        if metric != "conll":
            cells += [f"{100 * values[metric]:.2f}", gain_text(values[metric], previous[metric])]
        rows.append(cells)
        previous = values
    return headers, rows


ERROR_HEADERS = ["document", "error type", "type", "mentions", "from / into", "key chains", "resp chains"]


def _mention(m, width: int) -> str:
    return mention_text(m.text, m.span[0], m.span[1], width)


def error_row(error: KKError, width: int = 28) -> list[str]:
    if error.target is not None:
        mentions = f"{_mention(error.mentions[0], width)} -> [{error.target.span[0]}-{error.target.span[1]}]"
    else:
        mentions = _mention(error.mentions[0], width) + (f" +{len(error.mentions) - 1}" if len(error.mentions) > 1 else "")
    where = "-" if not error.cluster else \
        f"{'response' if error.side == 'response' else 'key'} cluster of {len(error.cluster)}"
    return [shown_document(error.document), KK_LABELS[error.kind], error.type.letter, mentions, where,
            ",".join(error.key_chains) or "-", ",".join(error.response_chains) or "-"]


def _reading_line(report: KKReport, official: float | None, whole: bool = True) -> list[str]:
    """The reading and both starting scores; `whole` False: `--document` chose the documents
    analysed, and `corefwb score` of the files (the whole corpus) is not the number beside BCA's."""
    reading = report.reading
    notes = []
    if reading.get("duplicate"):
        notes.append(f"{reading['duplicate']:,} repeated span{'' if reading['duplicate'] == 1 else 's'} kept once")
    if reading.get("crossing"):
        notes.append(f"{reading['crossing']:,} mention{'' if reading['crossing'] == 1 else 's'} over a sentence boundary dropped")
    if reading.get("response_singletons"):
        notes.append(f"{reading['response_singletons']:,} response singleton{'' if reading['response_singletons'] == 1 else 's'} removed (--singletons remove: BCA's T)")
    lines = [f"read as BCA reads the files: {'; '.join(notes) if notes else 'nothing left out'}"]
    line = f"CoNLL F1 on that reading {100 * report.baseline['conll']:.2f}"
    if official is not None:
        line += f" (corefwb score on the files as given{'' if whole else ', of these documents'}: {100 * official:.2f})"
    lines.append(line)
    if not report.parsed:
        lines.append(f"heads: the parse column where a sentence has one, else {heads_fallback(report)}")
    return lines


def heads_fallback(report: KKReport) -> str:
    """What K&K's heads came from where a sentence had no parse, and the kinds: said in the
    report's text and in the warning `run` gives once for the key (docs/errors-kk.md)."""
    return (f"{' or '.join(HEADS_WITHOUT_PARSE[f] for f in report.fallback)}, and the mentions' kinds from our "
            f"mention types (docs/errors-kk.md; BCA itself needs a parse)")


def render_text(report: KKReport, listed: Sequence[KKError], selected: Sequence[KKError], n_documents: int,
                official: float | None, *, whole: bool = True) -> str:
    lines = [f"{len(selected)} errors in {n_documents} document(s), as Kummerfeld & Klein (2013) classify them "
             f"(the Berkeley Coreference Analyser's rules)"]
    lines += _reading_line(report, official, whole)
    lines.append("")
    headers, rows = paper_table(report, selected)
    right = set(headers[1:])
    lines += align_rows(headers, [[str(c) for c in row] for row in rows], right=right)
    lines.append("gain: CoNLL F1 points gained by correcting that type after every type above it (BCA's order)")
    lines.append("")
    if len(listed) < len(selected):
        lines.append(f"listing {len(listed)} of {len(selected)} errors")
    lines += align_rows(ERROR_HEADERS, [error_row(e) for e in listed])
    lines.append("")
    lines += [f"{KK_LABELS[kind]}: {KK_DESCRIPTIONS[kind]}" for kind in KK_TYPES]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------ N systems (compare)


def systems_table(names: Sequence[str], reports: Sequence[KKReport]) -> tuple[list[str], list[list[str]]]:
    """One row per type: each system's count and the CoNLL F1 (points) after correcting up to that type."""
    counts = [count_kk(report.errors) for report in reports]
    headers = ["error type"] + [f"{name} {what}" for name in names for what in ("errors", "F1 after")]
    rows = [["(none corrected)"] + [cell for report in reports for cell in ("", f"{100 * report.baseline['conll']:.2f}")]]
    for i, kind in enumerate(KK_TYPES):
        rows.append([KK_LABELS[kind]] + [cell for table, report in zip(counts, reports)
                                          for cell in (str(sum(table[kind].values())),
                                                       f"{100 * report.progression[i][1]['conll']:.2f}")])
    return headers, rows


def systems_json(names: Sequence[str], reports: Sequence[KKReport]) -> list[dict]:
    return [{"name": name, "baseline_conll_f1": report.baseline["conll"], "reading": report.reading,
             "counts": counts_json(report.errors),
             "progression": [{"category": kind, "conll_f1": values["conll"]} for kind, values in report.progression]}
            for name, report in zip(names, reports)]


def systems_csv_rows(names: Sequence[str], reports: Sequence[KKReport]) -> tuple[list[str], list[list]]:
    headers = ["system", "error type", *(t.name for t in MentionType), "total", "conll_f1_after"]
    rows = []
    for name, report in zip(names, reports):
        table = count_kk(report.errors)
        for i, kind in enumerate(KK_TYPES):
            rows.append([name, kind, *(table[kind][t] for t in MentionType), sum(table[kind].values()),
                         report.progression[i][1]["conll"]])
    return headers, rows

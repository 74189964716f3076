"""Scores of one or more systems with their uncertainty and breakdowns, for `score` and `compare`.

One place builds what both commands print: the systems' corpus scores, their intervals and the
differences to the baseline (metrics.statistics.significance), and the group, chain-length and mention-type
breakdowns (metrics.statistics.breakdown); then renders it as text, Markdown, CSV rows or JSON.  The numbers
are the engine's; here they are only arranged.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, field

from metrics.statistics.breakdown import (GENRE_PATTERN, LENGTH_METRICS, OTHER, by_file, genre_of, group_documents,
                                         length_breakdown, read_groups, type_breakdown)
from metrics.measures.catalog import label
from metrics.corpus.scoring import CorpusResult
from metrics.statistics.significance import DEFAULT_CONFIDENCE, DEFAULT_RESAMPLES, DEFAULT_SEED, DEFAULT_TRIALS, Comparison, Method, compare

from ..output import csv_note, score_json, signed_points, single_valued_note
from ..session import Session
from ..options import UsageError

GROUP_BY = ("genre", "file", "length", "type")
MIN_DOCUMENTS = 10
"""Fewer documents than this and a warning says the intervals say little."""
SIGNIFICANT = "*"


def add_uncertainty_arguments(parser: argparse.ArgumentParser, default_resamples: int | None) -> None:
    """The options of intervals and tests.  `default_resamples` None: resamples only with `--ci`
    (`score`), `DEFAULT_RESAMPLES` then unless `--bootstrap` says otherwise (`resamples_option`);
    and no test, since one system has no difference to test: `--test` and `--trials` are
    `compare`'s.  Every default is None here and set by `method_option`, so that an option given
    where it has no effect is told apart and refused (`resamples_option`)."""
    parser.add_argument("--bootstrap", type=int, default=default_resamples, metavar="N",
                        help=f"bootstrap resamples of the documents for intervals and the paired test (default "
                             f"{default_resamples if default_resamples is not None else 'with --ci ' + str(DEFAULT_RESAMPLES)})")
    parser.add_argument("--seed", type=int, help=f"random seed (default {DEFAULT_SEED}): the "
                        "same seed gives the same output, byte for byte")
    parser.add_argument("--confidence", type=float,
                        help="interval level, and 1 - the significance level (default 0.95)")
    if default_resamples is None:
        return
    parser.add_argument("--test", choices=("bootstrap", "ar"),
                        help="p-values by the paired bootstrap (default) or approximate randomization")
    parser.add_argument("--trials", type=int,
                        help=f"approximate randomization trials (default {DEFAULT_TRIALS:,})")


def add_group_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--group-by", choices=GROUP_BY, metavar="BY",
                        help="break scores down: genre (from the document name, --genre-regex, or --groups), file "
                             "(source file: parts of a document together), length (key chain length buckets: "
                             "recall), type (mention type: detection and linking)")
    parser.add_argument("--genre-regex", metavar="RE",
                        help="the genre in a document name: a group named genre, else the first group (default "
                             "fits bc/cnn/00/cnn_0001 and GUM_news_xyz)")
    parser.add_argument("--groups", metavar="TSV", help="a table of document and group for --group-by genre "
                        "(a header row starting doc or document may name columns)")
    parser.add_argument("--groups-column", metavar="NAME", help="the --groups column to group by (default the second)")


def check_group_options(args: argparse.Namespace) -> None:
    """`--groups` and `--genre-regex` are read by `--group-by genre` alone (the regex only without
    a table), `--groups-column` by `--groups`: given without them they were ignored without a
    word, and the scores came without their groups."""
    if args.genre_regex is not None and args.groups:
        raise UsageError("--genre-regex: the --groups table gives the groups instead; give one of them")
    if args.genre_regex is not None and args.group_by != "genre":
        raise UsageError("--genre-regex: finds the groups of --group-by genre in document names; add --group-by genre")
    if args.groups and args.group_by != "genre":
        raise UsageError("--groups: the table gives the groups of --group-by genre; add --group-by genre")
    if args.groups_column and not args.groups:
        raise UsageError("--groups-column: names a column of the --groups table; give --groups TSV")


def files_read(args: argparse.Namespace, inputs: Sequence[str]) -> list[str]:
    """Every file a report reads, which its `--output` must never overwrite: the key and the
    responses, and the `--groups` table (an output onto it replaced it with the scores)."""
    return [*inputs, *([args.groups] if getattr(args, "groups", None) else [])]


def resamples_option(args: argparse.Namespace) -> int | None:
    """`score`'s resamples: `--bootstrap` as given with `--ci` (0 is refused by `Method`, not
    taken as the default), `DEFAULT_RESAMPLES` without it; `--bootstrap` without `--ci` is a usage
    error (it was ignored without a word)."""
    if not args.ci:
        if args.bootstrap is not None:
            raise UsageError("--bootstrap: resamples for --ci's intervals; add --ci")
        if args.seed is not None:
            raise UsageError("--seed: the seed of --ci's resamples; add --ci")
        if args.confidence is not None:
            raise UsageError("--confidence: the level of --ci's intervals; add --ci")
        return None
    return DEFAULT_RESAMPLES if args.bootstrap is None else args.bootstrap


def method_option(args: argparse.Namespace, resamples: int | None = None) -> Method:
    try:
        return Method(resamples=resamples if resamples is not None else args.bootstrap,
                      confidence=DEFAULT_CONFIDENCE if args.confidence is None else args.confidence,
                      seed=DEFAULT_SEED if args.seed is None else args.seed,
                      test=getattr(args, "test", None) or "bootstrap",
                      trials=DEFAULT_TRIALS if getattr(args, "trials", None) is None else args.trials)
    except ValueError as exc:
        raise UsageError(f"--bootstrap/--confidence/--trials/--seed: {exc}") from None


@dataclass
class Report:
    """Everything `score` and `compare` print about N systems (one for `score`)."""

    names: list[str]
    paths: list[str]
    results: list[CorpusResult]
    metrics: tuple[str, ...]
    comparison: Comparison | None
    group_by: str | None = None
    groups: list[list] = field(default_factory=list)
    """Per system: metrics.statistics.breakdown's groups, length buckets or type rows."""
    grouped_as: str | None = None
    """What the groups are, for titles: `genre`, `file`, or a table's column (`--groups-column`)."""


def build_report(session: Session | None, paths: list[str], names: list[str], results: list[CorpusResult], *,
                 metrics: tuple[str, ...], method: Method | None, args: argparse.Namespace) -> Report:
    """The report of the systems' results; the length and type breakdowns need the session's
    prepared corpora (`score --stream` has none: it keeps per-document scores only)."""
    comparison = compare(results, metrics, method) if method is not None else None
    if comparison is not None and comparison.documents < MIN_DOCUMENTS:
        from .common import warn

        warn(f"{comparison.documents} document(s): intervals and tests resample documents, and so few say "
             f"little (p-values need at least 2; see the README)")
    report = Report(names, paths, results, metrics, comparison, args.group_by)
    report.grouped_as = (args.groups_column or "group") if args.group_by == "genre" and args.groups else args.group_by
    if args.group_by in ("length", "type") and session is None:
        raise UsageError(f"--group-by {args.group_by} needs the documents: it does not combine with --stream")
    if args.group_by in ("genre", "file"):
        if args.group_by == "file":
            group_of = by_file
        elif args.groups:
            group_of = read_groups(args.groups, args.groups_column)
        else:
            try:
                group_of = genre_of(GENRE_PATTERN if args.genre_regex is None else args.genre_regex)
            except ValueError as exc:
                raise UsageError(f"--genre-regex: {exc}") from None
        report.groups = [group_documents(result, group_of) for result in results]
        if args.groups and args.group_by == "genre" and all(g.name == OTHER for gs in report.groups for g in gs):
            from .common import warn

            warn(f"{args.groups}: the table lists no document of the key: every one is in {OTHER}")
    elif args.group_by == "length":
        report.groups = [length_breakdown(corpus) for corpus in session.corpora]
    elif args.group_by == "type":
        report.groups = [type_breakdown(corpus) for corpus in session.corpora]
    return report


def pct(x: float) -> str:
    return f"{100 * x:.2f}"


def value_cell(report: Report, system: int, metric: str) -> str:
    """A system's corpus F1 in %, with ± half its interval and the significance mark."""
    value = report.results[system].micro[metric].f1
    text = pct(value)
    c = report.comparison
    if c is not None:
        text += f" ± {100 * c.intervals[system][metric].half_width:.2f}"
        if system and c.significant(system, metric):
            text += SIGNIFICANT
    return text


def method_note(report: Report, bounds: bool = False) -> str:
    """How the intervals were made, named as the table shows them: `± x` (half the width:
    `compare`) or, with `bounds`, `[low, high]` (`score --ci`)."""
    c = report.comparison
    if c is None:
        return "corpus scores micro-averaged (official)"
    m = c.method
    test = "paired bootstrap" if m.test == "bootstrap" else f"approximate randomization ({m.trials:,} trials)"
    level = f"{100 * m.confidence:g}%"
    shown = "[low, high]: the" if bounds else "± half the width of the"
    note = (f"{shown} {level} percentile bootstrap interval over documents "
            f"({m.resamples:,} resamples, seed {m.seed})")
    if len(report.names) > 1:
        note += f"; {SIGNIFICANT} p < {1 - m.confidence:.2g} against {report.names[0]} ({test})"
    return note


def systems_table(report: Report) -> tuple[list[str], list[list[str]]]:
    """Systems as rows, metrics as columns: the table for a paper."""
    headers = ["system"] + [label(m) for m in report.metrics]
    rows = [[name] + [value_cell(report, s, m) for m in report.metrics] for s, name in enumerate(report.names)]
    return headers, rows


def differences_table(report: Report) -> tuple[list[str], list[list[str]]]:
    """Metrics as rows: each system's difference to the baseline, its interval and p-value."""
    c = report.comparison
    headers = ["metric"]
    for name in report.names[1:]:
        headers += [f"{name} - {report.names[0]}", "interval", "p"]
    rows = []
    for m in report.metrics:
        row = [label(m)]
        for s in range(1, len(report.names)):
            d = c.differences[s - 1][m]
            row += [signed_points(100 * d.value, 2) + (SIGNIFICANT if c.significant(s, m) else ""),
                    f"[{signed_points(100 * d.interval.low, 2)}, {signed_points(100 * d.interval.high, 2)}]",
                    "n/a" if d.p_value is None else f"{d.p_value:.4f}"]
        rows.append(row)
    return headers, rows


def group_tables(report: Report) -> list[tuple[str, list[str], list[list[str]]]]:
    """The breakdown as (title, headers, rows) tables, for text and Markdown."""
    if not report.groups:
        return []
    if report.group_by in ("genre", "file"):
        headers = ["group", "documents", "system"] + [label(m) for m in report.metrics]
        rows = []
        for at, group in enumerate(report.groups[0]):
            for s, (name, per_system) in enumerate(zip(report.names, report.groups)):
                g = per_system[at]
                rows.append([group.name if s == 0 else "", str(len(group.documents)) if s == 0 else "", name]
                            + [f"{pct(g.result.micro[m].f1)} ({pct(g.result.macro[m].f1)})" for m in report.metrics])
        return [(f"F1 (%) by {report.grouped_as or report.group_by}: micro (macro)", headers, rows)]
    if report.group_by == "length":
        headers = ["system", "chain length", "chains", "mentions"] + [f"{label(m)} R" for m in LENGTH_METRICS]
        rows = [[name, b.label, str(b.chains), str(b.mentions)] + [pct(b.recall[m].recall) for m in LENGTH_METRICS]
                for name, buckets in zip(report.names, report.groups) for b in buckets]
        empty = [f"{label(m)} R at length {b.label}" for b in report.groups[0] for m in LENGTH_METRICS
                 if b.recall[m].recall_den == 0]
        return [("recall by key chain length (not official metrics)" + _uncounted(empty), headers, rows)]
    headers = ["system", "type", "detection R", "detection P", "linking R", "linking P", "anaphors (key)"]
    rows = [[name, row.type.name, pct(row.detection.recall), pct(row.detection.precision), pct(row.linking.recall),
             pct(row.linking.precision), str(int(row.linking.recall_den))]
            for name, rows_of in zip(report.names, report.groups) for row in rows_of]
    empty = list(dict.fromkeys(
        f"{row.type.name} {what} {side}" for rows_of in report.groups for row in rows_of
        for what, score in (("detection", row.detection), ("linking", row.linking))
        for side, den in (("R", score.recall_den), ("P", score.precision_den)) if den == 0))
    return [("mention detection and linking by mention type (not official metrics)" + _uncounted(empty), headers, rows)]


def _uncounted(cells: Sequence[str]) -> str:
    """Said in a breakdown's title for its cells with nothing to count (0/0: a chain of one
    mention has no link for MUC to find, a type no anaphor has), whose 0.00 would read as a
    system that found nothing."""
    return f"; nothing to count (0/0), printed 0.00: {', '.join(cells)}" if cells else ""


def report_json(report: Report) -> dict:
    """{"systems", "metrics", "intervals", "differences", "groups", "method"} (see the README)."""
    c = report.comparison
    out: dict = {
        "systems": [{"name": n, "path": p, "baseline": i == 0} for i, (n, p) in enumerate(zip(report.names, report.paths))],
        "metrics": {m: {n: score_json(r.micro[m]) for n, r in zip(report.names, report.results)} for m in report.metrics},
    }
    if c is not None:
        out["intervals"] = {m: {n: {"low": c.intervals[s][m].low, "high": c.intervals[s][m].high}
                                for s, n in enumerate(report.names)} for m in report.metrics}
        out["differences"] = {m: {n: {"value": d[m].value, "low": d[m].interval.low, "high": d[m].interval.high,
                                      "p_value": d[m].p_value, "significant": c.significant(s + 1, m)}
                                  for s, (n, d) in enumerate(zip(report.names[1:], c.differences))}
                              for m in report.metrics}
    if report.groups:
        out["groups"] = groups_json(report)
    # a test ran only where there is a difference to test: `score --ci` (one system) bootstraps intervals alone
    out["method"] = c.method.to_json(tested=len(report.names) > 1) if c is not None else None
    return out


def groups_json(report: Report) -> dict:
    by = report.group_by
    if by in ("genre", "file"):
        return {"by": by, "groups": [
            {"name": g.name, "documents": g.documents,
             "metrics": {m: {n: {"micro": score_json(per[at].result.micro[m]), "macro": score_json(per[at].result.macro[m])}
                             for n, per in zip(report.names, report.groups)} for m in report.metrics}}
            for at, g in enumerate(report.groups[0])]}
    if by == "length":
        return {"by": by, "official": False, "buckets": {n: [
            {"length": b.label, "chains": b.chains, "mentions": b.mentions,
             "recall": {m: {"recall": s.recall, "counts": [s.recall_num, s.recall_den]} for m, s in b.recall.items()}}
            for b in buckets] for n, buckets in zip(report.names, report.groups)}}
    return {"by": by, "official": False, "types": {n: [
        {"type": row.type.name, "detection": score_json(row.detection), "linking": score_json(row.linking)}
        for row in rows] for n, rows in zip(report.names, report.groups)}}


def csv_tables(report: Report) -> list[tuple[list[str], list[list]]]:
    """The report as CSV tables (full precision): scores with intervals and differences, then groups.
    Every table of a metric's F1 ends with `note` (`output.csv_note`, as `SCORE_CSV_COLUMNS`'): where
    f1 holds a single value."""
    c = report.comparison
    headers = ["system", "metric", "recall", "precision", "f1", "low", "high", "difference", "difference_low",
               "difference_high", "p_value", "note"]
    rows = []
    for s, (name, result) in enumerate(zip(report.names, report.results)):
        for m in report.metrics:
            score = result.micro[m]
            row = [name, m, score.recall, score.precision, score.f1]
            if c is not None:
                row += [c.intervals[s][m].low, c.intervals[s][m].high]
                if s:
                    d = c.differences[s - 1][m]
                    row += [d.value, d.interval.low, d.interval.high,
                            "" if d.p_value is None else d.p_value]
            rows.append(row + [""] * (len(headers) - 1 - len(row)) + [csv_note(m)])
    tables = [(headers, rows)]
    if report.group_by in ("genre", "file") and report.groups:
        tables.append((["system", "group", "documents", "metric", "micro_f1", "macro_f1", "note"],
                       [[n, g.name, len(g.documents), m, g.result.micro[m].f1, g.result.macro[m].f1, csv_note(m)]
                        for n, groups in zip(report.names, report.groups) for g in groups for m in report.metrics]))
    elif report.group_by == "length":
        tables.append((["system", "length", "chains", "mentions", "metric", "recall", "recall_num", "recall_den"],
                       [[n, b.label, b.chains, b.mentions, m, s.recall, s.recall_num, s.recall_den]
                        for n, buckets in zip(report.names, report.groups) for b in buckets
                        for m, s in b.recall.items()]))
    elif report.group_by == "type":
        tables.append((["system", "type", "detection_recall", "detection_precision", "linking_recall",
                        "linking_precision"],
                       [[n, r.type.name, r.detection.recall, r.detection.precision,
                         r.linking.recall, r.linking.precision]
                        for n, rows_of in zip(report.names, report.groups) for r in rows_of]))
    return tables

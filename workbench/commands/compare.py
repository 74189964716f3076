"""`corefwb compare KEY RESPONSE_A RESPONSE_B`: what changed between two systems, mention by mention.

Both responses are classified against the same key (metrics.errors.records); a mention's category under A
and under B (or none) tells whether B fixed an error of A, introduced one, or changed its kind.
The scores of both are shown side by side, so a change of a number can be traced to mentions.
"""

from __future__ import annotations

import argparse
import json

from metrics.catalog import label
from metrics.errors.records import CATEGORIES, Category, ErrorRecord
from metrics.model import MentionType

from ..output import align_rows, emit, percent, render_csv as csv_table, render_markdown as table, score_json
from ..session import limit_option, weights_option
from .common import load_session


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("key", help="key (gold) file")
    parser.add_argument("response_a", help="response of system A")
    parser.add_argument("response_b", help="response of system B")
    parser.add_argument("--document", action="append", metavar="D",
                        help="only this document (repeatable): its full name, e.g. \"(GUM_news_korea); part 000\", "
                             "or the short name the workbench shows (GUM_news_korea) when it is unambiguous")
    parser.add_argument("--limit", type=int, metavar="N", help="list at most N changed mentions (tables cover all)")
    parser.add_argument("--format", choices=("text", "json", "csv", "markdown"), default="text")
    parser.add_argument("--output", metavar="FILE", help="write the result to FILE (atomically) instead of stdout")


def _category(record: ErrorRecord | None) -> Category | None:
    return record.category if record is not None else None


def compare_records(a: list[ErrorRecord], b: list[ErrorRecord]) -> list[tuple[ErrorRecord | None, ErrorRecord | None]]:
    """Every mention with an error under A or B: (record under A, record under B), document order."""
    by_a = {(r.document, r.span): r for r in a}
    by_b = {(r.document, r.span): r for r in b}
    order = {name: i for i, name in enumerate(dict.fromkeys([r.document for r in a] + [r.document for r in b]))}
    keys = sorted(set(by_a) | set(by_b), key=lambda k: (order[k[0]], k[1]))
    return [(by_a.get(k), by_b.get(k)) for k in keys]


def change_of(ra: ErrorRecord | None, rb: ErrorRecord | None) -> str:
    """'fixed' (error under A only), 'introduced' (B only), 'changed' (other category), 'same'."""
    if rb is None:
        return "fixed"
    if ra is None:
        return "introduced"
    return "same" if ra.category is rb.category else "changed"


def summary(pairs: list[tuple[ErrorRecord | None, ErrorRecord | None]]) -> dict:
    """Counts of fixed / introduced errors by category x type, of category changes A -> B by type,
    and of errors both make in the same category."""
    fixed = {c: {t: 0 for t in MentionType} for c in CATEGORIES}
    introduced = {c: {t: 0 for t in MentionType} for c in CATEGORIES}
    changed: dict[tuple[Category, Category], dict[MentionType, int]] = {}
    same = {c: 0 for c in CATEGORIES}
    for ra, rb in pairs:
        kind = change_of(ra, rb)
        if kind == "fixed":
            fixed[ra.category][ra.mention.type] += 1
        elif kind == "introduced":
            introduced[rb.category][rb.mention.type] += 1
        elif kind == "changed":
            row = changed.setdefault((ra.category, rb.category), {t: 0 for t in MentionType})
            row[ra.mention.type] += 1
        else:
            same[ra.category] += 1
    return {"fixed": fixed, "introduced": introduced, "changed": changed, "same": same}


def run(args: argparse.Namespace) -> int:
    limit = limit_option(args.limit)
    weights = weights_option(args.weights)
    session = load_session(args, [args.response_a, args.response_b])
    documents = session.select_documents(args.document)
    records = [session.classify(weights, documents, system) for system in range(2)]
    scores = [session.score(weights, system=system).micro for system in range(2)]
    rows = compare_records(records[0], records[1])
    changes = [(ra, rb) for ra, rb in rows if change_of(ra, rb) != "same"]
    listed = changes if limit is None else changes[:limit]
    if args.format == "json":
        text = json.dumps(to_json(rows, listed, len(changes), scores, weights), indent=1) + "\n"
    elif args.format == "csv":
        text = render_csv(listed, scores)
    elif args.format == "markdown":
        text = render_markdown(rows, listed, len(changes), scores, weights, (args.response_a, args.response_b))
    else:
        text = render_text(rows, listed, len(changes), scores, weights, (args.response_a, args.response_b))
    emit(text, args.output, inputs=session.inputs)
    return 0


def _mention(ra: ErrorRecord | None, rb: ErrorRecord | None) -> ErrorRecord:
    return ra if ra is not None else rb  # type: ignore[return-value]


def to_json(rows, listed, n_changes: int, scores, weights) -> dict:
    """The summary tables over every mention; `mentions` lists the changed ones, as the text does,
    at most `--limit` of them (`mentions_total` says how many there are)."""
    s = summary(rows)

    def table(counts):
        return {c.value: {t.name: n for t, n in row.items()} for c, row in counts.items()}

    return {
        "weights": list(weights),
        "scores": {"a": {m: score_json(v) for m, v in scores[0].items()},
                   "b": {m: score_json(v) for m, v in scores[1].items()}},
        "fixed": table(s["fixed"]),
        "introduced": table(s["introduced"]),
        "changed": [{"a": ca.value, "b": cb.value, "count": sum(row.values()),
                     "types": {t.name: n for t, n in row.items()}}
                    for (ca, cb), row in sorted(s["changed"].items(), key=lambda kv: (kv[0][0].value, kv[0][1].value))],
        "unchanged": {c.value: n for c, n in s["same"].items()},
        "mentions_total": n_changes,
        "mentions": [
            {"document": _mention(ra, rb).document, "mention": _mention(ra, rb).mention.to_json(),
             "a": _category(ra).value if ra else None, "b": _category(rb).value if rb else None,
             "change": change_of(ra, rb)}
            for ra, rb in listed
        ],
    }


def render_csv(listed, scores) -> str:
    """Two CSV tables, a blank line apart (as the workbench's report): the corpus scores of A and
    B at full precision, then the changed mentions (at most `--limit`)."""
    score_rows = [[name, *(repr(getattr(side[name], part)) for side in scores for part in ("recall", "precision", "f1"))]
                  for name in scores[0] if name in scores[1]]
    head = csv_table(["metric", "a_recall", "a_precision", "a_f1", "b_recall", "b_precision", "b_f1"], score_rows)
    return head + "\n" + csv_table(
        ["document", "start", "end", "text", "type", "category_a", "category_b", "change"],
        [[_mention(ra, rb).document, *_mention(ra, rb).span, _mention(ra, rb).mention.text,
          _mention(ra, rb).mention.type.name, ra.category.value if ra else "",
          rb.category.value if rb else "", change_of(ra, rb)] for ra, rb in listed])


def sections(rows, listed, n_changes, scores) -> list[tuple[str, list[str], list[list[str]], set[str]]]:
    """The report as (title, headers, rows, right-aligned columns), rendered as text or Markdown."""
    s = summary(rows)
    out = []
    score_rows = []
    for name, a in scores[0].items():
        if name in scores[1]:
            b = scores[1][name]
            score_rows.append([label(name), percent(a.recall), percent(a.precision), percent(a.f1),
                               percent(b.recall), percent(b.precision), percent(b.f1), f"{100 * (b.f1 - a.f1):+.2f}"])
    numeric = {"A R", "A P", "A F1", "B R", "B P", "B F1", "B-A F1"}
    out.append(("scores (%, corpus micro-averaged)", ["metric", "A R", "A P", "A F1", "B R", "B P", "B F1", "B-A F1"],
                score_rows, numeric))
    cat_rows = []
    for c in CATEGORIES:
        fixed, intro = s["fixed"][c], s["introduced"][c]
        cat_rows.append([c.label] + [str(fixed[t]) for t in MentionType] + [str(sum(fixed.values()))]
                        + [str(intro[t]) for t in MentionType] + [str(sum(intro.values())), str(s["same"][c])])
    out.append(("errors of A fixed by B, errors introduced by B (by mention type), and errors both make",
                ["category", "fixed N", "M", "P", "total", "introduced N", "M", "P", "total", "both"],
                cat_rows, {"fixed N", "M", "P", "total", "introduced N", "both"}))
    if s["changed"]:
        rows_changed = sorted(s["changed"].items(), key=lambda kv: -sum(kv[1].values()))
        out.append(("mentions whose error changed category (A -> B)", ["A", "B", "N", "M", "P", "total"],
                    [[ca.label, cb.label] + [str(row[t]) for t in MentionType] + [str(sum(row.values()))]
                     for (ca, cb), row in rows_changed], {"N", "M", "P", "total"}))
    mention_rows = []
    for ra, rb in listed:
        m = _mention(ra, rb)
        span = f"[{m.span[0]}-{m.span[1]}]"
        text = m.mention.text if len(m.mention.text) <= 30 else m.mention.text[:29] + "…"
        mention_rows.append([m.document, f"{text} {span}", m.mention.type.letter,
                             ra.category.label if ra else "-", rb.category.label if rb else "-", change_of(ra, rb)])
    title = (f"listing {len(listed)} of {n_changes} mentions whose category differs" if len(listed) < n_changes
             else f"{n_changes} mentions whose category differs")
    out.append((title, ["document", "mention", "type", "A", "B", "change"], mention_rows, set()))
    return out


def render_text(rows, listed, n_changes, scores, weights, paths) -> str:
    w = weights
    lines = [f"A = {paths[0]}", f"B = {paths[1]}",
             f"link weights nam={w.nam:g} nom={w.nom:g} pro={w.pro:g} sing={w.sing:g}", ""]
    for title, headers, table_rows, right in sections(rows, listed, n_changes, scores):
        lines.append(title)
        lines += align_rows(headers, table_rows, right=right)
        lines.append("")
    return "\n".join(lines)


def render_markdown(rows, listed, n_changes, scores, weights, paths) -> str:
    w = weights
    head = (f"A = `{paths[0]}`, B = `{paths[1]}`; link weights nam={w.nam:g} nom={w.nom:g} pro={w.pro:g} "
            f"sing={w.sing:g}\n\n")
    return head + "\n".join(table(headers, table_rows, title=title)
                             for title, headers, table_rows, _ in sections(rows, listed, n_changes, scores))

"""What changed between a baseline and another system, mention by mention.

Both responses are classified against the same key (metrics.errors.records); a mention's category
under the baseline (A) and under the other system (B), or none, tells whether B fixed an error of A,
introduced one, or changed its kind.  `corefwb compare` reports this for every system against the
baseline, beside the scores, so a change of a number can be traced to mentions.
"""

from __future__ import annotations

from metrics.errors.records import CATEGORIES, Category, ErrorRecord
from metrics.model import MentionType

Pairs = list[tuple[ErrorRecord | None, ErrorRecord | None]]


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


def _mention(ra: ErrorRecord | None, rb: ErrorRecord | None) -> ErrorRecord:
    return ra if ra is not None else rb  # type: ignore[return-value]


def changes_json(rows: Pairs, listed: Pairs, n_changes: int) -> dict:
    """The summary tables over every mention; `mentions` lists the changed ones, at most `--limit`
    of them (`mentions_total` says how many there are)."""
    s = summary(rows)

    def table(counts):
        return {c.value: {t.name: n for t, n in row.items()} for c, row in counts.items()}

    return {
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


CSV_COLUMNS = ["baseline", "system", "document", "start", "end", "text", "type", "category_a", "category_b", "change"]


def changes_csv_rows(baseline: str, system: str, listed: Pairs) -> list[list]:
    return [[baseline, system, _mention(ra, rb).document, *_mention(ra, rb).span, _mention(ra, rb).mention.text,
             _mention(ra, rb).mention.type.name, ra.category.value if ra else "",
             rb.category.value if rb else "", change_of(ra, rb)] for ra, rb in listed]


def changes_sections(rows: Pairs, listed: Pairs, n_changes: int, a: str, b: str) -> list[tuple[str, list[str], list[list[str]], set[str]]]:
    """The mention-level report of B against A as (title, headers, rows, right-aligned columns)."""
    s = summary(rows)
    out = []
    cat_rows = []
    for c in CATEGORIES:
        fixed, intro = s["fixed"][c], s["introduced"][c]
        cat_rows.append([c.label] + [str(fixed[t]) for t in MentionType] + [str(sum(fixed.values()))]
                        + [str(intro[t]) for t in MentionType] + [str(sum(intro.values())), str(s["same"][c])])
    out.append((f"errors of {a} fixed by {b}, errors introduced by {b} (by mention type), and errors both make",
                ["category", "fixed N", "M", "P", "total", "introduced N", "M", "P", "total", "both"],
                cat_rows, {"fixed N", "M", "P", "total", "introduced N", "both"}))
    if s["changed"]:
        rows_changed = sorted(s["changed"].items(), key=lambda kv: -sum(kv[1].values()))
        out.append((f"mentions whose error changed category ({a} -> {b})", [a, b, "N", "M", "P", "total"],
                    [[ca.label, cb.label] + [str(row[t]) for t in MentionType] + [str(sum(row.values()))]
                     for (ca, cb), row in rows_changed], {"N", "M", "P", "total"}))
    mention_rows = []
    for ra, rb in listed:
        m = _mention(ra, rb)
        span = f"[{m.span[0]}-{m.span[1]}]"
        text = m.mention.text if len(m.mention.text) <= 30 else m.mention.text[:29] + "…"
        mention_rows.append([m.document, f"{text} {span}", m.mention.type.letter,
                             ra.category.label if ra else "-", rb.category.label if rb else "-", change_of(ra, rb)])
    title = (f"listing {len(listed)} of {n_changes} mentions whose category differs ({a} -> {b})"
             if len(listed) < n_changes else f"{n_changes} mentions whose category differs ({a} -> {b})")
    out.append((title, ["document", "mention", "type", a, b, "change"], mention_rows, set()))
    return out

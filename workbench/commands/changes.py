"""What changed between a baseline and another system, mention by mention, as `corefwb compare`
reports it (JSON, CSV, text tables).  What a change is, is defined once in `workbench.comparison`
(the workbench's compare mode shows the same).
"""

from __future__ import annotations

from metrics.errors.chen_ng.records import CATEGORIES

from ..comparison import Pairs, change_of, either_record, summary
from ..error_rows import mention_text
from ..output import shown_document


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
            {"document": m.document, "mention": m.mention.to_json(),
             "a": ra.category.value if ra else None, "b": rb.category.value if rb else None,
             "change": change_of(ra, rb)}
            for ra, rb in listed for m in (either_record(ra, rb),)
        ],
    }


CSV_COLUMNS = ["baseline", "system", "document", "start", "end", "text", "type", "category_a", "category_b", "change"]


def changes_csv_rows(baseline: str, system: str, listed: Pairs) -> list[list]:
    """The listed mentions' rows of `CSV_COLUMNS` (the mention as either system's record has it)."""
    return [[baseline, system, m.document, *m.span, m.mention.text, m.mention.type.name,
             ra.category.value if ra else "", rb.category.value if rb else "", change_of(ra, rb)]
            for ra, rb in listed for m in (either_record(ra, rb),)]


def changes_sections(rows: Pairs, listed: Pairs, n_changes: int, baseline: str,
                     system: str) -> list[tuple[str, list[str], list[list[str]], set[str]]]:
    """The mention-level report of `system` against `baseline` as (title, headers, rows, right-aligned columns)."""
    counted = summary(rows)
    out = []
    cat_rows = []
    kinds = list(counted["fixed"][CATEGORIES[0]])
    letters = [t.letter for t in kinds]
    for c in CATEGORIES:
        fixed, intro = counted["fixed"][c], counted["introduced"][c]
        cat_rows.append([c.label] + [str(fixed[t]) for t in kinds] + [str(sum(fixed.values()))]
                        + [str(intro[t]) for t in kinds] + [str(sum(intro.values())), str(counted["same"][c])])
    out.append((f"errors of {baseline} fixed by {system}, errors introduced by {system} (by mention type), "
                f"and errors both make",
                ["category", f"fixed {letters[0]}", *letters[1:], "total", f"introduced {letters[0]}", *letters[1:],
                 "total", "both"],
                cat_rows, {f"fixed {letters[0]}", *letters[1:], "total", f"introduced {letters[0]}", "both"}))
    if counted["changed"]:
        rows_changed = sorted(counted["changed"].items(), key=lambda kv: -sum(kv[1].values()))
        out.append((f"mentions whose error changed category ({baseline} -> {system})",
                    [baseline, system, *letters, "total"],
                    [[ca.label, cb.label] + [str(row[t]) for t in kinds] + [str(sum(row.values()))]
                     for (ca, cb), row in rows_changed], {*letters, "total"}))
    mention_rows = []
    for ra, rb in listed:
        m = either_record(ra, rb)
        mention_rows.append([shown_document(m.document), mention_text(m.mention.text, *m.span, 30), m.mention.type.letter,
                             ra.category.label if ra else "-", rb.category.label if rb else "-", change_of(ra, rb)])
    title = (f"listing {len(listed)} of {n_changes} mentions whose category differs ({baseline} -> {system})"
             if len(listed) < n_changes else f"{n_changes} mentions whose category differs ({baseline} -> {system})")
    out.append((title, ["document", "mention", "type", baseline, system, "change"], mention_rows, set()))
    return out

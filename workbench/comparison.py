"""Two systems against one key, mention by mention and document by document: one definition for
`corefwb compare` and the workbench's compare mode.

Both responses are classified against the same key (metrics.errors.chen_ng.records); a mention's category
under the baseline (A) and under the other system (B), or none, tells whether B fixed an error of A,
introduced one, or changed its kind.  Per document, the change of CoNLL F1 (B - A) orders the
documents, and the documents where the systems differ most are marked, so a change of the corpus
number can be traced to documents, then to mentions.  Nothing here imports textual.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from metrics.errors.chen_ng.records import CATEGORIES, Category, ErrorRecord, Mention
from metrics.model import MentionType, Span

ChangeKind = Literal["fixed", "introduced", "changed", "same"]
CHANGES: tuple[ChangeKind, ...] = ("fixed", "introduced", "changed", "same")
CHANGE_MARKS: dict[ChangeKind, str] = {"fixed": "+", "introduced": "!", "changed": "~", "same": ""}
"""A character per change, after a mention's label in the text: the change reads without colour."""

Pairs = list[tuple[ErrorRecord | None, ErrorRecord | None]]


def compare_records(a: list[ErrorRecord], b: list[ErrorRecord]) -> Pairs:
    """Every mention with an error under A or B: (record under A, record under B), document order."""
    by_a = {(r.document, r.span): r for r in a}
    by_b = {(r.document, r.span): r for r in b}
    order = {name: i for i, name in enumerate(dict.fromkeys([r.document for r in a] + [r.document for r in b]))}
    keys = sorted(set(by_a) | set(by_b), key=lambda k: (order[k[0]], k[1]))
    return [(by_a.get(k), by_b.get(k)) for k in keys]


def change_of(ra: ErrorRecord | None, rb: ErrorRecord | None) -> ChangeKind:
    """'fixed' (error under A only), 'introduced' (B only), 'changed' (other category), 'same'."""
    if rb is None:
        return "fixed"
    if ra is None:
        return "introduced"
    return "same" if ra.category is rb.category else "changed"


def summary(pairs: Pairs) -> dict:
    """Counts of fixed / introduced errors by category x type, of category changes A -> B by type,
    and of errors both make in the same category.  ZERO is among the types only when a mention
    of the pairs is a zero."""
    kinds = [t for t in MentionType if t != MentionType.ZERO
             or any(r is not None and r.mention.type == t for pair in pairs for r in pair)]
    fixed = {c: {t: 0 for t in kinds} for c in CATEGORIES}
    introduced = {c: {t: 0 for t in kinds} for c in CATEGORIES}
    changed: dict[tuple[Category, Category], dict[MentionType, int]] = {}
    same = {c: 0 for c in CATEGORIES}
    for ra, rb in pairs:
        kind = change_of(ra, rb)
        if kind == "fixed":
            fixed[ra.category][ra.mention.type] += 1
        elif kind == "introduced":
            introduced[rb.category][rb.mention.type] += 1
        elif kind == "changed":
            row = changed.setdefault((ra.category, rb.category), {t: 0 for t in kinds})
            row[ra.mention.type] += 1
        else:
            same[ra.category] += 1
    return {"fixed": fixed, "introduced": introduced, "changed": changed, "same": same}


@dataclass(frozen=True)
class Change:
    """A mention with an error under A, B or both: what the compare mode's error list shows.

    It reads as an error record (category, mention, antecedents, cost, impact are those of B's
    record, or of A's when B fixed it), so the list's filters and the text's emphasis serve both modes."""

    a: ErrorRecord | None
    b: ErrorRecord | None

    @property
    def kind(self) -> ChangeKind:
        return change_of(self.a, self.b)

    @property
    def record(self) -> ErrorRecord:
        if self.b is not None:
            return self.b
        assert self.a is not None, "a changed error is on one side at least"
        return self.a

    @property
    def category(self) -> Category:
        return self.record.category

    @property
    def mention(self) -> Mention:
        return self.record.mention

    @property
    def span(self) -> Span:
        return self.record.mention.span

    @property
    def antecedent(self) -> Mention | None:
        return self.record.antecedent

    @property
    def best_antecedent(self) -> Mention | None:
        return self.record.best_antecedent

    @property
    def cost(self) -> float | None:
        return self.record.cost

    @property
    def impact(self) -> float | None:
        """The impact of the shown record's fix (B's error, or A's error that B fixed)."""
        return self.record.impact


def document_changes(a: list[ErrorRecord], b: list[ErrorRecord], kind: ChangeKind | None = None) -> list[Change]:
    """The changes of one document in text order, of one kind (None: every mention with an error)."""
    changes = [Change(ra, rb) for ra, rb in compare_records(a, b)]
    return changes if kind is None else [c for c in changes if c.kind == kind]


def changed_spans(changes: list[Change]) -> dict[Span, ChangeKind]:
    """Span -> its change, for the mentions whose category changed (the text tints them)."""
    return {c.span: c.kind for c in changes if c.kind != "same"}


# ------------------------------------------------------------------------------------ documents

MARKED_SHARE = 0.1
"""The share of documents marked as those where the systems differ most."""


Scored = Sequence[tuple[str, dict[str, Any]]]
"""Per-document scores as a `CorpusResult` holds them: (name, metric -> score)."""


def document_deltas(baseline: Scored, system: Scored, metric: str = "conll") -> dict[str, float]:
    """Document name -> the change of its F1 in points (system - baseline), in the key's order."""
    base = dict(baseline)
    out = {}
    for name, scores in system:
        if metric in scores and metric in base.get(name, {}):
            out[name] = 100 * (scores[metric].f1 - base[name][metric].f1)
    return out


def most_different(deltas: dict[str, float], share: float = MARKED_SHARE) -> set[str]:
    """The documents whose |change| is among the largest `share` of them (at least one when any
    changed; never an unchanged one): the ones to open first."""
    moved = sorted((abs(d), name) for name, d in deltas.items() if abs(d) >= 0.005)
    if not moved:
        return set()
    count = max(1, math.ceil(share * len(deltas)))
    return {name for _, name in moved[-count:]}

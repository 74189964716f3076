"""Per-mention error records: why a response scores what it scores, one mention at a time.

A reader goes through errors one by one, so every mention yields at most one record and the
categories are exact (docs/errors.md of the team; Durrett & Klein's false new / wrong link / false
anaphoric, Chen & Ng's suboptimal link, plus the two mention-detection errors):

- a key mention with a key predecessor (anaphoric in the key) is FALSE NEW when the response gives
  it no predecessor, a WRONG LINK when none of its response predecessors is in its key chain, a
  SUBOPTIMAL LINK when its best coreferent response predecessor weighs less (link weight
  w(m, x) of the LMetrics) than its best key predecessor;
- any other mention with a response predecessor is FALSE ANAPHORIC;
- of the rest, a key mention absent from the response is a MISSING MENTION, a response mention
  absent from the key a SPURIOUS MENTION.

"Predecessor" means earlier in document order, mentions sorted by (start, end).  "Best" means the
heaviest link; on ties the more informative mention (name, nominal, pronoun), then the closest:
the informative antecedent a reader would want.

Everything here is one pass over the mentions with, per chain, the last mention seen of each type:
the best predecessor of m only depends on m's type and on which types precede it, so no pair of
mentions is ever compared (O(mentions) per document).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from metrics.errors.mention import Mention
from metrics.mentions.chains import ChainView, key_view, response_view
from metrics.runtime.gc_pause import gc_paused
from metrics.model import Document, MentionType, Span
from metrics.measures.weights import W4, Weights


class Category(str, Enum):
    """Error categories, in the order reports list them; the value is the JSON / CLI name."""

    FALSE_NEW = "false_new"
    WRONG_LINK = "wrong_link"
    SUBOPTIMAL_LINK = "suboptimal_link"
    FALSE_ANAPHORIC = "false_anaphoric"
    MISSING_MENTION = "missing_mention"
    SPURIOUS_MENTION = "spurious_mention"

    @property
    def label(self) -> str:
        """Human name: 'false new'."""
        return self.value.replace("_", " ")

    @property
    def short(self) -> str:
        """The abbreviation narrow tables show: FN, WL, SUB, FA, MISS, SPUR."""
        return _SHORT[self]

    @property
    def description(self) -> str:
        """What the category means, in one line (the workbench's legend, the README)."""
        return _DESCRIPTION[self]

    @classmethod
    def parse(cls, text: str) -> "Category":
        """A category from its JSON name, its label (hyphens or spaces) or its abbreviation,
        case-insensitive; ValueError names the choices."""
        wanted = text.strip().lower().replace("-", "_").replace(" ", "_")
        for category in cls:
            if wanted in (category.value, category.short.lower()):
                return category
        raise ValueError(f"unknown category {text!r}; choose from {', '.join(c.value for c in cls)}")


_SHORT = {Category.FALSE_NEW: "FN", Category.WRONG_LINK: "WL", Category.SUBOPTIMAL_LINK: "SUB",
          Category.FALSE_ANAPHORIC: "FA", Category.MISSING_MENTION: "MISS", Category.SPURIOUS_MENTION: "SPUR"}
_DESCRIPTION = {
    Category.FALSE_NEW: "an anaphoric key mention the response starts a new chain with (no antecedent)",
    Category.WRONG_LINK: "an anaphoric key mention whose response antecedents are all outside its key chain",
    Category.SUBOPTIMAL_LINK: "a correct link to a less informative antecedent than the key offers (costs LMetric weight)",
    Category.FALSE_ANAPHORIC: "a mention the key does not link back, given a response antecedent",
    Category.MISSING_MENTION: "a key mention the response lacks",
    Category.SPURIOUS_MENTION: "a response mention the key lacks",
}
CATEGORIES: tuple[Category, ...] = tuple(Category)



@dataclass(frozen=True)
class ErrorRecord:
    """One error of one mention.

    `antecedent` is the response predecessor the system chose that matters: the best coreferent one
    for a suboptimal link; for a wrong link or a false anaphoric mention (which have no coreferent
    predecessor) the closest one, i.e. the wrong link itself.  `best_antecedent` is the best key
    predecessor (anaphoric key mentions only): what the fix links the mention to.  Chain ids are the
    files' chain labels.  `cost` is defined for suboptimal links (best key weight minus best
    response weight).  `fix` says in words what `metrics.fixes.fix_of(record)` does.  `impact` is
    filled in by `metrics.errors.chen_ng.impact` when asked for.
    """

    document: str
    category: Category
    mention: Mention
    antecedent: Mention | None
    best_antecedent: Mention | None
    key_chain: str | None
    response_chain: str | None
    cost: float | None
    fix: str
    impact: float | None = None

    @property
    def span(self) -> Span:
        return self.mention.span

    def to_json(self) -> dict:
        return {
            "document": self.document,
            "category": self.category.value,
            "mention": self.mention.to_json(),
            "antecedent": self.antecedent.to_json() if self.antecedent else None,
            "best_antecedent": self.best_antecedent.to_json() if self.best_antecedent else None,
            "key_chain": self.key_chain,
            "response_chain": self.response_chain,
            "cost": self.cost,
            "impact": self.impact,
            "fix": self.fix,
        }


# ------------------------------------------------------------------------------ classification


class _Best:
    """The last mention seen of each type in a growing set of predecessors."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last: list[Span | None] = [None] * len(MentionType)

    def add(self, span: Span, kind: int) -> None:
        self.last[kind] = span

    def closest(self) -> Span | None:
        present = [s for s in self.last if s is not None]
        return max(present) if present else None

    def best(self, kind: int, w: Weights) -> tuple[Span | None, float]:
        """Heaviest predecessor for a mention of type `kind`.  On equal weight the more informative
        one (name, then nominal, then pronoun: a name's antecedent is shown as a name, not "his"),
        then the closest."""
        best_span: Span | None = None
        best_weight = -1.0
        for other, span in enumerate(self.last):  # NAME, NOMINAL, PRONOUN, ZERO: most informative first
            if span is None:
                continue
            weight = w.link(kind, other)
            if weight > best_weight:
                best_span, best_weight = span, weight
        return best_span, best_weight


def classify_document(
    name: str,
    key: Document,
    response: Document,
    types: Mapping[Span, MentionType],
    weights: Weights = W4,
) -> list[ErrorRecord]:
    """All error records of one document, in document order (see the module docstring)."""
    return classify_views(name, key, response, key_view(key), response_view(response), types=types, weights=weights)


def classify_views(name: str, key: Document, response: Document, kv: ChainView, rv: ChainView, *,
                   types: Mapping[Span, MentionType], weights: Weights = W4) -> list[ErrorRecord]:
    """`classify_document` with the two sides' chain views given (a `DocPair` keeps them)."""
    words = key.words if key.words else response.words
    pieces = {**(response.pieces or {}), **(key.pieces or {})}

    def mention(span: Span) -> Mention:
        runs = pieces.get(span, (span,))  # a discontinuous mention's words, piece by piece
        return Mention(span, " … ".join(" ".join(words[a:b + 1]) for a, b in runs), MentionType(types[span]))

    key_seen = [_Best() for _ in kv.chains]
    resp_seen = [_Best() for _ in rv.chains]
    shared_seen: dict[tuple[int, int], _Best] = {}
    records: list[ErrorRecord] = []
    for span in sorted(set(kv.chain_of) | set(rv.chain_of)):
        kind = int(types[span])
        k = kv.chain_of.get(span)
        r = rv.chain_of.get(span)
        key_label = kv.labels[k] if k is not None else None
        resp_label = rv.labels[r] if r is not None else None
        record: ErrorRecord | None = None
        has_key_pred = k is not None and kv.position[span] > 0
        has_resp_pred = r is not None and rv.position[span] > 0
        if has_key_pred:
            best_key, best_key_weight = key_seen[k].best(kind, weights)
            best = mention(best_key)
            coref = shared_seen.get((k, r)) if r is not None else None
            if not has_resp_pred:
                record = ErrorRecord(name, Category.FALSE_NEW, mention(span), None, best, key_label, resp_label,
                                     None, _link_fix(r is None, best, best.span not in rv.chain_of))
            elif coref is None:
                wrong = resp_seen[r].closest()
                record = ErrorRecord(name, Category.WRONG_LINK, mention(span), mention(wrong), best, key_label,
                                     resp_label, None, _link_fix(False, best, best.span not in rv.chain_of))
            else:
                best_resp, best_resp_weight = coref.best(kind, weights)
                if best_resp_weight < best_key_weight:
                    record = ErrorRecord(name, Category.SUBOPTIMAL_LINK, mention(span), mention(best_resp), best,
                                         key_label, resp_label, best_key_weight - best_resp_weight,
                                         _link_fix(False, best, best.span not in rv.chain_of))
        elif has_resp_pred:
            wrong = resp_seen[r].closest()
            what = "split it, with the rest of its key chain, out of" if k is not None else "unlink it from"
            record = ErrorRecord(name, Category.FALSE_ANAPHORIC, mention(span), mention(wrong), None, key_label,
                                 resp_label, None, f"{what} response chain {resp_label}")
        elif r is None:
            record = ErrorRecord(name, Category.MISSING_MENTION, mention(span), None, None, key_label, None, None,
                                 "add it to the response (a chain of its own)")
        elif k is None:
            record = ErrorRecord(name, Category.SPURIOUS_MENTION, mention(span), None, None, None, resp_label, None,
                                 "remove it from the response")
        if record is not None:
            records.append(record)
        if k is not None:
            key_seen[k].add(span, kind)
        if r is not None:
            resp_seen[r].add(span, kind)
            if k is not None:
                shared_seen.setdefault((k, r), _Best()).add(span, kind)
    return records


def _link_fix(absent: bool, target: Mention, target_absent: bool) -> str:
    verb = "add it and link it" if absent else "link it, with the mentions of its key chain in its response chain,"
    where = f"'{target.text}' [{target.span[0]}-{target.span[1]}]"
    if target_absent:
        return f"{verb} to {where}, itself added to the response"
    return f"{verb} to the chain of {where}"


def classify_pair(pair, weights: Weights = W4) -> list[ErrorRecord]:
    """Error records of an engine `DocPair` (its key, response and mention types)."""
    return classify_views(pair.name, pair.key, pair.response, pair.key_view, pair.response_view, types=pair.types,
                          weights=weights)


def classify_corpus(pairs: Iterable, weights: Weights = W4) -> list[ErrorRecord]:
    """Error records of every document pair, documents in the given (key file) order."""
    records: list[ErrorRecord] = []
    with gc_paused():
        for pair in pairs:
            records.extend(classify_pair(pair, weights))
    return records


# ------------------------------------------------------------------------------ counts

Counts = dict[Category, dict[MentionType, int]]


def count_errors(records: Iterable[ErrorRecord]) -> Counts:
    """Category x mention type counts (every cell present, zeros included)."""
    counts: Counts = {c: {t: 0 for t in MentionType} for c in CATEGORIES}
    for record in records:
        counts[record.category][record.mention.type] += 1
    return counts


def shown_types(*tables: Counts) -> list[MentionType]:
    """The mention types count tables show: NAME, NOMINAL, PRONOUN, and ZERO when some error is
    a zero's (CoNLL-2012 data has none; its tables stay as they were)."""
    return [t for t in MentionType
            if t != MentionType.ZERO or any(row[t] for counts in tables for row in counts.values())]


def count_by_document(records: Sequence[ErrorRecord]) -> dict[str, Counts]:
    """`count_errors` per document (documents in order of first record)."""
    grouped: dict[str, list[ErrorRecord]] = {}
    for record in records:
        grouped.setdefault(record.document, []).append(record)
    return {name: count_errors(group) for name, group in grouped.items()}


def counts_to_json(counts: Counts, kinds: Sequence[MentionType] | None = None) -> dict:
    """{"false_new": {"NAME": n, "NOMINAL": n, "PRONOUN": n, "total": n}, ...}, with "ZERO" among
    them when `kinds` (by default `shown_types`) has it."""
    kinds = shown_types(counts) if kinds is None else kinds
    out = {}
    for category, row in counts.items():
        cell = {t.name: row[t] for t in kinds}
        cell["total"] = sum(row.values())
        out[category.value] = cell
    return out


def filter_records(
    records: Iterable[ErrorRecord],
    categories: Iterable[Category] | None = None,
    types: Iterable[MentionType] | None = None,
    documents: Iterable[str] | None = None,
) -> list[ErrorRecord]:
    """Records of the given categories, mention types and documents (None: all)."""
    cats = set(categories) if categories is not None else None
    kinds = set(types) if types is not None else None
    docs = set(documents) if documents is not None else None
    return [
        r for r in records
        if (cats is None or r.category in cats)
        and (kinds is None or r.mention.type in kinds)
        and (docs is None or r.document in docs)
    ]

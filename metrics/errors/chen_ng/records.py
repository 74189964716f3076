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

The best predecessor of m only depends on m's type and on the last earlier mention of each type
in the chain, so no pair of mentions is ever compared (O(mentions) per document).  Those last
mentions are found with array work for all mentions of a corpus at once (`predecessors`), and
the records are held as columns (`ErrorColumns`) until a front end asks for objects: a book
has fifty thousand records, and an object per record and per mention cost more than finding them.
tests/chen_ng_brute.py keeps the first classifier, a loop over the mentions, as the reference.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np

from metrics.errors.chen_ng import predecessors
from metrics.errors.chen_ng.predecessors import FALSE_ANAPHORIC as _FALSE_ANAPHORIC, FALSE_NEW as _FALSE_NEW, \
    N_TYPES, SUBOPTIMAL_LINK as _SUBOPTIMAL
from metrics.errors.mention import ABSENT as _ABSENT, Mention, MentionColumns
from metrics.mentions.chains import CODE_BASE, ChainView, code_spans
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
    response weight).  `fix` says in words what `fixes.fix_of(record)` does.  `impact` is
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


@dataclass(frozen=True)
class ErrorColumns:
    """Error records as columns, row i the i-th record (the fields of `ErrorRecord`).

    Why: a corpus of 250,000 tokens has fifty thousand records, and an object per record and per
    mention, then a dict per record for JSON, cost more than finding the errors.  The records are
    classified as arrays (`classify_columns`), filtered, counted and written column by column; the
    front ends that hold records one at a time (the workbench, the pricer) ask for `records()`.
    """

    documents: list[str]
    """The documents' names; `document` holds an index into it."""
    document: np.ndarray
    category: np.ndarray
    """Index into CATEGORIES."""
    mention: MentionColumns
    antecedent: MentionColumns
    best_antecedent: MentionColumns
    key_chain: list[str | None]
    response_chain: list[str | None]
    cost: list[float | None]
    fix: list[str]
    impact: list[float | None]

    def __len__(self) -> int:
        return len(self.fix)

    def take(self, rows: np.ndarray) -> "ErrorColumns":
        """The given rows (an array of row indices), in that order."""
        return ErrorColumns(self.documents, self.document[rows], self.category[rows], self.mention.take(rows),
                            self.antecedent.take(rows), self.best_antecedent.take(rows), _pick(self.key_chain, rows),
                            _pick(self.response_chain, rows), _pick(self.cost, rows), _pick(self.fix, rows),
                            _pick(self.impact, rows))

    def select(self, categories: Iterable[Category] | None = None, types: Iterable[MentionType] | None = None
               ) -> "ErrorColumns":
        """The records of the given categories and mention types (None: all)."""
        keep = np.ones(len(self), dtype=bool)
        if categories is not None:
            keep &= np.isin(self.category, [CATEGORIES.index(c) for c in categories])
        if types is not None:
            keep &= np.isin(self.mention.type, [int(t) for t in types])
        return self if keep.all() else self.take(np.flatnonzero(keep))

    def records(self) -> list[ErrorRecord]:
        """Each row as an `ErrorRecord`."""
        names = self.documents
        return [ErrorRecord(names[d], CATEGORIES[c], m, a, b, k, r, cost, fix, impact)
                for d, c, m, a, b, k, r, cost, fix, impact in zip(
                    self.document.tolist(), self.category.tolist(), self.mention.mentions(), self.antecedent.mentions(),
                    self.best_antecedent.mentions(), self.key_chain, self.response_chain, self.cost, self.fix,
                    self.impact)]

    @staticmethod
    def of(records: Sequence[ErrorRecord]) -> "ErrorColumns":
        """The columns of records (priced, sorted, cut: what a front end lists)."""
        names: dict[str, int] = {}
        document = np.array([names.setdefault(r.document, len(names)) for r in records], dtype=np.int64)
        index = {c: i for i, c in enumerate(CATEGORIES)}
        return ErrorColumns(list(names), document, np.array([index[r.category] for r in records], dtype=np.int64),
                            MentionColumns.of([r.mention for r in records]),
                            MentionColumns.of([r.antecedent for r in records]),
                            MentionColumns.of([r.best_antecedent for r in records]),
                            [r.key_chain for r in records], [r.response_chain for r in records],
                            [r.cost for r in records], [r.fix for r in records], [r.impact for r in records])

    def counts(self) -> Counts:
        """`count_errors` of these records."""
        return counts_of(np.bincount(self.category * N_TYPES + self.mention.type, minlength=len(CATEGORIES) * N_TYPES))

    def count_table(self) -> tuple[list[int], np.ndarray]:
        """Each document's counts as numbers: the documents with a record (indices into `documents`,
        in order of first record) and a row of counts for each (its cells as `counts_of` reads them)."""
        cells = len(CATEGORIES) * N_TYPES
        table = np.bincount(self.document * cells + self.category * N_TYPES + self.mention.type,
                            minlength=len(self.documents) * cells).reshape(len(self.documents), cells)
        _, first = np.unique(self.document, return_index=True)
        order = self.document[np.sort(first)]
        return order.tolist(), table[order]


def counts_of(cells: np.ndarray) -> "Counts":
    """A Counts table from its cells laid out category by category, type by type."""
    values = cells.tolist()
    return {c: {t: values[i * N_TYPES + int(t)] for t in MentionType} for i, c in enumerate(CATEGORIES)}


def _pick(values: list, rows: np.ndarray) -> list:
    """values[i] for each i of rows, as a list."""
    return list(map(values.__getitem__, rows.tolist()))


def classify_columns(name: str, key: Document, response: Document, kv: ChainView, rv: ChainView, *,
                     types: Mapping[Span, MentionType], weights: Weights = W4) -> ErrorColumns:
    """The error records of one document (its two sides' chain views given) as columns, found with
    array work (`predecessors.find`)."""
    def kinds_of(codes: np.ndarray) -> np.ndarray:
        return np.fromiter((types[s] for s in code_spans(codes)), dtype=np.int64, count=len(codes))

    found = predecessors.find(kv, rv, kinds_of, weights)
    return _columns([name], [key], [response], np.zeros(1, dtype=np.int64), found, labels=(kv.labels, rv.labels),
                    weights=weights)


def _columns(names: list[str], keys: Sequence[Document], responses: Sequence[Document], token_offset: np.ndarray,
             found: predecessors.Found, *, labels: tuple[list[str], list[str]], weights: Weights) -> ErrorColumns:
    """The columns of the records `found` in documents laid end to end (document d's tokens
    shifted by `token_offset[d]`): each row's document, the words of each mention shown (found
    once), the chain labels, costs and fixes."""
    codes, rows, category = found.codes, found.rows, found.category
    shown = predecessors.distinct(np.concatenate((rows, found.antecedent, found.best)))
    shown = shown[shown >= 0]  # each mention a record shows, its words found once
    laid_start, laid_end = codes[shown] // CODE_BASE, codes[shown] % CODE_BASE
    shown_doc = np.searchsorted(token_offset, laid_start, side="right") - 1
    starts = np.append(laid_start - token_offset[shown_doc], _ABSENT)  # -1 (no mention): the absent entry after them
    ends = np.append(laid_end - token_offset[shown_doc], _ABSENT)
    kinds = np.append(found.kinds[shown], _ABSENT)
    texts = _texts(keys, responses, shown_doc, starts[:-1], ends[:-1]) + [None]
    at = np.full(len(codes) + 1, len(shown), dtype=np.int64)  # each mention's place among those shown
    at[shown] = np.arange(len(shown))

    def mentions(index: np.ndarray) -> MentionColumns:
        place = at[index]
        return MentionColumns(starts[place], ends[place], kinds[place], _pick(texts, place))

    key_labels, resp_labels = [*labels[0], None], [*labels[1], None]
    key_chain = [key_labels[k] for k in found.key_chain.tolist()]
    resp_chain = [resp_labels[r] for r in found.response_chain.tolist()]
    mention, before, target = mentions(rows), mentions(found.antecedent), mentions(found.best)
    document = shown_doc[at[rows]]
    target_absent = np.append(found.in_response, _ABSENT)[found.best] < 0
    fixes = _fixes(category, found.response_chain, resp_chain, has_key_chain=found.key_chain >= 0, target=target,
                   target_absent=target_absent)
    return ErrorColumns(names, document, category, mention, before, target, key_chain, resp_chain,
                        _costs(category, mention.type, before.type, target.type, weights), fixes, [None] * len(rows))


def _costs(category: np.ndarray, kinds: np.ndarray, antecedent: np.ndarray, best: np.ndarray, weights: Weights
           ) -> list[float | None]:
    """Each record's cost (a suboptimal link's: the best key link's weight minus the chosen one's),
    None for the other categories; the types of each row's mention, antecedent and best antecedent."""
    costs: list[float | None] = [None] * len(category)
    link = weights.link
    rows = np.flatnonzero(category == _SUBOPTIMAL)
    for row, kind, chosen, wanted in zip(rows.tolist(), kinds[rows].tolist(), antecedent[rows].tolist(),
                                         best[rows].tolist()):
        costs[row] = link(kind, wanted) - link(kind, chosen)
    return costs


def _fixes(category: np.ndarray, response_chain: np.ndarray, response_labels: list[str | None], *,
           has_key_chain: np.ndarray, target: MentionColumns, target_absent: np.ndarray) -> list[str]:
    """Each record's fix in words: a constant (a missing or spurious mention), a false anaphoric
    mention's split out of its response chain (`response_chain`, labelled `response_labels`), or a
    link to the best key antecedent (`target`; `target_absent`: absent from the response), as
    `link_fix` says it."""
    fixes = np.array(_CONSTANT_FIXES, dtype=object)[category]
    split = np.flatnonzero(category == _FALSE_ANAPHORIC)
    fixes[split] = [_SPLIT_FIXES[in_key] % response_labels[row]
                    for row, in_key in zip(split.tolist(), has_key_chain[split].tolist())]
    linked = np.flatnonzero(category <= _SUBOPTIMAL)
    absent = (category[linked] == _FALSE_NEW) & (response_chain[linked] < 0)
    fixes[linked] = [_LINK_FIXES[form] % (text, start, end) for form, text, start, end in zip(
        (2 * absent + target_absent[linked]).tolist(), _pick(target.text, linked), target.start[linked].tolist(),
        target.end[linked].tolist())]
    return fixes.tolist()


def _texts(keys: Sequence[Document], responses: Sequence[Document], doc: np.ndarray, starts: np.ndarray,
           ends: np.ndarray) -> list[str]:
    """The words of each mention (of document `doc`, from `starts` to `ends`; mentions grouped by
    document), a discontinuous mention's piece by piece."""
    out: list[str] = []
    cuts = [0, *(np.flatnonzero(doc[1:] != doc[:-1]) + 1).tolist(), len(doc)]
    starts_list, ends_list = starts.tolist(), ends.tolist()
    for first, last in zip(cuts, cuts[1:]):
        if first == last:
            continue
        key, response = keys[int(doc[first])], responses[int(doc[first])]
        out += _words_of(key.words if key.words else response.words, {**(response.pieces or {}), **(key.pieces or {})},
                         starts_list[first:last], ends_list[first:last])
    return out


def _words_of(words: Sequence[str], pieces: Mapping[Span, tuple[Span, ...]], starts: list[int], ends: list[int]
              ) -> list[str]:
    """The words of each mention, a discontinuous mention's piece by piece."""
    if not pieces:
        return [" ".join(words[a:b + 1]) for a, b in zip(starts, ends)]
    runs = (pieces.get(span, (span,)) for span in zip(starts, ends))
    return [" … ".join(" ".join(words[a:b + 1]) for a, b in run) for run in runs]


_CONSTANT_FIXES = (None, None, None, None, "add it to the response (a chain of its own)", "remove it from the response")
"""The fix of each category that says the same of every mention (a missing and a spurious mention's)."""
_SPLIT_FIXES = ("unlink it from response chain %s", "split it, with the rest of its key chain, out of response chain %s")
"""A false anaphoric mention's fix: absent from the key, or in a key chain."""
_LINK_FIXES = tuple(f"{verb} to {where}" for verb in ("link it, with the mentions of its key chain in its response chain,",
                                                      "add it and link it")
                    for where in ("the chain of '%s' [%s-%s]", "'%s' [%s-%s], itself added to the response"))
"""`link_fix`'s words: the mention present or absent (added first), its target present or absent."""


def link_fix(absent: bool, text: str, span: Span, target_absent: bool) -> str:
    """The fix of a false new, wrong or suboptimal link, in words: link the mention (added first
    when `absent`) to its best key antecedent, `text` at `span` (itself added when `target_absent`)."""
    return _LINK_FIXES[2 * absent + target_absent] % (text, span[0], span[1])


def classify_corpus(pairs: Iterable, weights: Weights = W4) -> list[ErrorRecord]:
    """Error records of every document pair, documents in the given (key file) order."""
    with gc_paused():
        return classify_corpus_columns(pairs, weights).records()


def classify_corpus_columns(pairs: Iterable, weights: Weights = W4) -> ErrorColumns:
    """`classify_corpus` as columns: every pair's chains laid end to end and classified at once
    (`predecessors.lay`), so that a corpus pays numpy's calls once, not once per document."""
    pairs = list(pairs)
    if not pairs:
        return ErrorColumns.of([])
    with gc_paused():
        laid = predecessors.lay(pairs)
        found = predecessors.find(laid.key_view, laid.response_view, laid.kinds_of, weights)
        return _columns([pair.name for pair in pairs], [pair.key for pair in pairs], [pair.response for pair in pairs],
                        laid.token_offset, found, labels=(laid.key_view.labels, laid.response_view.labels),
                        weights=weights)


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

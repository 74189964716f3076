"""The records' road: classifying, counting, pricing and fixing error records one by one, what
only tests use, moved here from the engine.

`corefwb errors` and the workbench classify a corpus as columns (`classify_corpus_columns`), count
and filter columns (`ErrorColumns.count_table`, `select`), price error columns
(`Pricer.price_columns`) and single records (`Pricer.price_records`); classifying one document
(`classify_document`, `classify_views`, `classify_pair`), counting and filtering records
(`count_by_document`, `filter_records`, `counts_by_document` of columns), pricing a list of
records with its categories (`price_all`), one category alone (`price_category`, by
`document_change` fix list by fix list) and applying a document's records (`apply_records`) were
engine functions no product path called.  They stay as the tests'
other roads: `price_all` plans the categories from the records (`record_plans`), not from the
columns (`plans.column_plans`), so tests/test_price_columns.py still checks the columns' road
against an independent one; `price_category` swaps each document's change in one at a time
(`_price_changes`), not by `_price_planned`'s blocks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from metrics.errors.chen_ng.fixes import Fix, apply_fixes, fix_of
from metrics.errors.chen_ng.impact import Pricer, _priced
from metrics.errors.chen_ng.plans import Plans
from metrics.errors.chen_ng.records import Category, ErrorColumns, ErrorRecord, Counts, classify_columns, \
    classify_corpus_columns, count_errors, counts_of
from metrics.measures.weights import W4, Weights
from metrics.mentions.chains import ChainView, key_view, response_view
from metrics.model import Document, MentionType, Span


def record_plans(records: Sequence[ErrorRecord], fixes: Sequence[Fix], index: Mapping[str, int]) -> Plans:
    """The plans of records (`plans.column_plans` of records given as objects), `fixes[n]` the fix
    of `records[n]`, `index` each document's index by name, each group's fixes sorted by span."""
    by_doc: dict[Category, dict[int, list[int]]] = {c: {} for c in Category}
    spans = [r.mention.span for r in records]
    for n, r in enumerate(records):
        by_doc[r.category].setdefault(index[r.document], []).append(n)
    return {c: [(i, [fixes[n] for n in sorted(group, key=spans.__getitem__)]) for i, group in sorted(groups.items())]
            for c, groups in by_doc.items()}


def price_many(pricer: Pricer, changes: Iterable[tuple[int, Sequence[Fix]]]) -> float:
    """Change of the corpus F1 if fixes were applied to several documents together."""
    return pricer._price_changes(pricer.document_change(i, fixes) for i, fixes in changes)


def price_category(pricer: Pricer, records: Iterable[ErrorRecord], category: Category) -> float:
    """Change of the corpus F1 if every fix of this category (among `records`) were applied."""
    chosen = [r for r in records if r.category is category]
    return price_many(pricer, record_plans(chosen, [fix_of(r) for r in chosen], pricer.index)[category])


def price_all(pricer: Pricer, listed: Sequence[ErrorRecord], categorised: Sequence[ErrorRecord],
              processes: int = 1) -> tuple[list[ErrorRecord], dict[Category, float]]:
    """`price_records(listed)` and every category's `price_category` (among `categorised`) at
    once, the same numbers: `Pricer._price_planned` as `price_columns` calls it, the fixes and
    plans made from the records."""
    categorised_fixes = [fix_of(r) for r in categorised]
    if listed is categorised:
        listed_fixes = categorised_fixes
    else:
        made = {id(r): found for r, found in zip(categorised, categorised_fixes)}
        listed_fixes = [made.get(id(r)) or fix_of(r) for r in listed]
    plans = record_plans(categorised, categorised_fixes, pricer.index)
    prices, by_category = pricer._price_planned([pricer.index[r.document] for r in listed], listed_fixes, plans,
                                                processes)
    return [_priced(r, price) for r, price in zip(listed, prices)], by_category


def price_categories(pricer: Pricer, records: Sequence[ErrorRecord]) -> dict[Category, float]:
    """`price_category` of every category, by `price_all`."""
    return price_all(pricer, [], records)[1]


def apply_records(key: Document, response: Document, records: Iterable[ErrorRecord]) -> Document:
    """Apply the fixes of some error records of this document, in document order."""
    ordered = sorted(records, key=lambda r: r.span)
    return apply_fixes(key, response, (fix_of(r) for r in ordered))


def classify_views(name: str, key: Document, response: Document, kv: ChainView, rv: ChainView, *,
                   types: Mapping[Span, MentionType], weights: Weights = W4) -> list[ErrorRecord]:
    """The error records of one document, its two sides' chain views given (`classify_columns`)."""
    return classify_columns(name, key, response, kv, rv, types=types, weights=weights).records()


def classify_document(name: str, key: Document, response: Document, types: Mapping[Span, MentionType],
                      weights: Weights = W4) -> list[ErrorRecord]:
    """All error records of one document, in document order."""
    return classify_views(name, key, response, key_view(key), response_view(response), types=types, weights=weights)


def classify_pair(pair, weights: Weights = W4) -> list[ErrorRecord]:
    """Error records of an engine `DocPair` (its key, response and mention types)."""
    return classify_corpus_columns([pair], weights).records()


def count_by_document(records: Sequence[ErrorRecord]) -> dict[str, Counts]:
    """`count_errors` per document (documents in order of first record)."""
    grouped: dict[str, list[ErrorRecord]] = {}
    for record in records:
        grouped.setdefault(record.document, []).append(record)
    return {name: count_errors(group) for name, group in grouped.items()}


def counts_by_document(columns: ErrorColumns) -> dict[str, Counts]:
    """`count_by_document` of error columns, by `ErrorColumns.count_table` (documents in order of
    first record)."""
    order, table = columns.count_table()
    return {columns.documents[d]: counts_of(row) for d, row in zip(order, table)}


def filter_records(records: Iterable[ErrorRecord], categories: Iterable[Category] | None = None,
                   types: Iterable[MentionType] | None = None, documents: Iterable[str] | None = None
                   ) -> list[ErrorRecord]:
    """Records of the given categories, mention types and documents (None: all)."""
    cats = set(categories) if categories is not None else None
    kinds = set(types) if types is not None else None
    docs = set(documents) if documents is not None else None
    return [r for r in records
            if (cats is None or r.category in cats) and (kinds is None or r.mention.type in kinds)
            and (docs is None or r.document in docs)]

"""Each category's fixes per document, in the order a category's price applies them: what
`impact.Pricer` prices for the category table of `corefwb errors --impact`.

A category's plan lists the documents holding its errors (in corpus order, by index), each with the
fixes of its errors of that category sorted by span (errors of one span in the order given).  Made
from error columns (`column_plans`), no record made per error; tests/test_price_columns.py checks
them against plans made from the records (tests/record_pricing.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from metrics.errors.chen_ng.fixes import Fix
from metrics.errors.chen_ng.records import CATEGORIES, Category, ErrorColumns

Plans = dict[Category, list[tuple[int, list[Fix]]]]
"""Each category's (document index, its fixes in the order applied), documents in corpus order."""


def column_plans(columns: ErrorColumns, fixes: Sequence[Fix], index: Mapping[str, int], n_documents: int) -> Plans:
    """The plans of records given as columns (`fixes[n]` row n's fix, `n_documents` more than
    any index): the rows sorted by category, document and span, ties in row order (`np.lexsort`
    is stable, as `sorted` is), then cut where the category or the document changes."""
    document = np.array([index[name] for name in columns.documents], dtype=np.int64)[columns.document]
    order = np.lexsort((columns.mention.end, columns.mention.start, document, columns.category))
    group = columns.category[order] * (n_documents + 1) + document[order]
    bounds = [0, *(np.flatnonzero(group[1:] != group[:-1]) + 1).tolist(), len(order)]
    plans: Plans = {c: [] for c in Category}
    rows = order.tolist()
    categories, documents = columns.category[order].tolist(), document[order].tolist()
    for first, last in zip(bounds, bounds[1:]):
        if first < last:
            plans[CATEGORIES[categories[first]]].append((documents[first], [fixes[n] for n in rows[first:last]]))
    return plans

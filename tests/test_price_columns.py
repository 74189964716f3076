"""`Pricer.price_columns` (records given as columns) against `price_all` (records as objects).

The columns path reads each row's fix (`fixes_of_columns`) and the categories' plans
(`plans.column_plans`: rows sorted by category, document and span, ties in row order) from the columns;
each price and each category's price must be the records path's to the bit, for rows in any order,
rows repeated, and listed rows other than the categorised ones.
"""

from __future__ import annotations

import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import corpora
from test_impact_delta import random_pair

from records_road import price_all, record_plans
from metrics.corpus.scoring import prepare
from metrics.errors.chen_ng.fixes import fix_of, fixes_of_columns
from metrics.errors.chen_ng.impact import Pricer
from metrics.errors.chen_ng.plans import column_plans
from metrics.errors.chen_ng.records import classify_corpus_columns
from metrics.measures.weights import W4


def _shuffled(columns, rng: random.Random):
    """The rows in a random order, some repeated, some left out."""
    rows = [rng.randrange(len(columns)) for _ in range(len(columns))] if len(columns) else []
    return columns.take(np.array(rows, dtype=np.int64))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(duplicates=True, key_duplicates=False), st.sampled_from(("conll", "lmuc", "blanc")),
       st.integers(0, 10_000))
def test_columns_are_priced_as_their_records(corpus, metric: str, seed: int) -> None:
    keys = [p.key for p in corpus]
    responses = [p.response for p in corpus]
    columns = classify_corpus_columns(prepare(keys, responses).pairs, W4)
    rng = random.Random(seed)
    for listed, categorised in ((columns, columns), (_shuffled(columns, rng), _shuffled(columns, rng))):
        by_records = Pricer(prepare(keys, responses), metric, W4)
        records, listed_records = categorised.records(), listed.records()
        fixes = fixes_of_columns(categorised)
        assert fixes == [fix_of(r) for r in records]
        index, n = by_records.index, len(by_records.corpus.pairs)
        assert column_plans(categorised, fixes, index, n) == record_plans(records, fixes, index)
        priced, by_category = price_all(by_records, listed_records if listed is not categorised else records, records)
        prices, column_categories = Pricer(prepare(keys, responses), metric, W4).price_columns(listed, categorised)
        assert prices == [r.impact for r in priced]
        assert column_categories == by_category
        assert list(column_categories) == list(by_category)


def test_rows_of_one_span_keep_their_order_in_a_plan() -> None:
    """The plans sort a category's rows of a document by span, rows of one span in row order (as
    `sorted` keeps records): not vacuous when rows repeat."""
    keys, responses = random_pair(3, 12, 18)
    columns = classify_corpus_columns(prepare(keys, responses).pairs, W4)
    assert len(columns) >= 3
    rows = np.array(list(reversed(range(len(columns)))) + list(range(len(columns))), dtype=np.int64)
    twice = columns.take(rows)
    pricer = Pricer(prepare(keys, responses), "conll", W4)
    fixes = fixes_of_columns(twice)
    plans = column_plans(twice, fixes, pricer.index, len(pricer.corpus.pairs))
    assert plans == record_plans(twice.records(), fixes, pricer.index)
    assert sum(len(fixes) for plan in plans.values() for _, fixes in plan) == len(twice)

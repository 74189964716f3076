"""`Pricer.price_each` (a document's fixes priced together, as arrays) against `Pricer.price` (one
fix at a time, Score objects), for every metric: the same prices to the bit, zero-change fixes
included, on the GUM sample (real chains, real errors, a span listed twice)."""

from __future__ import annotations

from pathlib import Path

import pytest

from metrics.corpus import scoring
from metrics.errors.chen_ng.fixes import fix_of
from metrics.errors.chen_ng.impact import Pricer
from metrics.errors.chen_ng.records import classify_corpus
from metrics.formats.readers import read_documents
from metrics.measures.catalog import ALL_METRICS

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


@pytest.fixture(scope="module")
def corpus():
    keys = read_documents(str(SAMPLES / "gum/key.gum.conll"))
    responses = read_documents(str(SAMPLES / "gum/response.gum.conll"))
    return keys, responses


@pytest.mark.parametrize("metric", ["conll", *ALL_METRICS])
def test_a_documents_fixes_priced_together_equal_each_priced_alone(corpus, metric: str) -> None:
    keys, responses = corpus
    records = classify_corpus(scoring.prepare(keys, responses).pairs)
    together = Pricer(scoring.prepare(keys, responses), metric)
    alone = Pricer(scoring.prepare(keys, responses), metric)
    checked = 0
    for i, pair in enumerate(together.corpus.pairs):
        fixes = [[fix_of(r)] for r in records if r.document == pair.name]
        fixes.append([])  # no fix: no change, priced 0.0 on both roads
        expected = [alone.price(i, f) for f in fixes]
        assert together.price_each(i, fixes) == expected
        checked += len(fixes)
    assert checked > 20

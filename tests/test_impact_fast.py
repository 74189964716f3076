"""The fast paths of pricing one fix in a clean document, against the general path and rescoring.

`fixes.single_fix_counts` counts what one fix changes without listing the mentions it moves; it
must give the counts `delta._Change` finds from `edit_chains`'s moves, in the same order, for any
fix (not only the fixes of classified errors: mentions absent from either side, targets absent from
the response, splits that change nothing), and the pricer must give the same price to the bit as
the general path, and the brute force (rescoring the whole corpus) up to rounding.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import corpora
from test_errors_impact import full_rescore
from test_impact_delta import PRICED, _document, chains_repeating_spans, random_pair

from records_road import price_all, price_category
from metrics.corpus.scoring import prepare
from metrics.errors.chen_ng.fixes import Fix, FixKind, apply_fixes, edit_chains, fix_of, single_fix_counts
from metrics.errors.chen_ng import impact
from metrics.errors.chen_ng.fix_counts import fix_list_counts
from metrics.errors.chen_ng.impact import Pricer
from metrics.errors.chen_ng.records import classify_corpus
from metrics.errors.delta import ARRAY_METRICS, change_arrays, changes, counts_of
from metrics.measures.weights import W4


def _clean_corpus(seed: int, n: int):
    """A one-document corpus, every span listed once on each side: key mentions the response
    misses, response mentions the key lacks."""
    keys, responses = random_pair(seed, n, n + 6)
    return keys, responses, prepare(keys, responses)


def _states_as_in_a_long_document(*pricers: Pricer) -> list:
    """Each pricer's state of its document 0, made as a long document's is (its delta table
    partial where spans repeat: `impact.PARTIAL_DELTA_TOKENS`), whatever the document's length."""
    impact.PARTIAL_DELTA_TOKENS, before = 0, impact.PARTIAL_DELTA_TOKENS
    try:
        return [pricer._state(0) for pricer in pricers]
    finally:
        impact.PARTIAL_DELTA_TOKENS = before


def _any_fix(rng: random.Random, n: int) -> Fix:
    """A fix of any kind on any token's span, in either document or in neither."""
    kind = rng.choice(list(FixKind))
    mention = (rng.randrange(n + 5),) * 2
    target = (rng.randrange(n + 5),) * 2 if kind is FixKind.LINK else None
    return Fix(kind, mention, target)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(3, 30))
def test_counts_of_any_single_fix_are_those_of_its_moves(seed: int, n: int) -> None:
    keys, responses, prepared = _clean_corpus(seed, n)
    pricer = Pricer(prepared, "conll", W4)
    state = pricer._state(0)
    assert state.clean
    rng = random.Random(seed + 1)
    seen_change = seen_none = False
    for _ in range(40):
        fix = _any_fix(rng, n)
        counts = single_fix_counts(state.base, fix, state.delta.row_cells)
        edit = edit_chains(state.base, [fix])
        if not edit.touched:
            assert counts is None, fix
            seen_none = True
            continue
        assert counts == counts_of(state.delta, edit.moved), fix
        seen_change = True
    assert seen_change or seen_none


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(3, 30), st.sampled_from(PRICED), st.data())
def test_any_single_fix_priced_by_its_counts_as_by_rescoring(seed: int, n: int, metric: str, data) -> None:
    keys, responses, prepared = _clean_corpus(seed, n)
    pricer = Pricer(prepared, metric, W4)
    rng = random.Random(data.draw(st.integers(0, 10_000)))
    records = classify_corpus(prepared.pairs, W4)
    fixes = [_any_fix(rng, n) for _ in range(4)] + [fix_of(r) for r in records[:4]]
    for fix in fixes:
        fixed = apply_fixes(keys[0], prepared.pairs[0].response, [fix])
        assert pricer.price(0, [fix]) == pytest.approx(full_rescore(keys, responses, 0, fixed, W4, metric),
                                                       abs=1e-9), fix


def test_the_fast_paths_serve_clean_documents_only() -> None:
    keys, responses, prepared = _clean_corpus(7, 12)
    pricer = Pricer(prepared, "conll", W4)
    records = classify_corpus(prepared.pairs, W4)
    assert records
    for record in records:
        pricer.document_change(0, [fix_of(record)])
    assert pricer._memo and all(key[1] == "counts" for key in pricer._memo)
    pricer.document_change(0, [fix_of(r) for r in records[:2]])
    assert all(key[1] == "counts" for key in pricer._memo), "a list of fixes is counted by cells (fix_counts)"
    keys, responses = random_pair(7, 12, 18)
    responses[0].chains[0].append(responses[0].chains[-1][0])  # a span listed twice: no table
    dirty = Pricer(prepare(keys, responses), "conll", W4)
    dirty_records = classify_corpus(dirty.corpus.pairs, W4)
    dirty.document_change(0, [fix_of(r) for r in dirty_records[:2]])
    assert dirty._memo and all(key[1] != "counts" for key in dirty._memo), "elsewhere the general path"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(duplicates=True, key_duplicates=False), st.sampled_from(("conll", "lmuc", "blanc")))
def test_price_all_prices_each_record_and_category_as_alone(corpus, metric: str) -> None:
    """`price_all` (a document's single fixes rescored together, where they are rescored) prices
    each record and each category the same to the bit as pricing each on its own."""
    keys = [p.key for p in corpus]
    responses = [p.response for p in corpus]
    records = classify_corpus(prepare(keys, responses).pairs, W4)
    priced, by_category = price_all(Pricer(prepare(keys, responses), metric, W4), records, records)
    alone = Pricer(prepare(keys, responses), metric, W4)
    assert [r.impact for r in priced] == [alone.price(alone.index[r.document], [fix_of(r)]) for r in records]
    assert by_category == {c: price_category(Pricer(prepare(keys, responses), metric, W4), records, c)
                           for c in by_category}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(6, 30))
def test_counts_of_a_single_fix_clear_of_a_repeated_span(seed: int, n: int) -> None:
    """In a long document that lists spans twice (its delta table partial), one fix is priced from
    its counts only when they change no chain connected to a repeated span, and then its counts are
    those of its moves and the edit is one the table prices (`by_delta`); every other fix takes
    the general path."""
    rng = random.Random(seed)
    key_chains, response_chains = chains_repeating_spans(rng, n)
    keys = [_document("d", n + 6, key_chains)]
    responses = [_document("d", n + 6, response_chains)]
    pricer = Pricer(prepare(keys, responses), "conll", W4)
    (state,) = _states_as_in_a_long_document(pricer)
    assert state.delta is not None
    counted = declined = 0
    for _ in range(40):
        fix = _any_fix(rng, n)
        found = pricer._counted_change(state, 0, fix)
        edit = edit_chains(state.base, [fix])
        if found is None:
            assert not state.clean
            declined += 1
            continue
        counted += 1
        if not edit.touched:
            assert found == ({}, {})
            continue
        assert state.by_delta(edit), fix
        counts = single_fix_counts(state.base, fix, state.delta.row_cells)
        assert counts == counts_of(state.delta, edit.moved), fix
        assert found[1] == changes(state.delta, counts, pricer.parts)
    assert counted + declined == 40


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(3, 30))
def test_change_arrays_are_the_changes_of_each_counts_to_the_bit(seed: int, n: int) -> None:
    """`delta.change_arrays` gives, for many changes at once, each change's MUC and B3 counts as
    `delta.changes` computes them one at a time: equal floats, not close ones."""
    keys, responses, prepared = _clean_corpus(seed, n)
    state = Pricer(prepared, "conll", W4)._state(0)
    rng = random.Random(seed + 2)
    many = [counts for counts in (single_fix_counts(state.base, _any_fix(rng, n), state.delta.row_cells)
                                  for _ in range(40)) if counts is not None]
    records = classify_corpus(prepared.pairs, W4)
    lists = [[fix_of(r) for r in records]] + [[_any_fix(rng, n) for _ in range(rng.randint(2, 3 * n))] for _ in range(8)]
    for fixes in lists:  # a category's change: many cells, several in one chain, cells moved back
        counted = fix_list_counts(state.base, fixes, state.delta.row_cells, state.delta.col_sizes)
        many += [counted[1]] if counted is not None and counted[0] else []
    arrays = change_arrays(state.delta, many, sorted(ARRAY_METRICS))
    for metric in sorted(ARRAY_METRICS):
        rows = arrays[metric]
        assert rows.shape == (len(many), 4)
        for counts, row in zip(many, rows.tolist()):
            assert row == [float(x) for x in changes(state.delta, counts, (metric,))[metric].counts()], counts


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(3, 30), st.sampled_from(PRICED))
def test_single_fixes_priced_together_as_each_alone(seed: int, n: int, metric: str) -> None:
    """`price_each` of a clean document's single fixes (their counts priced as arrays,
    `Pricer._counted_prices`) gives each fix the price `price` gives it alone, to the bit, and
    the brute force's (rescoring the whole corpus) up to rounding; fixes that change nothing 0."""
    keys, responses, prepared = _clean_corpus(seed, n)
    rng = random.Random(seed + 3)
    records = classify_corpus(prepared.pairs, W4)
    fixes = [_any_fix(rng, n) for _ in range(12)] + [fix_of(r) for r in records[:12]]
    fixes += fixes[:3]  # a fix listed twice is priced twice, the same
    together = Pricer(prepared, metric, W4)
    assert together._state(0).clean
    prices = together.price_each(0, [[fix] for fix in fixes])
    alone = Pricer(prepare(keys, responses), metric, W4)
    assert prices == [alone.price(0, [fix]) for fix in fixes]
    for fix, price in list(zip(fixes, prices))[:4]:
        fixed = apply_fixes(keys[0], prepared.pairs[0].response, [fix])
        assert price == pytest.approx(full_rescore(keys, responses, 0, fixed, W4, metric), abs=1e-9), fix


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(6, 30), st.sampled_from(PRICED))
def test_single_fixes_of_a_book_with_a_repeated_span_priced_together_as_each_alone(seed: int, n: int,
                                                                                   metric: str) -> None:
    """In a long document that lists spans twice (its delta table partial), `price_each` prices the
    fixes clear of those spans from their counts as arrays and rescores the others together, in
    one set of arrays: each price the same to the bit as `price` gives the fix alone, and the
    brute force's (rescoring the whole corpus) up to rounding."""
    rng = random.Random(seed)
    key_chains, response_chains = chains_repeating_spans(rng, n, most=2)
    keys = [_document("d", n + 6, key_chains)]
    responses = [_document("d", n + 6, response_chains)]
    together = Pricer(prepare(keys, responses), metric, W4)
    alone = Pricer(prepare(keys, responses), metric, W4)
    state, _ = _states_as_in_a_long_document(together, alone)
    assert state.delta is not None and not state.clean
    records = classify_corpus(together.corpus.pairs, W4)
    fixes = [_any_fix(rng, n) for _ in range(10)] + [fix_of(r) for r in records[:10]]
    prices = together.price_each(0, [[fix] for fix in fixes])
    assert prices == [alone.price(0, [fix]) for fix in fixes]
    for fix, price in list(zip(fixes, prices))[-3:]:
        fixed = apply_fixes(keys[0], together.corpus.pairs[0].response, [fix])
        assert price == pytest.approx(full_rescore(keys, responses, 0, fixed, W4, metric), abs=1e-9), fix


def test_a_book_with_a_repeated_span_prices_both_ways_in_one_call() -> None:
    """The case above is not vacuous: among one document's fixes some are counted and some
    declined (rescored), and both kinds change the price."""
    rng = random.Random(6)
    key_chains, response_chains = chains_repeating_spans(rng, 24, most=3)
    keys = [_document("d", 30, key_chains)]
    responses = [_document("d", 30, response_chains)]
    pricer = Pricer(prepare(keys, responses), "conll", W4)
    (state,) = _states_as_in_a_long_document(pricer)
    records = classify_corpus(pricer.corpus.pairs, W4)
    fixes = [fix_of(r) for r in records]
    prices = pricer.price_each(0, [[fix] for fix in fixes])
    declined = [pricer._counted_change(state, 0, fix) is None for fix in fixes]
    assert any(d and p != 0.0 for d, p in zip(declined, prices))
    assert any(not d and p != 0.0 for d, p in zip(declined, prices))

"""Every document's single fixes priced in one pass (`delta.joined`, `ceaf_arrays.block_rows`,
`delta.block_arrays`, `Pricer._counted_prices` over several documents, `price_rows.blocks`)
against each document alone, to the bit, and against rescoring the corpus.

The pass numbers every document's chains after the previous documents' in one table, so a chain
number off by one document, a new chain taken for the next document's first, or a change handed
to the wrong document's table, shows as a row that differs from the document's own.  The rows
must be the same floats, and the same changes must be left to the search: the pass decides what
each document alone decides.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_ceaf_arrays import _fixes, _merged_or_split
from test_errors_impact import full_rescore
from test_impact_delta import PRICED, _document, chains_repeating_spans, random_chains

from records_road import price_all, price_category
from metrics.corpus.scoring import prepare
from metrics.errors import ceaf_arrays
from metrics.errors.chen_ng.fixes import apply_fixes, fix_of, single_fix_counts
from metrics.errors.chen_ng import impact
from metrics.errors.chen_ng.impact import Pricer
from metrics.errors.chen_ng.price_rows import blocks
from metrics.errors.chen_ng.records import classify_corpus
from metrics.errors.delta import ARRAY_METRICS, block_arrays, change_arrays, changes, joined
from metrics.measures.catalog import CEAFE
from metrics.measures.weights import W4


def _corpus(seed: int, n_documents: int):
    """Keys and responses of several clean documents of random sizes and shapes: random chains,
    a chain that merged many key chains, and one key chain split over many."""
    rng = random.Random(seed)
    keys, responses, sizes = [], [], []
    for d in range(n_documents):
        shape = rng.choice(("random", "random", "merged", "split"))
        if shape == "random":
            n = rng.randrange(3, 30)
            key_chains, response_chains = random_chains(rng, n)
        else:
            key_chains, response_chains = _merged_or_split(rng, rng.randrange(2, 20), shape == "split")
        n_tokens = max(i for chain in key_chains + response_chains for i in chain) + 4
        keys.append(_document(f"d{d}", n_tokens, key_chains))
        responses.append(_document(f"d{d}", n_tokens, response_chains))
        sizes.append(n_tokens - 3)
    return keys, responses, sizes


def _tables_and_changes(seed: int, n_documents: int):
    """Each document's table and distinct changes of its single fixes (of every kind on every
    token, and links), from a pricer's states (every document clean)."""
    keys, responses, sizes = _corpus(seed, n_documents)
    pricer = Pricer(prepare(keys, responses), "conll", W4)
    rng = random.Random(seed + 1)
    tables, manys = [], []
    for i, n in enumerate(sizes):
        state = pricer._state(i)
        assert state.clean
        many = {single_fix_counts(state.base, fix, state.delta.row_cells): None for fix in _fixes(n, rng, 2 * n)}
        many.pop(None, None)
        tables.append(state.delta)
        manys.append(list(many))
    return tables, manys


def _delta_row(table, counts) -> list[float]:
    return [float(x) for x in changes(table, counts, (CEAFE.name,))[CEAFE.name].counts()]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(2, 6))
def test_one_pass_gives_each_document_s_rows_and_leaves_it_the_same_changes(seed: int, n_documents: int) -> None:
    tables, manys = _tables_and_changes(seed, n_documents)
    alone, left_alone = [], set()
    for d, (table, many) in enumerate(zip(tables, manys)):
        def one(counts, d=d, table=table):
            left_alone.add((d, counts))
            return _delta_row(table, counts)
        alone.append(ceaf_arrays.change_rows(table, many, CEAFE.name, one))
    left_together = set()
    table, first_rows, first_cols = joined(tables)
    assert first_rows == list(np.cumsum([0] + [len(t.row_cells) for t in tables[:-1]]))
    assert first_cols == list(np.cumsum([0] + [len(t.col_cells) for t in tables[:-1]]))

    def one_of_block(d, counts):
        left_together.add((d, counts))
        return _delta_row(tables[d], counts)

    together = ceaf_arrays.block_rows(table, [ceaf_arrays.Block(*block) for block in zip(tables, manys, first_rows,
                                                                                          first_cols)],
                                      CEAFE.name, one_of_block)
    assert together.tolist() == np.concatenate(alone).tolist()
    assert left_together == left_alone
    rows = iter(together.tolist())
    for table_d, many in zip(tables, manys):
        for counts in many:
            assert next(rows) == _delta_row(table_d, counts), counts
    # a corpus whose every change goes to the search (seed 441, two documents: 120 of 120) says
    # nothing of the pass; were every corpus so, hypothesis would fail the test as unsatisfiable
    assume(sum(map(len, manys)) > len(left_alone))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(2, 5))
def test_block_arrays_give_each_document_s_change_arrays(seed: int, n_documents: int) -> None:
    """MUC's, B3's and CEAF-e's rows of several documents' changes at once, each document's own."""
    tables, manys = _tables_and_changes(seed, n_documents)
    metrics = sorted(ARRAY_METRICS)
    together = block_arrays(tables, manys, metrics)
    for metric in metrics:
        alone = np.concatenate([change_arrays(table, many, [metric])[metric] for table, many in zip(tables, manys)])
        assert together[metric].tolist() == alone.tolist(), metric


def test_a_document_without_changes_in_the_pass_shifts_nothing() -> None:
    """A block with no changes (a document whose fixes touch nothing) between two others."""
    tables, manys = _tables_and_changes(5, 3)
    manys[1] = []
    together = block_arrays(tables, manys, [CEAFE.name])[CEAFE.name]
    alone = [change_arrays(table, many, [CEAFE.name])[CEAFE.name] for table, many in zip(tables, manys)]
    assert together.tolist() == np.concatenate(alone).tolist()


def _multi_document_pricers(seed: int, n_documents: int, metric: str):
    keys, responses, _ = _corpus(seed, n_documents)
    prepared = prepare(keys, responses)
    records = classify_corpus(prepared.pairs, W4)
    return keys, responses, prepared, records, Pricer(prepared, metric, W4), Pricer(prepare(keys, responses),
                                                                                       metric, W4)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(2, 5), st.sampled_from(PRICED))
def test_a_corpus_s_errors_priced_in_one_pass_as_each_alone(seed: int, n_documents: int, metric: str) -> None:
    """`price_all` (one pass over every document's single fixes, then the categories) gives each
    error the price `price` gives its fix alone, to the bit, and each category the price
    `price_category` gives it; a few against rescoring the whole corpus."""
    keys, responses, prepared, records, together, alone = _multi_document_pricers(seed, n_documents, metric)
    priced, by_category = price_all(together, records, records)
    assume(len({r.document for r in records}) > 1)  # the pass spans documents
    assert [r.impact for r in priced] == [alone.price(alone.index[r.document], [fix_of(r)]) for r in records]
    assert by_category == {c: price_category(alone, records, c) for c in by_category}
    for r in priced[::max(1, len(priced) // 3)]:
        i = together.index[r.document]
        fixed = apply_fixes(keys[i], prepared.pairs[i].response, [fix_of(r)])
        assert r.impact == pytest.approx(full_rescore(keys, responses, i, fixed, W4, metric), abs=1e-9), r


@pytest.mark.parametrize("processes", [2, 3])
def test_blocks_in_processes_price_as_one_pass(processes: int, monkeypatch) -> None:
    """Split into blocks for several processes (forked), each block one pass: the same prices."""
    monkeypatch.setattr("metrics.errors.chen_ng.impact.PARALLEL_RECORDS", 1)
    keys, responses, prepared, records, together, alone = _multi_document_pricers(11, 8, "conll")
    split, split_categories = price_all(together, records, records, processes=processes)
    one, one_categories = price_all(alone, records, records)
    assert [r.impact for r in split] == [r.impact for r in one]
    assert split_categories == one_categories


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(1, 50), min_size=0, max_size=40), st.integers(1, 4))
def test_blocks_take_every_document_once_in_order(loads: list[int], processes: int) -> None:
    documents = sorted(range(len(loads)), key=lambda i: -loads[i])
    out = blocks(documents, dict(enumerate(loads)), processes)
    assert [i for block in out for i in block] == documents
    assert all(out)
    share = sum(loads) / (processes * 4)
    assert all(sum(loads[i] for i in block) <= share or len(block) == 1 for block in out)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.sampled_from(PRICED))
def test_a_book_s_clean_fixes_share_the_pass_with_clean_documents(seed: int, metric: str) -> None:
    """Long documents that list a span twice (their delta tables partial: `PARTIAL_DELTA_TOKENS`)
    among clean ones: their fixes clear of those spans join the pass, the others are rescored,
    and every price is the one `price` gives the fix alone."""
    rng = random.Random(seed)
    keys, responses = [], []
    for d in range(4):
        n = rng.randrange(6, 24)
        key_chains, response_chains = (chains_repeating_spans(rng, n, most=2) if d % 2 == 0 else
                                       random_chains(rng, n))
        keys.append(_document(f"d{d}", n + 6, key_chains))
        responses.append(_document(f"d{d}", n + 6, response_chains))
    together, alone = Pricer(prepare(keys, responses), metric, W4), Pricer(prepare(keys, responses), metric, W4)
    impact.PARTIAL_DELTA_TOKENS, before = 0, impact.PARTIAL_DELTA_TOKENS  # every document made as a book's
    try:
        states = [pricer._state(i) for pricer in (together, alone) for i in range(4)]
    finally:
        impact.PARTIAL_DELTA_TOKENS = before
    assert any(state.delta is not None and not state.clean for state in states)
    records = classify_corpus(together.corpus.pairs, W4)
    priced, _ = price_all(together, records, [])
    assert [r.impact for r in priced] == [alone.price(alone.index[r.document], [fix_of(r)]) for r in records]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(1, 6))
def test_what_the_pass_found_before_a_change_is_each_document_s_own(seed: int, n_documents: int) -> None:
    """After a pass, each document's table holds what the pass found of its components before any
    change (`CeafCells.given_before`): each chain's component and each component's best are the
    ones a fresh table of the document finds, and every change (alone, and several at once, as a
    category's) is the same float on it as on a fresh table, with the duals given.  One document
    alone is its own pass (a book): its table is given what its arrays found."""
    tables, manys = _tables_and_changes(seed, n_documents)
    fresh, _ = _tables_and_changes(seed, n_documents)
    given_any = False
    rows = block_arrays(tables, manys, [CEAFE.name])[CEAFE.name].tolist()
    assert rows == np.concatenate([change_arrays(table, many, [CEAFE.name])[CEAFE.name]
                                   for table, many in zip(fresh, manys)]).tolist()
    for table, own, many in zip(tables, fresh, manys):
        assert table.component_index() == own.component_index()
        for metric, c in list(table._optimum):
            given_any = True
            assert table.component_best(metric, c) == own.component_best(metric, c), c
        for counts in [*many, *(_disjoint_sum(many[n::3]) for n in range(3))]:
            assert _delta_row(table, counts) == _delta_row(own, counts), counts
    assume(given_any)


def _disjoint_sum(many: list) -> tuple:
    """One change made of several (`Counts`) that share no chain, in order: a category's kind of
    change, reaching many components."""
    cells, sizes, matched, responses = [], [], 0, 0
    rows, cols = set(), set()
    for counts in many:
        its_rows = {k for (k, _), _ in counts[0]}
        its_cols = {t for (_, t), _ in counts[0]} | {t for t, _ in counts[1]}
        if its_rows & rows or its_cols & cols:
            continue
        rows |= its_rows
        cols |= its_cols
        cells += counts[0]
        sizes += counts[1]
        matched, responses = matched + counts[2], responses + counts[3]
    return tuple(cells), tuple(sizes), matched, responses

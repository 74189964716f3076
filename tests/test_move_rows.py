"""Single fixes of one move laid out as columns (`move_rows`) against the same changes as counts.

`delta.block_arrays` takes a clean document's fixes of one move as columns (`move_rows.OneMoves`):
`move_rows.ceaf_laid` classes them for CEAF-e's arrays as `ceaf_arrays.kind_of` classes their
counts, and `move_rows.count_rows` lays MUC's and B3's terms as `block_arrays` lays them from
counts.  Here every row of every metric must be the same float either way, on corpora of several
documents (so that a chain numbered into the wrong document shows), with the same changes left to
the search; and `one_move` must be `tally` of the move.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_ceaf_arrays import _fixes
from test_one_pass import _corpus

from metrics.corpus.scoring import prepare
from metrics.errors import delta, move_rows
from metrics.errors.chen_ng.fixes import single_fix_counts, single_fix_moves
from metrics.errors.chen_ng.impact import Pricer
from metrics.errors.delta import ARRAY_METRICS, block_arrays, tally
from metrics.errors.move_rows import one_move, one_moves
from metrics.measures.weights import W4


def _moves_and_counts(seed: int, n_documents: int):
    """Each document's table, its distinct single fixes' moves of one move, and the counts of the
    same changes (`single_fix_counts`)."""
    keys, responses, sizes = _corpus(seed, n_documents)
    pricer = Pricer(prepare(keys, responses), "conll", W4)
    rng = random.Random(seed + 1)
    tables, moves, counted = [], [], []
    for i, n in enumerate(sizes):
        state = pricer._state(i)
        assert state.clean
        mine: dict = {}
        for fix in _fixes(n, rng, 2 * n):
            found = single_fix_moves(state.base, fix, state.delta.row_cells)
            counts = single_fix_counts(state.base, fix, state.delta.row_cells)
            assert (found is None) == (counts is None)
            if found is not None:
                assert counts == tally(found)
                if len(found) == 1:
                    mine[found[0]] = counts
        tables.append(state.delta)
        moves.append(list(mine))
        counted.append(list(mine.values()))
    return tables, moves, counted


def _searched(monkeypatch) -> list:
    """The counts `delta._ceaf` is asked for (the changes the arrays leave to the search)."""
    asked: list = []
    ceaf = delta._ceaf

    def counting(table, change, metric):
        asked.append((tuple(sorted(change.cells.items())), tuple(sorted(change.sizes.items()))))
        return ceaf(table, change, metric)

    monkeypatch.setattr(delta, "_ceaf", counting)
    return asked


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.integers(0, 10_000), st.integers(1, 6))
def test_moves_as_columns_give_the_rows_of_their_counts(monkeypatch, seed: int, n_documents: int) -> None:
    tables, moves, counted = _moves_and_counts(seed, n_documents)
    metrics = sorted(ARRAY_METRICS)
    searched = _searched(monkeypatch)
    by_counts = block_arrays(tables, counted, metrics)
    searched_by_counts = list(searched)
    searched.clear()
    for table in tables:  # each table as fresh as before the first pass (what the pass gives it)
        table.release()
    columns = one_moves(range(len(tables)), moves, [table.row_cells for table in tables])
    by_columns = block_arrays(tables, [[] for _ in tables], metrics, columns)
    for metric in metrics:
        assert by_columns[metric].tolist() == by_counts[metric].tolist(), metric
    assert searched == searched_by_counts


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.integers(0, 10_000), st.integers(2, 5))
def test_moves_after_counts_keep_their_places(monkeypatch, seed: int, n_documents: int) -> None:
    """Some documents' changes as counts, the others' as columns after them: each row where its
    change is (the columns' rows follow every document's counts)."""
    tables, moves, counted = _moves_and_counts(seed, n_documents)
    metrics = sorted(ARRAY_METRICS)
    whole = block_arrays(tables, counted, metrics)
    for table in tables:
        table.release()
    as_counts = [many if d % 2 else [] for d, many in enumerate(counted)]
    as_moves = [[] if d % 2 else many for d, many in enumerate(moves)]
    mixed = block_arrays(tables, as_counts, metrics, one_moves(range(len(tables)), as_moves,
                                                               [table.row_cells for table in tables]))
    first = np.cumsum([0] + [len(many) for many in counted])
    order = [first[d] + j for d in range(len(tables)) if d % 2 for j in range(len(counted[d]))]
    order += [first[d] + j for d in range(len(tables)) if not d % 2 for j in range(len(counted[d]))]
    for metric in metrics:
        assert mixed[metric].tolist() == whole[metric][order].tolist(), metric


@pytest.mark.parametrize("move", [(3, None, 5, 1), (None, None, 5, 1), (3, 2, None, 1), (None, 2, None, 1),
                                  (3, 2, 5, 4), (None, 2, 5, 1), (0, 0, 1, 2)])
def test_one_move_is_the_tally_of_the_move(move) -> None:
    assert one_move(*move) == tally([move])


def test_a_move_s_columns_read_its_cells() -> None:
    """k's cell in the chain left and the chain joined, 0 without k or without a chain."""
    cells = [{0: 2, 1: 1}, {1: 3}]
    columns = one_moves([0], [[(0, 0, 1, 2), (None, 1, None, 1), (1, None, 4, 1)]], [cells])
    assert columns.cell_frm.tolist() == [2, 0, 0]
    assert columns.cell_to.tolist() == [1, 0, 0]
    assert [columns.counts(j) for j in range(3)] == [(0, one_move(0, 0, 1, 2)), (0, one_move(None, 1, None, 1)),
                                                      (0, one_move(1, None, 4, 1))]
    assert move_rows.NONE == -1


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.booleans())
def test_a_document_s_single_changes_are_its_counts_classed(seed: int, repeating: bool) -> None:
    """`DocumentState.single_changes` against each fix's counts classed as the pricer classed them
    (`single_fix_counts`; refused where the document is tainted and the counts are None or reach a
    tainted chain): the same fixes refused, and each other fix's move or counts its counts."""
    from test_impact_delta import _document, chains_repeating_spans, random_chains

    from metrics.errors.chen_ng import impact

    rng = random.Random(seed)
    n = rng.randrange(3, 30)
    key_chains, response_chains = chains_repeating_spans(rng, n, 3) if repeating else random_chains(rng, n)
    n_tokens = max([i for chain in key_chains + response_chains for i in chain], default=0) + 4
    saved, impact.PARTIAL_DELTA_TOKENS = impact.PARTIAL_DELTA_TOKENS, 0  # a partial table whatever the length
    try:
        pricer = Pricer(prepare([_document("d", n_tokens, key_chains)], [_document("d", n_tokens, response_chains)]),
                        "conll", W4)
        state = pricer._state(0)
    finally:
        impact.PARTIAL_DELTA_TOKENS = saved
    if state.delta is None:
        return  # the key lists a span twice: no table, priced by rescoring
    fixes = _fixes(n_tokens - 3, rng, 2 * n)
    ones, others, refused = state.single_changes(fixes)
    counted = [single_fix_counts(state.base, fix, state.delta.row_cells) for fix in fixes]
    assert refused == [n for n, counts in enumerate(counted)
                       if not state.clean and (counts is None or state.counts_tainted(counts))]
    assert sorted([n for n, _ in ones] + [n for n, _ in others] + refused) == \
        [n for n, counts in enumerate(counted) if counts is not None or not state.clean]
    assert all(one_move(*move) == counted[n] for n, move in ones)
    assert all(counts == counted[n] for n, counts in others)

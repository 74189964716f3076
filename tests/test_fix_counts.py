"""`fix_counts.fix_list_counts` (a list of fixes counted by cells) against `edit_chains` (the same
fixes applied mention by mention) and against rescoring the whole corpus.

Counted by cells, a category's fixes must give the very counts `delta.counts_of` finds in the
edit's moves, in the same order (so the delta table prices them to the bit as before), for lists
of fixes of any kind in any order: mentions absent from either side, targets absent from the
response, cells that merge and move again, mentions moved back where they started.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_errors_impact import full_rescore
from test_impact_delta import PRICED, _document
from test_impact_fast import _any_fix, _clean_corpus

from metrics.corpus.scoring import prepare
from metrics.errors.chen_ng.fix_counts import fix_list_counts
from metrics.errors.chen_ng.fixes import Fix, FixKind, apply_fixes, edit_chains, fix_of
from metrics.errors.chen_ng.impact import Pricer
from metrics.errors.chen_ng.records import Category, classify_corpus
from metrics.errors.delta import changes, counts_of
from metrics.measures.weights import W4


def _removes_a_key_mention(state, fixes) -> bool:
    return any(f.kind is FixKind.REMOVE and f.mention in state.base.key_chain_of for f in fixes)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(3, 30))
def test_counts_of_any_list_of_fixes_are_those_of_its_moves(seed: int, n: int) -> None:
    _, _, prepared = _clean_corpus(seed, n)
    state = Pricer(prepared, "conll", W4)._state(0)
    assert state.clean
    records = classify_corpus(prepared.pairs, W4)
    rng = random.Random(seed + 4)
    lists = [[_any_fix(rng, n) for _ in range(rng.randint(1, 10))] for _ in range(15)]
    lists += [[fix_of(r) for r in records if r.category is c] for c in Category]
    lists.append([fix_of(r) for r in records])  # every error's fix, in document order
    for fixes in lists:
        counted = fix_list_counts(state.base, fixes, state.delta.row_cells, state.delta.col_sizes)
        if counted is None:  # the one list it does not follow, which no error's fix makes
            assert _removes_a_key_mention(state, fixes)
            continue
        edit = edit_chains(state.base, fixes)
        assert counted == (bool(edit.touched), counts_of(state.delta, edit.moved)), fixes


def _counted(key_chains, response_chains, fixes):
    keys = [_document("d", 8, key_chains)]
    responses = [_document("d", 8, response_chains)]
    state = Pricer(prepare(keys, responses), "conll", W4)._state(0)
    assert state.clean
    counted = fix_list_counts(state.base, fixes, state.delta.row_cells, state.delta.col_sizes)
    edit = edit_chains(state.base, fixes)
    assert counted == (bool(edit.touched), counts_of(state.delta, edit.moved))
    return counted


def test_cells_that_merge_move_together() -> None:
    """Key chain 0 = {1,2,3,4} split over response chains 0 = {1,2,7} and 1 = {3,4}: linking 3 to 1
    merges the cells in chain 0; splitting 1 out then moves all four into a new chain (3), each
    cell counted from where it started, in the order its mentions first moved."""
    fixes = [Fix(FixKind.LINK, (3, 3), (1, 1)), Fix(FixKind.SPLIT, (1, 1))]
    touched, counts = _counted([[1, 2, 3, 4], [5], [7]], [[1, 2, 7], [3, 4], [5, 6]], fixes)
    assert touched
    assert counts == ((((0, 1), -2), ((0, 3), 4), ((0, 0), -2)), ((1, -2), (3, 4), (0, -2)), 0, 0)


def test_a_cell_moved_back_where_it_started_is_left_out() -> None:
    """Key chains {1,2,3} and {4}, response chains {1,2} and {3,4}: 3 linked to 1 joins chain 0,
    then 1 linked to 4 takes the merged cell to chain 1, where 3 started: only 1 and 2 moved."""
    fixes = [Fix(FixKind.LINK, (3, 3), (1, 1)), Fix(FixKind.LINK, (1, 1), (4, 4))]
    assert _counted([[1, 2, 3], [4]], [[1, 2], [3, 4]], fixes) == (True, ((((0, 0), -2), ((0, 1), 2)), ((0, -2), (1, 2)), 0, 0))
    assert _counted([[1, 2, 3], [4]], [[1, 2], [3, 4]], [Fix(FixKind.LINK, (1, 1), (2, 2))]) == (False, ((), (), 0, 0))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(3, 30), st.sampled_from(PRICED))
def test_a_category_counted_by_cells_is_priced_as_by_its_edit_and_by_rescoring(seed: int, n: int, metric: str) -> None:
    """Each category's price from its counts (`Pricer.document_change`) is the price of the counts
    of its edit, to the bit, and the brute force's (rescoring the whole corpus) up to rounding."""
    keys, responses, prepared = _clean_corpus(seed, n)
    records = classify_corpus(prepared.pairs, W4)
    pricer = Pricer(prepared, metric, W4)
    state = pricer._state(0)
    for category in Category:
        fixes = [fix_of(r) for r in sorted(records, key=lambda r: r.span) if r.category is category]
        if len(fixes) < 2:
            continue
        before, after = pricer.document_change(0, fixes)
        edit = edit_chains(state.base, fixes)
        if not edit.touched:
            assert (before, after) == ({}, {})
            continue
        assert after == changes(state.delta, counts_of(state.delta, edit.moved), pricer.parts)
        assert all(before[name].counts() == [0, 0, 0, 0] for name in pricer.parts)
        fixed = apply_fixes(keys[0], prepared.pairs[0].response, fixes)
        assert pricer.price(0, fixes) == pytest.approx(full_rescore(keys, responses, 0, fixed, W4, metric), abs=1e-9)

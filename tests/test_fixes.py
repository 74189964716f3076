"""The fix of each category (docs/errors-fixes.md), edit by edit, on small hand-made documents."""

from __future__ import annotations

from pathlib import Path

import pytest

import metrics
from records_road import apply_records, classify_pair
from metrics.errors.chen_ng.records import Category
from metrics.errors.chen_ng.fixes import Fix, FixBase, apply_fixes, edit_chains, fix_of, FixKind
from metrics.model import Document

WORDS = "a b c d e f g h i j".split()


def doc(*chains, labels=None) -> Document:
    chains = [[(i, i) for i in c] for c in chains]
    return Document(name="d", words=WORDS, chains=chains,
                    labels=labels or [str(i) for i in range(len(chains))])


def tokens(document: Document) -> set[frozenset[int]]:
    return {frozenset(s[0] for s in c) for c in document.chains}


KEY = doc([0, 2, 4], [1, 3, 5])


def test_link_moves_the_mention_with_its_key_share() -> None:
    # Response: {0}, {1, 2, 4}: 2 is linked wrongly; fixing it brings 4 (same key chain) along,
    # and leaves 1 (another key chain) where it was.
    fixed = apply_fixes(KEY, doc([0], [1, 2, 4], [3, 5]), [Fix(FixKind.LINK, (2, 2), (0, 0))])
    assert tokens(fixed) == {frozenset({0, 2, 4}), frozenset({1}), frozenset({3, 5})}


def test_link_adds_an_absent_mention_and_an_absent_antecedent() -> None:
    fixed = apply_fixes(KEY, doc([0], [3, 5]), [Fix(FixKind.LINK, (2, 2), (0, 0))])
    assert tokens(fixed) == {frozenset({0, 2}), frozenset({3, 5})}
    # Antecedent absent too: both start a new chain, with the key share of the mention's chain.
    fixed = apply_fixes(KEY, doc([3, 5]), [Fix("link", (5, 5), (1, 1))])
    assert tokens(fixed) == {frozenset({1, 3, 5})}


def test_link_within_one_chain_is_a_no_op() -> None:
    response = doc([0, 2, 4], [1, 3, 5])
    assert tokens(apply_fixes(KEY, response, [Fix("link", (4, 4), (0, 0))])) == tokens(response)


def test_split_takes_the_key_chain_out() -> None:
    # 1 starts its key chain but is linked to 0: split it out, with 3 (its key chain), leaving 0-2.
    fixed = apply_fixes(KEY, doc([0, 1, 2, 3]), [Fix("split", (1, 1))])
    assert tokens(fixed) == {frozenset({0, 2}), frozenset({1, 3})}
    # A twinless mention is split alone.
    fixed = apply_fixes(KEY, doc([0, 2, 7]), [Fix("split", (7, 7))])
    assert tokens(fixed) == {frozenset({0, 2}), frozenset({7})}


def test_add_and_remove() -> None:
    fixed = apply_fixes(KEY, doc([2, 4], [8]), [Fix("add", (0, 0)), Fix("remove", (8, 8))])
    assert tokens(fixed) == {frozenset({2, 4}), frozenset({0})}
    # Idempotent: adding a present mention or removing an absent one changes nothing.
    response = doc([0, 2])
    assert tokens(apply_fixes(KEY, response, [Fix("add", (0, 0)), Fix("remove", (9, 9))])) == tokens(response)


def test_untouched_chains_keep_order_labels_and_duplicates() -> None:
    response = doc([5, 3], [8, 8], [0, 7], labels=["x", "y", "z"])
    fixed = apply_fixes(KEY, response, [Fix("remove", (7, 7))])
    assert fixed.chains == [[(5, 5), (3, 3)], [(8, 8), (8, 8)], [(0, 0)]]
    assert fixed.labels == ["x", "y", "z"]
    assert response.chains[2] == [(0, 0), (7, 7)]  # the input is not edited


def test_new_chains_get_fresh_labels() -> None:
    response = doc([0, 1, 2, 3], labels=["fix0"])
    fixed = apply_fixes(KEY, response, [Fix("split", (1, 1))])
    assert fixed.labels[0] == "fix0" and len(set(fixed.labels)) == 2


def test_edit_reports_touched_chains() -> None:
    base = FixBase(KEY, doc([0], [1, 2, 4], [3, 5]))
    edit = edit_chains(base, [Fix(FixKind.LINK, (2, 2), (0, 0))])
    assert edit.touched == {0, 1}
    assert edit_chains(base, []).touched == set()
    # The base is reusable: an edit does not leak into the next one.
    assert edit_chains(base, [Fix("remove", (3, 3))]).chain(0) == [(0, 0)]


def test_unknown_fix_kind() -> None:
    with pytest.raises(ValueError):
        apply_fixes(KEY, doc([0]), [Fix("merge", (0, 0))])


def test_fix_of_each_category() -> None:
    samples = Path(__file__).resolve().parent.parent / "samples" / "chen-ng"
    key = metrics.read_documents(str(samples / "key.conll"))
    response = metrics.read_documents(str(samples / "response-e.conll"))
    pair = metrics.prepare(key, response).pairs[0]
    records = classify_pair(pair)
    wrong = next(r for r in records if r.category is Category.WRONG_LINK)
    assert fix_of(wrong) == Fix("link", wrong.span, wrong.best_antecedent.span)
    # One round fixes response (e) completely: S_you moves, with all its "you"s, to Jerusalem's chain.
    fixed = apply_records(pair.key, pair.response, records)
    assert {frozenset(c) for c in fixed.chains} == {frozenset(c) for c in pair.key.chains}
    assert classify_pair(metrics.prepare(key, [fixed]).pairs[0]) == []

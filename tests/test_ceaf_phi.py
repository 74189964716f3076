"""CEAF under Luo's (2005) four entity similarities, on his Figure 1 (samples/luo).

Key: K1 = {1..5}, K2 = {6, 7}, K3 = {8, 9, A, B, C}.  Responses: (a) {1..5} {6..C}; (b) {1..5, 8..C}
{6, 7}; (c) one entity of all twelve; (d) twelve singletons.  phi1(K, R) = 1 if R = K, phi2(K, R) = 1
if R is inside K (equations 6, 7); phi3 = |K ∩ R|, phi4 = 2|K ∩ R| / (|K| + |R|) are CEAFm and CEAFe,
which tests/test_paper_tables.py checks against Table 1.  By hand, with the best one-to-one alignment:
- (a) phi1: R1 = K1 only -> 1; recall 1/3, precision 1/2.  phi2: R1 inside K1, R2 inside none -> 1.
- (b) phi1: R2 = K2 only -> 1; 1/3, 1/2.  phi2: R2 inside K2, R1 inside none -> 1; 1/3, 1/2.
- (c) no key entity equals or contains the whole -> 0 for both; recall and precision 0.
- (d) phi1: no singleton equals a key entity -> 0.  phi2: every singleton lies inside its key entity,
  but the alignment is one-to-one: one singleton per key entity -> 3; recall 3/3, precision 3/12.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from strategies import Pair, pairs

from metrics.formats.readers import read_documents
from metrics.corpus.scoring import prepare

ROOT = Path(__file__).resolve().parent.parent
PHIS = ("ceaf_phi1", "ceaf_phi2", "ceafm", "ceafe")
BY_HAND = {  # response -> {metric: (recall, precision)}
    "a": {"ceaf_phi1": (1 / 3, 1 / 2), "ceaf_phi2": (1 / 3, 1 / 2)},
    "b": {"ceaf_phi1": (1 / 3, 1 / 2), "ceaf_phi2": (1 / 3, 1 / 2)},
    "c": {"ceaf_phi1": (0.0, 0.0), "ceaf_phi2": (0.0, 0.0)},
    "d": {"ceaf_phi1": (0.0, 0.0), "ceaf_phi2": (1.0, 3 / 12)},
}


def luo(response: str, swap: bool = False):
    key = read_documents(str(ROOT / "samples/luo/key.conll"))
    resp = read_documents(str(ROOT / f"samples/luo/response-{response}.conll"))
    if swap:
        key, resp = resp, key
    return prepare(key, resp).score(metrics=list(PHIS)).micro


@pytest.mark.parametrize("response", "abcd")
def test_phi1_and_phi2_on_luo_figure1_by_hand(response):
    scores = luo(response)
    for metric, (recall, precision) in BY_HAND[response].items():
        assert scores[metric].recall == pytest.approx(recall), metric
        assert scores[metric].precision == pytest.approx(precision), metric


@pytest.mark.parametrize("response", "abcd")
def test_phi1_phi3_phi4_are_symmetric_phi2_is_not(response):
    forward, backward = luo(response), luo(response, swap=True)
    for metric in ("ceaf_phi1", "ceafm", "ceafe"):
        assert forward[metric].recall == pytest.approx(backward[metric].precision), metric
        assert forward[metric].precision == pytest.approx(backward[metric].recall), metric
    if response == "d":  # twelve singletons inside the key's entities, but no key entity inside one
        assert forward["ceaf_phi2"].recall == 1.0 and backward["ceaf_phi2"].precision == 0.0


@settings(max_examples=100, deadline=None)
@given(pairs(max_tokens=8, max_mentions=6))
def test_every_ceaf_is_bounded_and_one_for_a_perfect_response(pair: Pair):
    scores = prepare([pair.key], [pair.response]).score(metrics=list(PHIS)).micro
    for metric in PHIS:
        for value in (scores[metric].recall, scores[metric].precision):
            assert 0.0 <= value <= 1.0 + 1e-12
    if pair.key.chains:
        perfect = prepare([pair.key], [pair.key]).score(metrics=list(PHIS)).micro
        assert all(perfect[m].f1 == pytest.approx(1.0) for m in PHIS)


def _best_total_by_scipy(table, phi) -> float:
    """Brute force: the best one-to-one alignment of the dense key x response phi matrix."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    dense = np.zeros((len(table.key_sizes), len(table.response_sizes)))
    dense[table.cell_key, table.cell_response] = phi
    rows, columns = linear_sum_assignment(dense, maximize=True)
    return float(dense[rows, columns].sum())


@settings(max_examples=300, deadline=None)
@given(pairs(max_tokens=10, max_mentions=9, duplicates=True))
def test_phi1_and_phi2_totals_equal_the_best_alignment_of_the_dense_matrix(pair: Pair):
    """The 0/1 similarities are scored by a largest matching of their 1-cells; that must be the
    best alignment's total, found here by scipy's solver on the whole matrix."""
    from metrics.measures import formulas

    scored = prepare([pair.key], [pair.response])
    table = scored.pairs[0].table
    for exact in (True, False):  # phi1, phi2
        phi = formulas.luo_phi(table, exact)
        assert formulas.ceaf_entity_phi(table, phi).recall_num == _best_total_by_scipy(table, phi), exact


def test_matching_size_needs_augmenting_paths():
    """A row that takes the first free column can block a later one; the largest matching
    re-routes it (row 1 of the third case gets column 0 only after row 0 moves to column 3)."""
    from metrics.measures.formulas import matching_size

    assert matching_size([0, 0, 1, 2], [0, 1, 0, 1]) == 2
    assert matching_size([0, 0, 1, 1, 2], [0, 1, 1, 2, 2]) == 3
    assert matching_size([0, 1, 2, 2, 1, 0], [0, 0, 0, 1, 2, 3]) == 3
    assert matching_size([], []) == 0

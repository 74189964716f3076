"""scipy's solver replayed on a sparse matrix (`metrics.runtime.lsap_sparse`) gives scipy's own
pairs, ties included, and CorefUD's alignment (`metrics.mentions.corefud._assign`) built on it
gives the pairs of the dense solve corefud-scorer runs.  Matrices and mentions are drawn with many
ties (few distinct scores, equal heads, rows and columns of zeros): there solving each component
of the overlap graph alone gives other pairs (the last test shows one)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from metrics.measures.corefud import ceafe, ceafm
from metrics.mentions.corefud import AlignedDocument, _assign, match_score, mention_order, zero_score
from metrics.model import NodeMention
from metrics.runtime.lsap import linear_sum_assignment
from metrics.runtime import lsap_sparse
from metrics.runtime.lsap_sparse import assigned_similarity, assignment, replays_scipy, sparse_linear_sum_assignment



@pytest.fixture(autouse=True, scope="module")
def replayed_at_every_size():
    """Every matrix here replayed, none solved dense for being small (`DENSE_CELLS`)."""
    kept, lsap_sparse.DENSE_CELLS = lsap_sparse.DENSE_CELLS, 0
    yield
    lsap_sparse.DENSE_CELLS = kept


SCORES = (1.0, 0.5, 0.25, 1 / 3, 2 / 3, 0.75, 0.2, 1 / 7)


def scipy_pairs(dense: np.ndarray) -> list[tuple[int, int]]:
    """The pairs of negative cost scipy picks on the dense matrix, by row."""
    rows, cols = linear_sum_assignment()(dense)
    return [(r, c) for r, c in zip(rows.tolist(), cols.tolist()) if dense[r, c] < 0]


@st.composite
def sparse_matrices(draw: st.DrawFn, max_side: int = 12) -> np.ndarray:
    """A matrix of -0.0 and a few distinct negative costs, wide or tall."""
    rows = draw(st.integers(1, max_side))
    columns = draw(st.integers(1, max_side))
    values = draw(st.lists(st.sampled_from(SCORES), min_size=1, max_size=4, unique=True))
    cells = draw(st.lists(st.tuples(st.integers(0, rows - 1), st.integers(0, columns - 1), st.sampled_from(values)),
                          max_size=rows * columns))
    dense = np.full((rows, columns), -0.0)
    for i, j, value in cells:
        dense[i, j] = -value
    return dense


# rounding leaves one of scipy's v above 0 (a minVal - shortestPathCosts of -1e-16): a replay blind
# to that column pairs row 1 with column 6, where scipy pairs row 5
ROUNDING = np.full((7, 7), -0.0)
for _i, _row in enumerate([{3: -1 / 3, 4: -1 / 3}, {3: -0.3, 6: -0.5}, {5: -2 / 3, 6: -0.75}, {2: -2 / 3, 6: -1.0}, {},
                           {6: -0.5}, {4: -0.75}]):
    for _j, _cost in _row.items():
        ROUNDING[_i, _j] = _cost
# 8 keys x 5 responses: solved per component, key 0 takes response 2 (rows 0, 1, 5 against columns
# 2, 3); on the whole matrix (scipy solves its transpose) key 5 takes it
COMPONENTS_DIFFER = -np.array([[0, 0, 1, 0, 0], [0, 0, 1, 1, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0],
                               [0, 0, 1, 0, 0], [1, 0, 0, 0, 1], [0, 0, 0, 0, 1]], dtype=float)


@settings(max_examples=600, deadline=None)
@given(sparse_matrices())
@example(ROUNDING)
def test_the_replay_picks_scipys_pairs(dense):
    """Every pair, those of cost -0.0 too (CEAF sums their similarities in scipy's order)."""
    costs = [{j: float(dense[i, j]) for j in np.flatnonzero(dense[i] < 0).tolist()} for i in range(dense.shape[0])]
    rows, cols = linear_sum_assignment()(dense)
    assert assignment(costs, dense.shape[1]) == list(zip(rows.tolist(), cols.tolist()))


def test_this_scipy_is_the_one_replayed():
    """Where it is not (another version of scipy's algorithm), `_assign` solves the dense matrix."""
    assert replays_scipy()


def shifting_solver(dense: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A scipy whose solver shifts the costs to be >= 0 first, as scipy before 1.17's algorithm
    did: on the witness matrix it picks other pairs than the replay (rows 2, 4 and 6)."""
    return linear_sum_assignment()(dense - dense.min() if dense.size else dense)


@pytest.fixture
def another_scipy(monkeypatch):
    """The engine under `shifting_solver` as its scipy: the witness check made again (its answer is
    kept per process), and put back afterwards."""
    from metrics.runtime import lsap

    monkeypatch.setattr(lsap, "linear_sum_assignment", lambda: shifting_solver)
    replays_scipy.cache_clear()
    yield
    replays_scipy.cache_clear()


def test_under_another_scipy_the_witness_disagrees_and_the_dense_solve_is_taken(another_scipy):
    """The fallback, exercised where this machine's scipy never takes it: the witness tells the
    other algorithm apart, and the pairs are then that scipy's own, of its dense solve."""
    witness = list(lsap_sparse._WITNESS)
    dense = np.full((len(witness), 8), -0.0)
    for i, row in enumerate(witness):
        for j, cost in row.items():
            dense[i, j] = cost
    assert not replays_scipy()
    rows, cols = shifting_solver(dense)
    assert assignment(witness, 8) == list(zip(rows.tolist(), cols.tolist()))
    assert [j for _, j in assignment(witness, 8)] != sparse_linear_sum_assignment(witness, 8)  # the replay's


@settings(max_examples=200, deadline=None)
@given(sparse_matrices())
def test_under_another_scipy_every_matrix_gets_its_dense_solves_pairs(dense):
    """(`another_scipy` as a context here: Hypothesis runs the body many times under one fixture.)"""
    from metrics.runtime import lsap

    kept = lsap.linear_sum_assignment
    lsap.linear_sum_assignment = lambda: shifting_solver
    replays_scipy.cache_clear()
    try:
        costs = [{j: float(dense[i, j]) for j in np.flatnonzero(dense[i] < 0).tolist()} for i in range(dense.shape[0])]
        rows, cols = shifting_solver(dense)
        assert assignment(costs, dense.shape[1]) == list(zip(rows.tolist(), cols.tolist()))
    finally:
        lsap.linear_sum_assignment = kept
        replays_scipy.cache_clear()


NODES = [(s, w, e) for s in (1, 2) for w in range(1, 7) for e in (0, 0, 1)]


@st.composite
def node_mentions(draw: st.DrawFn, zero: bool) -> NodeMention:
    """A mention over two short sentences: contiguous words with a head among them (often the
    first, so that heads are often equal), or a zero with a few dependencies."""
    sentence = draw(st.integers(1, 2))
    if zero:
        head = (sentence, draw(st.integers(1, 3)), 1)
        deps = draw(st.lists(st.tuples(st.sampled_from([(sentence, 0, 0), (sentence, 1, 0), (sentence, 2, 0)]),
                                       st.sampled_from(["nsubj", "obj"])), min_size=1, max_size=2, unique=True))
        return NodeMention((head,), head, tuple(deps))
    start = draw(st.integers(1, 6))
    nodes = tuple((sentence, w, 0) for w in range(start, min(7, start + draw(st.integers(0, 3))) + 1))
    head = nodes[0] if draw(st.booleans()) else draw(st.sampled_from(nodes))
    return NodeMention(nodes, head)


def dense_assign(keys, responses, score):
    """The alignment as it was (and as corefud-scorer makes it): every pair scored into the full matrix."""
    if not keys or not responses:
        return []
    keys, responses = sorted(keys, key=mention_order), sorted(responses, key=mention_order)
    cost = np.negative(np.array([[score(k, s) for s in responses] for k in keys]))
    return [(keys[r], responses[c]) for r, c in scipy_pairs(cost)]


@settings(max_examples=300, deadline=None)
@given(st.booleans(), st.sampled_from(["head", "partial"]), st.data())
def test_assign_gives_the_dense_solves_pairs(zero, match, data):
    """Keys and responses both ways round in number (scipy transposes a tall matrix)."""
    mentions = st.lists(node_mentions(zero), max_size=10, unique_by=lambda m: (m.nodes, m.head))
    keys, responses = data.draw(mentions), data.draw(mentions)
    score = zero_score if zero else (lambda k, s: match_score(k, s, match))
    assert _assign(keys, responses, score) == dense_assign(keys, responses, score)


def test_components_alone_would_pick_other_pairs():
    """What the tests above guard against: the components of this matrix solved alone by scipy pair
    key 0 with response 2, the whole matrix pairs key 5 with it, and so does the replay."""
    dense = COMPONENTS_DIFFER
    rows, columns = [0, 1, 5], [2, 3]
    alone = [(rows[r], columns[c]) for r, c in scipy_pairs(dense[np.ix_(rows, columns)])]
    assert alone == [(0, 2), (1, 3)]
    assert scipy_pairs(dense) == [(1, 3), (5, 2), (6, 0), (7, 4)]
    by_response = [{i: float(dense[i, j]) for i in range(8) if dense[i, j] < 0} for j in range(5)]
    row4col = sparse_linear_sum_assignment(by_response, 8)
    assert sorted((i, j) for j, i in enumerate(row4col) if i in by_response[j]) == [(1, 3), (5, 2), (6, 0), (7, 4)]


def dense_ceaf(doc: AlignedDocument, entity: bool) -> tuple:
    """CEAF's similarity as it was computed (and as corefud-scorer computes it): the full matrix."""
    scores = np.zeros((len(doc.key), len(doc.response)))
    for i, k in enumerate(doc.key):
        for j, r in enumerate(doc.response):
            n = sum(1 for m in k if doc.partner.get(m, m) in set(r))
            if n:
                scores[i, j] = 2 * n / float(len(k) + len(r)) if entity else n
    rows, cols = linear_sum_assignment()(-scores)
    return scores[rows, cols].sum()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.integers(0, 9), min_size=1, max_size=4), max_size=8),
       st.lists(st.lists(st.integers(0, 9), min_size=1, max_size=4), max_size=8),
       st.dictionaries(st.integers(0, 9), st.integers(0, 9), max_size=4))
def test_corefud_ceaf_sums_the_dense_solves_pairs(key, response, partner):
    """CEAF-e and CEAF-m equal to the last bit: the same pairs, summed in the same order."""
    doc = AlignedDocument("d", key, response, [], [], partner, [], [])
    for entity, metric in ((True, ceafe), (False, ceafm)):
        score = metric(doc)
        assert score.recall_num == score.precision_num == dense_ceaf(doc, entity)


@settings(max_examples=300, deadline=None)
@given(sparse_matrices())
@example(ROUNDING)
@example(COMPONENTS_DIFFER)
def test_assigned_similarity_is_the_dense_tables_sum(dense):
    """CEAF's similarity from the cells alone equals, to the bit, the sum over scipy's pairs on the
    dense table of similarities (every CEAF summed it so: `scores[rows, cols].sum()`)."""
    scores = -dense
    costs = [{j: float(dense[i, j]) for j in np.flatnonzero(dense[i] < 0).tolist()} for i in range(dense.shape[0])]
    rows, cols = linear_sum_assignment()(-scores)
    expected = scores[rows, cols].sum()
    assert assigned_similarity(costs, dense.shape[1]).tobytes() == expected.tobytes()

"""Intervals and significance tests (metrics/statistics/significance.py) against brute force and statistics.

The resampled values are checked against the engine scoring the resampled corpus document by
document; the tests' p-values against cases whose answer is known; the interval width against the
normal approximation of a ratio estimator.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from strategies import corpora, make_document

from metrics.measures.catalog import ALL_METRICS, with_parts
from metrics.model import MentionType
from metrics.measures.score import BlancScore, Score
from metrics.corpus.scoring import aggregate, prepare
from metrics.statistics.significance import Method, _Counts, compare
from metrics.measures.weights import W4


def _doc(name: str, n: int, chains: list[list[int]]):
    types = {(i, i): MentionType(i % 3) for i in range(n)}
    return make_document(name, ["w"] * n, [[(i, i) for i in c] for c in chains], types)


def _result(keys, responses):
    return prepare(keys, responses).score(W4, with_parts(ALL_METRICS))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(max_documents=4))
def test_a_resample_is_valued_as_the_engine_scores_its_documents(corpus) -> None:
    result = _result([p.key for p in corpus], [p.response for p in corpus])
    if not result.documents:
        return
    counts = _Counts(result, ALL_METRICS)
    rng = random.Random(len(corpus))
    rows = []
    for _ in range(3):
        row = [rng.randint(0, 2) for _ in result.documents]
        row[0] = max(row[0], 1)  # an empty resample has no corpus value to compare with
        rows.append(row)
    weights = np.array(rows, dtype=np.float64)
    for metric in ALL_METRICS:
        values = counts.values(weights, metric)
        for row, value in zip(rows, values):
            chosen = [doc for doc, times in zip(result.documents, row) for _ in range(times)]
            expected = aggregate(chosen, W4, with_parts((metric,))).micro[metric].f1
            assert value == pytest.approx(expected, abs=1e-12), (metric, row)


def test_scores_of_arrays_equal_scores_of_each_entry() -> None:
    rng = np.random.default_rng(3)
    counts = rng.integers(0, 4, size=(8, 200)).astype(np.float64)
    score = Score(*counts[:4])
    blanc = BlancScore(Score(*counts[:4]), Score(*counts[4:]))
    for i in range(200):
        one = Score(*(float(c[i]) for c in counts[:4]))
        assert score.f1[i] == pytest.approx(one.f1) and score.recall[i] == pytest.approx(one.recall)
        two = BlancScore(one, Score(*(float(c[i]) for c in counts[4:])))
        assert blanc.f1[i] == pytest.approx(two.f1) and blanc.precision[i] == pytest.approx(two.precision)


def _corpus(n_docs: int, seed: int, fix=lambda i: False, drop=lambda i: False):
    """Keys of 3 chains; responses that split the second chain, unless `fix(i)`; `drop(i)` loses a mention."""
    rng = random.Random(seed)
    keys, a, b = [], [], []
    for i in range(n_docs):
        n = rng.randint(12, 30)
        cut = n // 3
        chains = [list(range(0, cut, 2)), list(range(1, n, 2)), list(range(cut + (cut % 2 == 0), n, 2))]
        chains = [c for c in chains if c]
        keys.append(_doc(f"d{i}", n, [list(dict.fromkeys(c)) for c in _disjoint(chains)]))
        split = [c[: len(c) // 2] for c in keys[-1].chains] + [c[len(c) // 2:] for c in keys[-1].chains]
        a.append(keys[-1].__class__(**{**keys[-1].__dict__, "chains": [c for c in split if c], "labels": []}))
        good = keys[-1].chains if fix(i) else a[-1].chains
        if drop(i):
            good = [c[1:] if j == 0 else c for j, c in enumerate(good)]
        b.append(keys[-1].__class__(**{**keys[-1].__dict__, "chains": [c for c in good if c], "labels": []}))
    return keys, a, b


def _disjoint(chains):
    seen, out = set(), []
    for chain in chains:
        kept = [(t, t) for t in chain if t not in seen]
        seen.update(chain)
        out.append([s[0] for s in kept])
    return [c for c in out if c]


@pytest.mark.parametrize("test", ["bootstrap", "ar"])
def test_a_system_against_itself_differs_by_zero_with_p_1(test) -> None:
    keys, a, _ = _corpus(20, 1)
    result = _result(keys, a)
    comparison = compare([result, result], ALL_METRICS, Method(resamples=300, test=test, trials=300))
    for metric in ALL_METRICS:
        difference = comparison.differences[0][metric]
        assert difference.value == 0.0 and difference.p_value == 1.0
        assert difference.interval.low == difference.interval.high == 0.0


@pytest.mark.parametrize("test", ["bootstrap", "ar"])
def test_fixing_errors_in_every_document_is_significant(test) -> None:
    keys, a, b = _corpus(50, 2, fix=lambda i: True)
    comparison = compare([_result(keys, a), _result(keys, b)], ("conll", "muc", "bcub"),
                         Method(resamples=1000, test=test, trials=2000))
    for metric in ("conll", "muc", "bcub"):
        assert comparison.differences[0][metric].value > 0
        assert comparison.differences[0][metric].p_value < 0.01
        assert comparison.significant(1, metric)


@pytest.mark.parametrize("test", ["bootstrap", "ar"])
def test_one_mention_in_one_of_50_documents_is_not_significant(test) -> None:
    keys, a, _ = _corpus(50, 3)
    _, _, b = _corpus(50, 3, drop=lambda i: i == 17)
    comparison = compare([_result(keys, a), _result(keys, b)], ("conll", "mentions"),
                         Method(resamples=1000, test=test, trials=2000))
    assert comparison.differences[0]["mentions"].value != 0
    for metric in ("conll", "mentions"):
        assert comparison.differences[0][metric].p_value > 0.05


def test_interval_width_is_the_normal_approximations() -> None:
    """Mention recall is a ratio of sums over documents: its standard error over document
    resamples is sqrt(sum (a_i - R b_i)^2) / sum b_i (the delta method), and a 95% interval is
    about 2 x 1.96 of it wide."""
    rng = random.Random(5)
    keys, responses = [], []
    for i in range(400):
        n = rng.randint(10, 60)
        mentions = list(range(n))
        keys.append(_doc(f"d{i}", n, [[m] for m in mentions]))
        rate = rng.uniform(0.3, 0.95)
        responses.append(_doc(f"d{i}", n, [[m] for m in mentions if rng.random() < rate]))
    result = prepare(keys, responses).score(W4, ("mentions",))
    found = np.array([s["mentions"].recall_num for _, s in result.documents])
    total = np.array([s["mentions"].recall_den for _, s in result.documents])
    recall = found.sum() / total.sum()
    se = math.sqrt(((found - recall * total) ** 2).sum()) / total.sum()
    interval = compare([result], ("mentions",), Method(resamples=4000)).intervals[0]["mentions"]
    assert recall == result.micro["mentions"].recall
    # F1 here: precision is 1, so F1 = 2R / (1 + R), whose derivative scales the error
    f1_se = se * 2 / (1 + recall) ** 2
    assert interval.high - interval.low == pytest.approx(2 * 1.959964 * f1_se, rel=0.10)


def test_output_is_reproducible_by_seed() -> None:
    keys, a, b = _corpus(30, 4, fix=lambda i: i % 2 == 0)
    results = [_result(keys, a), _result(keys, b)]
    one = compare(results, ("conll",), Method(seed=7))
    assert one == compare(results, ("conll",), Method(seed=7))
    assert one.intervals != compare(results, ("conll",), Method(seed=8)).intervals


def test_method_refuses_nonsense() -> None:
    for bad in ({"resamples": 0}, {"confidence": 1.0}, {"test": "t"}, {"trials": 0}):
        with pytest.raises(ValueError):
            Method(**bad)

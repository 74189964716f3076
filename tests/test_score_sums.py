"""The corpus sums and means of scores (`measures.score.total`, `mean_score`) computed over arrays
equal, to the bit, the definitions they replace: a left fold of `__add__`, and the mean of each
score's recall, precision and F1 as its properties give them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.measures.score import BlancScore, MeanScore, Score, mean, total, mean_score

COUNT = st.one_of(st.integers(0, 50), st.floats(0, 50, allow_nan=False, allow_infinity=False),
                  st.sampled_from([0.0, 1.0, 1 / 3, 2 / 3, 0.1]))
SCORES = st.builds(Score, COUNT, COUNT, COUNT, COUNT)
BLANCS = st.builds(BlancScore, SCORES, SCORES)


def folded(values):
    found = values[0]
    for value in values[1:]:
        found = found + value
    return found


def by_properties(values) -> MeanScore:
    return MeanScore(mean([v.recall for v in values]), mean([v.precision for v in values]),
                     mean([v.f1 for v in values]))


def exact(a, b) -> bool:
    """Equal values of equal Python types (an int count must stay an int: JSON writes `3`, not `3.0`)."""
    if isinstance(a, (Score, BlancScore)):
        return type(a) is type(b) and all(exact(x, y) for x, y in zip(a.counts(), b.counts()))
    return type(a) is type(b) and a == b


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(SCORES), min_size=1, max_size=30))
def test_total_of_scores_is_the_fold_of_add(values):
    assert exact(total(values), folded(values))


@settings(max_examples=300, deadline=None)
@given(st.lists(BLANCS, min_size=1, max_size=30))
def test_total_of_blanc_scores_is_the_fold_of_add(values):
    summed, expected = total(values), folded(values)
    assert exact(summed.coref, expected.coref) and exact(summed.noncoref, expected.noncoref)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.lists(SCORES, max_size=30), st.lists(BLANCS, max_size=30)))
def test_mean_score_is_the_mean_of_each_property(values):
    found, expected = mean_score(values), by_properties(values)
    # repr: the same bits, NaN included (a subnormal denominator overflows on both paths alike)
    assert repr((found.recall, found.precision, found.f1)) == repr((expected.recall, expected.precision, expected.f1))
    assert all(type(x) is float for x in (found.recall, found.precision, found.f1) if values)


def test_total_of_nothing_is_none():
    assert total([]) is None
    assert total(iter([Score(1.0, 2.0, 1.0, 2.0)])) == Score(1.0, 2.0, 1.0, 2.0)

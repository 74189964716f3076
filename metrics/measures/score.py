"""Score values: raw counts first, fractions derived, so corpus scores can be micro-averaged.

v8.01 reports every metric as four counts (recall numerator/denominator, precision
numerator/denominator); corpus scores sum them over documents and divide once.  Keeping counts
(not fractions) per document is what makes micro-averaging, impact estimates and byte-identical
output across runs straightforward.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import reduce
from operator import add, attrgetter

import numpy as np

# Scores hold floats; they may also hold numpy arrays, one entry per resample of a corpus
# (metrics.statistics.significance evaluates a thousand resampled corpora at once that way).  The scalar
# path below is the official one and stays exactly as it is; arrays take the `where` branch.


def ratio(num: float, den: float) -> float:
    """num / den, with x / 0 = 0 (v8.01's convention, and the papers' for empty denominators)."""
    if isinstance(den, np.ndarray):
        return np.divide(num, den, out=np.zeros(den.shape), where=den != 0)
    return num / den if den else 0.0


def harmonic(r: float, p: float) -> float:
    if isinstance(r, np.ndarray) or isinstance(p, np.ndarray):
        total = np.asarray(r + p, dtype=np.float64)
        return np.divide(2 * r * p, total, out=np.zeros(total.shape), where=total != 0)
    return 2 * r * p / (r + p) if r + p else 0.0


@dataclass(frozen=True)
class Score:
    recall_num: float
    recall_den: float
    precision_num: float
    precision_den: float

    @property
    def recall(self) -> float:
        return ratio(self.recall_num, self.recall_den)

    @property
    def precision(self) -> float:
        return ratio(self.precision_num, self.precision_den)

    @property
    def f1(self) -> float:
        return harmonic(self.recall, self.precision)

    def __add__(self, other: "Score") -> "Score":
        return Score(self.recall_num + other.recall_num, self.recall_den + other.recall_den,
                     self.precision_num + other.precision_num, self.precision_den + other.precision_den)

    def counts(self) -> list[float]:
        return [self.recall_num, self.recall_den, self.precision_num, self.precision_den]


@dataclass(frozen=True)
class BlancScore:
    """BLANC (Luo et al. 2014): the mean of the coreference-link and non-coreference-link scores.

    When the key has no coreference links (or no non-coreference links), BLANC is the other part
    alone, as v8.01 does.  F is the mean of the two F scores, not the harmonic mean of R and P.
    """

    coref: Score
    noncoref: Score

    def _mean(self, attribute: str) -> float:
        """The mean of a value over the parts the key has links of."""
        if isinstance(self.coref.recall_den, np.ndarray):  # resamples
            present = [s.recall_den != 0 for s in (self.coref, self.noncoref)]
            total = sum(np.where(m, getattr(s, attribute), 0.0) for m, s in zip(present, (self.coref, self.noncoref)))
            n = present[0].astype(np.float64) + present[1]
            return np.divide(total, n, out=np.zeros(n.shape), where=n != 0)
        return mean([getattr(s, attribute) for s in (self.coref, self.noncoref) if s.recall_den])

    @property
    def recall(self) -> float:
        return self._mean("recall")

    @property
    def precision(self) -> float:
        return self._mean("precision")

    @property
    def f1(self) -> float:
        return self._mean("f1")

    def __add__(self, other: "BlancScore") -> "BlancScore":
        return BlancScore(self.coref + other.coref, self.noncoref + other.noncoref)

    def counts(self) -> list[float]:
        return self.coref.counts() + self.noncoref.counts()


@dataclass(frozen=True)
class AnchorScore:
    """F-phi: the harmonic mean of entity detection F and entity mentions F.

    Micro-averaging adds the ED and EM counts separately and combines the two F-scores last, as the
    paper combines its corpus-level ED and EM.  Recall and precision are combined the same way
    (harmonic means), so that R, P and F are all on the same footing.
    """

    ed: Score
    em: Score

    @property
    def recall(self) -> float:
        return harmonic(self.ed.recall, self.em.recall)

    @property
    def precision(self) -> float:
        return harmonic(self.ed.precision, self.em.precision)

    @property
    def f1(self) -> float:
        return harmonic(self.ed.f1, self.em.f1)

    def __add__(self, other: "AnchorScore") -> "AnchorScore":
        return AnchorScore(self.ed + other.ed, self.em + other.em)

    def counts(self) -> list[float]:
        return self.ed.counts() + self.em.counts()


@dataclass(frozen=True)
class MeanScore:
    """A score defined as the mean of other scores (the CoNLL score; macro averages)."""

    recall: float
    precision: float
    f1: float

    def counts(self) -> list[float]:
        return []


AnyScore = Score | BlancScore | MeanScore


def mean(values: Sequence[float]) -> float:
    """The plain mean, summed in the order given; 0 for no value (a macro-average over none)."""
    return ratio(sum(values), len(values))


def mean_score(values: Sequence[AnyScore]) -> MeanScore:
    """The plain mean of scores' recall, precision and F1, summed in the order given (the CoNLL
    score of MUC, B3 and CEAFe, as the official scorers sum it; a macro-average over documents;
    the macro-average over datasets).  Every mean of scores in the engine is this one.

    Why arrays: a macro-average over 20,000 documents read three properties of each score, a
    quarter of a second per metric; `values_of` computes them all at once with the same
    operations, so the values (and then their sums, still Python's) are the same to the bit."""
    found = values_of(values) if len(values) >= _MANY else None
    if found is not None:
        return MeanScore(*(mean(column.tolist()) for column in found))
    return MeanScore(mean([v.recall for v in values]), mean([v.precision for v in values]),
                     mean([v.f1 for v in values]))


def total(values: Iterable[AnyScore]) -> AnyScore | None:
    """The sum of documents' scores (their counts added, in the order given: the micro-average's
    numerators and denominators); None for no value.  Every sum of documents' counts is this one.

    Scores of one plain kind (`Score`, `BlancScore`) are summed count by count, each a left fold
    of Python's `+` as `__add__` chains it, without a score object per step."""
    values = list(values)
    if not values:
        return None
    kinds = set(map(type, values))
    if kinds == {Score}:
        columns = counts_of(values)
        if columns is not None:
            return Score(*(reduce(add, column) for column in columns))
    elif kinds == {BlancScore}:
        coref, noncoref = total(list(map(_COREF, values))), total(list(map(_NONCOREF, values)))
        assert isinstance(coref, Score) and isinstance(noncoref, Score)
        return BlancScore(coref, noncoref)
    found = values[0]
    for value in values[1:]:
        found = found + value
    return found


_MANY = 16
"""From how many values arrays pay (a document's CoNLL score, the mean of three, does not)."""
_PLAIN = frozenset((float, int))
_COREF, _NONCOREF = attrgetter("coref"), attrgetter("noncoref")
_COUNTS = tuple(map(attrgetter, ("recall_num", "recall_den", "precision_num", "precision_den")))


def counts_of(values: Sequence[Score]) -> list[list[float]] | None:
    """The four count columns of `Score`s that hold Python numbers (not resamples), else None
    (a report writes them column by column: workbench/score_rows.py)."""
    columns = [list(map(field, values)) for field in _COUNTS]
    if not all(set(map(type, column)) <= _PLAIN for column in columns):
        return None
    return columns


def values_of(values: Sequence[AnyScore]) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Recall, precision and F1 of each score as arrays, for `Score`s and `BlancScore`s of Python
    numbers below 2**53 (exact as floats), computed as their properties compute them: the same
    IEEE operations in the same order, elementwise.  None for any other kind of value."""
    if not values:
        return None
    kinds = set(map(type, values))
    if len(kinds) != 1:
        return None
    kind = kinds.pop()
    if kind is Score:
        return counts_values([list(map(field, values)) for field in _COUNTS])
    if kind is BlancScore:
        corefs, noncorefs = list(map(_COREF, values)), list(map(_NONCOREF, values))
        return blanc_values([list(map(field, scores)) for scores in (corefs, noncorefs) for field in _COUNTS])
    return None


def counts_values(fields: Sequence[Sequence[float] | np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Recall, precision and F1 of `Score`s given as their four count fields (each a list over
    the scores, or an int64 or float64 array of them), as `values_of` computes them; None where
    the counts are not plain numbers exact as floats, or a value is not finite."""
    if not all(_plain(field) for field in fields):
        return None
    counts = np.array(fields, dtype=np.float64).reshape(4, len(fields[0]))
    if not (np.abs(counts) < 2.0 ** 53).all():  # NaN fails too: NaN / 0 is 0, and NaN a count
        return None
    with np.errstate(all="ignore"):
        recall, precision = ratio(counts[0], counts[1]), ratio(counts[2], counts[3])
        f1 = harmonic(recall, precision)
    if not (np.isfinite(recall).all() and np.isfinite(precision).all() and np.isfinite(f1).all()):
        return None  # an overflow (subnormal denominators): the scalar path says what it does
    return recall, precision, f1


def _plain(field: Sequence[float] | np.ndarray) -> bool:
    """Whether a field holds only ints and floats (an array: of int64 or float64)."""
    if isinstance(field, np.ndarray):
        return field.dtype == np.float64 or field.dtype == np.int64
    return set(map(type, field)) <= _PLAIN


def blanc_values(fields: Sequence[Sequence[float] | np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Recall, precision and F1 of `BlancScore`s given as their eight count fields (the coref
    part's four, then the non-coref part's): the mean of the parts the key has links of."""
    coref, noncoref = counts_values(fields[:4]), counts_values(fields[4:])
    if coref is None or noncoref is None:
        return None
    has_coref = np.array(fields[1], dtype=np.float64) != 0
    has_noncoref = np.array(fields[5], dtype=np.float64) != 0
    both = has_coref & has_noncoref
    # mean() of the parts the key has links of: (0 + a + b) / 2, (0 + a) / 1, or 0 for none
    recall, precision, f1 = (np.where(both, (a + b) / 2, np.where(has_coref, a, np.where(has_noncoref, b, 0.0)))
                             for a, b in zip(coref, noncoref))
    return recall, precision, f1

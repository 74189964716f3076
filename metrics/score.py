"""Score values: raw counts first, fractions derived, so corpus scores can be micro-averaged.

v8.01 reports every metric as four counts (recall numerator/denominator, precision
numerator/denominator); corpus scores sum them over documents and divide once.  Keeping counts
(not fractions) per document is what makes micro-averaging, impact estimates and byte-identical
output across runs straightforward.
"""

from __future__ import annotations

from dataclasses import dataclass


def ratio(num: float, den: float) -> float:
    """num / den, with x / 0 = 0 (v8.01's convention, and the papers' for empty denominators)."""
    return num / den if den else 0.0


def harmonic(r: float, p: float) -> float:
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

    def _parts(self) -> list[Score]:
        parts = [s for s in (self.coref, self.noncoref) if s.recall_den]
        return parts

    @property
    def recall(self) -> float:
        parts = self._parts()
        return sum(p.recall for p in parts) / len(parts) if parts else 0.0

    @property
    def precision(self) -> float:
        parts = self._parts()
        return sum(p.precision for p in parts) / len(parts) if parts else 0.0

    @property
    def f1(self) -> float:
        parts = self._parts()
        return sum(p.f1 for p in parts) / len(parts) if parts else 0.0

    def __add__(self, other: "BlancScore") -> "BlancScore":
        return BlancScore(self.coref + other.coref, self.noncoref + other.noncoref)

    def counts(self) -> list[float]:
        return self.coref.counts() + self.noncoref.counts()


@dataclass(frozen=True)
class MeanScore:
    """A score defined as the mean of other scores (the CoNLL score; macro averages)."""

    recall: float
    precision: float
    f1: float

    def counts(self) -> list[float]:
        return []


AnyScore = Score | BlancScore | MeanScore

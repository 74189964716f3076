"""Linguistic weight vectors W = (w_nam, w_nom, w_pro, w_sing[, w_zero]) of Chen & Ng (2013).

The weights price a link by the most informative of its two ends (a NAME end makes it a NAME link),
and a singleton chain by w_sing.  Presets are the paper's W1..W5 (section 4); W4 is the default.
Zeros (CorefUD's empty-node mentions) are a fourth mention type the paper did not have: a link
between two zeros weighs w_zero, which is w_pro unless given (a zero says no more than a pronoun).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Weights(NamedTuple):
    nam: float
    nom: float
    pro: float
    sing: float
    zero: float | None = None
    """w_zero, or None for "as w_pro"."""

    @property
    def by_type(self) -> tuple[float, float, float, float]:
        """The link weight of each link class: NAME, NOMINAL, PRONOUN, ZERO (index = MentionType)."""
        return (self.nam, self.nom, self.pro, self.pro if self.zero is None else self.zero)

    def describe(self) -> str:
        """The weights as every output header says them: `nam=1 nom=0.75 pro=0.5 sing=1`, and
        `zero=W` when w_zero was given (a header that dropped it read as if zeros weighed w_pro)."""
        zero = f" zero={self.zero:g}" if self.zero is not None else ""
        return f"nam={self.nam:g} nom={self.nom:g} pro={self.pro:g} sing={self.sing:g}{zero}"

    def link(self, type_a: int, type_b: int) -> float:
        """Weight of a link between mentions of two types (0 NAME, 1 NOMINAL, 2 PRONOUN, 3 ZERO)."""
        return self.by_type[min(type_a, type_b)]


W4 = Weights(1.0, 0.75, 0.5, 1.0)
PRESETS: dict[str, Weights] = {
    "W1": Weights(1.0, 1.0, 1.0, 1e-20),
    "W2": Weights(1.0, 1.0, 1.0, 0.5),
    "W3": Weights(1.0, 1.0, 1.0, 1.0),
    "W4": W4,
    "W5": Weights(1.0, 0.5, 0.25, 1.0),
}


def given(weights: Sequence[float | None]) -> list[float]:
    """(nam, nom, pro, sing), and zero when it was given: what JSON shows of a weight vector."""
    return [float(v) for v in weights[:4]] + ([float(weights[4])] if len(weights) > 4 and weights[4] is not None else [])


MAX_WEIGHT = 1e6
"""The largest weight accepted.  Only ratios of weights matter to the LMetrics, and weighted counts
are sums over up to ~10^9 links: bounded weights keep every sum finite (1e308 gave inf/inf = NaN,
and JSON that no strict parser reads)."""


def parse_weights(text: str) -> Weights:
    """'W4', 'NAM,NOM,PRO,SING' or 'NAM,NOM,PRO,SING,ZERO' -> Weights.  Raises ValueError with a
    readable message."""
    name = text.strip().upper()
    if name in PRESETS:
        return PRESETS[name]
    parts = [p.strip() for p in text.split(",")]
    if len(parts) not in (4, 5):
        raise ValueError(f"weights must be a preset ({', '.join(PRESETS)}) or four numbers NAM,NOM,PRO,SING "
                         f"(a fifth: ZERO), not {text!r}")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise ValueError(f"weights must be numbers, not {text!r}") from None
    if any(not 0 <= v <= MAX_WEIGHT for v in values):  # also refuses NaN
        raise ValueError(f"weights must be numbers from 0 to {MAX_WEIGHT:g}, not {text!r}")
    return Weights(*values)

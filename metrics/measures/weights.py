"""Linguistic weight vectors W = (w_nam, w_nom, w_pro, w_sing) of Chen & Ng (2013).

The weights price a link by the most informative of its two ends (a NAME end makes it a NAME link),
and a singleton chain by w_sing.  Presets are the paper's W1..W5 (section 4); W4 is the default.
"""

from __future__ import annotations

from typing import NamedTuple


class Weights(NamedTuple):
    nam: float
    nom: float
    pro: float
    sing: float

    def link(self, type_a: int, type_b: int) -> float:
        """Weight of a link between mentions of two types (0 NAME, 1 NOMINAL, 2 PRONOUN)."""
        return (self.nam, self.nom, self.pro)[min(type_a, type_b)]


W4 = Weights(1.0, 0.75, 0.5, 1.0)
PRESETS: dict[str, Weights] = {
    "W1": Weights(1.0, 1.0, 1.0, 1e-20),
    "W2": Weights(1.0, 1.0, 1.0, 0.5),
    "W3": Weights(1.0, 1.0, 1.0, 1.0),
    "W4": W4,
    "W5": Weights(1.0, 0.5, 0.25, 1.0),
}


MAX_WEIGHT = 1e6
"""The largest weight accepted.  Only ratios of weights matter to the LMetrics, and weighted counts
are sums over up to ~10^9 links: bounded weights keep every sum finite (1e308 gave inf/inf = NaN,
and JSON that no strict parser reads)."""


def parse_weights(text: str) -> Weights:
    """'W4' or 'NAM,NOM,PRO,SING' -> Weights.  Raises ValueError with a readable message."""
    name = text.strip().upper()
    if name in PRESETS:
        return PRESETS[name]
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 4:
        raise ValueError(f"weights must be a preset ({', '.join(PRESETS)}) or four numbers NAM,NOM,PRO,SING, not {text!r}")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise ValueError(f"weights must be numbers, not {text!r}") from None
    if any(not 0 <= v <= MAX_WEIGHT for v in values):  # also refuses NaN
        raise ValueError(f"weights must be numbers from 0 to {MAX_WEIGHT:g}, not {text!r}")
    return Weights(*values)

"""The UA scorer's settings: its options (`Settings`), its `-t` presets, its metrics in its
order, and the markable layers a setting's scores read.

Apart from the scoring (`metrics.corpus.ua`) so that a command line can read its options, check
them and choose what to read before it loads the scoring code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from metrics.measures.catalog import (BCUB, BLANC, BRIDGING_ENTITY, BRIDGING_MARKABLE, BRIDGING_RECOGNITION, CEAFE,
                                      CEAFM, CONLL, LEA, MENTIONS, MOR, MUC, NON_REFERRING, ZERO, Metric, Scorer,
                                      resolve)

BRIDGING: tuple[Metric, ...] = (BRIDGING_RECOGNITION, BRIDGING_MARKABLE, BRIDGING_ENTITY)
"""The three bridging scores (the UA scorer's `-m bridging`)."""
COREFERENCE: tuple[Metric, ...] = (MUC, BCUB, CEAFE, CEAFM, LEA, BLANC)
"""The coreference metrics the UA scorer computes from its alignment (BLANC from two parts)."""
ORDER: tuple[Metric, ...] = (MENTIONS, MUC, BCUB, CEAFE, CEAFM, BLANC, LEA, CONLL, MOR, NON_REFERRING, *BRIDGING)
"""Every score of the UA conventions, in the UA scorer's output order (CoNLL: the mean of MUC, B3, CEAFe)."""
DOCUMENT_ORDER: tuple[Metric, ...] = (*COREFERENCE, MENTIONS, MOR, NON_REFERRING, *BRIDGING, CONLL)
"""The order of a document's scores (the coreference metrics, BLANC last, the others, CoNLL)."""
METRICS: tuple[str, ...] = tuple(metric.name for metric in ORDER)
SPLIT_OVER_COLUMNS = frozenset(metric.name for metric in (MUC, BCUB, CEAFE, CEAFM, CONLL))
"""The metrics that credit split antecedents over columns (`metrics.measures.ua_plural`): a document
with a plural entity, its split antecedents kept, is clustered into mentions when any other is asked for."""
BLANC_PARTS = ("blanc_coref", "blanc_noncoref")
BRIDGING_SCORES = "bridging"
"""Where a document counted over columns keeps its three bridging scores (`ScoredDocument.counted`)."""
"""BLANC's two parts, as `metrics.measures.ua` computes them (coreference and non-coreference links)."""


def names(*metrics: Metric) -> tuple[str, ...]:
    return tuple(metric.name for metric in metrics)


def resolve_metrics(spellings: Sequence[str]) -> tuple[str, ...]:
    """Metric names or the UA scorer's spellings (`bridging`, `all`, the catalogue's aliases) -> UA
    metric names in output order."""
    wanted: set[str] = set()
    for text in spellings:
        text = text.strip().lower()
        if text in ("all", "bridging"):
            wanted.update(METRICS if text == "all" else names(*BRIDGING))
            continue
        try:
            found = resolve([text], Scorer.UA)
        except ValueError:
            found = ()
        if not found or found[0] not in METRICS:
            raise ValueError(f"unknown UA metric {text!r}; choose from {', '.join(METRICS)} (or bridging, all)")
        wanted.update(found)
    return tuple(m for m in METRICS if m in wanted)


def shown_metrics(settings: "Settings") -> tuple[Metric, ...]:
    """The metrics the UA scorer prints under these settings, in its order: those asked for, and
    CoNLL when its parts are (or CoNLL alone)."""
    def shown(metric: Metric) -> bool:
        if metric is CONLL:
            return metric.name in settings.metrics or all(part in settings.metrics for part in CONLL.parts)
        return metric.name in settings.metrics

    return tuple(metric for metric in ORDER if shown(metric))


@dataclass(frozen=True)
class Settings:
    """The UA scorer's options."""

    match: str = "exact"
    keep_singletons: bool = False
    keep_split: bool = False
    only_split: bool = False
    discourse_deixis: bool = False
    keep_zeros: bool = False
    metrics: tuple[str, ...] = names(MUC, BCUB, CEAFE, CONLL)

    def completed(self) -> "Settings":
        """The options the UA scorer forces: scoring only split antecedents or discourse deixis
        keeps split antecedents and singletons (a plural entity's members may be singletons)."""
        out = self
        if self.only_split or self.discourse_deixis:
            out = replace(out, keep_split=True, keep_singletons=True)
        if self.discourse_deixis:
            out = replace(out, only_split=False)
        return out

    def fields(self) -> dict[str, object]:
        return {"conventions": "ua", "match": self.match, "singletons": "keep" if self.keep_singletons else "remove",
                "split_antecedents": "keep" if self.keep_split else "remove", "only_split_antecedents": self.only_split,
                "discourse_deixis": self.discourse_deixis, "zeros": "keep" if self.keep_zeros else "remove"}

    def describe(self) -> str:
        parts = [f"conventions ua, {self.match} match",
                 f"singletons {'kept' if self.keep_singletons else 'removed'}",
                 f"split antecedents {'kept' if self.keep_split else 'removed'}",
                 f"zeros {'kept' if self.keep_zeros else 'removed'}"]
        if self.only_split:
            parts.append("only split antecedents scored")
        if self.discourse_deixis:
            parts.append("discourse deixis scored")
        return ", ".join(parts)


def layers_read(settings: Settings) -> tuple[str, ...]:
    """The markable layers (`metrics.formats.ua.LAYERS`) these settings' scores read: the scored
    one (identity, or discourse deixis), and bridging when a bridging score is asked for (its
    links resolve through the scored layer)."""
    scored = "deixis" if settings.completed().discourse_deixis else "identity"
    return (scored, "bridging") if any(m.name in settings.metrics for m in BRIDGING) else (scored,)


_CONLL = names(MUC, BCUB, CEAFE, CONLL)
_CRAC = names(MUC, BCUB, CEAFE, CONLL, MOR, ZERO)
PRESETS: dict[str, Settings | tuple[str, dict[str, object]]] = {
    "crac18": Settings(keep_singletons=True, metrics=names(MUC, BCUB, CEAFE, CONLL, NON_REFERRING)),
    # its "partial_match" keys are no option of the UA scorer's: completed, it matches exactly
    "craft19": Settings(keep_singletons=True, metrics=_CONLL),
    "codicrac22ar": Settings(keep_singletons=True, keep_split=True, metrics=_CONLL),
    "codicrac22dd": Settings(keep_singletons=True, keep_split=True, discourse_deixis=True, metrics=_CONLL),
    "codicrac22br": Settings(keep_singletons=True, metrics=names(*BRIDGING)),
    # the presets of other conventions: (conventions, their options)
    "conll12": ("conll", {"match": "exact", "singletons": "keep", "metrics": _CONLL}),
    "crac22": ("corefud", {"match": "partial", "singletons": "remove", "metrics": _CRAC}),
    "crac23": ("corefud", {"match": "head", "singletons": "remove", "metrics": _CRAC}),
    "crac24": ("corefud", {"match": "head", "singletons": "remove", "metrics": _CRAC}),
}
"""The UA scorer's `-t` presets; those of the UA format as `Settings`."""

"""The metric catalogue: one record per metric, and the only place a metric is named.

Everything that lists, validates, labels or orders metrics reads this table: `--metrics`
validation, the JSON keys and their order, the text/CSV/Markdown tables, the workbench's scores
panel, the comparison tables.  To add a metric, add one `Metric` here with the function that
computes it for one document pair.

A metric's `compute(pair, weights)` takes an engine `DocPair` (metrics.corpus.scoring) and the linguistic
weights.  It returns a score that carries counts (`Score`, `BlancScore`, `AnchorScore`), so corpus
scores can be micro-averaged by adding them, as v8.01 does.  The one exception is a metric with
`parts`, such as CoNLL: it is a mean of other metrics, and its corpus value is `combine` of their
corpus values.  Jointly computed metrics (the four LMetrics share one set of chain weights; the
five application metrics come from one pass) ask the pair, which keeps what they share.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from metrics.measures.score import AnyScore, MeanScore


class Family(str, Enum):
    """What a metric is for: the groups reports and the scores panel show together."""

    MENTION = "mention"
    """Mention detection: does the response find the key's mentions?"""
    OFFICIAL = "official"
    """The CoNLL-2012 scorer v8.01's link and entity metrics, and LEA."""
    LINGUISTIC = "linguistic"
    """Chen & Ng (2013): the official metrics with links weighted by mention type (W)."""
    APPLICATION = "application"
    """Tuggener (2014): is the output usable by the task that consumes it?"""
    ENTITY = "entity"
    """Entity-level scores beyond v8.01: Luo's CEAF under phi1 and phi2, and NIST's ACE-value."""


@dataclass(frozen=True)
class Metric:
    """One metric: its names, where it belongs, and how one document's value is computed."""

    name: str
    """The key in JSON and in `--metrics`."""
    label: str
    """The name people read: table headers and the scores panel."""
    family: Family
    description: str
    compute: Callable[[Any, Any], AnyScore]
    """(DocPair, Weights) -> the document's score, with counts to sum over documents."""
    aliases: tuple[str, ...] = ()
    """Other spellings `--metrics` accepts (b3 for bcub...)."""
    parts: tuple[str, ...] = ()
    """Metrics this one is a mean of (its corpus value is `combine` of their corpus values)."""
    weighted: bool = False
    """Whether the value depends on the linguistic weights W (rescored on a weight edit)."""
    typed: bool = False
    """Whether it needs mention types (heads, the dearest step of preparing a document)."""
    single: bool = False
    """A single value (its `f1`), not a recall-precision-F triple: the ACE-value."""

    def combine(self, parts: Mapping[str, AnyScore]) -> AnyScore:
        """The value of a metric with `parts` from its parts' values (their mean, as CoNLL)."""
        values = [parts[name] for name in self.parts]
        n = len(values)
        return MeanScore(sum(v.recall for v in values) / n, sum(v.precision for v in values) / n,
                         sum(v.f1 for v in values) / n)


def _official(name: str) -> Callable[[Any, Any], AnyScore]:
    def compute(pair: Any, weights: Any) -> AnyScore:
        return pair.official(name)

    return compute


def _linguistic(formula: str) -> Callable[[Any, Any], AnyScore]:
    def compute(pair: Any, weights: Any) -> AnyScore:
        from metrics.measures import formulas

        return getattr(formulas, formula)(pair.table, pair.linguistic_weights(weights))

    return compute


def _application(name: str) -> Callable[[Any, Any], AnyScore]:
    def compute(pair: Any, weights: Any) -> AnyScore:
        return pair.application()[name]

    return compute


def _mean_of_parts(name: str) -> Callable[[Any, Any], AnyScore]:
    def compute(pair: Any, weights: Any) -> AnyScore:
        metric = METRICS[name]
        return metric.combine({part: pair.score(part, weights) for part in metric.parts})

    return compute


def _ace(pair: Any, weights: Any) -> AnyScore:
    return pair.ace()


_F, _O, _L, _A, _E = Family.MENTION, Family.OFFICIAL, Family.LINGUISTIC, Family.APPLICATION, Family.ENTITY

CATALOG: tuple[Metric, ...] = (
    Metric("mentions", "Mentions", _F, "mention identification: exact span matches (v8.01)",
           _official("mentions"), aliases=("mention",)),
    Metric("muc", "MUC", _O, "MUC (Vilain et al. 1995): links", _official("muc")),
    Metric("bcub", "B3", _O, "B-cubed (Bagga & Baldwin 1998): mentions", _official("bcub"), aliases=("b3", "bcubed")),
    Metric("ceafm", "CEAFm", _O, "CEAF with phi3, mention-based (Luo 2005)", _official("ceafm")),
    Metric("ceafe", "CEAFe", _O, "CEAF with phi4, entity-based (Luo 2005)", _official("ceafe")),
    Metric("blanc", "BLANC", _O, "BLANC (Recasens & Hovy 2011; Luo et al. 2014)", _official("blanc")),
    Metric("lea", "LEA", _O, "LEA, link-based entity-aware (Moosavi & Strube 2016)", _official("lea")),
    Metric("conll", "CoNLL", _O, "CoNLL-2012 score: mean of MUC, B3 and CEAFe", _mean_of_parts("conll"),
           parts=("muc", "bcub", "ceafe")),
    Metric("lmuc", "LMUC", _L, "linguistically aware MUC (Chen & Ng 2013)", _linguistic("muc"),
           weighted=True, typed=True),
    Metric("lbcub", "LB3", _L, "linguistically aware B3 (Chen & Ng 2013)", _linguistic("bcub"),
           aliases=("lb3",), weighted=True, typed=True),
    Metric("lceafm", "LCEAFm", _L, "linguistically aware CEAFm (Chen & Ng 2013)", _linguistic("ceaf_mention"),
           weighted=True, typed=True),
    Metric("lceafe", "LCEAFe", _L, "linguistically aware CEAFe (Chen & Ng 2013)", _linguistic("ceaf_entity"),
           weighted=True, typed=True),
    Metric("immediate", "Immediate", _A, "immediate antecedents (Tuggener 2014, 3.1)", _application("immediate"),
           typed=True),
    Metric("inferred", "Inferred", _A, "inferred nominal antecedents (Tuggener 2014, 3.2)", _application("inferred"),
           typed=True),
    Metric("anchor_ed", "Anchor ED", _A, "anchor mentions, entity detection (Tuggener 2014, 3.3)",
           _application("anchor_ed"), typed=True),
    Metric("anchor_em", "Anchor EM", _A, "anchor mentions, entity mentions (Tuggener 2014, 3.3)",
           _application("anchor_em"), typed=True),
    Metric("anchor", "Anchor F-phi", _A, "anchor mentions: harmonic mean of ED and EM F (Tuggener 2014)",
           _application("anchor"), typed=True),
    Metric("ceaf_phi1", "CEAF-phi1", _E, "CEAF with phi1, exact entity match (Luo 2005, eq. 6)",
           _official("ceaf_phi1"), aliases=("ceaf1", "phi1")),
    Metric("ceaf_phi2", "CEAF-phi2", _E, "CEAF with phi2, response entity inside the key entity (Luo 2005, eq. 7)",
           _official("ceaf_phi2"), aliases=("ceaf2", "phi2")),
    Metric("ace", "ACE-value", _E, "ACE-value, mention-weighted unless --ace-weighting level (NIST ACE 2007)",
           _ace, aliases=("ace_value",), typed=True, single=True),
)

METRICS: dict[str, Metric] = {metric.name: metric for metric in CATALOG}
ALL_METRICS: tuple[str, ...] = tuple(METRICS)
_BY_ALIAS: dict[str, str] = {alias: m.name for m in CATALOG for alias in (m.name, *m.aliases)}


def names(family: Family | None = None, *, weighted: bool | None = None) -> tuple[str, ...]:
    """Metric names in catalogue order, of one family and/or (not) depending on W."""
    return tuple(m.name for m in CATALOG
                 if (family is None or m.family is family) and (weighted is None or m.weighted is weighted))


def label(name: str) -> str:
    return METRICS[name].label


def resolve(requested: Sequence[str] | None) -> tuple[str, ...]:
    """Names or aliases (case-insensitive) -> metric names in catalogue order; None means all.

    ValueError names the first unknown one, and an empty selection is refused: asking for no
    metric is a mistake, never a request for an empty table.
    """
    if requested is None:
        return ALL_METRICS
    wanted = set()
    for text in requested:
        name = _BY_ALIAS.get(text.strip().lower())
        if name is None:
            raise ValueError(f"unknown metric {text.strip()!r}; choose from {', '.join(ALL_METRICS)}")
        wanted.add(name)
    if not wanted:
        raise ValueError(f"no metric given; choose from {', '.join(ALL_METRICS)}")
    return tuple(name for name in ALL_METRICS if name in wanted)


def with_parts(selected: Sequence[str]) -> tuple[str, ...]:
    """The selected metrics plus the parts a combined one needs, in catalogue order."""
    needed = set(selected)
    for name in selected:
        needed.update(METRICS[name].parts)
    return tuple(name for name in ALL_METRICS if name in needed)

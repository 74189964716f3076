"""The metric catalogue: one record per metric, and the only place a metric is named.

Everything that lists, validates, labels or orders metrics reads this table: `--metrics`
validation, the JSON keys and their order, the text/CSV/Markdown tables, the workbench's scores
panel, the comparison tables.  Other modules take `Metric` objects (or the constants below, `MUC`,
`CONLL`...), never a metric's name as a string.

A metric's computation takes one document pair (a `ScoredPair`: metrics.corpus.scoring.DocPair) and
the linguistic weights.  It returns a score that carries counts (`Score`, `BlancScore`,
`AnchorScore`), so corpus scores can be micro-averaged by adding them, as v8.01 does.  The one
exception is a metric with `parts`, such as CoNLL: it is a mean of other metrics, and its corpus
value is `combine` of their corpus values.  Jointly computed metrics (the four LMetrics share one
set of chain weights; the five application metrics come from one pass) ask the pair, which keeps
what they share.

Each metric is computed as one official scorer computes it: `compute` is v8.01's computation over
the pair's contingency table, and `under` replaces it for the conventions whose scorer computes it
otherwise (`Scorer.COREFUD`: corefud-scorer over the aligned node mentions).  A metric only one
scorer knows (MOR, zero) applies under its conventions alone (`only`).

To add a metric: one `Metric` in `CATALOG` with its computation (and its constant below).  To add
conventions whose official scorer computes some metrics its own way: a `Scorer` member, and those
metrics' functions in their `under` (docs/engine.md).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Protocol

from metrics.measures.score import AnyScore, mean_score

if TYPE_CHECKING:
    from metrics.measures.ace import AceScore
    from metrics.measures.laid import Tables
    from metrics.measures.columns import Column
    from metrics.measures.formulas import ChainWeights
    from metrics.measures.table import Table
    from metrics.measures.weights import Weights
    from metrics.mentions.alignment import Alignment
    from metrics.mentions.corefud import AlignedDocument


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
    COREFUD = "corefud"
    """CorefUD's own (corefud-scorer): the mention overlap ratio and the score of zeros."""
    ANAPHORA = "anaphora"
    """Universal Anaphora's own (UA scorer): non-referring markables and bridging."""


class Scorer(str, Enum):
    """The official scorer whose numbers a convention's metrics reproduce (metrics.conventions)."""

    V801 = "v8.01"
    """The CoNLL-2012 reference scorer v8.01: token spans, v8.01's mention ids and table."""
    COREFUD = "corefud-scorer"
    """CRAC's corefud-scorer: node mentions aligned by its rules (metrics.mentions.corefud)."""
    UA = "ua-scorer"
    """The Universal Anaphora scorer 2.0: UA markables clustered and aligned by its rules, split
    antecedents given partial credit (metrics.mentions.ua_align, metrics.measures.ua)."""


class ScoredPair(Protocol):
    """What a metric's computation reads of one document pair (metrics.corpus.scoring.DocPair)."""

    @property
    def table(self) -> Table: ...
    @property
    def alignment(self) -> Alignment: ...
    @property
    def aligned(self) -> AlignedDocument | None: ...
    def score(self, metric: Metric, weights: Weights) -> AnyScore: ...
    def linguistic_weights(self, weights: Weights) -> ChainWeights: ...
    def application(self, together: Sequence[ScoredPair] = ()) -> Mapping[str, AnyScore]: ...
    def ace(self) -> AceScore: ...
    @property
    def ua(self) -> UAScores | None: ...


class UAScores(Protocol):
    """What the UA scorer's computations read of one document pair (metrics.corpus.ua.UAPair):
    each score as the UA scorer computes it on that document, with counts to sum."""

    def coreference(self, metric: Metric) -> AnyScore: ...
    def mentions(self) -> AnyScore: ...
    def mor(self) -> AnyScore: ...
    def non_referring(self) -> AnyScore: ...
    def bridging(self) -> Mapping[str, AnyScore]: ...


Compute = Callable[[ScoredPair, "Weights"], AnyScore]
"""(document pair, weights) -> the document's score, with counts to sum over documents."""

Batch = Callable[["Tables", "Weights"], "Column"]
"""(documents' tables laid end to end, weights) -> each document's score as `Compute` gives it
under v8.01, as a column (metrics.measures.columns), its `missing` rows the documents it leaves
to `Compute` (metrics.measures.batch)."""


@dataclass(frozen=True)
class Metric:
    """One metric: its names, where it belongs, and how one document's value is computed."""

    name: str
    """The key in JSON and in `--metrics`."""
    label: str
    """The name people read: table headers and the scores panel."""
    family: Family
    description: str
    compute: Compute
    """v8.01's computation (and that of every scorer not in `under`)."""
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
    under: tuple[tuple[Scorer, Compute], ...] = ()
    """The computation under a scorer that computes this metric its own way."""
    only: tuple[Scorer, ...] = ()
    """The scorers this metric exists under alone (empty: every scorer)."""
    short: str = ""
    """The label where twelve cells are all there is (the workbench's scores panel); empty: `label`
    fits."""
    batch: Batch | None = None
    """v8.01's computation of many documents at once, equal to `compute` on each (a corpus of
    many small documents pays numpy's calls once): for the metrics of the table alone, and
    Tuggener's of documents with nothing to judge."""

    def computation(self, scorer: Scorer) -> Compute:
        """How one document's value is computed under `scorer`'s conventions."""
        for which, compute in self.under:
            if which is scorer:
                return compute
        return self.compute

    def applies(self, scorer: Scorer) -> bool:
        return not self.only or scorer in self.only

    def combine(self, parts: Mapping[str, AnyScore]) -> AnyScore:
        """The value of a metric with `parts` from its parts' values (their mean, as CoNLL)."""
        return mean_score([parts[name] for name in self.parts])


def _table(formula: str, *, links: bool = False, key_side: bool = False) -> Compute:
    """An official metric of the table under the agnostic weights (v8.01's MUC, B3, CEAFm, CEAFe)."""
    def compute(pair: ScoredPair, weights: Weights) -> AnyScore:
        from metrics.measures import formulas

        return getattr(formulas, formula)(pair.table, formulas.agnostic_weights(pair.table, links=links,
                                                                                key_side=key_side))

    return compute


def _batch(function: str, *, linguistic: bool = False) -> Batch:
    """A computation of `metrics.measures.batch` (imported when first used); `linguistic`: over
    the tables' chain weights under W."""
    def compute(tables: Tables, weights: Weights) -> Column:
        from metrics.measures import batch

        if linguistic:
            return getattr(batch, function)(tables, batch.linguistic(tables, weights))
        return getattr(batch, function)(tables)

    return compute


def _batch_application(name: str) -> Batch:
    """Tuggener's metric `name` of many documents (`batch.application`): those without a link are
    zeros, the others judged together in one pass, once for the five metrics
    (`Tables.application_counts`); "anchor" is F-phi of the anchors' ED and EM counts."""
    def compute(tables: Tables, weights: Weights) -> Column:
        from metrics.measures import batch

        return batch.application(tables, (ANCHOR_ED.name, ANCHOR_EM.name) if name == ANCHOR.name else (name,))

    return compute


def _mentions(pair: ScoredPair, weights: Weights) -> AnyScore:
    from metrics.measures.formulas import mentions

    return mentions(pair.table)


def _lea(pair: ScoredPair, weights: Weights) -> AnyScore:
    from metrics.measures.formulas import lea

    return lea(pair.table)


def _blanc(pair: ScoredPair, weights: Weights) -> AnyScore:
    from metrics.measures.blanc import blanc_score

    return blanc_score(pair.alignment)


def _phi(exact: bool) -> Compute:
    """Entity CEAF under Luo's phi1 (`exact`) or phi2."""
    def compute(pair: ScoredPair, weights: Weights) -> AnyScore:
        from metrics.measures import formulas

        return formulas.ceaf_entity_phi(pair.table, formulas.luo_phi(pair.table, exact))

    return compute


def _corefud(function: str) -> Compute:
    """corefud-scorer's computation over the pair's aligned node mentions."""
    def compute(pair: ScoredPair, weights: Weights) -> AnyScore:
        from metrics.measures import corefud

        aligned = pair.aligned
        if aligned is None:
            raise ValueError("a CorefUD metric asked of a pair not aligned under the CorefUD conventions")
        return getattr(corefud, function)(aligned)

    return compute


def _linguistic(formula: str) -> Compute:
    def compute(pair: ScoredPair, weights: Weights) -> AnyScore:
        from metrics.measures import formulas

        return getattr(formulas, formula)(pair.table, pair.linguistic_weights(weights))

    return compute


def _application(name: str) -> Compute:
    def compute(pair: ScoredPair, weights: Weights) -> AnyScore:
        return pair.application()[name]

    return compute


def _mean_of_parts(name: str) -> Compute:
    def compute(pair: ScoredPair, weights: Weights) -> AnyScore:
        metric = METRICS[name]
        return metric.combine({part: pair.score(METRICS[part], weights) for part in metric.parts})

    return compute


def _ace(pair: ScoredPair, weights: Weights) -> AnyScore:
    return pair.ace()


def _ua(score: Callable[[UAScores], AnyScore]) -> Compute:
    """The UA scorer's computation, from the pair's UA scores."""
    def compute(pair: ScoredPair, weights: Weights) -> AnyScore:
        ua = pair.ua
        if ua is None:
            raise ValueError("a UA metric asked of a pair not prepared under the UA conventions")
        return score(ua)

    return compute


def _ua_coreference(name: str) -> Compute:
    return _ua(lambda ua: ua.coreference(METRICS[name]))


def _ua_bridging(name: str) -> Compute:
    return _ua(lambda ua: ua.bridging()[name])


def _official(name: str) -> tuple[tuple[Scorer, Compute], ...]:
    """The computation of a metric corefud-scorer and the UA scorer compute too (over the aligned
    node mentions; over the aligned UA markables)."""
    return ((Scorer.COREFUD, _corefud(name)), (Scorer.UA, _ua_coreference(name)))


_F, _O, _L, _A, _E = Family.MENTION, Family.OFFICIAL, Family.LINGUISTIC, Family.APPLICATION, Family.ENTITY

CATALOG: tuple[Metric, ...] = (
    Metric("mentions", "Mentions", _F, "mention identification: exact span matches (v8.01)",
           _mentions, aliases=("mention",), under=((Scorer.UA, _ua(lambda ua: ua.mentions())),),
           batch=_batch("mentions")),
    Metric("muc", "MUC", _O, "MUC (Vilain et al. 1995): links", _table("muc", links=True), under=_official("muc"),
           batch=_batch("muc")),
    Metric("bcub", "B3", _O, "B-cubed (Bagga & Baldwin 1998): mentions", _table("bcub"), aliases=("b3", "bcubed"),
           under=_official("bcub"), batch=_batch("bcub")),
    Metric("ceafm", "CEAFm", _O, "CEAF with phi3, mention-based (Luo 2005)", _table("ceaf_mention", key_side=True),
           under=_official("ceafm"), batch=_batch("ceaf_mention")),
    Metric("ceafe", "CEAFe", _O, "CEAF with phi4, entity-based (Luo 2005)", _table("ceaf_entity", key_side=True),
           under=_official("ceafe"), batch=_batch("ceaf_entity")),
    Metric("blanc", "BLANC", _O, "BLANC (Recasens & Hovy 2011; Luo et al. 2014)", _blanc, under=_official("blanc"),
           batch=_batch("blanc")),
    Metric("lea", "LEA", _O, "LEA, link-based entity-aware (Moosavi & Strube 2016)", _lea, under=_official("lea"),
           batch=_batch("lea")),
    Metric("conll", "CoNLL", _O, "CoNLL-2012 score: mean of MUC, B3 and CEAFe", _mean_of_parts("conll"),
           parts=("muc", "bcub", "ceafe")),
    Metric("lmuc", "LMUC", _L, "linguistically aware MUC (Chen & Ng 2013)", _linguistic("muc"),
           batch=_batch("linguistic_muc", linguistic=True),
           weighted=True, typed=True),
    Metric("lbcub", "LB3", _L, "linguistically aware B3 (Chen & Ng 2013)", _linguistic("bcub"),
           batch=_batch("linguistic_bcub", linguistic=True),
           aliases=("lb3",), weighted=True, typed=True),
    Metric("lceafm", "LCEAFm", _L, "linguistically aware CEAFm (Chen & Ng 2013)", _linguistic("ceaf_mention"),
           batch=_batch("linguistic_ceaf_mention", linguistic=True),
           weighted=True, typed=True),
    Metric("lceafe", "LCEAFe", _L, "linguistically aware CEAFe (Chen & Ng 2013)", _linguistic("ceaf_entity"),
           batch=_batch("linguistic_ceaf_entity", linguistic=True),
           weighted=True, typed=True),
    Metric("immediate", "Immediate", _A, "immediate antecedents (Tuggener 2014, 3.1)", _application("immediate"),
           batch=_batch_application("immediate"),
           typed=True),
    Metric("inferred", "Inferred", _A, "inferred nominal antecedents (Tuggener 2014, 3.2)", _application("inferred"),
           batch=_batch_application("inferred"),
           typed=True),
    Metric("anchor_ed", "Anchor ED", _A, "anchor mentions, entity detection (Tuggener 2014, 3.3)",
           _application("anchor_ed"), batch=_batch_application("anchor_ed"), typed=True),
    Metric("anchor_em", "Anchor EM", _A, "anchor mentions, entity mentions (Tuggener 2014, 3.3)",
           _application("anchor_em"), batch=_batch_application("anchor_em"), typed=True),
    Metric("anchor", "Anchor F-phi", _A, "anchor mentions: harmonic mean of ED and EM F (Tuggener 2014)",
           _application("anchor"), batch=_batch_application("anchor"), typed=True),
    Metric("ceaf_phi1", "CEAF-phi1", _E, "CEAF with phi1, exact entity match (Luo 2005, eq. 6)",
           _phi(exact=True), aliases=("ceaf1", "phi1"), batch=_batch("ceaf_phi1")),
    Metric("ceaf_phi2", "CEAF-phi2", _E, "CEAF with phi2, response entity inside the key entity (Luo 2005, eq. 7)",
           _phi(exact=False), aliases=("ceaf2", "phi2"), batch=_batch("ceaf_phi2")),
    Metric("ace", "ACE-value", _E, "ACE-value, mention-weighted unless --ace-weighting level (NIST ACE 2007)",
           _ace, aliases=("ace_value",), typed=True, single=True, batch=_batch("ace")),
    Metric("mor", "MOR (mention overlap)", Family.COREFUD, "mention overlap ratio: words shared by the best "
           "one-to-one pairing of overlapping mentions (CRAC 2022)", _corefud("mor"), only=(Scorer.COREFUD, Scorer.UA),
           under=((Scorer.UA, _ua(lambda ua: ua.mor())),), short="MOR"),
    Metric("zero", "zero anaphora", Family.COREFUD, "anaphoric zeros linked to an antecedent of their entity "
           "(corefud-scorer)", _corefud("zero"), only=(Scorer.COREFUD,), short="Zero anaph."),
    Metric("non_referring", "Non-referring", Family.ANAPHORA, "non-referring markables (expletives, predicates) "
           "identified (UA scorer)", _ua(lambda ua: ua.non_referring()), aliases=("non-referring",),
           only=(Scorer.UA,), short="Non-referr."),
    Metric("bridging_recognition", "Bridging recognition", Family.ANAPHORA, "bridging anaphors recognised, "
           "whatever their anchor (UA scorer)", _ua_bridging("bridging_recognition"), only=(Scorer.UA,),
           short="Br. recogn."),
    Metric("bridging_markable", "Bridging (markable)", Family.ANAPHORA, "bridging anaphors with their anchor "
           "markable (UA scorer)", _ua_bridging("bridging_markable"), only=(Scorer.UA,),
           short="Br. markable"),
    Metric("bridging_entity", "Bridging (entity)", Family.ANAPHORA, "bridging anaphors with an anchor of the "
           "anchor's entity (UA scorer)", _ua_bridging("bridging_entity"), only=(Scorer.UA,),
           short="Br. entity"),
)

METRICS: dict[str, Metric] = {metric.name: metric for metric in CATALOG}
ALL_METRICS: tuple[str, ...] = tuple(m.name for m in CATALOG if not m.only)
"""Every metric that applies under every convention, in catalogue order: `--metrics all`."""
_ORDER: tuple[str, ...] = tuple(METRICS)
_BY_ALIAS: dict[str, str] = {alias: m.name for m in CATALOG for alias in (m.name, *m.aliases)}

(MENTIONS, MUC, BCUB, CEAFM, CEAFE, BLANC, LEA, CONLL, LMUC, LBCUB, LCEAFM, LCEAFE, IMMEDIATE, INFERRED,
 ANCHOR_ED, ANCHOR_EM, ANCHOR, CEAF_PHI1, CEAF_PHI2, ACE, MOR, ZERO, NON_REFERRING, BRIDGING_RECOGNITION,
 BRIDGING_MARKABLE, BRIDGING_ENTITY) = CATALOG
"""The catalogue's metrics by name, for code that means one of them."""


def names(family: Family | None = None, *, weighted: bool | None = None) -> tuple[str, ...]:
    """Metric names in catalogue order, of one family and/or (not) depending on W."""
    return tuple(m.name for m in CATALOG
                 if (family is None or m.family is family) and (weighted is None or m.weighted is weighted))


def label(name: str) -> str:
    return METRICS[name].label


def in_order(selected: Collection[str]) -> tuple[str, ...]:
    """Metric names in catalogue order."""
    return tuple(name for name in _ORDER if name in selected)


def resolve(requested: Sequence[str] | None, scorer: Scorer = Scorer.V801) -> tuple[str, ...]:
    """Names or aliases (case-insensitive) -> metric names in catalogue order; None means all.
    Only the metrics that apply under `scorer`'s conventions are known.

    ValueError names the first unknown one, and an empty selection is refused: asking for no
    metric is a mistake, never a request for an empty table.
    """
    if requested is None:
        return ALL_METRICS
    known = ", ".join(metric.name for metric in CATALOG if metric.applies(scorer))
    wanted = set()
    for text in requested:
        name = _BY_ALIAS.get(text.strip().lower())
        if name is None or not METRICS[name].applies(scorer):
            raise ValueError(f"unknown metric {text.strip()!r}; choose from {known}")
        wanted.add(name)
    if not wanted:
        raise ValueError(f"no metric given; choose from {known}")
    return in_order(wanted)


def with_parts(selected: Sequence[str]) -> tuple[str, ...]:
    """The selected metrics plus the parts a combined one needs, in catalogue order."""
    needed = set(selected)
    for name in selected:
        needed.update(METRICS[name].parts)
    return in_order(needed)

"""What the charts show, as data: one definition for the figures `corefwb plot` writes and the
charts the workbench draws.

- sweep: Chen & Ng's (2013) Figure 3.  One panel per LMetric (LMUC, LB3, LCEAFm, LCEAFe); x the
  responses; a line per weight vector W1..W5 (and any other, such as the user's own), and the
  matching OMetric (MUC, B3, CEAFm, CEAFe: no weights) as one more line.  On the paper's five
  responses the W4 points are its Table 1.
- errors: errors by category x mention type, per system, for the corpus or one document.
- documents: each document's CoNLL F1 per system (a histogram for one, a scatter for two).
- stages: Kummerfeld & Klein's (2013) figure: the CoNLL F1 after correcting each error type in
  turn (BCA's order), per system.
Values are the engine's (corpus F1 micro-averaged as the official score), in percent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from metrics.errors.chen_ng.records import CATEGORIES, Category
from metrics.measures.catalog import BCUB, CEAFE, CEAFM, LBCUB, LCEAFE, LCEAFM, LMUC, MUC
from metrics.model import MentionType
from metrics.measures.weights import PRESETS, Weights

from .session import Session

SWEEP_PANELS: tuple[tuple[str, str], ...] = tuple((lmetric.name, ometric.name) for lmetric, ometric in (
    (LMUC, MUC), (LBCUB, BCUB), (LCEAFM, CEAFM), (LCEAFE, CEAFE)))
"""(LMetric, its OMetric): the four panels of Chen & Ng's Figure 3."""


@dataclass
class Sweep:
    systems: list[str]
    weights: list[tuple[str, Weights]]
    """The weight vectors drawn, named (W1..W5, then any other)."""
    lines: dict[str, dict[str, list[float]]]
    """LMetric -> weight vector name -> F1 (%) per system."""
    official: dict[str, list[float]]
    """LMetric -> its OMetric's F1 (%) per system."""


def sweep(session: Session, systems: Sequence[str], extra: Sequence[tuple[str, Weights]] = ()) -> Sweep:
    """Every LMetric under W1..W5 (and `extra`) and every OMetric, for each system of the session."""
    vectors = list(PRESETS.items()) + list(extra)
    lines = {l: {name: [] for name, _ in vectors} for l, _ in SWEEP_PANELS}
    official = {l: [] for l, _ in SWEEP_PANELS}
    for system in range(len(systems)):
        base = session.score(metrics=[o for _, o in SWEEP_PANELS], system=system).micro
        for l, o in SWEEP_PANELS:
            official[l].append(100 * base[o].f1)
        for name, w in vectors:
            scores = session.score(w, [l for l, _ in SWEEP_PANELS], system).micro
            for l, _ in SWEEP_PANELS:
                lines[l][name].append(100 * scores[l].f1)
    return Sweep(list(systems), vectors, lines, official)


@dataclass
class ErrorCounts:
    systems: list[str]
    scope: str
    """"corpus" or the document's name."""
    counts: list[dict[Category, dict[MentionType, int]]]
    """Per system: category -> mention type -> number of errors."""


def error_counts(session: Session, systems: Sequence[str], weights: Weights, document: str | None = None) -> ErrorCounts:
    counts = []
    for system in range(len(systems)):
        table = {c: {t: 0 for t in MentionType} for c in CATEGORIES}
        for record in session.classify(weights, [document] if document else None, system):
            table[record.category][record.mention.type] += 1
        counts.append(table)
    return ErrorCounts(list(systems), document or "corpus", counts)


@dataclass
class DocumentScores:
    systems: list[str]
    documents: list[str]
    f1: list[list[float]]
    """Per system: CoNLL F1 (%) of each document, in the key's order."""


def document_scores(session: Session, systems: Sequence[str], weights: Weights, metric: str = "conll") -> DocumentScores:
    results = [session.score(weights, [metric], s) for s in range(len(systems))]
    names = [name for name, _ in results[0].documents]
    return DocumentScores(list(systems), names,
                          [[100 * scores[metric].f1 for _, scores in r.documents] for r in results])


@dataclass
class Stages:
    systems: list[str]
    stages: list[str]
    """"none", then the seven K&K types in BCA's order."""
    f1: list[list[float]]
    """Per system: the CoNLL F1 (%) before any correction, then after each stage."""
    document: str | None = None
    """The document corrected (its CoNLL F1 alone), None for the corpus."""


def kk_stages(session: Session, systems: Sequence[str], document: str | None = None) -> Stages:
    """The stages of the corpus, or of one document alone (the charts' `d`)."""
    from metrics.errors.kummerfeld_klein import STAGES

    values = []
    for system in range(len(systems)):
        report = session.kk_report(None if document is None else [document], system=system)
        values.append([100 * report.baseline["conll"]] + [100 * v["conll"] for _, v in report.progression])  # points
    return Stages(list(systems), list(STAGES), values, document)

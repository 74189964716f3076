"""Tuggener's counts a document or a corpus at a time, as only tests ask for them: the engine scores
documents as columns (`tuggener.count_documents`) and breaks one document down
(`breakdown_document`); these wrappers were engine functions no product path called."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping

from metrics.measures.score import Score
from metrics.measures.tuggener import COUNTED, AnchorScore, Breakdown, Tally, _scores, breakdown_document, \
    count_views, totals
from metrics.mentions.chains import key_view, response_view
from metrics.model import Document, MentionType, Span


def count_document(key: Document, response: Document, types: Mapping[Span, MentionType],
                   label: Callable[[Span], Hashable] | None = None, per_entity: bool = False) -> Breakdown:
    """tp / wl / fn / fp of the four counted metrics for one document, per class of the judged
    mention: its mention type by default, or whatever `label(span)` says (see `feature`).
    `per_entity`: entity mentions (EM) are classed by their entity's anchor, as the paper's
    Table 4 classes entities (a PERSON's pronouns count as PERSON)."""
    return count_views(key_view(key), response_view(response), types, label, per_entity)


def scores_from_counts(breakdown: Breakdown) -> dict[str, Score | AnchorScore]:
    """The five metrics of `METRICS` as Score-like counts (micro-averaging sums them)."""
    return _scores(totals(breakdown))


def breakdown_corpus(pairs, by: str = "type") -> Breakdown:
    """`breakdown_document` summed over documents (micro-averaging, as for the totals)."""
    out: Breakdown = {name: ({t: Tally() for t in MentionType} if by == "type" else {}) for name in COUNTED}
    for pair in pairs:
        for name, by_class in breakdown_document(pair, by).items():
            for c, tally in by_class.items():
                out[name][c] = out[name].get(c, Tally()) + tally
    return out


def breakdown_to_json(breakdown: Breakdown) -> dict:
    """{metric: {"NAME": {"tp", "wl", "fn", "fp", "recall", "precision", "f1"}, ...}} for reports
    (classes named by their string: NAME, PRP, PERSON...)."""
    out: dict = {}
    for name, by_class in breakdown.items():
        out[name] = {}
        for c, tally in by_class.items():
            s = tally.score()
            key = c.name if isinstance(c, MentionType) else str(c)
            out[name][key] = tally.to_json() | {"recall": s.recall, "precision": s.precision, "f1": s.f1}
    return out

"""Tuggener's counts a document or a corpus at a time, and broken down by a class of mention (type,
POS, named entity: the paper's Tables 3 and 4), as only tests ask for them: the engine scores
documents as columns, counted by outcome alone (`tuggener.count_documents`, `score_documents`).
These were engine functions no product path called (`count_views`, `feature`, `totals`,
`breakdown_document`, `score_document` among them), moved here with the tests they serve."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Mapping

from metrics.measures.score import Score
from metrics.measures.tuggener import COUNTED, AnchorScore, Tally, _judgements, _member_types, _scores, \
    score_documents
from metrics.mentions.chains import ChainView, code_spans, key_view, response_view
from metrics.model import Document, MentionType, Span

Breakdown = dict[str, dict[Hashable, Tally]]
"""metric -> class of mention (a MentionType by default) -> counts (the four counted metrics)."""


def count_views(kv: ChainView, rv: ChainView, types: Mapping[Span, MentionType],
                label: Callable[[Span], Hashable] | None = None, per_entity: bool = False) -> Breakdown:
    """tp / wl / fn / fp of the four counted metrics for one document, from its two sides' chain
    views (a `DocPair` keeps them), per class of the judged mention: its mention type by default,
    or whatever `label(span)` says (see `feature`).  `per_entity`: entity mentions (EM) are
    classed by their entity's anchor, as the paper's Table 4 classes entities (a PERSON's pronouns
    count as PERSON)."""
    judged = _judgements(kv, rv, _member_types(kv, types), _member_types(rv, types), per_entity)
    classes: list[Hashable] = list(MentionType) if label is None else []
    out: Breakdown = {}
    for name, (codes, kinds, outcomes) in judged.items():
        if label is None:
            counted = Counter(zip(map(MentionType, kinds.tolist()), outcomes.tolist()))
        else:
            counted = Counter(zip(map(label, code_spans(codes)), outcomes.tolist()))
        cells = {c: [0, 0, 0, 0] for c in classes}
        for (c, which), n in counted.items():
            cells.setdefault(c, [0, 0, 0, 0])[which] = n
        out[name] = {c: Tally(*n) for c, n in cells.items()}
    return out


FEATURES = ("type", "pos", "entity")


def feature(name: str, key: Document, types: Mapping[Span, MentionType]) -> Callable[[Span], Hashable] | None:
    """A mention classifier for the breakdown (the paper breaks its counts down by any feature):

    - "type": NAME / NOMINAL / PRONOUN (None: the default of `count_document`);
    - "pos": the head's POS class as in the paper's Table 3: NOUN for NN*, PRP, PRP$, else the
      tag itself ("-" without POS tags);
    - "entity": the named-entity class (PERSON, GPE, ...) of a named entity with the mention's span
      or ending on its head, else "-"; entity mentions (EM) take their entity's (anchor's) class,
      as in Table 4.
    """
    if name == "type":
        return None
    if name == "pos":
        from metrics.mentions.heads import head_of

        def pos_class(span: Span) -> str:
            if not key.pos:
                return "-"
            tag = key.pos[head_of(key, span)[0]]
            return "NOUN" if tag.startswith("NN") else tag

        return pos_class
    if name == "entity":
        from metrics.mentions.heads import head_of

        exact = {(s, e): label for s, e, label in key.named_entities or ()}
        by_end = {e: label for s, e, label in key.named_entities or ()}

        def entity_class(span: Span) -> str:
            if span in exact:
                return exact[span]
            if not by_end:
                return "-"
            return by_end.get(head_of(key, span)[0], "-")

        return entity_class
    raise ValueError(f"unknown breakdown feature {name!r}; choose from {', '.join(FEATURES)}")


def totals(breakdown: Breakdown) -> dict[str, Tally]:
    """The counts of each counted metric summed over mention types."""
    out = {}
    for name, by_type in breakdown.items():
        total = Tally()
        for tally in by_type.values():
            total = total + tally
        out[name] = total
    return out


def score_document(pair) -> dict[str, Score | AnchorScore]:
    """Tuggener's five metrics for an engine `DocPair` (keys: "immediate", "inferred",
    "anchor_ed", "anchor_em", "anchor").  The same counts as `count_views`' summed over its
    classes, counted by outcome alone (no class of mention is asked for)."""
    return score_documents([pair])[0]


def breakdown_document(pair, by: str = "type") -> Breakdown:
    """Counts of an engine `DocPair` per class of mention ("type", "pos" or "entity")."""
    return count_views(pair.key_view, pair.response_view, pair.types, feature(by, pair.key, pair.types),
                       per_entity=by == "entity")


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

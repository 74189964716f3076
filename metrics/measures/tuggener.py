"""Tuggener's (2014) application metrics: is coreference output usable by the task that consumes it?

Each metric judges key and response mentions one by one and counts tp, wl (wrong linkage: a key
mention resolved to a wrong antecedent), fn and fp, with R = tp/(tp+wl+fn) and P = tp/(tp+wl+fp):
wl counts in both, so that a mention linked wrongly is neither "not found" nor "not returned".

- "immediate" (section 3.1, Table 1): for entity-sequence models.  A non-first key mention is tp
  when its predecessor in its response chain is its predecessor in its key chain, fn when it has
  no response predecessor, else wl; a non-first response mention that is not a non-first key
  mention is fp.
- "inferred" (section 3.2): for tasks that replace a pronoun by a nominal (NAME or NOMINAL)
  antecedent.  A non-first key mention is tp when the closest nominal before it in its response
  chain is in its key chain, fn when there is no nominal before it there, else wl.  Key chains
  without a nominal are skipped, and so (the paper does not treat cataphora) are mentions with no
  nominal before them in their key chain.  The paper's extra rule: a mention of a key chain
  without nominals that the response gives a nominal antecedent is wl.  A response mention given
  a nominal antecedent that is not a non-first key mention is fp.
- "anchor_ed", "anchor_em", "anchor" (section 3.3, Table 2): for query-driven tasks.  A chain's
  anchor is its first nominal mention.  ED: a key chain is tp when its anchor is in a response
  chain, else fn; a response chain whose anchor is in no key chain is fp.  A chain without a
  nominal has no anchor and is skipped on either side, as in section 3.2 (Table 2 read literally
  would count it fn / fp, so that even the key scored against itself would fall short of 1).  EM: for each key chain aligned to the response chain
  holding its anchor, its mentions in that chain are tp, the others fn, and that chain's mentions
  outside the key chain fp.  "anchor" is F-phi, the harmonic mean of the ED and EM F-scores.

Singleton chains are skipped on both sides (footnote 1: no application gains from them).  Each
span counts once per side (a span listed twice keeps the chain v8.01 keeps, see metrics.errors.chen_ng.records).
Counts are kept per class of the judged mention (the anchor's for ED): its mention type, or its
head's POS class or named-entity class as in the paper's Tables 3 and 4, so the breakdown and the
totals come from one pass.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from operator import itemgetter

from metrics.measures.catalog import ANCHOR, ANCHOR_ED, ANCHOR_EM, IMMEDIATE, INFERRED, Family, names
from metrics.mentions.chains import ChainView, key_view, response_view
from metrics.model import Document, MentionType, Span
from metrics.measures.score import AnchorScore, Score  # AnchorScore: F-phi's value, kept with the other scores

METRICS = names(Family.APPLICATION)
COUNTED = tuple(name for name in METRICS if name != ANCHOR.name)
"""The metrics with their own tp/wl/fn/fp counts ("anchor" combines the two anchor ones)."""

_TP, _WL, _FN, _FP = range(4)


@dataclass(frozen=True)
class Tally:
    """Tuggener's four counts."""

    tp: int = 0
    wl: int = 0
    fn: int = 0
    fp: int = 0

    def score(self) -> Score:
        return Score(self.tp, self.tp + self.wl + self.fn, self.tp, self.tp + self.wl + self.fp)

    def __add__(self, other: "Tally") -> "Tally":
        return Tally(self.tp + other.tp, self.wl + other.wl, self.fn + other.fn, self.fp + other.fp)

    def to_json(self) -> dict:
        return {"tp": self.tp, "wl": self.wl, "fn": self.fn, "fp": self.fp}


Breakdown = dict[str, dict[Hashable, Tally]]
"""metric -> class of mention (a MentionType by default) -> counts (the four counted metrics)."""


def _nominal(kind: MentionType) -> bool:
    return kind not in (MentionType.PRONOUN, MentionType.ZERO)


def count_document(key: Document, response: Document, types: Mapping[Span, MentionType],
                   label: Callable[[Span], Hashable] | None = None, per_entity: bool = False) -> Breakdown:
    """tp / wl / fn / fp of the four counted metrics for one document, per class of the judged
    mention: its mention type by default, or whatever `label(span)` says (see `feature`).
    `per_entity`: entity mentions (EM) are classed by their entity's anchor, as the paper's
    Table 4 classes entities (a PERSON's pronouns count as PERSON)."""
    return count_views(key_view(key), response_view(response), types, label, per_entity)


def count_views(kv: ChainView, rv: ChainView, types: Mapping[Span, MentionType],
                label: Callable[[Span], Hashable] | None = None, per_entity: bool = False) -> Breakdown:
    """`count_document` over the two sides' chain views (a `DocPair` keeps them)."""
    classes: list[Hashable] = list(MentionType) if label is None else []
    of = types.__getitem__ if label is None else label  # an IntEnum hashes as its int
    out: Breakdown = {}
    for name, items in _judgements(kv, rv, types, per_entity).items():
        counted = Counter(zip(map(of, map(_mention, items)), map(_outcome, items)))
        cells = {c: [0, 0, 0, 0] for c in classes}
        for (c, which), n in counted.items():
            cells.setdefault(c, [0, 0, 0, 0])[which] = n
        out[name] = {c: Tally(*n) for c, n in cells.items()}
    return out


def _judgements(kv: ChainView, rv: ChainView, types: Mapping[Span, MentionType],
                per_entity: bool = False) -> dict[str, list[tuple[Span, int]]]:
    """Every judgement of the four counted metrics, as (mention judged, outcome), per metric.
    Each is appended, then all are classed and counted at once (a call per judgement through
    closures was most of these metrics' time)."""
    judged: dict[str, list[tuple[Span, int]]] = {name: [] for name in COUNTED}
    _immediate(kv, rv, judged[IMMEDIATE.name].append)
    _inferred(kv, rv, types, judged[INFERRED.name].append)
    em = judged[ANCHOR_EM.name].append
    _anchors(kv, rv, types, judged[ANCHOR_ED.name].append,
             (lambda item: em((item[1], item[2]))) if per_entity else (lambda item: em((item[0], item[2]))))
    return judged


_mention = itemgetter(0)
_outcome = itemgetter(1)


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


def _chains(view: ChainView) -> list[list[Span]]:
    return [chain for chain in view.chains if len(chain) > 1]


def _is_anaphoric(view: ChainView, span: Span) -> bool:
    """A non-first mention of a non-singleton chain of this side."""
    return view.position.get(span, 0) > 0


def _immediate(kv: ChainView, rv: ChainView, add) -> None:
    for chain in _chains(kv):
        for i in range(1, len(chain)):
            span = chain[i]
            r = rv.chain_of.get(span)
            pos = rv.position.get(span, 0)
            if r is None or pos == 0:
                add((span, _FN))
            elif rv.chains[r][pos - 1] == chain[i - 1]:
                add((span, _TP))
            else:
                add((span, _WL))
    for chain in _chains(rv):
        for span in chain[1:]:
            if not _is_anaphoric(kv, span):
                add((span, _FP))


def _inferred(kv: ChainView, rv: ChainView, types: Mapping[Span, MentionType], add) -> None:
    # The closest nominal before each response mention in its response chain.
    inferred: dict[Span, Span] = {}
    for chain in _chains(rv):
        last: Span | None = None
        for span in chain:
            if last is not None:
                inferred[span] = last
            if _nominal(types[span]):
                last = span
    judged: set[Span] = set()
    for k, chain in enumerate(kv.chains):
        if len(chain) < 2:
            continue
        if not any(_nominal(types[s]) for s in chain):
            # No nominal: skipped, except the paper's extra rule (a nominal antecedent is wrong).
            for span in chain[1:]:
                judged.add(span)
                if span in inferred:
                    add((span, _WL))
            continue
        seen_nominal = False
        for i, span in enumerate(chain):
            if i > 0:
                judged.add(span)
                if seen_nominal:
                    h = inferred.get(span)
                    if h is None:
                        add((span, _FN))
                    elif kv.chain_of.get(h) == k:
                        add((span, _TP))
                    else:
                        add((span, _WL))
            if _nominal(types[span]):
                seen_nominal = True
    for span in inferred:
        if span not in judged:
            add((span, _FP))


def _anchor(chain: list[Span], types: Mapping[Span, MentionType]) -> Span | None:
    return next((s for s in chain if _nominal(types[s])), None)


def _anchors(kv: ChainView, rv: ChainView, types: Mapping[Span, MentionType], add_ed, add_em) -> None:
    resp_multi = {i for i, chain in enumerate(rv.chains) if len(chain) > 1}
    key_multi = {i for i, chain in enumerate(kv.chains) if len(chain) > 1}
    for k in sorted(key_multi):
        chain = kv.chains[k]
        anchor = _anchor(chain, types)
        if anchor is None:
            continue
        r = rv.chain_of.get(anchor)
        if r is None or r not in resp_multi:
            add_ed((anchor, _FN))
            continue
        add_ed((anchor, _TP))
        for span in chain:
            add_em((span, anchor, _TP if rv.chain_of.get(span) == r else _FN))
        for span in rv.chains[r]:
            if kv.chain_of.get(span) != k:
                add_em((span, anchor, _FP))
    for r in sorted(resp_multi):
        chain = rv.chains[r]
        anchor = _anchor(chain, types)
        if anchor is not None and kv.chain_of.get(anchor) not in key_multi:
            add_ed((anchor, _FP))


def totals(breakdown: Breakdown) -> dict[str, Tally]:
    """The counts of each counted metric summed over mention types."""
    out = {}
    for name, by_type in breakdown.items():
        total = Tally()
        for tally in by_type.values():
            total = total + tally
        out[name] = total
    return out


def scores_from_counts(breakdown: Breakdown) -> dict[str, Score | AnchorScore]:
    """The five metrics of `METRICS` as Score-like counts (micro-averaging sums them)."""
    return _scores(totals(breakdown))


def _scores(tallies: Mapping[str, Tally]) -> dict[str, Score | AnchorScore]:
    out: dict[str, Score | AnchorScore] = {name: tallies[name].score() for name in COUNTED}
    out[ANCHOR.name] = AnchorScore(out[ANCHOR_ED.name], out[ANCHOR_EM.name])
    return {name: out[name] for name in METRICS}


def score_document(pair) -> dict[str, Score | AnchorScore]:
    """Tuggener's five metrics for an engine `DocPair` (keys: "immediate", "inferred",
    "anchor_ed", "anchor_em", "anchor").  The same counts as `scores_from_counts` of
    `count_views`, counted by outcome alone (no class of mention is asked for)."""
    tallies = {}
    for name, items in _judgements(pair.key_view, pair.response_view, pair.types).items():
        counts = [0, 0, 0, 0]
        for outcome in map(_outcome, items):
            counts[outcome] += 1
        tallies[name] = Tally(*counts)
    return _scores(tallies)


def breakdown_document(pair, by: str = "type") -> Breakdown:
    """Counts of an engine `DocPair` per class of mention ("type", "pos" or "entity")."""
    return count_views(pair.key_view, pair.response_view, pair.types, feature(by, pair.key, pair.types),
                       per_entity=by == "entity")


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

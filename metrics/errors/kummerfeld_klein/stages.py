"""One document through K&K's analysis: its errors and its response corrected stage by stage.

The corrections are BCA's (the files `*.corrected.*_prog` it writes for the scorer): a stage
applies its error type's corrections on top of every earlier stage's, so the response after the
last stage has every categorised error corrected.  Per error type:
- conflated entities: the part becomes a cluster of its own; a lone extra mention it leaves behind
  is removed;
- extra mention, extra entity: the mentions are removed;
- divided entity: the part joins the cluster of its key cluster's earliest non-pronoun mention
  (or first mention), which is added if the response lacks it;
- missing mention: the mention joins the cluster of the earliest of its key cluster's mentions
  that the response has (or, if none, a new one with the key cluster's first mention);
- missing entity: the key cluster is added as a cluster of its own.
"""

from __future__ import annotations

from . import KK_TYPES
from .classify import Found, Outcome, _Rules, classify_group, groups, span_errors
from .view import Mention, PairView


class _State:
    """A response under correction: mention -> cluster id, with each cluster's members."""

    def __init__(self, mentions: dict[Mention, int]) -> None:
        self.of = dict(mentions)
        self.members: dict[int, set[Mention]] = {}
        for m, c in self.of.items():
            self.members.setdefault(c, set()).add(m)

    def put(self, m: Mention, cluster: int) -> None:
        self.pop(m)
        self.of[m] = cluster
        self.members.setdefault(cluster, set()).add(m)

    def pop(self, m: Mention) -> None:
        cluster = self.of.pop(m, None)
        if cluster is not None:
            self.members[cluster].discard(m)

    def relabel(self, old: int, new: int) -> None:
        if old != new:
            moved = self.members.pop(old, set())
            for m in moved:
                self.of[m] = new
            self.members.setdefault(new, set()).update(moved)


class _Counter:
    def __init__(self, start: int) -> None:
        self.value = start

    def __call__(self) -> int:
        self.value += 1
        return self.value


def _correct(kind: str, part: frozenset, cluster: frozenset, *, state: _State, new_id: _Counter,
             rules: _Rules, gold: dict[Mention, int]) -> None:
    """Apply one error's correction to the response under correction."""
    if kind == "conflated_entities":
        cid = new_id()
        for m in part:
            state.put(m, cid)
        rest = cluster - part
        if len(rest) == 1 and next(iter(rest)) not in gold:
            state.pop(next(iter(rest)))
    elif kind in ("extra_mention", "extra_entity"):
        for m in part:
            state.pop(m)
    elif kind == "divided_entity":
        anchor = rules.earliest(cluster) or min(cluster)
        if anchor not in state.of:
            state.put(anchor, new_id())
        target = state.of[anchor]
        done: set[int] = set()
        for m in part:
            if m not in state.of:
                state.put(m, target)
            elif state.of[m] not in done:
                done.add(state.of[m])
                state.relabel(state.of[m], target)
    elif kind == "missing_mention":
        m = next(iter(part))
        present = min((x for x in cluster if x in state.of), default=None)
        if present is not None:
            state.put(m, state.of[present])
        else:
            cid = new_id()
            state.put(min(cluster), cid)
            state.put(m, cid)
    elif kind == "missing_entity":
        cid = new_id()
        for m in part:
            state.put(m, cid)


def analyse(view: PairView) -> Outcome:
    """Every error of one document pair and its response after each stage (`classify.STAGES`)."""
    words = view.key_doc.words
    bounds = view.syntax.starts + [len(words)]
    sentences = [words[lo:hi] for lo, hi in zip(bounds, bounds[1:])]
    before = dict(view.auto.mentions)
    errors = span_errors(view, sentences)
    rules = _Rules(view)
    gold_set = set(view.gold.mentions)
    new_id = _Counter(max(view.auto.clusters, default=0))
    operations: dict[str, int] = {"span": len(errors)}
    found_in_groups = []
    for autos, golds in groups(view):
        if len(autos) == len(golds) and all(g in autos for g in golds):
            continue
        if len(autos) + len(golds) == 1 and len((autos or golds)[0]) == 1:
            # a lone key mention the response lacks (introduced, no error), or a lone response
            # mention in no key cluster (split off and removed, no error): BCA's operations only
            for name in (("introduce",) if golds else ("split", "remove")):
                operations[name] = operations.get(name, 0) + 1
            continue
        found_in_groups.append(classify_group(rules, autos, golds, gold_set, view.auto.mentions, counts=operations))
    # Stage by stage over all groups: BCA corrects group by group, each stage's file taking that
    # stage's and the earlier types; groups share no mention and no cluster, so correcting type by
    # type across the groups gives every stage the same clusters (only cluster ids differ).
    corrected = {"none": before, "span_error": dict(view.auto.mentions)}
    state = _State(view.auto.mentions)
    for kind in KK_TYPES[1:]:
        side = "key" if kind in ("divided_entity", "missing_mention", "missing_entity") else "response"
        for found in found_in_groups:
            for part, cluster in found[kind]:
                _correct(kind, part, cluster, state=state, new_id=new_id, rules=rules, gold=view.gold.mentions)
                errors.append(Found(kind, tuple(sorted(part)), tuple(sorted(cluster)), side))
        corrected[kind] = dict(state.of)
    return Outcome(errors, corrected, operations)

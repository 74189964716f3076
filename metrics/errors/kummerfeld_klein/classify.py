"""Kummerfeld & Klein's (2013) error classification, rule for rule as their analyser (BCA) applies it.

Per document, in BCA's order:
1. Span errors: a response mention that is not a key mention is moved onto one when the two are
   equal once a leading "the" or one-character non-letter and a trailing "'s" or one-character
   non-letter are trimmed from both; then onto the one key mention with the same head when exactly
   one response mention and one key mention (neither matched) have that head.
2. The response is turned into the key by operations, per group of key and response clusters that
   share mentions: split each response cluster into its parts per key cluster (a mention in no key
   cluster is split off alone and removed), introduce each missing key mention alone, merge the
   parts of each key cluster.
3. The operations are grouped into errors, in this order:
   - extra entity: the extra mentions of a response cluster whose key mentions are all pronouns,
     when there are at least two of them;
   - missing entity: a key cluster with at least two missing mentions whose present mentions are
     all pronouns;
   - a split or merge of the part holding a cluster's earliest non-pronoun mention (or, in a
     cluster of pronouns only, its first mention) is no error: the rest moves, not it;
   - extra mention: a lone mention split off and removed; missing mention: a lone key mention,
     absent from the response and not its cluster's earliest non-pronoun, merged in, unless it was
     also split off elsewhere;
   - conflated entities: every other split; divided entity: every other merge.
4. The response corrected stage by stage in that order (`stages`): what each error type costs.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field

from . import KK_TYPES
from .view import Mention, PairView



@dataclass
class Operation:
    """A split (of `part` from response cluster `cluster`) or a merge (of `part` into key cluster
    `cluster`); `lone` marks a mention split off into nothing (to be removed)."""

    part: frozenset[Mention]
    cluster: frozenset[Mention]
    lone: bool = False


@dataclass
class Found:
    """One error in BCA's terms: its type, the mentions it is about, the cluster they come from or
    go to (`cluster`, on the side `side`: response for split-like errors, key for merge-like ones),
    and for a span error the key mention the response mention becomes (`target`)."""

    kind: str
    part: tuple[Mention, ...]
    cluster: tuple[Mention, ...] = ()
    side: str = "response"
    target: Mention | None = None


@dataclass
class Outcome:
    """A document's errors and its response after each correction stage (mention -> cluster id)."""

    errors: list[Found]
    states: dict[str, dict[Mention, int]]
    operations: dict[str, int] = field(default_factory=dict)
    """BCA's raw operation counts (introduce, split, merge, remove), as its summary prints them."""


def _trimmed(words: list[str], start: int, end: int) -> tuple[int, int]:
    def loose(word: str, edge: str) -> bool:
        return word == edge or (len(word) == 1 and word not in string.ascii_letters)

    while start < end - 1 and loose(words[start], "the"):
        start += 1
    while start < end - 1 and loose(words[end - 1], "'s"):
        end -= 1
    return start, end


def _move(view: PairView, moves: dict[Mention, Mention], auto_set: set[Mention], found: list[Found]) -> None:
    auto = view.auto
    for old, new in moves.items():
        auto_set.discard(old)
        auto_set.add(new)
        cluster = auto.mentions.pop(old)
        auto.mentions[new] = cluster
        auto.clusters[cluster].remove(old)
        auto.clusters[cluster].append(new)
        found.append(Found("span_error", (old,), side="response", target=new))


def span_errors(view: PairView, sentences: list[list[str]]) -> list[Found]:
    """Step 1: move response mentions onto key mentions (punctuation and "the", then heads)."""
    gold_set = {m for ms in view.gold.clusters.values() for m in ms}
    auto_set = {m for ms in view.auto.clusters.values() for m in ms}
    found: list[Found] = []
    # the key-only mentions by sentence (in the set's order, which BCA's loop follows), trimmed once:
    # a response mention is only compared with the key-only mentions of its own sentence
    only_gold: dict[int, list[tuple[Mention, tuple[int, int]]]] = {}
    for g in gold_set - auto_set:
        only_gold.setdefault(g[0], []).append((g, _trimmed(sentences[g[0]], g[1], g[2])))
    moves: dict[Mention, Mention] = {}
    used: set[Mention] = set()
    for a in auto_set - gold_set:
        trimmed = _trimmed(sentences[a[0]], a[1], a[2])
        for g, g_trimmed in only_gold.get(a[0], ()):
            if g not in used and g_trimmed == trimmed:
                moves[a] = g  # no break: BCA lets a later key mention win and marks both used
                used.add(g)
    _move(view, moves, auto_set, found)
    # heads pair mentions within a sentence: only sentences with unmatched mentions on both sides
    left_auto, left_gold = auto_set - gold_set, gold_set - auto_set
    both = {m[0] for m in left_auto} & {m[0] for m in left_gold}
    by_head: dict[tuple[int, int], tuple[list[Mention], list[Mention]]] = {}
    for side, left in ((0, left_auto), (1, left_gold)):
        for m in left:
            if m[0] in both:
                by_head.setdefault((m[0], view.syntax.head(m)[0]), ([], []))[side].append(m)
    _move(view, {a[0]: g[0] for a, g in by_head.values() if len(a) == 1 and len(g) == 1}, auto_set, found)
    return found


def groups(view: PairView) -> list[tuple[list[frozenset[Mention]], list[frozenset[Mention]]]]:
    """Connected groups of response and key clusters (linked by shared mentions), by first mention."""
    gold, auto = view.gold, view.auto
    seen_gold: set[int] = set()
    seen_auto: set[int] = set()
    out = []
    # both sides' mentions in reading order, nearly sorted already: sorting a book's mentions in
    # a set's order cost a cache miss per comparison
    seeds = sorted({**gold.mentions, **auto.mentions})
    for seed in seeds:
        if (seed in gold.mentions and gold.mentions[seed] in seen_gold) or \
                (seed not in gold.mentions and auto.mentions[seed] in seen_auto):
            continue
        stack = [(gold.mentions[seed], True)] if seed in gold.mentions else [(auto.mentions[seed], False)]
        (seen_gold if stack[0][1] else seen_auto).add(stack[0][0])
        autos, golds = [], []
        while stack:
            cluster, is_gold = stack.pop()
            members = (gold if is_gold else auto).clusters[cluster]
            (golds if is_gold else autos).append(frozenset(members))
            other, seen = (auto, seen_auto) if is_gold else (gold, seen_gold)
            for m in members:
                partner = other.mentions.get(m)
                if partner is not None and partner not in seen:
                    seen.add(partner)
                    stack.append((partner, not is_gold))
        out.append((autos, golds))
    return out


class _Rules:
    """BCA's `min_non_pronoun` and kinds over one pair."""

    def __init__(self, view: PairView) -> None:
        self.view = view
        self.pronoun = view.syntax.pronoun

    def earliest(self, cluster) -> Mention | None:
        """The earliest mention that is not a pronoun (None if all are)."""
        return min((m for m in cluster if not self.pronoun(m)), default=None)


def classify_group(rules: _Rules, autos: list[frozenset], golds: list[frozenset], gold_set: set[Mention],
                   auto_mentions: dict[Mention, int], *, counts: dict[str, int]) -> dict[str, list]:
    """Steps 2 and 3 for one group: the operations, then the errors they make."""
    splits: list[Operation] = []
    removes: list[frozenset] = []
    introduces: list[frozenset] = []
    pieces: list[frozenset] = []
    for cluster in autos:
        used: set[Mention] = set()
        for gcluster in golds:
            common = cluster & gcluster
            if common:
                pieces.append(common)
                used |= common
                if len(common) != len(cluster):
                    splits.append(Operation(common, cluster))
        for m in cluster - used:
            splits.append(Operation(frozenset((m,)), cluster, lone=True))
            removes.append(frozenset((m,)))
    for gcluster in golds:
        for m in gcluster:
            if m not in auto_mentions:
                introduces.append(frozenset((m,)))
                pieces.append(frozenset((m,)))
    merges = [Operation(p, g) for g in golds for p in pieces if p != g and p <= g]
    for name, ops in (("split", splits), ("remove", removes), ("introduce", introduces), ("merge", merges)):
        counts[name] = counts.get(name, 0) + len(ops)
    out: dict[str, list] = {kind: [] for kind in KK_TYPES[1:]}

    def drop(ops: list, op) -> None:
        if op in ops:
            ops.remove(op)

    # extra entity: the extra mentions of a cluster whose key mentions are all pronouns
    extra: dict[frozenset, list[Operation]] = {}
    for op in splits:
        if all(m not in gold_set or rules.pronoun(m) for m in op.cluster) and not (op.part & gold_set):
            extra.setdefault(op.cluster, []).append(op)
    for cluster, ops in extra.items():
        part = frozenset().union(*(op.part for op in ops))
        if len(part) == 1:
            continue
        out["extra_entity"].append((part, cluster))
        for op in ops:
            splits.remove(op)
            drop(removes, frozenset((next(iter(op.part)),)))
    # missing entity: at least two missing mentions, and the present ones all pronouns
    for gcluster in golds:
        missing = [m for m in gcluster if m not in auto_mentions]
        if len(missing) > 1 and all(rules.pronoun(m) for m in gcluster if m in auto_mentions):
            out["missing_entity"].append((gcluster, gcluster))
            for m in missing:
                merges.remove(next(op for op in merges if op.part == frozenset((m,))))
                introduces.remove(frozenset((m,)))
    # the part holding the earliest non-pronoun (or first) mention stays: no error
    for ops, undone in ((splits, removes), (merges, introduces)):
        for op in list(ops):
            first = rules.earliest(op.part)
            if first == rules.earliest(op.cluster):
                if first is None and min(op.part) != min(op.cluster):
                    continue
                ops.remove(op)
                drop(undone, op.part)
    for op in [op for op in splits if len(op.part) == 1 and op.lone]:
        splits.remove(op)
        drop(removes, op.part)
        out["extra_mention"].append((op.part, op.cluster))
    for op in list(merges):
        if len(op.part) != 1:
            continue
        m = next(iter(op.part))
        if any(s.part == op.part for s in splits):
            continue
        if m != rules.earliest(op.cluster) and m not in auto_mentions:
            out["missing_mention"].append((op.part, op.cluster))
            merges.remove(op)
            drop(introduces, op.part)
    out["conflated_entities"] = [(op.part, op.cluster) for op in splits]
    out["divided_entity"] = [(op.part, op.cluster) for op in merges]
    return out

"""One side's clusters of a UA document, and key and response mentions aligned, as the UA scorer
builds and aligns them (corefud-scorer 4fd7b0e: `scorer/ua/reader.py`, `scorer/base/reader.py`).

Clusters, per side (`side_clusters`):

1. Each entity's mentions in the order their markables are first met.  With split antecedents
   kept, a plural entity (one that markables name in `ElementOf`) gets one more mention, a
   `SplitAntecedent` holding the clusters of its members (a member that is itself plural is
   replaced by its own members).
2. A non-referring entity (EntityID `...-Pseudo`) is set aside: its first markable is a
   non-referring mention.
3. Without singletons, an entity of one mention (the split antecedent counts) is dropped; then,
   without zeros, its zero mentions are (an entity left with none is dropped: the UA scorer keeps
   it empty, and counts it as an entity of -1 MUC links, or divides by its size 0 in B3).
4. With split antecedents kept, each cluster becomes a set (a span listed twice counts once) and
   clusters with equal split antecedents are merged.

Alignment (`align`): equal mentions first (the same words; split antecedents with equal member
sets); then, unless matching is exact, the remaining ones that are not split antecedents:
- partial (`partial-corefud`): the response mention lies inside the key mention and covers its
  Min; the score is |K ∩ S| / |K|; the one-to-one assignment of the largest total score;
- partial-craft: the response mention has a part inside the key mention's first part; the score
  as above; taken greedily, each response mention (in order) by the first key mention in order
  with a positive score, left unaligned if that one is taken;
- head: the two have the same Min (the UA scorer crashes here); scored and assigned as partial.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from metrics.mentions.ua import AnyMention, Markable, MarkableTable, Mention, SplitAntecedent
from metrics.runtime.lsap_sparse import positive_pairs, sharing_costs

MATCHES = ("exact", "partial", "partial-craft", "head")


@dataclass
class SideClusters:
    """One side's clusters ready to be scored, and what the relations need of it."""

    clusters: list[list[AnyMention]]
    labels: list[str]
    """Each cluster's entity (the first one's, when clusters were merged)."""
    non_referring: list[Mention]
    mention_of: dict[str, Mention] = field(default_factory=dict)
    """MarkableID -> its mention (every markable, non-referring ones included)."""


def min_source(match: str) -> str:
    """Which minimal span a match reads: none for exact, the first part for CRAFT, else Min."""
    return {"exact": "none", "partial-craft": "first_part"}.get(match, "min")


def side_clusters(markables: "Sequence[Markable] | MarkableTable", match: str, keep_singletons: bool, keep_split: bool,
                  keep_zeros: bool) -> SideClusters:
    """Steps 1-4 of the module's description over one side's markables (their columns, or a list)."""
    table = markables if isinstance(markables, MarkableTable) else MarkableTable.of(markables)
    mentions_made = table.mentions(min_source(match))
    mention_of = dict(zip(table.ids, mentions_made))
    entities: dict[str, list[Mention]] = {}
    non_referring: dict[str, bool] = {}
    for entity, mention in zip(table.entities, mentions_made):
        mentions = entities.get(entity)
        if mentions is None:
            entities[entity] = [mention]
            non_referring[entity] = entity.endswith("-Pseudo")
        else:
            mentions.append(mention)
    members: dict[str, list[str]] = {}
    for row in sorted(table.element_of):  # in the markables' order
        for plural in table.element_of[row]:
            members.setdefault(plural, []).append(table.entities[row])
    clusters: list[list[AnyMention]] = []
    labels: list[str] = []
    set_aside: list[Mention] = []
    drop_zeros = not keep_zeros and any(isinstance(parts[0][0], str) for parts in table.irregular.values())
    for entity, mentions in entities.items():
        cluster: list[AnyMention] = list(mentions)
        if keep_split and members.get(entity):
            cluster.append(_split_antecedent(entity, entities, members))
        if non_referring[entity]:
            set_aside.append(mentions[0])
            continue
        if not keep_singletons and len(cluster) == 1:
            continue
        if drop_zeros:  # (a split antecedent is never a zero)
            cluster = [m for m in cluster if not m.zero]
        if cluster:
            clusters.append(cluster)
            labels.append(entity)
    if keep_split:
        clusters, labels = _merge_equal_plurals(clusters, labels)
    return SideClusters(clusters, labels, set_aside, mention_of)


def _split_antecedent(plural: str, entities: dict[str, list[Mention]], members: dict[str, list[str]]) -> SplitAntecedent:
    """The clusters a plural entity is made of, breadth first (the reader refuses cycles)."""
    found: set[tuple[Mention, ...]] = set()
    waiting = deque([plural])
    while waiting:
        entity = waiting.popleft()
        if members.get(entity):
            waiting.extend(members[entity])
        else:
            found.add(tuple(entities[entity]))
    return SplitAntecedent(found, plural)


def _merge_equal_plurals(clusters: list[list[AnyMention]], labels: list[str]) -> tuple[list[list[AnyMention]], list[str]]:
    """Clusters holding the same split antecedent merged (each cluster made a set, whose order the
    metrics' sums then follow, as the UA scorer's).  A cluster's split antecedent, if any, is its
    last mention (`side_clusters` appends it)."""
    merged: list[set[AnyMention]] = []
    merged_labels: list[str] = []
    for cluster, label in zip(clusters, labels):
        into = None
        if cluster[-1].is_split:
            into = next((other for other in merged if cluster[-1] in other), None)
        if into is not None:
            into.update(cluster)
        else:
            merged.append(set(cluster))
            merged_labels.append(label)
    return [list(c) for c in merged], merged_labels


def _overlap_ratio(key: Mention, response: Mention) -> float:
    return len(key.word_set & response.word_set) * 1.0 / len(key.word_set)


def partial_score(key: Mention, response: Mention) -> float:
    """partial-corefud: the response inside the key, covering the key's Min."""
    if key.min_words and key.min_words <= response.word_set and response.word_set <= key.word_set:
        return _overlap_ratio(key, response)
    return 0.0


def craft_score(key: Mention, response: Mention) -> float:
    """partial-craft: a part of the response inside the key's first part."""
    if key.zero or response.zero or not key.min_words:
        return 0.0
    first, last = key.parts[0]
    for start, end in response.parts:
        if start >= first and end <= last:
            return _overlap_ratio(key, response)
    return 0.0


def head_score(key: Mention, response: Mention) -> float:
    """head: the same Min."""
    if key.min_words and key.min_words == response.min_words:
        return _overlap_ratio(key, response)
    return 0.0


SCORES = {"partial": partial_score, "partial-craft": craft_score, "head": head_score}


def _sorted(mentions: set[Mention]) -> list[Mention]:
    return sorted(mentions, key=Mention.order)


def _partial_pairs(keys: set[Mention], responses: set[Mention], match: str) -> list[tuple[Mention, Mention]]:
    if match == "exact" or not keys or not responses:
        return []
    key_list, response_list = _sorted(keys), _sorted(responses)
    score = SCORES[match]
    if match == "partial-craft":
        taken: set[int] = set()
        pairs = []
        for response in response_list:
            for i, key in enumerate(key_list):
                if score(key, response) > 0:
                    if i not in taken:
                        taken.add(i)
                        pairs.append((key, response))
                    break
        return pairs
    costs = sharing_costs(key_list, response_list, lambda m: m.word_set, score)
    return [(key_list[i], response_list[j]) for i, j in positive_pairs(costs, len(response_list))]


@dataclass
class Alignment:
    """Aligned key and response mentions: `pairs` (key, response), equal ones included, and
    `partner`, each non-equal pair both ways, which the metrics resolve a mention through."""

    pairs: list[tuple[AnyMention, AnyMention]]
    partner: dict[AnyMention, AnyMention]


def align(key: list[list[AnyMention]], response: list[list[AnyMention]], match: str) -> Alignment:
    """Equal mentions, then (unless exact) the rest by the match's score, as the UA scorer does."""
    key_left = {m for c in key for m in c}
    response_left = {m for c in response for m in c}
    equal_key = {m: m for m in key_left if m in response_left}
    equal_response = {m: m for m in response_left if m in key_left}
    equal = [(equal_key[m], equal_response[m]) for m in equal_key]
    key_left = key_left - set(equal_key.values())
    response_left = response_left - set(equal_response.values())
    plain_key = {m for m in key_left if isinstance(m, Mention)}  # split antecedents align by their members
    plain_response = {m for m in response_left if isinstance(m, Mention)}
    partial = _partial_pairs(plain_key, plain_response, match)
    partner: dict[AnyMention, AnyMention] = {k: s for k, s in partial if k != s}
    partner.update({s: k for k, s in partial if k != s})
    pairs: list[tuple[AnyMention, AnyMention]] = [*equal, *partial]
    return Alignment(pairs, partner)


def cluster_index(clusters: list[list[AnyMention]]) -> dict[AnyMention, int]:
    """Mention -> the last cluster holding it (a later cluster wins, as in the UA scorer's maps)."""
    return {m: i for i, c in enumerate(clusters) for m in c}

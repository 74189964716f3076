"""The metrics as corefud-scorer computes them, over one aligned document (`AlignedDocument`).

corefud-scorer's metrics are coval's (Moosavi & Strube) over aligned mentions: a mention counts as
found when it or its aligned partner is on the other side.  They differ from v8.01's in the cases
docs/conventions.md lists: a mention in two entities of one side is kept in both, and attributed
to the last of them; BLANC averages the coreference and non-coreference parts over those whose
recall and precision denominators are not both 0 (v8.01: over the key's parts); `mor` and `zero`
are CorefUD's own.

The catalogue (metrics.measures.catalog) names these functions as the metrics' computations under
`Scorer.COREFUD`.  Every function returns the official scorer's four counts (`Score`), summed in the same order, so
the corpus values, micro-averaged over documents, are the official scorer's to the last digit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from metrics.measures.score import BlancScore, Score, mean
from metrics.mentions.corefud import AlignedDocument, mention_order

def _last_cluster(clusters: list[list[int]]) -> dict[int, int]:
    """Mention id -> the last cluster holding it (coval's mention_to_cluster: later ones win)."""
    return {m: i for i, c in enumerate(clusters) for m in c}


def _found(c: list[int], other: dict[int, int], partner: dict[int, int]) -> list[int]:
    """The other side's cluster of each mention of `c` that the other side has (resolved through
    its aligned partner first, as the official scorer does)."""
    out = []
    for m in c:
        m = partner.get(m, m)
        if m in other:
            out.append(other[m])
    return out


def _muc_side(clusters: list[list[int]], other: dict[int, int], partner: dict[int, int]) -> tuple[int, int]:
    tp = p = 0
    for c in clusters:
        p += len(c) - 1
        found = _found(c, other, partner)
        tp += len(c) - (len(c) - len(found)) - len(set(found))
    return tp, p


def muc(doc: AlignedDocument) -> Score:
    rn, rd = _muc_side(doc.key, _last_cluster(doc.response), doc.partner)
    pn, pd = _muc_side(doc.response, _last_cluster(doc.key), doc.partner)
    return Score(rn, rd, pn, pd)


def _bcub_side(clusters: list[list[int]], other: dict[int, int], partner: dict[int, int]) -> tuple[float, int]:
    num, den = 0, 0
    for c in clusters:
        counts = Counter(_found(c, other, partner))
        correct = 0
        for n in counts.values():
            correct += float(n) * float(n)
        num += correct / float(len(c))
        den += len(c)
    return num, den


def bcub(doc: AlignedDocument) -> Score:
    rn, rd = _bcub_side(doc.key, _last_cluster(doc.response), doc.partner)
    pn, pd = _bcub_side(doc.response, _last_cluster(doc.key), doc.partner)
    return Score(rn, rd, pn, pd)


def _ceaf_costs(doc: AlignedDocument, entity: bool) -> list[dict[int, float]]:
    """Each key cluster's similarity to the response clusters it shares a mention with, negated
    (the solver's costs; every other pair's similarity is 0)."""
    where: dict[int, list[int]] = {}
    for j, c in enumerate(doc.response):
        for m in set(c):
            where.setdefault(m, []).append(j)
    costs: list[dict[int, float]] = []
    for k in doc.key:
        overlap = Counter(j for m in k for j in where.get(doc.partner.get(m, m), ()))
        costs.append({j: -(2 * n / float(len(k) + len(doc.response[j])) if entity else float(n))
                      for j, n in overlap.items()})
    return costs


def _ceaf(doc: AlignedDocument, entity: bool) -> Score:
    """The similarity of scipy's assignment on the full matrix (the official scorer's), summed as
    numpy sums it there (over every assigned pair, in row order, zeros included), from the
    positive similarities alone (`lsap_sparse.assignment`: a book's matrix took 1.5 GB)."""
    from metrics.runtime.lsap_sparse import assigned_similarity

    costs = _ceaf_costs(doc, entity)
    similarity = assigned_similarity(costs, len(doc.response))
    if entity:
        return Score(similarity, len(doc.key), similarity, len(doc.response))
    return Score(similarity, sum(len(c) for c in doc.key), similarity, sum(len(c) for c in doc.response))


def ceafe(doc: AlignedDocument) -> Score:
    return _ceaf(doc, entity=True)


def ceafm(doc: AlignedDocument) -> Score:
    return _ceaf(doc, entity=False)


def _lea_side(clusters: list[list[int]], other: dict[int, int], other_clusters: list[list[int]],
              partner: dict[int, int]) -> tuple[float, int]:
    num, den = 0, 0
    for c in clusters:
        found = _found(c, other, partner)
        if len(c) == 1:
            all_links = 1
            common = 1 if found and len(other_clusters[found[0]]) == 1 else 0
        else:
            all_links = len(c) * (len(c) - 1) / 2.0
            common = 0
            for n in Counter(found).values():
                common += n * (n - 1) // 2 * 1.0
        num += 1 * len(c) * common / float(all_links)
        den += 1 * len(c)
    return num, den


def lea(doc: AlignedDocument) -> Score:
    rn, rd = _lea_side(doc.key, _last_cluster(doc.response), doc.response, doc.partner)
    pn, pd = _lea_side(doc.response, _last_cluster(doc.key), doc.key, doc.partner)
    return Score(rn, rd, pn, pd)


@dataclass(frozen=True)
class CorefudBlancScore(BlancScore):
    """BLANC as corefud-scorer averages it: over the parts (coreference, non-coreference links)
    whose corpus recall and precision denominators are not both 0."""

    def _mean(self, attribute: str) -> float:
        both = (self.coref, self.noncoref)
        if np.ndim(self.coref.recall_den) or np.ndim(self.noncoref.recall_den):
            return self._mean_of_arrays(attribute)
        return mean([getattr(s, attribute) for s in both if not (s.precision_den == 0 and s.recall_den == 0)])

    def _mean_of_arrays(self, attribute: str):
        """The same mean over arrays of counts (resampled corpora: `metrics.statistics`)."""
        used = [(np.asarray(s.precision_den) != 0) | (np.asarray(s.recall_den) != 0) for s in (self.coref, self.noncoref)]
        total = sum(np.where(u, getattr(s, attribute), 0.0) for u, s in zip(used, (self.coref, self.noncoref)))
        n = used[0].astype(np.int64) + used[1]
        return np.where(n > 0, total / np.maximum(n, 1), 0.0)

    def __add__(self, other: "BlancScore") -> "CorefudBlancScore":
        return CorefudBlancScore(self.coref + other.coref, self.noncoref + other.noncoref)


def blanc(doc: AlignedDocument) -> CorefudBlancScore:
    other = _last_cluster(doc.response)
    coref = 0
    mapped_total = 0
    mapped_sq = 0
    cross_same = Counter()
    within_same = 0
    for c in doc.key:
        per_response = Counter(_found(c, other, doc.partner))
        for n in per_response.values():
            coref += n * (n - 1) // 2
            within_same += n * n
        mapped = sum(per_response.values())
        mapped_total += mapped
        mapped_sq += mapped * mapped
        cross_same.update(per_response)
    # non-coreference links found: mapped pairs across key entities, minus those in one response entity
    noncoref = (mapped_total * mapped_total - mapped_sq) // 2
    noncoref -= (sum(n * n for n in cross_same.values()) - within_same) // 2
    key_links = sum(len(c) * (len(c) - 1) / 2 for c in doc.key)
    response_links = sum(len(c) * (len(c) - 1) / 2 for c in doc.response)
    nk = sum(len(c) for c in doc.key)
    ns = sum(len(c) for c in doc.response)
    return CorefudBlancScore(
        Score(coref, key_links, coref, response_links),
        Score(noncoref, nk * (nk - 1) / 2 - key_links, noncoref, ns * (ns - 1) / 2 - response_links),
    )


MorItem = tuple[tuple, bool]
"""A mention's nodes and whether it is the key's."""


def mor_items(doc: AlignedDocument) -> list[MorItem]:
    """Every mention of both sides (a mention in two entities twice), in the official scorer's order."""
    items = [(m, True) for c in doc.key_mentions for m in c] + [(m, False) for c in doc.response_mentions for m in c]
    items.sort(key=lambda x: mention_order(x[0]))
    return [(m.nodes, is_key) for m, is_key in items]


def overlapping(items: list[MorItem]) -> Iterator[list[MorItem]]:
    """The runs of `items` whose nodes reach into one another (the groups `mor` pairs within)."""
    group: list[MorItem] = []
    bound = None
    for item in items:
        if bound is not None and item[0][0] > bound:
            yield group
            group, bound = [], None
        group.append(item)
        bound = item[0][-1] if bound is None else max(bound, item[0][-1])
    if group:
        yield group


def mor(doc: AlignedDocument) -> Score:
    """Mention overlap ratio (CRAC 2022): words shared by the best one-to-one pairing of
    overlapping key and response mentions, over all key (recall) or response (precision) words.

    The official scorer pairs each group of overlapping mentions with a maximum assignment and
    adds, for each pair, its shared words and both mentions' words, and each unpaired mention's
    words: every mention's words are counted once whichever pairing is chosen, so only the shared
    words need the assignment, and only its optimum (every optimal pairing shares as many).  A
    group of one key and one response mention is that pair (the assignment of a 1 x 1 matrix); a
    group of one side alone shares nothing.  Counts are whole numbers, summed exactly either way."""
    from metrics.runtime.lsap import linear_sum_assignment

    items = mor_items(doc)
    key_words = sum(len(nodes) for nodes, is_key in items if is_key)
    response_words = sum(len(nodes) for nodes, is_key in items if not is_key)
    shared = 0
    for group in overlapping(items):
        keys = [set(nodes) for nodes, is_key in group if is_key]
        responses = [set(nodes) for nodes, is_key in group if not is_key]
        if len(keys) == 1 and len(responses) == 1:
            shared += len(keys[0] & responses[0])
        elif keys and responses:
            overlap = np.array([[len(k & s) for s in responses] for k in keys], dtype=float)
            rows, cols = linear_sum_assignment()(overlap, True)
            shared += int(overlap[rows, cols].sum())
    return Score(float(shared), float(key_words), float(shared), float(response_words))


def zero(doc: AlignedDocument) -> Score:
    """The anaphor-level score of zeros (CorefUD's `zero`): a key zero that is not first in its
    entity is found (tp) when its response counterpart follows a mention of its response entity
    that stands for an earlier mention of its key entity; wrongly linked (wl) when it follows
    none; missed (fn) when it has no counterpart or is first in its response entity.  A response
    zero not first in its entity and counterpart of no such key zero is fp.  A key mention's
    counterpart is the same mention on the response side, else its aligned partner."""
    response_of = _last_cluster(doc.response)
    firsts = {min(zip(ids, mentions), key=lambda x: mention_order(x[1]))[0]
              for ids, mentions in zip(doc.response, doc.response_mentions)}
    tp = fp = fn = wl = 0
    covered = set()
    for ids, mentions in zip(doc.key, doc.key_mentions):
        seen: set[int] = set()
        for i, (m, mention) in enumerate(sorted(zip(ids, mentions), key=lambda x: mention_order(x[1]))):
            counterpart = m if m in response_of else doc.partner.get(m)
            cid = response_of.get(counterpart) if counterpart is not None else None
            if i and mention.zero:
                if counterpart is None or counterpart in firsts:
                    fn += 1
                elif cid not in seen:
                    wl += 1
                else:
                    tp += 1
                if counterpart is not None:
                    covered.add(counterpart)
            if cid is not None:
                seen.add(cid)
    for ids, mentions in zip(doc.response, doc.response_mentions):
        for m, mention in zip(ids, mentions):
            if m not in firsts and m not in covered and mention.zero:
                fp += 1
    return Score(tp, tp + fn + wl, tp, tp + fp + wl)

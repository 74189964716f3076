"""The coreference metrics as the UA scorer computes them, split antecedents included
(corefud-scorer 4fd7b0e, `scorer/eval/evaluator.py`, read for the rules; Paun et al. 2022).

A plural entity's split antecedents are one more mention of it (`SplitAntecedent`).  Before a
metric scores a document, the key's and the response's split antecedents are aligned to each
other (`split_credit`): for every key/response pair, the metric itself scores the key's member
clusters against the response's (MUC there counting a one-mention member as one link), and the
one-to-one assignment of the largest total F1 is kept.  An aligned pair then gives partial credit
where the metric meets it: its recall (in recall-side sums), its precision (in precision-side
sums) or its F1 (CEAF, BLANC), instead of the 1 of an equal mention.  The counts of the aligned
pairs themselves are what `--only-split-antecedents` reports.

Everything else is coval's: a mention counts as found when it or its aligned partner is on the
other side, where the last cluster holding it is its cluster.  Every function returns the four
counts (precision num, den, recall num, den) summed in the UA scorer's order, so that the floats
are the UA scorer's to the last bit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from metrics.measures.corefud import CorefudBlancScore
from metrics.measures.score import MeanScore
from metrics.mentions.ua import AnyMention, SplitAntecedent
from metrics.mentions.ua_align import cluster_index
from metrics.runtime.lsap import linear_sum_assignment
from metrics.runtime.lsap_sparse import assigned_similarity

Counts = tuple[float, float, float, float]
"""precision numerator, precision denominator, recall numerator, recall denominator."""
Credit = dict[AnyMention, tuple[AnyMention, float]]
"""A split antecedent -> its aligned partner and the partial credit of the pair."""


@dataclass
class Sides:
    """A document's (or a pair of split antecedents') clusters as the metrics read them."""

    key: list
    response: list
    partner: dict
    key_index: dict | None = None
    """Mention -> its (last) key cluster; computed when not given."""
    response_index: dict | None = None
    splits: tuple[list, list] | None = None
    """The key's and the response's split antecedents, in cluster order (found once, for every metric)."""
    members: dict[int, tuple[list, dict]] = field(default_factory=dict)
    """id of a split antecedent -> its member clusters and their index (made once, for every metric)."""

    def __post_init__(self) -> None:
        if self.key_index is None:
            self.key_index = cluster_index(self.key)
        if self.response_index is None:
            self.response_index = cluster_index(self.response)

    def members_of(self, split: SplitAntecedent) -> tuple[list, dict]:
        """A split antecedent's member clusters (in its set's order) and their `cluster_index`."""
        found = self.members.get(id(split))
        if found is None:
            clusters = list(split.members)
            found = self.members[id(split)] = (clusters, cluster_index(clusters))
        return found

    def split_antecedents(self) -> tuple[list, list]:
        if self.splits is None:
            self.splits = ([m for c in self.key for m in c if m.is_split],
                           [m for c in self.response for m in c if m.is_split])
        return self.splits


@dataclass
class SplitCredit:
    key_recall: Credit = field(default_factory=dict)
    response_precision: Credit = field(default_factory=dict)
    key_f1: Credit = field(default_factory=dict)
    counts: Counts | None = None
    """The aligned pairs' own counts (None when neither side has a split antecedent)."""


NO_CREDIT = SplitCredit()


def _f1(pn: float, pd: float, rn: float, rd: float) -> float:
    p = 0 if pd == 0 else pn / float(pd)
    r = 0 if rd == 0 else rn / float(rd)
    return 0 if p + r == 0 else 2 * p * r / (p + r)


def _muc_side(clusters, others, other_index, partner, *, credit: Credit, count_singletons: bool) -> tuple[float, float]:
    tp, links = 0, 0
    for c in clusters:
        if count_singletons and len(c) == 1:
            links += 1
            m = partner.get(c[0], c[0])
            if m in other_index and len(others[other_index[m]]) == 1:
                tp += 1
            continue
        links += len(c) - 1
        tp += len(c)
        partitions: set[int] = set()
        split = None
        for m in c:
            m = partner.get(m, m)
            if m.is_split:
                split = m
            elif m in other_index:
                partitions.add(other_index[m])
            else:
                tp -= 1  # a partition of its own
        if split is not None:
            aligned = credit.get(split)
            if aligned is not None and other_index[aligned[0]] in partitions:
                tp -= 1 - aligned[1]
            else:
                tp -= 1
        tp -= len(partitions)
    return tp, links


def muc(s: Sides, credit: SplitCredit, inner: bool = False) -> Counts:
    pn, pd = _muc_side(s.response, s.key, s.key_index, s.partner, credit=credit.response_precision, count_singletons=inner)
    rn, rd = _muc_side(s.key, s.response, s.response_index, s.partner, credit=credit.key_recall, count_singletons=inner)
    return pn, pd, rn, rd


def _bcub_side(clusters, other_index, partner, credit: Credit) -> tuple[float, float]:
    num, den = 0, 0
    for c in clusters:
        found: dict[int, float] = {}
        for m in c:
            m = partner.get(m, m)
            if m.is_split:
                aligned = credit.get(m)
                if aligned is not None:
                    where = other_index[aligned[0]]
                    found[where] = found.get(where, 0.0) + aligned[1]
            elif m in other_index:
                where = other_index[m]
                found[where] = found.get(where, 0.0) + 1
        correct = 0
        for n in found.values():
            correct += n * n
        num += correct / float(len(c))
        den += len(c)
    return num, den


def bcub(s: Sides, credit: SplitCredit, inner: bool = False) -> Counts:
    pn, pd = _bcub_side(s.response, s.key_index, s.partner, credit.response_precision)
    rn, rd = _bcub_side(s.key, s.response_index, s.partner, credit.key_recall)
    return pn, pd, rn, rd


def _ceaf(s: Sides, credit: SplitCredit, entity: bool) -> Counts:
    holders: dict[AnyMention, list[int]] = {}
    for j, c in enumerate(s.response):
        for m in c:
            held = holders.setdefault(m, [])
            if not held or held[-1] != j:
                held.append(j)
    costs: list[dict[int, float]] = []  # minus the similarity of each pair that shares a mention
    for c in s.key:
        overlap: dict[int, float] = {}
        for m in c:
            m = s.partner.get(m, m)
            weight: float = 1
            if m.is_split:
                aligned = credit.key_f1.get(m)
                if aligned is None:
                    continue
                m, weight = aligned
            for j in holders.get(m, ()):
                overlap[j] = overlap.get(j, 0) + weight
        similarity_of = ((j, 2 * shared / float(len(c) + len(s.response[j])) if entity else float(shared))
                         for j, shared in overlap.items())
        costs.append({j: -value for j, value in similarity_of if value > 0})
    similarity = float(assigned_similarity(costs, len(s.response)))  # no dense table (a UA book's took gigabytes)
    if entity:
        return similarity, len(s.response), similarity, len(s.key)
    return similarity, sum(len(c) for c in s.response), similarity, sum(len(c) for c in s.key)


def ceafe(s: Sides, credit: SplitCredit, inner: bool = False) -> Counts:
    return _ceaf(s, credit, entity=True)


def ceafm(s: Sides, credit: SplitCredit, inner: bool = False) -> Counts:
    return _ceaf(s, credit, entity=False)


def _resolved(m, partner, credit: Credit) -> tuple[AnyMention, float]:
    """A mention's counterpart on the other side and its weight (a split antecedent's credit)."""
    m = partner.get(m, m)
    if m.is_split:
        aligned = credit.get(m)
        if aligned is not None:
            return aligned
    return m, 1


def _lea_side(clusters, others, other_index, partner, credit: Credit) -> tuple[float, float]:
    num, den = 0, 0
    for c in clusters:
        size = len(c)
        if size == 1:
            all_links = 1
            m = partner.get(c[0], c[0])
            common = 1 if m in other_index and len(others[other_index[m]]) == 1 else 0
        elif size == 2 and not c[0].is_split and not c[1].is_split:  # the commonest chain: one link
            all_links = 1.0
            first, second = partner.get(c[0], c[0]), partner.get(c[1], c[1])
            where = other_index.get(first, -1)
            common = 1.0 if where != -1 and where == other_index.get(second, -1) else 0
        else:
            all_links = size * (size - 1) / 2.0
            resolved = [_resolved(m, partner, credit) for m in c]
            common = 0
            if all(weight == 1 for _, weight in resolved):
                for n in Counter(other_index[m] for m, _ in resolved if m in other_index).values():
                    common += n * (n - 1) // 2 * 1.0
            else:  # partial credits: every link, in the UA scorer's order (float sums)
                for i, (m, weight) in enumerate(resolved):
                    if m in other_index:
                        where = other_index[m]
                        for m2, weight2 in resolved[i + 1:]:
                            if m2 in other_index and other_index[m2] == where:
                                common += weight * weight2
        num += size * common / float(all_links)
        den += size
    return num, den


def lea(s: Sides, credit: SplitCredit, inner: bool = False) -> Counts:
    pn, pd = _lea_side(s.response, s.key, s.key_index, s.partner, credit.response_precision)
    rn, rd = _lea_side(s.key, s.response, s.response_index, s.partner, credit.key_recall)
    return pn, pd, rn, rd


def _links(clusters) -> float:
    return sum(len(c) * (len(c) - 1) / 2 for c in clusters)


def blanc_coref(s: Sides, credit: SplitCredit, inner: bool = False) -> Counts:
    """Coreference links of the key found in the response.  A link's credit is its first
    mention's (a split antecedent's F1 with its partner); the second is looked up as it is.
    A cluster of one mention has no link (it adds 0, left out: the sum is the same)."""
    num = 0
    index = s.response_index
    partner = s.partner
    for c in s.key:
        if len(c) < 2:
            continue
        common = 0
        if not any(m.is_split and m in credit.key_f1 for m in c):
            if len(c) == 2:  # one link: found when both mentions lie in one response cluster
                where = index.get(partner.get(c[0], c[0]), -1)
                common = 1 if where != -1 and where == index.get(partner.get(c[1], c[1]), -1) else 0
            else:
                for n in Counter(index[m] for m in (partner.get(m, m) for m in c) if m in index).values():
                    common += n * (n - 1) // 2
        else:
            for i, m in enumerate(c):
                m, weight = _resolved(m, partner, credit.key_f1)
                if m in index:
                    for m2 in c[i + 1:]:
                        m2 = partner.get(m2, m2)
                        if m2 in index and index[m2] == index[m]:
                            common += weight
        num += common
    return num, _links(s.response), num, _links(s.key)


def blanc_noncoref(s: Sides, credit: SplitCredit, inner: bool = False) -> Counts:
    """Non-coreference links of the key (mentions of two key clusters) kept apart in the response."""
    index = s.response_index
    partner = s.partner
    sizes = [len(c) for c in s.key]
    if any(m in credit.key_f1 for m in s.split_antecedents()[0]):
        weights: list[float] = []
        where: list[int] = []
        for c in s.key:
            for m in c:
                m, weight = _resolved(m, partner, credit.key_f1)
                weights.append(weight)
                where.append(index.get(m, -1))
        if all(w == 1 for w in weights):
            num = _noncoref_count(np.array(where, dtype=np.int64), sizes)
        else:
            num = _noncoref_weighted(np.array(weights, dtype=float), np.array(where), sizes)
    else:  # every weight 1 (a split antecedent without credit is looked up as it is)
        get = index.get
        where = [get(partner.get(m, m), -1) for c in s.key for m in c]
        num = _noncoref_count(np.array(where, dtype=np.int64), sizes)
    nk = sum(sizes)
    ns = sum(len(c) for c in s.response)
    return num, ns * (ns - 1) / 2 - _links(s.response), num, nk * (nk - 1) / 2 - _links(s.key)


def _noncoref_count(where: np.ndarray, sizes: list[int]) -> int:
    """Pairs of found mentions (`where`: each key mention's response cluster, -1 if none; key
    clusters of `sizes` one after another) from two key clusters that lie in two response
    clusters: all pairs of found mentions, less those in one key cluster, less those in one
    response cluster but two key clusters.  Whole numbers: exact in any order."""
    cluster_of = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
    found = where != -1
    where, cluster_of = where[found], cluster_of[found]
    total = len(where)
    if total == 0:
        return 0
    by_key = np.bincount(cluster_of)
    by_response = np.bincount(where)
    by_both = np.unique(cluster_of * (int(where.max()) + 1) + where, return_counts=True)[1]
    across_key = (total * total - int((by_key * by_key).sum())) // 2
    same_response = (int((by_response * by_response).sum()) - int((by_both * by_both).sum())) // 2
    return across_key - same_response


def _noncoref_weighted(weights: np.ndarray, where: np.ndarray, sizes: list[int], rows: int = 512) -> float:
    """The same count with split antecedents' credits as weights, every product added in the UA
    scorer's order: key cluster by cluster, each cluster's products (its mentions in order, each
    with the found mentions of later clusters elsewhere in the response, in order) summed from 0.0
    one after another, the clusters' sums then added to the total.  The products are taken `rows`
    mentions at a time (a rows x mentions table, whatever the document's length)."""
    ends = np.repeat(np.cumsum(sizes), sizes)  # each mention's cluster's end
    found = where != -1
    columns = np.arange(len(where))
    products, per_row = [], []
    for first in range(0, len(where), rows):
        block = slice(first, first + rows)
        keep = (columns[None, :] >= ends[block, None]) & found[block, None] & found[None, :] & \
            (where[block, None] != where[None, :])
        products.append((weights[block, None] * weights[None, :])[keep])  # row by row: the loops' order
        per_row.append(keep.sum(axis=1))
    flat = np.concatenate(products) if products else np.zeros(0)
    row_ends = np.cumsum(np.concatenate(per_row)) if per_row else np.zeros(0, dtype=np.int64)
    num = 0
    start = 0
    for size in sizes:  # a cluster with a mention found adds its sum (0.0 without products), as the loop did
        if found[start:start + size].any():
            first = int(row_ends[start - 1]) if start else 0
            last = int(row_ends[start + size - 1])
            num += float(np.add.accumulate(np.concatenate(([0.0], flat[first:last])))[-1])
        start += size
    return num


Kernel = Callable[[Sides, SplitCredit, bool], Counts]
KERNELS: dict[str, Kernel] = {kernel.__name__: kernel for kernel in (muc, bcub, ceafe, ceafm, lea, blanc_coref,
                                                                      blanc_noncoref)}
"""Each coreference metric (BLANC as its two parts) on one document, by its catalogue name (each
kernel is named as its metric, so the name is written once)."""

_NOBODY = SplitAntecedent(set())


def best_pairs(f1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """scipy's `linear_sum_assignment(-f1)`, its ties broken as it breaks them.  One split
    antecedent on a side (most documents) is the best of one row or column, the first of equal
    ones as scipy takes it: no solver is called then."""
    if f1.shape[0] == 1:
        return np.zeros(1, dtype=np.intp), np.array([int(np.argmax(f1[0]))], dtype=np.intp)
    if f1.shape[1] == 1:
        return np.array([int(np.argmax(f1[:, 0]))], dtype=np.intp), np.zeros(1, dtype=np.intp)
    return linear_sum_assignment()(-f1)


def split_credit(kernel: Kernel, s: Sides) -> SplitCredit:
    """The key's and the response's split antecedents aligned by `kernel`'s own F1."""
    keys, responses = s.split_antecedents()
    if not keys and not responses:
        return NO_CREDIT
    keys = keys or [_NOBODY]
    responses = responses or [_NOBODY]
    response_members, response_indexes = zip(*(s.members_of(r) for r in responses))
    partner = s.partner
    response_found = [{partner.get(m, m) for c in members for m in c} for members in response_members]
    raw: list[list[Counts]] = []
    f1: list[list[float]] = []
    recall: list[list[float]] = []
    precision: list[list[float]] = []
    for i, key in enumerate(keys):
        members, index = s.members_of(key)
        found = {partner.get(m, m) for c in members for m in c}
        row: list[Counts] = []
        for j in range(len(responses)):
            if i and j and found.isdisjoint(response_indexes[j]) and response_found[j].isdisjoint(index):
                # no mention of one side among the other's: every kernel counts nothing found, and
                # its denominators are each side's own (those of row 0 and column 0)
                row.append((0, raw[0][j][1], 0, row[0][3]))
            else:
                row.append(kernel(Sides(members, response_members[j], partner, index, response_indexes[j]),
                                  NO_CREDIT, True))
        raw.append(row)
        precision.append([0 if pn == 0 else pn / float(pd) for pn, pd, _, _ in raw[-1]])
        recall.append([0 if rn == 0 else rn / float(rd) for _, _, rn, rd in raw[-1]])
        f1.append([_f1(*counts) for counts in raw[-1]])
    rows, cols = best_pairs(np.array(f1, dtype=float))
    table = np.array(raw, dtype=float)
    counts = (table[rows, cols, np.zeros_like(cols)].sum(), table[0, :, 1].sum(),
              table[rows, cols, np.ones_like(cols) * 2].sum(), table[:, 0, 3].sum())
    pairs = list(zip(rows.tolist(), cols.tolist()))
    return SplitCredit({keys[r]: (responses[c], float(recall[r][c])) for r, c in pairs if recall[r][c] > 0},
                       {responses[c]: (keys[r], float(precision[r][c])) for r, c in pairs if precision[r][c] > 0},
                       {keys[r]: (responses[c], float(f1[r][c])) for r, c in pairs if f1[r][c] > 0},
                       counts)


def document_counts(name: str, s: Sides) -> tuple[Counts, Counts | None]:
    """One metric (BLANC part) on one document: its counts, and its split antecedents' own."""
    kernel = KERNELS[name]
    credit = split_credit(kernel, s)
    return kernel(s, credit, False), credit.counts


@dataclass(frozen=True)
class SplitBlancScore(MeanScore):
    """BLANC of the split antecedents' alignments alone (`--only-split-antecedents`), as the UA
    scorer averages it: over the parts whose whole documents' counts are not both 0.  It carries
    both BLANCs' counts, so documents sum before the parts are chosen (shown as a mean: no counts)."""

    whole: CorefudBlancScore
    split: CorefudBlancScore

    @classmethod
    def of(cls, whole: CorefudBlancScore, split: CorefudBlancScore) -> "SplitBlancScore":
        used = [part for part, half in zip((split.coref, split.noncoref), (whole.coref, whole.noncoref))
                if not (half.precision_den == 0 and half.recall_den == 0)]
        n = len(used)
        recall, precision, f1 = (sum(getattr(u, a) for u in used) / n if n else 0
                                 for a in ("recall", "precision", "f1"))
        return cls(recall, precision, f1, whole, split)

    def __add__(self, other: "SplitBlancScore") -> "SplitBlancScore":
        return SplitBlancScore.of(self.whole + other.whole, self.split + other.split)

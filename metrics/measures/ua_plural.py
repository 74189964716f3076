"""Split antecedents credited over columns: the UA scorer's partial credit of an aligned pair of
split antecedents (`metrics.measures.ua`: `split_credit` and the kernels), added to the counts of
`metrics.measures.ua_columns` for MUC, B3 and CEAF, to the last bit.

Over columns a split antecedent is a mention number that is found nowhere on the other side
(`ua_columns.column_sides`): every cluster then counts as the object kernels count it when the
split antecedent has no credit.  A credited one changes its cluster's count, and a float enters
the sums: those clusters are counted again here one mention at a time, in the order the UA
scorer's set of them yields (`metrics.mentions.ua_plural`), and a document's MUC, whose sum runs
across clusters, is added again from its first such cluster on, step by step as the UA scorer adds
it.  The alignment itself (`split_credit`) is the object path's, run over the member clusters as
mention numbers (a few per document).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from metrics.measures import ua as coref
from metrics.mentions.ua_align import cluster_index
from metrics.mentions.ua_columns import ColumnSide, ColumnSides
from metrics.mentions.ua_plural import PluralCluster


class _Split:
    """A split antecedent as `split_credit` reads it (its members are given to it in `Sides.members`)."""

    __slots__ = ("code",)
    is_split = True

    def __init__(self, code: int) -> None:
        self.code = code


Credit = dict[int, tuple[int, float]]
"""A cluster (the corpus's number on its side) -> the number of its split antecedent's partner and the credit."""


@dataclass
class Credits:
    """Each document's aligned split antecedents as `coref.SplitCredit` holds them, by cluster:
    the recall credit of the key's, the precision credit of the response's, the F1 of the key's."""

    key_recall: Credit = field(default_factory=dict)
    response_precision: Credit = field(default_factory=dict)
    key_f1: Credit = field(default_factory=dict)


def credits(name: str, s: ColumnSides) -> Credits:
    """Each document's split antecedents aligned by the metric's own kernel (`coref.split_credit`)."""
    kernel = coref.KERNELS[name]
    out = Credits()
    for document in sorted(s.key.plurals.keys() | s.response.plurals.keys()):
        keys, responses = s.key.plurals.get(document, []), s.response.plurals.get(document, [])
        if not keys and not responses:
            continue
        key_splits = [_Split(plural.split) for _, plural in keys]
        response_splits = [_Split(plural.split) for _, plural in responses]
        sides = coref.Sides([[k] for k in key_splits], [[r] for r in response_splits], {}, {}, {})
        for split, (_, plural) in zip(key_splits + response_splits, keys + responses):
            if "members" not in plural.kept:  # made once for every metric
                members = list(plural.members)
                plural.kept["members"] = (members, cluster_index(members))
            sides.members[id(split)] = plural.kept["members"]
        credit = coref.split_credit(kernel, sides)
        key_cluster = {id(split): cluster for split, (cluster, _) in zip(key_splits, keys)}
        response_cluster = {id(split): cluster for split, (cluster, _) in zip(response_splits, responses)}
        for split, (partner, value) in credit.key_recall.items():
            out.key_recall[key_cluster[id(split)]] = (partner.code, value)
        for split, (partner, value) in credit.response_precision.items():
            out.response_precision[response_cluster[id(split)]] = (partner.code, value)
        for split, (partner, value) in credit.key_f1.items():
            out.key_f1[key_cluster[id(split)]] = (partner.code, value)
    return out


def _plural_of(side: ColumnSide) -> dict[int, PluralCluster]:
    """Cluster -> its `PluralCluster`."""
    return {cluster: plural for clusters in side.plurals.values() for cluster, plural in clusters}


def muc_side(side: ColumnSide, other: ColumnSide, credit: Credit, tp: list, *, found: np.ndarray,
             partitions: np.ndarray, pairs: np.ndarray) -> None:
    """Each document's MUC numerator (`tp`, counted as if no split antecedent had credit: found
    mentions less partitions) where a credited split antecedent's partner lies in one of its
    cluster's partitions: added again from that cluster on, as `coref._muc_side` adds it (its
    split antecedent then costs 1 - credit instead of 1).  `found`, `partitions`: per cluster;
    `pairs`: each (cluster, other cluster) sharing mentions, as cluster * (other clusters + 1) + other."""
    width = len(other.sizes) + 1
    hits: dict[int, float] = {}
    for cluster, (partner, value) in credit.items():
        where = int(other.cluster_of(np.array([partner], np.int64))[0])
        at = np.searchsorted(pairs, cluster * width + where)
        if at < len(pairs) and pairs[at] == cluster * width + where:
            hits[cluster] = value
    if not hits:
        return
    plural = _plural_of(side)
    starts = np.searchsorted(side.document, np.arange(len(tp) + 1))
    by_document: dict[int, int] = {}
    for cluster in hits:
        document = int(side.document[cluster])
        by_document[document] = min(cluster, by_document.get(document, cluster))
    for document, first in by_document.items():
        start, end = int(starts[document]), int(starts[document + 1])
        count = int((found[start:first] - partitions[start:first]).sum())
        for cluster in range(first, end):
            has_split = cluster in plural
            size = int(side.sizes[cluster])
            count += size
            count -= size - has_split - int(found[cluster])
            if has_split:
                count -= 1 - hits[cluster] if cluster in hits else 1
            count -= int(partitions[cluster])
        tp[document] = count


def bcub_values(side: ColumnSide, other: ColumnSide, credit: Credit, values: np.ndarray) -> None:
    """Each credited cluster's B3 term (`values`, per cluster) counted again as `coref._bcub_side`
    counts it: its mentions in the UA scorer's order, its split antecedent adding its credit
    to its partner's cluster."""
    plural = _plural_of(side)
    for cluster, (partner, value) in credit.items():
        order = plural[cluster].order
        where = other.cluster_of(np.array(order, np.int64)).tolist()
        split = plural[cluster].split
        found: dict[int, float] = {}
        for code, at in zip(order, where):
            if code == split:
                at = int(other.cluster_of(np.array([partner], np.int64))[0])
                found[at] = found.get(at, 0.0) + value
            elif at >= 0:
                found[at] = found.get(at, 0.0) + 1
        correct = 0
        for n in found.values():
            correct += n * n
        values[cluster] = correct / float(len(order))


def ceaf_rows(s: ColumnSides, credit: Credit, held: np.ndarray, entity: bool) -> dict[int, dict[int, float]]:
    """Each key cluster with a credited split antecedent: its similarity to each response cluster,
    as `coref._ceaf` counts it (its mentions in the UA scorer's order; `held`: each (mention,
    response cluster), sorted)."""
    response = s.response
    plural = _plural_of(s.key)
    out: dict[int, dict[int, float]] = {}
    holders = held[1].tolist() if credit else []
    for cluster, (partner, value) in credit.items():
        order = plural[cluster].order
        split = plural[cluster].split
        looked_up = np.array([partner if code == split else code for code in order], np.int64)
        first = np.searchsorted(held[0], looked_up).tolist()
        last = np.searchsorted(held[0], looked_up, side="right").tolist()
        overlap: dict[int, float] = {}
        for code, a, b in zip(order, first, last):
            weight = value if code == split else 1
            for j in holders[a:b]:
                overlap[j] = overlap.get(j, 0) + weight
        size = len(order)
        out[cluster] = {j: 2 * shared / float(size + int(response.sizes[j])) if entity else shared
                        for j, shared in overlap.items()}
    return out

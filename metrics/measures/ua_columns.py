"""The UA scorer's coreference metrics, mentions and non_referring over many documents' clusters
as arrays (`metrics.mentions.ua_columns`): exact matching, no split antecedent to credit.

Each kernel gives, per document, what its counterpart in `metrics.measures.ua` (`KERNELS`) or
`ua_relations` gives on that document, to the last bit: counts that are whole numbers (MUC, BLANC,
mentions, every denominator) are exact in any order; the sums of fractions (B3's and LEA's
numerators) are added cluster by cluster in cluster order within each document, as the UA scorer
adds them (`_sums_in_order`); CEAF builds each document's similarity table as it does and gives it
to the same solver.  `tests/test_ua_columns.py` checks them against those kernels.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from metrics.measures.score import Score
from metrics.measures.ua import Counts
from metrics.measures import ua_plural
from metrics.measures.catalog import BCUB, CEAFE, CEAFM, MUC
from metrics.mentions.ua_columns import ColumnSide, ColumnSides, document_of, is_split, word_bounds
from metrics.runtime.lsap import linear_sum_assignment
from metrics.runtime.lsap_sparse import assigned_similarity


def _per_document(values: np.ndarray, document: np.ndarray, documents: int) -> list[int]:
    """Whole numbers summed per document."""
    return np.bincount(document, weights=values, minlength=documents).astype(np.int64).tolist()


def _count_per_document(document: np.ndarray, documents: int) -> list[int]:
    return np.bincount(document, minlength=documents).tolist()


def _sums_in_order(values: np.ndarray, document: np.ndarray, documents: int) -> list[float]:
    """Per document, its values (in order, documents one after another) added one after another:
    laid as the rows of a table padded with zeros, which `np.add.accumulate` adds along each row
    (adding 0.0 changes no sum)."""
    counts = np.bincount(document, minlength=documents)
    if not len(values):
        return [0] * documents
    table = np.zeros((documents, int(counts.max())))
    starts = np.cumsum(counts) - counts
    table[document, np.arange(len(values)) - starts[document]] = values
    return np.add.accumulate(table, axis=1)[:, -1].tolist()


def _pairs(side: ColumnSide, where: np.ndarray, other: ColumnSide) -> tuple[np.ndarray, np.ndarray]:
    """Each (cluster of `side`, other side's cluster) that share mentions, as cluster * (other
    clusters + 1) + other cluster, sorted, and how many of its mentions lie in that other cluster."""
    found = where >= 0
    return np.unique(side.cluster[found] * (len(other.sizes) + 1) + where[found], return_counts=True)


def _found(side: ColumnSide, where: np.ndarray, other: ColumnSide) -> tuple[np.ndarray, np.ndarray]:
    """For each (cluster of `side`, other side's cluster) that share mentions: the cluster and
    how many of its mentions lie in that other cluster."""
    pairs, counts = _pairs(side, where, other)
    return pairs // (len(other.sizes) + 1), counts


def _muc_side(side: ColumnSide, where: np.ndarray, other: ColumnSide, documents: int,
              credit: ua_plural.Credit | None = None) -> tuple[list[int], list[int]]:
    """Each cluster's mentions less its partitions by the other side (a mention it lacks a
    partition of its own), over its links; split antecedents credited (`ua_plural.muc_side`)."""
    mention_document = side.mention_document
    pairs, _ = _pairs(side, where, other)
    cluster = pairs // (len(other.sizes) + 1)
    tp = (np.bincount(mention_document[where >= 0], minlength=documents) -
          np.bincount(side.document[cluster], minlength=documents)).tolist()
    if credit:
        clusters = len(side.sizes)
        ua_plural.muc_side(side, other, credit, tp, found=np.bincount(side.cluster[where >= 0], minlength=clusters),
                           partitions=np.bincount(cluster, minlength=clusters), pairs=pairs)
    links = np.bincount(side.document, weights=side.sizes - 1, minlength=documents).astype(np.int64)
    return tp, links.tolist()


def _credits(name: str, s: ColumnSides) -> ua_plural.Credits:
    return ua_plural.credits(name, s) if s.key.plurals or s.response.plurals else ua_plural.Credits()


def muc(s: ColumnSides) -> list[Counts]:
    credit = _credits(MUC.name, s)
    pn, pd = _muc_side(s.response, s.response_where, s.key, s.documents, credit.response_precision)
    rn, rd = _muc_side(s.key, s.key_where, s.response, s.documents, credit.key_recall)
    return list(zip(pn, pd, rn, rd))


def _bcub_side(side: ColumnSide, where: np.ndarray, other: ColumnSide, documents: int,
               credit: ua_plural.Credit) -> tuple[list, list]:
    cluster, counts = _found(side, where, other)
    correct = np.bincount(cluster, weights=(counts * counts).astype(float), minlength=len(side.sizes))
    values = correct / side.sizes
    if credit:
        ua_plural.bcub_values(side, other, credit, values)
    return (_sums_in_order(values, side.document, documents),
            _per_document(side.sizes, side.document, documents))


def bcub(s: ColumnSides) -> list[Counts]:
    credit = _credits(BCUB.name, s)
    pn, pd = _bcub_side(s.response, s.response_where, s.key, s.documents, credit.response_precision)
    rn, rd = _bcub_side(s.key, s.key_where, s.response, s.documents, credit.key_recall)
    return list(zip(pn, pd, rn, rd))


def _pairs_by_mention(codes: np.ndarray, cluster: np.ndarray) -> np.ndarray:
    """The distinct (mention, cluster) pairs, sorted by mention then cluster, as two rows: what
    `np.unique(np.stack([codes, cluster]), axis=1)` gives.  Why not that: numpy's `unique` loads
    `numpy.ma` on its first call (13 ms of a command line's 0.3 s)."""
    order = np.lexsort((cluster, codes))
    codes, cluster = codes[order], cluster[order]
    first = np.ones(len(codes), bool)
    first[1:] = (codes[1:] != codes[:-1]) | (cluster[1:] != cluster[:-1])
    return np.stack([codes[first], cluster[first]])


def _ceaf(s: ColumnSides, entity: bool) -> list[Counts]:
    """Per document, the similarity of each key and response cluster (their common mentions, a key
    mention counted once per response cluster holding it; or φ4 of the two) and the best one-to-one
    sum, each document's table as the UA scorer makes it."""
    key, response = s.key, s.response
    columns = len(response.sizes)
    held = _pairs_by_mention(response.codes, response.cluster)  # each (mention, response cluster), by mention
    key_codes, key_cluster = key.codes, key.cluster
    credit = _credits((CEAFE if entity else CEAFM).name, s).key_f1 if key.plurals or response.plurals else {}
    if key.plurals:  # a split antecedent counts only through its credit (`ua_plural.ceaf_rows`)
        plain = ~is_split(key_codes)
        key_codes, key_cluster = key_codes[plain], key_cluster[plain]
    first = np.searchsorted(held[0], key_codes)
    spread = np.searchsorted(held[0], key_codes, side="right") - first
    holder = held[1][np.repeat(first - np.cumsum(spread) + spread, spread) + np.arange(int(spread.sum()))]
    cells, shared = np.unique(np.repeat(key_cluster, spread) * columns + holder, return_counts=True)
    rows, cols = cells // max(columns, 1), cells % max(columns, 1)
    values = 2 * shared / (key.sizes[rows] + response.sizes[cols]).astype(float) if entity else shared.astype(float)
    key_bounds = np.searchsorted(key.document, np.arange(s.documents + 1))
    response_bounds = np.searchsorted(response.document, np.arange(s.documents + 1))
    cell_bounds = np.searchsorted(rows, key_bounds)
    rows_credited: dict[int, dict[int, dict[int, float]]] = {}
    for row, similarity_of in ua_plural.ceaf_rows(s, credit, held, entity).items():
        rows_credited.setdefault(int(key.document[row]), {})[row] = similarity_of
    out = []
    for d in range(s.documents):
        k0, k1, r0, r1 = key_bounds[d], key_bounds[d + 1], response_bounds[d], response_bounds[d + 1]
        c0, c1 = cell_bounds[d], cell_bounds[d + 1]
        costs: list[dict[int, float]] = [{} for _ in range(k1 - k0)]
        for row, column, value in zip((rows[c0:c1] - k0).tolist(), (cols[c0:c1] - r0).tolist(), values[c0:c1].tolist()):
            costs[row][column] = -value
        for row, similarity_of in (rows_credited.get(d) or {}).items():
            for column, value in similarity_of.items():
                if value > 0:
                    costs[row - k0][column - r0] = -value
                else:  # a credit of 0 leaves the cell empty, as the dense table's 0 was
                    costs[row - k0].pop(column - r0, None)
        similarity = float(assigned_similarity(costs, int(r1 - r0)))  # no dense table: 6.6 GB on a UA book
        if entity:
            out.append((similarity, int(r1 - r0), similarity, int(k1 - k0)))
        else:
            out.append((similarity, int(response.sizes[r0:r1].sum()), similarity, int(key.sizes[k0:k1].sum())))
    return out


def ceafe(s: ColumnSides) -> list[Counts]:
    return _ceaf(s, entity=True)


def ceafm(s: ColumnSides) -> list[Counts]:
    return _ceaf(s, entity=False)


def _lea_side(side: ColumnSide, where: np.ndarray, other: ColumnSide, documents: int) -> tuple[list, list]:
    """Each cluster's links found in one cluster of the other side, over its links, times its size
    (a cluster of one mention: found alone in a cluster of one)."""
    sizes = side.sizes
    cluster, counts = _found(side, where, other)
    common = np.bincount(cluster, weights=(counts * (counts - 1) // 2).astype(float), minlength=len(sizes))
    single = sizes == 1
    if single.any():
        alone = where[(np.cumsum(sizes) - sizes)[single]]
        common[single] = (alone >= 0) & (other.sizes[np.maximum(alone, 0)] == 1) if len(other.sizes) else 0
    links = np.where(single, 1.0, sizes * (sizes - 1) / 2.0)
    return _sums_in_order(sizes * common / links, side.document, documents), \
        _per_document(sizes, side.document, documents)


def lea(s: ColumnSides) -> list[Counts]:
    pn, pd = _lea_side(s.response, s.response_where, s.key, s.documents)
    rn, rd = _lea_side(s.key, s.key_where, s.response, s.documents)
    return list(zip(pn, pd, rn, rd))


def _links(side: ColumnSide, documents: int) -> list[float]:
    return np.bincount(side.document, weights=side.sizes * (side.sizes - 1) // 2, minlength=documents).tolist()


def blanc_coref(s: ColumnSides) -> list[Counts]:
    """Coreference links of the key found in the response."""
    cluster, counts = _found(s.key, s.key_where, s.response)
    num = _per_document(counts * (counts - 1) // 2, s.key.document[cluster], s.documents)
    return list(zip(num, _links(s.response, s.documents), num, _links(s.key, s.documents)))


def _squares(groups: np.ndarray, document_of_group: np.ndarray, documents: int) -> np.ndarray:
    """Per document, the sum of the squared sizes of its groups (`groups`: each item's group)."""
    sizes = np.bincount(groups, minlength=len(document_of_group))
    return np.bincount(document_of_group, weights=(sizes * sizes).astype(float), minlength=documents).astype(np.int64)


def blanc_noncoref(s: ColumnSides) -> list[Counts]:
    """Non-coreference links of the key (mentions of two key clusters) kept apart in the response:
    all pairs of found key mentions, less those in one key cluster, less those in one response
    cluster but two key clusters (whole numbers, as `ua._noncoref_count` counts them)."""
    key, response, documents = s.key, s.response, s.documents
    found = s.key_where >= 0
    total = np.bincount(key.mention_document[found], minlength=documents)
    by_key = _squares(key.cluster[found], key.document, documents)
    by_response = _squares(s.key_where[found], response.document, documents)
    cluster, counts = _found(key, s.key_where, response)
    by_both = np.bincount(key.document[cluster], weights=(counts * counts).astype(float),
                          minlength=documents).astype(np.int64)
    num = ((total * total - by_key) // 2 - (by_response - by_both) // 2).tolist()
    nk, ns = _count_per_document(key.mention_document, documents), \
        _count_per_document(response.mention_document, documents)
    key_links, response_links = _links(key, documents), _links(response, documents)
    return [(n, r * (r - 1) / 2 - rl, n, k * (k - 1) / 2 - kl)
            for n, k, r, kl, rl in zip(num, nk, ns, key_links, response_links)]


KERNELS: dict[str, Callable[[ColumnSides], list[Counts]]] = {
    kernel.__name__: kernel for kernel in (muc, bcub, ceafe, ceafm, lea, blanc_coref, blanc_noncoref)}
"""Each coreference metric (BLANC as its two parts) over columns, by its catalogue name: each
document's counts."""


def mentions(s: ColumnSides) -> list[Score]:
    """Per document, the distinct key mentions the response has, and the reverse."""
    key, response = s.key.last_codes, s.response.last_codes  # each side's distinct mentions, sorted
    key_document = document_of(key)
    found = _count_per_document(key_document[np.isin(key, response, assume_unique=True)], s.documents)
    return [Score(f, k, f, r) for f, k, r in zip(found, _count_per_document(key_document, s.documents),
                                                 _count_per_document(document_of(response), s.documents))]


def _among(values: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Whether each of the whole numbers `values` is one of `others`: `np.isin`, by a sort and a
    search (numpy's `isin` calls `unique`, which loads `numpy.ma` on its first call: 13 ms)."""
    if not len(others):
        return np.zeros(len(values), bool)
    others = np.sort(others)
    at = np.minimum(np.searchsorted(others, values), len(others) - 1)
    return others[at] == values


def non_referring(s: ColumnSides) -> list[Score]:
    """Per document, the key's non-referring mentions the response has as non-referring, and the
    response's the key lacks."""
    key, response = s.key.non_referring, s.response.non_referring
    found = _count_per_document(document_of(key)[_among(key, response)], s.documents)
    spurious = _count_per_document(document_of(response)[~_among(response, key)], s.documents)
    return [Score(f, k, f, f + x) for f, k, x in zip(found, _count_per_document(document_of(key), s.documents),
                                                     spurious)]


def mor(s: ColumnSides, regular: Sequence[bool]) -> list[Score | None]:
    """Per document, `ua_relations.mor` over the columns (None for a document that is not
    `regular`: one with a markable of several parts or on a zero, whose words a mention number
    does not give, or with split antecedents credited, whose clusters the columns do not hold as
    the mentions' are).  Every key and response mention (each time a cluster lists it)
    sorted by first word, last word, key before response (a stable sort, as
    the object path sorts them); overlapping mentions grouped left to right; in a group of one
    mention on a side, the best overlap with the other side's; in any other, the pairing of largest
    overlap (`linear_sum_assignment`, as the object path).  Whole numbers: exact in any order.

    Why: the object path sorted the book's 134,000 mentions by a Python key and grouped them one by
    one, a tenth of the UA book's first screen."""
    keys, responses = s.key.codes, s.response.codes
    codes = np.concatenate([keys, responses])
    order = np.argsort(codes, kind="stable")
    codes, is_key = codes[order], (order < len(keys))
    document = document_of(codes)
    first, last = word_bounds(codes)
    words = last - first + 1
    key_words = np.bincount(document[is_key], weights=words[is_key], minlength=s.documents)
    response_words = np.bincount(document[~is_key], weights=words[~is_key], minlength=s.documents)
    shared = np.zeros(s.documents)
    if len(codes):
        placed_first, placed_last = (document << 21) | first, (document << 21) | last  # groups end with documents
        starts = np.ones(len(codes), bool)
        starts[1:] = placed_first[1:] > np.maximum.accumulate(placed_last)[:-1]
        group = np.cumsum(starts) - 1
        in_group = np.bincount(group)
        key_count = np.bincount(group, weights=is_key).astype(np.int64)
        best = _best_overlaps(group, is_key, first, last, key_count=key_count, response_count=in_group - key_count)
        shared = np.bincount(document[starts], weights=best, minlength=s.documents)
    return [Score(float(found), float(k), float(found), float(r)) if fits else None
            for found, k, r, fits in zip(shared.tolist(), key_words.tolist(), response_words.tolist(), regular)]


def _best_overlaps(group: np.ndarray, is_key: np.ndarray, first: np.ndarray, last: np.ndarray, *, key_count: np.ndarray,
                   response_count: np.ndarray) -> np.ndarray:
    """Per group, the words its key and response mentions share under their best one-to-one pairing."""
    best = np.zeros(len(key_count))
    for alone, side in ((key_count == 1, is_key), (response_count == 1, ~is_key)):
        # groups with one mention on a side: its best overlap with any mention of the other side
        lone = alone[group] & side
        lone_first = np.zeros(len(key_count), np.int64)
        lone_last = np.zeros(len(key_count), np.int64)
        lone_first[group[lone]], lone_last[group[lone]] = first[lone], last[lone]
        others = alone[group] & ~side
        at = group[others]
        overlap = np.minimum(last[others], lone_last[at]) - np.maximum(first[others], lone_first[at]) + 1
        np.maximum.at(best, at, np.maximum(overlap, 0))
    several = np.flatnonzero((key_count > 1) & (response_count > 1))
    if len(several):
        bounds = np.searchsorted(group, np.stack([several, several + 1]))
        solve = linear_sum_assignment()
        for number, begin, end in zip(several.tolist(), bounds[0].tolist(), bounds[1].tolist()):
            mine = is_key[begin:end]
            k_first, k_last = first[begin:end][mine], last[begin:end][mine]
            r_first, r_last = first[begin:end][~mine], last[begin:end][~mine]
            overlap = np.maximum(np.minimum.outer(k_last, r_last) - np.maximum.outer(k_first, r_first) + 1, 0)
            overlap = overlap.astype(float)
            rows, cols = solve(overlap, True)
            best[number] = overlap[rows, cols].sum()
    return best

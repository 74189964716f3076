"""Key and response clusters of many documents as arrays, under exact matching with no split
antecedent to score: the UA scorer's clusters (`metrics.mentions.ua_align`) read straight from the
markables' columns (`MarkableTable`), with no `Markable` or `Mention` object, every document at once.

Why: under exact matching a mention is its set of words and nothing else, so each markable can be
a number (`mention_codes`: its document, its first and its last word for a markable of one part; a
number of the document's own for any other set of words, shared by key and response), a cluster a
run of numbers, and the metrics counts over them (`metrics.measures.ua_columns`), for all documents
in a few numpy passes instead of a few per document.  Split antecedents (partial credit from an
alignment of member sets), partial matching and `--only-split-antecedents` need the mentions
themselves: their documents are clustered by `ua_align` (`applies` says which).

The clusters are `ua_align.side_clusters`' (its steps 1-4, the same order): each entity's
mentions in the order its markables are first met, entities in the order first met; a
non-referring entity set aside (its first mention kept as a non-referring mention); without
singletons an entity of one mention dropped; without zeros, zero mentions dropped, and an entity
left with none; with split antecedents kept (a document with no plural entity), a span listed twice
in one entity counted once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from metrics.mentions.ua import MarkableTable
from metrics.mentions.ua_plural import SPLIT_BIT, PluralCluster, PluralSide, plural_side

_WORD_BITS = 20
"""Bits of a word's index in a mention's number (documents of fewer words: `applies`)."""
_DOCUMENT_SHIFT = 2 * _WORD_BITS + 2
_OTHER = 1 << (2 * _WORD_BITS + 1)
"""Where the numbers of a document's other sets of words (zeros, parts with a gap) start."""


@dataclass(frozen=True)
class ColumnSide:
    """One side's clusters over the documents: `codes[i]` is a mention (cluster by cluster, in
    order, documents one after another), `cluster[i]` its cluster; `sizes` and `document` each
    cluster's size and document; `non_referring` the non-referring mentions."""

    codes: np.ndarray
    cluster: np.ndarray
    sizes: np.ndarray
    document: np.ndarray
    non_referring: np.ndarray
    last_codes: np.ndarray
    """The distinct codes, sorted, with `last_cluster`: the last cluster holding each (a span in
    two clusters belongs to the last one, as in the UA scorer's maps)."""
    last_cluster: np.ndarray
    plurals: dict[int, list[tuple[int, PluralCluster]]] = field(default_factory=dict)
    """Document -> each cluster holding a split antecedent (its number, its order and members)."""

    def cluster_of(self, codes: np.ndarray) -> np.ndarray:
        """The last cluster of this side holding each of these mentions, -1 where none does."""
        if not len(self.last_codes) or not len(codes):
            return np.full(len(codes), -1, np.int64)
        at = np.minimum(np.searchsorted(self.last_codes, codes), len(self.last_codes) - 1)
        return np.where(self.last_codes[at] == codes, self.last_cluster[at], -1)

    @property
    def mention_document(self) -> np.ndarray:
        return document_of(self.codes)


def document_of(codes: np.ndarray) -> np.ndarray:
    """The document of each mention's number."""
    return codes >> _DOCUMENT_SHIFT


def in_document(document: int, codes: np.ndarray) -> np.ndarray:
    """Mention numbers of one document's own (`mention_codes(0, ...)`) as numbers of document
    `document` of many (`mention_codes(document, ...)`)."""
    return codes | (document << _DOCUMENT_SHIFT)


@dataclass(frozen=True)
class ColumnSides:
    """The documents' two sides, and where each side's mentions lie on the other."""

    documents: int
    key: ColumnSide
    response: ColumnSide
    key_where: np.ndarray
    """Each key mention's response cluster (-1 if the response lacks it)."""
    response_where: np.ndarray


def applies(key: MarkableTable, response: MarkableTable, *, words: int, match: str, keep_split: bool,
            only_split: bool, credits_split: bool = False) -> bool:
    """Whether a document's scores can be counted over columns: exact matching, not the split
    antecedents' own scores, and either no split antecedent to credit (split antecedents removed,
    or no plural entity on either side) or metrics that credit them over columns (`credits_split`:
    `metrics.corpus.ua.SPLIT_OVER_COLUMNS`)."""
    return match == "exact" and not only_split and words < (1 << _WORD_BITS) and \
        (credits_split or not (keep_split and (key.element_of or response.element_of)))


def mention_codes(document: int, tables: tuple[MarkableTable, ...]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Each markable's mention as a number, equal for equal sets of words across the tables (a
    document's key and response), and whether it is a zero: a set of consecutive words is its first
    word and its last; any other (a zero, parts with a gap) a number given in turn."""
    others: dict[object, int] = {}
    base = document << _DOCUMENT_SHIFT
    codes, zeros = [], []
    for table in tables:
        code = base | (table.starts << _WORD_BITS) | table.ends
        zero = np.zeros(len(table), bool)
        for row, parts in table.irregular.items():
            if isinstance(parts[0][0], str):  # a zero: its one position
                zero[row] = True
                code[row] = base | _OTHER | others.setdefault(("zero", parts[0][0]), len(others))
                continue
            words = sorted({w for first, last in parts for w in range(int(first), int(last) + 1)})
            if words[-1] - words[0] + 1 == len(words):
                code[row] = base | (words[0] << _WORD_BITS) | words[-1]
            else:
                code[row] = base | _OTHER | others.setdefault(frozenset(words), len(others))
        codes.append(code)
        zeros.append(zero)
    return codes, zeros


def _entities(tables: Sequence[MarkableTable]) -> tuple[np.ndarray, np.ndarray, list[dict[str, int]]]:
    """Each markable's entity as a number over the documents (in the order first met), whether
    each entity is non-referring, and each document's entity numbers by name."""
    numbers, non_referring, named = [], [], []
    start = 0
    for table in tables:
        names = dict.fromkeys(table.entities)
        number = dict(zip(names, range(start, start + len(names))))
        numbers.append(np.fromiter(map(number.__getitem__, table.entities), np.int64, count=len(table)))
        non_referring += [name.endswith("-Pseudo") for name in names]
        named.append(number)
        start += len(names)
    return (np.concatenate(numbers) if numbers else np.zeros(0, np.int64), np.array(non_referring, bool), named)


def _side(tables: Sequence[MarkableTable], code: np.ndarray, zero: np.ndarray, *, keep_singletons: bool,
          keep_split: bool, keep_zeros: bool, plurals: dict[int, PluralSide] | None = None) -> ColumnSide:
    """`plurals`: document -> its plural clusters (split antecedents kept): each one's split
    antecedent added to its cluster as one more mention, merged clusters made one."""
    entity, non_referring, named = _entities(tables)
    first_rows = np.unique(entity, return_index=True)[1]
    counts = np.bincount(entity, minlength=len(non_referring))
    kept = ~non_referring if keep_singletons else ~non_referring & (counts > 1)
    rows = np.flatnonzero(kept[entity] if keep_zeros else kept[entity] & ~zero)
    owner = entity
    if plurals:
        extra_entity, extra_code, merged = [], [], {}
        for document, side in plurals.items():
            number = named[document]
            extra_entity += [number[cluster.entity] for cluster in side.clusters]
            extra_code += [cluster.split for cluster in side.clusters]
            merged.update({number[name]: number[into] for name, into in side.merged.items()})
        if merged:
            owner = entity.copy()
            for source, target in merged.items():
                owner[owner == source] = target
        owner = np.concatenate([owner, np.array(extra_entity, np.int64)])
        code = np.concatenate([code, np.array(extra_code, np.int64)])
        rows = np.concatenate([rows, np.arange(len(entity), len(owner))])
    rows = rows[np.argsort(owner[rows], kind="stable")]
    held_entities, cluster = np.unique(owner[rows], return_inverse=True)
    cluster = cluster.astype(np.int64).reshape(-1)
    codes = code[rows]
    if keep_split and len(codes):  # clusters as sets: a span listed twice counts once
        order = np.lexsort((codes, cluster))
        repeated = np.zeros(len(codes), bool)
        repeated[order[1:]] = (codes[order[1:]] == codes[order[:-1]]) & (cluster[order[1:]] == cluster[order[:-1]])
        codes, cluster = codes[~repeated], cluster[~repeated]
    sizes = np.bincount(cluster) if len(cluster) else np.zeros(0, np.int64)
    document = document_of(codes[np.cumsum(sizes) - sizes])
    order = np.lexsort((cluster, codes))
    sorted_codes = codes[order]
    last = np.ones(len(order), bool)
    last[:-1] = sorted_codes[1:] != sorted_codes[:-1]
    plural_clusters: dict[int, list[tuple[int, PluralCluster]]] = {}
    for document_number, side in (plurals or {}).items():
        number = named[document_number]
        plural_clusters[document_number] = [
            (int(np.searchsorted(held_entities, number[c.entity])), c) for c in side.clusters]
    return ColumnSide(codes, cluster, sizes, document, code[first_rows[non_referring]], sorted_codes[last],
                      cluster[order][last], plural_clusters)


def word_bounds(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The first and the last word of each mention number of a set of consecutive words (not a
    zero, a set with a gap or a split antecedent: `mention_codes`)."""
    mask = (1 << _WORD_BITS) - 1
    return (codes >> _WORD_BITS) & mask, codes & mask


def is_split(codes: np.ndarray) -> np.ndarray:
    """Whether each mention number is a split antecedent's (`ua_plural`)."""
    return codes & (_OTHER | SPLIT_BIT) == (_OTHER | SPLIT_BIT)


def column_sides(pairs: Sequence[tuple[MarkableTable, MarkableTable]], *, keep_singletons: bool, keep_split: bool,
                 keep_zeros: bool) -> ColumnSides:
    """Both sides' clusters of these documents (key and response tables `applies` to), and where
    each side's mentions lie on the other (a split antecedent nowhere: the metrics credit it from
    the alignment of split antecedents, `metrics.measures.ua_plural`)."""
    key_codes, key_zeros, response_codes, response_zeros = [], [], [], []
    key_plurals: dict[int, PluralSide] = {}
    response_plurals: dict[int, PluralSide] = {}
    for document, tables in enumerate(pairs):
        (key, response), (key_zero, response_zero) = mention_codes(document, tables)
        key_codes.append(key)
        response_codes.append(response)
        key_zeros.append(key_zero)
        response_zeros.append(response_zero)
        if keep_split and (tables[0].element_of or tables[1].element_of):
            numbers: dict = {}
            positions_of: dict = {}
            split_base = (document << _DOCUMENT_SHIFT) | _OTHER | SPLIT_BIT
            key_plurals[document] = plural_side(tables[0], key, key_zero, keep_zeros=keep_zeros,
                                                split_numbers=numbers, split_base=split_base, positions_of=positions_of)
            response_plurals[document] = plural_side(tables[1], response, response_zero, keep_zeros=keep_zeros,
                                                     split_numbers=numbers, split_base=split_base,
                                                     positions_of=positions_of)

    def joined(arrays: list[np.ndarray], kind: type) -> np.ndarray:
        return np.concatenate(arrays) if arrays else np.zeros(0, kind)

    options = dict(keep_singletons=keep_singletons, keep_split=keep_split, keep_zeros=keep_zeros)
    key_side = _side([key for key, _ in pairs], joined(key_codes, np.int64), joined(key_zeros, bool),
                     plurals=key_plurals, **options)
    response_side = _side([response for _, response in pairs], joined(response_codes, np.int64),
                          joined(response_zeros, bool), plurals=response_plurals, **options)
    key_where, response_where = response_side.cluster_of(key_side.codes), key_side.cluster_of(response_side.codes)
    if key_plurals:
        key_where[is_split(key_side.codes)] = -1
        response_where[is_split(response_side.codes)] = -1
    return ColumnSides(len(pairs), key_side, response_side, key_where, response_where)

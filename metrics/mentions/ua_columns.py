"""One document's key and response clusters as arrays, under exact matching with no split
antecedent to score: the UA scorer's clusters (`metrics.mentions.ua_align`) read straight from the
markables' columns (`MarkableTable`), with no `Markable` or `Mention` object.

Why: under exact matching a mention is its set of words and nothing else, so each markable can be
a number (`mention_codes`: its first and last word for a markable of one part; a number shared by
key and response for any other set of words), a cluster a run of numbers, and the metrics counts
over them (`metrics.measures.ua_columns`).  Split antecedents (partial credit from an alignment of
member sets), partial matching and `--only-split-antecedents` need the mentions themselves: their
documents are clustered by `ua_align`, and `column_sides` says None.

The clusters are `ua_align.side_clusters`' (its steps 1-4, the same order): each entity's
mentions in the order its markables are first met, entities in the order first met; a
non-referring entity set aside (its first mention kept as a non-referring mention); without
singletons an entity of one mention dropped; without zeros, zero mentions dropped, and an entity
left with none; with split antecedents kept (a document with no plural entity), a span listed twice
in one entity counted once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metrics.mentions.ua import MarkableTable


@dataclass(frozen=True)
class ColumnSide:
    """One side's clusters: `codes[i]` is a mention (cluster by cluster, in order), `cluster[i]`
    its cluster, `sizes` each cluster's size; `non_referring` the non-referring mentions."""

    codes: np.ndarray
    cluster: np.ndarray
    sizes: np.ndarray
    non_referring: np.ndarray
    last_codes: np.ndarray
    """The distinct codes, sorted, with `last_cluster`: the last cluster holding each (a span in
    two clusters belongs to the last one, as in the UA scorer's maps)."""
    last_cluster: np.ndarray

    def cluster_of(self, codes: np.ndarray) -> np.ndarray:
        """The last cluster of this side holding each of these mentions, -1 where none does."""
        if not len(self.last_codes) or not len(codes):
            return np.full(len(codes), -1, np.int64)
        at = np.minimum(np.searchsorted(self.last_codes, codes), len(self.last_codes) - 1)
        return np.where(self.last_codes[at] == codes, self.last_cluster[at], -1)


@dataclass(frozen=True)
class ColumnSides:
    """A document's two sides, and where each side's mentions lie on the other."""

    key: ColumnSide
    response: ColumnSide
    key_where: np.ndarray
    """Each key mention's response cluster (-1 if the response lacks it)."""
    response_where: np.ndarray


def applies(key: MarkableTable, response: MarkableTable, *, match: str, keep_split: bool, only_split: bool) -> bool:
    """Whether a document's scores can be counted over columns: exact matching, and no split
    antecedent (split antecedents removed, or no plural entity on either side)."""
    return match == "exact" and not only_split and not (keep_split and (key.element_of or response.element_of))


_WORD_BITS = 32


def mention_codes(tables: tuple[MarkableTable, ...]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Each markable's mention as a number, equal for equal sets of words across the tables (a
    document's key and response), and whether it is a zero: a set of consecutive words is its first
    word and its last; any other (a zero, parts with a gap) a negative number given in turn."""
    others: dict[object, int] = {}
    codes, zeros = [], []
    for table in tables:
        code = (table.starts << _WORD_BITS) | table.ends
        zero = np.zeros(len(table), bool)
        for row, parts in table.irregular.items():
            if isinstance(parts[0][0], str):  # a zero: its one position
                zero[row] = True
                code[row] = others.setdefault(("zero", parts[0][0]), -1 - len(others))
                continue
            words = sorted({w for first, last in parts for w in range(int(first), int(last) + 1)})
            if words[-1] - words[0] + 1 == len(words):
                code[row] = (words[0] << _WORD_BITS) | words[-1]
            else:
                code[row] = others.setdefault(frozenset(words), -1 - len(others))
        codes.append(code)
        zeros.append(zero)
    return codes, zeros


def _side(table: MarkableTable, code: np.ndarray, zero: np.ndarray, *, keep_singletons: bool, keep_split: bool,
          keep_zeros: bool) -> ColumnSide:
    first_met: dict[str, int] = {}
    entity = np.fromiter((first_met.setdefault(name, len(first_met)) for name in table.entities), np.int64,
                         count=len(table))
    non_referring = np.fromiter((name.endswith("-Pseudo") for name in first_met), bool, count=len(first_met))
    first_rows = np.unique(entity, return_index=True)[1]
    counts = np.bincount(entity, minlength=len(first_met))
    kept = ~non_referring if keep_singletons else ~non_referring & (counts > 1)
    rows = np.flatnonzero(kept[entity] if keep_zeros else kept[entity] & ~zero)
    rows = rows[np.argsort(entity[rows], kind="stable")]
    cluster = np.unique(entity[rows], return_inverse=True)[1].astype(np.int64).reshape(-1)
    codes = code[rows]
    if keep_split and len(codes):  # clusters as sets: a span listed twice counts once
        order = np.lexsort((codes, cluster))
        repeated = np.zeros(len(codes), bool)
        repeated[order[1:]] = (codes[order[1:]] == codes[order[:-1]]) & (cluster[order[1:]] == cluster[order[:-1]])
        codes, cluster = codes[~repeated], cluster[~repeated]
    sizes = np.bincount(cluster) if len(cluster) else np.zeros(0, np.int64)
    order = np.lexsort((cluster, codes))
    sorted_codes = codes[order]
    last = np.ones(len(order), bool)
    last[:-1] = sorted_codes[1:] != sorted_codes[:-1]
    return ColumnSide(codes, cluster, sizes, code[first_rows[non_referring]], sorted_codes[last], cluster[order][last])


def column_sides(key: MarkableTable, response: MarkableTable, *, keep_singletons: bool, keep_split: bool,
                 keep_zeros: bool) -> ColumnSides:
    """Both sides' clusters (the tables `applies` to), and where each side's mentions lie on the other."""
    codes, zeros = mention_codes((key, response))
    key_side, response_side = (_side(table, code, zero, keep_singletons=keep_singletons, keep_split=keep_split,
                                     keep_zeros=keep_zeros)
                               for table, code, zero in zip((key, response), codes, zeros))
    return ColumnSides(key_side, response_side, response_side.cluster_of(key_side.codes),
                       key_side.cluster_of(response_side.codes))

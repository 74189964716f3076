"""Single fixes of one move each, laid out as columns for the arrays of their metrics' changes.

Why: a corpus's fifty thousand single fixes were each made into its counts (`Counts`: tuples of
cells and chain sizes), deduplicated by them, then taken apart again, change by change, by
`ceaf_arrays.kind_of` (is it a change the arrays know) and by `delta.block_arrays`'s rows of MUC's
and B3's terms: three Python passes per change, about a tenth of pricing.  But nearly every single
fix is one move of mentions (`chen_ng.fixes.single_fix_moves`): key chain k's mentions (or a
mention absent from the key) leave one chain (or none) for another (or a new one, or none).  As
columns of (k, from, to, mentions, k's cell in each chain), the three passes are array work
(`ceaf_laid`, `count_rows`), each giving exactly the rows the passes gave for `one_move`'s counts
of the same move (tests/test_move_rows.py checks both against them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from metrics.errors.ceaf_change import Counts

Move = tuple[int | None, int | None, int | None, int]
"""A move of mentions: (key chain or None, response chain they leave or None, chain they join or
None, how many), as `delta.tally` takes it."""

NONE = -1
"""No key chain, or no response chain, in a column of `OneMoves`."""


def one_move(k: int | None, frm: int | None, to: int | None, n: int) -> Counts:
    """`delta.tally` of one move of n mentions (frm != to), written out: a corpus's fifty thousand
    single fixes are nearly all one move."""
    if frm is None:
        assert to is not None
        return ((((k, to), n),) if k is not None else ()), ((to, n),), (n if k is not None else 0), n
    if to is None:
        return ((((k, frm), -n),) if k is not None else ()), ((frm, -n),), (-n if k is not None else 0), -n
    return ((((k, frm), -n), ((k, to), n)) if k is not None else ()), ((frm, -n), (to, n)), 0, 0


class OneMoves(NamedTuple):
    """Changes of one move each, of several documents' tables, as columns: the document (its place
    among the tables), key chain k, the chain left and the chain joined (`NONE`: none; a new chain
    is any number from the document's count of chains on), the mentions moved, and k's cell in
    the chain left and in the chain joined before the move (0 without k), all in the document's
    own numbers."""

    document: np.ndarray
    key: np.ndarray
    frm: np.ndarray
    to: np.ndarray
    n: np.ndarray
    cell_frm: np.ndarray
    cell_to: np.ndarray

    def __len__(self) -> int:
        return len(self.document)

    def counts(self, j: int) -> tuple[int, Counts]:
        """The document of change j and its counts (`one_move`), for the changes the arrays leave."""
        k, frm, to, n = (int(x[j]) for x in (self.key, self.frm, self.to, self.n))
        return int(self.document[j]), one_move(None if k == NONE else k, None if frm == NONE else frm,
                                               None if to == NONE else to, n)


def one_moves(documents: Sequence[int], moves: Sequence[Sequence[Move]],
              row_cells: Sequence[list[dict[int, int]]]) -> OneMoves:
    """The columns of each document's moves (`moves[d]`, document `documents[d]`, whose key
    chains' cells are `row_cells[d]`)."""
    rows = [(d, NONE if k is None else k, NONE if frm is None else frm, NONE if to is None else to, n,
             0 if k is None or frm is None else cells[k].get(frm, 0), 0 if k is None or to is None else cells[k].get(to, 0))
            for d, many, cells in zip(documents, moves, row_cells) for k, frm, to, n in many]
    laid = np.array(rows, dtype=np.int64).reshape(-1, 7).T
    return OneMoves(*laid)


def ceaf_laid(moves: OneMoves, first_at: int, first_rows: Sequence[int], first_cols: Sequence[int], *,
              n_cols: Sequence[int], n_joined_cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The moves as `ceaf_arrays.block_rows` lays out the changes it computes, change j at place
    `first_at + j`, chains numbered as `delta.joined` numbers them (documents' first key chain and
    response chain there; `n_cols`: each document's chains; `n_joined_cols` stands for a new chain
    or none): (its SIZE rows, its MOVE rows, the places of the others), as `ceaf_arrays.kind_of`
    classes `one_move` of each.

    A move of key chain k is a MOVE; a mention absent from the key that leaves a chain for none or
    a new one, or comes from none into an old one, changes one old chain's size (SIZE; a new chain
    counted); one that leaves an old chain for another, or joins a new one from none, is neither."""
    at = first_at + np.arange(len(moves))
    k, frm, to, n, doc = moves.key, moves.frm, moves.to, moves.n, moves.document
    row0, col0 = np.asarray(first_rows, dtype=np.int64)[doc], np.asarray(first_cols, dtype=np.int64)[doc]
    doc_cols = np.asarray(n_cols, dtype=np.int64)[doc]
    keyed, left, joins = k != NONE, frm != NONE, to != NONE
    old_to = joins & (to < doc_cols)
    a = np.where(left, frm + col0, NONE)
    b = np.where(old_to, to + col0, n_joined_cols)
    move = keyed
    laid_moves = np.stack([at[move], (k + row0)[move], a[move], moves.cell_frm[move], np.where(left, n, 0)[move],
                           b[move], moves.cell_to[move], np.where(joins, n, 0)[move]], axis=1)
    # absent from the key: one old chain's size (left for none or a new chain; or joined from none)
    size_left = ~keyed & left & ~old_to
    size_joined = ~keyed & ~left & old_to
    sized = size_left | size_joined
    laid_sizes = np.stack([at[sized], np.where(size_left, a, b)[sized], np.where(size_left, -n, n)[sized],
                           (size_left & joins).astype(np.int64)[sized]], axis=1)
    return laid_sizes, laid_moves, at[~move & ~sized]


def count_rows(moves: OneMoves, first_at: int, key_sizes: Sequence[Sequence[int]], col_sizes: Sequence[Sequence[int]],
               col_squares: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`delta.block_arrays`'s rows of MUC's and B3's terms for `one_move` of each move, change j
    at place `first_at + j` (the documents' key chains' sizes, chains' sizes and their cells'
    squares by document): (cell rows of the chains left, of the chains joined, size rows of the
    chains left, of the chains joined).  Laid in that order, each change's rows come in the order
    its counts list them (the chain left first), which is all `np.bincount`'s sums read."""
    at = first_at + np.arange(len(moves))
    k, frm, to, n, doc = moves.key, moves.frm, moves.to, moves.n, moves.document
    starts = {name: np.cumsum([0] + [len(x) for x in table])[:-1] for name, table in
              (("key", key_sizes), ("col", col_sizes))}
    all_keys = np.concatenate([np.asarray(x, dtype=np.int64) for x in key_sizes] + [np.zeros(1, dtype=np.int64)])
    all_sizes = np.concatenate([np.asarray(x, dtype=np.int64) for x in col_sizes] + [np.zeros(1, dtype=np.int64)])
    all_squares = np.concatenate([np.asarray(x, dtype=np.int64) for x in col_squares] + [np.zeros(1, dtype=np.int64)])
    none = len(all_sizes) - 1  # no chain, or a new one: size 0, no squares
    key_size = all_keys[np.where(k != NONE, starts["key"][doc] + k, len(all_keys) - 1)]
    doc_cols = np.asarray([len(x) for x in col_sizes], dtype=np.int64)[doc]
    keyed = k != NONE
    c_frm, c_to = moves.cell_frm, moves.cell_to
    out = []
    for cell, sign, here in ((c_frm, -1, frm != NONE), (c_to, 1, to != NONE)):
        rows = keyed & here
        out.append(np.stack([at[rows], key_size[rows], cell[rows], (cell + sign * n)[rows]], axis=1))
    for chain, cell, sign in ((frm, c_frm, -1), (to, c_to, 1)):
        here = chain != NONE
        old = here & (chain < doc_cols)
        t = np.where(old, starts["col"][doc] + chain, none)
        size = all_sizes[t]
        squares = np.where(keyed, (cell + sign * n) ** 2 - cell ** 2, 0)
        out.append(np.stack([at, size, size + sign * n, all_squares[t], squares], axis=1)[here])
    return out[0], out[1], out[2], out[3]

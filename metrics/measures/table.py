"""The key x response contingency table of one document: everything the metrics need, built once.

Every metric (MUC, B3, CEAF, LEA and their linguistically aware variants) is a function of the
chains' sizes, the sizes of their common parts C = K ∩ S, and, for the LMetrics, the mention-type
counts of those parts.  So a document is reduced once to arrays over chains and over the non-empty
cells of the table, and each metric (and each new weight vector) is arithmetic on those arrays.

The type counts (`ChainTypes`) are a second step, `Table.type_counts(id_types)`: typing mentions
means finding their heads, the dearest part of preparing a document, and the official metrics do
not need it.  The table keeps the index arrays that step needs.

In clean data a cell has one size.  v8.01 gives it three when the key holds a span in two chains
(ontogum does): `primary` counts the response mentions it attributes to the key chain (the last
key chain holding the span), `shared` counts distinct common ids, `key_side` counts key positions
whose id is in the response chain.  MUC and B3 use `primary` for attribution and `shared` for
|K ∩ S|; CEAF uses `key_side`.  All three are the same array in clean documents.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from metrics.mentions.alignment import Alignment
from metrics.model import MentionType
from metrics.runtime.union_find import least_members

EMPTY_INT = np.zeros(0, dtype=np.int64)
_ONE_HOT = np.eye(len(MentionType), dtype=np.int64)


@dataclass
class Table:
    """Weight-independent summary of one aligned document."""

    key_sizes: np.ndarray
    """Mention positions per key chain (duplicates counted, as v8.01 counts them)."""
    response_sizes: np.ndarray
    cell_key: np.ndarray
    cell_response: np.ndarray
    primary: np.ndarray
    shared: np.ndarray
    key_side: np.ndarray
    part_response: np.ndarray
    """The response chain of each part for w_s^L: its share of each key chain, and each twinless
    mention (the `primary` cells first, then one part per twinless position)."""
    key_ids: np.ndarray
    """Mention id of every key position; `key_owner` its key chain."""
    key_owner: np.ndarray
    member_cell: np.ndarray
    """(cell, mention id) pairs: the members of each cell's common part C, for its type counts."""
    member_id: np.ndarray
    part_cell: np.ndarray
    """The primary cell of each response position found in the key (its part)."""
    part_id: np.ndarray
    twinless_ids: np.ndarray
    """Mention ids of the twinless response positions (one part each)."""
    n_key_spans: int
    n_response_spans: int
    matched: int
    components: list[tuple[np.ndarray, np.ndarray, np.ndarray]]
    """CEAF sub-problems with more than one chain on both sides: (cell indices, key rows, response cols)."""
    simple_cells: np.ndarray
    """Cells that form a component of their own (one key chain, one response chain): no solver needed."""
    star_cells: np.ndarray
    """Cells of components with a single chain on one side, grouped by component (from `star_starts`):
    the best alignment takes the largest phi of each group."""
    star_starts: np.ndarray

    _places: list[tuple[list[int], list[int], np.ndarray, int, int]] | None = field(
        default=None, init=False, repr=False, compare=False)
    laid_in: tuple[Any, int] | None = field(default=None, repr=False, compare=False)
    """The tables laid end to end this one was cut from (a `table_block.TableBlock`, made by
    `table_block.build_tables`), and its place there."""

    def component_places(self) -> list[tuple[list[int], list[int], np.ndarray, int, int]]:
        """Each CEAF component's cells as (row, column) places: (rows, cols, cells, n_rows, n_cols),
        computed once per table (every CEAF variant, and the ACE-value, solve the same components
        under other similarities)."""
        if self._places is None:
            places = []
            for cells, rows, cols in self.components:
                at_row = np.searchsorted(rows, self.cell_key[cells]).tolist()
                at_col = np.searchsorted(cols, self.cell_response[cells]).tolist()
                places.append((at_row, at_col, cells, len(rows), len(cols)))
            self._places = places
        return self._places

    @property
    def n_key_chains(self) -> int:
        return len(self.key_sizes)

    @property
    def n_response_chains(self) -> int:
        return len(self.response_sizes)

    def type_counts(self, id_types: np.ndarray) -> ChainTypes:
        """NAME / NOMINAL / PRONOUN / ZERO counts of key chains, cells and parts, given each id's type."""
        n_primary = len(self.part_response) - len(self.twinless_ids)
        parts = np.concatenate([types_per_group(self.part_cell, id_types[self.part_id], n_primary),
                                _ONE_HOT[id_types[self.twinless_ids]]])
        return ChainTypes(types_per_group(self.key_owner, id_types[self.key_ids], self.n_key_chains),
                          types_per_group(self.member_cell, id_types[self.member_id], len(self.cell_key)),
                          parts)


@dataclass
class ChainTypes:
    """Mention-type counts, (rows, 4) arrays of NAME / NOMINAL / PRONOUN / ZERO, for the LMetrics."""

    key: np.ndarray
    """Per key chain."""
    cells: np.ndarray
    """Per cell: the common part C."""
    parts: np.ndarray
    """Per part of a response chain (rows as `Table.part_response`)."""


def build_table(alignment: Alignment) -> Table:
    """Reduce an alignment to a contingency table."""
    n_ids = len(alignment.spans)
    key_chains = alignment.key_chains
    resp_chains = alignment.response_chains
    n_key, n_resp = len(key_chains), len(resp_chains)

    key_sizes = np.fromiter(map(len, key_chains), dtype=np.int64, count=n_key)
    resp_sizes = np.fromiter(map(len, resp_chains), dtype=np.int64, count=n_resp)
    key_flat = np.fromiter(itertools.chain.from_iterable(key_chains), dtype=np.int64, count=int(key_sizes.sum()))
    key_owner = np.repeat(np.arange(n_key, dtype=np.int64), key_sizes)
    resp_flat = np.fromiter(itertools.chain.from_iterable(resp_chains), dtype=np.int64, count=int(resp_sizes.sum()))
    resp_owner = np.repeat(np.arange(n_resp, dtype=np.int64), resp_sizes)

    # Primary key chain of each id: the last key chain holding it (v8.01's Indexa).
    # Chain indices grow along key_flat, so the last chain holding an id is the largest one.
    regular = len(key_flat) == alignment.n_key_ids
    # regular: no key span in two key chains (the usual case), so each id has one key chain
    primary_chain = np.full(n_ids, -1, dtype=np.int64)
    if regular:
        primary_chain[key_flat] = key_owner
    else:
        np.maximum.at(primary_chain, key_flat, key_owner)

    k_of_resp = primary_chain[resp_flat]
    in_key = k_of_resp >= 0
    codes = k_of_resp[in_key] * max(n_resp, 1) + resp_owner[in_key]
    cell_codes, inverse, primary = np.unique(codes, return_inverse=True, return_counts=True)
    cell_key = cell_codes // max(n_resp, 1)
    cell_resp = cell_codes % max(n_resp, 1)
    matched_ids = resp_flat[in_key]

    # Parts of response chains: primary shares (cells) plus one part per twinless position.
    twinless_ids = resp_flat[~in_key]
    part_response = np.concatenate([cell_resp, resp_owner[~in_key]])

    if regular:
        shared = key_side = primary
        member_cell, member_id = inverse, matched_ids
    else:
        cell_key, cell_resp, primary, shared, key_side, member_cell, member_id = _irregular_cells(
            alignment, primary_chain)

    components, simple, star, star_starts = components_of(cell_key, cell_resp, n_key, n_resp)
    return Table(
        key_sizes=key_sizes, response_sizes=resp_sizes,
        cell_key=cell_key, cell_response=cell_resp, primary=primary, shared=shared,
        key_side=key_side, part_response=part_response, key_ids=key_flat, key_owner=key_owner,
        member_cell=member_cell, member_id=member_id, part_cell=inverse, part_id=matched_ids,
        twinless_ids=twinless_ids, n_key_spans=alignment.n_key_ids,
        n_response_spans=alignment.response_spans, matched=alignment.matched,
        components=components, simple_cells=simple, star_cells=star, star_starts=star_starts,
    )


def group_starts(counts: np.ndarray) -> np.ndarray:
    """Where each group starts when groups of these sizes are laid end to end."""
    return np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64) if len(counts) else counts


def types_per_group(group: np.ndarray, types: np.ndarray, n_groups: int) -> np.ndarray:
    """(n_groups, 4) counts of each mention type per group."""
    out = np.zeros((n_groups, len(MentionType)), dtype=np.int64)
    if len(group):
        np.add.at(out, (group, types), 1)
    return out


def _irregular_cells(alignment: Alignment, primary_chain: np.ndarray):
    """Cells when a key span sits in several key chains: the three v8.01 sizes differ here.

    Returns the cells' key and response chains, their three sizes, and their (cell, id) members.
    """
    members: dict[int, dict[int, int]] = {}
    for k, chain in enumerate(alignment.key_chains):
        for mid in chain:
            members.setdefault(mid, {})
            members[mid][k] = members[mid].get(k, 0) + 1
    cells: dict[tuple[int, int], list[int]] = {}
    cell_members: dict[tuple[int, int], list[int]] = {}
    for r, chain in enumerate(alignment.response_chains):
        for mid in chain:
            for k, multiplicity in members.get(mid, {}).items():
                cell = cells.setdefault((k, r), [0, 0, 0])
                cell[0] += int(primary_chain[mid] == k)
                cell[1] += 1
                cell[2] += multiplicity
                cell_members.setdefault((k, r), []).append(mid)
    keys = sorted(cells)
    data = np.array([cells[c] for c in keys], dtype=np.int64).reshape(len(keys), 3)
    ck = np.array([c[0] for c in keys], dtype=np.int64)
    cr = np.array([c[1] for c in keys], dtype=np.int64)
    member_cell = np.array([i for i, c in enumerate(keys) for _ in cell_members[c]], dtype=np.int64)
    member_id = np.array([mid for c in keys for mid in cell_members[c]], dtype=np.int64)
    return ck, cr, data[:, 0], data[:, 1], data[:, 2], member_cell, member_id


def components_of(cell_key: np.ndarray, cell_resp: np.ndarray, n_key: int, n_resp: int):
    """Split the CEAF assignment into connected components of the key-response overlap graph.

    Most chains overlap exactly one chain on the other side, and such a pair is matched without a
    solver.  A component with one chain on a side (a key chain split over several response
    chains, or response chains merging parts of one key chain) needs none either: that chain is
    matched to its best partner, which is the largest phi of the component.  Only the remaining
    components (small) go to the Hungarian algorithm.

    Returns (solver components as (cell indices, key rows, response cols), simple cells, star
    cells grouped by component, start of each star component in them).
    """
    deg_key = np.bincount(cell_key, minlength=n_key) if n_key else EMPTY_INT
    deg_resp = np.bincount(cell_resp, minlength=n_resp) if n_resp else EMPTY_INT
    simple_mask = (deg_key[cell_key] == 1) & (deg_resp[cell_resp] == 1)
    simple = np.nonzero(simple_mask)[0]
    rest_cells = np.nonzero(~simple_mask)[0]
    if not len(rest_cells):
        return [], simple, EMPTY_INT, EMPTY_INT
    rest_keys = cell_key[rest_cells]
    component = least_members(n_key + n_resp, rest_keys, n_key + cell_resp[rest_cells])[rest_keys].tolist()
    keys, resps = cell_key.tolist(), cell_resp.tolist()
    groups: dict[int, list[int]] = {}
    for c, label in zip(rest_cells.tolist(), component):
        groups.setdefault(label, []).append(c)
    components = []
    star: list[int] = []
    starts: list[int] = []
    for cells in groups.values():
        rows = sorted({keys[c] for c in cells})
        cols = sorted({resps[c] for c in cells})
        if len(rows) == 1 or len(cols) == 1:
            starts.append(len(star))
            star.extend(cells)
        else:
            components.append((np.array(cells, dtype=np.int64), np.array(rows, dtype=np.int64),
                               np.array(cols, dtype=np.int64)))
    return components, simple, np.array(star, dtype=np.int64), np.array(starts, dtype=np.int64)

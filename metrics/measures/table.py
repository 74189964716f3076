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
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from metrics.mentions.alignment import Alignment
from metrics.model import MentionType

_EMPTY_INT = np.zeros(0, dtype=np.int64)
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
    laid_in: tuple[TableBlock, int] | None = field(default=None, repr=False, compare=False)
    """The tables laid end to end this one was cut from (`build_tables`), and its place there."""

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

    components, simple, star, star_starts = _components(cell_key, cell_resp, n_key, n_resp)
    return Table(
        key_sizes=key_sizes, response_sizes=resp_sizes,
        cell_key=cell_key, cell_response=cell_resp, primary=primary, shared=shared,
        key_side=key_side, part_response=part_response, key_ids=key_flat, key_owner=key_owner,
        member_cell=member_cell, member_id=member_id, part_cell=inverse, part_id=matched_ids,
        twinless_ids=twinless_ids, n_key_spans=alignment.n_key_ids,
        n_response_spans=alignment.response_spans, matched=alignment.matched,
        components=components, simple_cells=simple, star_cells=star, star_starts=star_starts,
    )


def build_tables(alignments: Sequence[Alignment]) -> list[Table]:
    """`build_table` of each alignment, computed for all at once: the same arrays, to the element
    and dtype (tests/test_table_batch.py).

    Why: a corpus of 20,000 tiny documents paid some twenty numpy calls per document here (a
    `np.unique` among them), most of its preparing.  Here the documents' chains are laid end to end
    with their ids and chains made global, the cells of all documents found by one `np.unique`
    (sorted by global key chain, then response chain: by document, then as each document sorts
    them), and each document's arrays are slices, made local again.  A document with a key span
    in two key chains is left to `build_table`; one with CEAF components beyond single cells has
    them found as `build_table` finds them (`_components`)."""
    n = len(alignments)
    if n < 2:
        return [build_table(alignment) for alignment in alignments]
    key_counts = _lengths(a.key_chains for a in alignments)
    response_counts = _lengths(a.response_chains for a in alignments)
    key_sizes = np.fromiter((len(c) for a in alignments for c in a.key_chains), np.int64, int(key_counts.sum()))
    response_sizes = np.fromiter((len(c) for a in alignments for c in a.response_chains), np.int64,
                                 int(response_counts.sum()))
    key_flat = np.fromiter((i for a in alignments for c in a.key_chains for i in c), np.int64, int(key_sizes.sum()))
    response_flat = np.fromiter((i for a in alignments for c in a.response_chains for i in c), np.int64,
                                int(response_sizes.sum()))
    n_ids = _lengths(a.spans for a in alignments)
    id_start, key_chain_start, response_chain_start = group_starts(n_ids), group_starts(key_counts), group_starts(response_counts)
    key_owner = np.repeat(np.arange(len(key_sizes), dtype=np.int64), key_sizes)
    response_owner = np.repeat(np.arange(len(response_sizes), dtype=np.int64), response_sizes)
    key_doc = np.repeat(np.arange(n, dtype=np.int64), key_counts)[key_owner]
    response_doc = np.repeat(np.arange(n, dtype=np.int64), response_counts)[response_owner]
    primary_chain = np.full(int(n_ids.sum()), -1, dtype=np.int64)
    np.maximum.at(primary_chain, key_flat + id_start[key_doc], key_owner)  # the last key chain holding an id
    k_of_response = primary_chain[response_flat + id_start[response_doc]]
    in_key = k_of_response >= 0
    codes = k_of_response[in_key] * max(len(response_sizes), 1) + response_owner[in_key]
    cell_codes, inverse, primary = np.unique(codes, return_inverse=True, return_counts=True)
    cell_key = cell_codes // max(len(response_sizes), 1)
    cell_response = cell_codes % max(len(response_sizes), 1)
    cell_doc = np.repeat(np.arange(n, dtype=np.int64), key_counts)[cell_key]
    cell_counts = np.bincount(cell_doc, minlength=n)
    cell_start = group_starts(cell_counts)
    matched_doc = response_doc[in_key]
    twinless_doc = response_doc[~in_key]
    # degrees in the key-response overlap graph: a document whose cells are all simple needs no more
    simple_mask = (np.bincount(cell_key, minlength=len(key_sizes))[cell_key] == 1) & \
        (np.bincount(cell_response, minlength=len(response_sizes))[cell_response] == 1)
    all_simple = (np.bincount(cell_doc[~simple_mask], minlength=n) == 0).tolist()
    # each document's arrays, local again
    local_cell_key = cell_key - key_chain_start[cell_doc]
    local_cell_response = cell_response - response_chain_start[cell_doc]
    local_inverse = inverse - cell_start[matched_doc]
    local_key_owner = key_owner - key_chain_start[key_doc]
    local_response_owner = response_owner - response_chain_start[response_doc]
    key_chain_at, response_chain_at, cell_at = _bounds(key_counts), _bounds(response_counts), _bounds(cell_counts)
    key_position_at = _bounds(np.bincount(key_doc, minlength=n))
    matched_at = _bounds(np.bincount(matched_doc, minlength=n))
    twinless_at = _bounds(np.bincount(twinless_doc, minlength=n))
    matched_ids = response_flat[in_key]
    twinless_ids = response_flat[~in_key]
    twinless_owner = local_response_owner[~in_key]
    tables: list[Table] = []
    ceaf: list[tuple[int, np.ndarray, np.ndarray, np.ndarray]] = []  # (document, simple, star, starts)
    irregular = False
    for d, alignment in enumerate(alignments):
        kc, kp, rc, cc = key_chain_at[d], key_position_at[d], response_chain_at[d], cell_at[d]
        mc, tc = matched_at[d], twinless_at[d]
        if kp[1] - kp[0] != alignment.n_key_ids:  # a key span in two key chains: cells of three sizes
            tables.append(build_table(alignment))
            irregular = True
            continue
        doc_cell_key, doc_cell_response = local_cell_key[cc[0]:cc[1]], local_cell_response[cc[0]:cc[1]]
        if all_simple[d]:
            components, simple, star, star_starts = [], np.arange(cc[1] - cc[0], dtype=np.int64), _EMPTY_INT, _EMPTY_INT
        else:
            components, simple, star, star_starts = _components(doc_cell_key, doc_cell_response, kc[1] - kc[0],
                                                                rc[1] - rc[0])
            ceaf.append((d, simple, star, star_starts))
        doc_primary = primary[cc[0]:cc[1]]
        doc_inverse = local_inverse[mc[0]:mc[1]]
        doc_matched = matched_ids[mc[0]:mc[1]]
        tables.append(Table(
            key_sizes=key_sizes[kc[0]:kc[1]], response_sizes=response_sizes[rc[0]:rc[1]],
            cell_key=doc_cell_key, cell_response=doc_cell_response, primary=doc_primary,
            shared=doc_primary, key_side=doc_primary,
            part_response=np.concatenate([doc_cell_response, twinless_owner[tc[0]:tc[1]]]),
            key_ids=key_flat[kp[0]:kp[1]], key_owner=local_key_owner[kp[0]:kp[1]],
            member_cell=doc_inverse, member_id=doc_matched, part_cell=doc_inverse, part_id=doc_matched,
            twinless_ids=twinless_ids[tc[0]:tc[1]], n_key_spans=alignment.n_key_ids,
            n_response_spans=alignment.response_spans, matched=alignment.matched,
            components=components, simple_cells=simple, star_cells=star, star_starts=star_starts,
        ))
    if irregular:  # laid end to end from the tables themselves (`laid_block`)
        return tables
    key_chain_doc = np.repeat(np.arange(n, dtype=np.int64), key_counts)
    response_chain_doc = np.repeat(np.arange(n, dtype=np.int64), response_counts)
    # each document's parts: its cells, then its twinless positions
    part_doc = np.concatenate([cell_doc, twinless_doc])
    part_order = np.argsort(part_doc, kind="stable")
    # each document's simple cells: all its cells, or those `_components` found; its star cells
    every = np.asarray(all_simple, dtype=bool)[cell_doc]
    found = [(simple, star, starts, np.full(len(simple), d), np.full(len(star), d), np.full(len(starts), d))
             for d, simple, star, starts in ceaf]
    simple_values, star_values, starts_values, simple_doc, star_doc, starts_doc = (
        np.concatenate([_EMPTY_INT, *column]).astype(np.int64) for column in zip(*found)) if found else (_EMPTY_INT,) * 6
    simple_values = np.concatenate([(np.arange(len(cell_doc), dtype=np.int64) - cell_start[cell_doc])[every],
                                    simple_values])
    simple_doc = np.concatenate([cell_doc[every], simple_doc])
    by_doc = np.argsort(simple_doc, kind="stable")
    block = TableBlock(n, {
        "key_sizes": (key_sizes, key_chain_doc), "response_sizes": (response_sizes, response_chain_doc),
        "cell_key": (local_cell_key, cell_doc), "cell_response": (local_cell_response, cell_doc),
        "primary": (primary, cell_doc), "shared": (primary, cell_doc), "key_side": (primary, cell_doc),
        "part_response": (np.concatenate([local_cell_response, twinless_owner])[part_order], part_doc[part_order]),
        "key_ids": (key_flat, key_doc), "key_owner": (local_key_owner, key_doc),
        "member_cell": (local_inverse, matched_doc), "member_id": (matched_ids, matched_doc),
        "part_cell": (local_inverse, matched_doc), "part_id": (matched_ids, matched_doc),
        "twinless_ids": (twinless_ids, twinless_doc),
        "simple_cells": (simple_values[by_doc], simple_doc[by_doc]),
        "star_cells": (star_values, star_doc), "star_starts": (starts_values, starts_doc),
    }, {
        "n_key_spans": np.fromiter((a.n_key_ids for a in alignments), np.int64, n),
        "n_response_spans": np.fromiter((a.response_spans for a in alignments), np.int64, n),
        "matched": np.fromiter((a.matched for a in alignments), np.int64, n),
        "components": np.fromiter((len(table.components) for table in tables), np.int64, n),
    })
    for d, table in enumerate(tables):
        table.laid_in = (block, d)
    return tables


@dataclass(frozen=True)
class TableBlock:
    """Documents' tables laid end to end: each array of `Table` (`BLOCK_ARRAYS`) as every
    document's values one after another, each document's own (its chains, cells and ids counted
    from 0), with the document of each value; and each document's counts (`BLOCK_COUNTS`).

    Why: what the metrics of many documents at once read (`metrics.measures.laid`) is these
    arrays; `build_tables` computes them for all its documents together, and joining 20,000
    documents' slices again cost as much as computing them."""

    n_docs: int
    arrays: dict[str, tuple[np.ndarray, np.ndarray]]
    """Name -> (values, the document of each)."""
    counts: dict[str, np.ndarray]
    """Name -> each document's count."""

    @classmethod
    def of(cls, tables: Sequence[Table]) -> TableBlock:
        """The tables laid end to end (each array joined)."""
        docs = np.arange(len(tables), dtype=np.int64)
        arrays = {}
        for name in BLOCK_ARRAYS:
            parts = [getattr(table, name) for table in tables]
            lengths = np.fromiter(map(len, parts), dtype=np.int64, count=len(parts))
            values = np.concatenate(parts).astype(np.int64) if parts else _EMPTY_INT
            arrays[name] = (values, np.repeat(docs, lengths))
        counts = {name: np.fromiter((len(table.components) if name == "components" else getattr(table, name)
                                     for table in tables), dtype=np.int64, count=len(tables))
                  for name in BLOCK_COUNTS}
        return cls(len(tables), arrays, counts)

    def taken(self, docs: Sequence[int]) -> TableBlock:
        """The block of these documents (given in increasing order), numbered from 0."""
        if len(docs) == self.n_docs:
            return self
        kept = np.zeros(self.n_docs, dtype=bool)
        kept[np.asarray(docs, dtype=np.int64)] = True
        number = np.cumsum(kept) - 1
        arrays = {}
        for name, (values, doc) in self.arrays.items():
            keep = kept[doc]
            arrays[name] = (values[keep], number[doc[keep]])
        return TableBlock(len(docs), arrays, {name: counts[kept] for name, counts in self.counts.items()})

    def lengths(self, name: str) -> np.ndarray:
        """How many values of array `name` each document has."""
        return np.bincount(self.arrays[name][1], minlength=self.n_docs)

    def values(self, name: str) -> np.ndarray:
        return self.arrays[name][0]

    def doc(self, name: str) -> np.ndarray:
        return self.arrays[name][1]


BLOCK_ARRAYS = ("key_sizes", "response_sizes", "cell_key", "cell_response", "primary", "shared", "key_side",
                "part_response", "key_ids", "key_owner", "member_cell", "member_id", "part_cell", "part_id",
                "twinless_ids", "simple_cells", "star_cells", "star_starts")
"""The arrays of `Table` a `TableBlock` lays end to end."""
BLOCK_COUNTS = ("n_key_spans", "n_response_spans", "matched", "components")
"""The counts of `Table` a `TableBlock` keeps per document (`components`: how many)."""


def laid_block(tables: Sequence[Table]) -> TableBlock:
    """The tables laid end to end: taken from the block `build_tables` cut them from, when they
    all come from one, in its order; else joined."""
    if tables and all(table.laid_in is not None for table in tables):
        block = tables[0].laid_in[0]
        places = [table.laid_in[1] for table in tables]
        if all(table.laid_in[0] is block for table in tables) and all(a < b for a, b in zip(places, places[1:])):
            return block.taken(places)
    return TableBlock.of(tables)


def _lengths(groups) -> np.ndarray:
    return np.fromiter(map(len, groups), dtype=np.int64)


def group_starts(counts: np.ndarray) -> np.ndarray:
    """Where each group starts when groups of these sizes are laid end to end."""
    return np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64) if len(counts) else counts


def _bounds(counts: np.ndarray) -> list[tuple[int, int]]:
    """(start, end) of each group laid end to end."""
    ends = np.cumsum(counts).tolist()
    return list(zip([0] + ends[:-1], ends))


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


def _components(cell_key: np.ndarray, cell_resp: np.ndarray, n_key: int, n_resp: int):
    """Split the CEAF assignment into connected components of the key-response overlap graph.

    Most chains overlap exactly one chain on the other side, and such a pair is matched without a
    solver.  A component with one chain on a side (a key chain split over several response
    chains, or response chains merging parts of one key chain) needs none either: that chain is
    matched to its best partner, which is the largest phi of the component.  Only the remaining
    components (small) go to the Hungarian algorithm.

    Returns (solver components as (cell indices, key rows, response cols), simple cells, star
    cells grouped by component, start of each star component in them).
    """
    deg_key = np.bincount(cell_key, minlength=n_key) if n_key else _EMPTY_INT
    deg_resp = np.bincount(cell_resp, minlength=n_resp) if n_resp else _EMPTY_INT
    simple_mask = (deg_key[cell_key] == 1) & (deg_resp[cell_resp] == 1)
    simple = np.nonzero(simple_mask)[0]
    rest = np.nonzero(~simple_mask)[0].tolist()
    if not rest:
        return [], simple, _EMPTY_INT, _EMPTY_INT
    parent = list(range(n_key + n_resp))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    keys, resps = cell_key.tolist(), cell_resp.tolist()
    for c in rest:
        a, b = find(keys[c]), find(n_key + resps[c])
        if a != b:
            parent[a] = b
    groups: dict[int, list[int]] = {}
    for c in rest:
        groups.setdefault(find(keys[c]), []).append(c)
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

"""Many documents' contingency tables built at once and held laid end to end (`TableBlock`), each
document's `Table` a view of its part (`TableView`, its arrays cut when first read).

Why: a corpus of 20,000 tiny documents paid some twenty numpy calls per document to build its
tables one by one, and as many again to join them for the metrics of all documents at once
(`metrics.measures.laid`, `metrics.measures.batch`), which read them laid end to end.  Here the
tables are computed for all documents together, kept laid end to end, and a document's own table
is made only when someone reads it (a CEAF component for the solver, the error analysis, the
workbench).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from metrics.measures.table import EMPTY_INT, Table, build_table, group_starts
from metrics.mentions.alignment import Alignment, laid_alignments
from metrics.runtime.union_find import least_members

BLOCK_ARRAYS = ("key_sizes", "response_sizes", "cell_key", "cell_response", "primary", "shared", "key_side",
                "part_response", "key_ids", "key_owner", "member_cell", "member_id", "part_cell", "part_id",
                "twinless_ids", "simple_cells", "star_cells", "star_starts")
"""The arrays of `Table` a `TableBlock` lays end to end."""
RESPONSE_IDS = "response_ids"
"""Beyond the arrays of `Table`, a block `build_tables` built keeps every response chain's mention
ids, chain after chain (`Alignment.response_chains` laid end to end: the ACE-value reads them)."""
BLOCK_COUNTS = ("n_key_spans", "n_response_spans", "matched", "components")
"""The counts of `Table` a `TableBlock` keeps per document (`components`: how many)."""


@dataclass(frozen=True)
class TableBlock:
    """Documents' tables laid end to end: each array of `Table` (`BLOCK_ARRAYS`) as every
    document's values one after another, each document's own (its chains, cells and ids counted
    from 0), with the document of each value; each document's counts (`BLOCK_COUNTS`); and the
    CEAF components for the solver of the documents with some."""

    n_docs: int
    arrays: dict[str, tuple[np.ndarray, np.ndarray]]
    """Name -> (values, the document of each)."""
    counts: dict[str, np.ndarray]
    """Name -> each document's count."""
    components: dict[int, list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = field(default_factory=dict)
    """Document -> its `Table.components`, for the documents with some."""
    _ends: dict[str, list[int]] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, tables: Sequence[Table]) -> TableBlock:
        """The tables laid end to end (each array joined)."""
        docs = np.arange(len(tables), dtype=np.int64)
        arrays = {}
        for name in BLOCK_ARRAYS:
            parts = [getattr(table, name) for table in tables]
            lengths = np.fromiter(map(len, parts), dtype=np.int64, count=len(parts))
            values = np.concatenate(parts).astype(np.int64) if parts else EMPTY_INT
            arrays[name] = (values, np.repeat(docs, lengths))
        counts = {name: np.fromiter((len(table.components) if name == "components" else getattr(table, name)
                                     for table in tables), dtype=np.int64, count=len(tables))
                  for name in BLOCK_COUNTS}
        return cls(len(tables), arrays, counts, {d: table.components for d, table in enumerate(tables)
                                                 if table.components})

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
        return TableBlock(len(docs), arrays, {name: counts[kept] for name, counts in self.counts.items()},
                          {new: self.components[old] for new, old in enumerate(docs) if old in self.components})

    def lengths(self, name: str) -> np.ndarray:
        """How many values of array `name` each document has."""
        return np.bincount(self.arrays[name][1], minlength=self.n_docs)

    def values(self, name: str) -> np.ndarray:
        return self.arrays[name][0]

    def doc(self, name: str) -> np.ndarray:
        return self.arrays[name][1]

    def part(self, name: str, doc: int) -> np.ndarray:
        """Document `doc`'s values of array `name`."""
        ends = self._ends.get(name)
        if ends is None:
            ends = self._ends[name] = np.cumsum(self.lengths(name)).tolist()
        return self.arrays[name][0][ends[doc - 1] if doc else 0:ends[doc]]


class TableView(Table):
    """A document's `Table` read from the block it was built in: each array cut from it, and each
    count read, when first asked for (`Table`'s fields all, with the same values and dtypes)."""

    def __init__(self, block: TableBlock, doc: int, laid: bool) -> None:  # noqa: D107 - no dataclass init
        self._block, self._doc = block, doc
        self._places = None
        self.laid_in = (block, doc) if laid else None

    def __getattr__(self, name: str) -> Any:  # only for what is not made yet
        if name.startswith("_"):
            raise AttributeError(name)
        block, doc = self._block, self._doc
        if name in BLOCK_ARRAYS:
            value: Any = block.part(name, doc)
        elif name == "components":
            value = block.components.get(doc, [])
        elif name in BLOCK_COUNTS:
            value = int(block.counts[name][doc])
        else:
            raise AttributeError(name)
        self.__dict__[name] = value
        return value


def laid_block(tables: Sequence[Table]) -> TableBlock:
    """The tables laid end to end: taken from the block `build_tables` cut them from, when they
    all come from one, in its order; else joined."""
    if tables and all(table.laid_in is not None for table in tables):
        block = tables[0].laid_in[0]
        places = [table.laid_in[1] for table in tables]
        if all(table.laid_in[0] is block for table in tables) and all(a < b for a, b in zip(places, places[1:])):
            return block.taken(places)
    return TableBlock.of(tables)


def build_tables(alignments: Sequence[Alignment]) -> list[Table]:
    """`build_table` of each alignment, computed for all at once: the same arrays, to the element
    and dtype (tests/test_table_batch.py), each document's a view of the block they are kept in.

    Why: a corpus of 20,000 tiny documents paid some twenty numpy calls per document here (a
    `np.unique` among them), most of its preparing.  Here the documents' chains are laid end to end
    with their ids and chains made global, the cells of all documents found by one `np.unique`
    (sorted by global key chain, then response chain: by document, then as each document sorts
    them), and each document's arrays are its part, made local again.  A document with a key span
    in two key chains is left to `build_table` (and the tables are then joined, not taken from the
    block, when laid end to end); one with CEAF components beyond single cells has them found as
    `build_table` finds them (`components_of`)."""
    n = len(alignments)
    if n < 2:
        return [build_table(alignment) for alignment in alignments]
    key_counts, response_counts, key_sizes, response_sizes, key_flat, response_flat, n_ids = _laid_chains(alignments)
    id_start, key_chain_start, response_chain_start = group_starts(n_ids), group_starts(key_counts), group_starts(response_counts)
    key_owner = np.repeat(np.arange(len(key_sizes), dtype=np.int64), key_sizes)
    response_owner = np.repeat(np.arange(len(response_sizes), dtype=np.int64), response_sizes)
    key_chain_doc = np.repeat(np.arange(n, dtype=np.int64), key_counts)
    response_chain_doc = np.repeat(np.arange(n, dtype=np.int64), response_counts)
    key_doc, response_doc = key_chain_doc[key_owner], response_chain_doc[response_owner]
    primary_chain = np.full(int(n_ids.sum()), -1, dtype=np.int64)
    np.maximum.at(primary_chain, key_flat + id_start[key_doc], key_owner)  # the last key chain holding an id
    k_of_response = primary_chain[response_flat + id_start[response_doc]]
    in_key = k_of_response >= 0
    n_resp = max(len(response_sizes), 1)
    cell_codes, inverse, primary = np.unique(k_of_response[in_key] * n_resp + response_owner[in_key],
                                             return_inverse=True, return_counts=True)
    cell_key, cell_response = cell_codes // n_resp, cell_codes % n_resp
    cell_doc = key_chain_doc[cell_key]
    cell_start = group_starts(np.bincount(cell_doc, minlength=n))
    matched_doc, twinless_doc = response_doc[in_key], response_doc[~in_key]
    simple_mask = _alone_in_both_chains(cell_key, cell_response, len(key_sizes), len(response_sizes))
    all_simple = np.bincount(cell_doc[~simple_mask], minlength=n) == 0
    # each document's arrays, local again
    local_cell_key = cell_key - key_chain_start[cell_doc]
    local_cell_response = cell_response - response_chain_start[cell_doc]
    local_inverse = inverse - cell_start[matched_doc]
    local_key_owner = key_owner - key_chain_start[key_doc]
    local_response_owner = response_owner - response_chain_start[response_doc]
    matched_ids, twinless_ids = response_flat[in_key], response_flat[~in_key]
    twinless_owner = local_response_owner[~in_key]
    n_key_spans = np.fromiter((a.n_key_ids for a in alignments), np.int64, n)
    irregular = set(np.flatnonzero(np.bincount(key_doc, minlength=n) != n_key_spans).tolist())
    # the CEAF components of each document whose cells are not all simple
    wanted = ~all_simple
    wanted[list(irregular)] = False
    found = _components_together(wanted[cell_doc], simple_mask, cell_key, cell_response, cell_doc,
                                 cell_start=cell_start, key_start=key_chain_start, response_start=response_chain_start,
                                 n_key=len(key_sizes))
    # each document's parts: its cells, then its twinless positions
    part_doc = np.concatenate([cell_doc, twinless_doc])
    part_order = np.argsort(part_doc, kind="stable")
    # each document's simple cells: all its cells, or those `components_of` finds; its star cells
    every = all_simple[cell_doc]
    simple_values = np.concatenate([(np.arange(len(cell_doc), dtype=np.int64) - cell_start[cell_doc])[every],
                                    found.simple])
    simple_doc = np.concatenate([cell_doc[every], found.simple_doc])
    by_doc = np.argsort(simple_doc, kind="stable")
    block = TableBlock(n, {
        "key_sizes": (key_sizes, key_chain_doc), "response_sizes": (response_sizes, response_chain_doc),
        "cell_key": (local_cell_key, cell_doc), "cell_response": (local_cell_response, cell_doc),
        "primary": (primary, cell_doc), "shared": (primary, cell_doc), "key_side": (primary, cell_doc),
        "part_response": (np.concatenate([local_cell_response, twinless_owner])[part_order], part_doc[part_order]),
        "key_ids": (key_flat, key_doc), "key_owner": (local_key_owner, key_doc),
        "member_cell": (local_inverse, matched_doc), "member_id": (matched_ids, matched_doc),
        "part_cell": (local_inverse, matched_doc), "part_id": (matched_ids, matched_doc),
        "twinless_ids": (twinless_ids, twinless_doc), RESPONSE_IDS: (response_flat, response_doc),
        "simple_cells": (simple_values[by_doc], simple_doc[by_doc]),
        "star_cells": (found.star, found.star_doc), "star_starts": (found.starts, found.starts_doc),
    }, {
        "n_key_spans": n_key_spans,
        "n_response_spans": np.fromiter((a.response_spans for a in alignments), np.int64, n),
        "matched": np.fromiter((a.matched for a in alignments), np.int64, n),
        "components": _counted({d: len(places) for d, places in found.components.items()}, n),
    }, found.components)
    return [build_table(alignment) if d in irregular else TableView(block, d, not irregular)
            for d, alignment in enumerate(alignments)]


def counted_tables(key_sizes: np.ndarray, key_counts: np.ndarray, response_sizes: np.ndarray,
                   response_counts: np.ndarray, *, cell_key: np.ndarray, cell_response: np.ndarray,
                   cell_count: np.ndarray) -> list[Table]:
    """Regular tables (one size per cell) made from counts alone, many at once, each a view of one
    block: each table's chains' sizes laid end to end (`key_counts[d]` key chains and
    `response_counts[d]` response chains of table d), and the cells, chains numbered across the
    tables, in any order, each (key chain, response chain) once.  The same values and dtypes as
    `counted_parts._table` of each, without its numpy calls per table; the arrays of mention ids,
    which the table metrics never read, empty.

    Why: pricing rescores thousands of small parts of documents (`rescoring.PartRescorer`), each
    aligned and tabled mention by mention, or counted with a dozen numpy calls of its own."""
    n = len(key_counts)
    key_start, response_start = group_starts(key_counts), group_starts(response_counts)
    n_resp = max(len(response_sizes), 1)
    order = np.argsort(cell_key * n_resp + cell_response, kind="stable")  # by table, key chain, response chain
    cell_key, cell_response, primary = cell_key[order], cell_response[order], cell_count[order]
    key_chain_doc = np.repeat(np.arange(n, dtype=np.int64), key_counts)
    response_chain_doc = np.repeat(np.arange(n, dtype=np.int64), response_counts)
    cell_doc = key_chain_doc[cell_key]
    cell_start = group_starts(np.bincount(cell_doc, minlength=n))
    simple_mask = _alone_in_both_chains(cell_key, cell_response, len(key_sizes), len(response_sizes))
    found = _components_together(np.ones(len(cell_key), dtype=bool), simple_mask, cell_key, cell_response, cell_doc,
                                 cell_start=cell_start, key_start=key_start, response_start=response_start,
                                 n_key=len(key_sizes))
    empty = (EMPTY_INT, EMPTY_INT)
    local_response = cell_response - response_start[cell_doc]
    block = TableBlock(n, {
        "key_sizes": (key_sizes, key_chain_doc), "response_sizes": (response_sizes, response_chain_doc),
        "cell_key": (cell_key - key_start[cell_doc], cell_doc), "cell_response": (local_response, cell_doc),
        "primary": (primary, cell_doc), "shared": (primary, cell_doc), "key_side": (primary, cell_doc),
        "part_response": empty, "key_ids": empty, "key_owner": empty, "member_cell": empty, "member_id": empty,
        "part_cell": empty, "part_id": empty, "twinless_ids": empty,
        "simple_cells": (found.simple, found.simple_doc), "star_cells": (found.star, found.star_doc),
        "star_starts": (found.starts, found.starts_doc),
    }, {
        "n_key_spans": np.bincount(key_chain_doc, weights=key_sizes, minlength=n).astype(np.int64),
        "n_response_spans": np.bincount(response_chain_doc, weights=response_sizes, minlength=n).astype(np.int64),
        "matched": np.bincount(cell_doc, weights=primary, minlength=n).astype(np.int64),
        "components": _counted({d: len(places) for d, places in found.components.items()}, n),
    }, found.components)
    return [TableView(block, d, True) for d in range(n)]


def _laid_chains(alignments: Sequence[Alignment]) -> tuple[np.ndarray, ...]:
    """The alignments' chains laid end to end: each document's number of key and of response
    chains, each chain's size, every chain's mention ids chain after chain (each document's own),
    and each document's number of ids; as `align_all` laid them when it did, else gathered."""
    laid = laid_alignments(alignments)
    if laid is not None:
        return (np.diff(laid.key_chain_starts), np.diff(laid.response_chain_starts), laid.key_sizes,
                laid.response_sizes, laid.key_ids, laid.response_ids, np.diff(laid.id_starts))
    key_counts = _lengths(a.key_chains for a in alignments)
    response_counts = _lengths(a.response_chains for a in alignments)
    key_sizes = np.fromiter((len(c) for a in alignments for c in a.key_chains), np.int64, int(key_counts.sum()))
    response_sizes = np.fromiter((len(c) for a in alignments for c in a.response_chains), np.int64,
                                 int(response_counts.sum()))
    key_flat = np.fromiter((i for a in alignments for c in a.key_chains for i in c), np.int64, int(key_sizes.sum()))
    response_flat = np.fromiter((i for a in alignments for c in a.response_chains for i in c), np.int64,
                                int(response_sizes.sum()))
    n_ids = np.fromiter((a.n_ids for a in alignments), dtype=np.int64, count=len(alignments))
    return key_counts, response_counts, key_sizes, response_sizes, key_flat, response_flat, n_ids


def _alone_in_both_chains(cell_key: np.ndarray, cell_response: np.ndarray, n_key: int, n_response: int) -> np.ndarray:
    """Each cell alone in its key chain's row and in its response chain's column (degree 1 on
    both sides of the key-response overlap graph): a simple cell, its own CEAF component, which
    the solver never sees; a document whose cells are all simple needs no more."""
    return (np.bincount(cell_key, minlength=n_key)[cell_key] == 1) & \
        (np.bincount(cell_response, minlength=n_response)[cell_response] == 1)


def _lengths(groups) -> np.ndarray:
    return np.fromiter(map(len, groups), dtype=np.int64)


def _counted(counts: dict[int, int], n: int) -> np.ndarray:
    """Each of `n` documents' count, 0 where `counts` has none."""
    out = np.zeros(n, dtype=np.int64)
    out[list(counts)] = list(counts.values())
    return out


@dataclass(frozen=True)
class _Found:
    """`components_of` of many documents at once: their simple cells, star cells and star
    starts, each document's own (local) and laid end to end with the document of each, and the
    components for the solver of each document with some."""

    simple: np.ndarray
    simple_doc: np.ndarray
    star: np.ndarray
    star_doc: np.ndarray
    starts: np.ndarray
    starts_doc: np.ndarray
    components: dict[int, list[tuple[np.ndarray, np.ndarray, np.ndarray]]]


def _components_together(wanted: np.ndarray, simple: np.ndarray, cell_key: np.ndarray, cell_response: np.ndarray,
                         cell_doc: np.ndarray, *, cell_start: np.ndarray, key_start: np.ndarray,
                         response_start: np.ndarray, n_key: int) -> _Found:
    """`components_of` of the documents of the `wanted` cells (cells in document order, chains
    numbered globally, `simple`: a cell alone in both its chains), all at once: the connected
    components of the other cells (`least_members`), grouped in the order of their first cell, as
    `components_of` groups them."""
    simple_cells = np.flatnonzero(wanted & simple)
    rest = np.flatnonzero(wanted & ~simple)
    a = cell_key[rest]
    label = least_members(n_key + (int(cell_response.max()) + 1 if len(cell_response) else 0), a,
                          n_key + cell_response[rest])
    # each cell's group, numbered in the order of the group's first cell
    group_of = label[a]
    first_of = np.full(len(label), len(rest), dtype=np.int64)
    np.minimum.at(first_of, group_of, np.arange(len(rest), dtype=np.int64))
    is_first = first_of[group_of] == np.arange(len(rest))
    number = np.cumsum(is_first) - 1  # cells are in order: a group's number is that of its first cell
    group = number[first_of[group_of]]
    order = np.lexsort((rest, group))
    cells, group = rest[order], group[order]  # grouped in the order of their first cell, each group's in order
    n_groups = int(is_first.sum())
    n_rows = _distinct_per_group(group, cell_key[cells], n_groups)
    n_cols = _distinct_per_group(group, cell_response[cells], n_groups)
    star_group = (n_rows == 1) | (n_cols == 1)
    doc = cell_doc[cells]
    local = cells - cell_start[doc]
    in_star = star_group[group]
    sizes = np.bincount(group, minlength=n_groups)
    group_doc = doc[np.concatenate([[0], np.cumsum(sizes)[:-1]])] if n_groups else EMPTY_INT
    star_sizes = sizes[star_group]
    star_docs = group_doc[star_group]
    # each star group's start among its document's star cells
    star_ends = np.cumsum(star_sizes)
    doc_first = np.concatenate([[0], np.cumsum(np.bincount(star_docs, minlength=len(cell_start)))])[star_docs] \
        if len(star_docs) else EMPTY_INT
    starts = (star_ends - star_sizes) - np.concatenate([[0], star_ends])[doc_first] if len(star_docs) else EMPTY_INT
    components: dict[int, list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}
    solver = ~in_star
    if solver.any():
        solver_cells, solver_group = local[solver], group[solver]
        keys = cell_key[cells[solver]] - key_start[doc[solver]]
        responses = cell_response[cells[solver]] - response_start[doc[solver]]
        bounds = np.flatnonzero(np.diff(solver_group)) + 1
        for part, rows, cols, d in zip(_cut(solver_cells, bounds), _distinct_split(solver_group, keys),
                                       _distinct_split(solver_group, responses),
                                       doc[solver][np.concatenate([[0], bounds])].tolist()):
            components.setdefault(d, []).append((part, rows, cols))
    return _Found(simple_cells - cell_start[cell_doc[simple_cells]], cell_doc[simple_cells], local[in_star],
                  doc[in_star], starts.astype(np.int64), star_docs, components)


def _distinct_per_group(group: np.ndarray, values: np.ndarray, n_groups: int) -> np.ndarray:
    """How many distinct values each group has (rows grouped)."""
    if not len(group):
        return np.zeros(n_groups, dtype=np.int64)
    pairs = _distinct(group * (int(values.max()) + 1) + values)
    return np.bincount(pairs // (int(values.max()) + 1), minlength=n_groups)


def _distinct_split(group: np.ndarray, values: np.ndarray) -> list[np.ndarray]:
    """Each group's distinct values, sorted (`np.unique` of each), groups numbered in order."""
    base = int(values.max()) + 1
    codes = _distinct(group * base + values)
    owner = codes // base
    return _cut(codes - owner * base, np.flatnonzero(np.diff(owner)) + 1)


def _distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, sorted (`np.unique`, by sorting)."""
    values = np.sort(values)
    return values[np.concatenate([[True], values[1:] != values[:-1]])] if len(values) else values


def _cut(values: np.ndarray, bounds: np.ndarray) -> list[np.ndarray]:
    """`np.split(values, bounds)`, by slicing (np.split pays a call per piece)."""
    edges = [0, *bounds.tolist(), len(values)]
    return [values[start:end] for start, end in zip(edges, edges[1:])]

"""Documents' contingency tables laid end to end (`Tables`): what the metrics of many documents at
once read (`metrics.measures.batch`).

Each array of the documents' tables (`metrics.measures.table`) is read in document order as
`table_block.build_tables` laid it out for all of them at once (or joined, for tables made one by
one), with each row's document and its chains' indices made global.  What several metrics share is made
once and kept: the mention-type counts of the LMetrics (from every document's ids' types, also
laid end to end: one array for the corpus, not one per document), the cells each document's best
CEAF alignment is taken from, and which documents Tuggener's metrics have anything to judge in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from metrics.measures.components import Components, laid_components
from metrics.measures.formulas import ChainWeights
from metrics.measures.table import ChainTypes, Table, group_starts, types_per_group
from metrics.measures.table_block import TableBlock, laid_block
from metrics.measures.weights import Weights
from metrics.mentions.alignment import laid_alignments
from metrics.mentions.chains import laid_chains, ranges
from metrics.model import Document, MentionType


@dataclass(frozen=True)
class Tables:
    """Documents' tables laid end to end: their cells, key chains and response chains, each
    array in document order, with each row's document and its chains' indices made global."""

    tables: Sequence[Table]
    block: TableBlock
    """Every array of the tables, each document's own values one after another (`joined`)."""
    cell_doc: np.ndarray
    cell_key: np.ndarray
    cell_response: np.ndarray
    primary: np.ndarray
    shared: np.ndarray
    key_side: np.ndarray
    key_doc: np.ndarray
    key_sizes: np.ndarray
    response_doc: np.ndarray
    response_sizes: np.ndarray
    types: Sequence[ChainTypes] | None = None
    """Each document's mention-type counts, when given (else `chain_types` counts them from the
    pairs' types)."""
    pairs: Sequence[Any] | None = None
    """The document pairs themselves (`corpus.scoring.DocPair`), for the mention types (the
    LMetrics, the ACE-value), the ACE-value's response chains as ids, options and entity types,
    and Tuggener's metrics."""
    tally: Callable[[Sequence[Any]], dict[str, np.ndarray]] | None = None
    """Tuggener's four counts of many of the pairs by metric (`tuggener.count_documents`), given by
    the caller that has the pairs (a module here cannot import Tuggener's, which reads the
    catalogue); without it Tuggener's metrics are left to each pair."""
    linguistic: dict[Weights, ChainWeights] = field(default_factory=dict, compare=False, repr=False)
    """Chen & Ng's chain weights under each W asked for (`batch.linguistic`)."""
    _kept: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def judged(self) -> list[int]:
        """The documents with a chain of two mentions or more on a side (what Tuggener's metrics
        judge); all of them without the pairs."""
        if "judged" not in self._kept:
            self._kept["judged"] = list(range(self.n_docs)) if self.pairs is None else _judged(self.pairs)
        return self._kept["judged"]

    def application_counts(self) -> dict[str, np.ndarray]:
        """Tuggener's four counts of each `judged` document (a row each, in order), by counted
        metric (`tuggener.count_documents`), judged together once for its five metrics."""
        if "application" not in self._kept:
            if self.pairs is None or self.tally is None:
                raise ValueError("Tuggener's metrics of tables laid end to end without their pairs and tally")
            self.id_types()  # every pair's typed at once, each pair holding its own (Tuggener reads them)
            self._kept["application"] = self.tally([self.pairs[d] for d in self.judged()])
        return self._kept["application"]

    def ceaf_cells(self) -> CeafCells:
        """The cells each document's best CEAF alignment is taken from (made once)."""
        if "ceaf" not in self._kept:
            self._kept["ceaf"] = _ceaf_cells(self)
        return self._kept["ceaf"]

    def solver_components(self) -> Components:
        """Every document's CEAF components for the solver, laid end to end (made once)."""
        if "components" not in self._kept:
            self._kept["components"] = laid_components(self.block.components, self.starts("cell_key"), self.cell_key,
                                                       self.cell_response)
        return self._kept["components"]

    def id_types(self) -> np.ndarray:
        """The mention type (0 NAME, 1 NOMINAL, 2 PRONOUN, 3 ZERO) of every document's mention
        ids, laid end to end (`DocPair.id_types` of each, typed at once: `types.types_together`, each pair keeping
        its own)."""
        if "id_types" not in self._kept:
            if self.pairs is None:
                raise ValueError("mention types of tables laid end to end without their pairs")
            self._kept["id_types"] = typed_together(self.pairs)
        return self._kept["id_types"]

    def chain_types(self) -> ChainTypes:
        """The mention-type counts of every document's key chains, cells and parts, laid end to
        end (`Table.type_counts` of each, counted at once)."""
        if "types" not in self._kept:
            self._kept["types"] = _stacked_types(self.types) if self.types is not None else _type_counts(self)
        return self._kept["types"]

    def id_offsets(self) -> np.ndarray:
        """Where each document's mention ids start among all documents' (`id_types`)."""
        if "id_offsets" not in self._kept:
            assert self.pairs is not None
            self._kept["id_offsets"] = _id_starts(self.pairs)
        return self._kept["id_offsets"]

    def starts(self, name: str) -> np.ndarray:
        """Where each document's values of the tables' array `name` start among all documents'
        (its key chains for "key_sizes", its cells for "cell_key" ...)."""
        key = f"starts {name}"
        if key not in self._kept:
            self._kept[key] = group_starts(self.block.lengths(name))
        return self._kept[key]

    @property
    def n_docs(self) -> int:
        return self.block.n_docs

    def joined(self, name: str, offsets: np.ndarray) -> np.ndarray:
        """One array of every table's `name`, each document's values plus its offset."""
        values, doc = self.block.arrays[name]
        return values + offsets[doc]


def typed_together(pairs: Sequence[Any]) -> np.ndarray:
    """The mention type of every pair's mention ids, laid end to end, the pairs typed at once (the
    key's ids read from the cache's arrays where it holds them, `_typed_from_arrays`, else
    `types.types_together`), each pair keeping its own.  A pair typed already keeps its types (a
    part of a document, as `--impact` scores it, shares the whole document's: its part's words
    alone would type otherwise), and they are what is laid here too.  Why at once: one typer per
    document costs a fixed overhead each (20,000 tiny documents)."""
    if all(pair.typed for pair in pairs):
        return np.concatenate([np.zeros(0, dtype=np.int64), *(pair.id_types for pair in pairs)]).astype(np.int64)
    from metrics.mentions.types import types_together

    found = _typed_from_arrays(pairs)
    if found is None:
        typed, kinds = types_together([pair.key for pair in pairs], [pair.alignment.spans for pair in pairs])
        found = [partial(_given, types) for types in typed], kinds
    makers, kinds = found
    starts = _id_starts(pairs).tolist()
    ends = [*starts[1:], len(kinds)]
    kept = {d for d, (pair, make) in enumerate(zip(pairs, makers))
            if not pair.offer_types(make, kinds[starts[d]:ends[d]])}  # each holding its ids' types
    if kept:
        kinds = np.concatenate([pairs[d].id_types if d in kept else kinds[starts[d]:ends[d]]
                                for d in range(len(pairs))]).astype(np.int64)
    return kinds


def _id_starts(pairs: Sequence[Any]) -> np.ndarray:
    """Where each pair's mention ids start among all pairs' (`Alignment.n_ids`)."""
    return group_starts(np.fromiter((pair.alignment.n_ids for pair in pairs), dtype=np.int64, count=len(pairs)))


def _typed_from_arrays(pairs: Sequence[Any]) -> tuple[list[Callable[[], dict]], np.ndarray] | None:
    """`types.types_together` of the pairs' ids (each pair's typed spans, made when called, and
    the ids' types laid end to end), the key ids' types read from the arrays the cache of read files keeps the key's
    mentions typed ahead in (`chains.TypedArrays`), and only the response's spans the key lacks
    typed; None unless the pairs were aligned together (`alignment.laid_alignments`) and the
    key's typed mentions are, for every pair, its key ids' spans in their order (as the key's
    mentions typed ahead are: each distinct span of its chains, in order), which is checked.
    Why: looking up each of the corpus's 100,000 ids in its key's dict, and making each pair's
    dict span by span, cost more than typing the few thousand spans the key lacks."""
    from metrics.mentions.types import types_together

    laid = laid_alignments([pair.alignment for pair in pairs])
    keys = [pair.key for pair in pairs]
    held = [key.mention_arrays for key in keys]
    if laid is None or held[0] is None:
        return None
    arrays = held[0][0]
    typed = arrays.typed
    if typed is None or any(found is None or found[0] is not arrays or not typed.present[found[1]]
                            or not key.holds_stored("rule_types", arrays.stored, found[1])
                            for found, key in zip(held, keys)):
        return None
    places = np.fromiter((found[1] for found in held), dtype=np.int64, count=len(held))
    n_key = np.fromiter((pair.alignment.n_key_ids for pair in pairs), dtype=np.int64, count=len(pairs))
    if not np.array_equal(typed.starts[places + 1] - typed.starts[places], n_key):
        return None
    typed_at = ranges(typed.starts[places], typed.starts[places + 1])
    id_starts = laid.id_starts[:-1]
    key_at = ranges(id_starts, id_starts + n_key)
    if not (np.array_equal(typed.first[typed_at], laid.first[key_at])
            and np.array_equal(typed.last[typed_at], laid.last[key_at])):
        return None
    lacking_at = ranges(id_starts + n_key, laid.id_starts[1:])  # each pair's ids past its key's
    lacking_spans = list(zip(laid.first[lacking_at].tolist(), laid.last[lacking_at].tolist()))
    cuts = [0, *np.cumsum(laid.id_starts[1:] - id_starts - n_key).tolist()]
    lacking, lacking_kinds = types_together(keys, [lacking_spans[a:b] for a, b in zip(cuts, cuts[1:])],
                                            typed_ahead=False)  # spans the key's mentions lack
    kinds = np.empty(int(laid.id_starts[-1]), dtype=np.int64)
    kinds[key_at] = typed.kinds[typed_at]
    kinds[lacking_at] = lacking_kinds
    return [partial(_joined, key, extra) for key, extra in zip(keys, lacking)], kinds


def _given(types: dict) -> dict:
    return types


def _joined(key: Document, then: dict) -> dict:
    """A pair's typed spans: its key's own mentions', then those the key lacks (its ids' order).
    The key's are read only here: a score reads the types as arrays, never these dicts."""
    return {**key.rule_types, **then}


def _stacked_types(types: Sequence[ChainTypes]) -> ChainTypes:
    def stacked(arrays: list[np.ndarray]) -> np.ndarray:
        return np.concatenate(arrays) if arrays else np.zeros((0, len(MentionType)), dtype=np.int64)

    return ChainTypes(stacked([ty.key for ty in types]), stacked([ty.cells for ty in types]),
                      stacked([ty.parts for ty in types]))


def _type_counts(t: Tables) -> ChainTypes:
    """`Table.type_counts` of every document, counted at once from the ids' types laid end to
    end: per key chain, per cell, per part (each document's primary parts, then its twinless
    mentions, one part each)."""
    types, ids = t.id_types(), t.id_offsets()
    parts = t.starts("part_response")
    key = types_per_group(t.joined("key_owner", t.starts("key_sizes")), types[t.joined("key_ids", ids)],
                          len(t.key_sizes))
    cell = types_per_group(t.joined("member_cell", t.starts("cell_key")), types[t.joined("member_id", ids)],
                           len(t.cell_key))
    twinless_doc = t.block.doc("twinless_ids")
    # a twinless mention's part: after its document's primary parts, in turn
    primary_parts = t.block.lengths("part_response") - t.block.lengths("twinless_ids")
    twinless_rows = (np.arange(len(twinless_doc), dtype=np.int64) - t.starts("twinless_ids")[twinless_doc]
                     + (parts + primary_parts)[twinless_doc])
    rows = np.concatenate([t.joined("part_cell", parts), twinless_rows])
    part_types = np.concatenate([types[t.joined("part_id", ids)], types[t.joined("twinless_ids", ids)]])
    return ChainTypes(key, cell, types_per_group(rows, part_types, len(t.block.values("part_response"))))


def laid_end_to_end(tables: Sequence[Table], types: Sequence[ChainTypes] | None = None,
                    pairs: Sequence[Any] | None = None,
                    tally: Callable[[Sequence[Any]], dict[str, np.ndarray]] | None = None) -> Tables:
    """The tables of a corpus (or of one process's share of it) as one set of arrays, with their
    mention-type counts when given (for the LMetrics), their pairs and how to count Tuggener's
    metrics of them (`Tables.tally`): the arrays `build_tables` computed for them, when it did
    (`table.laid_block`)."""
    block = laid_block(tables)
    cell_doc = block.doc("cell_key")
    key_offset = group_starts(block.lengths("key_sizes"))
    response_offset = group_starts(block.lengths("response_sizes"))
    return Tables(tables, block, cell_doc, block.values("cell_key") + key_offset[cell_doc],
                  block.values("cell_response") + response_offset[cell_doc], block.values("primary"),
                  block.values("shared"), block.values("key_side"), block.doc("key_sizes"), block.values("key_sizes"),
                  block.doc("response_sizes"), block.values("response_sizes"), types, pairs, tally)


def _judged(pairs: Sequence[Any]) -> list[int]:
    """The pairs with a chain of two mentions or more on a side (as listed, a span listed twice
    twice), found from the arrays the cache of read files keeps where both sides hold them."""
    sides = [laid_chains([getattr(pair, side) for pair in pairs]) for side in ("key", "response")]
    if any(side is None for side in sides):
        return [d for d, pair in enumerate(pairs) if _has_link(pair.key.chains) or _has_link(pair.response.chains)]
    linked = np.zeros(len(pairs), dtype=bool)
    for _, _, sizes, _, chains in sides:
        linked[np.repeat(np.arange(len(pairs)), chains)[sizes > 1]] = True
    return np.flatnonzero(linked).tolist()


def _has_link(chains: Sequence[Sequence[Any]]) -> bool:
    return any(len(chain) > 1 for chain in chains)


@dataclass(frozen=True)
class CeafCells:
    """Where each document's best CEAF alignment comes from without the solver, as global cell
    indices (the same under every similarity: made once per `Tables`)."""

    simple: np.ndarray
    """Every document's simple cells (one key chain, one response chain), in document order."""
    star: np.ndarray
    """The cells of the star components (a single chain on one side), grouped by component."""
    group_starts: np.ndarray
    """Where each star component's cells start in `star`."""
    has_star: np.ndarray
    """Whether each document has star components."""
    needs_solver: list[int]
    """The documents with a component for the solver."""


def _ceaf_cells(t: Tables) -> CeafCells:
    cells = t.starts("cell_key")
    simple = t.joined("simple_cells", cells)
    has_star = t.block.lengths("star_starts") > 0
    needs_solver = np.flatnonzero(t.block.counts["components"]).tolist()
    if not len(t.block.values("star_cells")):
        empty = np.zeros(0, np.int64)
        return CeafCells(simple, empty, empty, has_star, needs_solver)
    return CeafCells(simple, t.joined("star_cells", cells), t.joined("star_starts", t.starts("star_cells")), has_star,
                     needs_solver)

"""The engine's table of a rescored part, counted from the document's cells instead of aligned.

Why: a fix that the delta table cannot price (its document lists a span twice, or is too short to
price by it: `impact.PARTIAL_DELTA_TOKENS`) is priced by the engine's score of the part it
reaches, before and after (`rescoring.PartRescorer`).  That part was made into two documents,
aligned by v8.01's rules (`alignment.align`) and tabled (`table.build_table`), mention by mention;
a book's category reaches most of the book, so each of its prices aligned and tabled the book
twice.  But the table of a part is a function of counts the document's cells already hold: its
key chains' sizes, its response chains' sizes, and how many mentions of each key chain each
response chain holds.  Only v8.01's rule for a span listed twice changes them: a key-matching span
met again (in any chain, in chain order) is dropped, a chain emptied by dropping disappears, a
span of no key chain is kept at every place.  So the part's table is counted here: the chains
that list no repeated span and that the edit did not touch from the document's cells
(`delta._Table`, made for a clean document or not), the others by walking their spans under that
rule, and the cells ordered as `build_table` orders them (by key chain, then response chain, in
the part's order).  The engine's own metric functions then score that table (`together.score_columns`
and each metric's computation, as the rescoring scores its fragments), so every value is the
rescoring's to the bit: the same arrays in, the same operations.

Only where the table alone decides the metric (`TABLE_METRICS`, under v8.01) and the key lists
every span once (else v8.01 gives a cell three sizes: `table._irregular_cells`); elsewhere the
part is aligned as before.  tests/test_counted_parts.py checks every table against
`build_table(align(...))` of the same part.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from metrics.corpus.together import with_parts
from metrics.measures import catalog
from metrics.measures.catalog import BCUB, CEAFE, CEAFM, LEA, MUC, Metric, Scorer
from metrics.measures.columns import Column
from metrics.measures.score import AnyScore
from metrics.measures.table import EMPTY_INT, Table, components_of
from metrics.measures.weights import Weights
from metrics.model import Span

if TYPE_CHECKING:
    from metrics.errors.delta import _Table

COUNTED_CHAINS = 64
"""A part of this many chains (key and response) or more is counted; a smaller one is aligned with
the other small parts, all tabled in one pass (`table_block.build_tables`), which costs less per
part than a counted table's own numpy calls."""

TABLE_METRICS = frozenset(metric.name for metric in (MUC, BCUB, CEAFM, CEAFE, LEA))
"""The metrics whose v8.01 computation reads the table's sizes and cells alone (no mention ids,
types or alignment): what a counted table can be scored for."""


def counts_suffice(metrics: Iterable[str], scorer: Scorer) -> bool:
    """Can parts be scored from counted tables for these metrics (with their parts) under this scorer?"""
    return scorer is Scorer.V801 and set(with_parts(tuple(metrics))) <= TABLE_METRICS


@dataclass
class DocumentCells:
    """What counting a document's parts needs, found once per document."""

    cells: _Table
    """The document's cells (every listing counted, as `delta.partial_table` counts them)."""
    repeated_chains: frozenset[int]
    """Response chains listing a span that the response lists more than once: the only chains
    whose aligned content differs from their listing (walked, `_walked`)."""

    @classmethod
    def of(cls, cells: _Table, chains: Sequence[Sequence[Span]]) -> DocumentCells:
        listed = Counter(span for chain in chains for span in chain)
        repeated = {span for span, n in listed.items() if n > 1}
        return cls(cells, frozenset(t for t, chain in enumerate(chains) if repeated and not repeated.isdisjoint(chain)))


def key_regular(key_chains: Sequence[Sequence[Span]], key_row: dict[Span, int]) -> bool:
    """Does the key list every span once (so v8.01's cells have one size, as counted here)?"""
    return sum(map(len, key_chains)) == len(key_row)


def part_table(document: DocumentCells, keys: Sequence[int], chains: Sequence[int],
               listed: Callable[[int], Sequence[Span]], changed: set[int] | frozenset[int]) -> Table:
    """The table `build_table(align(key part, response part))` gives for the part made of these key
    chains and response chains (each in the part's order), a response chain's spans being
    `listed(t)`: read from the document's cells where t is neither `changed` (by an edit) nor
    lists a repeated span, else counted from its spans under v8.01's rule for repeats."""
    cells = document.cells
    key_at = {k: i for i, k in enumerate(keys)}
    key_sizes = [cells.key_sizes[k] for k in keys]
    col_sizes, col_cells, key_row = cells.col_sizes, cells.col_cells, cells.key_row
    walk = document.repeated_chains
    kept: set[Span] = set()
    sizes: list[int] = []
    cell_key: list[int] = []
    cell_response: list[int] = []
    counts: list[int] = []
    for t in chains:
        if t in changed or t in walk:
            size, found = _walked(listed(t), key_row, key_at, kept)
        else:
            size = col_sizes[t]
            found = {}
            for k, n in col_cells[t].items():
                at = key_at.get(k)
                if at is None:  # a key chain outside the part: its spans are twinless here
                    continue
                found[at] = n
        if size == 0:
            continue  # a chain emptied (or empty): `align` drops it
        here = len(sizes)
        sizes.append(size)
        for at, n in found.items():
            cell_key.append(at)
            cell_response.append(here)
            counts.append(n)
    return _table(np.array(key_sizes, dtype=np.int64), np.array(sizes, dtype=np.int64),
                  np.array(cell_key, dtype=np.int64), np.array(cell_response, dtype=np.int64),
                  np.array(counts, dtype=np.int64))


def _walked(spans: Sequence[Span], key_row: dict[Span, int], key_at: dict[int, int], kept: set[Span]
            ) -> tuple[int, dict[int, int]]:
    """A response chain's aligned size and cells (part key index -> mentions) under v8.01's rule:
    a key-matching span already kept (in this chain or an earlier one) is dropped; a span of no
    key chain of the part is kept at every place, in no cell."""
    size = 0
    found: dict[int, int] = {}
    for span in spans:
        k = key_row.get(span)
        at = key_at.get(k) if k is not None else None
        if at is not None:
            if span in kept:
                continue
            kept.add(span)
            found[at] = found.get(at, 0) + 1
        size += 1
    return size, found


def _table(key_sizes: np.ndarray, response_sizes: np.ndarray, cell_key: np.ndarray, cell_response: np.ndarray,
           counts: np.ndarray) -> Table:
    """A regular table (one size per cell) from its chains' sizes and cells, the cells in
    `build_table`'s order (by key chain, then response chain) and its CEAF components found by the
    same function; the arrays of mention ids, which the table metrics never read, left empty."""
    n_key, n_resp = len(key_sizes), len(response_sizes)
    order = np.argsort(cell_key * max(n_resp, 1) + cell_response, kind="stable")
    cell_key, cell_response, primary = cell_key[order], cell_response[order], counts[order]
    components, simple, star, star_starts = components_of(cell_key, cell_response, n_key, n_resp)
    matched = int(primary.sum())
    return Table(key_sizes=key_sizes, response_sizes=response_sizes, cell_key=cell_key, cell_response=cell_response,
                 primary=primary, shared=primary, key_side=primary, part_response=EMPTY_INT, key_ids=EMPTY_INT,
                 key_owner=EMPTY_INT, member_cell=EMPTY_INT, member_id=EMPTY_INT, part_cell=EMPTY_INT,
                 part_id=EMPTY_INT, twinless_ids=EMPTY_INT, n_key_spans=int(key_sizes.sum()),
                 n_response_spans=int(response_sizes.sum()), matched=matched, components=components,
                 simple_cells=simple, star_cells=star, star_starts=star_starts)


class CountedPart:
    """A counted table scored as a document pair (`together.Scored`): its metrics computed as the
    pair's scorer computes them, reading the table alone."""

    scorer = Scorer.V801

    def __init__(self, table: Table) -> None:
        self.table = table
        self._kept: tuple[dict[str, Column], int] | None = None

    def score(self, metric: Metric | str, weights: Weights) -> AnyScore:
        found = catalog.METRICS[metric] if isinstance(metric, str) else metric
        if self._kept is not None and found.name in self._kept[0]:
            return self._kept[0][found.name].row(self._kept[1])
        return found.computation(self.scorer)(self, weights)

    def has(self, metric: Metric, weights: Weights) -> bool:
        return self._kept is not None and metric.name in self._kept[0]

    def keep(self, columns: dict[str, Column], row: int, weights: Weights) -> None:
        self._kept = (columns, row)

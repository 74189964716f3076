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
span of no key chain is kept at every place (`alignment.RepeatedSpans`).  So the part's table is
counted here: the chains that list no repeated span from the document's cells (`delta.DeltaTable`,
made for a clean document or not), with the cells of the spans the edit moved added (`part_table`;
the small parts of `part_tables` walk the chains the edit touched instead), the chains that list a
repeated span by walking their spans under that rule, and the cells ordered as `build_table`
orders them (by key chain, then response chain, in the part's order).  The engine's own metric
functions then score that table (`together.score_columns` and each metric's computation, as the
rescoring scores its fragments), so every value is the rescoring's to the bit: the same arrays
in, the same operations.

Only where the table alone decides the metric (`TABLE_METRICS`, under v8.01) and the key lists
every span once (else v8.01 gives a cell three sizes: `table._irregular_cells`); elsewhere the
part is aligned as before.  tests/test_counted_parts.py checks every table against
`build_table(align(...))` of the same part.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from metrics.corpus.together import with_parts
from metrics.measures import catalog
from metrics.measures.catalog import BCUB, CEAFE, CEAFM, LEA, MUC, Metric, Scorer
from metrics.measures.columns import Column
from metrics.measures.score import AnyScore
from metrics.measures.table import EMPTY_INT, Table, components_of
from metrics.measures.table_block import counted_tables
from metrics.measures.weights import Weights
from metrics.mentions.alignment import RepeatedSpans
from metrics.model import Span

if TYPE_CHECKING:
    from metrics.errors.delta import DeltaTable

COUNTED_CHAINS = 1_000
"""A part of this many chains (key and response) or more is counted; a smaller one is aligned with
the other small parts, all tabled in one pass (`table_block.build_tables`), which costs less per
part than a counted table's own numpy calls (and than a second batch of parts to score)."""

TABLE_METRICS = frozenset(metric.name for metric in (MUC, BCUB, CEAFM, CEAFE, LEA))
"""The metrics whose v8.01 computation reads the table's sizes and cells alone (no mention ids,
types or alignment): what a counted table can be scored for."""


def counts_suffice(metrics: Iterable[str], scorer: Scorer) -> bool:
    """Can parts be scored from counted tables for these metrics (with their parts) under this scorer?"""
    return scorer is Scorer.V801 and set(with_parts(tuple(metrics))) <= TABLE_METRICS


class DocumentCells:
    """What counting a document's parts needs, found once per document: its cells as arrays."""

    def __init__(self, cells: DeltaTable, chains: Sequence[Sequence[Span]]) -> None:
        self.cells = cells
        """The document's cells (every listing counted, as `delta.partial_table` counts them)."""
        listed = Counter(span for chain in chains for span in chain)
        repeated = {span for span, n in listed.items() if n > 1}
        self.repeated_chains = frozenset(t for t, chain in enumerate(chains)
                                         if repeated and not repeated.isdisjoint(chain))
        """Response chains listing a span that the response lists more than once: the only chains
        whose aligned content differs from their listing (walked, `_walked`)."""
        col_cells = cells.col_cells
        self.cell_response = np.repeat(np.arange(len(col_cells), dtype=np.int64),
                                       np.fromiter(map(len, col_cells), dtype=np.int64, count=len(col_cells)))
        self.cell_key = np.fromiter((k for found in col_cells for k in found), dtype=np.int64,
                                    count=len(self.cell_response))
        self.cell_count = np.fromiter((n for found in col_cells for n in found.values()), dtype=np.int64,
                                      count=len(self.cell_response))
        self.col_sizes = np.array(cells.col_sizes, dtype=np.int64)
        self.key_sizes = np.array(cells.key_sizes, dtype=np.int64)


def key_regular(key_chains: Sequence[Sequence[Span]], key_row: dict[Span, int]) -> bool:
    """Does the key list every span once (so v8.01's cells have one size, as counted here)?"""
    return sum(map(len, key_chains)) == len(key_row)


def part_table(document: DocumentCells, keys: Sequence[int], chains: Sequence[int],
               listed: Callable[[int], Sequence[Span]], *, moved: Mapping[Span, int | None],
               copies: Mapping[Span, tuple[int, ...]]) -> Table:
    """The table `build_table(align(key part, response part))` gives for the part made of these key
    chains and response chains (each in the part's order) after an edit: `moved` (`Edit.moved`,
    empty for the part before any edit), the chains listing each span before it `copies`
    (`FixBase.copies`), a response chain's spans being `listed(t)`.  A chain that lists a repeated
    span is counted from its spans under v8.01's rule for repeats; every other chain, changed or
    new, is read from the document's cells and the moves' cells added to it (`_moved_cells`): a
    book's category changes 60,000 chains, whose spans were walked one by one, by moving far
    fewer spans."""
    key_list = np.array(keys, dtype=np.int64)
    key_at = np.full(len(document.key_sizes), -1, dtype=np.int64)
    key_at[key_list] = np.arange(len(key_list), dtype=np.int64)
    part = np.array(chains, dtype=np.int64)
    n_orig = len(document.col_sizes)
    repeated = document.repeated_chains
    walked_at = np.isin(part, np.fromiter(repeated, dtype=np.int64, count=len(repeated)))
    walked = np.flatnonzero(walked_at)
    read = ~walked_at & (part < n_orig)  # a new chain has no cell before the edit: its moves make it
    sizes = np.zeros(len(part), dtype=np.int64)
    sizes[read] = document.col_sizes[part[read]]
    # the cells of the chains read: where their chain sits in the part, their key chain's place in it
    place = np.full(n_orig, -1, dtype=np.int64)
    place[part[read]] = np.flatnonzero(read)
    at_place = place[document.cell_response]
    at_key = key_at[document.cell_key]
    taken = (at_place >= 0) & (at_key >= 0)  # a key chain outside the part: its spans are twinless here
    key_row, key_index = document.cells.key_row, dict(zip(keys, range(len(keys))))
    rule = _part_rule(key_row, key_index)
    walked_sizes: list[int] = []
    walked_key: list[int] = []
    walked_place: list[int] = []
    walked_counts: list[int] = []
    for position in walked.tolist():
        size, found = _walked(listed(chains[position]), rule)
        walked_sizes.append(size)
        walked_key.extend(found)
        walked_place.extend([position] * len(found))
        walked_counts.extend(found.values())
    sizes[walked] = walked_sizes

    def joined(read_cells: np.ndarray, walked_cells: list[int]) -> np.ndarray:
        return np.concatenate([read_cells, np.array(walked_cells, dtype=np.int64)])

    cell_key, cell_place, cell_count = _moved_cells(
        (joined(at_key[taken], walked_key), joined(at_place[taken], walked_place),
         joined(document.cell_count[taken], walked_counts)),
        sizes, part, repeated=repeated, key_row=key_row, key_index=key_index, moved=moved, copies=copies)
    kept_chains = sizes > 0  # a chain emptied (or empty): `align` drops it
    renumbered = np.cumsum(kept_chains) - 1
    return _table(document.key_sizes[key_list], sizes[kept_chains], cell_key, renumbered[cell_place], cell_count)


def _moved_cells(cells: tuple[np.ndarray, np.ndarray, np.ndarray], sizes: np.ndarray, part: np.ndarray, *,
                 repeated: frozenset[int], key_row: dict[Span, int], key_index: dict[int, int],
                 moved: Mapping[Span, int | None], copies: Mapping[Span, tuple[int, ...]]
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A part's cells (key place, chain place, mentions) and its chains' `sizes` (changed in place)
    after an edit's moves, for the chains read from the cells as they were: each moved span leaves
    every chain that listed it (`copies`) and joins the chain it moved to (None: none), chains
    that list a repeated span left to the walk.  The cells of one key and chain added up, those
    emptied dropped."""
    cell_key, cell_place, cell_count = cells
    chain: list[int] = []
    key: list[int] = []
    step: list[int] = []
    for span, to in moved.items():
        at = key_index.get(key_row.get(span, -1), -1)
        for t in copies.get(span, ()):
            chain.append(t)
            key.append(at)
            step.append(-1)
        if to is not None:
            chain.append(to)
            key.append(at)
            step.append(1)
    if not chain or not len(part):
        return cell_key, cell_place, cell_count
    position = np.full(int(max(part.max(), max(chain))) + 1, -1, dtype=np.int64)
    position[part] = np.arange(len(part), dtype=np.int64)
    if repeated:
        position[[t for t in repeated if t < len(position)]] = -1
    moved_place = position[np.array(chain, dtype=np.int64)]
    moved_key, moved_step = np.array(key, dtype=np.int64), np.array(step, dtype=np.int64)
    here = moved_place >= 0
    sizes += np.bincount(moved_place[here], weights=moved_step[here], minlength=len(sizes)).astype(np.int64)
    here &= moved_key >= 0  # a span of no key chain of the part is in no cell
    codes = np.concatenate([cell_key * len(part) + cell_place, moved_key[here] * len(part) + moved_place[here]])
    found, inverse = np.unique(codes, return_inverse=True)
    counts = np.bincount(inverse.ravel(), weights=np.concatenate([cell_count, moved_step[here]]),
                         minlength=len(found)).astype(np.int64)
    kept = counts != 0
    return found[kept] // len(part), found[kept] % len(part), counts[kept]


Part = tuple[Sequence[int], Sequence[int], Callable[[int], Sequence[Span]], "set[int] | frozenset[int]"]
"""A part as `part_tables` takes it: its key chains, its response chains, a chain's spans, the
chains an edit changed."""


def part_tables(document: DocumentCells, parts: Sequence[Part]) -> list[Table]:
    """The table `part_table` gives each part, counted in Python chain by chain (a chain the edit
    changed walked, not moved: a small part has few) and tabled all at once
    (`table_block.counted_tables`): the same tables, without a dozen numpy calls per part, for
    the parts of a few chains that make most of a document's rescorings."""
    cells = document.cells
    key_row, key_sizes, col_sizes, col_cells = cells.key_row, cells.key_sizes, cells.col_sizes, cells.col_cells
    n_orig, repeated = len(col_sizes), document.repeated_chains
    all_key_sizes: list[int] = []
    key_counts: list[int] = []
    response_sizes: list[int] = []
    response_counts: list[int] = []
    cell_key: list[int] = []
    cell_response: list[int] = []
    cell_count: list[int] = []
    for keys, chains, listed, changed in parts:
        key_base, response_base = len(all_key_sizes), len(response_sizes)
        key_index = dict(zip(keys, range(len(keys))))
        all_key_sizes.extend(key_sizes[k] for k in keys)
        rule = _part_rule(key_row, key_index)
        for t in chains:
            if t in repeated:
                size, found = _walked(listed(t), rule)
            elif t >= n_orig or t in changed:
                size, found = _listed_once(listed(t), key_row, key_index)
            else:  # a chain read from the cells: every one of its spans kept
                size = col_sizes[t]
                found = {key_index[k]: n for k, n in col_cells[t].items() if k in key_index}
            if size:  # a chain emptied (or empty): `align` drops it
                for at, n in found.items():
                    cell_key.append(key_base + at)
                    cell_response.append(len(response_sizes))
                    cell_count.append(n)
                response_sizes.append(size)
        key_counts.append(len(all_key_sizes) - key_base)
        response_counts.append(len(response_sizes) - response_base)
    if not parts:
        return []

    def array(values: list[int]) -> np.ndarray:
        return np.array(values, dtype=np.int64)

    return counted_tables(array(all_key_sizes), array(key_counts), array(response_sizes), array(response_counts),
                          cell_key=array(cell_key), cell_response=array(cell_response), cell_count=array(cell_count))


def _walked(spans: Sequence[Span], rule: RepeatedSpans[None]) -> tuple[int, dict[int, int]]:
    """A response chain's aligned size and cells (part key index -> mentions) under v8.01's rule for
    a span listed twice (`rule`, carried from chain to chain: its key ids are the part's key indices)."""
    found: dict[int, int] = {}
    kept = rule.kept(spans, 0)
    for at in kept:
        if at is not None:
            found[at] = found.get(at, 0) + 1
    return len(kept), found


def _listed_once(spans: Sequence[Span], key_row: dict[Span, int], key_at: dict[int, int]) -> tuple[int, dict[int, int]]:
    """`_walked` of a chain that lists no span listed elsewhere (not in `repeated_chains`, or made
    by an edit, whose moved spans lose their other copies): v8.01's rule keeps every span, and
    none of them can meet the rule again in a later chain, so the rule is not asked (a book's
    category walks 60,000 such chains).  Its cells: the spans of each key chain of the part."""
    found: dict[int, int] = {}
    for span in spans:
        k = key_row.get(span)
        if k is not None:
            at = key_at.get(k)
            if at is not None:
                found[at] = found.get(at, 0) + 1
    return len(spans), found


def _part_rule(key_row: dict[Span, int], key_at: dict[int, int]) -> RepeatedSpans[None]:
    """v8.01's rule for a span listed twice over a part: a span's key id is its key chain's index
    in the part, a span of no key chain of the part twinless (kept at every place, in no cell)."""
    def part_key(span: Span) -> int | None:
        k = key_row.get(span)
        return None if k is None else key_at.get(k)

    return RepeatedSpans(part_key, _in_no_cell)


def _in_no_cell(span: Span) -> None:
    """A twinless span's cell in a counted part: none."""
    return None


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

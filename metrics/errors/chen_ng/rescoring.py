"""Pricing a fix by rescoring the part of its document it reaches, with the engine itself.

Why: where the delta table cannot price a fix (a document that lists a span twice, where v8.01
counts cells in three ways; metrics the table lacks), the fix's change is the engine's score of the
part of the document it reaches after the fix, less that part's score before (every metric is a
sum over the connected components of the key/response chain overlap graph, plus, for BLANC, the
non-coreference links between components, which only depend on how many mentions each holds).
So there is one implementation of each metric (metrics.errors.chen_ng.impact uses this).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from metrics.corpus.scoring import DocPair, score_pair
from metrics.corpus.together import score_columns, with_parts
from metrics.errors.chen_ng.counted_parts import COUNTED_CHAINS, CountedPart, DocumentCells, Part, part_table, \
    part_tables
from metrics.errors.chen_ng.fixes import Edit
from metrics.measures.catalog import BLANC
from metrics.measures.score import BlancScore, Score
from metrics.measures.table import Table
from metrics.measures.table_block import build_tables
from metrics.measures.weights import Weights
from metrics.mentions.alignment import align
from metrics.model import Document, Span


class PartRescorer:
    """Rescores the reached parts of edits, keeping each part's score before its edits (shared by
    every edit that reaches the same chains)."""

    def __init__(self, weights: Weights, parts: tuple[str, ...]) -> None:
        self.weights = weights
        self.parts = parts
        self._before: dict[tuple, tuple[dict, tuple[int, int, int]]] = {}

    def rescored(self, i: int, pair: DocPair, reached: Callable[[Edit], tuple[list[int], list[int]]],
                 edits: Sequence[Edit], counted: Callable[[], DocumentCells | None] = lambda: None
                 ) -> list[tuple[dict, dict]]:
        """(scores of the reached part before, after) of each edit of document i, by rescoring: the
        parts of all the edits, and the parts before them not kept yet, aligned, tabled and scored
        together (`table_block.build_tables`, `together.score_columns`: each value the part's own
        to the bit).  `reached(edit)`: the key and response chains the edit reaches (`fixes.reach`).
        Where `counted()` gives the document's cells, each part's table is counted from them
        (`counted_parts`), not aligned: a part of `COUNTED_CHAINS` chains or more on its own, the
        smaller ones all at once (`part_tables`); the same tables, scored together the same way."""
        n_orig = len(pair.response.chains)
        original = pair.response.chains
        parts: list[Table | tuple[Document, Document] | int] = []  # the parts to score: new befores, then afters
        new_before: dict[tuple, int] = {}
        plans: list[tuple[tuple, Table | tuple[Document, Document] | int]] = []  # each edit's before, its part after

        small: list[Part] = []  # parts counted all at once (`part_tables`), where the cells are known
        small_cells = counted()

        def part(key_set: list[int], chains: list[int], edit: Edit | None) -> Table | tuple[Document, Document] | int:
            """The part of these chains, before any edit or after `edit`: its counted table, its
            place among the `small` parts counted later, or its documents."""
            listed = original.__getitem__ if edit is None else edit.chain
            changed = frozenset() if edit is None else edit.touched
            large = len(key_set) + len(chains) >= COUNTED_CHAINS
            cells = counted() if large else small_cells
            if cells is not None and not large:
                small.append((key_set, chains, listed, changed))
                return len(small) - 1
            if cells is not None:
                moved, copies = ({}, {}) if edit is None else (edit.moved, edit.base.copies)
                return part_table(cells, key_set, chains, listed, moved=moved, copies=copies)
            key_part = _fragment(pair.key, [pair.key.chains[k] for k in key_set], _pick(pair.key.chain_labels(), key_set))
            if edit is None:
                return key_part, _fragment(pair.response, [original[t] for t in chains],
                                           _pick(pair.response.chain_labels(), chains))
            after = [(chain, edit.label(t)) for t in chains for chain in (edit.chain(t),) if chain]  # emptied: dropped
            return key_part, _fragment(pair.response, [chain for chain, _ in after], [label for _, label in after])

        for edit in edits:
            key_set, resp_set = reached(edit)
            old_set = [r for r in resp_set if r < n_orig]
            # The part before the fix is shared by all fixes that reach the same chains.
            signature = (i, tuple(key_set), tuple(old_set))
            if signature not in self._before and signature not in new_before:
                new_before[signature] = len(parts)
                parts.append(part(key_set, old_set, None))
            plans.append((signature, part(key_set, resp_set, edit)))
        n_before = len(parts)
        parts.extend(after_part for _, after_part in plans)
        if small:  # tabled in the order they are scored in, so that scoring reads their block whole
            order = [part for part in parts if isinstance(part, int)]
            tables = dict(zip(order, part_tables(small_cells, [small[n] for n in order])))
            parts = [tables[part] if isinstance(part, int) else part for part in parts]
        scored = self._score_parts(parts, pair)
        for signature, at in new_before.items():
            self._before[signature] = scored[at]
        out = []
        for (signature, _), after in zip(plans, scored[n_before:]):
            before = self._before[signature]
            if BLANC.name not in self.parts:
                out.append((before[0], after[0]))
                continue
            # BLANC also counts the non-coreference links between the reached part and the rest.
            rest = tuple(d - p for d, p in zip(_sides(pair.alignment), before[1]))
            blanc = BLANC.name
            out.append(({**before[0], blanc: before[0][blanc] + _cross_links(before[1], rest)},
                        {**after[0], blanc: after[0][blanc] + _cross_links(after[1], rest)}))
        return out

    def _score_parts(self, parts: Sequence[Table | tuple[Document, Document]], pair: DocPair
                     ) -> list[tuple[dict, tuple[int, int, int]]]:
        """The engine's scores of (partial) document pairs, with the full pair's mention types,
        and their mention counts (`_sides`, counted for BLANC alone), computed together; a part
        given as its counted table (`counted_parts.part_table`) is scored from it (no BLANC: its
        sides are not counted)."""
        aligned = [part for part in parts if isinstance(part, tuple)]
        alignments = [align(key, response) for key, response in aligned]
        fragments = iter([pair.fragment(key, response, alignment, table)
                          for (key, response), alignment, table in zip(aligned, alignments, build_tables(alignments))])
        scored = [next(fragments) if isinstance(part, tuple) else CountedPart(part) for part in parts]
        names = with_parts(tuple(self.parts))
        scores: list[dict | None] = [None] * len(scored)
        for group in ([n for n, part in enumerate(scored) if isinstance(part, DocPair)],
                      [n for n, part in enumerate(scored) if not isinstance(part, DocPair)]):
            # apart: the aligned parts' tables are read from the block they were built in, as a whole
            if len(group) > 1:  # each part's scores its rows of the columns (what `score_pair` reads one by one)
                columns = score_columns([scored[n] for n in group], self.parts, self.weights)
                rows = [columns[name].rows() for name in names]
                for n, found in zip(group, zip(*rows)):
                    scores[n] = dict(zip(names, found))
        sides = iter(alignments)
        counted = BLANC.name in self.parts  # the sides serve BLANC's links between parts alone
        return [(found if found is not None else score_pair(part, self.weights, self.parts),
                 _sides(next(sides)) if counted and isinstance(part, DocPair) else (0, 0, 0))
                for part, found in zip(scored, scores)]


def _sides(alignment) -> tuple[int, int, int]:
    """Distinct mentions in key chains, in response chains, and in both."""
    in_response = {mid for chain in alignment.response_chains for mid in chain}
    in_both = sum(1 for mid in in_response if mid < alignment.n_key_ids)
    return alignment.n_key_ids, len(in_response), in_both


def _cross_links(part: tuple[int, int, int], rest: tuple[int, int, int]) -> BlancScore:
    """BLANC counts of the mention pairs between two parts of a document that share no chain:
    every such pair is a non-coreference link on each side where both mentions appear."""
    key = part[0] * rest[0]
    response = part[1] * rest[1]
    both = part[2] * rest[2]
    return BlancScore(Score(0, 0, 0, 0), Score(both, key, both, response))


def _pick(labels: list[str], indices: Iterable[int]) -> list[str]:
    return [labels[i] for i in indices]


def _fragment(doc: Document, chains: list[list[Span]], labels: list[str]) -> Document:
    """Some chains of a document, as the scorers see it (they read chains and labels only)."""
    return Document(name=doc.name, words=doc.words, chains=chains, labels=labels, path=doc.path, line=doc.line)

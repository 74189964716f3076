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
from metrics.corpus.together import score_columns
from metrics.errors.chen_ng.counted_parts import DocumentCells, part_table, score_tables
from metrics.errors.chen_ng.fixes import Edit
from metrics.measures.catalog import BLANC
from metrics.measures.score import BlancScore, Score
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
                 edits: Sequence[Edit], counted: DocumentCells | None = None) -> list[tuple[dict, dict]]:
        """(scores of the reached part before, after) of each edit of document i, by rescoring: the
        parts of all the edits, and the parts before them not kept yet, aligned, tabled and scored
        together (`table_block.build_tables`, `together.score_columns`: each value the part's own
        to the bit).  `reached(edit)`: the key and response chains the edit reaches (`fixes.reach`).
        With `counted` (the document's cells, where its parts' tables can be counted: see
        `counted_parts`), the parts' tables are counted from them rather than aligned, the same
        tables, scored the same way."""
        if counted is not None:
            return self._counted(i, pair, reached, edits, counted)
        n_orig = len(pair.response.chains)
        parts: list[tuple[Document, Document]] = []  # the parts to score: new befores, then afters
        new_before: dict[tuple, int] = {}
        plans: list[tuple[tuple, Document, Document]] = []  # each edit's before, key part, part after
        for edit in edits:
            key_set, resp_set = reached(edit)
            key_part = _fragment(pair.key, [pair.key.chains[k] for k in key_set],
                                 _pick(pair.key.chain_labels(), key_set))
            old_set = [r for r in resp_set if r < n_orig]
            # The part before the fix is shared by all fixes that reach the same chains.
            signature = (i, tuple(key_set), tuple(old_set))
            if signature not in self._before and signature not in new_before:
                new_before[signature] = len(parts)
                parts.append((key_part, _fragment(pair.response, [pair.response.chains[r] for r in old_set],
                                                  _pick(pair.response.chain_labels(), old_set))))
            plans.append((signature, key_part, _document(pair.response, edit, resp_set)))
        n_before = len(parts)
        parts.extend((key_part, after_part) for _, key_part, after_part in plans)
        scored = self._score_parts(parts, pair)
        for signature, at in new_before.items():
            self._before[signature] = scored[at]
        out = []
        for (signature, _, _), after in zip(plans, scored[n_before:]):
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

    def _counted(self, i: int, pair: DocPair, reached: Callable[[Edit], tuple[list[int], list[int]]],
                 edits: Sequence[Edit], counted: DocumentCells) -> list[tuple[dict, dict]]:
        """`rescored` with every part's table counted (`counted_parts.part_table`): the parts in the
        same order, scored together the same way (no BLANC: `counted_parts.TABLE_METRICS`)."""
        n_orig = len(pair.response.chains)
        original = pair.response.chains
        tables = []
        new_before: dict[tuple, int] = {}
        plans: list[tuple[tuple, object]] = []
        for edit in edits:
            key_set, resp_set = reached(edit)
            old_set = [r for r in resp_set if r < n_orig]
            signature = (i, tuple(key_set), tuple(old_set))
            if signature not in self._before and signature not in new_before:
                new_before[signature] = len(tables)
                tables.append(part_table(counted, key_set, old_set, original.__getitem__, frozenset()))
            plans.append((signature, part_table(counted, key_set, resp_set, edit.chain, edit.touched)))
        n_before = len(tables)
        tables.extend(after for _, after in plans)
        scored = score_tables(tables, self.parts, self.weights)
        for signature, at in new_before.items():
            self._before[signature] = (scored[at], (0, 0, 0))
        return [(self._before[signature][0], after) for (signature, _), after in zip(plans, scored[n_before:])]

    def _score_parts(self, parts: Sequence[tuple[Document, Document]], pair: DocPair
                     ) -> list[tuple[dict, tuple[int, int, int]]]:
        """The engine's scores of (partial) document pairs, with the full pair's mention types,
        and their mention counts (`_sides`), computed together."""
        alignments = [align(key, response) for key, response in parts]
        fragments = [pair.fragment(key, response, alignment, table)
                     for (key, response), alignment, table in zip(parts, alignments, build_tables(alignments))]
        if len(fragments) > 1:
            score_columns(fragments, self.parts, self.weights)  # each fragment keeps its row
        return [(score_pair(part, self.weights, self.parts), _sides(alignment))
                for part, alignment in zip(fragments, alignments)]


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


def _document(response: Document, edit: Edit, indices: Iterable[int]) -> Document:
    """The response restricted to some chains of an edit (empty chains dropped, order kept)."""
    chains = [(edit.chain(i), edit.label(i)) for i in indices]
    chains = [(chain, label) for chain, label in chains if chain]
    return _fragment(response, [c for c, _ in chains], [label for _, label in chains])


def _fragment(doc: Document, chains: list[list[Span]], labels: list[str]) -> Document:
    """Some chains of a document, as the scorers see it (they read chains and labels only)."""
    return Document(name=doc.name, words=doc.words, chains=chains, labels=labels, path=doc.path, line=doc.line)

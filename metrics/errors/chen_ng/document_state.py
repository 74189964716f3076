"""What pricing one document's fixes needs (`impact.Pricer` builds it on the document's first fix):
its fix base, its delta table, the chains near a span listed twice, and what rescoring reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from metrics.corpus.scoring import DocPair
from metrics.errors.chen_ng.counted_parts import DocumentCells, key_regular
from metrics.errors.chen_ng.fixes import ChainComponents, Edit, Fix, FixBase, single_fix_moves
from metrics.errors.delta import Counts, DeltaTable, partial_table, tally
from metrics.errors.move_rows import Move, one_move
from metrics.model import Document, Span
from metrics.runtime.union_find import least_members


@dataclass
class DocumentState:
    """What pricing a document's fixes needs, built on its first fix."""

    pair: DocPair
    base: FixBase
    delta: DeltaTable | None
    """metrics.errors.delta's table when the metric's changes are computed there, else None."""
    tainted: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset())
    """Key and response chains connected to a span listed twice on a side: a fix that reaches
    one is rescored (the delta table is exact everywhere else)."""
    _key_chains_of: dict[Span, tuple[int, ...]] | None = None
    _components: ChainComponents | None = None
    _counted: DocumentCells | None = None
    _counted_known: bool = False

    def counted(self) -> DocumentCells | None:
        """The document's cells for counting its rescored parts' tables (`counted_parts`), found
        when a fix is first rescored; None where the key lists a span twice (v8.01's cells then
        have three sizes: the parts are aligned)."""
        if not self._counted_known:
            self._counted_known = True
            key, response, key_row = self.pair.key, self.pair.response, self.base.key_chain_of
            if key_regular(key.chains, key_row):
                cells = self.delta if self.delta is not None else partial_table(key, response, key_row)
                self._counted = DocumentCells(cells, response.chains)
        return self._counted

    @property
    def clean(self) -> bool:
        """Priced by the delta table whatever the fix: the table exists and nothing is tainted."""
        return self.delta is not None and not self.tainted[0] and not self.tainted[1]

    def counts_tainted(self, counts: Counts) -> bool:
        """Do one fix's counts (`single_fix_counts`) change a tainted chain: `by_delta`'s test."""
        key_tainted, response_tainted = self.tainted
        return any(t in response_tainted for t, _ in counts[1]) or any(k in key_tainted for (k, _), _ in counts[0])

    def single_changes(self, fixes: Sequence[Fix]) -> tuple[list[tuple[int, Move]], list[tuple[int, Counts]], list[int]]:
        """Each fix's change alone, by its place among `fixes`: (those of one move, with their move;
        the others that change anything, with their counts; those refused, which may reach a
        tainted chain: where anything is tainted, one that seems to change nothing too), as
        `Pricer._counted_prices` prices them (`single_fix_moves`, whose `tally` is the counts)."""
        ones: list[tuple[int, Move]] = []
        others: list[tuple[int, Counts]] = []
        refused: list[int] = []
        base, row_cells, clean = self.base, self.delta.row_cells, self.clean
        for n, fix in enumerate(fixes):
            found = single_fix_moves(base, fix, row_cells)
            if found is None:
                if not clean:
                    refused.append(n)
            elif len(found) == 1:
                if clean or not self.counts_tainted(one_move(*found[0])):
                    ones.append((n, found[0]))
                else:
                    refused.append(n)
            else:
                counts = tally(found)
                if clean or not self.counts_tainted(counts):
                    others.append((n, counts))
                else:
                    refused.append(n)
        return ones, others, refused

    def key_chains_of(self) -> dict[Span, tuple[int, ...]]:
        """Every key chain listing a span (more than one only in ill-formed keys), listed when a
        fix is first rescored (`fixes.reach`): a document priced by count changes never needs it."""
        if self._key_chains_of is None:
            self._key_chains_of = self.pair.key.chains_listing()
        return self._key_chains_of

    def components(self) -> ChainComponents:
        """The components of the document's chains before any fix (`fixes.reach`), found when a
        fix is first rescored."""
        if self._components is None:
            self._components = ChainComponents(len(self.pair.key.chains), len(self.pair.response.chains),
                                               self.key_chains_of(), self.response_chains_of)
        return self._components

    @property
    def response_chains_of(self) -> dict[Span, tuple[int, ...]]:
        """Every response chain listing a span (more than one when the response repeats it)."""
        return self.base.copies

    def by_delta(self, edit: Edit) -> bool:
        """Can the delta table price this edit: it exists, and the edit reaches no tainted chain
        (its touched response chains, and the key chains of the spans it moves, are the chains
        its components are made of, before and after)."""
        if self.delta is None or self.clean:
            return self.delta is not None
        key_tainted, response_tainted = self.tainted
        key_of = self.base.key_chain_of
        return not any(r in response_tainted for r in edit.touched) and \
            not any(key_of.get(span) in key_tainted for span in edit.moved)


def tainted_chains(key: Document, response: Document) -> tuple[frozenset[int], frozenset[int]]:
    """(key chains, response chains) connected to a span listed more than once on a side.

    Chains are connected when they list a common span (on one side or across).  The delta table's
    cells and sums are right for every other chain, so the changes of a fix that reaches none of
    these are exact."""
    n_key = len(key.chains)
    first: dict[Span, int] = {}  # each chain listing a span is joined to the first chain listing it
    joined: list[int] = []
    chains: list[int] = []
    repeated: set[Span] = set()
    for offset, doc in ((0, key), (n_key, response)):
        seen: set[Span] = set()  # a span listed twice within one chain counts as repeated too
        for index, chain in enumerate(doc.chains):
            for span in chain:
                if span in seen:
                    repeated.add(span)
                seen.add(span)
                at = first.setdefault(span, offset + index)
                if at != offset + index:
                    joined.append(at)
                    chains.append(offset + index)
    if not repeated:
        return frozenset(), frozenset()
    roots = least_members(n_key + len(response.chains), joined, chains).tolist()
    bad = {roots[first[span]] for span in repeated}
    return (frozenset(k for k in range(n_key) if roots[k] in bad),
            frozenset(r for r in range(len(response.chains)) if roots[n_key + r] in bad))

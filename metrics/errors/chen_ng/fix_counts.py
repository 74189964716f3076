"""What a list of fixes, applied in order, changes in a clean response's table: counted by cells.

Why: a category's fixes of one document were applied by `fixes.edit_chains`, one mention at a time
(each LINK listing the cell it moves), only for `delta.counts_of` to count the moved mentions back
into cells.  In a clean response (every span listed once on each side) a fix of a key mention
never splits a cell: LINK and SPLIT move the whole share S(m) ∩ K(m), which is the cell of m's key
chain in m's response chain now.  So the cells can be followed as groups, not mentions: a cell
that moves into a chain already holding a cell of the same key chain merges with it, and moves
with it from then on.  Only mentions absent from the key (and key mentions a fix adds) are
followed one by one.

The counts come out in the order `counts_of` gives them: the order in which mentions first moved
(a cell's mentions first move together, so the cell is listed once with their number), each
compared with where it ends up, and those back where they started left out.  So the delta table
prices the list exactly as before, to the bit (tests/test_impact_fast.py checks both ways).
"""

from __future__ import annotations

from collections.abc import Sequence

from metrics.errors.chen_ng.fixes import FixBase, Fix, FixKind
from metrics.errors.delta import Counts, tally
from metrics.model import Span


class _Cells:
    """A clean response's cells as groups being moved (a union-find over groups), with the chains'
    sizes and the moves in the order the mentions first moved.

    Why not `metrics.runtime.union_find.least_members`: that labels the components of pairs known
    up front.  Here groups are made and merged during the walk of the fixes, a merged group's chain
    and count live at the group it joined (its root must be that group, not the least), and where
    a mention is is asked between merges: a union-find mutated as it is read."""

    def __init__(self, base: FixBase, row_cells: list[dict[int, int]], col_sizes: list[int]) -> None:
        self.key_of = base.key_chain_of
        self.chain_of = base.chain_of
        self.row_cells = row_cells
        self.original_sizes = col_sizes
        self.n_chains = len(col_sizes)
        self.size_change: dict[int, int] = {}
        # groups: the root's chain and mention count; `pending`: the original cell (key chain,
        # response chain, mentions) of a group whose mentions have not moved yet
        self.parent: list[int] = []
        self.where: list[int] = []
        self.count: list[int] = []
        self.pending: list[tuple[int, int, int] | None] = []
        self.key: list[int] = []
        self.at: dict[tuple[int, int], int | None] = {}  # (key chain, chain) -> the group there
        self.cell_group: dict[tuple[int, int], int] = {}  # an original cell -> its group
        self.added: dict[Span, int] = {}  # a key mention a fix added -> its group
        self.loose: dict[Span, int | None] = {}  # a moved mention absent from the key -> its chain
        self.moves: list[tuple[int | None, int | None, int | None, Span | None]] = []
        """(key chain, chain it started in, its group or None, the mention if not in the key)"""
        self.counted: list[int] = []  # mentions of each move
        self.touched = False

    # ------------------------------------------------------------------ groups

    def _group(self, k: int, chain: int, cell: tuple[int, int, int] | None, n: int) -> int:
        g = len(self.parent)
        self.parent.append(g)
        self.where.append(chain)
        self.count.append(n)
        self.pending.append(cell)
        self.key.append(k)
        return g

    def _find(self, g: int) -> int:
        parent = self.parent
        while parent[g] != g:
            parent[g] = parent[parent[g]]
            g = parent[g]
        return g

    def _there(self, k: int, chain: int) -> int | None:
        """The group of key chain k in a chain now, if any (an original cell never moved is made
        a group when first asked for)."""
        if (k, chain) in self.at:
            return self.at[(k, chain)]
        n = self.row_cells[k].get(chain, 0) if chain < len(self.original_sizes) else 0
        if not n:
            return None
        g = self.cell_group[(k, chain)] = self.at[(k, chain)] = self._group(k, chain, (k, chain, n), n)
        return g

    def _key_group(self, span: Span, k: int) -> int | None:
        """The group holding a key mention now, None if the response lacks it."""
        if span in self.added:
            return self._find(self.added[span])
        chain = self.chain_of.get(span)
        if chain is None:
            return None
        g = self.cell_group.get((k, chain))
        if g is None:
            g = self._there(k, chain)
            assert g is not None
        return self._find(g)

    def owner(self, span: Span) -> int | None:
        """The chain holding a mention now (`_Editable.owner`)."""
        k = self.key_of.get(span)
        if k is None:
            loose = self.loose
            return loose[span] if span in loose else self.chain_of.get(span)
        g = self.added.get(span)
        if g is None:
            chain = self.chain_of.get(span)
            if chain is None:
                return None
            g = self.cell_group.get((k, chain))
            if g is None:  # its cell has not moved, and nothing has joined it
                return chain
        return self.where[self._find(g)]

    def size(self, chain: int) -> int:
        original = self.original_sizes[chain] if chain < len(self.original_sizes) else 0
        return original + self.size_change.get(chain, 0)

    def _resize(self, chain: int | None, n: int) -> None:
        if chain is not None:
            self.size_change[chain] = self.size_change.get(chain, 0) + n

    # ------------------------------------------------------------------ moves

    def share(self, span: Span) -> tuple[int | None, int]:
        """m's share S(m) ∩ K(m) as (its group or None for a mention absent from the key, mentions)."""
        k = self.key_of.get(span)
        if k is None:
            return None, 1
        g = self._key_group(span, k)
        assert g is not None
        return g, self.count[g]

    def take(self, span: Span, g: int | None) -> None:
        """The share (group g, or the mention alone) leaves its chain."""
        self.touched = True
        if g is None:
            self._first_move(span)
            self._resize(self.owner(span), -1)
            self.loose[span] = None
            return
        if self.pending[g] is not None:
            k, chain, n = self.pending[g]
            self.moves.append((k, chain, g, None))
            self.counted.append(n)
            self.pending[g] = None
        chain, size_change = self.where[g], self.size_change
        size_change[chain] = size_change.get(chain, 0) - self.count[g]
        self.at[(self.key[g], chain)] = None

    def put(self, span: Span, g: int | None, chain: int) -> None:
        """The share taken (or a mention absent from the response) joins a chain."""
        self.touched = True
        if g is None:
            k = self.key_of.get(span)
            if k is None:
                self._first_move(span)
                self.loose[span] = chain
                self._resize(chain, 1)
                return
            g = self.added[span] = self._group(k, chain, None, 1)
            self.moves.append((k, None, g, None))
            self.counted.append(1)
        size_change = self.size_change
        size_change[chain] = size_change.get(chain, 0) + self.count[g]
        k = self.key[g]
        there = self._there(k, chain)
        if there is not None and there != g:
            self.parent[g] = there
            self.count[there] += self.count[g]
        else:
            self.where[g] = chain
            self.at[(k, chain)] = g

    def new_chain(self) -> int:
        chain = self.n_chains
        self.n_chains += 1
        return chain

    def _first_move(self, span: Span) -> None:
        if span not in self.loose:
            self.moves.append((None, self.chain_of.get(span), None, span))
            self.counted.append(1)

    def counts(self) -> Counts:
        """The moves' counts, as `delta.counts_of` gives them for the same edit."""
        loose, where, find = self.loose, self.where, self._find
        return tally((k, start, to, n) for (k, start, g, span), n in zip(self.moves, self.counted)
                     for to in (loose[span] if g is None else where[find(g)],) if to != start)


def fix_list_counts(base: FixBase, fixes: Sequence[Fix], row_cells: list[dict[int, int]], col_sizes: list[int]
                    ) -> tuple[bool, Counts] | None:
    """(whether the fixes touch any chain, the counts they change) for fixes applied in order to a
    clean response (`FixBase.clean`), as `edit_chains` then `delta.counts_of` give them; None for a
    list this counting does not follow (a key mention removed, which no error's fix does).
    `row_cells[k][t]`: key chain k's mentions in response chain t; `col_sizes[t]`: chain t's."""
    cells = _Cells(base, row_cells, col_sizes)
    owner, share, take, put, new_chain = cells.owner, cells.share, cells.take, cells.put, cells.new_chain
    add, remove, split = FixKind.ADD, FixKind.REMOVE, FixKind.SPLIT
    for fix in fixes:
        m = fix.mention
        here = owner(m)
        kind = fix.kind
        if kind is add:
            if here is None:
                put(m, None, new_chain())
        elif kind is remove:
            if here is not None:
                if base.key_chain_of.get(m) is not None:
                    return None
                take(m, None)
        elif kind is split:
            if here is not None:
                g, n = share(m)
                if n < cells.size(here):
                    take(m, g)
                    put(m, g, new_chain())
        else:
            a = fix.target
            assert a is not None
            target = owner(a)
            if here is not None:
                if target == here:
                    continue
                g, _ = share(m)
                take(m, g)
                if target is not None:
                    put(m, g, target)
                else:  # a new chain of the share, then a
                    chain = new_chain()
                    put(m, g, chain)
                    put(a, None, chain)
            elif target is not None:
                put(m, None, target)
            else:  # a new chain of m and a, in document order
                chain = new_chain()
                for span in sorted({a, m}):
                    put(span, None, chain)
    return cells.touched, cells.counts()

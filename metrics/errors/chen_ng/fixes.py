"""The fix of each error: the smallest edit of the response that removes it.

A fix is an action on the response's chains, computed against the key, never against the record's
snapshot of the response, so that fixes can be applied one after another (all fixes of a category,
or of a document) and each still makes sense after the others:

- LINK m TO a (false new, wrong link, suboptimal link; a = m's best key antecedent): take m's
  response chain's share of m's key chain, P = S(m) ∩ K(m) (just {m} if m is not in the response:
  it is added), out of S(m) and put it into the chain of a (a is added, starting a chain with P, if
  the response lacks it).  Moving all of P, not m alone, keeps the mentions the system already got
  right together with m; anything of other key chains stays behind.
- SPLIT m (false anaphoric): if m is a key mention, P = S(m) ∩ K(m) leaves S(m) as a chain of its
  own (m starts its key chain, so it is right that nothing precedes it); a mention absent from the
  key leaves S(m) alone, as a singleton (whose remaining error, a spurious mention, is the next fix).
- ADD m (missing mention): m becomes a singleton chain of the response.
- REMOVE m (spurious mention): m leaves the response.

Why this converges: after a round, every fixed anaphoric mention sits with a key antecedent and
fixed false anaphoric mentions have no foreign predecessor; a mixed response chain or a split key
chain always shows an error at its first offending mention (see docs/errors-fixes.md), so rounds
of "classify, apply all fixes" end at the key: one round with the key's mentions, two otherwise
(tests/test_errors_properties.py checks it on random documents).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property
from itertools import chain as chained

from metrics.mentions.chains import KEY_KEEPS_LAST, RESPONSE_KEEPS_LAST, ChainView, DocumentChains, document_chains, \
    key_view, response_view
from metrics.model import Document, Span
from metrics.runtime.union_find import least_members
from metrics.errors.chen_ng.records import CATEGORIES, Category, ErrorColumns, ErrorRecord
from metrics.errors.mention import ABSENT
from metrics.errors.delta import Counts, tally
from metrics.errors.move_rows import Move, one_move


class FixKind(str, Enum):
    """The four edits of a response (see the module docstring)."""

    LINK = "link"
    SPLIT = "split"
    ADD = "add"
    REMOVE = "remove"


@dataclass(frozen=True)
class Fix:
    """An edit of the response; `target` (the antecedent to link to) for LINK only."""

    kind: FixKind
    mention: Span
    target: Span | None = None

    def __post_init__(self) -> None:
        # a kind's name ("link") is accepted and checked here: an unknown kind fails at once
        # (a FixKind, as every fix of a record has, is taken as it is: a corpus makes 50,000)
        if type(self.kind) is not FixKind:
            object.__setattr__(self, "kind", FixKind(self.kind))


FIX_KINDS: dict[Category, FixKind] = {
    Category.FALSE_NEW: FixKind.LINK, Category.WRONG_LINK: FixKind.LINK, Category.SUBOPTIMAL_LINK: FixKind.LINK,
    Category.FALSE_ANAPHORIC: FixKind.SPLIT, Category.MISSING_MENTION: FixKind.ADD,
    Category.SPURIOUS_MENTION: FixKind.REMOVE,
}
"""The edit that removes an error of each category (the module docstring); a LINK links the
mention to its best key antecedent."""


def fix_of(record: ErrorRecord) -> Fix:
    """The fix that removes an error (see the module docstring)."""
    kind = FIX_KINDS[record.category]
    if kind is FixKind.LINK:
        assert record.best_antecedent is not None
        return Fix(kind, record.span, record.best_antecedent.span)
    return Fix(kind, record.span)


def fixes_of_columns(columns: ErrorColumns) -> list[Fix]:
    """`fix_of` of each row of error columns, read from the columns (no record made per row)."""
    kinds = [FIX_KINDS[c] for c in CATEGORIES]
    best = columns.best_antecedent
    out = []
    for c, start, end, best_start, best_end in zip(columns.category.tolist(), columns.mention.start.tolist(),
                                                   columns.mention.end.tolist(), best.start.tolist(), best.end.tolist()):
        kind = kinds[c]
        if kind is FixKind.LINK:
            assert best_start != ABSENT
            out.append(Fix(kind, (start, end), (best_start, best_end)))
        else:
            out.append(Fix(kind, (start, end)))
    return out


class FixBase:
    """What every fix of one document needs, computed once: key chain of each span, and the
    response's chains with each span's owning chain and the chains listing it.

    Pricing every error of a document applies hundreds of single fixes to the same response; each
    then costs a few dictionary look-ups instead of a pass over the document.
    """

    def __init__(self, key: Document, response: Document,
                 views: tuple[ChainView | DocumentChains, ChainView | DocumentChains] | None = None) -> None:
        """`views`: the key's and the response's chains as their views give them, when found for
        many documents at once (`fix_bases`); else made here."""
        self.key = key
        self.response = response
        kv, rv = views if views is not None else (key_view(key), response_view(response))
        self.key_chain_of = kv.chain_of
        self.key_members = kv.chains
        self.chains: list[list[Span]] = response.chains
        """The response's own chains, read and never changed (an `Edit` holds what fixes change):
        a copy of each cost a fifth of making the bases of a corpus."""
        self.labels = list(rv.labels)
        self.used_labels = set(self.labels)
        self.chain_of: dict[Span, int] = rv.chain_of
        self.clean = sum(map(len, self.chains)) == len(self.chain_of)
        """Every response span listed once: a chain's members are then its spans, and a fix can
        count and search them without a pass over the chain (`_Editable`)."""

    # Made when a fix is first applied as an edit (`edit_chains`): a clean document priced by its
    # counts alone (`single_fix_counts`, `fix_counts`) never needs them.
    @cached_property
    def copies(self) -> dict[Span, tuple[int, ...]]:
        """The response chains listing each span (more than one when the response repeats it)."""
        return self.response.chains_listing()

    @cached_property
    def repeated(self) -> frozenset[Span]:
        """The spans the response lists in more than one chain (`Edit.response_key`)."""
        return frozenset(span for span, chains in self.copies.items() if len(chains) > 1)

    @cached_property
    def position(self) -> dict[Span, int]:
        """Each span's place in its chain (clean responses only: `_Editable._key_share`)."""
        return {span: i for chain in self.chains for i, span in enumerate(chain)} if self.clean else {}


def fix_bases(pairs: Sequence) -> list[FixBase]:
    """The `FixBase` of each pair (`corpus.scoring.DocPair`: its key and response), their chain
    views found for all pairs at once (`chains.document_chains`)."""
    keys, responses = [pair.key for pair in pairs], [pair.response for pair in pairs]
    views = zip(document_chains(keys, KEY_KEEPS_LAST), document_chains(responses, RESPONSE_KEEPS_LAST))
    return [FixBase(key, response, both) for key, response, both in zip(keys, responses, views)]


@dataclass
class Edit:
    """The response's chains after some fixes: the original chains minus the spans fixes moved,
    plus what fixes put into them, in order; chains at index >= len(base.chains) are new.

    Chains are built on demand (`chain`), so a fix that moves two mentions out of a chain of
    thousands costs two look-ups, not a copy of the chain.  `moved` (span -> its chain now, None
    if removed) says which response the fixes make; `touched` lists the chains that differ from
    the original: what a rescoring must look at (metrics.errors.chen_ng.impact).
    """

    base: FixBase
    moved: dict[Span, int | None]
    added: dict[int, dict[Span, None]]
    new_labels: list[str]
    touched: set[int]
    dropped: set[int] = field(default_factory=set)
    """Chains dropped whole though their span stays listed elsewhere (`singletons.edit_without_singletons`)."""

    @property
    def n_chains(self) -> int:
        return len(self.base.chains) + len(self.new_labels)

    def chain(self, index: int) -> list[Span]:
        return list(self.listing(index))

    def listing(self, index: int) -> Iterator[Span]:
        """The spans chain `index` lists now, in order: its original ones not moved, then those
        put into it (none once dropped).  Read lazily: `lone_span` stops at a second span."""
        if index in self.dropped:
            return iter(())
        original = self.base.chains[index] if index < len(self.base.chains) else ()
        return chained((s for s in original if s not in self.moved), self.added.get(index, ()))

    def lone_span(self, index: int) -> Span | None:
        """The one distinct span chain `index` lists now, if it lists exactly one (a singleton)."""
        first = None
        for span in self.listing(index):
            if first is None:
                first = span
            elif span != first:
                return None
        return first

    def label(self, index: int) -> str:
        n = len(self.base.labels)
        return self.base.labels[index] if index < n else self.new_labels[index - n]

    def signature(self) -> tuple:
        """What identifies the response the edit makes (given its base): where each moved span is."""
        moves = tuple(sorted((span, -1 if index is None else index) for span, index in self.moved.items()))
        return (moves, tuple(sorted(self.dropped))) if self.dropped else moves

    def response_key(self) -> tuple:
        """What identifies the response the edit makes, exactly: two edits of one base with equal
        keys make the same chains (order and labels included).  Empty: the response as it was.

        Where the edit drops no chain and moves no span the response lists twice (every edit of a
        clean base), each span's place says the chains: the `signature`.  Otherwise different
        moves can leave the same chains (a chain emptied by moves, or dropped whole as a singleton
        by the rule; the other copies of a moved span leave with it), so the key is each changed
        chain as it now reads.  An edit of one kind never makes the response of an edit of the
        other: a response without a chain, or without a copy of a span listed twice, is made by
        dropping that chain or moving that span, so only such edits list chains."""
        if not self.dropped and (self.base.clean or self.base.repeated.isdisjoint(self.moved)):
            moves = self.signature()
            return ("moves", moves) if moves else ()
        n_base = len(self.base.chains)
        now = ((t, tuple(self.listing(t))) for t in sorted(self.touched))
        changed = tuple((t, self.label(t), spans) for t, spans in now
                        if spans != (tuple(self.base.chains[t]) if t < n_base else ()))
        return ("chains", changed) if changed else ()


class _Editable:
    """A response's chains being edited, as an `Edit` over a `FixBase` (nothing copied).

    Untouched chains stay exactly as the file had them (duplicates included), so that a fix changes
    the score by its own effect only; a span a fix moves loses all its other copies.
    """

    def __init__(self, base: FixBase) -> None:
        self.base = base
        self.key_chain_of = base.key_chain_of
        self.edit = Edit(base, {}, {}, [], set())
        self.moved = self.edit.moved
        self._sizes: dict[int, int] = {}
        """Members of each changed chain (clean responses only)."""
        self._next_label = 0

    def owner(self, span: Span) -> int | None:
        if span in self.moved:
            return self.moved[span]
        return self.base.chain_of.get(span)

    def _new_chain(self, spans: list[Span]) -> int:
        label = f"fix{self._next_label}"
        while label in self.base.used_labels:
            self._next_label += 1
            label = f"fix{self._next_label}"
        self._next_label += 1
        self.edit.new_labels.append(label)
        index = self.edit.n_chains - 1
        self._put(spans, index)
        return index

    def _put(self, spans: list[Span], index: int) -> None:
        into = self.edit.added.setdefault(index, {})
        for span in spans:
            into[span] = None
            self.moved[span] = index
        self.edit.touched.add(index)
        if self.base.clean:
            self._sizes[index] = self._size(index) + len(spans)

    def _take(self, spans: list[Span]) -> None:
        for span in spans:
            if span in self.moved:
                index = self.moved[span]
                held = (index,) if index is not None else ()
                if index is not None:
                    del self.edit.added[index][span]
            else:
                held = self.base.copies.get(span, ())
            self.moved[span] = None
            for index in held:
                self.edit.touched.add(index)
                if self.base.clean:
                    self._sizes[index] = self._size(index) - 1

    def _size(self, index: int) -> int:
        """How many spans a chain owns now."""
        if not self.base.clean:
            return len(self._members(index))
        if index in self._sizes:
            return self._sizes[index]
        return len(self.base.chains[index]) if index < len(self.base.chains) else 0

    def _key_share(self, span: Span) -> list[Span]:
        """P = S(span) ∩ K(span): the members of span's response chain in span's key chain, in
        the chain's order.  In a clean response, the smaller of the two chains is searched."""
        k = self.key_chain_of.get(span)
        if k is None:
            return [span]
        here = self.owner(span)
        assert here is not None
        key_chain = self.base.key_members[k]
        if self.base.clean and len(key_chain) < self._size(here):
            share = [s for s in key_chain if self.owner(s) == here]
            added = list(self.edit.added.get(here, ()))
            at = {s: i for i, s in enumerate(added)} if added else {}
            return sorted(share, key=lambda s: (1, at[s]) if s in self.moved else (0, self.base.position[s]))
        return [s for s in self._members(here) if self.key_chain_of.get(s) == k]

    def _members(self, index: int) -> list[Span]:
        """The spans a chain owns (each once; a duplicate owned by an earlier chain excluded)."""
        return [s for s in dict.fromkeys(self.edit.chain(index)) if self.owner(s) == index]

    def apply(self, fix: Fix) -> None:
        m = fix.mention
        here = self.owner(m)
        if fix.kind is FixKind.ADD:
            if here is None:
                self._new_chain([m])
        elif fix.kind is FixKind.REMOVE:
            if here is not None:
                self._take([m])
        elif fix.kind is FixKind.SPLIT:
            if here is not None:
                share = self._key_share(m)
                if len(share) < self._size(here):
                    self._take(share)
                    self._new_chain(share)
        elif fix.kind is FixKind.LINK:
            a = fix.target
            assert a is not None
            if here is not None:
                if self.owner(a) == here:
                    return
                share = self._key_share(m)
                self._take(share)
            else:
                share = [m]
            target = self.owner(a)
            if target is not None:
                self._put(share, target)
            else:
                self._new_chain(sorted([a] + [s for s in share if s != a]))


def edit_chains(base: FixBase, fixes: Iterable[Fix]) -> Edit:
    """Apply fixes, in the given order, to the chains of the base's response (not copied)."""
    editable = _Editable(base)
    for fix in fixes:
        editable.apply(fix)
    return editable.edit


def apply_fixes(key: Document, response: Document, fixes: Iterable[Fix]) -> Document:
    """A copy of `response` with the fixes applied in the given order (the input is not touched).

    Chains and spans a fix does not touch stay as they were (order and duplicates included); moved
    spans join the end of their new chain, new chains follow the old ones.
    """
    edit = edit_chains(FixBase(key, response), fixes)
    every = ((edit.chain(i), edit.label(i)) for i in range(edit.n_chains))
    kept = [(c, label) for c, label in every if c]
    return replace(response, chains=[c for c, _ in kept], labels=[label for _, label in kept])


def single_fix_counts(base: FixBase, fix: Fix, row_cells: list[dict[int, int]]) -> Counts | None:
    """The change one fix alone makes to the cells and chain sizes of a clean response (every span
    listed once on each side), as `metrics.errors.delta.changes` takes it; None when the
    fix changes nothing (`Edit.touched` empty).  `row_cells[k][t]` counts key chain k's mentions in
    response chain t.

    Why: pricing a corpus's fifty thousand errors applies each fix alone, and `edit_chains` lists
    the mentions a fix moves (a whole cell of a chain for a link) only for the delta table to count
    them again.  This is `_Editable.apply` for a clean response, counting instead of listing; the
    counts come in the order the moves list them, so every price is the same to the bit
    (tests/test_impact_fast.py checks both ways and the rescoring on random documents)."""
    moves = single_fix_moves(base, fix, row_cells)
    if moves is None:
        return None
    return one_move(*moves[0]) if len(moves) == 1 else tally(moves)


def single_fix_moves(base: FixBase, fix: Fix, row_cells: list[dict[int, int]]) -> list[Move] | None:
    """The moves one fix alone makes in a clean response, in order (`single_fix_counts` is their
    `tally`); None when it changes nothing.  Nearly every fix is one move (two: a link of a
    mention in a chain to a mention in none, or of two mentions in none), which the pricer lays
    out as arrays without counts (`move_rows`)."""
    m = fix.mention
    key_of, chain_of = base.key_chain_of, base.chain_of
    k = key_of.get(m)
    here = chain_of.get(m)
    new = len(base.chains)  # the first chain a fix makes
    kind = fix.kind
    if kind is FixKind.ADD:
        if here is not None:
            return None
        return [(k, None, new, 1)]
    if kind is FixKind.REMOVE:
        if here is None:
            return None
        return [(k, here, None, 1)]
    if kind is FixKind.SPLIT:
        if here is None:
            return None
        share = 1 if k is None else row_cells[k][here]
        if share >= len(base.chains[here]):
            return None
        return [(k, here, new, share)]
    a = fix.target
    assert a is not None
    target = chain_of.get(a)
    if here is not None:
        if target == here:
            return None
        share = 1 if k is None else row_cells[k][here]
    else:
        share = 1
    if target is not None:
        return [(k, here, target, share)]
    if here is not None:  # the share leaves, then a new chain gathers a and the share
        return [(k, here, new, share), (key_of.get(a), None, new, 1)]
    return [(key_of.get(span), None, new, 1) for span in sorted({a, m})]  # a new chain of m and a


class ChainComponents:
    """The connected components of a document's chains before any fix: key and response chains are
    connected when they list a common span (a key chain and a response chain holding the same
    span; two chains of one side listing the same span).

    Why: `reach` searched, for every fix it priced, every chain of the part the fix reaches, span
    by span; a book's category reaches most of its chains.  Found once, the components give that
    part by look-up (`reach`)."""

    def __init__(self, n_key_chains: int, n_response_chains: int, key_chains_of: dict[Span, tuple[int, ...]],
                 response_chains_of: dict[Span, tuple[int, ...]]) -> None:
        self.n_key = n_key_chains
        first: list[int] = []  # each chain listing a span is joined to the first chain listing it
        other: list[int] = []
        for span, chains in response_chains_of.items():
            nodes = [*key_chains_of.get(span, ()), *(n_key_chains + r for r in chains)]
            first.extend(nodes[:1] * (len(nodes) - 1))
            other.extend(nodes[1:])
        for span, keys in key_chains_of.items():
            first.extend(keys[:1] * (len(keys) - 1))
            other.extend(keys[1:])
        self.root = least_members(n_key_chains + n_response_chains, first, other).tolist()
        """The component of each chain, named by its least node: key chain k is node k, response
        chain r node n_key + r."""
        self.keys: dict[int, list[int]] = {}
        self.responses: dict[int, list[int]] = {}
        for k in range(n_key_chains):
            self.keys.setdefault(self.root[k], []).append(k)
        for r in range(n_response_chains):
            self.responses.setdefault(self.root[n_key_chains + r], []).append(r)


def reach(edit: Edit, components: ChainComponents, key_chains_of: dict[Span, tuple[int, ...]],
          response_chains_of: dict[Span, tuple[int, ...]]) -> tuple[list[int], list[int]]:
    """Key and response chains connected to the chains an edit touched, before or after it (what
    rescoring a fix looks at: metrics.errors.chen_ng.impact), given the components of the chains
    before any edit and the chains listing each span on either side.

    Chains are connected when they share a span.  Untouched chains are the same before and after,
    so every connection an edit makes starts at a chain it touched: the part is the components
    (before the edit) of the touched chains and of every chain listing a span of a touched chain
    as it is after the edit."""
    n_orig = len(edit.base.chains)
    n_key, root = components.n_key, components.root
    roots: set[int] = set()
    new_chains: list[int] = []
    for r in edit.touched:
        if r < n_orig:
            roots.add(root[n_key + r])
        else:
            new_chains.append(r)
        for span in edit.added.get(r, ()):  # its other spans were in it before: in its component
            for k in key_chains_of.get(span, ()):
                roots.add(root[k])
            for other in response_chains_of.get(span, ()):
                roots.add(root[n_key + other])
    keys = sorted(k for c in roots for k in components.keys.get(c, ()))
    responses = sorted([r for c in roots for r in components.responses.get(c, ())] + new_chains)
    return keys, responses

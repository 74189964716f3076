"""One side's chains as the per-mention analyses read them, under v8.01's keep rule.

The official scorer (v8.01) treats a span listed twice in one file in one way for each side, and
every analysis that looks at single mentions (the error categories, the fixes, Tuggener's metrics,
the workbench's chain view) follows the same rule:

- a KEY span in several key chains belongs to the LAST of them (v8.01 attributes it there);
- a RESPONSE span in several response chains belongs to the FIRST (v8.01 keeps that copy and
  drops the later ones when the span matches a key span).

`metrics.mentions.alignment` applies the same rule while it assigns mention ids (in a faster form that also
keeps what v8.01 counts twice); this module states it for the per-mention views.  A `DocPair`
builds its two views once and every analysis of that pair shares them.

Why arrays: Tuggener's metrics read every mention of every document, and a book has a hundred
thousand of them; so a view is made as arrays (its members, chains in file order and each in
document order: their span codes, chains and positions), and the dictionaries the error analyses
look spans up in are made from them when first asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from itertools import chain as chained
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from metrics.model import Document, Span, StoredFields

if TYPE_CHECKING:  # named in an annotation only
    from metrics.mentions.types_arrays import TokenArrays

KEY_KEEPS_LAST = True
"""v8.01: a key span listed in several key chains counts in the last one."""
RESPONSE_KEEPS_LAST = False
"""v8.01: a response span listed in several response chains counts in the first one."""

CODE_BASE = 1 << 32
"""A span (start, end) as one integer, start * CODE_BASE + end: codes sort as spans do and two sides'
spans compare as integers (token indices are below 2**31)."""


class TypedArrays(NamedTuple):
    """Every document's mentions typed ahead (`Document.rule_types`) as arrays, as the cache of
    read files stores them: each typed span's first and last tokens and its type, document after
    document, in the order of each document's dict, with the dicts made from them."""

    first: np.ndarray
    last: np.ndarray
    kinds: np.ndarray
    """Each typed span's `MentionType` (int64)."""
    starts: np.ndarray
    """Where each document's typed spans start, and the end (documents + 1 values)."""
    present: np.ndarray
    """Whether each document has its mentions typed ahead (its `rule_types` is not None); one whose
    `rule_types` is not what the cache stored (`Document.holds_stored`) is not described here."""


class MentionArrays(NamedTuple):
    """A file's documents' mentions as arrays, as the cache of read files stores them
    (`metrics.formats.packed`), with the lists made from them: what array work over many
    documents' chains reads instead of walking the lists (`laid_chains`).  A document holds
    (these, its place) in `Document.mention_arrays`."""

    first: np.ndarray
    """Each span's first token, document after document, chain after chain (int64)."""
    last: np.ndarray
    """Each span's last token."""
    sizes: np.ndarray
    """Each chain's number of spans, document after document (int64)."""
    chain_starts: np.ndarray
    """Where each document's chains start in `sizes`, and the end (documents + 1 values)."""
    span_starts: np.ndarray
    """Where each document's spans start in `first` and `last`, and the end."""
    stored: StoredFields
    """The file's fields as the cache stored them: a document whose `chains` is not what it stored
    (`Document.holds_stored`: replaced, or made otherwise) is not described by these arrays."""
    typed: TypedArrays | None = None
    """The documents' mentions typed ahead, when the file's entry holds them as a column."""
    tokens: TokenArrays | None = None
    """The documents' words, tags, lemmas and parse heads, when the file's entry holds them as
    columns (what typing the mentions their own types lack reads)."""


def laid_chains(docs: Sequence[Document]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """The documents' chains laid end to end, from the arrays their file's documents hold (the
    cache of read files keeps them, the CoNLL-2012 reader makes them): (each span's first and
    last tokens, each chain's size, each document's number of spans and of chains), or None when
    a document does not hold them (another format's, or its chains replaced) or they come from
    several files' arrays.  The same values, in the same order, as
    walking the chains (which are not made: `Document.holds_stored`)."""
    held = [doc.mention_arrays for doc in docs]
    if not held or any(found is None for found in held):
        return None
    arrays: MentionArrays = held[0][0]
    stored, holds = arrays.stored, Document.holds_stored
    for found, doc in zip(held, docs):  # (a loop, not a generator: 20,000 tiny documents are checked)
        if found[0] is not arrays or not holds(doc, "chains", stored, found[1]):
            return None
    places = np.fromiter((found[1] for found in held), dtype=np.int64, count=len(held))
    if len(places) == len(arrays.chain_starts) - 1 and (places == np.arange(len(places))).all():  # the whole file, in order
        return arrays.first, arrays.last, arrays.sizes, np.diff(arrays.span_starts), np.diff(arrays.chain_starts)
    spans = ranges(arrays.span_starts[places], arrays.span_starts[places + 1])
    chains = ranges(arrays.chain_starts[places], arrays.chain_starts[places + 1])
    return (arrays.first[spans], arrays.last[spans], arrays.sizes[chains],
            arrays.span_starts[places + 1] - arrays.span_starts[places],
            arrays.chain_starts[places + 1] - arrays.chain_starts[places])


def ranges(starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The indices of the ranges starts[i]:ends[i], one range after another (to gather many
    documents' parts of arrays laid end to end in one indexing)."""
    lengths = ends - starts
    return np.arange(int(lengths.sum()), dtype=np.int64) + np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)


def token_offsets(span_doc: np.ndarray, last_tokens: np.ndarray, n: int) -> np.ndarray:
    """Where each of n documents starts when their tokens are laid end to end (`joined_view`),
    each as wide as its last token any span names, plus one (`last_tokens`: a token of each span,
    its document `span_doc`): one definition for every reader of documents laid end to end."""
    widths = np.zeros(n, dtype=np.int64)
    np.maximum.at(widths, span_doc, last_tokens + 1)
    return np.concatenate(([0], np.cumsum(widths)[:-1])).astype(np.int64)


def span_codes(spans: list[Span]) -> np.ndarray:
    """The code of each span (`CODE_BASE`), in order."""
    flat = np.fromiter(chained.from_iterable(spans), dtype=np.int64, count=2 * len(spans))
    return flat[0::2] * CODE_BASE + flat[1::2]


def code_spans(codes: np.ndarray) -> list[Span]:
    """The spans of codes (the inverse of `span_codes`)."""
    return list(zip((codes // CODE_BASE).tolist(), (codes % CODE_BASE).tolist()))


class ChainView:
    """One side's chains with each span once, chains sorted in document order.

    The members of all chains are laid end to end (chains in file order, each in document order):
    `codes`, `member_chain` and `member_position` hold one entry per member, `bounds[c]:bounds[c + 1]`
    are chain c's members.  `chains`, `chain_of` and `position` are the same as Python objects.
    """

    def __init__(self, codes: np.ndarray, member_chain: np.ndarray, n_chains: int, labels: list[str]) -> None:
        self.codes = codes
        """Span code of each member (`CODE_BASE`)."""
        self.member_chain = member_chain
        """Chain index of each member (nondecreasing)."""
        self.sizes = np.bincount(member_chain, minlength=n_chains)
        """Members of each chain."""
        self.bounds = np.concatenate(([0], np.cumsum(self.sizes)))
        """Chain c's members are bounds[c]:bounds[c + 1]."""
        self.member_position = np.arange(len(codes)) - self.bounds[member_chain]
        """Index of each member within its chain: 0 for the first mention."""
        self.labels = labels

    def find(self, codes: np.ndarray) -> np.ndarray:
        """The member holding each span code, -1 where this side has no such span."""
        order = self._sorted
        if not len(order):
            return np.full(len(codes), -1, dtype=np.int64)
        where = np.searchsorted(self.codes[order], codes).clip(max=len(order) - 1)
        found = order[where]
        return np.where(self.codes[found] == codes, found, -1)

    @cached_property
    def _sorted(self) -> np.ndarray:
        return np.argsort(self.codes, kind="stable")

    @cached_property
    def spans(self) -> list[Span]:
        """Each member's span, in member order."""
        return code_spans(self.codes)

    @cached_property
    def chains(self) -> list[list[Span]]:
        """Chains in file order, each sorted in document order, each span in exactly one chain."""
        spans, bounds = self.spans, self.bounds.tolist()
        return [spans[bounds[c]:bounds[c + 1]] for c in range(len(bounds) - 1)]

    @cached_property
    def chain_of(self) -> dict[Span, int]:
        return dict(zip(self.spans, self.member_chain.tolist()))

    @cached_property
    def position(self) -> dict[Span, int]:
        """Index of a span within its (sorted) chain: 0 for the first mention."""
        return dict(zip(self.spans, self.member_position.tolist()))


def chain_view(doc: Document, keep_last: bool) -> ChainView:
    """Deduplicated, sorted chains of a document: a repeated span stays in the first chain listing
    it, or in the last with `keep_last`."""
    return joined_view([doc], np.zeros(1, dtype=np.int64), keep_last, list(doc.chain_labels()))


def joined_view(docs: list[Document], token_offset: np.ndarray, keep_last: bool, labels: list[str] | None = None
                ) -> ChainView:
    """`chain_view` of many documents at once, as one view: document d's spans shifted past
    `token_offset[d]` tokens (so documents' spans never meet and keep their order), its chains
    numbered after those of the documents before it.  The offsets must leave room for each
    document's spans."""
    laid = laid_chains(docs)
    if laid is not None:  # as the cache of read files keeps them
        first, last, sizes, spans_per_doc, _ = laid
        codes = first * CODE_BASE + last
    else:
        sizes = np.array([len(chain) for doc in docs for chain in doc.chains], dtype=np.int64)
        spans_per_doc = [sum(map(len, doc.chains)) for doc in docs]
        codes = span_codes(list(chained.from_iterable(chained.from_iterable(doc.chains for doc in docs))))
    codes += np.repeat(token_offset * (CODE_BASE + 1), spans_per_doc)  # (start, end) -> (start + o, end + o)
    listed_in = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
    if keep_last:  # the last listing of each span: the first of the reversed listings
        _, last = np.unique(codes[::-1], return_index=True)
        kept = len(codes) - 1 - last
    else:
        _, kept = np.unique(codes, return_index=True)
    codes, listed_in = codes[kept], listed_in[kept]
    order = np.lexsort((codes, listed_in))
    return ChainView(codes[order], listed_in[order], len(sizes), labels or [])


def key_view(key: Document) -> ChainView:
    return chain_view(key, keep_last=KEY_KEEPS_LAST)


def response_view(response: Document) -> ChainView:
    return chain_view(response, keep_last=RESPONSE_KEEPS_LAST)


class DocumentChains(NamedTuple):
    """What a `ChainView` of one document gives as Python objects (`chains`, `chain_of`,
    `labels`), cut out of a view of many documents (`document_chains`)."""

    chains: list[list[Span]]
    chain_of: dict[Span, int]
    labels: list[str]


def document_chains(docs: Sequence[Document], keep_last: bool) -> list[DocumentChains]:
    """Each document's `chain_view` chains, span chains and labels, from one view of all of them
    (`joined_view`): pricing a corpus's errors made a view per document per side, two dozen numpy
    calls each, for three hundred documents; here a side costs numpy's calls once, and each
    document's lists and dictionary are slices of one list."""
    n = len(docs)
    if not n:
        return []
    laid = laid_chains(docs)
    if laid is not None:
        first, last, _, spans_per_doc, _ = laid
        token_offset = token_offsets(np.repeat(np.arange(n), spans_per_doc), np.maximum(first, last), n)
    else:
        widths = np.fromiter((max((max(span) for chain in doc.chains for span in chain), default=-1) + 1
                              for doc in docs), dtype=np.int64, count=n)
        token_offset = np.concatenate(([0], np.cumsum(widths)[:-1])).astype(np.int64)
    labels = [label for doc in docs for label in doc.chain_labels()]
    view = joined_view(list(docs), token_offset, keep_last, labels)
    chain_starts = np.concatenate(([0], np.cumsum([len(doc.chains) for doc in docs]))).astype(np.int64)
    chain_doc = np.repeat(np.arange(n), np.diff(chain_starts))
    member_doc = chain_doc[view.member_chain]
    spans = code_spans(view.codes - token_offset[member_doc] * (CODE_BASE + 1))
    local_chain = (view.member_chain - chain_starts[member_doc]).tolist()
    bounds, starts = view.bounds.tolist(), chain_starts.tolist()
    found = []
    for d in range(n):
        low, high = starts[d], starts[d + 1]
        members = slice(bounds[low], bounds[high])
        found.append(DocumentChains([spans[bounds[c]:bounds[c + 1]] for c in range(low, high)],
                                    dict(zip(spans[members], local_chain[members])), labels[low:high]))
    return found

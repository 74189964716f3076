"""Mention identification between a key and a response document, as v8.01's IdentifMentions does it.

Every distinct span gets an integer id; key chains and response chains become lists of ids.
The official scorer's rules, mirrored because published numbers depend on them:
- A span in two key chains keeps one id in both (the scorer's numbers are then ill-defined: warned).
- A response span equal to a key span, seen again later (in any chain, chains in file order), is
  dropped; chains emptied by that are dropped too.
- A response span matching no key span ("twinless") seen twice keeps the same id in both places:
  it counts twice in mention totals and links with itself in BLANC.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
import itertools
from operator import is_
from typing import Generic, NamedTuple, TypeVar

import numpy as np

from metrics.mentions.chains import laid_chains, ranges
from metrics.model import Document, Span

T = TypeVar("T")


@dataclass
class Alignment:
    """Key and response chains over shared mention ids (ids are dense: 0 .. len(spans)-1)."""

    spans: list[Span]
    """The span of each id; key ids come first (0 .. n_key_ids-1), then twinless response ids."""
    n_key_ids: int
    key_chains: list[list[int]]
    response_chains: list[list[int]]
    response_chain_source: list[int]
    """For each kept response chain, its index in the response document's `chains`."""
    matched: int
    """Distinct key spans also in the response (v8.01 'exact' count)."""
    response_spans: int
    """Distinct response spans after duplicate removal (v8.01 precision denominator of mentions)."""
    removed_duplicates: list[tuple[Span, str, str]] = field(default_factory=list)
    """(span, chain label dropped from, chain label kept in) for key-matching response duplicates."""
    twinless_duplicates: list[tuple[Span, list[str]]] = field(default_factory=list)
    key_duplicates: list[tuple[Span, list[str]]] = field(default_factory=list)
    laid: tuple[AlignedArrays, int] | None = field(default=None, compare=False, repr=False)
    """The alignments this one was computed with, as arrays, and its place among them (`align_all`
    of documents whose chains the cache of read files keeps as arrays; `laid_alignments`)."""

    @classmethod
    def chains_later(cls, n_key_ids: int, response_chain_source: list[int], matched: int,
                     response_spans: int) -> Alignment:
        """An alignment whose `spans`, `key_chains` and `response_chains` are made from its `laid`
        arrays when first read (`laid` is set before).  Why: a corpus's alignments computed
        together are read as arrays by the scores; their lists (100,000 spans and 70,000 chains
        of ids on the corpus) are made only for what reads them (a table made alone, the error
        analyses, the workbench)."""
        alignment = cls.__new__(cls)
        alignment.__dict__.update(n_key_ids=n_key_ids, response_chain_source=response_chain_source,
                                  matched=matched, response_spans=response_spans, removed_duplicates=[],
                                  twinless_duplicates=[], key_duplicates=[], laid=None)
        return alignment

    def __getattr__(self, name: str) -> list:  # only for lists not made yet (`chains_later`)
        laid = self.__dict__.get("laid")
        if name not in ("spans", "key_chains", "response_chains") or laid is None:
            raise AttributeError(name)
        value = laid[0].spans(laid[1]) if name == "spans" else laid[0].chains(laid[1], key=name == "key_chains")
        self.__dict__[name] = value
        return value

    @property
    def n_ids(self) -> int:
        """How many mention ids there are (`len(spans)`), the spans not made for it."""
        spans = self.__dict__.get("spans")
        if spans is not None:
            return len(spans)
        arrays, place = self.__dict__["laid"]
        return int(arrays.id_starts[place + 1] - arrays.id_starts[place])


class AlignedArrays(NamedTuple):
    """Many documents' alignments laid end to end, document after document (`align_all`): what
    array work over all of them reads (the tables, mention types, Tuggener's metrics) instead of
    walking their lists.  The same values as the lists, in their order (tests/test_align_all.py)."""

    alignments: list[Alignment]
    """The alignments described, in order: one whose place here holds another is not described."""
    first: np.ndarray
    """The first token of each mention id's span (`Alignment.spans`), document after document."""
    last: np.ndarray
    id_starts: np.ndarray
    """Where each document's ids start in `first` and `last`, and the end (documents + 1 values)."""
    key_ids: np.ndarray
    """The ids of every key chain (`Alignment.key_chains`), chain after chain, document after document."""
    key_id_starts: np.ndarray
    key_sizes: np.ndarray
    """Each key chain's number of ids."""
    key_chain_starts: np.ndarray
    response_ids: np.ndarray
    """The ids of every response chain (`Alignment.response_chains`), likewise."""
    response_id_starts: np.ndarray
    response_sizes: np.ndarray
    response_chain_starts: np.ndarray

    def spans(self, place: int) -> list[Span]:
        """The spans of the ids of the alignment at this place."""
        start, end = self.id_starts[place], self.id_starts[place + 1]
        return list(zip(self.first[start:end].tolist(), self.last[start:end].tolist()))

    def chains(self, place: int, key: bool) -> list[list[int]]:
        """The key (or response) chains of the alignment at this place, as lists of ids."""
        ids, id_starts, sizes, chain_starts = (self.key_ids, self.key_id_starts, self.key_sizes, self.key_chain_starts) \
            if key else (self.response_ids, self.response_id_starts, self.response_sizes, self.response_chain_starts)
        return _cut(ids[id_starts[place]:id_starts[place + 1]].tolist(),
                    sizes[chain_starts[place]:chain_starts[place + 1]])

    def taken(self, places: np.ndarray) -> AlignedArrays:
        """The arrays of the alignments at these places, in this order."""
        def gather(values: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            return values[ranges(starts[places], starts[places + 1])], _starts(starts[places + 1] - starts[places])

        spans, id_starts = gather(np.stack([self.first, self.last]).T, self.id_starts)
        return AlignedArrays([self.alignments[i] for i in places.tolist()], spans[:, 0].copy(), spans[:, 1].copy(),
                             id_starts, *gather(self.key_ids, self.key_id_starts),
                             *gather(self.key_sizes, self.key_chain_starts),
                             *gather(self.response_ids, self.response_id_starts),
                             *gather(self.response_sizes, self.response_chain_starts))


def laid_alignments(alignments: Sequence[Alignment]) -> AlignedArrays | None:
    """The arrays of these alignments laid end to end, in their order, when `align_all` computed
    them all together (else None: their lists are to be walked)."""
    if not alignments:
        return None
    held = [alignment.laid for alignment in alignments]
    if held[0] is None:
        return None
    arrays = held[0][0]
    if any(found is None or found[0] is not arrays or arrays.alignments[found[1]] is not alignment
           for found, alignment in zip(held, alignments)):
        return None
    if len(alignments) == len(arrays.alignments) and all(map(is_, alignments, arrays.alignments)):
        return arrays
    return arrays.taken(np.fromiter((found[1] for found in held), dtype=np.int64, count=len(held)))


def _starts(lengths: np.ndarray) -> np.ndarray:
    """Where each of consecutive groups of these lengths starts, and the end of the last."""
    return np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(lengths, dtype=np.int64)])


def align(key: Document, response: Document) -> Alignment:
    """Assign mention ids and build id chains exactly as v8.01 does.

    One pass over each side, dictionary look-ups only: this runs for every document of every
    request, so the rare cases (repeated spans) are only noted in the pass and explained after it.
    """
    key_id: dict[Span, int] = {}
    new_id = key_id.setdefault
    key_chains = [[new_id(span, len(key_id)) for span in chain] for chain in key.chains]
    n_key_ids = len(key_id)
    key_duplicates: list[tuple[Span, list[str]]] = []
    if sum(map(len, key_chains)) != n_key_ids:
        key_duplicates = sorted(_repeated(key.chains, key.chain_labels()))

    # Response: v8.01's rule for a span listed twice (`RepeatedSpans`); a twinless span keeps one
    # id wherever it appears.  Chains emptied by dropping disappear.
    twinless_id: dict[Span, int] = {}

    def twinless_of(span: Span) -> int:  # one id per span, past the key's
        return twinless_id.setdefault(span, n_key_ids + len(twinless_id))

    rule = RepeatedSpans(key_id.get, twinless_of)
    kept_in, removed_at = rule.kept_in, rule.dropped
    listings = 0
    response_chains: list[list[int]] = []
    kept_source: list[int] = []
    for index, chain in enumerate(response.chains):
        ids = rule.kept(chain, index)
        listings += len(ids)
        if ids:
            response_chains.append(ids)
            kept_source.append(index)

    twinless_repeated = listings - len(kept_in) != len(twinless_id)  # twinless listings against spans
    resp_labels = response.chain_labels() if removed_at or twinless_repeated else []
    removed = [(span, resp_labels[index], resp_labels[kept_in[span]]) for span, index in removed_at]
    twinless_duplicates: list[tuple[Span, list[str]]] = []
    if twinless_repeated:
        twinless_duplicates = [item for item in _repeated(response.chains, resp_labels, set(key_id))
                               if len(item[1]) > 1]
    return Alignment(
        spans=list(key_id) + list(twinless_id), n_key_ids=n_key_ids, key_chains=key_chains,
        response_chains=response_chains, response_chain_source=kept_source, matched=len(kept_in),
        response_spans=len(kept_in) + len(twinless_id), removed_duplicates=removed,
        twinless_duplicates=twinless_duplicates, key_duplicates=key_duplicates,
    )


class RepeatedSpans(Generic[T]):
    """v8.01's rule for a response span listed twice, applied chain by chain in file order: a span
    with a key id (`key_of`) met again, in its chain or an earlier one, is dropped; a span with
    none (twinless) is kept at every place.

    The one definition of the rule: `align` numbers the mentions by it, and the rescoring's counted
    tables (`chen_ng/counted_parts.py`) count a part's cells by it."""

    def __init__(self, key_of: Callable[[Span], int | None], twinless_of: Callable[[Span], T]) -> None:
        self.key_of = key_of
        self.twinless_of = twinless_of
        """What a twinless span is kept as (`align`: its id)."""
        self.kept_in: dict[Span, int] = {}
        """Each key-matching span kept -> the index of the chain that kept it."""
        self.dropped: list[tuple[Span, int]] = []
        """Each key-matching span dropped, with the index of the chain it was dropped from."""

    def kept(self, chain: Sequence[Span], index: int) -> list[int | T]:
        """For each span of this chain (the `index`-th) kept, in order: its key id or, twinless,
        `twinless_of(span)`."""
        key_of, twinless_of, kept_in = self.key_of, self.twinless_of, self.kept_in
        ids: list[int | T] = []
        for span in chain:
            mid = key_of(span)
            if mid is None:
                ids.append(twinless_of(span))
                continue
            if span in kept_in:
                self.dropped.append((span, index))
                continue
            kept_in[span] = index
            ids.append(mid)
        return ids


SMALL_DOCUMENT = 64
"""Pairs of documents of at most this many tokens are aligned together (`align_all`): for a
few mentions `align`'s set-up per pair costs more than they do; for many its dictionaries are
faster than the arrays."""


def align_all(keys: Sequence[Document], responses: Sequence[Document]) -> list[Alignment]:
    """`align` of each key document with its response, equal to it field for field; the small
    pairs' (`SMALL_DOCUMENT`) computed all at once.

    Why: a corpus of 20,000 tiny documents paid `align`'s set-up (its dictionaries, its passes,
    a call) per document, more than its mentions cost.  Here every small pair's spans are coded
    as one number each (document, first token, last token), the response's looked up among the
    key's by one sorted search, and each pair's ids and chains cut from the arrays.  A pair with
    a span listed twice on either side, an empty chain, or spans the codes cannot hold is aligned
    by `align` itself (v8.01's rules for repeated spans, which only it applies)."""
    if len(keys) > 1:
        key_side, response_side = _laid_arrays(keys), _laid_arrays(responses)
        if key_side is not None and response_side is not None:  # as the cache keeps them: all at once
            return _aligned_together(keys, responses, key_side, response_side, laid=True)
    small = [len(key.words) <= SMALL_DOCUMENT for key in keys]
    if sum(small) < 2:
        return [align(key, response) for key, response in zip(keys, responses)]
    together = iter(_aligned_together([key for key, here in zip(keys, small) if here],
                                      [response for response, here in zip(responses, small) if here]))
    return [next(together) if here else align(key, response) for key, response, here in zip(keys, responses, small)]


def _aligned_together(keys: Sequence[Document], responses: Sequence[Document], key_side: _Laid | None = None,
                      response_side: _Laid | None = None, laid: bool = False) -> list[Alignment]:
    """`align` of each pair, computed at once (`align_all`), from each side's spans laid end to
    end when given; with `laid`, each alignment holds the arrays of all (`AlignedArrays`)."""
    if key_side is None or response_side is None:
        key_side, response_side = _laid(keys), _laid(responses)
    if key_side is None or response_side is None:
        return [align(key, response) for key, response in zip(keys, responses)]
    key_doc, key_bounds, key_spans, key_sizes, key_counts = key_side
    response_doc, response_bounds, response_spans, response_sizes, response_counts = response_side
    n = len(keys)
    bounds = np.concatenate([key_bounds, response_bounds])
    width = int(bounds.max()) + 1 if len(bounds) else 1
    if len(bounds) and (int(bounds.min()) < 0 or n * width * width >= 2 ** 62):
        return [align(key, response) for key, response in zip(keys, responses)]
    key_codes = (key_doc * width + key_bounds[:, 0]) * width + key_bounds[:, 1]
    response_codes = (response_doc * width + response_bounds[:, 0]) * width + response_bounds[:, 1]
    own = np.ones(n, dtype=bool)  # the pairs aligned here (the others by `align`)
    for codes, doc, sizes, counts in ((key_codes, key_doc, key_sizes, key_counts),
                                      (response_codes, response_doc, response_sizes, response_counts)):
        order = np.argsort(codes, kind="stable")
        own[doc[order[1:][codes[order][1:] == codes[order][:-1]]]] = False  # a span listed twice
        own[np.repeat(np.arange(n), counts)[sizes == 0]] = False  # an empty chain
    # each response span's key id (its place among its document's key spans) or, twinless, an id
    # past the key's in order of its (only) listing in its document
    key_mentions = np.bincount(key_doc, minlength=n)
    key_ends = np.cumsum(key_mentions)
    key_starts = key_ends - key_mentions
    found = np.zeros(len(response_codes), dtype=bool)
    hit = np.zeros(len(response_codes), dtype=np.int64)
    if len(key_codes):
        order = np.argsort(key_codes, kind="stable")
        place = np.minimum(np.searchsorted(key_codes[order], response_codes), len(key_codes) - 1)
        hit = order[place]
        found = key_codes[hit] == response_codes
    twinless = ~found
    twinless_count = np.bincount(response_doc[twinless], minlength=n)
    twinless_ends = np.cumsum(twinless_count)
    twinless_starts = twinless_ends - twinless_count
    twinless_rank = np.cumsum(twinless) - twinless - twinless_starts[response_doc]
    ids = np.where(found, hit - key_starts[response_doc], key_mentions[response_doc] + twinless_rank)
    key_ids = np.arange(len(key_codes)) - key_starts[key_doc]
    if not laid:  # (else made from the arrays when first read)
        key_chains = _cut(_cut(key_ids.tolist(), key_sizes), key_counts)
        response_chains = _cut(_cut(ids.tolist(), response_sizes), response_counts)
    if not laid:
        twinless_spans = [response_spans[i] for i in np.flatnonzero(twinless).tolist()]
    matched = np.bincount(response_doc[found], minlength=n).tolist()
    response_mentions = np.bincount(response_doc, minlength=n).tolist()
    response_chains_of = response_counts.tolist()
    out: list[Alignment] = []
    for d, (key, response, aligned_here, key_start, key_end, twinless_start, twinless_end) in enumerate(zip(
            keys, responses, own.tolist(), key_starts.tolist(), key_ends.tolist(), twinless_starts.tolist(),
            twinless_ends.tolist())):
        if not aligned_here:
            out.append(align(key, response))
            continue
        if laid:
            out.append(Alignment.chains_later(key_end - key_start, list(range(response_chains_of[d])), matched[d],
                                              response_mentions[d]))
            continue
        spans = key_spans[key_start:key_end] + twinless_spans[twinless_start:twinless_end]
        out.append(Alignment(spans=spans, n_key_ids=key_end - key_start, key_chains=key_chains[d],
                             response_chains=response_chains[d],
                             response_chain_source=list(range(len(response.chains))), matched=matched[d],
                             response_spans=response_mentions[d]))
    if laid:
        ids_first = np.concatenate([key_bounds[:, 0], response_bounds[twinless, 0]])
        ids_last = np.concatenate([key_bounds[:, 1], response_bounds[twinless, 1]])
        by_doc = np.argsort(np.concatenate([key_doc, response_doc[twinless]]), kind="stable")
        id_starts = _starts(key_mentions + twinless_count)
        arrays = _spliced(out, own, [(np.stack([ids_first[by_doc], ids_last[by_doc]]).T, id_starts),
                                     (key_ids, _starts(key_mentions)), (key_sizes, _starts(key_counts)),
                                     (ids, _starts(np.bincount(response_doc, minlength=n))),
                                     (response_sizes, _starts(response_counts))])
        for d, alignment in enumerate(out):
            alignment.laid = (arrays, d)
    return out


def _spliced(alignments: list[Alignment], own: np.ndarray, together: list[tuple[np.ndarray, np.ndarray]]
             ) -> AlignedArrays:
    """The alignments' arrays (`AlignedArrays`) from those computed together (each (values, where
    each document's start)), the parts of the documents `align` aligned alone (not `own`) made
    from their lists in their places."""
    alone = np.flatnonzero(~own).tolist()
    theirs = [_arrays_of(alignments[d]) for d in alone]
    made = []
    for which, (values, starts) in enumerate(together):
        parts, lengths, previous = [], np.diff(starts), 0
        for d, arrays in zip(alone, theirs):
            parts += [values[starts[previous]:starts[d]], arrays[which]]
            lengths[d], previous = len(arrays[which]), d + 1
        parts.append(values[starts[previous]:])
        made += [np.concatenate(parts) if alone else values, _starts(lengths)]
    spans = made[0]
    return AlignedArrays(alignments, spans[:, 0].copy(), spans[:, 1].copy(), *made[1:])


_Laid = tuple[np.ndarray, np.ndarray, list[Span] | None, np.ndarray, np.ndarray]
"""A side's spans laid end to end (`_laid`): each span's document, its (first, last) tokens as
rows, the spans as tuples (None when laid from the cache's arrays: the alignments then make
theirs from their arrays), each chain's size, each document's count of chains."""


def _arrays_of(alignment: Alignment) -> list[np.ndarray]:
    """One alignment's parts of `AlignedArrays`, from its lists: its ids' spans (first and last
    tokens as rows), its key chains' ids and sizes, its response chains' ids and sizes."""
    def flat(items: list) -> np.ndarray:
        return np.fromiter(itertools.chain.from_iterable(items), dtype=np.int64)

    return [flat(alignment.spans).reshape(-1, 2), flat(alignment.key_chains),
            np.fromiter(map(len, alignment.key_chains), dtype=np.int64), flat(alignment.response_chains),
            np.fromiter(map(len, alignment.response_chains), dtype=np.int64)]


def _laid_arrays(documents: Sequence[Document]) -> _Laid | None:
    """`_laid` of documents whose chains the cache of read files keeps as arrays
    (`chains.laid_chains`), read from them; None for others."""
    laid = laid_chains(documents)
    if laid is None:
        return None
    first, last, sizes, spans_per_doc, counts = laid
    doc = np.repeat(np.arange(len(documents), dtype=np.int64), spans_per_doc)
    return doc, np.stack([first, last]).T, None, sizes, counts


def _laid(documents: Sequence[Document]) -> _Laid | None:
    """Every document's spans, chain by chain, as (each span's document, its first and last
    tokens, the spans, each chain's size, each document's count of chains); None when a span
    is not a pair of ints of 64 bits."""
    counts = np.array([len(document.chains) for document in documents], dtype=np.int64)
    chains = list(itertools.chain.from_iterable(document.chains for document in documents))
    sizes = np.fromiter(map(len, chains), dtype=np.int64, count=len(chains))
    spans = list(itertools.chain.from_iterable(chains))
    try:
        tokens = list(itertools.chain.from_iterable(spans))
        if not set(map(len, spans)) <= {2} or not set(map(type, tokens)) <= {int}:
            return None  # as `align` tells them apart: equal tuples of equal ints
        bounds = np.array(tokens, dtype=np.int64).reshape(-1, 2)
    except (TypeError, OverflowError):  # not sized; an int beyond 64 bits
        return None
    doc = np.repeat(np.repeat(np.arange(len(documents), dtype=np.int64), counts), sizes)
    return doc, bounds, spans, sizes, counts


def _cut(flat: list, sizes: np.ndarray) -> list[list]:
    """`flat` cut into consecutive lists of these sizes."""
    ends = np.cumsum(sizes)
    return [flat[start:end] for start, end in zip((ends - sizes).tolist(), ends.tolist())]


def _repeated(chains: list[list[Span]], labels: list[str], skip: set[Span] | frozenset = frozenset()
              ) -> list[tuple[Span, list[str]]]:
    """Spans listed more than once (outside `skip`), each with the labels of the chains listing it
    (once per listing), in order of first appearance."""
    owners: dict[Span, list[str]] = {}
    for chain, label in zip(chains, labels):
        for span in chain:
            if span not in skip:
                owners.setdefault(span, []).append(label)
    return [(span, found) for span, found in owners.items() if len(found) > 1]


def _listed_in(labels: list[str]) -> str:
    """Where a span is listed more than once: "in chains 3, 7", or "twice in chain 3" when one
    chain lists it again (the chains' labels alone read "in chains 3, 3")."""
    if len(set(labels)) == 1:
        times = "twice" if len(labels) == 2 else f"{len(labels)} times"
        return f"{times} in chain {labels[0]}"
    return f"in chains {', '.join(labels)}"


def duplicate_warnings(key: Document, response: Document, alignment: Alignment) -> list[str]:
    """What v8.01's treatment of a span listed twice did to a pair: a key span listed twice (every
    score ill-defined), repeated key-matching response spans removed, twinless ones kept twice."""
    warnings: list[str] = []

    def fmt(span: Span) -> str:
        return f"{span[0]}-{span[1]}"

    if alignment.key_duplicates:
        items = "; ".join(f"{fmt(s)} {_listed_in(labels)}" for s, labels in alignment.key_duplicates)
        where = "in more than one chain" if any(len(set(labels)) > 1 for _, labels in alignment.key_duplicates) \
            else "listed twice in a chain"
        warnings.append(f"{key.where()}: KEY document {key.name!r} has spans {where}, so every "
                        f"score is ill-defined (v8.01's treatment is mirrored): {items}")
    if alignment.removed_duplicates:
        items = "; ".join(f"{fmt(s)} dropped from chain {dropped} (kept in {kept})" if dropped != kept
                          else f"{fmt(s)} listed again in chain {kept}: the second listing dropped"
                          for s, dropped, kept in alignment.removed_duplicates)
        warnings.append(f"{response.where()}: document {response.name!r}: repeated key-matching spans removed as "
                        f"v8.01 does (it would refuse to score after 10 per run; we do not): {items}")
    if alignment.twinless_duplicates:
        items = "; ".join(f"{fmt(s)} {_listed_in(labels)}" for s, labels in alignment.twinless_duplicates)
        warnings.append(f"{response.where()}: document {response.name!r}: repeated spans that match no key span "
                        f"are kept twice, as v8.01 does: {items}")
    return warnings

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

from dataclasses import dataclass, field

from .model import Document, Span


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


def align(key: Document, response: Document) -> Alignment:
    """Assign mention ids and build id chains exactly as v8.01 does."""
    key_id: dict[Span, int] = {}
    spans: list[Span] = []
    repeated: set[Span] = set()
    key_labels = _labels(key)
    key_chains: list[list[int]] = []
    for chain in key.chains:
        ids = []
        for span in chain:
            mid = key_id.get(span)
            if mid is None:
                mid = key_id[span] = len(spans)
                spans.append(span)
            else:
                repeated.add(span)
            ids.append(mid)
        key_chains.append(ids)
    n_key_ids = len(spans)
    key_duplicates: list[tuple[Span, list[str]]] = []
    if repeated:
        owners: dict[Span, list[str]] = {span: [] for span in repeated}
        for chain, label in zip(key.chains, key_labels):
            for span in chain:
                if span in owners:
                    owners[span].append(label)
        key_duplicates = sorted(owners.items())

    seen_in: dict[Span, str] = {}
    removed: list[tuple[Span, str, str]] = []
    kept_chains: list[list[Span]] = []
    kept_source: list[int] = []
    resp_labels = _labels(response)
    for index, (chain, label) in enumerate(zip(response.chains, resp_labels)):
        kept = []
        for span in chain:
            if span in seen_in:
                removed.append((span, label, seen_in[span]))
                continue
            if span in key_id:
                seen_in[span] = label
            kept.append(span)
        if kept:
            kept_chains.append(kept)
            kept_source.append(index)

    twinless_id: dict[Span, int] = {}
    twinless_labels: dict[Span, list[str]] = {}
    response_chains: list[list[int]] = []
    for chain, source in zip(kept_chains, kept_source):
        ids = []
        for span in chain:
            mid = key_id.get(span)
            if mid is None:
                mid = twinless_id.get(span)
                if mid is None:
                    mid = twinless_id[span] = len(spans)
                    spans.append(span)
                twinless_labels.setdefault(span, []).append(resp_labels[source])
            ids.append(mid)
        response_chains.append(ids)
    twinless_duplicates = [(s, labels) for s, labels in twinless_labels.items() if len(labels) > 1]
    return Alignment(
        spans=spans, n_key_ids=n_key_ids, key_chains=key_chains, response_chains=response_chains,
        response_chain_source=kept_source, matched=len(seen_in),
        response_spans=len(seen_in) + len(twinless_id), removed_duplicates=removed,
        twinless_duplicates=twinless_duplicates, key_duplicates=key_duplicates,
    )


def _labels(doc: Document) -> list[str]:
    if len(doc.labels) == len(doc.chains):
        return doc.labels
    return [str(i) for i in range(len(doc.chains))]

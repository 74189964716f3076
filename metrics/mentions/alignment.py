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

from metrics.model import Document, Span


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

    # Response: a key-matching span seen again (in any chain) is dropped; a twinless span keeps
    # one id wherever it appears.  Chains emptied by dropping disappear.
    key_get = key_id.get
    kept_in: dict[Span, int] = {}
    """key-matching span -> index of the response chain that kept it"""
    removed_at: list[tuple[Span, int]] = []
    twinless_id: dict[Span, int] = {}
    twinless_positions = 0
    response_chains: list[list[int]] = []
    kept_source: list[int] = []
    for index, chain in enumerate(response.chains):
        ids = []
        for span in chain:
            mid = key_get(span)
            if mid is None:
                mid = twinless_id.setdefault(span, n_key_ids + len(twinless_id))
                twinless_positions += 1
            elif span in kept_in:
                removed_at.append((span, index))
                continue
            else:
                kept_in[span] = index
            ids.append(mid)
        if ids:
            response_chains.append(ids)
            kept_source.append(index)

    twinless_repeated = twinless_positions != len(twinless_id)
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


def duplicate_warnings(key: Document, response: Document, alignment: Alignment) -> list[str]:
    """What v8.01's treatment of a span in two chains did to a pair: a key span in two chains (every
    score ill-defined), repeated key-matching response spans removed, twinless ones kept twice."""
    warnings: list[str] = []

    def fmt(span: Span) -> str:
        return f"{span[0]}-{span[1]}"

    if alignment.key_duplicates:
        items = "; ".join(f"{fmt(s)} in chains {', '.join(labels)}" for s, labels in alignment.key_duplicates)
        warnings.append(f"{key.where()}: KEY document {key.name!r} has spans in more than one chain, so every "
                        f"score is ill-defined (v8.01's treatment is mirrored): {items}")
    if alignment.removed_duplicates:
        items = "; ".join(f"{fmt(s)} dropped from chain {dropped} (kept in {kept})"
                          for s, dropped, kept in alignment.removed_duplicates)
        warnings.append(f"{response.where()}: document {response.name!r}: repeated key-matching spans removed as "
                        f"v8.01 does (it would refuse to score after 10 per run; we do not): {items}")
    if alignment.twinless_duplicates:
        items = "; ".join(f"{fmt(s)} in chains {', '.join(labels)}" for s, labels in alignment.twinless_duplicates)
        warnings.append(f"{response.where()}: document {response.name!r}: repeated spans that match no key span "
                        f"are kept twice, as v8.01 does: {items}")
    return warnings

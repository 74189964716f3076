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
"""

from __future__ import annotations

from dataclasses import dataclass

from metrics.model import Document, Span

KEY_KEEPS_LAST = True
"""v8.01: a key span listed in several key chains counts in the last one."""
RESPONSE_KEEPS_LAST = False
"""v8.01: a response span listed in several response chains counts in the first one."""


@dataclass
class ChainView:
    """One side's chains with each span once, chains sorted in document order."""

    chains: list[list[Span]]
    """Chains in file order, each sorted in document order, each span in exactly one chain."""
    labels: list[str]
    chain_of: dict[Span, int]
    position: dict[Span, int]
    """Index of a span within its (sorted) chain: 0 for the first mention."""


def chain_view(doc: Document, keep_last: bool) -> ChainView:
    """Deduplicated, sorted chains of a document: a repeated span stays in the first chain listing
    it, or in the last with `keep_last`."""
    owner: dict[Span, int] = {}
    for index, chain in enumerate(doc.chains):
        for span in chain:
            if keep_last or span not in owner:
                owner[span] = index
    members: list[list[Span]] = [[] for _ in doc.chains]
    for span, index in owner.items():
        members[index].append(span)
    for chain in members:
        chain.sort()
    position = {span: i for chain in members for i, span in enumerate(chain)}
    return ChainView(members, list(doc.chain_labels()), owner, position)


def key_view(key: Document) -> ChainView:
    return chain_view(key, keep_last=KEY_KEEPS_LAST)


def response_view(response: Document) -> ChainView:
    return chain_view(response, keep_last=RESPONSE_KEEPS_LAST)

"""A key and response document as the Berkeley Coreference Analyser (BCA) reads them.

Why not the documents as v8.01 reads them: BCA keeps a span listed twice (in two chains, or twice in
one) once, in the chain that completes it first, and prints "Duplicate mention"; a mention that
runs over a sentence boundary is dropped ("Ignoring a mention with no start"); its option `T`
removes the response's singleton clusters (not the key's).  So its starting CoNLL F1 can differ from
v8.01's on the same files, and the progression it reports is scored on this view.

A mention is BCA's triple (sentence, start, end): sentence-relative, end exclusive.  Triples order
as the text does, which BCA's rules rely on ("earliest", `min`).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from metrics.model import Document, Span

from .syntax import DocumentSyntax

Mention = tuple[int, int, int]


@dataclass
class Side:
    """One side's clusters: mention -> cluster id, cluster id -> its mentions (reading order)."""

    mentions: dict[Mention, int]
    clusters: dict[int, list[Mention]]
    labels: dict[int, str]
    """Cluster id -> the file's chain label."""


@dataclass
class PairView:
    """One document pair in BCA's terms, with the key's syntax (BCA reads heads from the key)."""

    name: str
    key_doc: Document
    syntax: DocumentSyntax
    gold: Side
    auto: Side
    dropped: dict[str, int]
    """What the reading left out, per reason: duplicate, crossing (a sentence boundary),
    response_singletons (option T)."""

    def span(self, mention: Mention) -> Span:
        return self.syntax.span(mention)


def to_triple(starts: list[int], span: Span) -> Mention | None:
    """BCA's triple of a document-level inclusive span; None if it crosses a sentence boundary."""
    sentence = bisect_right(starts, span[0]) - 1
    if sentence < 0 or bisect_right(starts, span[1]) - 1 != sentence:
        return None
    return sentence, span[0] - starts[sentence], span[1] - starts[sentence] + 1


def read_side(doc: Document, starts: list[int], dropped: dict[str, int]) -> Side:
    """BCA's clusters of one document: each span once, in the chain that completes it first.

    A span listed twice completes in both chains at one token; BCA keeps the copy whose item comes
    first in that token's cell (`Document.repeated` records that order; a reader without it, any
    but CoNLL-2012's, has the copies in chain order)."""
    labels = doc.chain_labels()
    repeated = doc.repeated or {}
    order = sorted(((span[1], index, span) for index, chain in enumerate(doc.chains) for span in chain),
                   key=lambda item: (item[0], item[1]))
    mentions: dict[Mention, int] = {}
    clusters: dict[int, list[Mention]] = {}
    names: dict[int, str] = {}
    for _, index, span in order:
        mention = to_triple(starts, span)
        if mention is None:
            dropped["crossing"] = dropped.get("crossing", 0) + 1
            continue
        owner = repeated.get(span, (index,))[0]
        if mention in mentions or owner != index:
            dropped["duplicate"] = dropped.get("duplicate", 0) + 1
            continue
        mentions[mention] = index
        clusters.setdefault(index, []).append(mention)
        names[index] = labels[index]
    return Side(mentions, clusters, names)


def remove_singletons(side: Side, dropped: dict[str, int]) -> Side:
    """Option T: the response's clusters of one mention removed."""
    lone = [c for c, ms in side.clusters.items() if len(ms) == 1]
    for cluster in lone:
        side.mentions.pop(side.clusters.pop(cluster)[0])
    dropped["response_singletons"] = dropped.get("response_singletons", 0) + len(lone)
    return side


def pair_view(name: str, key: Document, response: Document, singletons: bool) -> PairView:
    """BCA's view of one pair; `singletons` False removes the response's singletons (option T)."""
    syntax = DocumentSyntax(key)
    dropped: dict[str, int] = {}
    gold = read_side(key, syntax.starts, dropped)
    auto = read_side(response, syntax.starts, dropped)
    if not singletons:
        auto = remove_singletons(auto, dropped)
    syntax.type_unparsed({**gold.mentions, **auto.mentions})  # every kind the rules may ask, at once
    return PairView(name, key, syntax, gold, auto, dropped)

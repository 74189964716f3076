"""The object path of `metrics.corpus.ua_spans` as it was before its markables were read from the
markable table's columns: each `Markable` of the object view turned into a `MarkableSpan` through
a dict from position to token (the positions sorted one by one).  Kept as the reference that
tests/test_ua_spans_columns.py compares the columns' path against."""

from __future__ import annotations

from metrics.corpus.ua_spans import (ZERO_WORD, MarkableSpan, Plural, Relations, TokenSpans, _document,
                                     bridges_of)
from metrics.mentions.ua import Markable, Position, UADocument, position_order


class ReferenceTokens:
    """`ua_spans.Tokens` before: every position sorted by `position_order`, then indexed."""

    def __init__(self, key: UADocument, response: UADocument, keep_zeros: bool) -> None:
        words: list[Position] = list(range(len(key.words)))
        forms = {**response.zeros, **key.zeros} if keep_zeros else {}
        positions = sorted([*words, *forms], key=position_order)
        self.index: dict[Position, int] = {position: i for i, position in enumerate(positions)}
        self.words = [key.words[p] if isinstance(p, int) else ZERO_WORD for p in positions]
        starts = set(key.sentence_starts)
        self.sentence_starts = [i for i, p in enumerate(positions) if isinstance(p, int) and p in starts] or [0]
        lines = key.word_lines
        self.lines = [lines[p] if isinstance(p, int) and p < len(lines) else key.line for p in positions]

    def markable(self, markable: Markable) -> MarkableSpan | None:
        parts = []
        for first, last in markable.parts:
            if first not in self.index or last not in self.index:
                return None
            parts.append((self.index[first], self.index[last]))
        parts.sort()
        span = (parts[0][0], max(last for _, last in parts))
        pieces = tuple(parts) if len(parts) > 1 else ()
        return MarkableSpan(markable.id, markable.entity, span, pieces, markable.zero)


def reference_relations(doc: UADocument, tokens: ReferenceTokens) -> Relations:
    """`ua_spans.relations_of` before: over the object view (`doc.identity`, `doc.deixis`)."""
    identity = tuple(m for m in (tokens.markable(x) for x in doc.identity) if m is not None)
    bridges = bridges_of(doc, identity)  # unchanged: the links are read alike on both paths
    members: dict[str, list[str]] = {}
    for markable in doc.identity:
        for plural in markable.element_of:
            listed = members.setdefault(plural, [])
            if markable.entity not in listed:
                listed.append(markable.entity)
    deixis: dict[str, list[MarkableSpan]] = {}
    for markable in doc.deixis:
        found = tokens.markable(markable)
        if found is not None:
            deixis.setdefault(markable.entity, []).append(found)
    return Relations(identity, bridges, tuple(Plural(entity, tuple(m)) for entity, m in members.items()),
                     tuple((entity, tuple(found)) for entity, found in deixis.items()),
                     tuple(m for m in identity if m.entity.endswith("-Pseudo")))


def reference_token_spans(key: UADocument, response: UADocument, *, keep_singletons: bool,
                          keep_zeros: bool) -> TokenSpans:
    """`ua_spans.token_spans` over the reference tokens and relations."""
    tokens = ReferenceTokens(key, response, keep_zeros)
    sides = [reference_relations(doc, tokens) for doc in (key, response)]
    documents = [_document(doc, relations, tokens, keep_singletons)  # type: ignore[arg-type]
                 for doc, relations in zip((key, response), sides)]
    return TokenSpans(documents[0], documents[1], sides[0], sides[1])

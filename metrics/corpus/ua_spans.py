"""Universal Anaphora documents as token spans: what the error analyses and the workbench read.

The UA scorer compares markables as sets of word positions (`metrics.mentions.ua`), and its scores
come from them alone (`metrics.corpus.ua.UAPair`).  The rest of the engine (Chen & Ng's records and
prices, K&K's analysis, the workbench's text and chains) reads `Document`s of token spans.  Here a
key and its response are written once as such, over the same tokens, with every UA relation kept
beside the identity chains as token spans too (`Relations`):

- tokens: the document's words; with zeros kept, also the zeros, each before the word it precedes
  (shown as `∅`).  Without them a zero markable is left out, as the scorer leaves it out;
- a markable: the span from its first token to its last, its parts as pieces when it has several
  (a discontinuous markable), with its MarkableID and EntityID;
- the identity chains of the Chen & Ng and K&K analyses: the referring entities of IDENTITY, in the
  order the file first names them, labelled by EntityID (singletons kept or removed as scored);
  split antecedents, bridging, discourse deixis and non-referring markables are not chains there;
- bridging links (anaphor, anchor, relation), each plural entity's split antecedents (its member
  entities), the discourse-deixis chains and the non-referring markables, per side.

Everything is built once per document pair, when first asked for, and frozen.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metrics.mentions.ua import BridgingLink, Markable, MarkableTable, Position, UADocument, position_order
from metrics.model import Document, MentionType, Span
from metrics.runtime.gc_pause import gc_paused

ZERO_WORD = "∅"
"""The word a zero shows (its form in a UA file is mostly `_`)."""

_new_object = object.__new__
_set_attribute = object.__setattr__


@dataclass(frozen=True)
class MarkableSpan:
    """One markable as token spans."""

    id: str
    """Its MarkableID."""
    entity: str
    """Its EntityID (`7`, `7-Pseudo`, `1-DD`)."""
    span: Span
    """First token to last token."""
    pieces: tuple[Span, ...] = ()
    """Its parts, when it has more than one (a discontinuous markable); () for one part."""
    zero: bool = False


@dataclass(frozen=True)
class Bridge:
    """A bridging link: the anaphor, its anchor and the relation (`Rel`) between them."""

    anaphor: MarkableSpan
    anchor: MarkableSpan
    relation: str


@dataclass(frozen=True)
class Plural:
    """A plural entity and its split antecedents: the entities it is made of (`ElementOf`)."""

    entity: str
    members: tuple[str, ...]
    """The member entities' EntityIDs, in the order the file makes them members."""


@dataclass(frozen=True)
class Relations:
    """One side's UA annotation as token spans (see the module docstring)."""

    identity: tuple[MarkableSpan, ...]
    """Every identity markable (referring or not), in the file's order."""
    bridges: tuple[Bridge, ...]
    """Bridging links whose anaphor and anchor are both identity markables here (a later link from
    one anaphor replaces an earlier, as the UA scorer reads them)."""
    plurals: tuple[Plural, ...]
    deixis: tuple[tuple[str, tuple[MarkableSpan, ...]], ...]
    """The discourse-deixis chains: (EntityID, its markables), in the order first named."""
    non_referring: tuple[MarkableSpan, ...]
    """The non-referring markables (an EntityID ending in `-Pseudo`)."""

    def entity_spans(self, entity: str) -> tuple[Span, ...]:
        """The spans of one identity entity's markables, in file order."""
        return self._spans_by_entity().get(entity, ())

    def _spans_by_entity(self) -> dict[str, tuple[Span, ...]]:
        """Every entity's spans, gathered in one pass when first asked for and kept: a pass per
        entity asked was quadratic (the split antecedents' labels ask for every plural entity's:
        seconds on a UA book, at each key that redraws the text)."""
        found = self.__dict__.get("_by_entity")
        if found is None:
            gathered: dict[str, list[Span]] = {}
            for m in self.identity:
                gathered.setdefault(m.entity, []).append(m.span)
            found = {entity: tuple(spans) for entity, spans in gathered.items()}
            object.__setattr__(self, "_by_entity", found)  # a cache of a frozen value
        return found


@dataclass(frozen=True)
class TokenSpans:
    """A key and response pair as token spans: the two `Document`s the engine's analyses read
    and each side's relations."""

    key: Document
    response: Document
    key_relations: Relations
    response_relations: Relations


class Tokens:
    """The tokens of a document pair: its words, and the zeros when kept, in text order.

    Made as arrays (`word_tokens`): a UA book's 282,729 words sorted one by one by their
    `position_order`, each looked up in a dict, cost a third of a second; a word's token is its
    index plus the zeros before it, and zeros are few."""

    def __init__(self, key: UADocument, response: UADocument, keep_zeros: bool) -> None:
        count = len(key.words)
        forms = {**response.zeros, **key.zeros} if keep_zeros else {}
        zeros = sorted(forms, key=position_order)  # the same order as the words' and zeros' sort
        zero_words = np.array([position_order(z)[0] for z in zeros], np.int64)
        word_indices = np.arange(count, dtype=np.int64)
        # a zero "W.K" comes just before word W: word w follows every zero of a W <= w
        self.word_tokens: np.ndarray = word_indices + np.searchsorted(zero_words, word_indices, side="right")
        """The token of each word."""
        zero_tokens = (np.arange(len(zeros), dtype=np.int64) + np.clip(zero_words, 0, count)).tolist()
        word_tokens = self.word_tokens.tolist()
        self.index: dict[Position, int] = dict(zip(range(count), word_tokens))
        self.index.update(zip(zeros, zero_tokens))
        lines = key.word_lines
        word_lines = list(lines[:count]) + [key.line] * (count - len(lines))
        if zeros:
            self.words = [ZERO_WORD] * (count + len(zeros))
            self.lines = [key.line] * (count + len(zeros))
            for word, line, token in zip(key.words, word_lines, word_tokens):
                self.words[token] = word
                self.lines[token] = line
        else:
            self.words, self.lines = list(key.words), word_lines
        starts = sorted({p for p in key.sentence_starts if isinstance(p, int) and 0 <= p < count})
        self.sentence_starts = [word_tokens[p] for p in starts] or [0]

    def span(self, parts: tuple[tuple[Position, Position], ...]) -> tuple[Span, tuple[Span, ...]] | None:
        """A markable's parts as its span and pieces (`MarkableSpan`); None when a part's end is no
        token (a zero, zeros removed)."""
        tokens = []
        for first, last in parts:
            if first not in self.index or last not in self.index:
                return None
            tokens.append((self.index[first], self.index[last]))
        tokens.sort()
        return (tokens[0][0], max(last for _, last in tokens)), tuple(tokens) if len(tokens) > 1 else ()

    def markable(self, markable: Markable) -> MarkableSpan | None:
        """The markable as token spans; None for a zero that is not a token (zeros removed)."""
        found = self.span(markable.parts)
        if found is None:
            return None
        return MarkableSpan(markable.id, markable.entity, found[0], found[1], markable.zero)

    def layer(self, table: MarkableTable) -> list[MarkableSpan]:
        """A layer's markables as token spans, in the file's order, read from its columns (no
        `Markable` made: the object view and a `MarkableSpan` made through the dataclass's
        `__init__` cost 1.9 s CPU on a UA book's 165,000 markables); a zero that is no token is
        left out, as `markable` leaves it out."""
        count = len(self.word_tokens)
        starts, ends = table.starts, table.ends
        regular = (starts >= 0) & (starts < count) & (ends >= 0) & (ends < count)
        if table.irregular:
            regular[list(table.irregular)] = False
        if count:
            firsts = self.word_tokens[np.where(regular, starts, 0)].tolist()
            lasts = self.word_tokens[np.where(regular, ends, 0)].tolist()
        else:
            firsts = lasts = [0] * len(table)
        irregular, new, cls, out = table.irregular, _new_object, MarkableSpan, []
        append = out.append
        for row, (markable_id, entity, plain, first, last) in enumerate(zip(
                table.ids, table.entities, regular.tolist(), firsts, lasts)):
            if plain:
                span, pieces, zero = (first, last), (), False
            else:
                parts = irregular.get(row)
                zero = parts is not None and isinstance(parts[0][0], str)
                found = self.span(parts if parts is not None else ((int(starts[row]), int(ends[row])),))
                if found is None:
                    continue
                span, pieces = found
            made = new(cls)
            _set_attribute(made, "__dict__", {"id": markable_id, "entity": entity, "span": span, "pieces": pieces,
                                              "zero": zero})
            append(made)
        return out


def bridges_of(doc: UADocument, identity: tuple[MarkableSpan, ...]) -> tuple[Bridge, ...]:
    """The bridging links between these identity markables (a later link from one anaphor
    replaces an earlier, as the UA scorer reads them)."""
    by_id = {m.id: m for m in identity}
    anchors: dict[str, BridgingLink] = {}
    for link in doc.bridging:
        anchors[link.anaphor] = link
    return tuple(Bridge(by_id[link.anaphor], by_id[link.anchor], link.relation) for link in anchors.values()
                 if link.anaphor in by_id and link.anchor in by_id)


def relations_of(doc: UADocument, tokens: Tokens) -> Relations:
    """One side's relations as token spans."""
    identity = tuple(tokens.layer(doc.identity_table))
    bridges = bridges_of(doc, identity)
    members: dict[str, list[str]] = {}
    table = doc.identity_table
    for row in sorted(table.element_of):
        entity = table.entities[row]
        for plural in table.element_of[row]:
            listed = members.setdefault(plural, [])
            if entity not in listed:
                listed.append(entity)
    deixis: dict[str, list[MarkableSpan]] = {}
    for found in tokens.layer(doc.deixis_table):
        deixis.setdefault(found.entity, []).append(found)
    return Relations(identity, bridges, tuple(Plural(entity, tuple(m)) for entity, m in members.items()),
                     tuple((entity, tuple(found)) for entity, found in deixis.items()),
                     tuple(m for m in identity if m.entity.endswith("-Pseudo")))


def _document(doc: UADocument, relations: Relations, tokens: Tokens, keep_singletons: bool) -> Document:
    """The identity chains of one side as a `Document` over the pair's tokens."""
    chains: dict[str, list[Span]] = {}
    pieces: dict[Span, tuple[Span, ...]] = {}
    zeros: dict[Span, MentionType] = {}
    for m in relations.identity:
        if m.entity.endswith("-Pseudo"):
            continue
        chains.setdefault(m.entity, []).append(m.span)
        if m.pieces:
            pieces[m.span] = m.pieces
        if m.zero:
            zeros[m.span] = MentionType.ZERO
    kept = {entity: spans for entity, spans in chains.items() if keep_singletons or len(set(spans)) > 1}
    return Document(name=doc.name, words=list(tokens.words), chains=list(kept.values()), labels=list(kept),
                    sentence_starts=list(tokens.sentence_starts), path=doc.path, line=doc.line,
                    token_lines=list(tokens.lines), pieces=pieces or None, explicit_types=zeros or None)


def token_spans(key: UADocument, response: UADocument, *, keep_singletons: bool, keep_zeros: bool) -> TokenSpans:
    """A UA document pair (the same words) as token spans (see the module docstring).

    The cyclic collector is paused meanwhile (`gc_paused`): a UA book's pair makes 330,000
    markables' spans, none in a cycle, and the collections their making set off were three
    quarters of this function's CPU (0.65 of 0.85 s at Python's thresholds)."""
    with gc_paused():
        tokens = Tokens(key, response, keep_zeros)
        sides = [relations_of(doc, tokens) for doc in (key, response)]
        documents = [_document(doc, relations, tokens, keep_singletons)
                     for doc, relations in zip((key, response), sides)]
    return TokenSpans(documents[0], documents[1], sides[0], sides[1])


def deixis_label(entity: str) -> str:
    """A discourse-deixis chain as the views name it: `1-DD` is D1."""
    return "D" + entity.removesuffix("-DD")

"""The POS road of mention typing (`types._DocumentTyper.types_of`) for many documents' spans at
once, as array work over the whole corpus.

Why: a cold `score` of a 250,000-token corpus types 100,000 spans (the key's mentions and the
response's) against the key, which cost a typer per document, its spans' heads found document by
document and a few calls per span: a sixth of the run.  Here every document that takes the POS
road with dependency heads (`road`) is laid end to end, its tokens and spans shifted past the
documents before it, and
- each span's head is found for all spans at once as `heads.DocumentHeads.heads` finds it: the
  one token of the span whose head lies outside it (a head outside its document is outside every
  span of it), or of several such the one of least rank, then nearest its root, then the
  rightmost (their depths walked up the trees together), the possessive marker stepped over; a
  span with none (a cycle) is given to its document's own head finder (`DocumentHeads.head`);
- each head's tag, word and lemma are looked up in C (`map`), and the rules of `_from_pos` taken
  as masks: a pronoun or name tag; else a personal pronoun word or lemma, or a lone relative or
  demonstrative one as the whole span; else a name entity within the span over its head;
  else a nominal.
The types are `_DocumentTyper(doc).types_of(spans)`'s, span for span (tests/test_types_arrays.py
checks them against it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from itertools import chain, repeat
from typing import NamedTuple, Protocol

import numpy as np

from metrics.mentions.heads import POSSESSIVE_FORMS, annotated, head_rank, heads_for
from metrics.mentions.lexicon import (
    LONE_PRONOUNS,
    NAME_TAGS,
    NON_NAME_ENTITIES,
    PERSONAL_PRONOUNS,
    PRONOUN_TAGS,
)
from metrics.model import UNMADE, Document, MentionType

NAME, NOMINAL, PRONOUN = MentionType.NAME, MentionType.NOMINAL, MentionType.PRONOUN

_POS_NAME, _POS_NOMINAL, _POS_PRONOUN, _LEMMA_PRONOUN, _NER_NAME = range(5)
OUTCOMES = ((NAME, "pos"), (NOMINAL, "pos"), (PRONOUN, "pos"), (PRONOUN, "lemma"), (NAME, "pos+ner"))
"""The POS road's outcomes (type, deciding rule), by the codes `types_on_road` gives them."""


class TokenArrays(NamedTuple):
    """A file's documents' tokens as the cache of read files keeps them (`metrics.formats.packed`)
    or the CoNLL-2012 reader finds them: the words, POS tags and lemmas of all its documents laid
    end to end, and the heads its parse column gives as one array.  `types_on_road` reads them
    instead of joining the documents' lists, for a document that holds what its file stored
    (`Document.holds_stored`: its tags, lemmas and parse heads not made yet, or the very lists
    made there), its words the list made with these."""

    starts: np.ndarray
    """Where each document's tokens start among the file's, and the end (documents + 1 values)."""
    words: list[str]
    word_lists: list[list[str]]
    tags: list[str] | None
    """Every token's tag; None where `tag_ids` numbers them."""
    lemmas: Sequence[str] | None
    """None unless every document has its lemmas: a list, or texts read where asked (`Texts`)."""
    heads: np.ndarray
    """Each token's head by the parse (`Document.parse_heads`), within its document: every
    document has them, one per token."""
    tag_ids: tuple[np.ndarray, dict[str, int]] | None = None
    """Every token's tag as a number, and the tags numbered (the CoNLL-2012 reader numbers them
    finding the parse's heads, `heads_parse.LaidHeads`); None where not given (`tags` then are)."""


_HELD = ("pos", "parse", "parse_heads")
"""The fields typing reads from a document's file (`TokenArrays`) when it holds them unmade."""


def _stored_tokens(doc: Document) -> tuple[TokenArrays, int, object] | None:
    """The file's tokens, the document's place there and the file's stored fields, when the
    document holds its words as made there and its tags and parse heads as stored (not made yet,
    or the very lists made there); else None."""
    held = doc.mention_arrays
    if held is None:
        return None
    arrays, place = held
    tokens = arrays.tokens
    if tokens is None or tokens.word_lists[place] is not doc.words:
        return None
    stored = arrays.stored
    if not (doc.holds_stored("pos", stored, place) and doc.holds_stored("parse_heads", stored, place)):
        return None
    return tokens, place, stored


def road(doc: Document) -> Sequence[int] | None:
    """The dependency heads of `doc` when its spans within its tokens take the road typed here
    (`within` tells which are): no explicit types, POS tags, lemmas (if any) and entities within
    its tokens, and heads given or read from its parse column (`heads.DocumentHeads`'s first two
    sources); else None (its own typer types them).  A document holding its file's tokens unmade
    (`_unmade_road`) is answered from them: its heads are a view of the file's."""
    unmade = _unmade_road(doc)
    if unmade is not None:
        return unmade
    n = len(doc.words)
    if not n or doc.explicit_types or doc.pos is None or len(doc.pos) != n:
        return None
    if doc.heads is not None and len(doc.heads) == n:
        dep = doc.heads
    elif doc.parse is not None and len(doc.parse) == n and annotated(doc.parse):
        dep = doc.parse_heads if doc.parse_heads is not None else heads_for(doc).dep
        if not dep:  # the parse gives none: heads by the simple rule, its own typer's
            return None
    else:
        return None
    if len(dep) != n or (doc.lemmas is not None and len(doc.lemmas) != n) or not annotated(doc.pos):
        return None
    if not all(0 <= s <= e < n for s, e, _ in doc.named_entities or ()):
        return None
    return dep


def _unmade_road(doc: Document) -> np.ndarray | None:
    """`road(doc)` for a document that holds its tags, parse and parse heads unmade as its file
    stored them (`_stored_tokens`): what `road` reads of those lists is known of the file's
    tokens (every document there has tags and parse heads, one per token; the reader keeps no
    column of placeholders only, so both are `annotated`), and they are not made; else None
    (the lists are read)."""
    held = doc.__dict__
    if any(name in held for name in _HELD):
        return None
    found = _stored_tokens(doc)  # (all three unmade: the document holds its file's, `holds_stored`)
    if found is None:
        return None
    tokens, place, _ = found
    n = len(doc.words)
    if not n or doc.explicit_types or doc.heads is not None:
        return None
    if "lemmas" in held and doc.lemmas is not None and len(doc.lemmas) != n:
        return None
    if not all(0 <= s <= e < n for s, e, _ in doc.named_entities or ()):
        return None
    start = int(tokens.starts[place])
    return tokens.heads[start:start + n]


def within(documents: Sequence[Document], bounds: np.ndarray, owners: np.ndarray) -> np.ndarray:
    """For each span, whether it lies within the tokens of its document (`documents[owners[i]]`),
    given the spans' first and last tokens one after the other (`bounds`)."""
    sizes = np.fromiter(map(len, (doc.words for doc in documents)), dtype=np.int64, count=len(documents))
    starts, ends = bounds[0::2], bounds[1::2]
    return (starts >= 0) & (starts <= ends) & (ends < sizes[owners])


def types_on_road(documents: Sequence[Document], bounds: np.ndarray, counts: Sequence[int],
                  heads: Sequence[Sequence[int]]) -> list[tuple[MentionType, str]]:
    """The type and deciding rule of every span of every document, laid end to end: `counts[d]`
    spans of `documents[d]`, whose dependency heads are `heads[d]` (each has passed `road`), the
    spans' first and last tokens one after the other in `bounds`."""
    counts = np.asarray(counts, dtype=np.int64)
    total = int(counts.sum())
    if not total:
        return []
    cached = _file_tokens(documents, heads)
    numbered = None
    if cached is not None:  # the file's tokens as the cache keeps them, each document at its place there
        tokens, places, lemmas = cached
        numbered = tokens.tag_ids
        sizes, offsets = np.diff(tokens.starts), tokens.starts[:-1]
        dep, words, tags = tokens.heads, tokens.words, tokens.tags
        lemmas = words if lemmas is None else lemmas
        offsets_of = offsets[places]
    else:
        sizes = np.fromiter(map(len, heads), dtype=np.int64, count=len(heads))
        offsets = offsets_of = np.cumsum(sizes) - sizes
        dep = np.fromiter(chain.from_iterable(heads), dtype=np.int64, count=int(sizes.sum()))
        words = list(chain.from_iterable(doc.words for doc in documents))
        tags = list(chain.from_iterable(doc.pos or () for doc in documents))
        lemmas = words if all(doc.lemmas is None for doc in documents) else \
            list(chain.from_iterable(doc.lemmas if doc.lemmas is not None else doc.words for doc in documents))
    # every token's head in the joined tokens (-1: a root, or a head outside its document)
    token_size = np.repeat(sizes, sizes)
    token_offset = np.repeat(offsets, sizes)
    dep = np.where((dep >= 0) & (dep < token_size), dep + token_offset, -1)
    span_document = np.repeat(np.arange(len(counts)), counts)
    offsets = offsets_of
    starts = bounds[0::2] + offsets[span_document]
    ends = bounds[1::2] + offsets[span_document]
    tags = _Tags(tags, starts, ends, numbered)  # (every document has its tags: `road`)

    head = _heads(dep, starts, ends, words, tags)
    for i in np.flatnonzero(head < 0).tolist():  # several tokens with a head outside, or none
        d = int(span_document[i])
        head[i] = heads_for(documents[d]).head((int(bounds[2 * i]), int(bounds[2 * i + 1])))[0] + int(offsets[d])
    return _types(head, starts, ends, words, tags, lemmas=lemmas, entities=_entities(documents, offsets))


def _file_tokens(documents: Sequence[Document], heads: Sequence[Sequence[int]]
                 ) -> tuple[TokenArrays, np.ndarray, list[str] | None] | None:
    """The tokens of the file the documents were read from (`TokenArrays`), with each document's
    place there and the file's lemmas (None where the documents have none), when every document
    holds them (`_stored_tokens`; its heads the parse's kept there, all or none of them with
    lemmas); else None."""
    if not documents:
        return None
    first = _stored_tokens(documents[0])
    if first is None:
        return None
    tokens, _, stored = first
    with_lemmas = tokens.lemmas is not None
    places = []
    for doc, dep in zip(documents, heads):
        found = _stored_tokens(doc)
        if found is None or found[0] is not tokens:
            return None
        place = found[1]
        if doc.heads is not None or not (dep is doc.__dict__.get("parse_heads", UNMADE) or _view_of(dep, tokens)):
            return None
        if not (doc.holds_stored("lemmas", stored, place) if with_lemmas else doc.lemmas is None):
            return None
        places.append(place)
    return tokens, np.asarray(places, dtype=np.int64), tokens.lemmas if with_lemmas else None


def _view_of(dep: object, tokens: TokenArrays) -> bool:
    """Whether `dep` is a piece of the file's heads (what `_unmade_road` gives)."""
    return isinstance(dep, np.ndarray) and dep.base is tokens.heads


class _Tags:
    """The joined tokens' POS tags read as numbers of distinct tags, and what the rules ask of a
    tag as a table over the distinct tags.  Why: the rules read the tags of the spans' heads and
    candidates, a hundred thousand tokens of the corpus; a lookup per token in a list of strings
    (one string per token, scattered in memory) cost more than numbering the tags of the tokens
    the spans cover once, in file order.  A token outside them is numbered when first read."""

    numbers: dict[str, int]
    """The tags numbered."""
    ids: np.ndarray
    """Each token's tag's number, -1 for a tag not numbered yet."""

    def __init__(self, tags: list[str] | None, starts: np.ndarray, ends: np.ndarray,
                 numbered: tuple[np.ndarray, dict[str, int]] | None = None) -> None:
        """`numbered`: every token's tag numbered already (`TokenArrays.tag_ids`), read as it is."""
        self.tags = tags
        if numbered is not None:
            self.ids, self.numbers = numbered
            return
        self.numbers = {}
        self.ids = np.full(len(tags), -1, dtype=np.int64)
        edges = np.bincount(starts, minlength=len(tags) + 1) - np.bincount(ends + 1, minlength=len(tags) + 1)
        self._number(np.flatnonzero(np.cumsum(edges[:-1]) > 0))

    def _number(self, tokens: np.ndarray) -> None:
        """Number the tags of `tokens` (increasing, not numbered yet)."""
        read = list(map(self.tags.__getitem__, tokens.tolist()))
        for tag in dict.fromkeys(read):
            self.numbers.setdefault(tag, len(self.numbers))
        self.ids[tokens] = np.fromiter(map(self.numbers.__getitem__, read), dtype=np.int64, count=len(read))

    def at(self, tokens: np.ndarray) -> np.ndarray:
        """The numbers of the tags of `tokens`."""
        found = self.ids[tokens]
        if (found < 0).any():
            self._number(np.unique(tokens[found < 0]))
            found = self.ids[tokens]
        return found

    def read(self, tokens: np.ndarray, value: Callable[[str], int], dtype: type = np.int64) -> np.ndarray:
        """`value(tag)` of each token's tag, computed once per distinct tag."""
        ids = self.at(tokens)
        table = np.fromiter(map(value, self.numbers), dtype=dtype, count=len(self.numbers))
        return table[ids]


def _heads(dep: np.ndarray, starts: np.ndarray, ends: np.ndarray, words: list[str], tags: _Tags) -> np.ndarray:
    """Each span's head token (`DocumentHeads.heads`), -1 for a span whose head is left to its
    document's head finder: one without a token whose head lies outside it (a cycle), or with
    several such tokens of which one sits deeper than `DEPTH_WALKED` below its root."""
    lengths = ends - starts + 1
    owner = np.repeat(np.arange(len(starts)), lengths)
    tokens = np.arange(len(owner)) - np.repeat(np.cumsum(lengths) - lengths - starts, lengths)
    up = dep[tokens]
    outside = (up < starts[owner]) | (up > ends[owner])
    owner, tokens = owner[outside], tokens[outside]
    candidates = np.bincount(owner, minlength=len(starts))
    head = np.full(len(starts), -1, dtype=np.int64)
    head[owner] = tokens  # right where a span has one candidate
    several = candidates[owner] > 1
    if several.any():
        head[candidates > 1] = _least_ranked(dep, owner[several], tokens[several], words, tags)
    inner = np.flatnonzero(head > starts)  # `_step_over_possessive`: a marker after the span's start
    at = head[inner]
    marker = np.fromiter(map(POSSESSIVE_FORMS.__contains__, map(words.__getitem__, at.tolist())), dtype=bool,
                         count=len(at))
    marker |= tags.read(at, "POS".__eq__, bool)
    head[inner] -= marker
    return head


DEPTH_WALKED = 256
"""Steps up the tree walked for all candidates at once; a candidate deeper than that (or on a
cycle: heads given by the input may have one) leaves its span to `DocumentHeads.head`."""


def _least_ranked(dep: np.ndarray, owner: np.ndarray, tokens: np.ndarray, words: list[str], tags: _Tags
                  ) -> np.ndarray:
    """For spans with several candidates (`owner`: each candidate's span, in order; `tokens`:
    the candidates), the one `DocumentHeads.head` takes: least rank (`heads.head_rank`), then
    least depth, then the rightmost; -1 for a span with a candidate whose depth was not found."""
    wordless = np.fromiter(map(_no_alphanumeric, map(words.__getitem__, tokens.tolist())), dtype=bool,
                           count=len(tokens))
    rank = np.where(wordless, head_rank("", None), tags.read(tokens, lambda tag: head_rank("a", tag)))
    depth = np.zeros(len(tokens), dtype=np.int64)
    where, active = tokens.copy(), np.arange(len(tokens))
    for _ in range(DEPTH_WALKED):
        parent = dep[where[active]]
        active = active[parent >= 0]
        if not len(active):
            break
        where[active] = parent[parent >= 0]
        depth[active] += 1
    order = np.lexsort((-tokens, depth, rank, owner))
    first = order[np.r_[True, owner[order][1:] != owner[order][:-1]]]
    best = tokens[first]
    if len(active):
        best[np.isin(owner[first], owner[active])] = -1
    return best


def _entities(documents: Sequence[Document], offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The name entities of all documents in the joined tokens, sorted by start: (starts, ends);
    value entities (dates, amounts) never make a name, so they are left out."""
    found = [(start + offset, end + offset) for doc, offset in zip(documents, offsets.tolist())
             for start, end, label in doc.named_entities or () if _names(label)]
    if not found:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    pairs = np.array(sorted(found), dtype=np.int64)
    return pairs[:, 0], pairs[:, 1]


@lru_cache(maxsize=1024)
def _names(label: str) -> bool:
    """Whether an entity of this label makes a name (not a date, number or amount): each label
    looked up once (a corpus's 15,000 entities have a dozen labels)."""
    return label.upper() not in NON_NAME_ENTITIES


_TAG_CODES = {**dict.fromkeys(NAME_TAGS, _POS_NAME), **dict.fromkeys(PRONOUN_TAGS, _POS_PRONOUN)}
"""A head's tag -> its outcome, when the tag decides it (else a nominal, so far)."""
_PERSONAL, _LONE = 1, 2
_WORD_CODES = {word: (_PERSONAL if word in PERSONAL_PRONOUNS else 0) | (_LONE if word in LONE_PRONOUNS else 0)
               for word in PERSONAL_PRONOUNS | LONE_PRONOUNS}
"""A lower-cased word -> whether it is a personal pronoun, a lone one, or both (bits)."""


def _types(head: np.ndarray, starts: np.ndarray, ends: np.ndarray, words: list[str], tags: _Tags, *,
           lemmas: Sequence[str], entities: tuple[np.ndarray, np.ndarray]) -> list[tuple[MentionType, str]]:
    """`_from_pos(span, head)` of each span, as masks (see the module docstring); each head's
    tag, word and lemma read in one pass each."""
    code = tags.read(head, lambda tag: _TAG_CODES.get(tag, _POS_NOMINAL), np.int8)
    rest = np.flatnonzero(code == _POS_NOMINAL)
    rest_heads = head[rest].tolist()
    word = _word_codes(map(words.__getitem__, rest_heads), len(rest))
    lemma = word if lemmas is words else _word_codes(_texts_at(lemmas, rest_heads), len(rest))
    either = word | lemma
    pronoun = ((either & _PERSONAL) > 0) | ((starts[rest] == ends[rest]) & ((either & _LONE) > 0))
    code[rest[pronoun]] = _LEMMA_PRONOUN
    others = rest[~pronoun]
    code[others[_named(starts[others], ends[others], head[others], entities)]] = _NER_NAME
    return list(map(OUTCOMES.__getitem__, code.tolist()))


class Texts(Protocol):
    """Texts read where asked, many at once (the CoNLL-2012 reader's `layout.FieldTexts`)."""

    def take(self, indices: list[int]) -> list[str]: ...


def _texts_at(texts: Sequence[str] | Texts, indices: list[int]) -> Iterable[str]:
    """The texts at `indices`: taken at once where `texts` can (`Texts`), else one by one."""
    return texts.take(indices) if hasattr(texts, "take") else map(texts.__getitem__, indices)


def _no_alphanumeric(word: str) -> bool:
    """Whether no character of `word` is a letter or digit (`heads.head_rank`'s punctuation)."""
    return not any(map(str.isalnum, word))


def _word_codes(words: Iterable[str], count: int) -> np.ndarray:
    """`_WORD_CODES` of each word, lower-cased (0 for a word of neither list)."""
    return np.fromiter(map(_WORD_CODES.get, map(str.lower, words), repeat(0)), dtype=np.int8, count=count)


def _named(starts: np.ndarray, ends: np.ndarray, heads: np.ndarray,
           entities: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """For each span, whether a name entity starting between its start and its head ends between
    its head and its end (`_DocumentTyper._entity` is True)."""
    entity_starts, entity_ends = entities
    named = np.zeros(len(starts), dtype=bool)
    if not len(entity_starts) or not len(starts):
        return named
    first = np.searchsorted(entity_starts, starts, side="left")
    counts = np.maximum(np.searchsorted(entity_starts, heads, side="right") - first, 0)
    owner = np.repeat(np.arange(len(starts)), counts)
    entity = np.arange(len(owner)) - np.repeat(np.cumsum(counts) - counts, counts) + first[owner]
    end = entity_ends[entity]
    named[owner[(heads[owner] <= end) & (end <= ends[owner])]] = True
    return named

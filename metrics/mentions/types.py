"""NAME / NOMINAL / PRONOUN for every mention, and the rule that decided it (kept for display).

Why types: Chen & Ng's linguistic weights price a link by the most informative mention type at its
ends, so every mention needs a type, and a user who doubts a score needs to see why a mention got
its type.  Types come from the document's own annotations only, never from the chains, so a key
mention and a response mention over the same tokens always get the same type (the engine types all
spans against the key document).

Rules, first that applies:
1. "explicit": the input gave the type (`Document.explicit_types`).
2. With POS tags, from the head token (`metrics.mentions.heads`):
   "pos"      PRP, PRP$, WP, WP$ -> PRONOUN; NNP, NNPS -> NAME; anything else -> NOMINAL;
   "lemma"    a personal pronoun word or lemma that the tagger did not tag PRP (dialect forms,
              tagger errors), or a lone relative/demonstrative word ("this") -> PRONOUN;
   "pos+ner"  a named entity (not a date, number or amount) lying within the mention and
              covering its non-NNP head -> NAME.  An entity reaching outside the mention says
              nothing about it ("2014" inside the PERSON entity "Smith et al. 2014").
3. Without POS tags ("words-only" files such as LitBank), from the head found by the simple rule:
   "lexicon"  the head is a pronoun of the closed lists in `metrics.mentions.lexicon` -> PRONOUN;
   "ner"      a named entity as in "pos+ner" (when a words-only format carries NEs) -> NAME;
   "capitalisation"  the head is capitalised where capitals carry information -> NAME: not at the
              start of a sentence or quotation; or after a title ("Mr. Jarndyce"); or a day or
              month name; or the document writes the word capitalised mid-sentence more often than
              in lower case; or an acronym / inner capital ("NASA", "wikiHow") never written in
              lower case in the document (so a heading "CHAPTER ONE" is not a name);
   "determiner"  such a head after "a", "this", "your", ... ("a Turk", "your Ladyship") -> NOMINAL
              (LitBank's convention; "the" is not one of them: "the Lord Chancellor" is a name);
   "words"    anything else -> NOMINAL.
A span outside the document's tokens (possible only when key and response do not align) gets
NOMINAL with rule "no tokens".

Indefinite pronouns ("someone") are NOMINAL throughout: PTB tags them NN and LitBank calls them
nominals.  benchmarks/type_accuracy.py measures every rule: the words-only rules agree with
LitBank's gold categories on 97.6% of its 29,103 mentions, the POS rules with GUM's gold UD
annotation on 98.2% of 28,465.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import accumulate, compress, count, repeat
from itertools import chain as chained
from operator import is_, itemgetter

import numpy as np

from metrics.mentions.heads import DocumentHeads, annotated, heads_for
from metrics.mentions.types_arrays import road, types_on_road, within
from metrics.mentions.types_words import span_bounds, types_by_words
from metrics.mentions.lexicon import (
    CALENDAR_NAMES,
    DETERMINERS,
    LONE_PRONOUNS,
    NAME_TAGS,
    NON_NAME_ENTITIES,
    PERSONAL_PRONOUNS,
    PRONOUN_TAGS,
    TITLES,
)
from metrics.model import Document, MentionType, Span
from metrics.runtime.parallel import PARALLEL_TOKENS, fork_map, split

NAME, NOMINAL, PRONOUN = MentionType.NAME, MentionType.NOMINAL, MentionType.PRONOUN

OPENING_MARKS = frozenset({'"', "``", "“", "‘", "'", "(", "[", "-", "--", "—", ":", ";", "_"})
"""Tokens after which a capital is as uninformative as at the start of a sentence."""
SENTENCE_ENDS = frozenset({".", "!", "?"})
"""Tokens after which a capital is at a sentence's start, whatever the sentence breaks say."""


def assign_types(doc: Document, spans: Iterable[Span]) -> dict[Span, tuple[MentionType, str]]:
    """Type and deciding rule of each span of `doc` (see the module docstring for the rules);
    the document's own mentions may come typed ahead (`prepare_types`)."""
    return DocumentTypes(doc).of(spans)


class DocumentTypes:
    """`assign_types` of one document, asked again and again: the typer's per-document state (its
    named entities sorted, its capitalisation counts) made once, at the first span not typed ahead.

    Why: K&K's kinds without a parse were asked mention by mention, and a typer made per question
    sorted the whole document's named entities each time: quadratic in a document's size (on a
    295,000-word CoNLL-U book, 40,000 typers and 395 s of CPU for `errors --taxonomy kk`, 9 s
    since; benchmarks/README.md, branch kkud)."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self._typer: _DocumentTyper | None = None

    def of(self, spans: Iterable[Span]) -> dict[Span, tuple[MentionType, str]]:
        """Type and deciding rule of each span (those typed ahead found, the others typed)."""
        spans = list(spans)
        if not self.doc.rule_types and spans:  # none typed ahead (a UA file's): every span typed here
            return dict(zip(spans, self._typed(spans)))
        typed = list(map((self.doc.rule_types or {}).get, spans))
        unknown = [span for span, kind in zip(spans, typed) if kind is None]
        if unknown:
            found = iter(self._typed(unknown))
            typed = [kind if kind is not None else next(found) for kind in typed]
        return dict(zip(spans, typed))

    def _typed(self, spans: list[Span]) -> list[tuple[MentionType, str]]:
        if self._typer is None:
            self._typer = _DocumentTyper(self.doc)
        return self._typer.types_of(spans)


def types_together(documents: Sequence[Document], spans: Sequence[Sequence[Span]], *, typed_ahead: bool = True
                   ) -> tuple[list[dict[Span, tuple[MentionType, str]]], np.ndarray]:
    """`assign_types(documents[d], spans[d])` of each document, for all at once, and the types of
    all the spans laid end to end (`MentionType`'s integer).

    Why: a corpus of 20,000 tiny documents paid a typing call per document (a typer and a head
    finder each) where its key's types, found ahead (`prepare_types`), are one lookup a span.
    Here every span is looked up in one pass; only the documents with a span their own mentions
    do not type (a response's mention the key lacks) get a typer, for those spans alone.  Without
    `typed_ahead` no span is looked up (spans known to be none of the documents' own mentions)."""
    ends = list(accumulate(map(len, spans)))
    found: list[tuple[MentionType, str] | None] | None = _all_on_road(documents, spans, typed_ahead)
    unknown: list[int] = []
    if found is None:
        found = []
        for doc, doc_spans in zip(documents, spans):
            found += map(doc.rule_types.get, doc_spans) if typed_ahead and doc.rule_types else repeat(None, len(doc_spans))
        unknown = list(compress(count(), map(is_, found, repeat(None))))
    if unknown:
        owners = np.searchsorted(np.asarray(ends, dtype=np.int64), np.asarray(unknown, dtype=np.int64), side="right")
        flat = list(chained.from_iterable(spans))
        alone: list[tuple[int, list[int]]] = []
        joined: tuple[list, list] = ([], [])  # documents with dependency heads, and without
        on_road: list[tuple[int, list[int], int, list[int]]] = []  # and where its spans start, the heads
        unknown_spans = list(map(flat.__getitem__, unknown))
        bounds = np.fromiter(chained.from_iterable(unknown_spans), dtype=np.int64, count=2 * len(unknown_spans))
        inside = within(documents, bounds, owners)
        first = 0
        for doc, at in _groups(owners, unknown):
            doc_spans, first = unknown_spans[first:first + len(at)], first + len(at)
            dep = road(documents[doc]) if inside[first - len(at):first].all() else None
            if dep is not None:
                on_road.append((doc, at, first - len(at), dep))
                continue
            dep = _joinable(documents[doc], doc_spans)
            if dep is None:
                alone.append((doc, at))
            else:
                joined[not dep].append((doc, at, dep))
        for group in joined:
            if len(group) < 2:
                alone += [(doc, at) for doc, at, _ in group]
                continue
            for i, kind in zip([i for _, at, _ in group for i in at], _typed_joined(documents, group, flat)):
                found[i] = kind
        for doc, at in alone:
            for i, kind in zip(at, _DocumentTyper(documents[doc]).types_of([flat[i] for i in at])):
                found[i] = kind
        if on_road:
            places = np.concatenate([np.arange(place, place + len(at)) for _, at, place, _ in on_road])
            on_road_types = types_on_road([documents[doc] for doc, _, _, _ in on_road],
                                          bounds.reshape(-1, 2)[places].reshape(-1),
                                          [len(at) for _, at, _, _ in on_road], [dep for _, _, _, dep in on_road])
            for i, kind in zip(chained.from_iterable(at for _, at, _, _ in on_road), on_road_types):
                found[i] = kind
    kinds = np.fromiter(map(itemgetter(0), found), dtype=np.int64, count=len(found))
    typed = [dict(zip(doc_spans, found[end - len(doc_spans):end])) for doc_spans, end in zip(spans, ends)]
    return typed, kinds


def _all_on_road(documents: Sequence[Document], spans: Sequence[Sequence[Span]], typed_ahead: bool = True
                 ) -> list[tuple[MentionType, str]] | None:
    """The types of every span, when none is to be looked up among mentions typed ahead (no
    document has them, or `typed_ahead` is off) and every document
    takes the POS road (`types_arrays.road`) with all its spans within its tokens: all of them
    typed by `types_on_road` at once, in order, as `types_together` would type them one group at
    a time (a span's type reads its own document alone); else None.  Why: a cold run types every
    span this way, and sorting them into groups cost a tenth of it."""
    if not documents or (typed_ahead and any(doc.rule_types for doc in documents)):
        return None
    heads = list(map(road, documents))
    if any(dep is None for dep in heads):
        return None
    counts = list(map(len, spans))
    flat = list(chained.from_iterable(spans))
    try:
        bounds = np.fromiter(chained.from_iterable(flat), dtype=np.int64, count=2 * len(flat))
    except (TypeError, ValueError, OverflowError):  # not pairs of ints: the general road tells
        return None
    if not within(documents, bounds, np.repeat(np.arange(len(documents)), counts)).all():
        return None
    return types_on_road(documents, bounds, counts, heads)


JOINED_TOKENS = 64
"""Documents of at most this many tokens are typed together (`_typed_joined`): for a few spans a
typer's and a head finder's set-up per document cost more than the spans do."""


def _joinable(doc: Document, spans: list[Span]) -> list[int] | None:
    """The dependency heads a small document's spans are typed with ([] for none: heads by the
    simple rule), when typing them joined to other documents' gives what its own typer gives: the
    POS road with every span within the document (`_DocumentTyper.types_of`), heads from
    dependencies (given, or the parse's found ahead: `prepare_types`) or from none (no parse, or
    one found ahead to give none), lemmas and named entities per token within it; else None."""
    n = len(doc.words)
    if not 0 < n <= JOINED_TOKENS or doc.explicit_types or doc.pos is None or len(doc.pos) != n:
        return None
    if doc.heads is not None and len(doc.heads) == n:
        dep = doc.heads
    elif doc.parse is None or len(doc.parse) != n or not annotated(doc.parse):
        dep = []  # as `DocumentHeads`: no parse to read
    elif doc.parse_heads is not None and (not doc.parse_heads or len(doc.parse_heads) == n):
        dep = doc.parse_heads  # found ahead: heads, or [] for none
    else:
        return None
    if (not annotated(doc.pos) or (doc.lemmas is not None and len(doc.lemmas) != n)
            or not all(0 <= s <= e < n for s, e in spans)
            or not all(0 <= s <= e < n for s, e, _ in doc.named_entities or ())):
        return None
    return dep


def _typed_joined(documents: Sequence[Document], joined: list[tuple[int, list[int], list[int]]],
                  flat: list[Span]) -> list[tuple[MentionType, str]]:
    """`_DocumentTyper(documents[d]).types_of` of each group's spans (d, the places of its spans
    in `flat`, its dependency heads, all given or all none: `_joinable`), for all the groups at
    once: their documents joined into one (words, tags, lemmas, heads and entities shifted past
    the tokens before them) and typed by one typer.  The same types: on the POS road a span's type
    reads its own tokens alone (its head among them, by dependencies or the simple rule, their
    tags, words and lemmas, the entities within it), and a head outside a document (a root, a
    head past its end) is a root in the joined one."""
    words: list[str] = []
    pos: list[str] = []
    lemmas: list[str] = []
    heads: list[int] = []
    entities: list[tuple[int, int, str]] = []
    shifted: list[Span] = []
    for d, at, dep in joined:
        doc, offset = documents[d], len(words)
        n = len(doc.words)
        words += doc.words
        pos += doc.pos or ()
        lemmas += doc.lemmas if doc.lemmas is not None else doc.words  # no lemma: its word, as the typer reads it
        heads += [x + offset if 0 <= x < n else -1 for x in dep]
        entities += [(s + offset, e + offset, label) for s, e, label in doc.named_entities or ()]
        shifted += [(flat[i][0] + offset, flat[i][1] + offset) for i in at]
    document = Document(name="", words=words, chains=[], pos=pos, lemmas=lemmas, heads=heads or None,
                        named_entities=entities or None)
    return _DocumentTyper(document).types_of(shifted)


def _groups(owners: np.ndarray, items: list[int]) -> Iterable[tuple[int, list[int]]]:
    """(owner, its items) of items listed owner by owner (`owners`: each item's)."""
    cuts = [0, *(np.flatnonzero(owners[1:] != owners[:-1]) + 1).tolist(), len(items)]
    for start, end in zip(cuts, cuts[1:]):
        yield int(owners[start]), items[start:end]


def prepare_types(documents: Sequence[Document], processes: int = 1) -> None:
    """Type each document's own mentions and keep the parse's heads on it (none, [], where its
    parse column gives none), ahead of scoring, so that the cache of read files keeps them: a
    key's types are then found, not computed, in every later run (assign_types gives the same
    results either way; they are found as `types_together` finds them, for all documents at
    once).  With `processes` > 1 the
    documents are typed in forked processes (`metrics.runtime.parallel`) when there are enough tokens."""

    def typed(indices: list[int]) -> list[tuple[list[int] | None, dict[Span, tuple[MentionType, str]]]]:
        piece = [documents[i] for i in indices]
        found, _ = types_together(piece, [list(dict.fromkeys(doc.mentions())) for doc in piece])  # all at once
        out = []
        for doc, rule_types in zip(piece, found):
            heads = heads_for(doc)
            # [] for a parse column that gives no heads (malformed: a document cut mid-sentence),
            # so that a later run does not try it again
            parse_heads = heads.dep if heads.rule == "parse" else [] if heads.rule == "rule" and doc.parse else None
            out.append((parse_heads, rule_types))
        return out

    pieces = split([len(doc.words) for doc in documents], processes, PARALLEL_TOKENS)
    for piece, results in zip(pieces, fork_map(typed, pieces)):
        for i, (parse_heads, rule_types) in zip(piece, results):
            if parse_heads is not None:
                documents[i].parse_heads = parse_heads
            documents[i].rule_types = rule_types


class _DocumentTyper:
    """Per-document state: head finder, named-entity tokens, capitalisation statistics."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.heads: DocumentHeads = heads_for(doc)
        self.words = doc.words
        self.pos = self.heads.pos
        self.lemmas = doc.lemmas
        self.explicit = doc.explicit_types or {}
        # Named entities sorted by their first token: (start, end, is_name), and the starts alone
        # (found by bisection: a document's entities are not spread over its tokens up front).
        self.entities: list[tuple[int, int, bool]] | None = None
        self.entity_starts: list[int] = []
        if doc.named_entities:
            self.entities = sorted((start, end, label.upper() not in NON_NAME_ENTITIES)
                                   for start, end, label in doc.named_entities)
            self.entity_starts = [start for start, _, _ in self.entities]
        self._initial: np.ndarray | None = None
        self._codes: tuple[list[str], np.ndarray] | None = None
        self._cap_mid: Counter[str] | None = None
        self._lower: Counter[str] | None = None

    def types_of(self, spans: list[Span]) -> list[tuple[MentionType, str]]:
        """`type_of` of many spans, their heads found together (`DocumentHeads.heads`) when the
        document has POS tags and no explicit types (the common case: CoNLL-2012 files); without
        tags, parse, heads or named entities (a UA file's) by the words road as array work
        (`types_words`)."""
        n = len(self.words)
        if not self.explicit and self.pos is None and self.entities is None and self.heads.dep is None:
            bounds = span_bounds(spans)  # the words road, every span at once
            if bounds is not None and (not len(bounds) or (bounds[:, 0].min() >= 0 and (bounds[:, 0] <= bounds[:, 1]).all()
                                                           and bounds[:, 1].max() < n)):
                return types_by_words(bounds, self._coded, self._initial_flags, self._cap_stats)
        if self.explicit or self.pos is None or not all(0 <= s <= e < n for s, e in spans):
            return [self.type_of(span) for span in spans]
        pos, from_pos = self.pos, self._from_pos
        out = []
        for span, head in zip(spans, self.heads.heads(spans)):
            tag = pos[head]
            out.append((PRONOUN, "pos") if tag in PRONOUN_TAGS else (NAME, "pos") if tag in NAME_TAGS
                       else from_pos(span, head))
        return out

    def type_of(self, span: Span) -> tuple[MentionType, str]:
        explicit = self.explicit.get(span)
        if explicit is not None:
            return MentionType(explicit), "explicit"
        if not 0 <= span[0] <= span[1] < len(self.words):
            # A response span beyond the key's tokens (documents that do not align; the engine
            # warns about those): no words to look at, so the neutral middle type.
            return NOMINAL, "no tokens"
        head, _source = self.heads.head(span)
        if self.pos is not None:
            return self._from_pos(span, head)
        return self._from_words(span, head)

    # -------------------------------------------------------------- with POS tags

    def _from_pos(self, span: Span, head: int) -> tuple[MentionType, str]:
        tag = self.pos[head]
        if tag in PRONOUN_TAGS:
            return PRONOUN, "pos"
        if tag in NAME_TAGS:
            return NAME, "pos"
        if self._pronoun_word(span, head, use_lemma=True):
            return PRONOUN, "lemma"
        if self._entity(span, head):
            return NAME, "pos+ner"
        return NOMINAL, "pos"

    def _entity(self, span: Span, head: int) -> bool | None:
        """Is the head inside a named entity that lies within the span: True for a name, False
        for a value (date, amount), None for no such entity.  An entity that reaches outside the
        mention says nothing about it ("2014" inside "Smith et al. 2014").  Such an entity starts
        between the span's start and the head: only those are looked at."""
        if self.entities is None:
            return None
        found = None
        first = bisect_left(self.entity_starts, span[0])
        for start, end, is_name in self.entities[first:bisect_right(self.entity_starts, head)]:
            if head <= end <= span[1]:
                if is_name:
                    return True
                found = False
        return found

    def _pronoun_word(self, span: Span, head: int, use_lemma: bool) -> bool:
        word = self.words[head].lower()
        lemma = self.lemmas[head].lower() if use_lemma and self.lemmas is not None else word
        if word in PERSONAL_PRONOUNS or lemma in PERSONAL_PRONOUNS:
            return True
        return span[0] == span[1] and (word in LONE_PRONOUNS or lemma in LONE_PRONOUNS)

    # -------------------------------------------------------------- words only

    def _from_words(self, span: Span, head: int) -> tuple[MentionType, str]:
        word = self.words[head]
        if self._pronoun_word(span, head, use_lemma=False) and word != "US":
            return PRONOUN, "lexicon"
        if self._entity(span, head):
            return NAME, "ner"
        if self._capitalised_name(span, head):
            if head > span[0] and self.words[span[0]].lower() in DETERMINERS:
                return NOMINAL, "determiner"
            return NAME, "capitalisation"
        return NOMINAL, "words"

    def _capitalised_name(self, span: Span, head: int) -> bool:
        word = self.words[head]
        if any(c.isupper() for c in word[1:]):
            # An acronym ("NASA", "U.S.") or inner capitals ("wikiHow", "IE6") mark a name, unless the
            # document also writes the word in lower case (a heading: "CHAPTER", "THE END").
            return self._cap_stats()[1][word.lower()] == 0 and any(c.isalpha() for c in word)
        if not word[:1].isupper():
            return False
        if not self._initial_flags()[head] or word.lower() in CALENDAR_NAMES:
            return True
        if head > span[0] and self.words[head - 1].lower() in TITLES:
            return True
        cap_mid, lower = self._cap_stats()
        return cap_mid[word.lower()] > lower[word.lower()]

    def _coded(self) -> tuple[list[str], np.ndarray]:
        """The document's distinct words (in the order first met) and each token's number among
        them: the capitalisation counts and the words road test each distinct word once."""
        if self._codes is None:
            distinct = list(dict.fromkeys(self.words))
            number = dict(zip(distinct, range(len(distinct))))
            self._codes = distinct, np.fromiter(map(number.__getitem__, self.words), np.int64, len(self.words))
        return self._codes

    def _initial_flags(self) -> np.ndarray:
        """True for tokens whose capital is due to position: sentence starts and after opening
        quotes or similar marks (or after a full stop, !, ?), and after a token that is itself
        initial and does not start with a letter or digit (`"` after a sentence start).  As arrays:
        a loop over a book's 280,000 words was a fifth of its typing."""
        if self._initial is None:
            distinct, code = self._coded()
            n = len(code)
            opening = np.fromiter((w in OPENING_MARKS or w in SENTENCE_ENDS for w in distinct), bool, len(distinct))[code]
            alnum = np.fromiter((w[:1].isalnum() for w in distinct), bool, len(distinct))[code]
            base = np.zeros(n, dtype=bool)
            starts = np.array([s for s in (self.doc.sentence_starts or [0]) if 0 <= s < n], dtype=np.int64)
            base[starts] = True
            base[1:] |= opening[:-1]
            # a run of tokens that do not start alphanumerically carries an initial token's flag on
            tokens = np.arange(n, dtype=np.int64)
            last_base = np.maximum.accumulate(np.where(base, tokens, -1))
            alnum_before = np.full(n, -1, dtype=np.int64)
            alnum_before[1:] = np.maximum.accumulate(np.where(alnum[:-1], tokens[:-1], -1))
            initial = base | ((last_base >= 0) & (alnum_before < last_base))
            if n:
                initial[0] = True
            self._initial = initial
        return self._initial

    def _cap_stats(self) -> tuple[Counter[str], Counter[str]]:
        """How often each word is written capitalised mid-sentence and lower-case in the document
        (counted per distinct word: a loop over every token was most of a book's typing)."""
        if self._cap_mid is None or self._lower is None:
            distinct, code = self._coded()
            capital = np.fromiter((w[:1].isupper() and not (w.isupper() and len(w) > 1) for w in distinct), bool,
                                  len(distinct))
            mid = np.bincount(code[capital[code] & ~self._initial_flags()], minlength=len(distinct)).tolist()
            every = np.bincount(code, minlength=len(distinct)).tolist()
            cap_mid: Counter[str] = Counter()
            lower: Counter[str] = Counter()
            for word, times, capitalised in zip(distinct, every, mid):
                if word.islower():
                    lower[word] += times
                elif capitalised:
                    cap_mid[word.lower()] += capitalised
            self._cap_mid, self._lower = cap_mid, lower
        return self._cap_mid, self._lower

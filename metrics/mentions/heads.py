"""The head token of a mention span, from whatever syntax the document carries.

Why heads: a mention's type (name, nominal, pronoun) is the type of its head word: "the mayor of
London" is a nominal although it contains a name, "London 's mayor" too, and "he" is a pronoun.

Three sources, best first:
- "dependency": dependency heads given by the input (`Document.heads`, e.g. CoNLL-U).  These are an
  annotation of heads, so they win over head rules.
- "parse": a CoNLL-2012 parse column (`(NP(NP*`, `*)`, ...).  The trees are turned into token-level
  dependencies by Collins (1999) head rules (`metrics.mentions.heads_parse`: for all of a file's
  documents at once, as the reader does, or for one), so that both sources are used the same way.
- "rule": neither; the last token before the first preposition, relative word, comma or similar,
  else the last token (ignoring trailing punctuation and possessive 's).  English noun phrases
  are head-final before their post-modifiers, which is all this rule knows.

With dependencies, the head of a span is the token of the span whose head lies outside it; when a
span is not a syntactic unit there are several, and the winner is a noun or pronoun if there is one
(a mention is a noun phrase; "processing" in "processing in the arts" when the parser attached the
PP to the verb), else a word rather than punctuation, then the one closest to the root, then the
rightmost.  For a span that is a constituent this is exactly the constituent's head-rule head.

Per-document work (reading trees, depths) is done once and cached; `head_of` is then O(span length).
"""

from __future__ import annotations

import re
import weakref
from functools import cached_property
from itertools import chain as chained

import numpy as np

from metrics.mentions.heads_parse import parse_dependencies
from metrics.model import Document, Span

MISSING = {"", "_", "-"}
"""Column values meaning "no annotation" (LitBank fills every column with `_`)."""

PUNCT_TAGS = {",", ".", ":", "``", "''", "-LRB-", "-RRB-", "HYPH", "NFP", "$", "#"}
CUT_TAGS = {"IN", "TO", "WDT", "WP", "WP$", "WRB", ",", ":", "-LRB-"}
"""POS tags that end a noun phrase's pre-head part in the simple rule (prepositions, relatives,
punctuation): "many of them", "the man who came"."""
CLAUSE_TAGS = {"VBG", "VBN", "VBD", "VBZ", "VBP", "VB", "MD", "PRP"}
"""Tags that end it only after a noun (reduced relatives, "the book he wrote"), since before a noun
they are modifiers ("the running man")."""
CUT_WORDS = {
    "of", "in", "on", "at", "with", "from", "to", "by", "for", "about", "into", "onto", "upon", "over",
    "under", "after", "before", "between", "among", "through", "during", "without", "within", "like",
    "near", "against", "towards", "toward", "behind", "beyond", "across", "along", "around", "beside",
    "who", "whom", "whose", "which", "that", "where", "when", ",", ";", ":", "(", "--", "—",
}  # fmt: skip
"""Words that end the pre-head part when there are no POS tags."""
REFLEXIVES = {"myself", "yourself", "himself", "herself", "itself", "ourselves", "yourselves", "themselves"}
"""An intensifier after a noun ("the property itself") is not its head."""
_NUMBER = re.compile(r"^(\d[\d.,:/-]*|[IVXLC]+)$")
POSSESSIVE_WORDS = ("'s", "'", "’s", "’")
"""Possessive markers, in lower case."""
POSSESSIVE_FORMS = frozenset(form for word in POSSESSIVE_WORDS for form in (word, word.upper()))
"""Every word whose lower case is a possessive marker (of the characters, only `S` lowers to one of
theirs, `s`: a test holds it), to look words up without lowering them."""
TRAILING_WORDS = {"'s", "'", "’s", "’", ".", ",", "!", "?", '"', "''", "``", "“", "”", "‘", ")", ";", ":"}

class DocumentHeads:
    """Head finding for one document: the syntax is read once, spans are then cheap."""

    def __init__(self, doc: Document) -> None:
        self.words = doc.words
        self.pos = doc.pos if doc.pos is not None and annotated(doc.pos) else None
        self.rule = "rule"
        self.dep: list[int] | None = None
        n = len(doc.words)
        if doc.heads is not None and len(doc.heads) == n and n:
            self.dep, self.rule = list(doc.heads), "dependency"
        elif doc.parse is not None and len(doc.parse) == n and annotated(doc.parse):
            dep = doc.parse_heads if doc.parse_heads is not None else parse_dependencies([doc.parse], [self.pos])[0]
            if dep:  # none (None), or none found ahead ([]: `types.prepare_types`)
                self.dep, self.rule = dep, "parse"

    def depth(self, token: int) -> int:
        """Distance of a token from its root; a cycle (bad input may have one) counts as a root.

        Walked up on demand: only tokens competing for the head of a span need it."""
        dep = self.dep or []
        seen = {token}
        depth, x = 0, token
        while 0 <= dep[x] < len(dep) and dep[x] not in seen:
            x = dep[x]
            seen.add(x)
            depth += 1
        return depth

    def head(self, span: Span) -> tuple[int, str]:
        """(head token, source) of an inclusive span; ValueError for a span outside the document."""
        start, end = span
        if not 0 <= start <= end < len(self.words):
            raise ValueError(f"span {span} is not within the document's {len(self.words)} tokens")
        if self.dep is not None:
            dep = self.dep
            candidates = [t for t in range(start, end + 1) if not start <= dep[t] <= end]
            if len(candidates) == 1:
                return self._step_over_possessive(candidates[0], start), self.rule
            if candidates:
                best = min(candidates, key=lambda t: (self._rank(t), self.depth(t), -t))
                return self._step_over_possessive(best, start), self.rule
        return self._simple(start, end), "rule"

    def heads(self, spans: list[Span]) -> list[int]:
        """`head` of many spans within the document (the head tokens alone).

        Whole-array work for the usual case, a span with one token whose head lies outside it:
        every span's tokens laid end to end, each compared with its span's bounds at once; the
        others (several such tokens, none, or no dependencies) go through `head` one by one, as
        do spans outside the document (`head`'s ValueError)."""
        if self.dep is None or not spans:
            return [self.head(span)[0] for span in spans]
        flat = np.fromiter(chained.from_iterable(spans), dtype=np.int64, count=2 * len(spans))
        starts, ends = flat[0::2], flat[1::2]
        if not ((0 <= starts) & (starts <= ends) & (ends < len(self.words))).all():
            return [self.head(span)[0] for span in spans]
        lengths = ends - starts + 1
        owner = np.repeat(np.arange(len(spans)), lengths)
        tokens = np.arange(len(owner)) - np.repeat(np.cumsum(lengths) - lengths - starts, lengths)
        up = self._dep_array[tokens]
        outside = (up < starts[owner]) | (up > ends[owner])
        candidates = np.bincount(owner[outside], minlength=len(spans))
        head = np.zeros(len(spans), dtype=np.int64)
        head[owner[outside]] = tokens[outside]  # one write per span where there is one candidate
        inner = np.flatnonzero(head > starts)  # as `_step_over_possessive`, for all at once
        head[inner] -= self._possessive(head[inner].tolist())
        out = head.tolist()
        for i in np.flatnonzero(candidates != 1).tolist():
            out[i] = self.head(spans[i])[0]
        return out

    def _possessive(self, tokens: list[int]) -> np.ndarray:
        """For each token, whether it is a possessive marker (`_step_over_possessive` steps over
        it): its word's look-ups in C (`map`), not a call per token."""
        marker = np.fromiter(map(POSSESSIVE_FORMS.__contains__, map(self.words.__getitem__, tokens)), dtype=bool,
                             count=len(tokens))
        if self.pos is not None:
            marker |= np.fromiter(map("POS".__eq__, map(self.pos.__getitem__, tokens)), dtype=bool, count=len(tokens))
        return marker

    @cached_property
    def _dep_array(self) -> np.ndarray:
        return np.asarray(self.dep, dtype=np.int64)

    def _rank(self, token: int) -> int:
        return head_rank(self.words[token], None if self.pos is None else self.pos[token])

    def _step_over_possessive(self, token: int, start: int) -> int:
        """'s / POS heads (Collins's NP rule picks them) -> the possessor before them."""
        if token > start and (
            (self.pos is not None and self.pos[token] == "POS") or self.words[token].lower() in POSSESSIVE_WORDS
        ):
            return token - 1
        return token

    def _simple(self, start: int, end: int) -> int:
        """Last token before the first cut word (after the first token), trailing punctuation and
        possessive markers skipped; else the last token.  With POS tags, the last noun-like token
        before the cut (else the token just before it), where verbs and personal pronouns cut
        only after a noun."""
        words, pos = self.words, self.pos
        last = end
        if pos is not None:
            noun = -1
            for t in range(start, end + 1):
                if t > start and pos[t] in CUT_TAGS:
                    if noun < 0:
                        noun = t - 1
                    break
                if noun >= 0 and pos[t] in CLAUSE_TAGS:
                    break
                if pos[t][:2] == "NN" or pos[t] in ("PRP", "CD", "WP"):
                    noun = t
            if noun >= 0:
                last = noun
        else:
            for t in range(start + 1, end + 1):
                if words[t].lower() in CUT_WORDS:
                    last = t - 1
                    break
        while last > start and (
            words[last].lower() in TRAILING_WORDS
            or words[last].lower() in REFLEXIVES
            or (pos is not None and (pos[last] in PUNCT_TAGS or pos[last] == "POS"))
        ):
            last -= 1
        # "Figure 1", "World War II", "Internet Explorer 6": the number labels the noun before it.
        while last > start and _NUMBER.match(words[last]) and (pos is None or pos[last] == "CD") and words[last - 1][:1].isupper():
            last -= 1
        return last


def head_rank(word: str, tag: str | None) -> int:
    """A token's rank among the tokens that could head a span (the least wins): 0 for one that
    could head a noun phrase (any word when there are no POS tags), 1 for another word, 2 for
    punctuation."""
    if not any(c.isalnum() for c in word) or (tag is not None and tag in PUNCT_TAGS):
        return 2
    return 0 if tag is None or tag[:2] in ("NN", "PR", "CD", "WP") else 1


def annotated(column: list[str]) -> bool:
    """Whether a column holds any annotation (a value other than the `MISSING` ones)."""
    return any(value not in MISSING for value in column)


_cache: dict[int, tuple[weakref.ref, DocumentHeads]] = {}


def heads_for(doc: Document) -> DocumentHeads:
    """The (cached) head finder of a document; rebuilt if the document object is new."""
    key = id(doc)
    hit = _cache.get(key)
    if hit is not None and hit[0]() is doc:
        return hit[1]
    finder = DocumentHeads(doc)
    _cache[key] = (weakref.ref(doc, lambda _ref, key=key: _cache.pop(key, None)), finder)
    return finder


def head_of(doc: Document, span: Span) -> tuple[int, str]:
    """Head token index of `span` in `doc` and the source that decided it ("dependency", "parse",
    "rule")."""
    return heads_for(doc).head(span)

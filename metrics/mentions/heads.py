"""The head token of a mention span, from whatever syntax the document carries.

Why heads: a mention's type (name, nominal, pronoun) is the type of its head word: "the mayor of
London" is a nominal although it contains a name, "London 's mayor" too, and "he" is a pronoun.

Three sources, best first:
- "dependency": dependency heads given by the input (`Document.heads`, e.g. CoNLL-U).  These are an
  annotation of heads, so they win over head rules.
- "parse": a CoNLL-2012 parse column (`(NP(NP*`, `*)`, ...).  The trees are read once per document
  and turned into token-level dependencies by Collins (1999) head rules, so that both sources are
  used the same way.
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
from functools import cached_property, lru_cache
from itertools import chain as chained

import numpy as np

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
TRAILING_WORDS = {"'s", "'", "’s", "’", ".", ",", "!", "?", '"', "''", "``", "“", "”", "‘", ")", ";", ":"}

# ------------------------------------------------------------------ Collins (1999) head rules
# (category of parent) -> list of (direction, categories); the first rule with a matching child
# decides; "left" searches children from the left, "right" from the right.  An empty category
# list takes the first child in that direction.

_RULES: dict[str, list[tuple[str, tuple[str, ...]]]] = {
    "ADJP": [("left", ("NNS", "QP", "NN", "$", "ADVP", "JJ", "VBN", "VBG", "ADJP", "JJR", "NP", "JJS", "DT", "FW", "RBR", "RBS", "SBAR", "RB"))],
    "ADVP": [("right", ("RB", "RBR", "RBS", "FW", "ADVP", "TO", "CD", "JJR", "JJ", "IN", "NP", "JJS", "NN"))],
    "CONJP": [("right", ("CC", "RB", "IN"))],
    "FRAG": [("right", ())],
    "INTJ": [("left", ())],
    "LST": [("right", ("LS", ":"))],
    "NAC": [("left", ("NN", "NNS", "NNP", "NNPS", "NP", "NAC", "EX", "$", "CD", "QP", "PRP", "VBG", "JJ", "JJS", "JJR", "ADJP", "FW"))],
    "PP": [("right", ("IN", "TO", "VBG", "VBN", "RP", "FW"))],
    "PRN": [("left", ())],
    "PRT": [("right", ("RP",))],
    "QP": [("left", ("$", "IN", "NNS", "NN", "JJ", "RB", "DT", "CD", "NCD", "QP", "JJR", "JJS"))],
    "RRC": [("right", ("VP", "NP", "ADVP", "ADJP", "PP"))],
    "S": [("left", ("TO", "IN", "VP", "S", "SBAR", "ADJP", "UCP", "NP"))],
    "SBAR": [("left", ("WHNP", "WHPP", "WHADVP", "WHADJP", "IN", "DT", "S", "SQ", "SINV", "SBAR", "FRAG"))],
    "SBARQ": [("left", ("SQ", "S", "SINV", "SBARQ", "FRAG"))],
    "SINV": [("left", ("VBZ", "VBD", "VBP", "VB", "MD", "VP", "S", "SINV", "ADJP", "NP"))],
    "SQ": [("left", ("VBZ", "VBD", "VBP", "VB", "MD", "VP", "SQ"))],
    "UCP": [("right", ())],
    "VP": [("left", ("TO", "VBD", "VBN", "MD", "VBZ", "VB", "VBG", "VBP", "VP", "ADJP", "NN", "NNS", "NP"))],
    "WHADJP": [("left", ("CC", "WRB", "JJ", "ADJP"))],
    "WHADVP": [("right", ("CC", "WRB"))],
    "WHPP": [("right", ("IN", "TO", "FW"))],
    "X": [("right", ())],
}
# Collins's NP rule (also used for NX, NML and, as in Stanford's modified Collins rules, for WHNP,
# so that "the beginning of which" is headed by "beginning"): the last word if it is a possessive marker; else
# the rightmost noun; else the leftmost NP; else the rightmost $/ADJP/PRN; the rightmost CD; the
# rightmost adjective/adverb/QP; else the last word.  Possessive 's is then stepped over in
# `_token_head`, because the possessor ("John" of "John 's") is what a mention type needs.
_NP_RULES: list[tuple[str, tuple[str, ...]]] = [
    ("right", ("NN", "NNP", "NNPS", "NNS", "NX", "NML", "POS", "JJR")),
    ("left", ("NP", "WHNP")),
    ("right", ("$", "ADJP", "PRN")),
    ("right", ("CD",)),
    ("right", ("JJ", "JJS", "RB", "QP")),
    ("right", ()),
]


@lru_cache(maxsize=None)
def _base(label: str) -> str:
    """NP-SBJ-1 -> NP, NP=2 -> NP (function tags and indices do not change heads)."""
    if label.startswith("-"):
        return label
    return re.split(r"[-=]", label, maxsplit=1)[0] or "X"


_NP_LIKE = frozenset({"NP", "NX", "NML", "WHNP"})


@lru_cache(maxsize=65536)
def _head_child(base: str, children: tuple[str, ...]) -> int:
    """Index of the head child of a constituent, by Collins's rules; labels are base labels.

    Memoised: a treebank repeats a few thousand (label, children) patterns (NP -> DT NN ...), so
    most constituents of a document cost a dictionary look-up.
    """
    n = len(children)
    if base in _NP_LIKE:
        if children[-1] == "POS":
            return n - 1
        for direction, categories in _NP_RULES:
            order = range(n) if direction == "left" else range(n - 1, -1, -1)
            if not categories:
                return order[0]
            # Collins NP: the first child, in direction, of ANY of the categories.
            for i in order:
                if children[i] in categories:
                    return i
        return n - 1
    rules = _RULES.get(base, [("left", ())])
    for direction, categories in rules:
        order = range(n) if direction == "left" else range(n - 1, -1, -1)
        if not categories:
            return order[0]
        # Other rules: for each category in priority order, the first child (in direction) of it.
        for category in categories:
            for i in order:
                if children[i] == category:
                    return i
    return 0 if rules[-1][0] == "left" else n - 1


@lru_cache(maxsize=65536)
def read_parse_bit(bit: str) -> tuple[tuple[str, ...], int] | None:
    """(labels opened, as written, and number of constituents closed) of a parse bit such as
    `(NP-SBJ(NP*))`; None for a malformed one.  Memoised: a corpus has about a thousand distinct
    bits.  (The Kummerfeld & Klein analysis reads full labels, as its analyser does.)"""
    star = bit.find("*")
    if star < 0 or "*" in bit[star + 1 :]:
        return None
    opening, closing = bit[:star], bit[star + 1 :]
    labels: tuple[str, ...] = ()
    if opening:
        parts = opening.split("(")
        if parts[0].strip():
            return None
        labels = tuple(label.strip() for label in parts[1:])
    n_close = closing.count(")")
    if n_close != len(closing.strip()):
        return None
    return labels, n_close


@lru_cache(maxsize=65536)
def _parse_bit(bit: str) -> tuple[tuple[str, ...], int] | None:
    """`read_parse_bit` with base labels (function tags and indices do not change heads)."""
    parsed = read_parse_bit(bit)
    return None if parsed is None else (tuple(_base(label) for label in parsed[0]), parsed[1])


def _dependencies_from_parse(parse: list[str], pos: list[str] | None) -> list[int] | None:
    """Token -> head token (-1 for the head of a tree), by head percolation over the trees of the
    CoNLL parse bits, in one pass.  None when the column is malformed (then another source is used).

    Each open constituent is a frame (base label, child labels, child head tokens); when it
    closes, its head child is chosen, the other children's heads attach to it, and the frame
    becomes a child of the enclosing one.  Each distinct bit is read once (a book has a few
    thousand), and a bit that opens and closes nothing (`*`, most tokens) only adds its token to
    the innermost frame: a step of a few operations per token.  (An array version over all
    bits at once was measured no faster: its per-constituent choice of a head child and the
    string look-ups cost what this walk costs.)
    """
    heads = [-1] * len(parse)
    tags = pos if pos is not None else ["X"] * len(parse)
    shapes = {bit: _parse_bit(bit) for bit in set(parse)}
    if None in shapes.values():
        return None
    stack: list[tuple[str, list[str], list[int]]] = []
    labels: list[str] | None = None  # the innermost frame's child labels and child heads
    children: list[int] = []
    for token, (bit, tag) in enumerate(zip(parse, tags)):
        opened, n_close = shapes[bit]
        if opened:
            for base in opened:
                stack.append((base, [], []))
            _, labels, children = stack[-1]
        if labels is not None:
            labels.append(tag)
            children.append(token)
        while n_close:
            if not stack:
                return None
            base, child_labels, child_heads = stack.pop()
            if len(child_heads) == 1:  # a unary constituent (NP -> PRP): its child is its head
                h = child_heads[0]
            else:
                h = child_heads[_head_child(base, tuple(child_labels))]
                for child in child_heads:
                    heads[child] = h
                heads[h] = -1  # still unattached: only a constituent closing later gives it a head
            if stack:
                _, labels, children = stack[-1]
                labels.append(base)
                children.append(h)
            else:
                labels = None
            n_close -= 1
    if stack:
        return None
    return heads


class DocumentHeads:
    """Head finding for one document: the syntax is read once, spans are then cheap."""

    def __init__(self, doc: Document) -> None:
        self.words = doc.words
        self.pos = doc.pos if doc.pos is not None and _annotated(doc.pos) else None
        self.rule = "rule"
        self.dep: list[int] | None = None
        n = len(doc.words)
        if doc.heads is not None and len(doc.heads) == n and n:
            self.dep, self.rule = list(doc.heads), "dependency"
        elif doc.parse is not None and len(doc.parse) == n and _annotated(doc.parse):
            dep = doc.parse_heads if doc.parse_heads is not None else _dependencies_from_parse(doc.parse, self.pos)
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
        step = self._step_over_possessive
        return [step(h, start) if n == 1 else self.head(span)[0]
                for h, start, n, span in zip(head.tolist(), starts.tolist(), candidates.tolist(), spans)]

    @cached_property
    def _dep_array(self) -> np.ndarray:
        return np.asarray(self.dep, dtype=np.int64)

    def _rank(self, token: int) -> int:
        """0 for a token that could head a noun phrase (any word when there are no POS tags),
        1 for another word, 2 for punctuation."""
        if not any(c.isalnum() for c in self.words[token]) or (self.pos is not None and self.pos[token] in PUNCT_TAGS):
            return 2
        return 0 if self.pos is None or self.pos[token][:2] in ("NN", "PR", "CD", "WP") else 1

    def _step_over_possessive(self, token: int, start: int) -> int:
        """'s / POS heads (Collins's NP rule picks them) -> the possessor before them."""
        if token > start and (
            (self.pos is not None and self.pos[token] == "POS") or self.words[token].lower() in ("'s", "'", "’s", "’")
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


def _annotated(column: list[str]) -> bool:
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

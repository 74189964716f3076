"""Heads from a CoNLL-2012 parse column: Collins (1999) head rules over the trees of its bits, for
every document of a file at once, as array work.

Why arrays: the parse column is read for every key, cold, and a walk over its tokens in Python
(a stack of frames, a head child chosen per constituent) was the largest part of reading a
corpus.  Here the trees of all documents are taken at once:
- each distinct bit (a corpus has a few thousand) is read once: the labels it opens, the
  constituents it closes;
- the constituents and tokens are the nodes of a forest laid out in the file's order (a token's
  openings, outermost first, then the token); a node's parent is the last opening before it one
  level up, found for all nodes by one sorted search;
- a constituent's head child is its child of least rank under its label's rule (the rules are
  turned into a table: rule row x child label -> rank, and which end of the children wins), the
  least found for all constituents at once; a constituent's head token follows head children
  down to a token (pointer jumping: a few passes over all nodes);
- every child that is not its parent's head child attaches its head token to its parent's.
A document whose column is malformed (a bit that is no pattern, a bracket closed with none open,
one left open) gives None, as the walk over it did (`tests/reference_heads.py` keeps that walk:
the tests check this against it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from itertools import chain, repeat
from typing import NamedTuple

import numpy as np

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


# ------------------------------------------------------------------ the rules as a table
_ROWS: list[tuple[list[tuple[str, tuple[str, ...]]], bool]] = [
    (_NP_RULES, True), *((rules, False) for rules in _RULES.values()), ([("left", ())], False)]
"""Each rule row: its rules, and whether a rule takes the first child of any of its categories
(Collins's NP rule) rather than of each category in priority order (the others).  Row 0 is the
NP-like labels', then one row per label of `_RULES`, then the row of any other label."""
_NP_ROW = 0
_ROW_OF_LABEL = {**{label: row for row, label in enumerate(_RULES, start=1)}, **dict.fromkeys(_NP_LIKE, _NP_ROW)}
_OTHER_ROW = len(_ROWS) - 1
FIRST, LAST = 1, -1
"""Which of a constituent's children of least rank wins: the first (leftmost) or the last."""


def _rule_table(labels: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
    """(rank, end), each of shape (rule rows, labels): a child's rank under each row's rules (the
    least wins) and which end wins among children of that rank (`FIRST` or `LAST`).

    Read off the rules as the walk applies them: the first rule with a matching child decides; in
    it a child of any category counts alike (NP-like) or a category listed earlier wins (others);
    a rule without categories takes every child left; a child no rule takes gets the fallback
    rank, the first child under a last rule searching from the left, else the last."""
    size = len(labels)
    rank = np.zeros((len(_ROWS), size), dtype=np.int64)
    end = np.zeros((len(_ROWS), size), dtype=np.int64)
    for row, (rules, any_category) in enumerate(_ROWS):
        left = np.ones(size, dtype=bool)  # labels no rule has taken yet
        base = 0
        for direction, categories in rules:
            side = FIRST if direction == "left" else LAST
            if not categories:
                rank[row, left], end[row, left] = base, side
                left[:] = False
                break
            for offset, category in enumerate(categories):
                label = labels.get(category)
                if label is not None and left[label]:
                    rank[row, label], end[row, label] = base + (0 if any_category else offset), side
                    left[label] = False
            base += 1 if any_category else len(categories)
        rank[row, left] = base
        end[row, left] = FIRST if not any_category and rules[-1][0] == "left" else LAST
    return rank, end


_COLUMN = {category: i for i, category in enumerate(dict.fromkeys(
    category for rules, _ in _ROWS for _, categories in rules for category in categories))}
"""A column of the table for each category a rule names; every other label takes the last."""
_OTHER_COLUMN = len(_COLUMN)
_RANK, _END = _rule_table({**_COLUMN, "(any other label)": _OTHER_COLUMN})
"""The rules as a table, made once: rule row x column -> rank, end."""


def parse_dependencies(parses: Sequence[Sequence[str]], tags: Sequence[Sequence[str] | None]
                       ) -> list[list[int] | None]:
    """Each document's token -> head token (-1 for the head of a tree, and for a token outside
    every tree) from its parse column `parses[d]`, or None when that column is malformed.
    `tags[d]` is its POS column, as long as the parse column; None labels every token "X"."""
    return laid_dependencies(parses, tags).lists


class LaidHeads(NamedTuple):
    """The heads of many documents' parse columns (`laid_dependencies`)."""

    heads: np.ndarray
    """Every token's head, the documents laid end to end (int64, each head within its document,
    -1 throughout a document whose column is malformed)."""
    sizes: np.ndarray
    """Each document's tokens."""
    trees: np.ndarray
    """Whether each document's column is well formed (gives heads)."""
    tag_ids: np.ndarray
    """Every token's POS tag ("X" where a document has none) as its number in `tag_numbers`."""
    tag_numbers: dict[str, int]
    """The tags (and the parse's labels) numbered."""

    @property
    def lists(self) -> list[list[int] | None]:
        """Each document's heads, None for a malformed column (`parse_dependencies`).  Made when
        asked: the CoNLL-2012 reader keeps the array (an integer per token is 10 MB of a corpus)."""
        flat = self.heads.tolist()
        ends = np.cumsum(self.sizes).tolist()
        return [flat[end - size:end] if tree else None
                for end, size, tree in zip(ends, self.sizes.tolist(), self.trees.tolist())]


def laid_dependencies(parses: Sequence[Sequence[str]], tags: Sequence[Sequence[str] | None]) -> LaidHeads:
    """`parse_dependencies`, with the heads of all documents laid end to end as one array: what
    array work over the file's tokens reads (`types_arrays.TokenArrays`) instead of joining the
    lists again; and the tags numbered on the way, which typing reads instead of numbering them
    again."""
    sizes = np.fromiter(map(len, parses), dtype=np.int64, count=len(parses))
    count = int(sizes.sum())
    bits, tag_numbers = Numbering(), Numbering()
    codes = np.fromiter(map(bits.__getitem__, chain.from_iterable(parses)), dtype=np.int64, count=count)
    tag_ids = np.fromiter(map(tag_numbers.__getitem__, chain.from_iterable(
        column if column is not None else repeat("X", len(parse)) for parse, column in zip(parses, tags))),
        dtype=np.int64, count=count)
    return laid_coded(sizes, codes, list(bits), tag_ids, list(tag_numbers))


def laid_coded(sizes: np.ndarray, codes: np.ndarray, bits: list[str], tag_ids: np.ndarray, tags: list[str]) -> LaidHeads:
    """`laid_dependencies` of documents of `sizes[d]` tokens laid end to end, their parse column and
    POS tags given numbered: token t's bit is `bits[codes[t]]` and its tag `tags[tag_ids[t]]`
    ("X" throughout a document without tags).  Both lists are distinct and in the order their
    values are first met in the tokens, each value met (as `Numbering` makes them), so that the
    tags' and labels' numbers are those the lists' road gives.  Why: the CoNLL-2012 reader numbers
    the columns from the file's bytes (`conll_numbered.numbered_fields`) without a string per token."""
    count = int(sizes.sum())
    if not count:
        return LaidHeads(np.zeros(0, dtype=np.int64), sizes, np.ones(len(sizes), dtype=bool),
                         np.zeros(0, dtype=np.int64), {})
    codes = codes.astype(np.int64, copy=False)
    tag_ids = tag_ids.astype(np.int64, copy=False)
    shapes = list(map(_parse_bit, bits))
    malformed = np.fromiter((shape is None for shape in shapes), dtype=bool, count=len(shapes))
    shapes = [((), 0) if shape is None else shape for shape in shapes]
    opened = np.fromiter((len(labels) for labels, _ in shapes), dtype=np.int64, count=len(shapes))
    closed = np.fromiter((n_close for _, n_close in shapes), dtype=np.int64, count=len(shapes))
    bit_labels = list(chain.from_iterable(labels for labels, _ in shapes))
    vocabulary = Numbering(zip(tags, range(len(tags))))  # the tags first, then the labels not among them
    label_ids = np.fromiter(map(vocabulary.__getitem__, bit_labels), dtype=np.int64, count=len(bit_labels))

    # which documents are trees: no malformed bit, no closing with nothing open, nothing left open
    document = np.repeat(np.arange(len(sizes)), sizes)
    step = opened[codes] - closed[codes]
    depth = np.cumsum(step)
    firsts = (np.cumsum(sizes) - sizes)[sizes > 0]
    lasts = np.cumsum(sizes)[sizes > 0] - 1
    depth -= np.repeat(depth[firsts] - step[firsts], sizes[sizes > 0])  # within each document
    trees = np.ones(len(sizes), dtype=bool)
    trees[sizes > 0] = ((np.minimum.reduceat(depth, firsts) >= 0) & (depth[lasts] == 0)
                        & ~np.logical_or.reduceat(malformed[codes], firsts))
    kept = np.flatnonzero(trees[document])
    heads = np.full(count, -1, dtype=np.int64)
    if len(kept):
        found = _forest_heads(codes[kept], tag_ids[kept], opened=opened, closed=closed,
                              labels=label_ids,
                              rows=np.fromiter((_ROW_OF_LABEL.get(label, _OTHER_ROW) for label in vocabulary),
                                               dtype=np.int64, count=len(vocabulary)),
                              columns=np.fromiter((_COLUMN.get(label, _OTHER_COLUMN) for label in vocabulary),
                                                  dtype=np.int64, count=len(vocabulary)))
        attached = found >= 0
        starts = np.cumsum(sizes) - sizes
        heads[kept[attached]] = kept[found[attached]] - starts[document[kept[attached]]]
    return LaidHeads(heads, sizes, trees, tag_ids, dict(vocabulary))


class Numbering(dict):
    """Each key's number, the next one for a key met the first time: a column's values numbered in
    one pass (a hit is a plain dict lookup, in C; only a new value runs Python), in the order they
    are first met."""

    def __missing__(self, key: str) -> int:
        number = self[key] = len(self)
        return number


def _forest_heads(codes: np.ndarray, tags: np.ndarray, *, opened: np.ndarray, closed: np.ndarray, labels: np.ndarray,
                  rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """Head (an index into the tokens, -1 for none) of each token of well-formed trees laid end to
    end: token t has the distinct bit `codes[t]` and the label `tags[t]`; distinct bit b opens
    `opened[b]` constituents (their labels: `labels`, bit after bit) and closes `closed[b]`;
    a label's rule row (as a constituent's) and column of the table (as a child's) are
    `rows[label]` and `columns[label]`.  (Collins's NP rule takes a last child POS first; its first
    rule, searching from the right for a POS among others, takes it anyway.)"""
    opens = opened[codes]
    n_opens, n_tokens = int(opens.sum()), len(codes)
    level = np.cumsum(opens - closed[codes]) - (opens - closed[codes])  # constituents open before each token
    place = np.cumsum(opens + 1) - (opens + 1)  # where its openings start; the token itself follows them
    owner = np.repeat(np.arange(n_tokens), opens)
    nth = np.arange(n_opens) - np.repeat(np.cumsum(opens) - opens, opens)  # 0 for a token's outermost opening
    first_label = np.cumsum(opened) - opened
    # the nodes: the constituents (in the order they open) then the tokens
    node_place = np.concatenate((place[owner] + nth, place + opens))
    node_level = np.concatenate((level[owner] + nth, level + opens))
    node_label = np.concatenate((labels[first_label[codes[owner]] + nth], tags))
    width = int(node_place[-1]) + 1

    # each node's parent: the last constituent opened before it one level up
    by_level = np.argsort(node_level.astype(np.int16) if node_level.max() < 2 ** 15 else node_level, kind="stable")
    key = node_level[by_level] * width + node_place[by_level]
    constituent = by_level < n_opens
    child = node_level[by_level] > 0
    children = by_level[child]
    parent = by_level[constituent][np.searchsorted(key[constituent], key[child] - width) - 1]

    # each constituent's head child: its child of least rank, the first or last of those (the
    # table read at flat indices: numpy's indexing by a pair of index arrays cost 30 ms more)
    cell = rows[node_label[parent]] * _RANK.shape[1] + columns[node_label[children]]
    weight = _RANK.ravel()[cell] * (2 * width) + _END.ravel()[cell] * node_place[children]
    least = np.full(n_opens, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(least, parent, weight)
    wins = weight == least[parent]
    head_child = np.empty(n_opens, dtype=np.int64)
    head_child[parent[wins]] = children[wins]

    # each node's head token: head children followed down to a token, doubling the step each pass
    pointer = np.concatenate((head_child, np.arange(n_opens, n_opens + n_tokens)))
    while True:
        further = pointer[pointer]
        if np.array_equal(further, pointer):
            break
        pointer = further
    head_token = pointer - n_opens
    heads = np.full(n_tokens, -1, dtype=np.int64)
    losing = head_child[parent] != children
    heads[head_token[children[losing]]] = head_token[parent[losing]]
    return heads

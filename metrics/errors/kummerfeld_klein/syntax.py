"""Heads and mention kinds as the Berkeley Coreference Analyser (BCA) finds them.

Why a head finder of its own when `metrics.mentions.heads` has one: K&K's span errors pair a
response mention with a key mention by their heads, and its rules about pronoun-only clusters and
the earliest non-pronoun mention hang on each mention's kind.  Counts equal BCA's only if heads do,
and BCA's table differs from ours: Collins's table of his thesis (not Magerman's), a child matched
by its label *or* by the POS of its head word, full labels (no function-tag stripping), `NP` and
`NML` by Collins's special NP rules, any other unknown label headed by its last child.

A mention's head (BCA's `mention_head`): the head of the lowest constituent spanning exactly the
mention, else its last word.  Its kind (`mention_type`): a one-word mention whose head is tagged
PRP, PRP$, WP, WP$, WDT, WRB or DT, or is a word of BCA's pronoun list, is a pronoun; a head tagged
NNP or NNPS makes a name; anything else is a nominal.

Without a parse column (CoNLL-U, jsonlines, a CoNLL file with `-`), heads and kinds come from what
our mention types use (`metrics.mentions.heads`, `metrics.mentions.types`; ZERO counts as a
pronoun), documented in docs/errors-kk.md.  A sentence whose parse bits do not form trees falls
back the same way (BCA itself stops there).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from metrics.mentions.heads import head_of
from metrics.mentions.types import assign_types
from metrics.model import Document, MentionType

PRONOUN, NAME, NOMINAL = "pronoun", "name", "nominal"

PRONOUN_TAGS = frozenset({"PRP", "PRP$", "WP", "WP$", "WDT", "WRB", "DT"})
PRONOUN_WORDS = frozenset("""
her hers herself she he him himself his our ours yours ourselves yourselves they their theirs them 'em em
themselves us we whoever whomever whose i me mine my myself one thyself ya you your yourself it its itself
what when where which how everybody everyone anybody anyone somebody someone nobody all few several some
many most none noone that this these those whatever who whom something nothing everything""".split())
"""BCA's pronoun list (`coreference.pronoun_properties`): one word from it is a pronoun whatever its tag."""

_RULES: dict[str, tuple[bool, tuple[str, ...]]] = {
    # label: (search from the right?, categories in priority order); Collins (1999), table [2]
    "ADJP": (True, ("NNS", "QP", "NN", "$", "ADVP", "JJ", "VBN", "VBG", "ADJP", "JJR", "NP", "JJS", "DT", "FW",
                    "RBR", "RBS", "SBAR", "RB")),
    "ADVP": (False, ("RB", "RBR", "RBS", "FW", "ADVP", "TO", "CD", "JJR", "JJ", "IN", "NP", "JJS", "NN")),
    "CONJP": (False, ("CC", "RB", "IN")),
    "FRAG": (False, ()), "INTJ": (True, ()), "LST": (False, ("LS", ":")),
    "NAC": (True, ("NN", "NNS", "NNP", "NNPS", "NP", "NAC", "EX", "$", "CD", "QP", "PRP", "VBG", "JJ", "JJS", "JJR",
                   "ADJP", "FW")),
    "PP": (False, ("IN", "TO", "VBG", "VBN", "RP", "FW")), "PRN": (True, ()), "PRT": (False, ("RP",)),
    "QP": (True, ("$", "IN", "NNS", "NN", "JJ", "RB", "DT", "CD", "NCD", "QP", "JJR", "JJS")),
    "RRC": (False, ("VP", "NP", "ADVP", "ADJP", "PP")),
    "S": (True, ("TO", "IN", "VP", "S", "SBAR", "ADJP", "UCP", "NP")),
    "SBAR": (True, ("WHNP", "WHPP", "WHADVP", "WHADJP", "IN", "DT", "S", "SQ", "SINV", "SBAR", "FRAG")),
    "SBARQ": (True, ("SQ", "S", "SINV", "SBARQ", "FRAG")),
    "SINV": (True, ("VBZ", "VBD", "VBP", "VB", "MD", "VP", "S", "SINV", "ADJP", "NP")),
    "SQ": (True, ("VBZ", "VBD", "VBP", "VB", "MD", "VP", "SQ")), "UCP": (False, ()),
    "VP": (True, ("TO", "VBD", "VBN", "MD", "VBZ", "VB", "VBG", "VBP", "VP", "ADJP", "NN", "NNS", "NP")),
    "WHADJP": (True, ("CC", "WRB", "JJ", "ADJP")), "WHADVP": (False, ("CC", "WRB")),
    "WHNP": (True, ("WDT", "WP", "WP$", "WHADJP", "WHPP", "WHNP")), "WHPP": (False, ("IN", "TO", "FW")),
    "NX": (True, ("NN", "NNS", "NNP", "NNPS", "NP", "NAC", "EX", "$", "CD", "QP", "PRP", "VBG", "JJ", "JJS", "JJR",
                  "ADJP", "FW")),
    "X": (True, ("NN", "NNS", "NNP", "NNPS", "NP", "NAC", "EX", "$", "CD", "QP", "PRP", "VBG", "JJ", "JJS", "JJR",
                 "ADJP", "FW")),
    "META": (True, ()),
}  # fmt: skip
_NP_STEPS: tuple[tuple[bool, frozenset[str]], ...] = (
    (True, frozenset({"NN", "NNP", "NNPS", "NNS", "NX", "POS", "JJR"})),
    (False, frozenset({"NP", "NML"})),
    (True, frozenset({"$", "ADJP", "PRN"})),
    (True, frozenset({"CD"})),
    (True, frozenset({"JJ", "JJS", "RB", "QP"})),
)
"""Collins's NP rules after "last word tagged POS": (from the right?, categories)."""

Head = tuple[int, str, str]
"""(token index in the sentence, word, POS) of a head word."""


@dataclass
class _Node:
    label: str
    start: int
    end: int = -1
    children: list["_Node"] = field(default_factory=list)
    head: Head | None = None


def _choose(node: _Node) -> Head:
    """The head of an internal node from its children's heads (BCA's `collins_find_heads`)."""
    kids = node.children

    def search(from_right: bool, categories) -> Head | None:
        for kid in (reversed(kids) if from_right else kids):
            if kid.label in categories or kid.head[2] in categories:
                return kid.head
        return None

    rule = _RULES.get(node.label)
    if rule is None:
        if node.label not in ("NP", "NML"):
            return kids[-1].head
        if kids[-1].head[2] == "POS":
            return kids[-1].head
        for from_right, categories in _NP_STEPS:
            found = search(from_right, categories)
            if found is not None:
                return found
        return kids[-1].head
    from_right, categories = rule
    for category in categories:
        found = search(from_right, (category,))
        if found is not None:
            return found
    return kids[-1].head if from_right else kids[0].head


def sentence_heads(words: list[str], pos: list[str], bits: list[str]) -> dict[tuple[int, int], Head] | None:
    """(start, end) exclusive span of each constituent and word -> the head of the lowest node
    with that span, for one sentence; None when its parse bits do not form trees."""
    spans: dict[tuple[int, int], Head] = {}
    stack: list[_Node] = []
    for i, (word, tag, bit) in enumerate(zip(words, pos, bits)):
        star = bit.find("*")
        if star < 0 or "*" in bit[star + 1:] or bit[:star].split("(")[0].strip() or bit[star + 1:].strip(")").strip():
            return None
        for label in bit[:star].split("(")[1:]:
            node = _Node(label.strip(), i)
            if stack:
                stack[-1].children.append(node)
            stack.append(node)
        leaf = _Node(tag, i, i + 1, head=(i, word, tag))
        spans.setdefault((i, i + 1), leaf.head)
        if stack:
            stack[-1].children.append(leaf)
        for _ in range(bit[star + 1:].count(")")):
            if not stack:
                return None
            node = stack.pop()
            node.end = i + 1
            node.head = _choose(node)
            spans.setdefault((node.start, node.end), node.head)  # closing order: the lowest comes first
    return None if stack else spans


class DocumentSyntax:
    """Heads and kinds of mentions of one key document, BCA's way where it has a parse.

    Mentions are BCA's (sentence, start, end) triples: sentence-relative, end exclusive."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        starts = list(doc.sentence_starts) or [0]
        self.starts = starts
        bounds = starts[1:] + [len(doc.words)]
        self.trees: list[dict[tuple[int, int], Head] | None] = []
        usable = doc.parse is not None and doc.pos is not None and any(b not in ("-", "_", "") for b in doc.parse)
        for lo, hi in zip(starts, bounds):
            self.trees.append(sentence_heads(doc.words[lo:hi], doc.pos[lo:hi], doc.parse[lo:hi]) if usable else None)
        self._kinds: dict[tuple[int, int, int], str] = {}
        self._fallback: dict | None = None

    @property
    def parsed(self) -> bool:
        """Does every sentence have a tree (so this is exactly BCA's view)?"""
        return all(tree is not None for tree in self.trees)

    def span(self, mention: tuple[int, int, int]) -> tuple[int, int]:
        """The document-level inclusive span of a BCA mention."""
        base = self.starts[mention[0]]
        return base + mention[1], base + mention[2] - 1

    def head(self, mention: tuple[int, int, int]) -> tuple[int, str, str]:
        """(sentence token index, word, POS) of the mention's head."""
        sentence, start, end = mention
        tree = self.trees[sentence]
        if tree is not None:
            found = tree.get((start, end)) or tree.get((end - 1, end))
            if found is not None:
                return found
        token, _ = head_of(self.doc, self.span(mention))
        pos = self.doc.pos[token] if self.doc.pos is not None else ""
        return token - self.starts[sentence], self.doc.words[token], pos

    def kind(self, mention: tuple[int, int, int]) -> str:
        """pronoun, name or nominal."""
        found = self._kinds.get(mention)
        if found is None:
            if self.trees[mention[0]] is not None:
                _, word, tag = self.head(mention)
                if mention[2] - mention[1] == 1 and (tag in PRONOUN_TAGS or word.lower() in PRONOUN_WORDS):
                    found = PRONOUN
                else:
                    found = NAME if tag in ("NNP", "NNPS") else NOMINAL
            else:
                typed, _ = assign_types(self.doc, [self.span(mention)])[self.span(mention)]
                found = {MentionType.NAME: NAME, MentionType.NOMINAL: NOMINAL}.get(typed, PRONOUN)
            self._kinds[mention] = found
        return found

    def mention_type(self, mention: tuple[int, int, int]) -> MentionType:
        """The kind as one of our mention types (a zero stays a zero where our types say so)."""
        kind = self.kind(mention)
        if kind == NAME:
            return MentionType.NAME
        if kind == NOMINAL:
            return MentionType.NOMINAL
        if self.trees[mention[0]] is None:
            typed, _ = assign_types(self.doc, [self.span(mention)])[self.span(mention)]
            if typed == MentionType.ZERO:
                return typed
        return MentionType.PRONOUN

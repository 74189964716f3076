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

from collections.abc import Iterable

from metrics.mentions.heads import head_of, heads_for
from metrics.mentions.heads_parse import read_parse_bit
from metrics.mentions.types import DocumentTypes
from metrics.model import Document, MentionType

PRONOUN, NAME, NOMINAL = "pronoun", "name", "nominal"

HEADS_WITHOUT_PARSE = {
    "dependency": "the dependency trees",
    "parse": "the parse by our Collins rules (its bits form no tree BCA reads)",
    "rule over tags": "our head rule over the POS tags (no tree)",
    "rule": "our head rule over the words alone (no tree, no POS tags)",
}
"""Where a sentence has no tree BCA can read, what its mentions' heads come from, by the source
`metrics.mentions.heads` uses for the document (the reports say which: BCA itself needs a parse);
the kinds then come from our mention types."""
GUESSED_HEADS = frozenset({"rule over tags", "rule"})
"""The sources that are our guess, not an annotation of syntax (a warning says so once)."""

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


def _choose(label: str, kid_labels: list[str], kid_heads: list[Head]) -> Head:
    """The head of a constituent from its children's labels and heads (BCA's `collins_find_heads`)."""

    def search(from_right: bool, categories) -> Head | None:
        order = range(len(kid_heads) - 1, -1, -1) if from_right else range(len(kid_heads))
        for i in order:
            if kid_labels[i] in categories or kid_heads[i][2] in categories:
                return kid_heads[i]
        return None

    rule = _RULES.get(label)
    if rule is None:
        if label not in ("NP", "NML") or kid_heads[-1][2] == "POS":
            return kid_heads[-1]
        for from_right, categories in _NP_STEPS:
            found = search(from_right, categories)
            if found is not None:
                return found
        return kid_heads[-1]
    from_right, categories = rule
    for category in categories:
        found = search(from_right, (category,))
        if found is not None:
            return found
    return kid_heads[-1] if from_right else kid_heads[0]


def sentence_heads(words: list[str], pos: list[str], bits: list[str]) -> dict[tuple[int, int], Head] | None:
    """(start, end) exclusive span of each constituent and word -> the head of the lowest node
    with that span, for one sentence; None when its parse bits do not form trees."""
    spans: dict[tuple[int, int], Head] = {}
    stack: list[tuple[str, int, list[str], list[Head]]] = []  # label, start, child labels, child heads
    for i, (word, tag, bit) in enumerate(zip(words, pos, bits)):
        parsed = read_parse_bit(bit)
        if parsed is None:
            return None
        opened, closed = parsed
        for label in opened:
            stack.append((label, i, [], []))
        head = (i, word, tag)
        spans[(i, i + 1)] = head
        if stack:
            stack[-1][2].append(tag)
            stack[-1][3].append(head)
        for _ in range(closed):
            if not stack:
                return None
            label, start, kid_labels, kid_heads = stack.pop()
            head = _choose(label, kid_labels, kid_heads)
            spans.setdefault((start, i + 1), head)  # closing order: the lowest comes first
            if stack:
                stack[-1][2].append(label)
                stack[-1][3].append(head)
    return None if stack else spans


def _well_formed(bits: list[str]) -> bool:
    """Do a sentence's parse bits form trees?  (Cheap: the bits are memoised.)"""
    depth = 0
    for bit in bits:
        parsed = read_parse_bit(bit)
        if parsed is None:
            return False
        depth += len(parsed[0])
        if parsed[1] > depth:
            return False
        depth -= parsed[1]
    return depth == 0


class DocumentSyntax:
    """Heads and kinds of mentions of one key document, BCA's way where it has a parse.

    Mentions are BCA's (sentence, start, end) triples: sentence-relative, end exclusive.  A
    sentence's tree is built the first time a head in it is asked for: a one-word mention is its
    own head, and only a one-word mention can be a pronoun, so most mentions need no tree."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        starts = list(doc.sentence_starts) or [0]
        self.starts = starts
        self.bounds = list(zip(starts, starts[1:] + [len(doc.words)]))
        usable = doc.parse is not None and doc.pos is not None and any(b not in ("-", "_", "") for b in doc.parse)
        self.parsed_sentences = [usable and _well_formed(doc.parse[lo:hi]) for lo, hi in self.bounds]
        self._trees: dict[int, dict[tuple[int, int], Head]] = {}
        self._kinds: dict[tuple[int, int, int], str] = {}
        self._types = DocumentTypes(doc)  # where a sentence has no parse (its typer made once)

    @property
    def parsed(self) -> bool:
        """Does every sentence have a tree (so this is exactly BCA's view)?"""
        return all(self.parsed_sentences)

    @property
    def fallback(self) -> str | None:
        """What the heads of sentences without a tree come from (a key of `HEADS_WITHOUT_PARSE`:
        `metrics.mentions.heads`' source); None when every sentence has one."""
        if self.parsed:
            return None
        finder = heads_for(self.doc)
        return finder.rule if finder.rule != "rule" or finder.pos is None else "rule over tags"

    def span(self, mention: tuple[int, int, int]) -> tuple[int, int]:
        """The document-level inclusive span of a BCA mention."""
        base = self.starts[mention[0]]
        return base + mention[1], base + mention[2] - 1

    def head(self, mention: tuple[int, int, int]) -> Head:
        """(sentence token index, word, POS) of the mention's head."""
        sentence, start, end = mention
        doc = self.doc
        if self.parsed_sentences[sentence]:
            base = self.starts[sentence]
            if end - start == 1:
                return start, doc.words[base + start], doc.pos[base + start]
            tree = self._trees.get(sentence)
            if tree is None:
                lo, hi = self.bounds[sentence]
                tree = self._trees[sentence] = sentence_heads(doc.words[lo:hi], doc.pos[lo:hi], doc.parse[lo:hi]) or {}
            found = tree.get((start, end)) or tree.get((end - 1, end))
            if found is not None:
                return found
        token, _ = head_of(doc, self.span(mention))
        pos = doc.pos[token] if doc.pos is not None else ""
        return token - self.starts[sentence], doc.words[token], pos

    def kind(self, mention: tuple[int, int, int]) -> str:
        """pronoun, name or nominal."""
        found = self._kinds.get(mention)
        if found is None:
            if self.parsed_sentences[mention[0]]:
                _, word, tag = self.head(mention)
                if mention[2] - mention[1] == 1 and (tag in PRONOUN_TAGS or word.lower() in PRONOUN_WORDS):
                    found = PRONOUN
                else:
                    found = NAME if tag in ("NNP", "NNPS") else NOMINAL
            else:
                self.type_unparsed((mention,))
                return self._kinds[mention]
            self._kinds[mention] = found
        return found

    def type_unparsed(self, mentions: Iterable[tuple[int, int, int]]) -> None:
        """The kinds of those `mentions` in sentences without a parse, from their types
        (`metrics.mentions.types`, ZERO a pronoun), found in one call.  Why at once: the heads of
        many spans are found together, where asked mention by mention each paid numpy's overhead
        (40,000 calls on a 295,000-word CoNLL-U book)."""
        todo = [m for m in mentions if not self.parsed_sentences[m[0]] and m not in self._kinds]
        spans = [self.span(m) for m in todo]
        typed = self._types.of(spans)
        kinds = {MentionType.NAME: NAME, MentionType.NOMINAL: NOMINAL}
        for mention, span in zip(todo, spans):
            self._kinds[mention] = kinds.get(typed[span][0], PRONOUN)

    def pronoun(self, mention: tuple[int, int, int]) -> bool:
        """Is it a pronoun?  (A mention of several words never is, where the parse decides.)"""
        if mention[2] - mention[1] > 1 and self.parsed_sentences[mention[0]]:
            return False
        return self.kind(mention) == PRONOUN

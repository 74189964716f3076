"""A response in its own words mapped onto the key's words by characters.

Why: plain text from an LLM or fastcoref, subtokens joined back into words, another tokenizer's
words: the spans of such a response count its own words, not the key's.  Both texts are compared
by their non-whitespace characters (so spacing never matters), case-folded, with quotes, dashes and
PTB escapes made one (`“`, `''`, ``` `` ``` are `"`; `–`, `—` are `-`; `-LRB-` is `(`), as an
LLM changes them freely.  Where the two still differ (a word added, dropped or respelled), the
characters are paired by an edit-distance alignment (difflib's SequenceMatcher, longest common
blocks first, no junk heuristic) and the rest stay unpaired.

A mention then covers the key words of its first and last paired characters (the mention's own
characters, from its first to its last).  It is:
- exact when both ends fall on the ends of key words;
- snapped when an end falls inside a key word, or on characters the key does not have (the end
  moves inward to the nearest paired character, then out to the word's edge);
- lost when fewer than half of its characters are in the key (snapping never crosses a longer
  unmatched stretch: "yyy" is not "Mary" for sharing a "y"), or when it lands on the same key
  words as an earlier, different mention of its chain (a span the response itself repeats is
  kept, as every reader keeps it).
A document of which fewer than half the characters pair with the key's has failed to align (it
is another text: a response of another document, a wrong key): all its mentions are lost, said
once for the document with its share of matched characters, since two texts of one language
share enough letters to snap thousands of mentions at random.
Counts go with the document (`CharacterAlignment`), and every lost mention is said in a warning,
with its place in the response's own words: none is dropped silently.  This is the separation the CRAC 2025 LLM track makes between what the
alignment loses and the coreference errors.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field, replace

from metrics.model import Document, Span

_SAME = {"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "‚": "'", "«": '"', "»": '"', "–": "-", "—": "-",
         "‐": "-", "‑": "-", "−": "-", "…": "..."}
MIN_MATCHED = 0.5
"""The share of a response document's characters (and of each mention's) that must pair with the
key's for it to be mapped; below it, the two are different texts (see the module's text)."""
_PTB = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}", "``": '"', "''": '"'}


@dataclass
class CharacterAlignment:
    """What mapping a document's mentions onto the key's words did."""

    mentions: int = 0
    snapped: int = 0
    lost: int = 0
    lost_mentions: list[str] = field(default_factory=list)
    """Each lost mention's text, place and why, for the warnings."""
    matched: float = 1.0
    """The share of the response's characters paired with the key's (one document's)."""

    @property
    def failed(self) -> bool:
        """The document's text is not the key's: fewer than half its characters pair with it."""
        return self.matched < MIN_MATCHED

    def __add__(self, other: CharacterAlignment) -> CharacterAlignment:
        return CharacterAlignment(self.mentions + other.mentions, self.snapped + other.snapped,
                                  self.lost + other.lost, self.lost_mentions + other.lost_mentions)

    def to_json(self) -> dict[str, int]:
        return {"mentions": self.mentions, "snapped": self.snapped, "lost": self.lost}


def _characters(words: list[str]) -> tuple[str, list[int], list[int], list[int]]:
    """The normalised non-whitespace characters of `words`, each one's word, and each word's first
    and last character (-1, -2 for a word without any).  Canonically decomposed (NFD): a model or
    a system that writes its text in another normal form than the key (decomposed, as macOS names
    files and many tokenizers write) writes the same text, and a Vietnamese document of it paired
    49% of its characters and was lost whole."""
    chars: list[str] = []
    owner: list[int] = []
    first: list[int] = []
    last: list[int] = []
    for w, word in enumerate(words):
        word = _PTB.get(word, word)
        if not word.isascii():  # one normal form: a precomposed é and e + U+0301 are the same text
            word = unicodedata.normalize("NFD", word)
        start = len(chars)
        for ch in word:
            if ch.isspace():
                continue
            for c in _SAME.get(ch, ch).casefold():
                chars.append(c)
                owner.append(w)
        first.append(start if len(chars) > start else -1)
        last.append(len(chars) - 1 if len(chars) > start else -2)
    return "".join(chars), owner, first, last


def _pairing(key: str, response: str) -> list[int]:
    """For each response character, the key character paired with it, or -1."""
    if key == response:
        return list(range(len(response)))
    out = [-1] * len(response)
    import difflib  # here: only a response in its own words needs it, and every score run imports this module

    matcher = difflib.SequenceMatcher(None, key, response, autojunk=False)
    for a, b, size in matcher.get_matching_blocks():
        for k in range(size):
            out[b + k] = a + k
    return out


def to_key_words(key: Document, response: Document) -> tuple[Document, CharacterAlignment]:
    """The response with its mentions on the key's words (and the key's words and sentences), and
    what that cost (see the module's text)."""
    key_chars, key_owner, key_first, key_last = _characters(key.words)
    resp_chars, _, resp_first, resp_last = _characters(response.words)
    paired = _pairing(key_chars, resp_chars)
    report = CharacterAlignment(matched=sum(p >= 0 for p in paired) / len(resp_chars) if resp_chars else 1.0)
    chains: list[list[Span]] = []
    labels: list[str] = []
    for label, chain in zip(response.labels or [str(i) for i in range(len(response.chains))], response.chains):
        seen: dict[Span, Span] = {}  # key words -> the response's own span that landed there first
        kept: list[Span] = []
        for start, end in chain:
            report.mentions += 1
            text = f"{' '.join(response.words[start:end + 1])!r} (its words {start}-{end}, chain {label})"
            a, b = resp_first[start], resp_last[end]
            inside = [i for i in range(a, b + 1) if paired[i] >= 0] if a >= 0 and b >= a else []
            if report.failed or len(inside) < MIN_MATCHED * (b - a + 1) or not inside:
                report.lost += 1
                report.lost_mentions.append(f"{text}: not in the key's text")
                continue
            ka, kb = paired[inside[0]], paired[inside[-1]]
            w1, w2 = key_owner[ka], key_owner[kb]
            span = (w1, w2)
            if seen.get(span) == (start, end):  # repeated in the response itself: kept, as any reader keeps it
                kept.append(span)
                continue
            if span in seen:
                report.lost += 1
                report.lost_mentions.append(f"{text}: lands on key words {w1}-{w2} as another mention of its chain")
                continue
            if inside[0] != a or inside[-1] != b or ka != key_first[w1] or kb != key_last[w2]:
                report.snapped += 1
            seen[span] = (start, end)
            kept.append(span)
        if kept:
            chains.append(kept)
            labels.append(label)
    aligned = replace(response, words=list(key.words), chains=chains, labels=labels,
                      sentence_starts=list(key.sentence_starts), token_lines=[response.line] * len(key.words),
                      pos=None, lemmas=None, parse=None, speakers=None, named_entities=None, heads=None,
                      explicit_types=None, pieces=None, own_words=False, parse_heads=None, rule_types=None)
    return aligned, report


def key_words(keys: list[Document], responses: list[Document]) -> tuple[list[Document], CharacterAlignment | None, list[str]]:
    """Every response document in its own words (`own_words`) mapped onto its key partner's words;
    the others as they are.  Returns the documents, the corpus's counts (None when no document
    needed mapping) and a warning per lost mention, naming the file, line and document."""
    from metrics.mentions.pairing import pair_documents

    if not any(r.own_words for r in responses):
        return responses, None, []
    partners, _ = pair_documents(keys, responses)
    mapped: dict[int, Document] = {}
    total = CharacterAlignment()
    warnings: list[str] = []
    for key, response in zip(keys, partners):
        if response is None or not response.own_words:
            continue
        mapped[id(response)], report = to_key_words(key, response)
        total = total + CharacterAlignment(report.mentions, report.snapped, report.lost)
        if report.failed:
            warnings.append(f"{response.where()}: document {response.name!r}: its text does not align with the key's "
                            f"({key.where()}): only {report.matched:.1%} of its characters match, so none of its "
                            f"{report.mentions} mention(s) is mapped onto the key's words")
            continue
        warnings += [f"{response.where()}: document {response.name!r}: mention lost in mapping onto the key's words: {m}"
                     for m in report.lost_mentions]
    return [mapped.get(id(r), r) for r in responses], total, warnings

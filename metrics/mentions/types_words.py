"""The words road of mention typing (`types._DocumentTyper.type_of` for a document with no POS tags,
no parse or dependency heads, no named entities and no explicit types: a UA file's, a CoNLL-U
file's without tags) for many spans of one document at once, as array work.

Why: the UA book (282,729 words) types 76,751 spans against its key, and each span cost a head
found by `heads.DocumentHeads._simple` and the rules of `_from_words` in Python: 0.45 s of the
first screen's CPU, on the thread that draws.  Here every rule reads a per-token or per-word flag
(each distinct word tested once), and each span's head and type are found for all spans together:
- the head (`_simple` without tags): the token before the first cut word after the span's first
  (else its last), trailing punctuation, possessive markers and reflexives stepped back over, then
  a number after a capitalised word ("World War II");
- the type (`_from_words`): a personal pronoun (or a lone relative or demonstrative one as the
  whole span), not "US", is a pronoun by the lexicon; else a capitalised name (`_capitalised_name`:
  inner capitals with no lower-case spelling in the document, else a capital not due to the
  position, a calendar name, a title before it inside the span, or more often capitalised
  mid-sentence than written in lower case) is a name, a nominal after a determiner that opens the
  span; else a nominal.
tests/test_types_words.py checks each span's (type, rule) against `type_of`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import chain

import numpy as np

from metrics.mentions.heads import _NUMBER, CUT_WORDS, REFLEXIVES, TRAILING_WORDS
from metrics.mentions.lexicon import CALENDAR_NAMES, DETERMINERS, LONE_PRONOUNS, PERSONAL_PRONOUNS, TITLES
from metrics.model import MentionType, Span

OUTCOMES = ((MentionType.PRONOUN, "lexicon"), (MentionType.NOMINAL, "determiner"), (MentionType.NAME, "capitalisation"),
            (MentionType.NOMINAL, "words"))
"""The road's outcomes, by the codes `_codes` gives them."""
_PRONOUN, _DETERMINER, _NAME, _WORDS = range(4)


def span_bounds(spans: Sequence[Span]) -> np.ndarray | None:
    """The spans as an array of (start, end) rows; None where they are not pairs of integers."""
    try:
        return np.fromiter(chain.from_iterable(spans), np.int64, 2 * len(spans)).reshape(-1, 2)
    except (TypeError, ValueError, OverflowError):
        return None


def types_by_words(bounds: np.ndarray, coded: Callable[[], tuple[list[str], np.ndarray]],
                   initial: Callable[[], np.ndarray], cap_stats: Callable[[], tuple[Counter[str], Counter[str]]]
                   ) -> list[tuple[MentionType, str]]:
    """(type, deciding rule) of each span (`bounds`' rows, every span within the words).  `coded`,
    `initial` and `cap_stats` are the typer's per-document state (its words numbered by distinct
    word, `_initial_flags`, `_cap_stats`), made once and shared."""
    if not len(bounds):
        return []
    codes = _codes(_Words(*coded()), bounds[:, 0], bounds[:, 1], initial, cap_stats)
    return list(map(OUTCOMES.__getitem__, codes.tolist()))


class _Words:
    """A document's words numbered by distinct word (`code`), each distinct word's flags tested once."""

    def __init__(self, distinct: list[str], code: np.ndarray) -> None:
        self.distinct = distinct
        self.code = code
        self.lowered = [word.lower() for word in distinct]

    def flag(self, test: Callable[[str], bool], lowered: bool = True) -> np.ndarray:
        """Per distinct word: `test` of its lower-case form (or of the word as written)."""
        return np.fromiter(map(test, self.lowered if lowered else self.distinct), bool, len(self.distinct))


def _codes(table: _Words, starts: np.ndarray, ends: np.ndarray, initial: Callable[[], np.ndarray],
           cap_stats: Callable[[], tuple[Counter[str], Counter[str]]]) -> np.ndarray:
    """Each span's outcome code (`OUTCOMES`)."""
    code = table.code
    n = len(code)
    head = _heads(table, starts, ends)
    at = code[head]
    pronoun = table.flag(PERSONAL_PRONOUNS.__contains__)[at] | (
        (starts == ends) & table.flag(LONE_PRONOUNS.__contains__)[at])
    pronoun &= ~table.flag("US".__eq__, lowered=False)[at]
    cap_mid, lower = cap_stats()
    inner = table.flag(lambda word: any(c.isupper() for c in word[1:]), lowered=False)
    first_upper = table.flag(lambda word: word[:1].isupper(), lowered=False)
    title_before = np.zeros(n, bool)
    title_before[1:] = table.flag(TITLES.__contains__)[code[:-1]]
    by_position = ~initial()[head] | table.flag(CALENDAR_NAMES.__contains__)[at] | (
        (head > starts) & title_before[head]) | table.flag(lambda word: cap_mid[word] > lower[word])[at]
    name = np.where(inner[at],
                    table.flag(lambda word: lower[word] == 0)[at] & table.flag(
                        lambda word: any(c.isalpha() for c in word), lowered=False)[at],
                    first_upper[at] & by_position)
    determiner = (head > starts) & table.flag(DETERMINERS.__contains__)[code[starts]]
    return np.select([pronoun, name & determiner, name], [_PRONOUN, _DETERMINER, _NAME], _WORDS)


def _heads(table: _Words, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """`DocumentHeads._simple(start, end)` of each span, without POS tags."""
    code = table.code
    n = len(code)
    tokens = np.arange(n, dtype=np.int64)
    cut = table.flag(CUT_WORDS.__contains__)[code]
    next_cut = np.append(np.minimum.accumulate(np.where(cut, tokens, n)[::-1])[::-1], n)
    after_first = next_cut[starts + 1]
    last = np.where(after_first <= ends, after_first - 1, ends)
    trailing = table.flag(lambda word: word in TRAILING_WORDS or word in REFLEXIVES)[code]
    last = np.maximum(starts, np.maximum.accumulate(np.where(trailing, -1, tokens))[last])
    number = table.flag(lambda word: _NUMBER.match(word) is not None, lowered=False)[code]
    after_capital = np.zeros(n, bool)
    after_capital[1:] = table.flag(lambda word: word[:1].isupper(), lowered=False)[code[:-1]]
    labelled = number & after_capital
    return np.maximum(starts, np.maximum.accumulate(np.where(labelled, -1, tokens))[last])

"""An LLM's inline output laid onto the key's words, and its brackets repaired, as the CRAC 2025
LLM track's pipeline does it (text2text-coref's `clean`, read for the rules; our own code).

Why these exact rules: the track's scores are what this pipeline makes of an output, so what it
keeps and what it drops decides the numbers.  Every repair is also recorded, so that nothing it
changes goes unsaid (`Repairs`).

1. Words.  The output's words (marks stripped at the first `|`) are aligned to the key's by an
   edit distance over whole words (`align_words`): equal words are matched and keep their marks;
   a *replaced* word becomes the key's word without marks; an extra word is *deleted* with its
   marks; a missing key word is *inserted* bare.  A `##` token (an empty node) costs nothing and
   is kept where it stands, except before the first aligned word (it is dropped).
2. Sentences.  The aligned tokens are cut into the key's sentences; a `##` after a sentence's
   last word opens the next one, and one after the document's last word is dropped.
3. Brackets, per sentence (`repair_brackets`): a token with two `|` loses its marks; a mark
   counts only if it starts with `[eN`, `eN` (digits; anything after the id is ignored: `[e1.2`
   is `[e1`), others are dropped; `[eN]` is a one-word mention; `eN]` closes the latest open
   `[eN` of the sentence, and with none it becomes the one-word mention `[eN]`; an `[eN` never
   closed is lost.

With `-z` (`zeros_free=False`, the key's empty nodes among its words) a `##` token is a word like
any other in 1 and 2; see `metrics.formats.crac_zeros` for what follows.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from metrics.model import InputError

_MARK = re.compile(r"(\[?)e(\d+)(\]?)")
COPY, MATCH, REPLACE, DELETE, INSERT = range(5)
MAX_CELLS = 200_000_000
"""Output words x key words a document may cost the alignment: the band (`_Band`) widens to the
whole table when output and key are far apart, two bytes a cell."""


@dataclass
class Aligned:
    """The output's tokens on the key's words: each token's text and the output token it came
    from (None for an inserted key word), with what the alignment did."""

    tokens: list[str] = field(default_factory=list)
    origin: list[int | None] = field(default_factory=list)
    inserted: list[int] = field(default_factory=list)
    """Key word indices inserted bare."""
    replaced: list[tuple[int, int]] = field(default_factory=list)
    """(output token, key word) pairs: the output's word became the key's, its marks lost."""
    deleted: list[int] = field(default_factory=list)
    """Output tokens deleted with their marks."""
    zeros_dropped: list[int] = field(default_factory=list)
    """`##` tokens dropped: before the first word, or after the last."""


def is_zero(token: str) -> bool:
    """An empty-node slot (`##`, `##form`), with or without marks."""
    return token.startswith("##")


def align_words(output: list[str], gold: list[str], zeros_free: bool = True) -> Aligned:
    """The output's tokens (marks included) aligned to the key's words (see the module's text).
    Without `zeros_free` (`clean -z`), `gold` holds the key's empty nodes too and a `##` token is
    a word like any other."""
    stripped = [token.split("|")[0] for token in output]
    free = is_zero if zeros_free else _never
    aligned = Aligned()
    m, n = len(stripped), len(gold)
    # a common tail is matched whatever the table holds (equal words are taken first going back)
    tail: list[tuple[int, int | None, int | None]] = []
    m, n = _copied_or_matched(stripped, gold, free, m, n, steps=tail)
    if m and n:
        steps, left = _backtrack(_table(stripped[:m], gold[:n], free), stripped[:m], gold[:n], free)
    else:
        steps, left = [(INSERT, None, j) for j in range(n)], m
    for i in range(left):  # output tokens before the first aligned one are dropped
        (aligned.zeros_dropped if free(stripped[i]) else aligned.deleted).append(i)
    for kind, i, j in [*steps, *reversed(tail)]:
        if kind in (COPY, MATCH):
            aligned.tokens.append(output[i])
            aligned.origin.append(i)
        elif kind == REPLACE:
            aligned.tokens.append(gold[j])
            aligned.origin.append(i)
            aligned.replaced.append((i, j))
        elif kind == DELETE:
            aligned.deleted.append(i)
        else:
            aligned.tokens.append(gold[j])
            aligned.origin.append(None)
            aligned.inserted.append(j)
    aligned.deleted.sort()
    aligned.inserted.sort()
    return aligned


def _never(token: str) -> bool:
    """No token is free (`clean -z`: the key's empty nodes are words of the alignment)."""
    return False


class _Band:
    """The cells of the pipeline's edit-distance table within `width` of each row's diagonal.

    Why a band: a cell's value is at least |i' - j| (i' the output's words so far, `##` rows
    aside, j the key's), so every cell of value at most `width` lies in it; each such cell is
    exact when computed inside the band alone (its least neighbour is one too), and the walk back
    from a last cell of value at most `width` reads only such cells, or cells it cannot take
    either way.  A realignment of n words then costs n x (2 width + 1) cells, not n x n."""

    def __init__(self, rows: np.ndarray, diagonal: list[int], width: int, n: int, outside: int) -> None:
        self.rows, self.diagonal, self.width, self.n, self.outside = rows, diagonal, width, n, outside

    def __getitem__(self, cell: tuple[int, int]) -> int:
        i, j = cell
        x = j - self.diagonal[i] + self.width
        return int(self.rows[i, x]) if 0 <= x <= 2 * self.width and 0 <= j <= self.n else self.outside


def _table(words: list[str], gold: list[str], free: Callable[[str], bool] = is_zero) -> _Band:
    """The pipeline's edit-distance table (rows: output words, columns: key words), as a band
    wide enough to hold its last cell's value (doubled until it does: `_Band`)."""
    m, n = len(words), len(gold)
    if m * n > MAX_CELLS:
        raise _TooFar(m, n)
    words_only = sum(not free(w) for w in words)
    width = max(64, 2 * abs(words_only - n))
    while True:
        band = _banded(words, gold, free, width)
        if band[m, n] <= width or width >= max(words_only, n):
            return band
        width *= 2


def _banded(words: list[str], gold: list[str], free: Callable[[str], bool], width: int) -> _Band:
    """The band of the table (see `_Band`).  Row 0 is j, column 0 is i; a `##` row repeats the
    row above (it costs nothing); equal words take the diagonal; other cells 1 + the least of up,
    left and diagonal.  A row is computed at once: its left-to-right chain is a running minimum
    of t[x] - x, restarted at each equal cell (and at the band's left edge or column 0), where t
    is what up and diagonal give; outside the band a cell counts as `outside`, more than any
    (a cell computed from it may exceed it, by one a row at most)."""
    m, n = len(words), len(gold)
    outside = m + n + 1
    size = 2 * width + 1
    codes: dict[str, int] = {}
    padded = np.full(n + 2 * size + m + 2, -2, dtype=np.int64)  # key words by code, -2 off the ends
    padded[size + 1:size + 1 + n] = [codes.setdefault(w, len(codes)) for w in gold]
    columns = np.arange(size, dtype=np.int64)
    big = 4 * (outside + size) + 8
    rows = np.empty((m + 1, size), dtype=np.uint16 if 2 * outside + m < 65000 else np.int64)
    diagonal = [0] * (m + 1)
    j_of = columns - width  # row 0's columns
    previous = np.where((j_of >= 0) & (j_of <= n), j_of, outside)
    rows[0] = previous
    extended = np.empty(size + 1, dtype=np.int64)
    resets = np.empty(size, dtype=bool)
    for i, word in enumerate(words, 1):
        centre = diagonal[i - 1]
        if free(word):
            diagonal[i] = centre
            previous = previous.copy()
            if 0 <= width - centre < size:
                previous[width - centre] = i
            rows[i] = previous
            continue
        diagonal[i] = centre = centre + 1
        first = centre - width  # the key column of x = 0
        extended[:size] = previous
        extended[size] = outside
        up = extended[1:]  # (i - 1, j): one place right in the row above, which the band left behind
        start = first - 1 + size + 1  # padded index of key word j - 1 for x = 0
        equal = padded[start:start + size] == codes.get(word, -1)
        chain = np.where(equal, previous, np.minimum(up, previous) + 1)
        resets[:] = equal
        resets[0] = True
        if 0 <= -first < size:
            chain[-first] = i  # column 0
            resets[-first] = True
        offsets = np.cumsum(resets) * big
        chain -= columns
        chain -= offsets
        np.minimum.accumulate(chain, out=chain)
        chain += columns
        chain += offsets
        if first < 0 or first + size > n + 1:  # the band reaches past the table's edge
            j_of = columns + first
            chain[(j_of < 0) | (j_of > n)] = outside
        previous = chain
        rows[i] = previous
    return _Band(rows, diagonal, width, n, outside)


def _backtrack(table: _Band, words: list[str], gold: list[str], free: Callable[[str], bool] = is_zero
               ) -> tuple[list[tuple[int, int | None, int | None]], int]:
    """The steps from the table's last cell back to its edge, in text order, and how many output
    tokens are left at the start: key words left when the output is used up are inserted, output
    tokens left when the key is are dropped.  At each cell the first that holds of: a `##` row is
    copied, equal words matched, then replace, delete, insert by the table's values."""
    steps: list[tuple[int, int | None, int | None]] = []
    i, j = len(words), len(gold)
    while i > 0 and j > 0:
        i, j = _copied_or_matched(words, gold, free, i, j, steps=steps)
        if i == 0 or j == 0:
            break
        here = table[i, j]
        if here == table[i - 1, j - 1] + 1:
            steps.append((REPLACE, i - 1, j - 1))
            i, j = i - 1, j - 1
        elif here == table[i - 1, j] + 1:
            steps.append((DELETE, i - 1, None))
            i -= 1
        else:
            steps.append((INSERT, None, j - 1))
            j -= 1
    while j > 0:
        steps.append((INSERT, None, j - 1))
        j -= 1
    steps.reverse()
    return steps, i


def _copied_or_matched(words: list[str], gold: list[str], free: Callable[[str], bool], i: int, j: int, *,
                       steps: list[tuple[int, int | None, int | None]]) -> tuple[int, int]:
    """Going back from output token `i` and key word `j` (both counted from 1), the steps that
    need no table, appended to `steps`: a free (`##`) token copied, else equal words matched,
    while one holds; where the walk stops.  Why first: equal words are taken before any edit."""
    while i > 0 and j > 0:
        if free(words[i - 1]):
            steps.append((COPY, i - 1, None))
            i -= 1
        elif words[i - 1] == gold[j - 1]:
            steps.append((MATCH, i - 1, j - 1))
            i, j = i - 1, j - 1
        else:
            break
    return i, j


class _TooFar(ValueError):
    def __init__(self, m: int, n: int) -> None:
        super().__init__(f"{m} output words against the key's {n}: too far apart to realign")


@dataclass
class Bracketed:
    """The mentions the repaired brackets make, and what the repair did, over the aligned tokens."""

    mentions: list[tuple[str, int, int]] = field(default_factory=list)
    """(entity id, first token, last token), as `text2conllu` creates them: in the order they close."""
    closed: list[tuple[str, int]] = field(default_factory=list)
    """(id, token): a closing bracket with no opening one, made the one-word mention `[eN]`."""
    unclosed: list[tuple[str, int]] = field(default_factory=list)
    """(id, token): an opening bracket never closed in its sentence: its mention is lost."""
    unknown: list[tuple[str, int]] = field(default_factory=list)
    cut: list[tuple[str, int]] = field(default_factory=list)
    """(mark, token): a mark read up to its id's digits (`[e1.2` as `[e1`), the rest ignored."""
    """(mark, token): a mark that is no `eN` id (the key's own `d1.2`, a typo): dropped."""
    piped: list[int] = field(default_factory=list)
    """Tokens with two `|`: their marks dropped."""
    kept_tokens: int = 0
    """Aligned tokens inside the key's sentences (a `##` after the last word is not)."""


def repair_brackets(tokens: list[str], sentence_lengths: list[int], zeros_free: bool = True) -> Bracketed:
    """Cut the aligned tokens into the key's sentences and repair each one's brackets.  Without
    `zeros_free` (`clean -z`) the lengths count the key's empty nodes, and so does the cut."""
    out = Bracketed()
    position = 0
    for length in sentence_lengths:
        words = 0
        start = position
        while words < length:
            if position == len(tokens):  # only when a key word itself starts with ## (and so is no word here)
                raise ValueError("a key word starting with ## leaves its sentence short of words")
            if not zeros_free or not is_zero(tokens[position]):
                words += 1
            position += 1
        _repair_sentence(tokens, start, position, out)
    out.kept_tokens = position
    out.mentions.sort(key=lambda m: m[2])
    return out


def gives_marks(token: str) -> bool:
    """Whether a token read from the inline text opens or closes a mention: one `|` (two drop
    every mark) and a mark the reader takes (`_repair_sentence`) after it."""
    parts = token.split("|")
    return len(parts) == 2 and any(_MARK.match(mark) for mark in parts[1].split(","))


def _repair_sentence(tokens: list[str], start: int, stop: int, out: Bracketed) -> None:
    open_at: dict[str, list[int]] = {}
    closing: list[tuple[str, int, int]] = []
    for index in range(start, stop):
        parts = tokens[index].split("|")
        if len(parts) == 1:
            continue
        if len(parts) > 2:
            out.piped.append(index)
            continue
        for mark in parts[1].split(","):
            found = _MARK.match(mark)
            if not found:
                out.unknown.append((mark, index))
                continue
            left, number, right = found.groups()
            if found.end() != len(mark):
                out.cut.append((mark, index))
            eid = f"e{number}"
            if left and right:
                closing.append((eid, index, index))
            elif left:
                open_at.setdefault(eid, []).append(index)
            elif right:
                stack = open_at.get(eid)
                if stack:
                    closing.append((eid, stack.pop(), index))
                else:
                    out.closed.append((eid, index))
                    closing.append((eid, index, index))
            else:
                out.unknown.append((mark, index))
    out.mentions.extend(closing)
    out.unclosed.extend((eid, index) for eid, stack in open_at.items() for index in stack)

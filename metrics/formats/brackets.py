"""CoNLL-2012 coreference cells to chains, for every document of a file at once, as array work.

A cell holds items joined by `|`: `(N)` a one-token mention, `(N` an opening, `N)` a closing of
the most recent open mention labelled N; `(N+M)` split antecedents are ignored.  v8.01 processes
the items of one cell as one-token mentions, then openings, then closings; that order decides
chain order (first-seen label) and the order of mentions within a chain, which decide which copy
of a duplicated span the official scorer keeps, so it is kept exactly.

Why arrays: a file has ~100,000 cells.  Each distinct cell text is parsed once (a corpus has a few
thousand), and openings are paired with closings by one sort instead of a stack per label: an
opening at depth d of its label pairs with the next closing of that label that returns to depth d,
so sorting the events by (label, depth, position) puts each pair side by side.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from metrics.model import Span

_SPLIT_ANTECEDENT = re.compile(r"^\(\d+\+\d+\)$")
SINGLE, OPEN, CLOSE = 0, 1, 2
"""Event kinds, in the order v8.01 processes them within a cell."""


def parse_cell(cell: str) -> tuple[tuple[int, ...], tuple[str, ...]] | str:
    """The events of a cell in processing order as (kinds, labels), or its first bad item.

    An item is `(N)`, `(N` or `N)` with a label N of characters other than brackets, `|` and
    whitespace (`(N+M)`, a split antecedent, is no event); anything else is bad.  Read with string
    methods, not a regular expression per item: a corpus has ten thousand distinct cells."""
    singles: list[str] = []
    opens: list[str] = []
    closes: list[str] = []
    for item in cell.split("|"):
        opening, closing = item.startswith("("), item.endswith(")")
        label = item[opening:len(item) - closing]
        if not (opening or closing) or label.split() != [label] or "(" in label or ")" in label:
            return item  # (an empty label, or one with whitespace, splits otherwise)
        if not closing:
            opens.append(label)
        elif not opening:
            closes.append(label)
        elif "+" not in label or not _SPLIT_ANTECEDENT.match(item):
            singles.append(label)
    return (SINGLE,) * len(singles) + (OPEN,) * len(opens) + (CLOSE,) * len(closes), (*singles, *opens, *closes)


class _Memo(dict):
    """Cell text -> `parse_cell` of it, bounded (hostile input can make every cell distinct)."""

    LIMIT = 65536

    def __missing__(self, cell: str):
        if len(self) >= self.LIMIT:
            self.clear()
        value = self[cell] = parse_cell(cell)
        return value


_memo = _Memo()


@dataclass
class Problem:
    """The first thing wrong with one document's cells: where (token index), and what."""

    token: int
    message: str


@dataclass
class ChainColumns:
    """Every document's chains as four arrays: its spans' first and last tokens (token indices in
    their document), chain after chain, each chain's size, and each document's number of
    chains; and each chain's label.  Why arrays: they are what a forked reader sends back
    (`metrics.formats.conll_columns`), where the chains' lists would be pickled tuple by tuple."""

    firsts: np.ndarray
    lasts: np.ndarray
    chain_sizes: np.ndarray
    chain_counts: np.ndarray
    names: list[str]

    def chains(self) -> list[list[list[Span]]]:
        """Per document, its chains in first-seen label order."""
        spans = list(zip(self.firsts.tolist(), self.lasts.tolist()))
        return _cut(_cut(spans, self.chain_sizes), self.chain_counts)

    def labels(self) -> list[list[str]]:
        """Per document, the label of each chain."""
        return _cut(self.names, self.chain_counts)


@dataclass
class Brackets:
    """Every document's chains, read from the cells of all of a file's tokens at once."""

    chains: ChainColumns
    """Every document's chains, in first-seen label order, and their labels."""
    problems: dict[int, Problem]
    """Documents (by index) whose cells are wrong: a bad item, or a closing with nothing open."""
    unclosed: dict[int, Problem]
    """Documents that end with a mention still open: v8.01's choice of which to name (of the
    labels first opened earliest, its last opening still unpaired); the message is the label."""
    repeated: dict[int, dict[Span, tuple[int, ...]]]
    """Per document (by index) with a span listed more than once: the chains (indices in the
    document) of each such span, in the order the file completes them (`Document.repeated`)."""


_DIGITS = 9
"""Labels of up to this many ASCII digits are read as numbers from the bytes (a label's number:
its value times 16 plus its length, so `01` and `1` stay apart); others are read as text."""
_TEXT_LABELS = 16 * 10 ** _DIGITS
"""The numbers of labels read as text start here, past every digit label's."""
_PIPE, _OPEN_BRACKET, _CLOSE_BRACKET, _ZERO = ord("|"), ord("("), ord(")"), ord("0")


@dataclass
class _CellEvents:
    """The events of many cells, cell after cell, each cell's in v8.01's order."""

    cell: np.ndarray
    kind: np.ndarray
    label: np.ndarray
    """Each event's label as a number (see `_DIGITS`)."""
    other: list[str]
    """The labels read as text, label number `_TEXT_LABELS + i` being other[i]."""
    bad: dict[int, tuple[str, str]]
    """Cells (by index, in order) with a bad item: (its first bad item, the cell's text); no events."""


def _label_texts(numbers: np.ndarray, other: list[str]) -> list[str]:
    """The text of each label number (`_CellEvents.label`): a digit label's value written out,
    zeros put back in front where it had them."""
    texts = list(map(str, (numbers // 16).tolist()))
    written = np.searchsorted(10 ** np.arange(1, _DIGITS + 1), numbers // 16, side="right") + 1
    for i in np.flatnonzero((numbers >= _TEXT_LABELS) | (numbers % 16 != written)).tolist():
        number = int(numbers[i])
        texts[i] = other[number - _TEXT_LABELS] if number >= _TEXT_LABELS else texts[i].zfill(number % 16)
    return texts


def _cell_events(data: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> _CellEvents:
    """The events of the cells `data[starts[i]:ends[i]]`.

    Why bytes: a file has a hundred thousand cells and most are a few items with labels of
    digits (`(12`, `12)|(7)`); those are read for all cells at once: the cells' bytes are laid
    end to end, each followed by `|`, so that every item ends at a `|`; an item's first and last
    bytes say its kind; its label's digits give its number.  A cell with any other item (a
    label that is not digits, a split antecedent `(1+2)`, a bad item) is read with
    `parse_cell`, and its labels numbered alike."""
    count = len(starts)
    if not count:
        return _CellEvents(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int8), np.zeros(0, dtype=np.int64), [], {})
    lengths = (ends - starts).astype(np.int64)
    at = np.cumsum(lengths + 1) - (lengths + 1)  # each cell's first byte in the joined bytes
    joined = data[np.minimum(np.arange(int(at[-1] + lengths[-1] + 1)) - np.repeat(at - starts, lengths + 1), len(data) - 1)]
    joined[at + lengths] = _PIPE
    pipe = joined == _PIPE
    item_end = np.flatnonzero(pipe)
    item_start = np.r_[0, item_end[:-1] + 1]
    items = np.add.reduceat(pipe, at, dtype=np.int64)  # each cell's items: its `|` bytes, the one after it among them
    first_item = np.cumsum(items) - items
    item_cell = np.repeat(np.arange(count), items)
    opening = joined[item_start] == _OPEN_BRACKET
    closing = (joined[item_end - 1] == _CLOSE_BRACKET) & (item_end > item_start)
    label_start, label_end = item_start + opening, item_end - closing
    width = label_end - label_start
    plain, value = _digit_labels(joined, label_start, width, opening | closing)
    label = value * 16 + width
    kind = np.where(opening & closing, SINGLE, np.where(opening, OPEN, CLOSE))
    simple = np.logical_and.reduceat(plain, first_item)
    taken = np.flatnonzero(simple[item_cell])
    taken = taken[np.argsort(item_cell[taken] * 3 + kind[taken], kind="stable")]
    cell, kinds, labels = item_cell[taken], kind[taken], label[taken]
    other: dict[str, int] = {}
    bad: dict[int, tuple[str, str]] = {}
    rest = np.flatnonzero(~simple).tolist()
    if rest:
        more_cells, more_kinds, more_labels = [], [], []
        for i in rest:
            text = data[starts[i]:ends[i]].tobytes().decode("utf-8")
            parsed = _memo[text]
            if isinstance(parsed, str):
                bad[i] = (parsed, text)
                continue
            more_cells += [i] * len(parsed[0])
            more_kinds += parsed[0]
            more_labels += [_label_number(name, other) for name in parsed[1]]
        order = np.argsort(np.concatenate((cell, more_cells)).astype(np.int64), kind="stable")
        cell = np.concatenate((cell, more_cells)).astype(np.int64)[order]
        kinds = np.concatenate((kinds, more_kinds)).astype(np.int64)[order]
        labels = np.concatenate((labels, more_labels)).astype(np.int64)[order]
    return _CellEvents(cell, kinds.astype(np.int8), labels, list(other), bad)


def _digit_labels(joined: np.ndarray, label_start: np.ndarray, width: np.ndarray, bracketed: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """(whether each item is plain: bracketed, its label of 1 to `_DIGITS` ASCII digits; each plain
    label's value), the label of item i being the `width[i]` bytes of `joined` from
    `label_start[i]`.  Read a place at a time over the items still plain (at most `_DIGITS`
    passes over the items), not a byte at a time over the cells' bytes: the weights, places and
    sums of every byte were six arrays of int64 as long as the cells' bytes, 30 MB of new memory
    for a 250,000-token file's cells."""
    value = np.zeros(len(width), dtype=np.int64)
    plain = bracketed & (width >= 1) & (width <= _DIGITS)
    for place in range(_DIGITS):
        going = np.flatnonzero(plain & (width > place))
        if not len(going):
            break
        digit = joined[label_start[going] + place] - _ZERO  # uint8: bytes below "0" wrap past 9
        plain[going] &= digit < 10
        value[going] = value[going] * 10 + digit
    return plain, value


def _label_number(name: str, other: dict[str, int]) -> int:
    """A label's number (`_CellEvents.label`), `other` numbering those read as text."""
    if name.isascii() and name.isdigit() and len(name) <= _DIGITS:
        return int(name) * 16 + len(name)
    return _TEXT_LABELS + other.setdefault(name, len(other))


def read_brackets(data: np.ndarray, cell_starts: np.ndarray, cell_ends: np.ndarray, *, cell_tokens: np.ndarray,
                  document_of: np.ndarray, n_documents: int) -> Brackets:
    """Chains of every document from its non-empty cells: cell i is the bytes
    `data[cell_starts[i]:cell_ends[i]]` (UTF-8) of token `cell_tokens[i]` (an index within its
    document) of document `document_of[i]`, in file order (so `document_of` never decreases)."""
    events = _cell_events(data, cell_starts, cell_ends)
    problems: dict[int, Problem] = {}
    for i, (item, cell) in events.bad.items():  # the first bad cell of each document (cells in order)
        problems.setdefault(int(document_of[i]), Problem(int(cell_tokens[i]), f"bad coreference item {item!r} in cell {cell!r}"))
    kinds = events.kind
    token = cell_tokens[events.cell]
    document = document_of[events.cell]
    label, chain_document, first_names = _chains_of_events(document, events.label)
    chain_name = _label_texts(first_names, events.other)

    nested = np.flatnonzero(kinds != SINGLE)
    by_label = nested[np.argsort(label[nested], kind="stable")]
    grouped = label[by_label]
    step = np.where(kinds[by_label] == OPEN, 1, -1)
    depth = np.cumsum(step)  # after each event; made relative to its label's group just below
    if len(by_label):
        starts = np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]])
        depth -= np.repeat((depth - step)[starts], np.diff(np.r_[starts, len(by_label)]))
    unopened: dict[int, Problem] = {}
    for event in np.sort(by_label[depth < 0]).tolist():  # the first below zero in a document is a closing
        d = int(document[event])
        if d not in unopened:
            name = chain_name[label[event]]
            unopened[d] = Problem(int(token[event]), f"mention {name}) closes but no mention ({name} is open")
    for d, problem in unopened.items():  # whichever comes first: a bad cell has no events of its own
        if d not in problems or problems[d].token > problem.token:
            problems[d] = problem
    bad = np.isin(document, list(problems)) if problems else np.zeros(len(kinds), dtype=bool)

    ordered = by_label[np.lexsort((by_label, depth - (step > 0), grouped))]
    if problems:  # a document with a problem is not built: leave its events out of the pairing
        ordered = ordered[~bad[ordered]]
    closing = np.flatnonzero(kinds[ordered] == CLOSE)
    opens, closes = ordered[closing - 1], ordered[closing]
    singles = np.flatnonzero((kinds == SINGLE) & ~bad)
    owner = np.concatenate((label[singles], label[closes]))
    order = np.lexsort((np.concatenate((singles, closes)), owner))
    firsts = np.concatenate((token[singles], token[opens]))[order]
    lasts = np.concatenate((token[singles], token[closes]))[order]
    events = np.concatenate((singles, closes))[order]
    first_chain = np.searchsorted(chain_document, np.arange(n_documents))  # chains come document by document
    repeated = _repeated(events, document[events], label[events], first_chain, first=firsts, last=lasts)
    chains = ChainColumns(firsts.astype(np.int32), lasts.astype(np.int32),  # tokens of a document: they fit
                          np.bincount(owner, minlength=len(chain_name)),
                          np.bincount(chain_document, minlength=n_documents), chain_name)
    return Brackets(chains, problems, _unclosed(kinds, label, token, document, paired=opens, bad=bad,
                                                chain_name=chain_name), repeated)


def _chains_of_events(document: np.ndarray, name: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Number the chains, each a label within a document, in the order they are first met:
    (each event's chain, each chain's document, each chain's label), given each event's label
    as a number (`name`, below 2**35: `_CellEvents.label`).  Why numbers: the pairs (document,
    label) are sorted as one number each, not hashed as tuples (it fits in 63 bits for fewer than
    2**28 documents, which would take gigabytes past the largest input read)."""
    code = document.astype(np.int64) * (int(name.max()) + 1 if len(name) else 1) + name
    _, first_at, inverse = np.unique(code, return_index=True, return_inverse=True)
    order = np.argsort(first_at, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    firsts = first_at[order]
    return rank[inverse.reshape(-1)], document[firsts], name[firsts]


def _cut(items: list, lengths: np.ndarray) -> list[list]:
    """`items` cut into consecutive lists of the given lengths."""
    ends = np.cumsum(lengths).tolist()
    return [items[end - n:end] for n, end in zip(lengths.tolist(), ends)]


def _repeated(events: np.ndarray, document: np.ndarray, label: np.ndarray, first_chain: np.ndarray,
              *, first: np.ndarray, last: np.ndarray) -> dict[int, dict[Span, tuple[int, ...]]]:
    """Spans completed more than once per document, each with its chains in completion order: the
    event order, which is the file's order within a cell for two copies of one span (both are
    one-token mentions or both closings)."""
    out: dict[int, dict[Span, tuple[int, ...]]] = {}
    if len(events) < 2:
        return out
    width = int(last.max()) + 1
    code = (document.astype(np.int64) * width + first) * width + last  # the span within its document
    by_span = np.lexsort((events, code))
    same = code[by_span][1:] == code[by_span][:-1]
    if not same.any():  # the usual file: no span listed twice
        return out
    base = first_chain.tolist()
    for i in np.flatnonzero(same).tolist():
        a, b = int(by_span[i]), int(by_span[i + 1])
        d = int(document[a])
        span = (int(first[a]), int(last[a]))
        held = out.setdefault(d, {}).get(span) or (int(label[a]) - base[d],)
        out[d][span] = held + (int(label[b]) - base[d],)
    return out


def _unclosed(kinds: np.ndarray, label: np.ndarray, token: np.ndarray, document: np.ndarray,
              *, paired: np.ndarray, bad: np.ndarray, chain_name: list[str]) -> dict[int, Problem]:
    """Per document left with an open mention, the one v8.01 names: among its labels with an
    unpaired opening, the label first opened earliest; its last unpaired opening."""
    left = (kinds == OPEN) & ~bad
    left[paired] = False
    out: dict[int, Problem] = {}
    if not left.any():
        return out
    first_opened: dict[int, int] = {}
    for event in np.flatnonzero(kinds == OPEN).tolist():
        first_opened.setdefault(int(label[event]), event)
    last_left: dict[int, int] = {int(label[e]): e for e in np.flatnonzero(left).tolist()}
    for name in sorted(last_left, key=first_opened.__getitem__):
        d = int(document[last_left[name]])
        if d not in out:
            out[d] = Problem(int(token[last_left[name]]), chain_name[name])
    return out

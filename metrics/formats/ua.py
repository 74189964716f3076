"""Universal Anaphora files (CoNLL-U Plus, `*.CONLLUA`) read into `UADocument`s.

A UA file is told by its first line, `# global.columns = ... IDENTITY ...`; the columns it names
locate IDENTITY, BRIDGING and DISCOURSE_DEIXIS (the UA scorer takes them at the fixed places 11-13,
where every released file has them; a file placing them elsewhere is read where it says, with a
warning: `moved_columns`).  Columns are separated by runs of spaces or tabs; a line may
leave out columns after IDENTITY (the released files often omit NOM_SEM): they count as `_`.

The rules, as the UA scorer 2.0 (corefud-scorer 4fd7b0e, `scorer/ua/reader.py`) reads a file:

- `# newdoc id = NAME` starts a document; words are numbered from 0 over the document; a line
  whose ID has a dot (`14.1`) is a zero, placed before the next word, which may only hold
  one-word markables.
- A markable opens with `(Attr=...|Attr=...` and closes with `)`, which closes the innermost open
  markable, or with `MarkableID)`, which names the markable it closes (the UA scorer's
  `--allow-boundary-crossing` files); both are read, whichever a file uses.  `(...)` is a
  one-word markable.  A MarkableID opened again is a discontinuous markable: its parts are paired
  first opening with first closing.  Its EntityID is the last one given, its `Min` the first.
- `Min=5` or `Min=5,7` gives the minimal span (1-based word numbers of the document).

How: the file's lines and cells are found by numpy over its bytes (`metrics.formats.ua_lines`);
word lines, zeros, words' numbers and sentence starts are told as arrays; Python looks only at
the comment lines that start a document or name the columns, and at the lines with an annotated
cell (about a quarter of CODI-CRAC's).  Every file reads as a line-by-line reading would read it,
errors at the same lines (`tests/test_ua_array_reader.py` holds the line-by-line reader).

Where the UA scorer crashes, loops or reads garbage, this reader stops with the file, the line and
what is wrong (`InputError`): a word line before any `# newdoc`, a document named twice, a line
without its IDENTITY column, an attribute without `=`, a markable without MarkableID or EntityID,
a bridging link without MarkableID or MentionAnchor, a MarkableID
opened again under another EntityID, a `)` with nothing open, a markable closed
by name that is not open, a markable never closed, a zero inside a longer markable, a malformed
Min, a plural entity that is (through others) an element of itself.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import numpy as np

from metrics.formats.cache import ReadCache
from metrics.formats.source import is_regular, read_bytes, read_raw, read_utf8
from metrics.formats.ua_lines import LineIndex, index_lines, texts_of
from metrics.formats.ua_cells import COLUMNS_LINE, Document, bridging_links, split_cell_error, whole_layer
from metrics.mentions.ua import MarkableTable, Position, UADocument
from metrics.model import InputError
from metrics.runtime.gc_pause import gc_paused

_COLUMNS = COLUMNS_LINE
_NEWDOC = re.compile(r"#\s*newdoc\s+id\s*=\s*(.*)$")


def is_ua_head(text: str) -> bool:
    """Whether the first lines of a file are a UA file's: a `global.columns` naming IDENTITY."""
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        match = _COLUMNS.match(stripped)
        return bool(match and "IDENTITY" in match.group(1).split())
    return False


UA_SCORER_PLACES = {"IDENTITY": 11, "BRIDGING": 12, "DISCOURSE_DEIXIS": 13}
"""Where the UA scorer reads each annotation column (1-based), whatever `global.columns` says."""


def moved_columns(path: str, layers: tuple[str, ...] = ("identity", "deixis", "bridging")) -> str | None:
    """What a UA file's `global.columns` lines place elsewhere than the UA scorer reads it (say
    "IDENTITY in column 9 (the UA scorer reads column 11)"), None when every annotation column they
    name is where the UA scorer looks.  We read the columns a line names, as its producer meant; the
    UA scorer reads its fixed places and would score whatever stands there, so a score of such a
    file can differ from the official one, and the user is told.  So also for a column of `layers` a
    line does not name while the first word line after it has a cell at the UA scorer's place
    ("DISCOURSE_DEIXIS nowhere (...)": we read no such layer, the UA scorer reads that cell; a file
    whose lines stop before it would crash the UA scorer, and is not said).  Every declaration in
    the file is looked at, not the head's alone: the walk reads a later one for the lines after it,
    and a header on a later line, or a first word line past 8 KB of comments, hid the layer in
    silence (hostile13)."""
    data = read_bytes(path)
    if b"\r" in data:  # (line ends as `read_utf8` reads them)
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    declared = []
    for found in re.finditer(rb"global\.columns", data):
        line, stop = _line_at(data, data.rfind(b"\n", 0, found.start()) + 1)
        match = _COLUMNS.match(line.lstrip("\ufeff").strip())
        if match and "IDENTITY" in match.group(1).split():
            declared.append((match.group(1).split(), stop))
    moved: list[str] = []
    for (columns, stop), (_, until) in zip(declared, [*declared[1:], ([], len(data))]):
        word: list[str] = []
        while stop < until and not word:  # (up to the next declaration: each line is looked at once)
            line, stop = _line_at(data, stop + 1)
            word = [] if line.strip().startswith("#") else line.split()
        moved += [f"{name} in column {columns.index(name) + 1} (the UA scorer reads column {place})"
                  for name, place in UA_SCORER_PLACES.items()
                  if name in columns and columns.index(name) + 1 != place]
        moved += [f"{name} nowhere (the UA scorer reads column {place})" for name, place in UA_SCORER_PLACES.items()
                  if name not in columns and LAYER_OF_COLUMN[name] in layers and len(word) >= place]
    return ", ".join(dict.fromkeys(moved)) or None


def _line_at(data: bytes | bytearray, start: int) -> tuple[str, int]:
    """The text of the line starting at byte `start`, and where it ends."""
    stop = data.find(b"\n", start)
    stop = len(data) if stop < 0 else stop
    return str(data[start:stop], "utf-8", errors="replace"), stop


LAYERS = ("identity", "deixis", "bridging")
"""The annotation columns: IDENTITY, DISCOURSE_DEIXIS, BRIDGING."""


def read_ua(path: str, cache: ReadCache | None = None, layers: tuple[str, ...] = LAYERS) -> list[UADocument]:
    """Every document of a UA file, in file order (documents with no word are left out, as the UA
    scorer leaves them), with the markables of `layers` only (the others' cells are not looked
    at: a score reads one markable layer, and bridging when asked for); through `cache` when
    given (a key is read run after run: loading its entry takes a quarter of reading it).  The
    collector is paused meanwhile: thousands of markables, no cycle."""
    layers = tuple(layer for layer in LAYERS if layer in layers)
    entry = _cache_key(cache, path, layers)
    with gc_paused():
        if entry is not None:
            stored = cache.load(entry, _documents)
            if stored is not None:
                return stored
        documents = _read(path, layers)
    if entry is not None:
        cache.store(entry, documents)
    return documents


_MODEL = Path(__file__).resolve().parent.parent / "mentions" / "ua.py"
"""The UA document model: an entry holds its objects, so its source is part of the entry's name
(the cache's own code version covers the readers, not this model)."""
_model_digest: list[str] = []


def _cache_key(cache: ReadCache | None, path: str, layers: tuple[str, ...] = LAYERS) -> str | None:
    """The name of a regular file's entry as a UA file (None without a usable cache)."""
    if cache is None or cache.directory is None or not is_regular(path):
        return None
    if not _model_digest:
        _model_digest.append(hashlib.blake2b(_MODEL.read_bytes(), digest_size=16).hexdigest())
    return cache.key(path, lambda: read_raw(path), "ua", _model_digest[0], ",".join(layers))


def ua_in_cache(path: str, cache: ReadCache | None, layers: tuple[str, ...] = LAYERS) -> bool:
    """Whether `read_ua` would take the file from the cache (then it is read where it is needed,
    not in a forked process that would send its documents back)."""
    entry = _cache_key(cache, path, tuple(layer for layer in LAYERS if layer in layers))
    return entry is not None and cache.holds(entry)


def _documents(stored: object) -> list[UADocument]:
    """What an entry holds, checked: a list of UA documents (anything else is a damaged entry)."""
    if not isinstance(stored, list) or not all(isinstance(d, UADocument) for d in stored):
        raise ValueError("not a list of UA documents")
    return stored


LAYER_COLUMNS = ("IDENTITY", "BRIDGING", "DISCOURSE_DEIXIS")
LAYER_OF_COLUMN = {"IDENTITY": "identity", "BRIDGING": "bridging", "DISCOURSE_DEIXIS": "deixis"}
"""The layer (`LAYERS`) each annotation column holds."""


def _layer_columns(path: str, number: int, columns: list[str]) -> tuple[int, int, int]:
    """The (IDENTITY, BRIDGING, DISCOURSE_DEIXIS) columns a `global.columns` line (0-based `number`)
    names, -1 for one absent.  A layer named twice is refused: either reading of it would score
    some other column than the file's producer meant, without a word."""
    for name in LAYER_COLUMNS:
        if columns.count(name) > 1:
            raise InputError(path, number + 1, f"global.columns names {name} {columns.count(name)} times")
    identity, bridging, deixis = (columns.index(name) if name in columns else -1 for name in LAYER_COLUMNS)
    return identity, bridging, deixis


_SPECIAL = (np.frombuffer(b"newdoc", np.uint8), np.frombuffer(b"global.columns", np.uint8))


def _special_comments(index: LineIndex, comments: np.ndarray) -> np.ndarray:
    """The comment lines that may start a document or name the columns: their text after `#` and
    any whitespace starts with `newdoc` or `global.columns` (their regular expressions then read
    them).  Such lines are few among thousands of comments, and numpy finds them at once."""
    if not len(comments):
        return comments
    buf = np.frombuffer(index.data, np.uint8)
    first = index.first_cell[comments]
    alone = index.cell_ends[first] - index.cell_starts[first] == 1  # "#" a cell of its own
    followed = index.first_cell[comments + 1] - first > 1
    at = np.where(alone, index.cell_starts[np.minimum(first + 1, len(index.cell_starts) - 1)],
                  index.cell_starts[first] + 1)
    found = np.zeros(len(comments), bool)
    for word in _SPECIAL:
        found |= (buf[np.minimum(at[:, None] + np.arange(len(word)), len(buf) - 1)] == word).all(axis=1)
    return comments[found & (followed | ~alone)]


def _read(path: str, layers: tuple[str, ...] = LAYERS) -> list[UADocument]:
    """The file's lines and cells located by numpy (`ua_lines`), the lines told apart and the
    words numbered as arrays; Python walks only the comment lines that start documents or name
    columns, and the lines with an annotated cell."""
    data = read_utf8(path)
    nul = data.find(b"\0")
    if nul >= 0:
        raise InputError(path, data.count(b"\n", 0, nul) + 1, "NUL byte in text")
    index = index_lines(data)
    buf = np.frombuffer(data, np.uint8)
    cells = np.diff(index.first_cell)
    has_cell = cells > 0
    first_byte = np.zeros(index.lines, np.uint8)
    first_byte[has_cell] = buf[index.cell_starts[index.first_cell[:-1][has_cell]]]
    comment = first_byte == 35  # "#"
    word_lines = np.flatnonzero(has_cell & ~comment)
    zero = _zeros(index, word_lines)
    special = _special_comments(index, np.flatnonzero(comment))
    walk = _Walk(path, index, word_lines, zero, layers)
    comments = [(number, index.line_text(number).strip()) for number in special.tolist()]
    try:
        if not walk.whole_file(comments):
            for number, text in comments:
                walk.lines_before(number)
                walk.comment(number, text)
            walk.lines_before(index.lines)
            walk.close()
    except InputError as error:
        raise split_cell_error(error, lambda number: index.line_text(number - 1)) from None
    return walk.documents(~has_cell)


def _zeros(index: LineIndex, word_lines: np.ndarray) -> np.ndarray:
    """Whether each word line's ID has a dot (a zero, an empty node)."""
    buf = np.frombuffer(index.data, np.uint8)
    starts, ends = index.cell_of(word_lines, 0)
    lengths = ends - starts
    out = np.zeros(len(word_lines), bool)
    longest = int(lengths.max()) if len(lengths) else 0
    for k in range(min(longest, 16)):
        out |= (lengths > k) & (buf[np.minimum(starts + k, len(buf) - 1)] == 46)  # "."
    for i in np.flatnonzero(lengths > 16).tolist():  # IDs no file has: looked at one by one
        out[i] = index.data.find(b".", int(starts[i]), int(ends[i])) >= 0
    return out


class _Walk:
    """The file's documents, its column declarations and its annotated lines, in file order: every
    error is met at the line where the line-by-line reading would meet it."""

    def __init__(self, path: str, index: LineIndex, word_lines: np.ndarray, zero: np.ndarray,
                 layers: tuple[str, ...]) -> None:
        self.path = path
        self.layers = layers
        self.index = index
        self.word_lines = word_lines
        self.zero = zero
        self.done_to = 0
        """Lines before this one are read."""
        self.columns: tuple[int, int, int] | None = None
        """(IDENTITY, BRIDGING, DISCOURSE_DEIXIS) columns, -1 for one absent; None before any declaration."""
        self.names: dict[str, int] = {}
        self.current: Document | None = None
        self.read: list[tuple[Document, int]] = []
        """Each document with the index of its first word line (in `word_lines`)."""
        not_zero = ~zero
        self.word_number = np.cumsum(not_zero) - not_zero
        """Per word line, the words (zeros aside) on the lines before it, over the file."""
        self.base = 0
        """`word_number` at the current document's start."""
        self.zero_position: dict[int, str] = {}

    def comment(self, number: int, line: str) -> None:
        match = _NEWDOC.match(line)
        if match:
            self.close()
            name = match.group(1).strip()
            if name in self.names:
                raise InputError(self.path, number + 1, f"document {name!r} again (first at line {self.names[name]})")
            self.names[name] = number + 1
            self.current = Document(self.path, name, number + 1)
            first = int(np.searchsorted(self.word_lines, number))
            self.read.append((self.current, first))
            self.base = int(self.word_number[first]) if first < len(self.word_lines) else 0
            return
        match = _COLUMNS.match(line)
        if match:
            columns = match.group(1).split()
            if "IDENTITY" not in columns:
                raise InputError(self.path, number + 1, "global.columns names no IDENTITY column: not a UA file")
            self.columns = _layer_columns(self.path, number, columns)

    def whole_file(self, comments: list[tuple[int, str]]) -> bool:
        """The common file read at once: its columns named once, before any word or document; a
        document before every word; every word line with its IDENTITY cell; no document named
        twice; each markable layer of the kind `whole_layer` reads (no markable on a zero).  False,
        with nothing read, for any other file: the walk line by line reads it, and meets its
        errors where they are."""
        if not comments or _NEWDOC.match(comments[0][1]) or not _COLUMNS.match(comments[0][1]):
            return False
        columns = _COLUMNS.match(comments[0][1]).group(1).split()
        starts, names = [], []
        for number, text in comments[1:]:
            match = _NEWDOC.match(text)
            if not match:
                if _COLUMNS.match(text):
                    return False
                continue
            starts.append(number)
            names.append(match.group(1).strip())
        word_lines, index = self.word_lines, self.index
        if "IDENTITY" not in columns or not starts or len(set(names)) != len(names) or \
                (len(word_lines) and word_lines[0] < max(starts[0], comments[0][0])):
            return False
        identity = columns.index("IDENTITY")
        if (index.first_cell[word_lines + 1] - index.first_cell[word_lines] <= identity).any():
            return False
        self.columns = _layer_columns(self.path, comments[0][0], columns)
        document = np.searchsorted(starts, word_lines) - 1
        first_word = np.searchsorted(word_lines, starts)
        bases = np.append(self.word_number, 0)[first_word]
        read: dict[str, tuple[MarkableTable, list[int]]] = {}
        for layer, column, name in (("identity", identity, "IDENTITY"),
                                    ("deixis", self.columns[2], "DISCOURSE_DEIXIS")):
            if column < 0 or layer not in self.layers:
                continue
            at = np.flatnonzero(~index.blank(word_lines, column))
            if self.zero[at].any():
                return False
            if len(at):
                cell_starts, cell_ends = index.cell_of(word_lines[at], column)
                found = whole_layer(index.data, cell_starts, cell_ends,
                                    positions=self.word_number[at] - bases[document[at]],
                                    lines=word_lines[at] + 1, documents=document[at], path=self.path,
                                    column=name)
                if found is None:
                    return False
                read[layer] = found
        self._read_whole_file(starts, names, first_word, bases, document=document, read=read)
        return True

    def _read_whole_file(self, starts: list[int], names: list[str], first_word: np.ndarray, bases: np.ndarray, *,
                         document: np.ndarray, read: dict[str, tuple[MarkableTable, list[int]]]) -> None:
        """The documents of `whole_file`, with their markables, zeros and bridging links, each
        finished in turn (a bridging link's error before a later document's)."""
        documents = [Document(self.path, name, number + 1) for number, name in zip(starts, names)]
        for layer, (table, document_of) in read.items():
            bounds = np.searchsorted(document_of, np.arange(len(documents) + 1)).tolist()
            for at, current in enumerate(documents):
                getattr(current, layer).whole = table.rows(bounds[at], bounds[at + 1])
        bridging = self.columns[1]
        links: list[list[tuple[str, int]]] = [[] for _ in documents]
        if bridging >= 0 and "bridging" in self.layers:
            at = np.flatnonzero(~self.index.blank(self.word_lines, bridging))
            cell_starts, cell_ends = self.index.cell_of(self.word_lines[at], bridging)
            for value, line, at_document in zip(texts_of(self.index.data, cell_starts, cell_ends),
                                                (self.word_lines[at] + 1).tolist(), document[at].tolist()):
                links[at_document].append((value, line))
        ends = np.append(first_word[1:], len(self.word_lines)).tolist()
        for current, number, name, first, last, base, cells in zip(documents, starts, names, first_word.tolist(), ends,
                                                                 bases.tolist(), links):
            self.names[name] = number + 1
            self.current, self.base = current, base
            self.read.append((current, first))
            self._read_zeros(first, last)
            for value, line in cells:
                current.doc.bridging.extend(bridging_links(value, self.path, line))
            words = int(self.word_number[last]) if last < len(self.word_lines) else self._words_before(self.index.lines)
            current.finish(words - base)

    def close(self) -> None:
        if self.current is not None:
            self.current.finish(self._words_before(self.done_to) - self.base)

    def _words_before(self, line: int) -> int:
        """The words (zeros aside) on the file's lines before `line`."""
        at = int(np.searchsorted(self.word_lines, line))
        return int(self.word_number[at]) if at < len(self.word_lines) else int(len(self.zero) - self.zero.sum())

    def lines_before(self, end: int) -> None:
        """The word lines from `done_to` up to `end`: the first with too few columns (or before
        any declaration or document) is an error, after the annotated lines before it are read."""
        first, last = np.searchsorted(self.word_lines, [self.done_to, end])
        self.done_to = end
        lines = self.word_lines[first:last]
        if not len(lines):
            return
        if self.columns is None:
            raise InputError(self.path, int(lines[0]) + 1, "not a Universal Anaphora file: no '# global.columns = "
                                                           "... IDENTITY ...' line before the first word")
        if self.current is None:
            raise InputError(self.path, int(lines[0]) + 1, "a word line before any '# newdoc id = ...'")
        identity, bridging, deixis = self.columns
        index = self.index
        cells = index.first_cell[lines + 1] - index.first_cell[lines]
        short = np.flatnonzero(cells <= identity)
        if len(short):
            bad = int(short[0])
            lines, cells = lines[:bad], cells[:bad]
        self._read_zeros(first, first + len(lines))
        self._annotated(first, lines)
        if len(short):
            needed = max(self.columns) + 1
            number = int(self.word_lines[first + bad])
            raise InputError(self.path, number + 1, f"{min(index.cells_in(number), needed + 1)} columns; a UA "
                                                    f"line has its IDENTITY in column {identity + 1}")

    def _annotated(self, first: int, lines: np.ndarray) -> None:
        """The annotated cells of these word lines (the first is word line `first`), column by
        column: the columns' layers are independent until a document ends, so the error met first
        reading line by line is the one of the earliest line (IDENTITY's, then DISCOURSE_DEIXIS's,
        then BRIDGING's, on one line)."""
        current = self.current
        identity, bridging, deixis = self.columns
        errors = []
        for order, (layer, column, cells) in enumerate((("identity", identity, current.identity),
                                                        ("deixis", deixis, current.deixis),
                                                        ("bridging", bridging, None))):
            if column < 0 or layer not in self.layers:
                continue
            at = np.flatnonzero(~self.index.blank(lines, column))
            if not len(at):
                continue
            starts, ends = self.index.cell_of(lines[at], column)
            at += first
            texts, positions = texts_of(self.index.data, starts, ends), self._positions(at)
            zeros, numbers = self.zero[at], (self.word_lines[at] + 1).tolist()
            read = self._bridging if cells is None else cells.cell
            try:
                for value, position, zero, line in zip(texts, positions, zeros.tolist(), numbers):
                    read(value, position, zero, line)
            except InputError as error:
                errors.append((error.line, order, error))
        if errors:
            raise min(errors, key=lambda e: e[:2])[2]

    def _bridging(self, value: str, position: Position, zero: bool, line: int) -> None:
        self.current.doc.bridging.extend(bridging_links(value, self.path, line))

    def _positions(self, at: np.ndarray) -> list[Position]:
        """The position of each of these word lines in its document: its word's index, or a zero's
        `W.K`: the K-th zero of the document (from 0) with W words before it."""
        out: list[Position] = (self.word_number[at] - self.base).tolist()
        for i in np.flatnonzero(self.zero[at]).tolist():
            out[i] = self.zero_position[int(at[i])]
        return out

    def _read_zeros(self, first: int, last: int) -> None:
        """Each zero among word lines `first` to `last - 1` numbered, its form kept (`doc.zeros`)."""
        current = self.current
        for i in (first + np.flatnonzero(self.zero[first:last])).tolist():
            word = int(self.word_number[i]) - self.base
            at, before = current.zeros_here
            before = before + 1 if at == word else 0
            current.zeros_here = (word, before)
            position = f"{word}.{before}"
            self.zero_position[i] = position
            line = int(self.word_lines[i])
            current.doc.zeros[position] = self.index.cell(line, 1) if self.index.cells_in(line) > 1 else "_"

    def documents(self, blank: np.ndarray) -> list[UADocument]:
        """The documents read, with their words, word lines and sentence starts (those without a
        word left out)."""
        out = []
        bounds = [first for _, first in self.read] + [len(self.word_lines)]
        blanks_before = np.cumsum(blank)
        forms = _forms(self.index, self.word_lines[~self.zero])  # every word's, cut per document below
        word_number = np.append(self.word_number, len(forms)).tolist()
        for (current, first), last in zip(self.read, bounds[1:]):
            lines, zero = self.word_lines[first:last], self.zero[first:last]
            words = lines[~zero]
            if not len(words):
                continue
            doc = current.doc
            doc.words = forms[word_number[first]:word_number[first] + len(words)]
            doc.word_lines = (words + 1).tolist()
            starts = np.ones(len(lines), bool)  # after a blank line, or the document's first
            starts[1:] = blanks_before[lines[1:]] != blanks_before[lines[:-1]]
            doc.sentence_starts = (self.word_number[first:last][starts & ~zero] - self.word_number[first]).tolist()
            out.append(doc)
        return out


def _forms(index: LineIndex, lines: np.ndarray) -> list[str]:
    """The FORM (second cell) of each line, `_` where a line has one cell."""
    has = index.first_cell[lines + 1] - index.first_cell[lines] > 1
    starts, ends = np.zeros(len(lines), np.int64), np.zeros(len(lines), np.int64)
    starts[has], ends[has] = index.cell_of(lines[has], 1)
    forms = texts_of(index.data, starts, ends)
    if not has.all():
        for i in np.flatnonzero(~has).tolist():
            forms[i] = "_"
    return forms

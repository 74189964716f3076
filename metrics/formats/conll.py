"""CoNLL-2012 reader that sees documents and mentions exactly as the official scorer v8.01 does.

The rules (../shared/docs/conll-reading.md, mirrored in the README):
- `#begin document NAME` ... `#end document`; NAME is the rest of the line, so each part is a document.
- Whitespace-only lines separate sentences and are not tokens.
- Columns are split on runs of whitespace (TAB files, space-aligned files and trailing TABs alike);
  the coreference cell is the last field.  v8.01 splits on TAB only; on TAB files both agree.
- The coreference cells are read as `metrics.formats.brackets` says (v8.01's order within a cell).
Every malformed line raises `InputError` naming the file and line.

Why it looks as it does: reading is as much of a `corefwb score` run as scoring is.  So the file
is never walked line by line in Python.  `Layout` finds lines and fields over the whole buffer;
the `#` lines (two per document) are looked at one by one to find the documents; then each
column (words, cells, POS...) of every token of every document is taken in one piece, and the
chains of all documents are built at once.  Errors are still reported as a line-by-line reader
would report them: the first in the file wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from metrics.mentions.heads_parse import LaidHeads, laid_coded
from metrics.model import Document, InputError
from metrics.formats.brackets import Brackets, read_brackets
from metrics.formats.conll_columns import Columns, ReadDocuments
from metrics.formats.conll_numbered import heads_input, numbered_fields
from metrics.formats.layout import FieldTexts, Layout
from metrics.formats.source import FIRST_SUCH_LINE, read_utf8

_BEGIN = re.compile(r"^#\s*begin document (.*)$")
_END = re.compile(r"^#\s*end document")
_LOOSE_MARKER = re.compile(r"^\s*#\s*(begin|end)\s+document\b")


def malformed_marker(line: str) -> str | None:
    """What is wrong with a line that is almost `#begin document NAME` or `#end document` (two
    spaces, a TAB, no name, spaces before the `#`), or None.  Why an error at this line: read as
    a comment or as text between documents, the line went unnoticed and the error came where it
    showed, at the next `#end document` (review9's leftover), or the document was lost."""
    if _BEGIN.match(line) or _END.match(line) or not (m := _LOOSE_MARKER.match(line)):
        return None
    shape = "#begin document NAME" if m.group(1) == "begin" else "#end document"
    return (f"malformed {shape!r} line {line[:80]!r}: {shape!r} starts its line, one space between the "
            f"words{' and before the name' * (m.group(1) == 'begin')}")


ONE_FIELD = f"a token line with one field is read as v8.01 reads it, that field being its coreference cell {FIRST_SUCH_LINE}"
"""Why not ignore the field, or refuse the line: v8.01 takes a line's last TAB-separated field as
its cell, so a lone `(0)` is a mention there; read as a word alone, a mention both files have was
lost without a word (review9's leftover), and refused, an input v8.01 scores would not score."""
FULL_COLUMNS = 12
"""Fields on every token line of a document in the full OntoNotes layout (POS, parse, lemma,
speaker and named-entity columns read from it)."""


@dataclass
class _Part:
    """A document's place among the lines: its `#begin document` line, and the line its token
    lines stop before: its `#end document` line, or where a file that does not end it stops
    (another `#begin document`, or the end of the file)."""

    name: str
    begin: int
    end: int
    closed: bool = False


@dataclass
class _Outline:
    """The documents of a text, and the first thing wrong with its `#` lines (line and message)."""

    parts: list[_Part]
    warnings: list[tuple[int, str, str]]
    """(line, kind, message): the first line of each kind of oddity."""
    error: tuple[int, str] | None


def _outline(layout: Layout, continued: bool = False) -> _Outline:
    """Find the documents from the `#` lines alone, up to the first structural error.
    `continued`: the text goes on past `layout` with another document's `#begin document` line
    (`parse_conll`'s)."""
    parts: list[_Part] = []
    warnings: list[tuple[int, str, str]] = []
    kinds: set[str] = set()
    seen: dict[str, int] = {}
    current: _Part | None = None
    after = 0
    first = layout.first_line

    def warn(kind: str, line: int, message: str) -> None:
        if kind not in kinds:
            kinds.add(kind)
            warnings.append((line, kind, message))

    def outside(start: int, end: int) -> tuple[int, str] | None:
        """Warn of text between documents; the first line there that is almost a `#` marker
        (spaces before its `#`) is an error, as a marker line is (`malformed_marker`)."""
        filled = np.flatnonzero(layout.counts[start:end])
        if not len(filled):  # (most gaps between documents: a call for each of 20,000 documents)
            return None
        filled += start
        marked = filled[layout.data[layout.field_starts[layout.offsets[filled]]] == ord("#")]
        error = next(((line, said) for line in marked.tolist() if (said := malformed_marker(layout.line(line)))), None)
        if error is None or filled[0] < error[0]:
            warn("outside", int(filled[0]), f"text outside #begin document ... #end document is ignored {FIRST_SUCH_LINE}")
        return error

    for line in np.flatnonzero(layout.hashed).tolist():
        if current is None and (error := outside(after, line)) is not None:
            return _Outline(parts, warnings, error)
        after = line + 1
        head = layout.line(line)
        if m := _BEGIN.match(head):
            if current is not None:
                current.end = line
                return _Outline(parts, warnings, (line, _begin_inside(current, first)))
            name = m.group(1).rstrip()
            if name in seen:
                return _Outline(parts, warnings, (line, f"document {name!r} appears twice (also on line {seen[name]})"))
            seen[name] = line + first
            current = _Part(name, line, layout.n_lines)
            parts.append(current)
        elif _END.match(head):
            if current is None:
                return _Outline(parts, warnings, (line, "#end document without #begin document"))
            current.end, current.closed = line, True
            current = None
        elif (malformed := malformed_marker(head)) is not None:
            if current is not None:
                current.end = line
            return _Outline(parts, warnings, (line, malformed))
        elif current is not None:
            warn("comment", line, f"'#' line inside a document is read as a comment, not a token {FIRST_SUCH_LINE}")
    if current is not None and continued:  # the error the reader of the whole file meets on the next line
        return _Outline(parts, warnings, (layout.n_lines, _begin_inside(current, first)))
    if current is not None:
        return _Outline(parts, warnings, (layout.n_lines - 1, f"document {current.name!r} (line {current.begin + first}) has no #end document"))
    return _Outline(parts, warnings, outside(after, layout.n_lines))


def _begin_inside(current: _Part, first: int) -> str:
    """The error of a `#begin document` line met while `current` is open."""
    return f"#begin document inside document {current.name!r} (opened on line {current.begin + first}) without " \
           f"#end document"


def parse_conll(path: str, data: bytes | bytearray, warnings: list[str] | None = None, first_line: int = 1,
                syntax: bool = True, *, continued: bool = False) -> list[Document]:
    """Documents of a CoNLL-2012 text given as UTF-8 bytes with `\\n` line ends.  Raises InputError.

    Oddities the official scorer tolerates silently (text between documents, `#` comment lines
    inside a document) are tolerated here too and reported once each in `warnings`.  Without
    `syntax` the POS, parse, lemma, speaker and named-entity columns are not read (a response's
    are never used when mentions match exactly: types and heads come from the key), which is
    a third of the reading.  `continued`: `data` is a slice of a file that goes on with another
    document's `#begin document` line (`metrics.corpus.stream.read_slice`), so a document left
    open is the error a reader of the whole file meets on that line, with the same warnings before
    it, not one at the slice's end.
    """
    nul = data.find(b"\0")
    if nul >= 0:
        raise InputError(path, first_line + data.count(b"\n", 0, nul), "NUL byte in text")
    layout = Layout.of(data, first_line)
    outline = _outline(layout, continued)
    parts = outline.parts
    n_lines = layout.n_lines
    noted = iter(outline.warnings)
    pending = next(noted, None)

    def note_before(line: int) -> None:
        """Pass on the warnings of lines before `line`, as a reader going line by line would have."""
        nonlocal pending
        while pending is not None and pending[0] < line:
            if warnings is not None:
                warnings.append(f"{path}:{pending[0] + first_line}: {pending[2]}")
            pending = next(noted, None)

    tokens = _tokens(layout, parts)
    lone = np.flatnonzero(tokens.counts == 1)
    if len(lone):  # (a line-by-line reader meets it among the `#` lines' oddities, in line order)
        noted = iter(sorted([*outline.warnings, (int(tokens.lines[lone[0]]), "one field", ONE_FIELD)]))
        pending = next(noted, None)
    # the coreference cells that hold something (a line of one field: that field), and the
    # chains of every document
    last_fields = layout.fields(tokens.lines, -1)
    holding = ~layout.placeholders(last_fields)
    filled, cells = np.flatnonzero(holding), last_fields[holding]
    brackets = read_brackets(layout.data, layout.field_starts[cells], layout.field_ends[cells],
                             cell_tokens=filled - tokens.first[tokens.part_of[filled]],
                             document_of=tokens.part_of[filled], n_documents=len(parts))

    line_numbers, bounds = tokens.line_numbers, tokens.bounds
    for d, part in enumerate(parts):
        if not part.closed:
            break
        note_before(part.end)
        lo = bounds[d]
        problem = brackets.problems.get(d)
        if problem is not None:
            raise InputError(path, int(line_numbers[lo + problem.token]), problem.message)
        unclosed = brackets.unclosed.get(d)
        if unclosed is not None:
            raise InputError(path, part.end + first_line, f"mention ({unclosed.message} opened on line "
                             f"{int(line_numbers[lo + unclosed.token])} is never closed in document {part.name!r}")
    if outline.error is not None:
        if parts and not parts[-1].closed:  # its cells come before the error that stopped it
            # (a line-by-line reader has read the error's own line first: a document left open
            # at the end of the file is known only there, and that line may be a comment)
            note_before(outline.error[0] + 1)
            problem = brackets.problems.get(len(parts) - 1)
            if problem is not None:
                raise InputError(path, int(line_numbers[bounds[-2] + problem.token]), problem.message)
        note_before(outline.error[0] + 1)
        raise InputError(path, outline.error[0] + first_line, outline.error[1])
    note_before(n_lines + 1)
    return _documents(path, layout, parts, brackets, tokens, syntax=syntax)


@dataclass
class _Tokens:
    """The token lines of every document, in file order, and what is known of each."""

    lines: np.ndarray
    part_of: np.ndarray
    """The document (index in the parts) of each token."""
    first: np.ndarray
    """Each document's first token (an index into `lines`)."""
    bounds: list[int]
    """`first` with the total appended: document d's tokens are bounds[d]:bounds[d + 1]."""
    counts: np.ndarray
    """Fields on each token line."""
    starts_sentence: np.ndarray
    line_numbers: np.ndarray
    """Each token's line number in its file."""


def _tokens(layout: Layout, parts: list[_Part]) -> _Tokens:
    """Every document's lines at once: which document each line is in, which are tokens, and
    which tokens start a sentence."""
    begins = np.array([p.begin for p in parts], dtype=np.int64)
    ends = np.array([p.end for p in parts], dtype=np.int64)
    edges = np.zeros(layout.n_lines + 1, dtype=np.int64)
    np.add.at(edges, begins + 1, 1)
    np.add.at(edges, ends, -1)
    plain_lines = np.flatnonzero((np.cumsum(edges[:-1]) > 0) & ~layout.hashed)
    part_of_plain = np.searchsorted(begins, plain_lines, side="right") - 1
    is_token = layout.counts[plain_lines] > 0
    lines = plain_lines[is_token]
    part_of = part_of_plain[is_token]
    # a token starts a sentence unless the line before it (comment lines skipped) is a token line
    follows = np.r_[False, is_token[:-1] & (part_of_plain[1:] == part_of_plain[:-1])]
    first = np.searchsorted(part_of, np.arange(len(parts)))
    return _Tokens(lines, part_of, first, np.append(first, len(lines)).tolist(), layout.counts[lines],
                   (is_token & ~follows)[is_token], lines + layout.first_line)


def _documents(path: str, layout: Layout, parts: list[_Part], brackets: Brackets, tokens: _Tokens, *,
               syntax: bool) -> ReadDocuments:
    """Build the Documents, taking each column of all tokens in one piece (`Columns`)."""
    token_lines, part_of, bounds, counts = tokens.lines, tokens.part_of, tokens.bounds, tokens.counts
    first_token = tokens.first
    sentence_starts = np.flatnonzero(tokens.starts_sentence)
    nonempty = np.flatnonzero(np.diff(bounds) > 0)
    full = np.zeros(len(parts), dtype=bool)
    if len(nonempty) and syntax:
        full[nonempty] = np.minimum.reduceat(counts, first_token[nonempty]) >= FULL_COLUMNS
    annotations, laid, later, lemmas = _annotations(layout, token_lines[np.isin(part_of, np.flatnonzero(full))],
                                                    bounds, full)
    columns = Columns(
        path=path, names=[part.name for part in parts], lines=[part.begin + layout.first_line for part in parts],
        sizes=np.diff(bounds), words=layout.text(layout.fields(token_lines, np.where(counts >= 5, 3, 0))),
        token_lines=_narrow(tokens.line_numbers),
        sentence_starts=_narrow(sentence_starts - first_token[part_of[sentence_starts]]),
        sentence_counts=np.diff(np.searchsorted(sentence_starts, bounds)), chains=brackets.chains,
        repeated=brackets.repeated, annotations=annotations, parse_heads=None if laid is None else laid.heads,
        tag_ids=None if laid is None else (laid.tag_ids, laid.tag_numbers), later=later, lemmas=lemmas)
    return ReadDocuments(columns, columns.documents())


def _narrow(numbers: np.ndarray) -> np.ndarray:
    """Non-negative numbers as int32 where they fit (half the bytes to keep and to send)."""
    return numbers.astype(np.int32) if not len(numbers) or int(numbers.max()) < 2 ** 31 else numbers


_ANNOTATIONS = {"pos": 4, "parse": 5, "lemmas": 6, "speakers": 9}
"""The annotation columns of strings (and their field on a token line), all made when first read
(`Columns.later`): a `score` reads the POS and parse columns as the numbers and heads found from
them (`TokenArrays`), the lemmas only at the spans' heads, the speakers never."""
_TO_HEADS = ("parse", "pos")
"""The columns the parse's heads are found from, numbered from the file's bytes for that
(`conll_numbered.numbered_fields`) and kept so (the codec's numbered state), never split into a string per token."""


def _annotations(layout: Layout, lines: np.ndarray, bounds: list[int], full: np.ndarray
                 ) -> tuple[dict[int, dict], LaidHeads | None, dict[str, tuple], FieldTexts | None]:
    """The POS, parse, lemma, speaker and named-entity columns of the documents in the full
    layout (`lines`: their token lines, in order); a column of placeholders only is left out, as
    is an entity column with no entity.  The named entities come per document; the columns of
    strings (`_ANNOTATIONS`) and the heads the parse gives (`parse_heads`: found for all documents
    at once, [] where it gives none) come apart, as the states the cache's codecs make each
    document's list from (`Columns.later`).  When every document of the file has a parse that
    gives heads, the heads come laid end to end as one array with their tokens' tags numbered
    (else None: `Columns.parse_heads`, `Columns.tag_ids`), which typing the key's mentions reads.
    Why apart: as lists they were a string per token of three columns and an integer per head,
    60 MB of a 250,000-token key that a `score` never reads.  When every document has lemmas, they
    come as the file's fields too (`FieldTexts`, else None), which typing reads at the spans' heads."""
    documents = np.flatnonzero(full).tolist()
    sizes = [bounds[d + 1] - bounds[d] for d in documents]
    edges = np.cumsum([0] + sizes)
    out: dict[int, dict] = {d: {} for d in documents}
    later: dict[str, tuple] = {}
    if not len(lines):
        return out, None, later, None
    coded: dict[str, tuple[list[str], np.ndarray, np.ndarray]] = {}
    lemma_texts = None
    for name, index in _ANNOTATIONS.items():
        fields = layout.fields(lines, index)
        informative = np.add.reduceat(~layout.placeholders(fields), edges[:-1]) > 0
        wanted = np.repeat(informative, sizes)
        if name in _TO_HEADS:  # numbered from the bytes, with no string per token
            distinct, codes = numbered_fields(layout, fields)
            coded[name] = distinct, codes, informative
            state = "\n".join(distinct), len(distinct), codes[wanted]
        else:
            state = _strings_text(layout.text(fields[wanted]), int(wanted.sum()))
            if name == "lemmas" and informative.all():  # (the texts just joined: a buffer of their own)
                lemma_texts = FieldTexts.joined(state[0], layout.field_ends[fields] - layout.field_starts[fields])
        later[name] = _column_state(state, len(full), np.asarray(documents)[informative],
                                    np.asarray(sizes)[informative])
    parsed = np.flatnonzero(coded["parse"][2]).tolist()
    laid = laid_coded(np.asarray(sizes, dtype=np.int64)[parsed], *heads_input(coded, sizes))
    later["parse_heads"] = _heads_state(laid, [documents[i] for i in parsed], len(full))
    every = len(parsed) == len(full) and bool(laid.trees.all())
    fields = layout.fields(lines, 10)
    marked = np.flatnonzero(~layout.equal(fields, b"*") & ~layout.placeholders(fields))
    ranges = np.searchsorted(marked, edges)
    spans = _all_ner_spans(layout, fields[marked], marked, ranges)
    for d_index, d in enumerate(documents):
        if ranges[d_index] < ranges[d_index + 1]:
            out[d]["named_entities"] = [(start - int(edges[d_index]), end - int(edges[d_index]), label)
                                        for start, end, label in spans.get(d_index, ())]
    return out, laid if every else None, later, lemma_texts


def _heads_state(laid: LaidHeads, parsed: list[int], n_documents: int) -> tuple:
    """The state the cache's codec for a column of numbers makes each document's parse heads from
    (`packed._Numbers`): `laid`'s heads of the documents `parsed` (in order), [] for one whose
    parse gives none, None for every other document."""
    lengths = np.full(n_documents, -1, dtype=np.int64)
    lengths[parsed] = np.where(laid.trees, laid.sizes, 0)
    return lengths, laid.heads[np.repeat(laid.trees, laid.sizes)]


def _strings_text(text: str, count: int) -> tuple[str, int, np.ndarray]:
    """A column's `count` strings joined by line ends in `text` as the codec's (distinct strings,
    how many, each string's number): each string its own distinct value (nothing numbered: the
    column is made only if read)."""
    return text, count, np.arange(count, dtype=np.int64)


def _column_state(strings: tuple[str, int, np.ndarray], n_documents: int, documents: np.ndarray,
                  sizes: np.ndarray) -> tuple:
    """The state the cache's codec for a column of strings makes each document's list from
    (`packed._Strings`): `strings` (the distinct strings joined by line ends, how many, each
    token's number among them) holds `sizes[i]` tokens for document `documents[i]` (in order),
    None for every other document."""
    lengths = np.full(n_documents, -1, dtype=np.int64)
    lengths[documents] = sizes
    return (lengths, *strings)


def _all_ner_spans(layout: Layout, cells: np.ndarray, tokens: np.ndarray, ranges: np.ndarray
                   ) -> dict[int, list[tuple[int, int, str]]]:
    """The named-entity spans of many documents at once: document i's cells are the fields
    cells[ranges[i]:ranges[i + 1]] (at `tokens`, counted over all of them), per document with
    spans.  Why not a loop: a closing cell ends a span exactly when a cell of its document opened
    one since the last closing cell (every closing cell forgets what was open), the span of the
    last such opening; that is a running maximum over the cells, not a walk through them.  Only
    the labels of the openings that make a span are decoded."""
    count = len(cells)
    if not count:
        return {}
    opens = layout.data[layout.field_starts[cells]] == ord("(")
    closes = layout.data[layout.field_ends[cells] - 1] == ord(")")
    position = np.arange(count)
    last_open = np.maximum.accumulate(np.where(opens, position, -1))
    closing = np.flatnonzero(closes)
    document = np.searchsorted(ranges, closing, side="right") - 1
    since = np.maximum(np.r_[-1, closing[:-1]], ranges[document] - 1)  # the previous closing or the document's start
    ends = last_open[closing] > since
    closing, document = closing[ends], document[ends]
    starts = last_open[closing]
    out: dict[int, list[tuple[int, int, str]]] = {}
    labels = layout.strings(cells[starts])
    for d, start, end, label in zip(document.tolist(), tokens[starts].tolist(), tokens[closing].tolist(), labels):
        out.setdefault(d, []).append((start, end, label[1:].rstrip("*)").rstrip("*")))
    return out


def read_conll(path: str, warnings: list[str] | None = None, syntax: bool = True) -> list[Document]:
    """Read a CoNLL-2012 file (optionally gzipped) into documents, in file order (`parse_conll`
    says what `syntax` leaves out)."""
    documents = parse_conll(path, read_utf8(path), warnings, syntax=syntax)
    if not documents:
        raise InputError(path, None, "no '#begin document' found: not a CoNLL-2012 coreference file")
    return documents

"""The CoNLL-2012 reader as it was before the whole-buffer reader: a line-by-line walk, kept here
as the brute force that `test_conll_whole_buffer.py` checks the real reader against (same
documents, same warnings, same first error, on real, mutated and generated files).

Only what the whole-buffer reader rewrote is kept here (lines, fields, documents, the pairing of
brackets, the cell grammar: `parse_cell` here is the regular expressions the reader had before it read
cells with string methods); decoding (`source.read_lines`) is shared with it; the entity column is read by the walk over its cells the reader had (`_ner_spans`).

It splits fields with `str.split()`, which also splits on \x1c-\x1f and on whitespace outside
ASCII; the real reader splits on ASCII whitespace only (`metrics.formats.layout`), so texts
holding those characters are left out of the comparison.

Original rules, as its module docstring said:
CoNLL-2012 reader that sees documents and mentions exactly as the official scorer v8.01 does.

The rules (../shared/docs/conll-reading.md, mirrored in the README):
- `#begin document NAME` ... `#end document`; NAME is the rest of the line, so each part is a document.
- Whitespace-only lines separate sentences and are not tokens.
- Columns are split on runs of whitespace (TAB files, space-aligned files and trailing TABs alike);
  the coreference cell is the last field.  v8.01 splits on TAB only; on TAB files both agree.
- Cell items are joined by `|`: `(N)`, `(N`, `N)`; `(N+M)` split antecedents are ignored; `-`/`_` is
  nothing.  Items of one cell are processed as v8.01 does: one-token mentions, then openings, then
  closings.  That order decides chain order (first-seen label), which decides which copy of a
  duplicated span the official scorer keeps, so it is mirrored exactly.
Every malformed line raises `InputError` naming the file and line.
"""

from __future__ import annotations

import re

from metrics.model import Document, InputError, Span
from metrics.formats.brackets import CLOSE, OPEN, SINGLE
from metrics.formats.conll import ONE_FIELD, malformed_marker
from metrics.formats.source import read_lines

_BEGIN = re.compile(r"^#\s*begin document (.*)$")
_END = re.compile(r"^#\s*end document")
_EMPTY = ("-", "_", "")
_SPLIT_ANTECEDENT = re.compile(r"^\(\d+\+\d+\)$")
_LABEL = r"([^()|\s]+)"
_SINGLE = re.compile(rf"^\({_LABEL}\)$")
_OPEN = re.compile(rf"^\({_LABEL}$")
_CLOSE = re.compile(rf"^{_LABEL}\)$")


def parse_cell(cell: str) -> tuple[tuple[int, ...], tuple[str, ...]] | str:
    """The events of a cell in processing order as (kinds, labels), or its first bad item: each
    item matched against the grammar's regular expressions."""
    singles: list[str] = []
    opens: list[str] = []
    closes: list[str] = []
    for item in cell.split("|"):
        if m := _SINGLE.match(item):
            if not _SPLIT_ANTECEDENT.match(item):
                singles.append(m.group(1))
        elif m := _OPEN.match(item):
            opens.append(m.group(1))
        elif m := _CLOSE.match(item):
            closes.append(m.group(1))
        else:
            return item
    return (SINGLE,) * len(singles) + (OPEN,) * len(opens) + (CLOSE,) * len(closes), (*singles, *opens, *closes)


def _ner_spans(tokens: list[int], cells: list[str]) -> list[tuple[int, int, str]]:
    """OntoNotes bracket NE cells (`(PERSON*`, `*)`, `(GPE)`; the `*` cells between them left
    out) at their tokens -> (start, end, label) spans.

    Malformed NE brackets are not worth rejecting a coreference file over: they are dropped.
    """
    spans: list[tuple[int, int, str]] = []
    start = -1
    label = ""
    for i, cell in zip(tokens, cells):
        if cell.startswith("("):
            label = cell[1:].rstrip("*)").rstrip("*")
            start = i
        if cell.endswith(")") and start >= 0:
            spans.append((start, i, label))
            start = -1
    return spans


class _DocumentBuilder:
    """Collects one document's token lines while they are read; columns and mentions are taken
    from them when the document ends (whole columns by list comprehension: reading is as much of a
    `corefwb score` run as scoring is)."""

    def __init__(self, path: str, name: str, line: int) -> None:
        self.path = path
        self.name = name
        self.line = line
        self.rows: list[list[str]] = []
        """The whitespace-split fields of each token line."""
        self.token_lines: list[int] = []
        self.sentence_starts: list[int] = []
        self.new_sentence = True
        self.chain_of: dict[str, int] = {}
        self.chains: list[list[Span]] = []
        self.labels: list[str] = []
        self.open: dict[str, list[tuple[int, int]]] = {}
        self.completed: dict[Span, tuple[int, ...]] = {}  # each span's chains, in the order completed

    def _chain(self, label: str) -> int:
        index = self.chain_of.get(label)
        if index is None:
            index = self.chain_of[label] = len(self.chains)
            self.chains.append([])
            self.labels.append(label)
        return index

    def read_cells(self) -> None:
        """Mentions from the coreference cells, token by token (errors located at their line).
        Called once: by `finish`, or before reporting a document that never ends."""
        lines = self.token_lines
        for token, fields in enumerate(self.rows):
            cell = fields[-1]
            if cell not in _EMPTY:
                self._add_cell(cell, token, lines[token])

    def _add_cell(self, cell: str, token: int, lineno: int) -> None:
        parsed = parse_cell(cell)
        if isinstance(parsed, str):
            raise InputError(self.path, lineno, f"bad coreference item {parsed!r} in cell {cell!r}")
        for kind, label in zip(*parsed):  # one-token mentions, then openings, then closings
            if kind == SINGLE:
                self.chains[self._chain(label)].append((token, token))
                self.completed[(token, token)] = self.completed.get((token, token), ()) + (self._chain(label),)
                continue
            if kind == OPEN:
                self._chain(label)
                self.open.setdefault(label, []).append((token, lineno))
                continue
            chain = self._chain(label)
            stack = self.open.get(label)
            if not stack:
                raise InputError(self.path, lineno, f"mention {label}) closes but no mention ({label} is open")
            start, _ = stack.pop()
            self.chains[chain].append((start, token))
            self.completed[(start, token)] = self.completed.get((start, token), ()) + (chain,)

    def finish(self, lineno: int) -> Document:
        self.read_cells()
        for label, stack in self.open.items():
            if stack:
                _, opened = stack[-1]
                raise InputError(self.path, lineno, f"mention ({label} opened on line {opened} is never closed in document {self.name!r}")
        rows = self.rows
        full = bool(rows) and min(map(len, rows)) >= 12
        if full:
            words = [f[3] for f in rows]
            pos = _column(rows, 4)
            parse = _column(rows, 5)
            lemmas = _column(rows, 6)
            speakers = _column(rows, 9)
            ner_cells = [f[10] for f in rows]
            ner = _ner_spans(list(range(len(ner_cells))), ner_cells) if any(p not in _EMPTY and p != "*" for p in ner_cells) else None
        else:
            words = [f[3] if len(f) >= 5 else f[0] for f in rows]
            pos = parse = lemmas = speakers = ner = None
        return Document(
            name=self.name, words=words, chains=self.chains, labels=self.labels,
            sentence_starts=self.sentence_starts, path=self.path, line=self.line,
            token_lines=self.token_lines, pos=pos, lemmas=lemmas, parse=parse,
            speakers=speakers, named_entities=ner,
            repeated={span: chains for span, chains in self.completed.items() if len(chains) > 1} or None,
        )


def _column(rows: list[list[str]], index: int) -> list[str] | None:
    """One annotation column, or None when it holds nothing but placeholders."""
    values = [f[index] for f in rows]
    return values if any(v not in _EMPTY for v in values) else None


def parse_conll(path: str, lines: list[str], warnings: list[str] | None = None, first_line: int = 1) -> list[Document]:
    """Documents of a CoNLL-2012 text given as lines (no line ends).  Raises InputError.

    Oddities the official scorer tolerates silently (text between documents, `#` comment lines
    inside a document) are tolerated here too and reported once each in `warnings`.
    """
    warned: set[str] = set()

    def warn(kind: str, lineno: int, message: str) -> None:
        if warnings is not None and kind not in warned:
            warned.add(kind)
            warnings.append(f"{path}:{lineno}: {message}")

    documents: list[Document] = []
    seen: dict[str, int] = {}
    current: _DocumentBuilder | None = None
    for lineno, raw in enumerate(lines, start=first_line):
        line = raw.rstrip("\r")
        if line.startswith("#"):
            if (malformed := malformed_marker(line)) is not None:
                if current is not None:
                    current.read_cells()  # a broken cell above is the first error, as it comes first
                raise InputError(path, lineno, malformed)
            if m := _BEGIN.match(line):
                if current is not None:
                    current.read_cells()  # a broken cell above is the first error, as it comes first
                    raise InputError(path, lineno, f"#begin document inside document {current.name!r} (opened on line {current.line}) without #end document")
                name = m.group(1).rstrip()
                if name in seen:
                    raise InputError(path, lineno, f"document {name!r} appears twice (also on line {seen[name]})")
                seen[name] = lineno
                current = _DocumentBuilder(path, name, lineno)
                continue
            if _END.match(line):
                if current is None:
                    raise InputError(path, lineno, "#end document without #begin document")
                documents.append(current.finish(lineno))
                current = None
                continue
            if current is None:
                continue
        if current is None:
            if (malformed := malformed_marker(line)) is not None:
                raise InputError(path, lineno, malformed)
            if line.strip():
                warn("outside", lineno, "text outside #begin document ... #end document is ignored (first such line)")
            continue
        fields = line.split()
        if not fields:
            current.new_sentence = True
            continue
        if line.startswith("#"):
            warn("comment", lineno, "'#' line inside a document is read as a comment, not a token (first such line)")
            continue
        if len(fields) == 1:
            warn("one field", lineno, ONE_FIELD)
        if current.new_sentence:
            current.sentence_starts.append(len(current.rows))
            current.new_sentence = False
        current.rows.append(fields)
        current.token_lines.append(lineno)
    if current is not None:
        current.read_cells()
        raise InputError(path, first_line + len(lines) - 1, f"document {current.name!r} (line {current.line}) has no #end document")
    return documents


def read_conll(path: str, warnings: list[str] | None = None) -> list[Document]:
    """Read a CoNLL-2012 file (optionally gzipped) into documents, in file order."""
    lines = read_lines(path)
    documents = parse_conll(path, lines, warnings)
    if not documents:
        raise InputError(path, None, "no '#begin document' found: not a CoNLL-2012 coreference file")
    return documents

"""Corpora too large to hold in memory, read a document at a time: the byte ranges of a CoNLL-2012
file's documents, and one document read from its range.

A PreCo-sized corpus (38,000 documents, 12 million tokens) does not fit comfortably as Python
objects.  The two CoNLL-2012 files are first indexed (a byte scan for `#begin document` lines),
then documents are read one at a time from their byte ranges, scored, and dropped.  The road that
does so (pairing the ranges as the convention pairs documents, scoring them in worker processes,
summing in key order) is `metrics.conventions.pipeline.stream`; these are its reading pieces,
which the CoNLL-2012 convention lends it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from metrics.formats.conll import malformed_marker, parse_conll
from metrics.formats.source import FIRST_SUCH_LINE
from metrics.formats.source import check_document_sizes, not_utf8
from metrics.model import Document, InputError

_BEGIN = re.compile(rb"^#[ \t]*begin document (.*?)\r?$")


@dataclass(frozen=True)
class Slice:
    """Where one document lies in a file: its byte range and the line number it starts on (the
    first document's range starts with the file, the lines before its `#begin document` too)."""

    name: str
    start: int
    end: int
    line: int
    followed: bool = False
    """Another document's `#begin document` line starts at `end` (every document's but the last)."""


def index_conll(path: str) -> list[Slice]:
    """Byte ranges of the documents of an uncompressed CoNLL-2012 file, without parsing it.

    A buffered scan of the lines (not a memory map, whose touched pages would count as the
    process's memory on a multi-gigabyte corpus).
    """
    try:
        handle = open(path, "rb")
    except OSError as exc:
        raise InputError(path, None, f"cannot open: {exc.strerror or exc}") from None
    starts: list[tuple[str, int, int]] = []
    seen: dict[str, int] = {}
    offset = head = 0
    with handle:
        for line_no, raw in enumerate(handle, start=1):
            if line_no == 1 and raw.startswith(b"\xef\xbb\xbf"):
                # a UTF-8 BOM, as the whole-file reader tolerates it: the document starts after it
                offset = head = 3
                raw = raw[3:]
            if b"\r" in raw and b"\r" in raw.rstrip(b"\r\n"):
                _check_utf8(path, line_no, raw)  # binary junk holds CRs too: say what it really is
                # The whole-file reader takes a lone CR for a line end (universal newlines); here it
                # would hide line ends, and documents with them, so the scores would silently differ.
                raise InputError(path, line_no, "a lone CR (classic Mac OS line end) inside a line: "
                                                "convert the line ends to LF, or score without --stream")
            if not starts:  # before the first document no reader sees the line: check it here,
                # as the whole-file reader checks every byte (UTF-8 first, as it does: UTF-16 is
                # not UTF-8 at its first byte, not a NUL further on)
                _check_utf8(path, line_no, raw)
                if b"\0" in raw:
                    raise InputError(path, line_no, "NUL byte in text")
                if b"#" in raw and (said := malformed_marker(raw.decode("utf-8").rstrip("\r\n"))) is not None:
                    raise InputError(path, line_no, said)  # (a file of such lines alone has no document)
            if raw.startswith(b"#") and (m := _BEGIN.match(raw.rstrip(b"\n"))):
                name = m.group(1).decode("utf-8", errors="replace").rstrip()
                if name in seen:
                    raise InputError(path, line_no, f"document {name!r} appears twice (also on line {seen[name]})")
                seen[name] = line_no
                starts.append((name, offset, line_no))
            offset += len(raw)
    if not starts:
        raise InputError(path, None, "no '#begin document' found: not a CoNLL-2012 coreference file")
    ends = [s for _, s, _ in starts[1:]] + [offset]
    # the first document's range starts with the file (after a BOM), so the lines before its
    # `#begin document` are read as the whole-file reader reads them: warned of, or refused
    starts[0] = (starts[0][0], head, 1)
    return [Slice(name, start, end, line, followed=i + 1 < len(starts))
            for i, ((name, start, line), end) in enumerate(zip(starts, ends))]


def _check_utf8(path: str, line_no: int, raw: bytes) -> None:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise not_utf8(path, raw, exc, first_line=line_no) from None


def read_slice(path: str, piece: Slice, warnings: list[str], max_tokens: int | None = None,
               syntax: bool = True) -> Document:
    """Parse the one document lying in `piece` of `path` (at most `max_tokens` tokens: the
    workers get the bound in their task, as a process may not inherit the parent's setting;
    a response is read without its `syntax`, which exact matching never uses)."""
    with open(path, "rb") as handle:
        handle.seek(piece.start)
        raw = handle.read(piece.end - piece.start)
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise not_utf8(path, raw, exc, first_line=piece.line) from None
    documents = parse_conll(path, raw.replace(b"\r\n", b"\n"), warnings, first_line=piece.line, syntax=syntax,
                            continued=piece.followed)
    check_document_sizes(documents[:1], max_tokens)
    return documents[0]


def once_per_file(path: str, notes: list[str]) -> list[str]:
    """The reading warnings of `path`'s documents, read one at a time (`read_slice`), as one
    reading of the whole file gives them: in line order, each kind said at its first line only.
    Why: each document's reading says its own "first such line", so a condition in every document
    was said once per document under `--stream` (small11's finding), and a response's documents
    are read in the key's order, not the file's."""
    prefix = f"{path}:"
    located: list[tuple[int, str, str]] = []
    for note in notes:
        number, _, message = note[len(prefix):].partition(": ") if note.startswith(prefix) else ("", "", note)
        located.append((int(number) if number.isdigit() else 0, message, note))
    said: set[str] = set()
    kept: list[str] = []
    for _, message, note in sorted(located, key=lambda item: item[0]):
        if message.endswith(FIRST_SUCH_LINE):
            if message in said:
                continue
            said.add(message)
        kept.append(note)
    return kept


def runs(items: list[tuple[Slice, Slice | None]], n_runs: int) -> list[list[tuple[Slice, Slice | None]]]:
    """Key-response pairs of ranges split into about n_runs contiguous runs of similar byte size
    (order kept)."""
    total = sum(piece.end - piece.start for piece, _ in items) or 1
    target = total / n_runs
    out: list[list[tuple[Slice, Slice | None]]] = []
    current: list[tuple[Slice, Slice | None]] = []
    size = 0
    for item in items:
        current.append(item)
        size += item[0].end - item[0].start
        if size >= target:
            out.append(current)
            current, size = [], 0
    if current:
        out.append(current)
    return out

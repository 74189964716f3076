"""Input files as bytes, read once: regular files, gzip streams and pipes alike.

Why one place: format detection looks at the head of a file and a reader then reads all of it.  A
pipe (`<(zcat k.gz)`, a FIFO, `-` for stdin) can be read only once, so detection used to consume
its first 64 KiB and the reader scored the rest, silently.  Here a non-regular input is read into
memory once and both see the same bytes.  Gzip is told by its magic bytes, not by the name
(`K.CONLL.GZ`, or a gzipped pipe), and decompressed with a bound: past `max_input_size()` bytes
the read stops with a one-line error naming the file and the limit, instead of growing until the
machine runs out of memory (a 2 MB gzip can hold gigabytes of lines).
"""

from __future__ import annotations

import itertools
import os
import stat
import sys
import threading
import zlib

from collections.abc import Iterable, Iterator

import numpy as np

from metrics.model import Document, InputError

DEFAULT_MAX_INPUT_SIZE = 512 * 1024 ** 2
"""512 MiB of (decompressed) text per input: above any coreference corpus in use (OntoNotes' test
set is ~50 MB, the whole of PreCo a few hundred), below what fills a machine (reading takes ~15
bytes of memory per byte of text).  `--max-input-size` changes it."""

DEFAULT_MAX_DOCUMENT_TOKENS = 2_000_000
"""Tokens one document may hold: above the longest novels annotated for coreference (a few hundred
thousand tokens), below what makes the per-document analyses (errors, chain views) crawl.
`--max-document-tokens` changes it."""

_limit = [DEFAULT_MAX_INPUT_SIZE]
_document_limit = [DEFAULT_MAX_DOCUMENT_TOKENS]
_streams: dict[str, bytes] = {}
_lock = threading.Lock()
_GZIP_MAGIC = b"\x1f\x8b"
_CHUNK = 1 << 20
_GAP = 1 << 12


FIRST_SUCH_LINE = "(first such line)"
"""The end of a warning said once per reading, at the first line of its kind (so `--stream`,
reading a document at a time, keeps the first of each: `corpus.stream.once_per_file`)."""


def set_max_input_size(size: int) -> None:
    """The bound on an input's (decompressed) size in bytes, for every later read."""
    _limit[0] = size


def max_input_size() -> int:
    return _limit[0]


def set_max_document_tokens(tokens: int) -> None:
    """The bound on the tokens of one document, for every later read."""
    _document_limit[0] = tokens


def max_document_tokens() -> int:
    return _document_limit[0]


def check_document_sizes(documents: Iterable[Document], limit: int | None = None) -> None:
    """Refuse a document longer than the bound (InputError at its header line)."""
    limit = max_document_tokens() if limit is None else limit
    for doc in documents:
        if len(doc.words) > limit:
            raise InputError(doc.path, doc.line, f"document {doc.name!r} has {len(doc.words):,} tokens, over the "
                             f"limit of {limit:,} tokens per document (--max-document-tokens raises it)")


def is_stdin(path: str) -> bool:
    return path == "-"


def is_regular(path: str) -> bool:
    """A regular file (seekable, readable twice); False for `-`, FIFOs, devices, /dev/fd/N pipes."""
    if is_stdin(path):
        return False
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def is_gzip_file(path: str) -> bool:
    """A regular file whose bytes are gzip, whatever its name (as `read_bytes` tells them)."""
    if not is_regular(path):
        return False
    try:
        with open(path, "rb") as handle:
            return handle.read(2) == _GZIP_MAGIC
    except OSError:
        return False


def _too_big(path: str) -> InputError:
    return InputError(path, None, f"larger than the input size limit of {_limit[0]:,} bytes "
                                  f"(decompressed); raise it with --max-input-size")


def refuse_too_big(path: str, size: int) -> None:
    """InputError when a file of `size` bytes as stored is over the input size limit: `read_raw`'s
    guard, which the cache of read files applies too where it knows a file's content unread."""
    if size > _limit[0]:
        raise _too_big(path)


def read_raw(path: str) -> bytes:
    """The bytes of the file as stored (a stream's are kept, so a second read sees them again)."""
    if not is_regular(path):
        with _lock:
            if path not in _streams:
                try:
                    handle = sys.stdin.buffer if is_stdin(path) else open(path, "rb")
                except OSError as exc:
                    raise InputError(path, None, f"cannot open: {exc.strerror or exc}") from None
                try:
                    _streams[path] = _read_bounded(path, handle)
                finally:
                    if not is_stdin(path):
                        handle.close()
            return _streams[path]
    try:
        refuse_too_big(path, os.path.getsize(path))
        handle = open(path, "rb")
    except OSError as exc:
        raise InputError(path, None, f"cannot open: {exc.strerror or exc}") from None
    with handle:
        try:
            return handle.read()
        except OSError as exc:  # opened, then failed part-way (a disk's or a network file system's error)
            raise InputError(path, None, f"cannot read: {exc.strerror or exc}") from None


def _read_bounded(path: str, handle) -> bytes:
    parts, size = [], 0
    while True:
        try:
            chunk = handle.read(_CHUNK)
        except OSError as exc:
            raise InputError(path, None, f"cannot read: {exc.strerror or exc}") from None
        if not chunk:
            return b"".join(parts)
        size += len(chunk)
        if size > _limit[0]:
            raise _too_big(path)
        parts.append(chunk)


def _gunzip(path: str, data: bytes) -> bytearray:
    """Every gzip member of `data`, decompressed in bounded steps (never more than the limit),
    into one growing buffer (no list of pieces joined into a second copy)."""
    out = bytearray()
    while data:
        inflater = zlib.decompressobj(wbits=31)
        pending = data
        try:
            while pending:
                out += inflater.decompress(pending, _CHUNK)
                pending = inflater.unconsumed_tail
                if len(out) > _limit[0]:
                    raise _too_big(path)
                if inflater.eof:
                    break
            if not inflater.eof:
                raise InputError(path, None, "cannot read: the gzip stream is truncated")
        except zlib.error as exc:
            raise InputError(path, None, f"cannot read: damaged gzip data ({exc})") from None
        data = inflater.unused_data
        if data and not data.startswith(_GZIP_MAGIC):
            break  # trailing garbage after the last member, as gzip itself ignores it
    return out


def read_bytes(path: str) -> bytes | bytearray:
    """The content of an input: gunzipped when it is gzip (by its magic bytes), bounded in size."""
    data = read_raw(path)
    return _gunzip(path, data) if data[:2] == _GZIP_MAGIC else data


def read_head(path: str, size: int = 65536) -> bytes:
    """The first `size` bytes of an input's content (gunzipped; fewer if it is shorter), for
    format detection: a regular file is not read whole for them, nor a gzip decompressed whole (on
    gum-open, detection read and gunzipped each 6 MB input whole, several times per run).  A
    stream's bytes are kept for its reader, as `read_raw` keeps them.  Unreadable or damaged input
    gives b"" (the reader then says what is wrong, with its location)."""
    try:
        if not is_regular(path):
            return _head_of(iter([read_raw(path)]), size)
        with open(path, "rb") as handle:
            return _head_of(iter(lambda: handle.read(size), b""), size)
    except (OSError, InputError):
        return b""


def _head_of(chunks: Iterator[bytes], size: int) -> bytes:
    """The first `size` bytes of the content these raw chunks hold, gunzipped when gzip."""
    first = next(chunks, b"")
    if first[:2] != _GZIP_MAGIC:
        return first[:size]
    inflater, out = zlib.decompressobj(wbits=31), bytearray()
    try:
        for chunk in itertools.chain([first], chunks):
            out += inflater.decompress(chunk, size - len(out))
            if len(out) >= size or inflater.eof:
                break
    except zlib.error:
        return b""
    return bytes(out)


LINE_ENDS = "\r\n"
"""The characters a line ends at, as `read_text` and `read_utf8` read a file (a lone CR too): a
writer whose field held one would write a line that reads back as two."""


def read_text(path: str) -> str:
    """The content as text: UTF-8 (a BOM tolerated), universal newlines.  Undecodable bytes are a
    located error: the line and the column (in bytes) of the first one."""
    data = read_bytes(path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise not_utf8(path, data, exc) from None
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def read_utf8(path: str) -> bytes | bytearray:
    """The content as checked UTF-8 bytes, as `read_text` has it (BOM dropped, line ends `\n`),
    for the readers that work on bytes; the same located error for undecodable bytes."""
    data = read_bytes(path)
    _check_utf8(path, data)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return data


def _check_utf8(path: str, data: bytes | bytearray) -> None:
    """The located error of the first bytes that are not UTF-8, if any.

    ASCII is UTF-8, and no byte of a multi-byte sequence is ASCII, so only the lines holding a
    byte past ASCII are decoded, each run of them (bytes past ASCII less than `_GAP` apart) as a
    piece, a piece at most about `_CHUNK` long, cut after a line end (no text held whole): the
    first error found is the one decoding the whole text finds first, with the same reason.  A
    corpus in English has a few thousand such lines: most of its bytes are never decoded."""
    if data.isascii():  # one scan, nothing decoded
        return
    high = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) >= 0x80)
    apart = np.flatnonzero(np.diff(high) >= _GAP)
    for first, last in zip(high[np.r_[0, apart + 1]].tolist(), high[np.r_[apart, len(high) - 1]].tolist()):
        start = data.rfind(b"\n", 0, first) + 1
        stop = data.find(b"\n", last)
        stop = len(data) if stop < 0 else stop + 1
        while start < stop:
            end = data.find(b"\n", start + _CHUNK, stop)
            end = stop if end < 0 else end + 1
            try:
                str(data[start:end], "utf-8")
            except UnicodeDecodeError as exc:
                exc.start += start
                raise not_utf8(path, data, exc) from None
            start = end


def not_utf8(path: str, data: bytes | bytearray, exc: UnicodeDecodeError, first_line: int = 1) -> InputError:
    """The located error of `exc`, raised decoding `data`, whose first line is `first_line` of
    `path` (a document streamed from its byte range starts inside the file)."""
    start = exc.start
    line = data.count(b"\n", 0, start) + first_line
    column = start - (data.rfind(b"\n", 0, start) + 1) + 1
    return InputError(path, line, f"not UTF-8 text ({exc.reason} at column {column})")


def read_lines(path: str) -> list[str]:
    """All lines of an input without line ends (`read_text`), for the readers that walk lines;
    a located error for a NUL byte."""
    text = read_text(path)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    nul = text.find("\0")
    if nul >= 0:
        raise InputError(path, text.count("\n", 0, nul) + 1, "NUL byte in text")
    return lines

"""Report files: CSV and Markdown tables of score and error results, and the atomic `--output` write.

Tables arrive as a header row and rows of cells (the commands decide what the columns are); this
module only knows how each format quotes a cell.  Numbers are written as given (the commands pass
full precision): a report is read by programs and diffed, so no rounding happens here.

`write_atomic` is the one way a result reaches a file: a temporary file in the same directory, then
`os.replace`, so a reader never sees half a report and an interrupted run leaves the old file intact.
It refuses to write onto an input file: a mistyped `--output key.conll` must not destroy the key.
"""

from __future__ import annotations

import csv
import io
import os
import tempfile
from collections.abc import Iterable, Sequence

from metrics.model import InputError


def _text(cell: object) -> str:
    if isinstance(cell, float):
        return repr(cell)
    return "" if cell is None else str(cell)


def render_csv(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """RFC 4180 CSV (quoted where needed, `\\n` line ends), header first."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(headers)
    for row in rows:
        writer.writerow([_text(cell) for cell in row])
    return buffer.getvalue()


def markdown_cell(cell: object) -> str:
    """A cell that cannot break the table: `|` escaped, line breaks as spaces."""
    text = _text(cell).replace("\\", "\\\\").replace("|", "\\|")
    return " ".join(text.splitlines()) if "\n" in text or "\r" in text else text


def render_markdown(headers: Sequence[str], rows: Iterable[Sequence[object]], title: str | None = None) -> str:
    """A GitHub-flavoured Markdown table (numeric columns right-aligned), with an optional heading."""
    rows = [[markdown_cell(cell) for cell in row] for row in rows]
    numeric = [
        bool(rows) and all(_is_number(row[i]) for row in rows if i < len(row) and row[i] != "")
        for i in range(len(headers))
    ]
    lines = [f"## {title}", ""] if title else []
    lines.append("| " + " | ".join(markdown_cell(h) for h in headers) + " |")
    lines.append("|" + "|".join("---:" if num else "---" for num in numeric) + "|")
    for row in rows:
        cells = list(row) + [""] * (len(headers) - len(row))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def write_atomic(path: str, text: str | Iterable[str], inputs: Iterable[str] = ()) -> None:
    """Write `text` (a string, or its pieces) to `path` via a temporary file in the same directory
    and `os.replace`.

    Raises InputError (before touching anything) when `path` is one of `inputs`, or when the
    directory cannot be written.  The new file gets the usual permissions (umask applied), not the
    temporary file's private 0600.
    """
    for source in inputs:
        if _same_file(path, source):
            raise InputError(path, None, f"refusing to write the output onto an input file ({source})")
    directory = os.path.dirname(os.path.abspath(path))
    try:
        handle, temporary = tempfile.mkstemp(prefix=".corefwb-", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise InputError(path, None, f"cannot write: {exc.strerror or exc}") from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            if isinstance(text, str):
                out.write(text)
            else:
                out.writelines(text)
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except OSError as exc:
        _remove(temporary)
        raise InputError(path, None, f"cannot write: {exc.strerror or exc}") from None
    except BaseException:
        _remove(temporary)
        raise


_UMASK: list[int] = []


def _umask() -> int:
    """The process umask, read once (reading it means setting it, which is not thread-safe)."""
    if not _UMASK:
        mask = os.umask(0o022)
        os.umask(mask)
        _UMASK.append(mask)
    return _UMASK[0]


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass

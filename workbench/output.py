"""The output layer: how results become text, and the one way text reaches stdout or a file.

Commands and the workbench's export both come here.  Tables arrive as a header row and rows of
cells (the caller decides the columns); this module knows how each format quotes a cell, with one
CSV writer and one Markdown escaper.  Numbers are written as given (callers pass full precision):
a report is read by programs and diffed, so no rounding happens here.  A score has one JSON shape
(`score_json`), and so has an error with its fix (`ErrorRecord.to_json` in the engine).

`write_atomic` is the one way a result reaches a file: a temporary file in the same directory, then
`os.replace`, so a reader never sees half a report and an interrupted run leaves the old file intact.
It refuses to write onto an input file, or onto a link to one: a mistyped `--output key.conll` must
not destroy the key.  `emit` sends a result to `--output` or to stdout.
"""

from __future__ import annotations

import io
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable, Sequence
from functools import cache

from metrics.mentions.pairing import document_key
from metrics.model import InputError
from metrics.measures.score import AnyScore, BlancScore, MeanScore


_CONTROL = {code: chr(0x2400 + code) for code in range(0x20)} | {0x7F: "\u2421"}
_CONTROL |= {code: f"\\x{code:02x}" for code in range(0x80, 0xA0)}
_CONTROL_BUT_LAYOUT = {code: text for code, text in _CONTROL.items() if code not in (0x09, 0x0A)}


_ANY_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Finds what `visible(..., keep_layout=True)` would change: output is scanned (fast, in C) and
translated only when it holds one, so a 100 MB JSON report is not rewritten character by character."""


_ASCII_LAYOUT = bytes(b for b in range(128) if not _ANY_CONTROL.match(chr(b)))
"""The ASCII characters `_ANY_CONTROL` lets through (printable ones, tab and newline)."""


def _has_control(text: str) -> bool:
    """`_ANY_CONTROL.search(text)`, for ASCII text (a JSON report) by deleting the characters it
    lets through from its bytes: a few times faster than the expression over 70 MB of JSON."""
    if text.isascii():
        return bool(text.encode("ascii").translate(None, _ASCII_LAYOUT))
    return _ANY_CONTROL.search(text) is not None


WARNING_CHARACTERS = 2_000
"""How much of one warning is shown (stderr, the warnings panel): a warning quotes words and lists
of chains from the files, and a hostile file's multi-megabyte word would otherwise be echoed whole."""


def shortened(warning: str) -> str:
    """A warning as shown: whole when short, else its first `WARNING_CHARACTERS` and a count of the rest."""
    if len(warning) <= WARNING_CHARACTERS:
        return warning
    return f"{warning[:WARNING_CHARACTERS]} … ({len(warning) - WARNING_CHARACTERS:,} characters more)"


def visible(text: str, keep_layout: bool = False) -> str:
    """Text from an input made safe to show: control characters (C0, DEL, C1: ESC, BEL, CSI...)
    become visible symbols (ESC -> U+241B, C1 -> `\\x9b`), so an escape sequence in a token or a
    document name shows literally instead of retitling the terminal or setting its clipboard.
    `keep_layout` keeps TAB and newline (our own tables' layout) as they are."""
    return text.translate(_CONTROL_BUT_LAYOUT if keep_layout else _CONTROL)


def score_json(score: AnyScore) -> dict:
    """A score in JSON: recall, precision, F1 at full precision, and the counts they come from
    (BLANC: its two parts; a mean such as CoNLL has no counts of its own)."""
    if hasattr(score, "to_json"):  # a single-valued score (the ACE-value) has its own shape
        return score.to_json()
    out = {"recall": score.recall, "precision": score.precision, "f1": score.f1}
    if isinstance(score, BlancScore):
        out["coref"] = score_json(score.coref)
        out["noncoref"] = score_json(score.noncoref)
    elif not isinstance(score, MeanScore):
        out["counts"] = score.counts()
    return out


def document_json(name: str, scores: dict) -> dict:
    """One entry of a JSON report's `per_document` list, under every convention: a script reading
    CoNLL's, CorefUD's and UA's report finds the count in `documents` and each document's scores
    here (CorefUD and UA listed them in `documents`, each under `name`)."""
    return {"document": name, "metrics": {metric: score_json(score) for metric, score in scores.items()}}


def shown_document(name: str) -> str:
    """A document's name as the views a person reads show it (text and Markdown reports, the
    workbench's screens): its short name, `(GUM_bio_moreau); part 000` -> `GUM_bio_moreau`
    (`pairing.document_key`, the name `--document` takes too).  JSON and CSV, read by programs
    that join on the file's own names, keep the full name.

    Why one rule: `score --per-doc` showed the short name, `errors` the full one, and the two
    could not be matched by eye."""
    return document_key(name)


SCORE_DECIMALS = 2
"""Decimals of a score shown as a percentage, in every view a person reads: the CLI's text and
Markdown tables ("percentages rounded to 2 decimals") and the workbench's panels (`fitted_percent`),
so that a score reads the same in both (61.01, not 61.0 beside it)."""


def percent(x: float) -> str:
    """A fraction as a percentage with `SCORE_DECIMALS` decimals, as text tables show scores."""
    return f"{100 * x:.{SCORE_DECIMALS}f}"


def fitted_percent(x: float, width: int) -> str:
    """`percent` right-aligned in `width` cells with a blank cell before it (the workbench's tables
    have no padding between columns, and 100.00 beside 100.00 reads as one number): its decimals
    while they fit, fewer where they do not (100.0, an ACE-value of -15.5); then, far below zero,
    the whole width (-15535), then a power of ten (-2e+05)."""
    for decimals in range(SCORE_DECIMALS, -1, -1):
        text = f"{100 * x:.{decimals}f}"
        if len(text) < width:
            return text.rjust(width)
    text = f"{100 * x:.0f}"
    return text if len(text) == width else f"{100 * x:.0e}".rjust(width)


def signed_points(points: float, digits: int, width: int = 0) -> str:
    """A change in points with its sign (`+1.25`, `-0.40`), right-aligned in `width` columns; one
    that rounds to zero at these digits is written unsigned (`0.00`), never `-0.00`: a drop too
    small to show has no direction to show, and a minus on a zero read as a loss."""
    text = f"{points:+.{digits}f}"
    if float(text) == 0:
        text = f"{0.0:.{digits}f}"
    return text.rjust(width)


def fitted_points(points: float, width: int) -> str:
    """A change in points as `signed_points` writes it, right-aligned in `width` cells with a blank
    cell before it: `SCORE_DECIMALS` decimals while they fit, as the scores beside it and
    `corefwb compare` show them (`+1.25`), fewer where they do not (`-26.6` in 6 cells)."""
    return _fitted(lambda decimals: signed_points(points, decimals), width)


def fitted_interval(low: float, high: float, width: int) -> str:
    """An interval of a change in points, `[low,high]` (each end `signed_points`, both with the
    same decimals) right-aligned in `width` cells with a blank before it: `SCORE_DECIMALS`
    decimals while they fit (`[+1.25,+3.40]`), fewer where they do not (`[-26.6,-23.8]`)."""
    return _fitted(lambda decimals: f"[{signed_points(low, decimals)},{signed_points(high, decimals)}]", width)


def _fitted(text_of: Callable[[int], str], width: int) -> str:
    """`text_of(decimals)` with the most decimals (`SCORE_DECIMALS` down to 1) that leave a blank
    cell in `width`, else with none, right-aligned: the one rule of both fitted changes."""
    for decimals in range(SCORE_DECIMALS, 0, -1):
        text = text_of(decimals)
        if len(text) < width:
            return text.rjust(width)
    return text_of(0).rjust(width)


def single_valued_note(metric_names: Sequence[str]) -> str | None:
    """How to read the row of a single-valued metric (the ACE-value) in a recall/precision/F1
    table, said under every such table (`score` under every convention, `compare`, the workbench's Markdown
    export): the F1 column holds it."""
    from metrics.measures.catalog import METRICS, label

    single = [label(name) for name in metric_names if METRICS[name].single]
    return f"{', '.join(single)}: F1 column is the value; recall and precision are value-based" if single else None


SCORE_CSV_COLUMNS = ["document", "metric", "recall", "precision", "f1", "note"]
"""The columns of every CSV of scores, one row per document (or corpus row) and metric (`score` under
every convention, `--ci`, the workbench's export as "scope"): `note` says, on a single-valued
metric's row, that its f1 holds the value (`single_valued_note`), since a CSV reader sees no line
under the table; it is empty on every other row."""


def score_csv_cells(metric: str, score) -> list:
    """The cells of one metric's score in a CSV row (`SCORE_CSV_COLUMNS` after the document and
    metric): recall, precision and f1 at full precision, and the single-valued note."""
    return [score.recall, score.precision, score.f1, csv_note(metric)]


@cache
def csv_note(metric: str) -> str:
    """The last cell, `note`, of a metric's row in every CSV table of scores (the scores, their
    intervals, their groups: one rule): on a single-valued metric's row, that its f1 holds the
    value (`single_valued_note`); empty on every other row.  Kept per metric: a per-document CSV
    of 20,000 documents asks it 400,000 times, and building the note each time doubled the run."""
    return single_valued_note([metric]) or ""


def nothing_to_score(score: object) -> bool:
    """A score with nothing to count on either side (both denominators 0: zero anaphora where
    neither file has a zero), which every scorer prints as 0, as if the system had failed."""
    return getattr(score, "recall_den", None) == 0 and getattr(score, "precision_den", None) == 0


ZERO_OVER_ZERO = "(0/0): printed 0.00, as corefud-scorer prints it"
"""Said after what had nothing to count (`nothing_to_score`), so that its 0.00 is not read as a
system's failure."""


def nothing_to_score_note(labels: Sequence[str]) -> str | None:
    """The line said under a table of one key and one response (`score` under CorefUD, the
    workbench's scores panel) where the metrics `labels` had nothing to count (`nothing_to_score`),
    or None when none had: one wording wherever such a 0.00 is shown."""
    return f"{', '.join(labels)}: nothing to count in the key or the response {ZERO_OVER_ZERO}" if labels else None


IMPACT_UNIT = "points"
"""The unit of an error's impact everywhere it is shown (workbench, `corefwb errors`, CSV, JSON,
Markdown): the change of the corpus metric, in percentage points (F1 x 100)."""
CORPUS_MICRO_ROW = "(corpus, micro)"
CORPUS_MACRO_ROW = "(corpus, macro)"
"""The document cell of a CSV's corpus rows, under every convention: a script reading CoNLL's,
CorefUD's and UA's CSV finds the corpus score under one name (CorefUD and UA said "corpus")."""


def impact_points(value: float | None) -> float | None:
    """An impact (a change of a fraction, as the engine prices it) in points; never -0.0."""
    if value is None:
        return None
    points = 100 * value
    return 0.0 if points == 0 else points


def impact_text(value: float | None) -> str:
    """An impact in points as people read it (`points_text`); empty when not priced."""
    points = impact_points(value)
    return "" if points is None else points_text(points)


def points_text(points: float) -> str:
    """A change of a score in points as people read it: signed, three significant digits (a
    corpus of a hundred documents moves by hundredths of a point per error: `+0.0812`), in at most
    nine characters (below 0.0001 points with an exponent: `+9.03e-05`), `0` for no change, never
    `-0.000`.  Every error's impact and every UA relation error's price is written so."""
    if abs(points) < 5e-7:
        return "0"
    import math

    decimals = max(2, 2 - math.floor(math.log10(abs(points))))
    if decimals > 6:  # `+0.0000903` would be wider than the columns showing it
        return f"{points:+.2e}"
    text = f"{points:+.{decimals}f}"
    return "0" if float(text) == 0 else text


def align_rows(columns: Sequence[str], rows: Sequence[Sequence[str]], right: Iterable[str] = ()) -> list[str]:
    """A plain-text table: columns padded to their widest cell, two spaces apart; the columns
    named in `right` right-aligned (numbers)."""
    right = set(right)
    widths = [max([len(c)] + [len(row[i]) for row in rows]) for i, c in enumerate(columns)]

    def fmt(cells: Sequence[str]) -> str:
        out = [cell.rjust(w) if col in right else cell.ljust(w) for cell, w, col in zip(cells, widths, columns)]
        return "  ".join(out).rstrip()

    return [fmt(columns)] + [fmt(row) for row in rows]


def emit(text: str | Iterable[str], output: str | None, inputs: Sequence[str], *, escaped: bool = False,
         data: bool = False) -> None:
    """Write a result to `output` atomically (never onto an input file), gzipped when its name
    ends in `.gz`, or to stdout when None; `text` may come in pieces, written as they come.
    Control characters from the inputs become visible symbols on the way (`visible`), to a
    terminal, a pipe or a file alike.  `escaped` text (JSON, whose writer escapes every control
    character and non-ASCII one) is written unscanned: the scan of a 70 MB report cost a
    twentieth of its `score` run.  `data` (a file `convert` writes) is the input's own words in
    another format, read by programs: written as it is to a file or a pipe, since a word turned
    into its visible symbol would be another word (and a C1 character's `\\x85` no JSON escape);
    to a terminal it is shown as every text is."""
    if data and (output is not None or not sys.stdout.isatty()):
        escaped = True
    pieces = [text] if isinstance(text, str) else text
    safe = pieces if escaped else (visible(piece, keep_layout=True) if _has_control(piece) else piece
                                   for piece in pieces)
    if output is None:
        sys.stdout.writelines(safe)
        return
    if output.endswith(".gz"):  # as every reader here reads it: `convert IN OUT.conll.gz` wrote plain text
        import gzip

        data = "".join(safe).encode("utf-8", errors="backslashreplace")
        write_atomic(output, gzip.compress(data, mtime=0), inputs=inputs)  # mtime 0: the same bytes each run
        return
    write_atomic(output, safe, inputs=inputs)


def _text(cell: object) -> str:
    if isinstance(cell, float):  # numpy's float64 too, whose own repr is `np.float64(...)`
        return float.__repr__(cell)
    return "" if cell is None else str(cell)


def render_csv(headers: Sequence[str], rows: Iterable[Sequence[object]], *, texts: bool = False) -> str:
    """RFC 4180 CSV (quoted where needed, `\\n` line ends), header first.  With `texts`, every cell
    is already its text (a table written column by column): the rows go to the writer at once."""
    import csv  # loaded by the runs that write CSV, as tempfile by those that write a file

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(headers)
    if texts:
        writer.writerows(rows)
    else:
        for row in rows:
            writer.writerow([_text(cell) for cell in row])
    return buffer.getvalue()


class MarkdownText(str):
    """A cell written in Markdown on purpose (`**76.49**`, a bold best value): not escaped."""


def markdown_cell(cell: object) -> str:
    """A cell that cannot break the table or become markup: `|`, backslash and the characters
    Markdown gives meaning to are escaped, line breaks become spaces."""
    if isinstance(cell, MarkdownText):
        return str(cell)
    text = "".join("\\" + c if c in _MARKDOWN_SPECIAL else c for c in _text(cell))
    return " ".join(text.splitlines()) if "\n" in text or "\r" in text else text


_MARKDOWN_SPECIAL = frozenset("\\|`*_[]<>#")


def render_markdown(headers: Sequence[str], rows: Iterable[Sequence[object]], title: str | None = None) -> str:
    """A GitHub-flavoured Markdown table (numeric columns right-aligned), with an optional heading."""
    rows = [[markdown_cell(cell) for cell in row] for row in rows]
    numeric = [
        bool(rows) and all(_is_number(row[i].strip("*\\")) for row in rows if i < len(row) and row[i] != "")
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
    """A number, also with an interval and a significance mark (`61.01 ± 1.09\\*`): right-aligned."""
    value = text.removesuffix("\\*").split(" ± ")
    try:
        for part in value:
            float(part)
    except ValueError:
        return False
    return len(value) <= 2


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def write_atomic(path: str, text: str | bytes | Iterable[str], inputs: Iterable[str] = ()) -> None:
    """Write `text` (a string, or its pieces, or bytes: a figure) to `path` via a temporary file in
    the same directory and `os.replace`.

    Raises InputError (before touching anything) when `path` is one of `inputs`, a read-only file
    (even where the folder would let it be replaced), a name ending with `/`, or when the directory
    cannot be written.  The new file gets the usual permissions (umask applied), not the
    temporary file's private 0600.
    """
    for source in inputs:
        if _same_file(path, source):
            raise InputError(path, None, f"refusing to write the output onto an input file ({source})")
    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = None  # a new file
    if mode is not None and (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
        # /dev/null, /dev/stdout, a FIFO: written into directly, never replaced by a regular file
        try:
            if isinstance(text, bytes):
                with open(path, "wb") as out:
                    out.write(text)
            else:
                with open(path, "w", encoding="utf-8", errors="backslashreplace", newline="") as out:
                    out.writelines([text] if isinstance(text, str) else text)
        except OSError as exc:
            raise InputError(path, None, f"cannot write: {exc.strerror or exc}") from None
        return
    if mode is not None and not stat.S_ISREG(mode):
        raise InputError(path, None, "cannot write: not a regular file, a character device or a FIFO")
    if mode is not None and (not os.access(path, os.W_OK) or not mode & 0o222):
        # replacing it by rename would need only the folder's permission: refuse, as cp and `>` do
        raise InputError(path, None, "cannot write: the file is read-only")
    if path.endswith(("/", os.sep)):
        raise InputError(path, None, "cannot write: this names a folder that does not exist; give a file name")
    directory = os.path.dirname(os.path.abspath(path))
    import tempfile

    try:
        handle, temporary = tempfile.mkstemp(prefix=".corefwb-", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise InputError(path, None, f"cannot write: {exc.strerror or exc}") from None
    try:
        if isinstance(text, bytes):
            with os.fdopen(handle, "wb") as out:
                out.write(text)
        else:
            with os.fdopen(handle, "w", encoding="utf-8", errors="backslashreplace", newline="") as out:
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


# ------------------------------------------------------------------------------ reports

REPORT_FORMATS = ("json", "csv", "markdown")
REPORT_EXTENSIONS = {"json": ".json", "csv": ".csv", "markdown": ".md"}
def error_json(record) -> dict:
    """An error record in JSON: the engine's shape, with the impact in points (`impact_points`,
    full precision) as every other output shows it."""
    out = record.to_json()
    del out["impact"]
    out["impact_points"] = impact_points(record.impact)
    return out


def conventions_header(options) -> str:
    """Under the CorefUD or UA conventions, the line that names them and their settings, first in a
    text output; under v8.01's, only when a setting departs from v8.01's own (`--match` other than
    exact, `--singletons remove`), whose numbers no output said were not v8.01's (its defaults'
    outputs stay as they were)."""
    if options.conventions == "ua":
        return f"{options.ua.describe()}\n"
    if options.conventions == "corefud":
        return f"{options.corefud.describe()}\n"
    if not departs_from_v801(options):
        return ""
    return (f"conventions conll, {options.match} match, singletons "
            f"{'kept' if options.singletons == 'keep' else 'removed'} (v8.01 matches exact spans and keeps singletons)\n")


def conventions_json(options) -> dict:
    """Under the CorefUD or UA conventions, the settings a JSON output names (as `score` does); under
    v8.01's, the same fields when a setting departs from v8.01's (`conventions_header`)."""
    if options.conventions == "ua":
        return options.ua.fields()
    if options.conventions == "corefud":
        return options.corefud.fields()
    if not departs_from_v801(options):
        return {}
    return {"conventions": options.conventions, "match": options.match, "singletons": options.singletons}


def departs_from_v801(options) -> bool:
    """Scores under v8.01's conventions with a setting v8.01 lacks: mentions matched other than by
    their exact span, or singletons removed before alignment."""
    return options.match != "exact" or options.singletons == "remove"

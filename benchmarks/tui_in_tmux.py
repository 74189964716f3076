"""The book in `corefwb` in a real terminal: a tmux pane of 200x50, timed by captures of the pane
(`bench_tui.py --book DIR --tmux`; its docstring says what is timed and the targets).

Why apart from `bench_tui.py`: this drives a separate process through tmux and reads the screen
as text, and needs neither Textual nor the app in this process; `bench_tui.py` times the app
headless through Textual's pilot, frame by frame.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def ms(seconds: float) -> str:
    """Seconds as milliseconds in a column of nine characters."""
    return f"{1000 * seconds:7.1f} ms"

BOOK_KEYS = ("f3", "f2", "n", "n", "t", "n", "n", "t", "n")
"""The keys timed on the book, in this order (`t` twice: to K&K and back)."""


ERROR_ROW = re.compile(r"│ (FN|FA|WL|SUB|MISS|SPUR) ")
"""A row of the per-mention error list, in a capture of the pane."""
PRICED_ROW = re.compile(r"^│ (FN|FA|WL|SUB|MISS|SPUR) .*\d {4}│", re.M)
"""A row of that list with its impact priced: a number ends the impact column, four cells before
the counts table's edge at 200 columns (a cost with no impact after it is followed by more)."""
RELATION_ROW = re.compile(r"^│ (BR|NR|SA) +(MISS|SPUR|ANCH|REL|REF|NREF|XTRA|MEMB) ", re.M)
"""A row of the UA relations' error list (the list a UA book opens on; its prices come with it)."""


@dataclass(frozen=True)
class Book:
    """One book of a format: its files in the book directory, the signs that its first screen is
    drawn and complete, and the keys timed on it (in this order)."""

    key: str
    response: str
    text_sign: str
    """In the text once its brackets are drawn (a name's type letter after a bracket)."""
    last_metric: str
    """The scores panel's last row: every metric is on screen once it is."""
    error_row: re.Pattern
    """A row of the list the book opens on, classified."""
    priced_row: re.Pattern
    """Such a row with its price or impact."""
    keys: tuple[str, ...] = BOOK_KEYS


BOOKS = {
    "conll": Book("book.key.conll", "book.response.conll", "]N", "ACE F=value", ERROR_ROW, PRICED_ROW),
    "conllu": Book("book.key.conllu", "book.response.conllu", "]N", "Zero anaph.", ERROR_ROW, PRICED_ROW),
    # the relations' list first, `t` to the per-mention list, to K&K and back; then the four
    # relation layers hidden and shown again in the text (b, a, x, r twice)
    "ua": Book("book.key.CONLLUA", "book.response.CONLLUA", "]P", "Br. entity", RELATION_ROW, RELATION_ROW,
               ("f3", "f2", "n", "n", "t", "n", "n", "t", "n", "t", "n", "b", "a", "x", "r", "b", "a", "x", "r")),
}
"""The books of `book.py` (CoNLL-2012), `book_conllu.py` (CorefUD) and `book_ua.py` (UA)."""


def errors_listed(screen: str, book: Book = BOOKS["conll"]) -> bool:
    """Whether the book's text (its brackets) and its classified error rows are on screen: the
    first screen drawn."""
    return "errors (" in screen and "analysing" not in screen and "[" in screen and bool(book.error_row.search(screen))


def first_screen_complete(screen: str, book: Book = BOOKS["conll"]) -> bool:
    """Whether the book's first screen holds all it will: the text, every metric, the errors
    classified and the shown rows' impacts priced.  Under load the metrics after the official
    ones came 2 s after the error rows and the impacts 1 s after those: a screen still for
    `--quiet` seconds before them was taken for settled, and their arrival charged to F3."""
    return errors_listed(screen, book) and book.last_metric in screen and bool(book.priced_row.search(screen))


def corefwb_command(checkout: Path | None) -> list[str]:
    """`corefwb` of this checkout, or of another (`--base`: the code before a change), run by this
    Python with that checkout first on its path.  Not the environment's `corefwb` script: that
    imports the package the environment was installed from, which need not be this checkout (a
    worktree's "after" runs timed the main tree)."""
    start = f"import sys; sys.path.insert(0, {str(checkout or ROOT)!r}); sys.argv[0] = 'corefwb'; " \
            "from workbench.cli import entry; entry()"
    return [sys.executable, "-c", start]


NOTICE_EDGE = "\u258c"
"""The left edge of a notice (Textual's toast) as tmux captures it: no other part of the screen has it."""


def bench_book_tmux(directory: Path, quiet: float, checkout: Path | None = None, label: str = "",
                    cold: bool = False, book: Book = BOOKS["conll"], size: tuple[int, int] = (200, 50)) -> None:
    """The book in `corefwb` in a real terminal (tmux, 200x50), timed by captures of the pane;
    `cold`: with an empty cache directory of its own (a first open: both files read, the key's
    entry written)."""
    session = f"bench-book-{os.getpid()}-{time.monotonic_ns()}"
    tmux = ["tmux", "-L", session]  # a server of its own (one per run: a server ending is not at once gone)
    empty_cache = tempfile.TemporaryDirectory(prefix="bench-tui-cache-") if cold else None
    environment = ("env", f"COREFWB_CACHE_DIR={empty_cache.name}") if empty_cache else ()
    command = " ".join(shlex.quote(str(part)) for part in
                       (*environment, *corefwb_command(checkout), directory / book.key,
                        directory / book.response))

    def capture() -> str:
        return subprocess.run([*tmux, "capture-pane", "-p", "-t", session], capture_output=True, text=True).stdout

    complete: list[float] = []
    text_drawn: list[float] = []
    """When the book's bracketed text and its CoNLL score were first on screen (its errors may be
    still analysed)."""

    def until_still(since: float, before: str, ready=lambda screen: True, timeout: float = 300.0) -> tuple[float, float]:
        first = last = None
        screen, end = before, since + timeout
        while time.perf_counter() < end:
            now_screen = capture()
            now = time.perf_counter()
            if now_screen != screen:
                screen = now_screen
                first = first or now
                last = now
                if not text_drawn and book.text_sign in screen and "CoNLL " in screen:
                    text_drawn.append(now - since)
                if not complete and errors_listed(screen, book):
                    complete.append(now - since)  # scores, the text's brackets and error rows drawn
            elif last is not None and now - last > quiet and ready(screen):
                break
            time.sleep(0.02)
        return (first or float("nan")) - since, (last or float("nan")) - since

    started = time.perf_counter()
    subprocess.run([*tmux, "new-session", "-d", "-s", session, "-x", str(size[0]), "-y", str(size[1]), command], check=True)
    try:
        # settled not before the whole first screen is drawn (on a busy machine the text and the
        # error rows came more than `quiet` seconds after the scores)
        answered, settled = until_still(started, "", ready=lambda screen: first_screen_complete(screen, book))
        shown = ms(complete[0]).strip() if complete else "never"
        text = ms(text_drawn[0]).strip() if text_drawn else "never"
        print(f"{label}{book.key} in tmux {size[0]}x{size[1]}: first change {ms(answered)}, text and scores drawn {text}, first screen drawn {shown}, "
              f"settled {ms(settled)} (quiet {quiet:g} s)")
        for key in book.keys:
            # a key is sent once no notice is on screen: an earlier key's notice timing out (5 s)
            # is a change of the screen, not this key's work
            end = time.perf_counter() + 10.0
            while NOTICE_EDGE in capture() and time.perf_counter() < end:
                time.sleep(0.05)
            before = capture()
            t0 = time.perf_counter()
            subprocess.run([*tmux, "send-keys", "-t", session, key.upper() if key.startswith("f") else key], check=True)
            # `t` settles once the K&K list is filled (its "analysing" title gone), not at a pause
            answered, settled = until_still(t0, before, ready=lambda screen: "(analysing" not in screen, timeout=120.0)
            print(f"{label}{key:4} answered {ms(answered)}  settled {ms(settled)}")
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
        if empty_cache is not None:
            time.sleep(0.5)  # the app's children end with it
            empty_cache.cleanup()

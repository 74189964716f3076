"""A progress bar for long corpora: on stderr, only on a terminal, only after the first second.

Why these rules: results go to stdout and must stay clean for pipes; a log file or CI output must
not fill with carriage returns (so nothing is drawn unless stderr is a terminal); and a bar that
flashes for 200 ms on a small corpus is noise (so nothing is drawn before `delay` seconds).  When
the work ends the bar's line is cleared, leaving the terminal as it was.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO


class Progress:
    """Counts work done out of `total`; draws `label [#####.....] 12/40` when worth it.

    Use as a context manager (the line is cleared on exit) and call `advance()` per item.
    `stream` and `clock` are injectable for tests.
    """

    def __init__(self, total: int, label: str = "", *, stream: TextIO | None = None, delay: float = 1.0,
                 interval: float = 0.1, width: int = 30, clock: Callable[[], float] = time.monotonic) -> None:
        self.total = max(0, total)
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.delay = delay
        self.interval = interval
        self.width = width
        self.clock = clock
        self.done = 0
        self.start = clock()
        self.last_draw = -1.0
        self.drawn = False
        try:
            self.enabled = bool(self.stream.isatty())
        except (AttributeError, ValueError):
            self.enabled = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def advance(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        now = self.clock()
        if now - self.start < self.delay or (self.drawn and now - self.last_draw < self.interval and self.done < self.total):
            return
        self.last_draw = now
        self._draw(now)

    def update(self, done: int, total: int) -> None:
        """Set the count and the total (a total learnt only once the inputs are read)."""
        self.total = max(0, total)
        self.advance(done - self.done)

    def line(self, now: float) -> str:
        """The bar's text (without control characters)."""
        fraction = self.done / self.total if self.total else 1.0
        fraction = min(1.0, fraction)
        filled = int(round(fraction * self.width))
        elapsed = now - self.start
        label = f"{self.label} " if self.label else ""
        return f"{label}[{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total} {elapsed:.0f}s"

    def _draw(self, now: float) -> None:
        try:
            self.stream.write("\r\x1b[2K" + self.line(now))
            self.stream.flush()
            self.drawn = True
        except (OSError, ValueError):
            self.enabled = False

    def close(self) -> None:
        """Clear the bar's line if one was drawn."""
        if self.drawn:
            try:
                self.stream.write("\r\x1b[2K")
                self.stream.flush()
            except (OSError, ValueError):
                pass
            self.drawn = False

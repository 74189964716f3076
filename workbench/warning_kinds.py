"""Warnings shown a few of a kind: the first of each kind, then one line saying how many more.

Why: the readers and the aligner say what they notice per document, and a corpus of 20,000 small
documents with a word changed in each gave 20,019 lines on stderr (and as many paragraphs in the
workbench's warnings view), burying the one line of another kind.  Every front end shows warnings
through `summarised`; `--warnings all` shows every one.

A warning is a sentence about a file, located (`PATH:LINE: ...`), often about one document
(`document NAME: ...`), quoting words and numbers from the files.  Its kind is its file and the
words of its sentence before the first colon or parenthesis once the document, the quoted words
and the numbers are left out: `document '(d4); part 000': 1 of 11 words differ from the key's
(first: token 1 ...)` is of the kind `N of N words differ from the key's`.  A kind put together
wrongly costs nothing but a summary line too many or too few: every warning is counted in one.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence

SHOWN_OF_A_KIND = 5
"""Warnings of one kind shown before the line that counts the rest."""
WARNINGS_CHOICES = ("summary", "all")
"""`--warnings`: the first few of each kind and a count of the rest (default), or every one."""

_LOCATED = re.compile(r"(?P<file>.+?)(?::\d+)?: (?P<rest>.*)", re.DOTALL)
_QUOTED = re.compile(r"""(?<!\w)(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")(?!\w)""")
_ABOUT_A_DOCUMENT = re.compile(r"(?:KEY )?document Q: ")
_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")
"""A number standing alone (not the 8 and 01 of `v8.01`)."""


def warning_kind(message: str) -> tuple[str, str]:
    """(the file a warning is about, the words of its kind); ("", its words) when it names no file."""
    located = _LOCATED.match(message)
    file, rest = (located.group("file"), located.group("rest")) if located else ("", message)
    if located and " " in file:  # a sentence with a colon, not a path
        file, rest = "", message
    words = _NUMBER.sub("N", _QUOTED.sub("Q", rest))
    words = _ABOUT_A_DOCUMENT.sub("", words, count=1)
    return file, re.split(r"[:(]", words, maxsplit=1)[0].strip()


def summarised(warnings: Sequence[str], every: bool = False) -> list[str]:
    """The warnings as shown: in their order, the first `SHOWN_OF_A_KIND` of each kind, the
    last of those followed by a line counting the others of its kind (all of them when `every`,
    or when there is one other: its line is no longer than the count's)."""
    if every or len(warnings) <= SHOWN_OF_A_KIND:
        return list(warnings)
    kinds = [warning_kind(message) for message in warnings]
    total: dict[tuple[str, str], int] = {}
    for kind in kinds:
        total[kind] = total.get(kind, 0) + 1
    seen: dict[tuple[str, str], int] = {}
    out: list[str] = []
    for message, kind in zip(warnings, kinds):
        count = seen[kind] = seen.get(kind, 0) + 1
        if count <= SHOWN_OF_A_KIND or total[kind] == SHOWN_OF_A_KIND + 1:  # (a line for a line: shown)
            out.append(message)
        if count == SHOWN_OF_A_KIND and total[kind] > count + 1:
            file, words = kind
            more = total[kind] - count
            out.append(f"{file + ': ' if file else ''}{more:,} more warning{'s' * (more > 1)} like the "
                       f"{SHOWN_OF_A_KIND} above ({words or 'the same words'}...): --warnings all shows every one")
    return out


def shown_warnings(warnings: Sequence[str], args: argparse.Namespace) -> list[str]:
    """A command line's warnings as its `--warnings` asks (a command without it: summarised)."""
    return summarised(warnings, every=getattr(args, "warnings", "summary") == "all")

"""Warnings shown a few of a kind: the first of each kind, then one line saying how many more.

Why: the readers and the aligner say what they notice per document, and a corpus of 20,000 small
documents with a word changed in each gave 20,019 lines on stderr (and as many paragraphs in the
workbench's warnings view), burying the one line of another kind.  Every front end shows warnings
through `summarised`; `--warnings all` shows every one.

A warning is a sentence about a file, located (`PATH:LINE: ...`), often about one document
(`document NAME: ...`, `document NAME, word N WORD: ...`), quoting words and numbers from the
files.  Its gist is its sentence after the document, up to its first colon or parenthesis outside
a quoted word; its kind is its file and its gist with the quoted words and the numbers left out:
`document '(d4); part 000': 1 of 11 words differ from the key's (first: token 1 ...)` is of the
kind `_ of _ words differ from the key's`.  A kind put together
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

_QUOTED = r"""(?<!\w)(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")(?!\w)"""
"""A name or word as a message quotes it (`repr`): in single quotes, or double when it holds one."""
_LOCATED = re.compile(r"(?P<file>[^ ]+?)(?::\d+)?: (?P<rest>.*)", re.DOTALL)
_ABOUT_A_DOCUMENT = re.compile(rf"(?:KEY )?document {_QUOTED}(?:, word \d+ {_QUOTED})?: ")
_GIST = re.compile(rf"""(?:[^:('"]+|{_QUOTED}|['"])*""")
"""A sentence up to its first colon or parenthesis outside a quoted word."""
_LEFT_OUT = re.compile(rf"{_QUOTED}|\d+")


def _located(message: str) -> tuple[str, str]:
    """(the file a warning is about or "", the gist of its sentence: `warning_kind`)."""
    located = _LOCATED.match(message)
    file, rest = (located.group("file"), located.group("rest")) if located else ("", message)
    rest = rest[m.end():] if (m := _ABOUT_A_DOCUMENT.match(rest)) else rest
    return file, _GIST.match(rest).group().strip()


def warning_kind(message: str) -> tuple[str, str]:
    """(the file a warning is about, the words of its kind: its gist without quoted words and numbers)."""
    file, gist = _located(message)
    return file, _LEFT_OUT.sub("_", gist)


def summarised(warnings: Sequence[str], every: bool = False) -> list[str]:
    """The warnings as shown: in their order, the first `SHOWN_OF_A_KIND` of each kind, the
    last of those followed by a line counting the others of its kind (all of them when `every`,
    or when there is one other: its line is no longer than the count's); a warning said twice, once."""
    warnings = list(dict.fromkeys(warnings))  # (`score --stream` hears a file's warning once per side)
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
            file, gist = _located(message)
            more = total[kind] - count
            out.append(f"{file + ': ' if file else ''}{more:,} more warning{'s' * (more > 1)} like the "
                       f"{SHOWN_OF_A_KIND} above ({gist or 'the same words'}...): --warnings all shows every one")
    return out


def shown_warnings(warnings: Sequence[str], args: argparse.Namespace) -> list[str]:
    """A command line's warnings as its `--warnings` asks (a command without it: summarised)."""
    return summarised(warnings, every=getattr(args, "warnings", "summary") == "all")

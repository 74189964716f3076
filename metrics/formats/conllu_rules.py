"""The rules both CoNLL-U readers share: the token-span reader (`conllu`, CoNLL-2012's conventions
and the key's text under CorefUD's) and the node reader (`corefud`, corefud-scorer's mentions).

Why one module: `corefwb score` under CorefUD reads a key with the node reader alone, `errors`,
`compare` and the workbench with both, the span reader first; when each reader said a fault its
own way, or checked what the other did not (HEAD), one broken file got a message from one view
and another message, or none, from the next.  Each function here is a rule or its wording, called
by both readers; each raises `InputError(path, line, message)` or returns the message.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from metrics.model import InputError

_CHUNK = re.compile(r"\([^()]+\)?|[^()]+\)")
DISCONTINUOUS = re.compile(r"^(.+)\[([0-9]{1,9})/([0-9]{1,9})\]$")
"""A discontinuous mention's ID: `e5[2/3]` (its entity, its part, its parts)."""


def is_number(text: str) -> bool:
    """A plain decimal number int() takes: str.isdigit() alone also accepts '²' (which int()
    refuses), and int() refuses more than 4300 digits; no word ID or HEAD has 10."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def entity_chunks(value: str, path: str, line: int) -> list[str]:
    """An `Entity=` value's chunks in text order (`(e1-person`, `e1)`, `(e2-place-1-)`): the one
    rule of both CoNLL-U readers, so that a value is refused by the same words whichever reads it
    (a front end that reads the key with both said one thing where another said the other).  An
    empty value has no chunk, as udapi reads it for corefud-scorer."""
    chunks = _CHUNK.findall(value)
    if sum(map(len, chunks)) != len(value):
        raise InputError(path, line, f"Entity value {value!r} does not parse")
    return chunks


def entity_fields(declared: str, path: str, line: int) -> list[str]:
    """The attributes a `# global.Entity = ...` line declares, in order (both readers')."""
    fields = declared.split("-")
    if not {"eid", "GRP"} & set(fields):
        raise InputError(path, line, f"global.Entity {declared!r} names no eid (or GRP) attribute")
    return fields


def wrong_columns(count: int) -> str:
    """Why a node line of `count` TAB-separated columns is refused (both readers', which split
    the line themselves: a call per line cost 0.1 s of reading a book)."""
    return f"expected 10 TAB-separated CoNLL-U columns, found {count}"


def unknown_id(ident: str) -> str:
    """Why a line whose ID is no word, empty node or range is refused (both readers')."""
    return f"ID {ident!r} is not a word number, a range (1-2) or an empty node (1.1)"


def closes_nothing(chunk: str, eid: str) -> str:
    """Why a closing chunk (`e5)`) with no mention of its entity open is refused (both readers')."""
    return f"mention {chunk} closes but no mention of entity {eid} is open"


def discontinuous_id(eid: str, chunk: str, path: str, line: int) -> tuple[str, int, int]:
    """A discontinuous mention's ID (`e5[2/3]`) as its entity, its part and its parts (both readers')."""
    found = DISCONTINUOUS.match(eid)
    if not found:
        raise InputError(path, line, f"malformed discontinuous mention ID {eid!r} in {chunk!r}")
    part, parts = int(found.group(2)), int(found.group(3))
    if not 1 <= part <= parts:
        raise InputError(path, line, f"part {part} of {parts} in {chunk!r}")
    return found.group(1), part, parts


def part_without_first(part: int, parts: int, eid: str) -> str:
    """Why a later part of a discontinuous mention with none of its entity's waiting is refused."""
    return f"part {part}/{parts} of a discontinuous mention of {eid} before its part 1"


def part_missing(eid: str, document: str) -> str:
    """Why a discontinuous mention whose last part never comes is refused, on its first part's line."""
    return f"discontinuous mention of {eid} opened here lacks its last part in document {document!r}"


def never_closed(eid: str, document: str) -> str:
    """Why a mention is refused, said on the line that opens it (both readers')."""
    return f"mention ({eid} opened here is never closed in document {document!r}"


def head_error(head: str, is_word: Callable[[int], bool]) -> str | None:
    """What is wrong with a word's HEAD (`is_word(n)`: whether its sentence has a word of ID n),
    or None: the one rule of both CoNLL-U readers.  A HEAD is `_` (no tree), 0 (the root) or a
    word of the sentence; udapi refuses any other, so corefud-scorer refuses the file, and a
    reader that let it pass would score a file that every other view refuses."""
    if head == "_":
        return None
    if not is_number(head):
        return f"HEAD {head!r} is neither a number nor '_'"
    number = int(head)
    return None if number == 0 or is_word(number) else f"HEAD {head} is not a word of this sentence"

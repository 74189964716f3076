"""What the first lines of a file show of the CRAC LLM track's formats, and its zero modes, without
loading their reader.

Why a module of its own: every run detects its inputs' formats (`readers.detect_format`), and the
reader of those formats (`crac_text`, with the key's trees, the realignment and MoveHead behind it)
is needed only when a file is one of them.
"""

from __future__ import annotations

import re

CRAC_FORMATS = ("crac-text", "crac-json")
"""The CRAC LLM track's formats: its inline text and its JSON (`crac_text` reads both)."""
ZERO_MODES = ("free", "gold")
"""How the CRAC pipeline treats zeros: `free` (`clean` and `text2conllu` without `-z`: a `##` token
costs nothing and becomes a new empty node) or `gold` (both with `-z`: the key's empty nodes are
aligned as words and kept, `metrics.formats.crac_zeros`).  Here, beside the formats, so that the
command line offers them without loading the reader."""
OTHER_FORMAT = re.compile(r"\s*(\{|\[\s*(\{|$)|#\s|#begin|[^\t]*(\t[^\t]*){9}$)")
"""The first line of a file in another format: jsonlines, JSON, CoNLL-2012 or CoNLL-U."""
_MARKED = re.compile(r"\S\|(\[[\w.]+|[\w.]+\])(?=[,\s]|$)", re.M)


def looks_like_text(head: str) -> bool:
    """Does the start of a file show the inline format (a word with a mark, `|[ID` or `|ID]`, the
    key's own ids included, and a first line of no other format)?"""
    first = next((line for line in head.splitlines() if line.strip()), "")
    return not OTHER_FORMAT.match(first) and bool(_MARKED.search(head))


def looks_like_json(head: str) -> bool:
    """Does the start of a file show the JSON form (a list of objects with `tokens`)?"""
    return head.lstrip().startswith("[") and '"tokens"' in head

"""The conventions by name: where a new convention is registered (docs/engine.md)."""

from __future__ import annotations

from metrics.conventions.base import Convention
from metrics.conventions.conll import CONLL_2012_CONVENTIONS
from metrics.conventions.corefud import COREFUD_CONVENTIONS
from metrics.conventions.ua import UA_CONVENTIONS

CONVENTIONS: dict[str, Convention] = {c.name: c for c in (CONLL_2012_CONVENTIONS, COREFUD_CONVENTIONS,
                                                          UA_CONVENTIONS)}
"""Every convention, by the name `--conventions` takes, in the order the help lists them."""


def convention(name: str) -> Convention:
    """The convention of a name; ValueError names the known ones."""
    found = CONVENTIONS.get(name)
    if found is None:
        raise ValueError(f"unknown conventions {name!r}; choose from {', '.join(CONVENTIONS)}")
    return found

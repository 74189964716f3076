"""The conventions by name: where a new convention is registered (docs/engine.md).

Each is named by its module and object and loaded when first asked for, so that a run under one
convention does not load the others' readers and aligners (a CoNLL-2012 `score` never imports the
CorefUD or Universal Anaphora code)."""

from __future__ import annotations

from importlib import import_module

from metrics.conventions.base import Convention
from metrics.conventions.options import CONLL_2012, COREFUD, UA

_WHERE: dict[str, tuple[str, str]] = {
    CONLL_2012: ("metrics.conventions.conll", "CONLL_2012_CONVENTIONS"),
    COREFUD: ("metrics.conventions.corefud", "COREFUD_CONVENTIONS"),
    UA: ("metrics.conventions.ua", "UA_CONVENTIONS"),
}
"""Each convention's module and the object in it that satisfies `Convention`."""

CONVENTIONS: tuple[str, ...] = tuple(_WHERE)
"""Every convention's name, as `--conventions` takes it, in the order the help lists them."""


def convention(name: str) -> Convention:
    """The convention of a name; ValueError names the known ones."""
    where = _WHERE.get(name)
    if where is None:
        raise ValueError(f"unknown conventions {name!r}; choose from {', '.join(CONVENTIONS)}")
    module, attribute = where
    found: Convention = getattr(import_module(module), attribute)
    return found

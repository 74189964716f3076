"""Errors' impacts priced in a child forked by the opening (`opening.py`), not in the app.

Why: pricing is pure Python work, and a book's 52,000 errors are about ten seconds of it.  In the
app's worker it held the GIL that long, beside the UI thread: keys answered late, and the first
200 impacts waited behind the pricer's set-up on the UI's processor.  A child forked once the
opening has classified the first document's errors has them in memory (and the corpus, to
classify any other document alike); it builds the pricer and prices the first screen's errors
before the app asks, and then whatever part of a document's list the app asks for.  Only the
impacts come back, as an array, with each error's span and category so the app can check they
are the errors it lists; where they are not, or there is no child, the app prices them itself.
A long first document's child (a book's, `opening.py`) is forked before the errors are
classified, sets up its pricer on that document meanwhile (0.7 s of the book's first impacts,
which came 1-3 s after its error list), and is sent the errors it is asked to price.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import NamedTuple

import numpy as np

from metrics.errors.chen_ng.records import ErrorRecord
from metrics.measures.weights import Weights

from ..session import Session
from .rows import group_errors


FIRST_PRICED = 200
"""Rows of a long error list priced and shown before the rest (more than a screen holds)."""
PRICED_TOGETHER = 2000
"""Rows of a long list priced per question after the first: a newer question (the user moved
on) waits for at most this many (about 0.3 s on a book)."""


def pieces(count: int) -> list[tuple[int, int]]:
    """The parts of a list of `count` errors priced one after another: its top first (the
    screen's), then the rest in runs of `PRICED_TOGETHER`; a short list at once."""
    if count <= 2 * FIRST_PRICED:
        return [(0, count)]
    cuts = [0, *range(FIRST_PRICED, count, PRICED_TOGETHER), count]
    return list(zip(cuts, cuts[1:]))


class Asked(NamedTuple):
    """Price errors `start` to `end` of a document's list (as `group_errors` orders them) of a
    system under weights."""

    system: int
    weights: Weights
    name: str
    start: int
    end: int


class Priced(NamedTuple):
    """What the child answers: the errors' spans and categories (which the app checks against
    its own) and their impacts (NaN: none)."""

    spans: np.ndarray
    categories: list[str]
    impacts: np.ndarray


class Request(NamedTuple):
    """What the app asks the child: the errors `asked` names, and the errors themselves when the
    child was forked before they were classified (None: the child lists them)."""

    asked: Asked
    rows: list[ErrorRecord] | None = None


def serve_impacts(_: None, requests: Iterable[Request], *, session: Session,
                  preview: dict[int, dict[str, list[ErrorRecord]]], weights: Weights,
                  first: Sequence[Asked], warm: Sequence[tuple[int, str]] = ()) -> Iterator[Priced]:
    """In the child: the pricer of each (system, document) of `warm` set up on that document, and
    `first` priced at once (the first screen's, before the app asks), then each request as it
    comes (answered from what was priced at once when it asks for that)."""
    for system, name in warm:
        pricer = session.pricer("conll", weights, system)
        pricer.document_change(pricer.index[name], [])  # no fix: the document's state, built once
    lists: dict[tuple[int, Weights, str], list[ErrorRecord]] = {}

    def listed(system: int, weights_now: Weights, name: str) -> list[ErrorRecord]:
        key = (system, weights_now, name)
        if key not in lists:
            found = preview.get(system, {}).get(name) if weights_now == weights else None
            lists[key] = found if found is not None else \
                group_errors(session.classify(weights_now, [name], system)).get(name, [])
        return lists[key]

    def price(asked: Asked, given: list[ErrorRecord] | None = None) -> Priced:
        rows = given if given is not None else listed(asked.system, asked.weights, asked.name)[asked.start:asked.end]
        priced = session.price(rows, "conll", asked.weights, system=asked.system)
        return Priced(np.array([r.mention.span for r in rows], dtype=np.int64).reshape(-1, 2),
                      [r.category.value for r in rows],
                      np.array([math.nan if r.impact is None else r.impact for r in priced], dtype=np.float64))

    ready = {asked: price(asked) for asked in first}
    for request in requests:
        answer = ready.pop(request.asked, None)
        yield answer if answer is not None else price(request.asked, request.rows)


def with_impacts(rows: Sequence[ErrorRecord], answer: Priced) -> list[ErrorRecord] | None:
    """`rows` with the child's impacts, None when its errors are not these (the app then prices
    them itself)."""
    if len(answer.impacts) != len(rows) or answer.categories != [r.category.value for r in rows] \
            or answer.spans.tolist() != [list(r.mention.span) for r in rows]:
        return None
    return [replace(r, impact=None if math.isnan(impact) else impact) for r, impact in zip(rows, answer.impacts.tolist())]

"""The text view's marks and units of a whole document at once: the brute force the workbench's
on-demand layout (`workbench.tui.textlayout`: a range of tokens at a time) is checked against.
Only tests used these, so they live here (tests/test_app_long_text.py and the others compare the
product's `TextMarks` and `LazyLayout` with them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from metrics.model import Document, MentionType, Span
from workbench.tui.relations import Overlay
from workbench.tui.rows import (Atom, Marked, Side, _sides, chain_ids, display_words, label_marks, mention_type,
                                token_units_between)


def _ids_label(ids: list[str] | None) -> str:
    return ",".join(ids) if ids else "-"


def marked_mentions(key: Document, response: Document, types: dict[Span, MentionType], mode: Side, *,
                    other: Document | None = None, changes: dict[Span, str] | None = None) -> list[Marked]:
    """The mentions to draw for a view mode, labelled `N1` (key or response) or `N1/3` (both).

    In "both" the label is key chain / response chain, `-` for the side that lacks the span, so a
    missing or spurious mention is readable without colour.  In compare mode (`other`: the
    compared system, `response` the baseline) "response" labels baseline/compared chain ids and
    "both" key/baseline/compared; a mention whose error changed (`changes`) ends its label with
    the change's mark (`comparison.CHANGE_MARKS`: + fixed, ! introduced, ~ changed).  Sorted
    by span.  (The text view makes the same marks a range at a time: `textlayout.TextMarks`.)
    """
    marks_of = label_marks()
    sides = [chain_ids(doc) for doc in _sides(key, response, other, mode)]
    spans = set().union(*sides)
    changes = changes or {}
    pieces: dict[Span, tuple[Span, ...]] = {}
    for doc in (key, response, other):
        if doc is not None and doc.pieces:
            pieces.update(doc.pieces)
    marks = []
    for span in sorted(spans):
        kind = mention_type(types, span)
        label = "/".join(_ids_label(ids.get(span)) for ids in sides)
        change = changes.get(span)
        marks.append(Marked(span, kind, kind.letter + label + (marks_of.get(change, "") if change else ""), change,
                            pieces.get(span, ())))
    return marks


def token_units(doc: Document, marks: Sequence[Marked]) -> list[list[Atom]]:
    """The units of every token of a document (`rows.token_units_between` over the whole text):
    what `rows.wrap_units` lays out whole, the layout a block at a time must equal."""
    return token_units_between(display_words(doc.words), marks, 0, len(doc.words))


def overlaid(overlay: Overlay, marks: Sequence[Marked]) -> list[Marked]:
    """The mentions to draw with the relations added (moved here from `relations.Overlay.apply`,
    which only tests called; `TextMarks._overlaid` is the product's way).  A label ending goes to
    the chain's mention of its span, else to the first markable the relations bracket there, else
    to a bracket of its own (a mention no chain shows: a singleton removed)."""
    ended: set[Span] = set()

    def ending_of(mark: Marked) -> Marked:
        ending = overlay.endings.get(mark.span)
        if not ending or mark.span in ended:
            return mark
        ended.add(mark.span)
        return replace(mark, label=mark.label + ending)

    out = [ending_of(mark) for mark in marks]
    out += [ending_of(mark) for mark in overlay.marks]
    out += [Marked(span, None, ending) for span, ending in overlay.endings.items() if span not in ended]  # untyped
    return out

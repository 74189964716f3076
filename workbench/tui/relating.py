"""Under --conventions ua: the relations shown in the text and chains views, a key each to show or
hide them (`relations.py` draws them), and their errors' list (`relationerrors.py`).  A mixin of
the app.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.widgets import ContentSwitcher

from metrics.corpus.scoring import DocPair

from .relations import KEYS, NAMES, RELATIONS, Overlay, overlay, relation_chains
from .rows import Side

if TYPE_CHECKING:
    from .chains import ChainList
    from .relations import RelationChains

RELATION_BINDINGS = [
    Binding(KEYS[relation], f"relation('{relation}')", f"Show / hide {NAMES[relation]} (--conventions ua)",
            show=False, id=f"relations.{relation}")
    for relation in RELATIONS
]
"""b bridging, a split antecedents, x discourse deixis, r non-referring (the app's BINDINGS)."""


class RelationsShowing:
    """The app's relation keys and what the views show of the relations."""

    relations_shown: frozenset[str] = frozenset(RELATIONS)
    """The relations the text and chains views draw (each key hides or shows one)."""

    @property
    def under_ua(self) -> bool:
        return self.session is not None and self.session.options.conventions == "ua"

    def relations_of(self, pair: DocPair) -> Callable[[Side], Overlay] | None:
        """What the text view draws of a pair's relations in a mode (None: no UA pair, or compare
        mode, whose labels are the systems')."""
        if not self.under_ua or self.comparing or pair.ua is None:
            return None
        spans, shown = pair.ua.token_spans, self.relations_shown
        return lambda mode: overlay(spans, mode, shown)

    def chains_of(self, pair: DocPair) -> tuple[ChainList | RelationChains, ChainList | RelationChains]:
        """The chains view's rows of a pair: under the UA conventions, with its relations."""
        from .chains import chain_rows

        if not self.under_ua or pair.ua is None:
            return chain_rows(pair.key, pair.response, pair.types)
        return relation_chains(pair.ua.token_spans, pair.types, self.relations_shown)

    def chains_legends(self) -> tuple[tuple[str, ...], ...]:
        """The chains view's legends of the relations' glyphs (none outside the UA conventions)."""
        from .relations import chains_legends

        return chains_legends(self.relations_shown) if self.under_ua else ()

    def action_relation(self, relation: str) -> None:
        """Show or hide one relation in the text and chains views."""
        if not self.under_ua:
            self.notify(f"{NAMES[relation]}: shown under --conventions ua only", markup=False)
            return
        hidden = relation in self.relations_shown
        self.relations_shown = self.relations_shown - {relation} if hidden else self.relations_shown | {relation}
        from .text import DocumentText

        if self.corpus is not None and not self.comparing:
            pair = self.corpus.pairs[self.doc_index]
            self.query_one(DocumentText).redraw(pair.key, pair.response, pair.types, self.mode_name(),
                                                relations=self.relations_of(pair))
        self._chains_shown = None
        if self.query_one(ContentSwitcher).current == "chains":
            self._show_chains()
        self._status()
        self.notify(f"{NAMES[relation]}: {'hidden' if hidden else 'shown'} ({KEYS[relation]})", markup=False)

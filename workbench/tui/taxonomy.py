"""`t`: the error list in Chen & Ng's taxonomy (a row per mention) or Kummerfeld & Klein's (a row
per error over entities), and under --conventions ua the relations' errors (`relationerrors.py`,
the list shown first there).  A mixin of the app.

The K&K analysis of a system runs once: for the shown systems in the opening's child from the
start (`opening.py`), its result asked for by a worker as soon as the first screen is drawn
(`prefetch_entity_errors`) or the first time its list is asked for if sooner
(`Session.kk_errors`, the errors without the scores along the corrections, which the charts ask
for apart: under a second on a 100-document corpus, seconds on a book, the list saying
"analysing" meanwhile while every key keeps working); the per-mention list is untouched.  The
errors are kept as arrays (`kkpacked`), the rows made as the list draws them.
Selecting an entity error brackets all its mentions: the part as the error, the rest of the cluster
it comes from or goes to as its context, and marks them in the chains view.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.worker import get_current_worker
from textual.widget import Widget
from textual.widgets import ContentSwitcher

from metrics.model import Span

from .cells import ListTable
from .entityerrors import EntityErrorPanel
from .errorlist import ErrorPanel
from .messages import EngineFault, EntityErrorsReady, RelationErrorsReady, while_running
from .relationerrors import RelationErrorPanel, emphasis_of, said_of, token_index
from .rows import Selection
from .text import DocumentText
from .views import ChainsView

if TYPE_CHECKING:  # the analysis loads when the list is first asked for
    from metrics.errors.kummerfeld_klein.report import KKError

    from .kkpacked import PackedKKErrors


@dataclass
class GroupSelection(Selection):
    """An entity error's mentions: each span with its role (the part "error", the rest of its
    cluster "antecedent"), so the text brackets all of them."""

    roles: dict[Span, str] = field(default_factory=dict)

    @classmethod
    def of_error(cls, row: KKError | None) -> Selection:
        if row is None:
            return Selection()
        roles = {span: "antecedent" for span in row.cluster}
        roles.update({m.span: "error" for m in row.mentions})
        if row.target is not None:
            roles[row.target.span] = "best"
        emphasis = {token: role for span, role in sorted(roles.items(), key=lambda item: item[1] == "error")
                    for token in range(span[0], span[1] + 1)}
        return cls(mention=row.span, emphasis=emphasis, roles=roles)

    def role_of_span(self, span: Span | None) -> str | None:
        return self.roles.get(span) if span is not None else None


TAXONOMIES = ("ua", "chen-ng", "kk")
"""The error lists `t` cycles through (the UA relations' under --conventions ua only)."""
PANELS = {"chen-ng": ErrorPanel, "kk": EntityErrorPanel, "ua": RelationErrorPanel}
LIST_NAMES = {"chen-ng": "per mention, Chen & Ng's", "kk": "Kummerfeld & Klein's, per entity",
              "ua": "the Universal Anaphora relations'"}
LIST_GOES = {"chen-ng": "per mention", "kk": "per entity, K&K", "ua": "UA relations"}
"""What `t` says it shows, and where it goes next."""


class TaxonomySwitching:
    """The app's `t` key, the K&K list and the UA relations' list (see the module docstring)."""

    relation_errors: dict[int, list | None]
    """Under --conventions ua, each system's relation errors once computed (None: they failed)."""
    relations_asked: frozenset[int] = frozenset()
    """The systems whose relation errors a worker is finding: asked for once (each list shown
    while they are found asked again, and the opening's child sent them twice)."""
    _relation_toast = False
    """Whether the selected relation error's explanation is in a toast (the next one replaces it)."""

    def error_panels(self) -> Iterator[Widget]:
        """The error lists, one shown at a time (`t`): per mention, per entity error, and under
        --conventions ua the relations' errors."""
        yield ErrorPanel(id="errorpanel", classes="-compare" if self.comparing else None)
        yield EntityErrorPanel(id="entitypanel")
        yield RelationErrorPanel(id="relationpanel")

    def error_panel(self):
        """The error list shown: per mention (Chen & Ng), per entity error (K&K), or the UA relations'."""
        return self.query_one(PANELS.get(self.taxonomy, ErrorPanel))

    def action_taxonomy(self) -> None:
        if self.browsing or self.session is None:
            self.notify("no errors to classify" if self.browsing else "still loading", markup=False)
            return
        had_focus = any(panel.has_focus_within for panel in self.query(", ".join(p.__name__ for p in PANELS.values())))
        order = TAXONOMIES if self.under_ua else TAXONOMIES[1:]
        self.taxonomy = order[(order.index(self.taxonomy) + 1) % len(order)] if self.taxonomy in order else order[0]
        self._show_taxonomy()
        if had_focus:
            self.error_panel().query_one(ListTable).focus()
        self.select_error(None)
        self.query_one(ChainsView).mark(set())
        if self._relation_toast:  # no list's selection left for it to explain
            self.clear_notifications()
            self._relation_toast = False
        self.show_entity_errors()
        if self.taxonomy == "chen-ng":  # under UA it was left unpriced while hidden
            self._price_current()
        following = order[(order.index(self.taxonomy) + 1) % len(order)]
        self.notify(f"errors: {LIST_NAMES[self.taxonomy]} (t: {LIST_GOES[following]})", markup=False)

    def _show_taxonomy(self) -> None:
        """Only the chosen error list on screen."""
        for taxonomy, panel in PANELS.items():
            self.query_one(panel).display = taxonomy == self.taxonomy

    def show_entity_errors(self) -> None:
        """Fill the K&K list (or under --conventions ua the relations' list) with the shown
        document's errors (starting the analysis if needed)."""
        if self.taxonomy == "ua":
            self.show_relation_errors()
            return
        if self.taxonomy != "kk" or self.corpus is None:
            return
        panel = self.query_one(EntityErrorPanel)
        systems = [self.baseline, self.system] if self.comparing else [self.system]
        missing = [s for s in systems if s not in self.entity_errors]
        if missing:
            panel.set_rows(None, state="analysing")
            if not self.kk_pending.issuperset(missing):
                self.kk_pending.update(missing)
                self._entity_worker(missing)
            return
        if any(self.entity_errors[s] is None for s in systems):
            panel.set_rows(None, state="failed")
            return
        name = self.corpus.pairs[self.doc_index].name
        per_system = [self.entity_errors[s].of_document(name) for s in systems]
        labels = self.labels() if self.comparing else [""]
        counts = [(labels[s] if self.comparing else "", rows) for s, rows in zip(systems, per_system)]
        panel.set_rows(per_system[-1], counts if self.comparing else None)

    def prefetch_entity_errors(self) -> None:
        """Ask for the K&K analysis of the shown systems before `t` does, when a child does it
        (`opening.py`): called once the first screen is drawn (the shown document's first
        impacts in, or all the scores).  Asked, the analysis comes before the rest of a long
        list's pricing (`Workers._rest_may_be_priced`), which waits for it.  Under UA, once the
        relations' errors of the shown systems are in as well (asked again when they come): the
        child starts its analysis when asked, and meanwhile left the processor to theirs."""
        if self.opening is None or self.opening.entity_errors is None or self.browsing or self.session is None:
            return
        if self.taxonomy == "ua" and any(s not in self.relation_errors for s in self.shown_systems()):
            return
        missing = [s for s in self.shown_systems() if s not in self.entity_errors and s not in self.kk_pending]
        if missing:
            self.kk_pending.update(missing)
            self._entity_worker(missing)

    def show_relation_errors(self) -> None:
        """Fill the UA relations' list with the shown document's errors (computed in a worker the
        first time, per system)."""
        if self.corpus is None or self.session is None or self.browsing:
            return
        self._show_taxonomy()
        panel = self.query_one(RelationErrorPanel)
        systems = [self.baseline, self.system] if self.comparing else [self.system]
        found = self.relation_errors
        missing = [s for s in systems if s not in found]
        if missing:
            panel.set_rows(None, state="analysing")
            asked = [s for s in missing if s not in self.relations_asked]
            if asked:
                self.relations_asked = self.relations_asked | set(asked)
                self._relation_worker(asked)
            return
        if any(found[s] is None for s in systems):
            panel.set_rows(None, state="failed")
            return
        pair = self.corpus.pairs[self.doc_index]
        labels = self.labels() if self.comparing else [""]
        listing = (pair.name, tuple(systems), tuple(id(found[s]) for s in systems), tuple(labels))
        if panel.lists(listing):  # `t` back to the list it shows
            return
        per_system = [[e for e in found[s] if e.document == pair.name] for s in systems]
        counts = [(labels[s], rows) for s, rows in zip(systems, per_system)]
        panel.set_rows(per_system[-1], counts if self.comparing else None, split_scored=self.session.options.ua.keep_split,
                       token_of=token_index(pair), listing=listing)

    def _scoring_done(self, system: int) -> bool:
        """Whether a system's scoring in this process has nothing left that the relations' errors
        would share: every metric in, or no scoring worker left (failed, or none started)."""
        from .comparing import complete

        if complete(self.view_of(system).result, self.session.options.conventions):
            return True
        return not any(worker.group == "score" and not worker.is_finished for worker in list(self.workers))

    @work(thread=True, group="relation-errors", description="the UA relations' errors")
    def _relation_worker(self, systems: list[int]) -> None:
        """Each system's relation errors (`Session.ua_errors`), priced against every UA metric:
        from the opening's child when there is one (`opening.py`), else found here.  Where the
        scores are computed in this process (no scoring child: a book loaded by the app), after
        them: both made the same document's objects and MOR at once, each for itself (the UA
        book's first screen spent a second of its GIL on them twice)."""
        worker = get_current_worker()
        errors: dict[int, list | None] = {}
        for system in systems:
            found = self.opening.relation_errors_of(system) if self.opening is not None else None
            if found is not None:
                errors[system] = found
                continue
            while self.view_of(system).scoring is None and not self._scoring_done(system):
                if worker.is_cancelled:
                    return
                time.sleep(0.05)
            try:
                errors[system] = self.session.ua_errors(system)
            except Exception as error:  # noqa: BLE001 - the rest keeps working
                errors[system] = None
                self.post_message(EngineFault(f"the UA relations' errors failed: {type(error).__name__}: {error}"))
        self.post_message(RelationErrorsReady(errors))

    @while_running
    def on_relation_errors_ready(self, message: RelationErrorsReady) -> None:
        self.relation_errors.update(message.errors)
        self.show_entity_errors()
        if self.scored_in_full():  # else asked once they are (`Workers.on_rescored`)
            self.prefetch_entity_errors()

    @while_running
    def on_relation_error_panel_picked(self, message: RelationErrorPanel.Picked) -> None:
        row = message.row
        if self.query_one(ContentSwitcher).current not in ("text", "chains") or (message.jump and row is not None):
            self.action_view("text")
        text = self.query_one(DocumentText)
        if row is None:
            text.select(Selection())
            return
        pair = self.corpus.pairs[self.doc_index]
        if pair.ua is not None:  # every word of the markable and of what it is (or should be) linked to
            mention, emphasis, roles = emphasis_of(row, message.panel.token_of or token_index(pair))
            text.select(GroupSelection(mention=mention, emphasis=emphasis, roles=roles))
            self.query_one(ChainsView).mark(set(roles))
        else:
            text.select(Selection())
        room = max(10, (text.size.width or 60) - 6)  # the explanation, in what the border holds
        said = Text(said_of(row))
        if self._relation_toast:  # the previous error's explanation goes: toasts never stack up
            self.clear_notifications()
        self._relation_toast = said.cell_len > room
        if self._relation_toast:  # cut on the border: whole in a toast (it wraps)
            self.notify(said.plain, timeout=10, markup=False)
        said.truncate(room, overflow="ellipsis")
        text.border_subtitle = said
        if message.jump:
            text.focus()

    @work(thread=True, group="entity-errors", description="Kummerfeld & Klein's analysis")
    def _entity_worker(self, systems: list[int]) -> None:
        from .kkpacked import PackedKKErrors

        found: dict[int, PackedKKErrors | None] = {}
        for system in systems:
            try:
                analysed = self.opening.entity_errors_of(system) if self.opening is not None else None
                found[system] = analysed if analysed is not None else PackedKKErrors(self.session.kk_errors(system=system))
            except Exception as error:  # noqa: BLE001 - an optional analysis: the rest keeps working
                found[system] = None
                self.post_message(EngineFault(f"Kummerfeld & Klein's analysis failed: {error}"))
        self.post_message(EntityErrorsReady(found))

    @while_running
    def on_entity_errors_ready(self, message: EntityErrorsReady) -> None:
        self.entity_errors.update(message.errors)
        self.kk_pending.difference_update(message.errors)
        self.show_entity_errors()

    @while_running
    def on_entity_error_panel_picked(self, message: EntityErrorPanel.Picked) -> None:
        row = message.row
        if self.query_one(ContentSwitcher).current not in ("text", "chains") or (message.jump and row is not None):
            self.action_view("text")
        text = self.query_one(DocumentText)
        text.select(GroupSelection.of_error(row))
        spans = set() if row is None else {m.span for m in row.mentions} | set(row.cluster)
        self.query_one(ChainsView).mark(spans)
        if row is not None:  # what the brackets show, where the per-mention list explains a type
            named = [f"K{c}" for c in row.key_chains] + [f"R{c}" for c in row.response_chains]
            chains = " ".join(named[:3]) + (f" +{len(named) - 3}" if len(named) > 3 else "")
            text.border_subtitle = Text(f"{row.kind.replace('_', ' ')}: {len(row.mentions)} · {chains}")
        if message.jump:
            text.focus()

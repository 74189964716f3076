"""`t`: the error list in Chen & Ng's taxonomy (a row per mention) or Kummerfeld & Klein's (a row
per error over entities).  A mixin of the app.

The K&K analysis of a system runs once, in a worker, the first time its list is asked for
(`Session.kk_errors`, the errors without the scores along the corrections, which the charts ask
for apart: under a second on a 100-document corpus, seconds on a book, the list saying
"analysing" meanwhile while every key keeps working); the per-mention list is untouched.
Selecting an entity error brackets all its mentions: the part as the error, the rest of the cluster
it comes from or goes to as its context, and marks them in the chains view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.widgets import ContentSwitcher

from metrics.model import Span

from .cells import ListTable
from .entityerrors import EntityErrorPanel
from .errorlist import ErrorPanel
from .messages import EngineFault, EntityErrorsReady, while_running
from .rows import Selection
from .text import DocumentText
from .views import ChainsView

if TYPE_CHECKING:  # the analysis loads when the list is first asked for
    from metrics.errors.kummerfeld_klein.report import KKError


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


class TaxonomySwitching:
    """The app's `t` key and the K&K list (see the module docstring)."""

    def error_panel(self):
        """The error list shown: per mention (Chen & Ng) or per entity error (K&K)."""
        return self.query_one(EntityErrorPanel if self.taxonomy == "kk" else ErrorPanel)

    def action_taxonomy(self) -> None:
        if self.browsing or self.session is None:
            self.notify("no errors to classify" if self.browsing else "still loading", markup=False)
            return
        self.taxonomy = "kk" if self.taxonomy == "chen-ng" else "chen-ng"
        kk = self.taxonomy == "kk"
        per_mention, per_entity = self.query_one(ErrorPanel), self.query_one(EntityErrorPanel)
        had_focus = per_mention.has_focus_within or per_entity.has_focus_within
        per_mention.display, per_entity.display = not kk, kk
        if had_focus:
            self.error_panel().query_one(ListTable).focus()
        self.select_error(None)
        self.query_one(ChainsView).mark(set())
        self.show_entity_errors()
        self.notify("errors: Kummerfeld & Klein's, per entity (t: per mention)" if kk
                    else "errors: per mention, Chen & Ng's (t: per entity, K&K)", markup=False)

    def show_entity_errors(self) -> None:
        """Fill the K&K list with the shown document's errors (starting the analysis if needed)."""
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
        per_system = [[e for e in self.entity_errors[s] if e.document == name] for s in systems]
        labels = self.labels() if self.comparing else [""]
        counts = [(labels[s] if self.comparing else "", rows) for s, rows in zip(systems, per_system)]
        panel.set_rows(per_system[-1], counts if self.comparing else None)

    @work(thread=True, group="entity-errors")
    def _entity_worker(self, systems: list[int]) -> None:
        found: dict[int, list[KKError] | None] = {}
        for system in systems:
            try:
                analysed = self.opening.entity_errors_of(system) if self.opening is not None else None
                found[system] = analysed if analysed is not None else self.session.kk_errors(system=system)
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

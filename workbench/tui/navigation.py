"""What the user's keys do in the workbench: views, panels, documents, errors, focus, help, export.

A mixin of `Workbench` (app.py keeps loading, scoring and drawing): the actions only move between
things the app already has, so they live apart from the workers that compute them.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from textual.screen import Screen
from textual.widgets import ContentSwitcher, Input

from metrics.errors.chen_ng.records import ErrorRecord

from ..comparison import Change

from .documents import DocumentList
from .errorlist import ErrorPanel
from .rows import MODES, Selection, group_errors, short_name
from .scores import ScoresPanel
from .text import DocumentText

NO_ERRORS_BROWSING = "browsing a key alone: no errors"
"""What an error key (n, p, i) says when a key is browsed alone: there is no error list to act on."""

BROWSING_NONE = ("charts", "error", "export")
"""The app actions with nothing to act on when a key is browsed alone (no response: no charts,
no errors, nothing scored to export): the footer does not offer them there."""

if TYPE_CHECKING:
    from .export import ExportSource


class Navigation:
    """Key actions of the workbench (mixed into the App)."""

    top_opened = False
    """Whether the document the list puts first was opened (once, when the scores first came)."""

    def top_document(self, preview: bool = True) -> int:
        """The document to open first: the one the list puts on top (the worst, or the largest
        loss), once the list has its scores; until then the one open.  With `preview` (no worker
        running yet), its errors are classified here when the opening previewed another (one
        document: milliseconds), so the first frame lists them."""
        if self.top_opened or self._documents_pair is None:
            return self.doc_index
        self.top_opened = True
        order = self.query_one(DocumentList).order()
        if not order or order[0] == self.doc_index:
            return self.doc_index
        name = self.corpus.pairs[order[0]].name
        try:
            for system in self.shown_systems() if preview else ():
                view = self.view_of(system)
                if name not in view.preview:
                    errors = group_errors(self.session.classify(self.weights, [name], system))
                    view.preview = {**view.preview, name: errors.get(name, [])}
        except Exception:  # noqa: BLE001 - the scoring worker classifies again and reports the fault
            pass
        return order[0]

    # ------------------------------------------------------------------ views and panels
    def action_view(self, view: str) -> None:
        self.query_one(ContentSwitcher).current = view
        if view == "chains" and self.corpus is not None:
            self._show_chains()
        focused = self.focused
        if focused is None or not shown(focused):  # the text had it: the view shown takes it
            self.focus_view()
        self._status()

    def focus_view(self) -> None:
        """Focus the view in the middle (text, key chains, warnings): where keys go when the
        widget that had them is hidden."""
        view = self.query_one(ContentSwitcher).current
        target = {"text": self.query_one(DocumentText), "chains": self.query_one("#key-chains"),
                  "warnings": self.query_one("#warnings")}.get(view)
        if target is not None and target.focusable:
            target.focus()
        else:
            self.screen.set_focus(None)

    def on_descendant_focus(self, event) -> None:
        """A hidden widget never holds focus (keys typed there would vanish: a filter emptying
        the documents list unseen): it goes to the view shown instead."""
        if not shown(event.widget):
            self.call_after_refresh(self.focus_view)

    def action_cycle_mode(self) -> None:
        if self.browsing:
            self.notify("browsing a key alone: only its mentions to show", markup=False)
            return
        self.mode_index = (self.mode_index + 1) % len(MODES)
        self.query_one(DocumentText).mode = MODES[self.mode_index]
        self._status()

    def _set_mode(self, number: int) -> None:
        self.mode_index = (number - 1) % len(MODES)
        self.action_cycle_mode()

    def action_scores_scope(self) -> None:
        """`d`: below 130 columns, the scores panel shows the document's scores or the corpus's."""
        if self.query_one(ScoresPanel).switch_scope():
            self._show_scores()
        else:
            self.notify("both the document's and the corpus's scores are shown at this width", markup=False)

    def action_sort_errors(self) -> None:
        """`i` from anywhere (a filter box keeps its letters): the error list by impact or in text order."""
        if self.browsing:  # the list is hidden: sorting it changed nothing on screen, silently
            self.notify(NO_ERRORS_BROWSING, markup=False)
            return
        if self.taxonomy == "kk":  # K&K's errors are priced per type (F8), not one by one
            self.notify("entity errors are listed by type; i sorts the per-mention list (t)", markup=False)
            return
        self.query_one(ErrorPanel).action_toggle_sort()

    def action_toggle_panel(self, panel: str) -> None:
        """F6 shows or hides the documents list, F7 the scores panel.  Below 130 columns the list
        starts hidden and takes the scores panel's place while shown, so the text keeps its room."""
        if panel == "scores" and self.browsing:  # hidden for good: nothing scored
            self.notify("browsing a key alone: no scores", markup=False)
            return
        self.screen.toggle_class(f"-toggled-{panel}")
        shown = self.query_one(DocumentList if panel == "documents" else ScoresPanel)
        if panel == "documents" and shown.display:
            self.query_one("#documents").focus()
        elif self.focused is not None and shown in self.focused.ancestors_with_self:
            self.action_focus_text()  # the focus must not stay in a hidden panel

    def action_toggle_theme(self) -> None:
        self.theme = "corefwb-light" if self.theme == "corefwb-dark" else "corefwb-dark"

    def action_charts(self) -> None:
        """F8: the charts of the loaded systems (a key browsed alone has none)."""
        if self.session is None or self.browsing:
            self.notify("charts need a response: open the workbench with a key and one or more responses",
                        timeout=5)
            return
        from .charts import ChartsScreen

        document = self.corpus.pairs[self.doc_index].name if self.corpus.pairs else None
        self.push_screen(ChartsScreen(self.session, self.response_names(), self.weights, document=document,
                                      pair=(self.baseline, self.system) if self.comparing else None))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """F9 (next compared system) and c (change filter) work only in compare mode (hidden from the
        footer otherwise, where their keys run `compare_only`, which says why).  A screen may name the
        only app actions that apply on it (`APP_ACTIONS`): the others neither work nor show there."""
        allowed = getattr(self.screen, "APP_ACTIONS", None)
        if allowed is not None and action not in allowed:
            return False
        if action in ("next_system", "cycle_change"):
            return self.comparing
        if action == "compare_only":  # their stand-in with one response: a notice, not silence
            return not self.comparing
        if action in BROWSING_NONE or (action, parameters) == ("toggle_panel", ("scores",)):
            return not self.browsing  # a key browsed alone: off the footer, their keys run `browsing_key`
        if action == "browsing_key":
            return self.browsing
        return True

    def action_browsing_key(self, action: str, *arguments: object) -> None:
        """F7, F8, n, p or ctrl+e on a key browsed alone: their bindings give way there (hidden from
        the footer, which offers only what works) and this runs their action with its arguments,
        which says why nothing happens (`BROWSING_NONE`, and the scores panel's F7)."""
        getattr(self, f"action_{action}")(*arguments)

    def action_help(self) -> None:
        from .keys import help_sections
        from .screens import HelpScreen

        self.push_screen(HelpScreen(self.focused, self.HELP, help_sections(type(self))))

    # ------------------------------------------------------------------ focus
    def action_focus_text(self) -> None:
        """Escape leaves a box (document filter, weights) so single-letter keys work again; from
        another view (chains, warnings) it goes back to the text, as the help says."""
        if not isinstance(self.focused, Input) and self.query_one(ContentSwitcher).current != "text":
            self.action_view("text")
        self.focus_view()

    def action_focus_filter(self) -> None:
        if not self.query_one(DocumentList).display:
            self.action_toggle_panel("documents")
        self.query_one("#doc-filter").focus()

    def action_focus_weights(self) -> None:
        if not self.browsing:
            self.query_one("#w-nam").focus()

    def apply_preset(self, name: str) -> None:
        self.query_one(ScoresPanel).apply_preset(name)

    # ------------------------------------------------------------------ documents
    def action_document(self, step: int) -> None:
        if self.corpus is None:
            return
        order = self.query_one(DocumentList).order()
        if self.doc_index in order:
            index = order[(order.index(self.doc_index) + step) % len(order)]
        else:
            index = self.doc_index + step
        self.show_document(index)

    # ------------------------------------------------------------------ errors
    def action_error(self, step: int) -> None:
        """n / p: the next or previous error; after the user paged the text away from the
        selected error, the first error from the top of the view on (or the last before it)."""
        if self.browsing:
            self.notify(NO_ERRORS_BROWSING, markup=False)
            return
        panel = self.error_panel()
        text = self.query_one(DocumentText)
        selected = self.selected_error
        away = (text.scroll_y > 0) if selected is None else not text.span_in_view(selected.mention.span)
        if not panel.move(step, text.first_visible_token() if away else None):
            if panel.state == "analysing" or self.corpus is None:
                self.notify("no errors yet: they are being analysed", markup=False)
                return
            filtered = panel.filters() != (None, None)
            name = short_name(self.corpus.pairs[self.doc_index].name)
            self.notify(f"no errors in {name}{' with this filter' if filtered else ''}", markup=False)

    def select_error(self, row: ErrorRecord | Change | None, focus_text: bool = False) -> None:
        """Emphasise an error's mention and antecedents and scroll the text to it."""
        self.selected_error = row
        if self.query_one(ContentSwitcher).current != "text" and focus_text:
            self.action_view("text")
        text = self.query_one(DocumentText)
        text.select(Selection.of(row))
        self._status()
        if focus_text:
            text.focus()

    # ------------------------------------------------------------------ export
    def action_export(self) -> None:
        from .screens import ExportScreen

        if self.browsing:
            self.notify("browsing a key alone: nothing scored to export", markup=False)
            return
        self.push_screen(ExportScreen(short_name(self.corpus.pairs[self.doc_index].name) if self.corpus else "corpus"),
                         self._export_chosen)

    def _export_chosen(self, choice: tuple[str, str, str] | None) -> None:
        if choice is not None:
            self.export(*choice)

    def export(self, scope: str, fmt: str, path: str | None = None, overwrite: bool = False) -> None:
        """Export in a worker (the errors of unopened documents are priced first: seconds on a
        large corpus, and the screen stays live meanwhile); an existing file is replaced only
        after the user says yes."""
        from .export import default_path
        from .screens import ConfirmScreen

        if self.result is None:
            self.notify("nothing scored yet", severity="warning")
            return
        source = self.export_source()
        path = path or default_path(source.label(scope), fmt)
        if os.path.exists(path) and not overwrite:
            def answered(yes: bool | None) -> None:
                if yes:
                    self.export(scope, fmt, path, overwrite=True)
                else:
                    self.notify("export cancelled", markup=False)

            self.push_screen(ConfirmScreen(f"{path} exists. Replace it?"), answered)
            return
        self.notify(f"exporting the {scope} as {fmt} ...", markup=False)
        self.run_worker(lambda: self._export_job(source, scope, fmt, path), thread=True, group="export")

    def _export_job(self, source: ExportSource, scope: str, fmt: str, path: str) -> None:  # in a worker thread
        from metrics.model import InputError

        from .export import write_export

        try:
            written = write_export(source, scope, fmt, path)
        except (InputError, OSError) as error:
            self.call_from_thread(self.notify, f"export failed: {error}", severity="error", markup=False)
        else:
            self.call_from_thread(self.notify, f"wrote {written}", markup=False)

    def write_export(self, scope: str, fmt: str, path: str | None = None) -> str:
        """Write the scores and the errors shown (the active filter applied) of the document or
        the corpus, here and now; see `export.write_export`."""
        from .export import write_export

        return write_export(self.export_source(), scope, fmt, path)

    def export_source(self) -> ExportSource:
        """What an export writes, taken from what is on screen (on the UI thread: the worker
        that writes it reads no widget)."""
        from .export import ExportSource

        if self.session is None or self.result is None or self.corpus is None:
            raise RuntimeError("nothing scored to export yet")
        return ExportSource(self.session, self.result, self.errors, frozenset(self.priced), self.weights, self.system,
                            self.corpus.pairs[self.doc_index].name, taxonomy=self.taxonomy,
                            filters=self.query_one(ErrorPanel).filters())


def shown(widget) -> bool:
    """Whether a widget is on screen: it and every container up to its screen displayed."""
    node = widget
    while node is not None and not isinstance(node, Screen):
        if not node.display:
            return False
        node = node.parent
    return True

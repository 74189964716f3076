"""What each panel shows of the shown system and document: the status line, the scores panel, the
error list and the chains view.  A mixin of `Workbench`.

Why apart from `app.py`: the app sets itself up, loads its inputs and routes messages; these
methods are what a change of document, mode, weights or system redraws, and they read only the
app's state (`corpus`, `result`, `errors`, `doc_index`, `mode_index`), never the engine.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import ContentSwitcher, Input, Static

from metrics.conventions.options import COREFUD

from ..output import departs_from_v801
from .datasets import dataset_label
from .documents import DocumentList
from .errorlist import ErrorPanel
from .rows import MODES, display_text, fit_status, score_lines, short_name, type_explanation
from .scores import ScoresPanel
from .text import DocumentText
from .views import ChainsView


class PanelsFilling:
    """The panels filled from the app's state (mixed into the App)."""

    def _set_status(self, text: str) -> None:
        """The top line: file and document names are data (a Text, never markup, controls shown)."""
        self.query_one("#status", Static).update(Text(display_text(text)))

    def mode_name(self) -> str:
        return MODES[self.mode_index]

    def _conventions_text(self) -> str:
        """The status line's CorefUD or UA conventions and matching; v8.01's go unsaid unless a
        setting departs from v8.01's own (another match, singletons removed), as every command's
        output says it (`output.conventions_header`)."""
        options = self.session.options
        # browsing a key alone: no scores to qualify
        shown = (options.conventions in ("corefud", "ua") or departs_from_v801(options)) and not self.browsing
        removed = ", no singletons" if options.conventions == "conll" and options.singletons == "remove" else ""
        return f"  {options.conventions} {options.match}{removed}" if shown else ""

    def _status(self) -> None:
        if self.corpus is None:
            return
        pair = self.corpus.pairs[self.doc_index]
        documents = self.query_one(DocumentList)
        conll = self.result.micro.get("conll") if self.result is not None else None
        corpus_text = f"  corpus CoNLL F1 {100 * conll.f1:.2f}" if conll is not None and not self.comparing else ""
        names = short = ""
        if self.comparing:  # the names `corefwb compare` prints when the line has room, else the short ones
            full, labels = self.response_names(), self.labels()
            corpus_text = names = f"  {full[self.system]} vs {full[self.baseline]}"
            short = f"  {labels[self.system]} vs {labels[self.baseline]}"
        if self.browsing:
            corpus_text = "  browsing the key alone: no scores, no errors"
        if self.session.warnings:
            corpus_text += f"  {(count := len(self.session.warnings))} warning{'s' * (count > 1)} (F5)"
        if documents.query_one("#doc-filter", Input).value:  # a filter hides documents: never unsaid
            corpus_text = f"  filter: {documents.listed}/{len(documents.rows)} documents (F6){corpus_text}"
        # below 130 columns the view and mode go unsaid here (the middle panel's title says them),
        # so that the scores and the warnings count stay on the line
        view = (f"  view: {self.query_one(ContentSwitcher).current}, {MODES[self.mode_index]}"
                if self.size.width >= 130 else "")
        tokens = f", {len(pair.key.words)} tokens" if self.size.width >= 130 or not self.comparing else ""
        line = (f"{dataset_label(self.crac_run)}{short_name(pair.name)}  ({documents.position(self.doc_index)}"
                f"{tokens}){self._conventions_text()}{view}{corpus_text}")
        self._set_status(fit_status(line, self.size.width - 2, short_name(pair.name), [  # the line's padding: 2
            (names, short), (tokens, ""), ("  corpus CoNLL F1 ", "  CoNLL F1 "), (" documents (F6)", " (F6)")]))
        text = self.query_one(DocumentText)
        text.set_title(f"text: {MODES[self.mode_index]}{self.system_label()}")
        room = (text.size.width or 60) - 6  # the border's corners and the subtitle's padding
        text.show_legend(self.comparing, self.session.options.conventions, room, self.relations_shown)
        if self.selected_error is not None:
            mention = self.selected_error.mention  # what a repair did to make it, else why it has its type
            text.border_subtitle = Text(text.repair_note(mention, room) or type_explanation(pair.key, pair.typed_spans(),
                                                                                            mention, room))

    def _show_scores(self) -> None:
        if self.corpus is None:
            return
        if self.comparing:
            self.show_comparison()
            return
        if self.result is None:
            return
        name = self.corpus.pairs[self.doc_index].name
        document = dict(self.result.documents).get(name)
        panel = self.query_one(ScoresPanel)
        panel.show_scores(score_lines(document, self.result.micro), self.start_micro,
                          say_nothing_counted=self.session.options.conventions == COREFUD)
        title = {None: f"{display_text(short_name(name))} / corpus", "corpus": "corpus (d: document)",
                 "document": "document (d: corpus)"}[panel.scope]
        panel.border_title = Text(f"scores: {title}")  # a name is data

    def _show_errors(self, keep_cursor: bool = False, defer: bool = False) -> None:
        if self.corpus is None:
            return
        panel = self.query_one(ErrorPanel)
        name = self.corpus.pairs[self.doc_index].name
        # single mode: the errors of the previous weights stay listed until the new ones arrive
        rows = self.document_changes(name) if self.comparing else (
            self.errors.get(name, []) if self.errors is not None else None)
        if rows is None:
            rows = self.previewed(name)
        if rows is None:
            failed = any(self.view_of(s).errors is None and self.view_of(s).errors_weights == self.weights
                         for s in self.shown_systems())
            panel.set_rows(None, state="failed" if failed else "analysing")
            return
        panel.set_rows(rows, keep_cursor, defer)

    def _show_chains(self) -> None:
        """Fill the chains view, unless it already shows this document in this theme."""
        shown = (self.doc_index, self.theme)
        if self._chains_shown == shown:
            return
        self._chains_shown = shown
        pair = self.corpus.pairs[self.doc_index]
        key_rows, response_rows = self.chains_of(pair)
        self.query_one(ChainsView).show(key_rows, None if self.browsing else response_rows, self.chains_legends())

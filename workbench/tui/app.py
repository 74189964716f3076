"""The coref-workbench terminal application (Textual).

Shape (../shared/docs/tui.md): documents on the left, the bracketed text or the chains in the
middle, scores and weights on the right, errors below.  The engine (`metrics`) does all the work in
worker threads that never touch widgets (`workers.py`): loading posts `Loaded`, a weight edit starts
an exclusive rescoring worker (a newer edit cancels the older) that posts `Rescored`, then
`ErrorsReady`; the impacts of the shown document's errors are priced by a third worker
(`ImpactsReady`).  With several responses the app is in compare mode (`comparing.py`).
Widgets are told what to show (attributes down) and report user actions as messages (messages up).
"""

from __future__ import annotations

import gc
import time
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Sequence

from textual import on, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import ContentSwitcher, Footer, ProgressBar, Static

from metrics.errors.chen_ng.records import ErrorRecord
from metrics.corpus.scoring import CorpusResult
from metrics.measures.weights import W4, Weights
from metrics.statistics.significance import Comparison

from ..comparison import Change
from ..session import LoadOptions, Session
from .comparing import ComparedPair, Comparing, SystemView, shown_at_start
from .datasets import DatasetRun, DatasetSwitching
from .documentrows import document_rows
from .documents import DocumentList
from .errorlist import ErrorPanel
from .filling import PanelsFilling
from .messages import EngineFault, LoadFailed, Loaded, Progress, while_running
from .navigation import Navigation
from .opening import UNREADABLE, Opening, first_typed, load_session
from .palette import system_commands
from .taxonomy import TaxonomySwitching
from .relating import RELATION_BINDINGS, RelationsShowing
from .rows import MODES
from .scores import ScoresPanel
from .text import DocumentText
from .theme import DARK, LIGHT, TYPE_VARIABLES_DARK, steady_cursors
from .views import ChainsView, WarningsView
from .workers import Workers

if TYPE_CHECKING:  # the analysis loads when the entity list is first asked for
    from .kkpacked import PackedKKErrors

HERE = Path(__file__).resolve().parent
SAMPLE_KEY = "samples/gum/key.gum.conll"
SAMPLE_RESPONSE = "samples/gum/response.gum.conll"
GC_THRESHOLDS = (100_000, 50, 50)
"""The cyclic collector's thresholds while the app runs.  Drawing a frame makes tens of thousands of
short-lived objects (text, segments, strips): at Python's (700, 10, 10) an F9 switch ran 50
collections, 10-70 ms of it, some over every live object; at these, none (median switch 124 ms
against 171).  Long-lived data is frozen (`gc.freeze`), and the rare cycles are still collected."""


class Workbench(Workers, Comparing, Navigation, PanelsFilling, DatasetSwitching, TaxonomySwitching, RelationsShowing, App):
    """Score a key against a response and browse the errors (or browse a key alone, or compare
    several responses: `comparing.py`)."""

    TITLE = "coref-workbench"
    CSS_PATH = HERE / "workbench.tcss"
    ENABLE_COMMAND_PALETTE = True
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (130, "-wide")]
    """Below 130 columns the documents list starts hidden (F6 shows it in the scores panel's place)."""
    VERTICAL_BREAKPOINTS = [(0, "-short"), (40, "-tall")]
    """Below 40 rows the error panel is shorter and the scores panel scrolls."""
    BINDINGS = [
        Binding("f1,question_mark", "help", "Help", id="app.help"),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
        Binding("q", "quit", "Quit (when no box has focus)", show=False, id="app.quit_q"),
        Binding("f2", "view('text')", "Text view", show=False, id="view.text"),
        Binding("f3", "view('chains')", "Chains", show=False, id="view.chains"),
        Binding("f5", "view('warnings')", "Warnings", show=False, id="view.warnings"),
        Binding("f4,m", "cycle_mode", "Key/resp/both mentions", show=False, id="view.mode"),
        Binding("f6", "toggle_panel('documents')", "Docs", id="panel.documents"),
        Binding("f7", "toggle_panel('scores')", "Scores", id="panel.scores"),
        Binding("f8", "charts", "Charts", id="view.charts"),
        Binding("f9", "next_system", "Switch", id="system.next"),
        Binding("c", "cycle_change", "Changes", id="errors.change"),
        Binding("f9,c", "compare_only", show=False, id="compare.only"),  # F9 or c with one response: why nothing
        Binding("d", "scores_scope", "Scores: the document's / the corpus's (below 130 columns)", show=False,
                id="scores.scope"),
        Binding("i", "sort_errors", "Sort errors by impact / in text order", show=False, id="errors.sort"),
        Binding("t", "taxonomy", "Errors per mention (Chen & Ng) / per entity (Kummerfeld & Klein) / of the UA relations (ua)", show=False,
                id="errors.taxonomy"),
        Binding("n", "error(1)", "Next error", id="error.next"),
        Binding("p", "error(-1)", "Previous error", show=False, id="error.previous"),
        Binding("ctrl+down,right_square_bracket", "document(1)", "Next document", show=False, id="document.next"),
        Binding("ctrl+up,left_square_bracket", "document(-1)", "Previous document", show=False, id="document.previous"),
        Binding("left_curly_bracket", "dataset(-1)", "Previous dataset", show=False, id="dataset.previous"),
        Binding("right_curly_bracket", "dataset(1)", "Next dataset", show=False, id="dataset.next"),
        Binding("slash", "focus_filter", "Filter documents by name", show=False, id="document.filter"),
        Binding("escape", "focus_text", "Back to the text", show=False, id="text.focus"),
        Binding("ctrl+w", "focus_weights", "Edit the weights", show=False, id="weights.focus", priority=True),
        Binding("ctrl+e", "export", "Export", id="app.export"),
        # a key browsed alone: F7, F8, n, p and ctrl+e give way (`check_action`: off the footer) to
        # these, which say why nothing happens (their actions' own notices)
        Binding("f7", "browsing_key('toggle_panel', 'scores')", show=False, id="browse.scores"),
        Binding("f8", "browsing_key('charts')", show=False, id="browse.charts"),
        Binding("n", "browsing_key('error', 1)", show=False, id="browse.next"),
        Binding("p", "browsing_key('error', -1)", show=False, id="browse.previous"),
        Binding("ctrl+e", "browsing_key('export')", show=False, id="browse.export"),
        Binding("f10", "toggle_theme", "Dark / light theme", show=False, id="app.theme"), *RELATION_BINDINGS,
    ]
    HELP = """\
coref-workbench: a key (gold) and a response (system) scored as their conventions' official scorer
does (v8.01, corefud-scorer, the UA scorer), plus Chen & Ng's LMUC, LB3, LCEAFm, LCEAFe under the
weights W = (w_nam, w_nom, w_pro, w_sing).  N name, M nominal, P pronoun.  A key alone: its text
and chains, for browsing.
"""

    def __init__(self, key_path: str, response_paths: str | Sequence[str], options: LoadOptions = LoadOptions(), *,
                 weights: Weights = W4, opening: Opening | None = None, run: DatasetRun | None = None) -> None:
        """`opening`: the inputs read and their scoring started before the UI (`opening.py`);
        without it the app loads them in a worker, behind a progress bar.  `run`: the datasets of
        a CRAC run, this app showing one of them (`datasets.py`)."""
        super().__init__()
        self.crac_run = run
        self.opening = opening
        self._gc_thresholds = gc.get_threshold()
        self.key_path = key_path
        self.response_paths = [response_paths] if isinstance(response_paths, str) else list(response_paths)
        self.browsing = not self.response_paths
        """A key alone: its text and chains, no scores and no errors."""
        self.options = options
        self.weights = weights
        self.session: Session | None = None
        self.comparing = len(self.response_paths) > 1
        """Compare mode (several responses): `comparing.py`."""
        self.system, self.baseline = shown_at_start(len(self.response_paths))[0], 0
        """The response shown (compare mode: the one compared with the baseline), by its place, and
        in compare mode the system the others are compared with (the first response to start with)."""
        self.views: dict[int, SystemView] = {}
        """Per system: its latest scores and errors."""
        self.intervals: dict[ComparedPair, Comparison] = {}
        """Compare mode: the differences of a compared system to its baseline, with their intervals."""
        self.start_weights = weights
        self.start_micro: dict | None = None
        """Corpus scores under the starting weights: the ΔF column compares against them."""
        self._documents_pair: tuple | None = None
        """The pair of systems (and weights) the documents list's scores are of."""
        self.doc_index = 0
        self.mode_index = MODES.index("key" if self.browsing else "both")
        self.selected_error: ErrorRecord | Change | None = None
        """The error picked in the list (compare mode: a change)."""
        self.taxonomy, self.relation_errors = ("ua" if options.conventions == "ua" else "chen-ng"), {}
        """The error list's taxonomy: chen-ng (a row per mention) or kk (per entity error), `t`."""
        self.entity_errors: dict[int, PackedKKErrors | None] = {}
        """K&K's errors per system, once asked for (None: the analysis failed)."""
        self.kk_pending: set[int] = set()
        self._edit_started = self.last_rescore_seconds = 0.0
        self.settled_weights: Weights | None = None
        """The weights whose scores and errors are all on screen (tests and benchmarks wait on it)."""
        self._price_timer: Timer | None = None
        self._dataset_timer: Timer | None = None
        """A CRAC run: polls the datasets list's scores until they come (`datasets.py`)."""
        self._chains_shown: tuple[int, str] | None = None
        self.load_failed = False
        """The files could not be read: the message stays on screen, and the exit status is 1."""
        self.register_theme(DARK)
        self.register_theme(LIGHT)
        self.theme = "corefwb-dark"

    @property
    def corpus(self):
        """The prepared corpus of the response shown (None while loading)."""
        return self.session.corpora[self.system] if self.session is not None else None

    @property
    def result(self) -> CorpusResult | None:
        """The shown system's latest scores."""
        return self.view_of(self.system).result

    @property
    def errors(self) -> dict[str, list[ErrorRecord]] | None:
        """The shown system's error records per document (under `errors_weights`)."""
        return self.view_of(self.system).errors

    @property
    def errors_weights(self) -> Weights | None:
        return self.view_of(self.system).errors_weights

    @property
    def priced(self) -> set[str]:
        return self.view_of(self.system).priced

    # ------------------------------------------------------------------ setup
    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(TYPE_VARIABLES_DARK)

    def compose(self) -> ComposeResult:
        yield Static("", id="status")
        yield ProgressBar(id="progress", show_eta=False)
        with Horizontal(id="upper"):
            yield DocumentList(id="doclist")
            with ContentSwitcher(initial="text", id="centre"):
                yield DocumentText(id="text")
                yield ChainsView(id="chains")
                yield WarningsView(id="warnings")
            yield ScoresPanel(id="scorepanel", weighs_zeros=self.options.weighs_zeros)
        # compare mode's class from the start: added after mounting, it restyles the whole panel
        yield from self.error_panels()
        yield Footer()

    def on_resize(self, event) -> None:
        """Below 130 columns the footer is compact, so every key still fits at 100, and the scores
        panel shows one scope (`d` switches), so the text and the chains keep their room."""
        for footer in self.screen.query(Footer):
            footer.compact = event.size.width < 130
        for panel in self.query(ScoresPanel):
            panel.narrow(event.size.width < 130)
            self._show_scores()
            self._status()

    def on_load(self) -> None:
        """The app starts: the collector takes the app's thresholds (from its first frame on)."""
        self._gc_thresholds = gc.get_threshold()
        gc.set_threshold(*GC_THRESHOLDS)

    def on_mount(self) -> None:
        self._set_status(f"loading {' and '.join([self.key_path, *self.response_paths])}")
        progress = self.query_one("#progress", ProgressBar)
        progress.update(total=3 + 2 * len(self.response_paths), progress=0)
        progress.display = self.opening is None  # read before the UI: nothing to wait for in a bar
        self.query_one(ScoresPanel).show_weights(self.weights)
        self.query_one(ErrorPanel).set_rows(None, state="analysing")
        if self.browsing:
            self.screen.add_class("-browsing")
            self.query_one(DocumentList).browse()
        self.query_one(DocumentText).focus()
        self.mount_datasets()
        steady_cursors(self.screen)
        if self.opening is None:
            self.load()
        elif self.opening.session is None:
            self._load_failed(LoadFailed(self.opening.failure or UNREADABLE))
        else:  # once laid out: the text and the error rows fill the frame the scores come in
            self.call_after_refresh(self._opened, self.opening)

    def _opened(self, opening: Opening) -> None:
        """Take what was read and started before the UI (`opening.py`).  The shown systems' official
        scores are waited for here (their children have them by now or within tens of milliseconds),
        so the first frame with anything in it shows them (a worker's message would come a frame later)."""
        for system, preview in opening.preview.items():
            self.view_of(system).preview = preview
        for system, children in opening.scoring.items():
            view = self.view_of(system)
            view.scoring = children
            # A long first document's (a UA book's) text is laid out first, its scores taken by the
            # scoring worker when they come: waited for here, they held the UI thread for seconds.
            if system in self.shown_systems() and not opening.errors_deferred:
                try:
                    view.result = children.stage(0)
                except Exception:  # noqa: BLE001 - a child failed: the scoring worker scores here
                    view.result = None
        if self.result is not None:
            self.start_micro = self.result.micro
        self._loaded(Loaded(opening.session))

    def on_unmount(self) -> None:
        gc.set_threshold(*self._gc_thresholds)
        if self.opening is not None:
            self.opening.close()

    @work(thread=True, exclusive=True, group="load")
    def load(self) -> None:
        """Read both files, align every document pair, score: all off the UI thread."""
        session, failure = load_session(self.key_path, self.response_paths, self.options,
                                        stage=lambda label: self.post_message(Progress(label)))
        if session is not None:
            self.post_message(Progress("typing the mentions"))
            first_typed(session, shown_at_start(len(self.response_paths)))
        self.post_message(Loaded(session) if session is not None else LoadFailed(failure or UNREADABLE))

    @on(Progress)
    @while_running
    def _progress(self, message: Progress) -> None:
        self.query_one("#progress", ProgressBar).advance(1)
        self._set_status(f"{message.label} ...")

    @on(EngineFault)
    @while_running
    def _engine_fault(self, message: EngineFault) -> None:
        self.notify(message.text, severity="error", timeout=15, markup=False)

    @on(LoadFailed)
    def _load_failed(self, message: LoadFailed) -> None:
        self.load_failed = True  # the exit status says so even when the user quit meanwhile
        self._show_load_failure(message.text)

    @while_running
    def _show_load_failure(self, text: str) -> None:
        """The message of files that could not be read, on screen until the user quits."""
        self.query_one("#progress", ProgressBar).display = False
        self.query_one(ErrorPanel).set_rows(None, state="failed")  # not "analysing": nothing will come
        self._set_status(self.query_one(WarningsView).show_failure(text, self.size.width - 2))  # all of it there
        self.action_view("warnings")
        self.notify(text, severity="error", timeout=30, markup=False)

    @on(Loaded)
    @while_running
    def _loaded(self, message: Loaded) -> None:
        self.session = message.session
        # The corpus lives as long as the app: move it out of the cyclic collector's sight, or its
        # full passes over millions of objects stall frames by 100-200 ms.  (Frozen objects are
        # still freed by reference counting when dropped, e.g. the records of older weights.)
        gc.freeze()
        self.query_one(WarningsView).show(self.session.warnings, self.options.every_warning)
        if self.comparing:  # the list waits for both systems' scores: its order is by their difference
            self.setup_compare()
        else:
            self.query_one(DocumentList).set_rows(document_rows(self.session.document_names(), None, None))
        if self.result is not None:  # scored before the UI started (`_opened`): all in the first frame
            self.query_one("#progress", ProgressBar).display = False
            self.refresh_documents()
        self.show_document(self.top_document())
        if self.result is not None:
            self._show_errors()
        if self.browsing:
            self.query_one("#progress", ProgressBar).display = False
            self.settled_weights = self.weights
        else:
            self.rescore(self.weights)

    # ---------------------------------------------------------------- scoring
    @on(ScoresPanel.WeightsEdited, "#scorepanel")
    @while_running
    def _weights_edited(self, message: ScoresPanel.WeightsEdited) -> None:
        self.weights_typed(message.weights)

    def rescore(self, weights: Weights) -> None:
        self.weights = weights
        self._edit_started = time.perf_counter()
        self.query_one(ScoresPanel).set_status("scoring ...")
        self._rescore_worker(weights, self._edit_started)

    def refresh_documents(self) -> None:
        """The documents list's scores: of the shown system, with the baseline's in compare mode.
        Redrawn only when what it shows changed: W changes CoNLL and MUC not, error counts may."""
        result = self.result
        baseline = self.view_of(self.baseline).result if self.comparing else None
        if result is None or (self.comparing and baseline is None):
            return
        counted = self.errors is not None and not self.comparing
        shown = (self.baseline, self.system, self.errors_weights if counted else None)  # counts follow W
        if shown == self._documents_pair:
            return
        self._documents_pair = shown
        documents = self.query_one(DocumentList)
        documents.current = self.doc_index
        documents.set_rows(document_rows([pair.name for pair in self.corpus.pairs], result.documents,
                                         self.errors if counted else None, baseline.documents if baseline else None))

    # ------------------------------------------------------------ documents
    @on(DocumentList.Reordered, "#doclist")
    @while_running
    def _reordered(self) -> None:
        if self.query(DocumentList):  # not under another screen (the charts)
            self._status()

    @on(DocumentList.Chosen, "#doclist")
    @while_running
    def _chosen(self, message: DocumentList.Chosen) -> None:
        self.show_document(message.index)

    def show_document(self, index: int) -> None:
        """Show document `index` in the text, chains, scores and error views."""
        if self.corpus is None or not self.corpus.pairs:
            return
        self.doc_index = index = max(0, min(index, len(self.corpus.pairs) - 1))
        self.query_one(DocumentList).show_current(index)
        pair = self.corpus.pairs[index]
        self.selected_error = None
        if self.comparing:
            self.show_compared_text(index)
        else:
            self.query_one(DocumentText).show(pair.key, pair.response, pair.types, MODES[self.mode_index], relations=self.relations_of(pair))
        if self.query_one(ContentSwitcher).current == "chains":
            self._show_chains()
        self._show_scores()
        self._show_errors(defer=True)
        self.show_entity_errors()
        self._status()
        if not self.browsing and self.errors is not None and self.errors_weights == self.weights:
            self.settled_weights = None
            # Debounced: pricing starts once the user stays 150 ms on a document, so flipping
            # through documents is not slowed by a pricing thread competing for the GIL.
            if self._price_timer is not None:
                self._price_timer.stop()
            self._price_timer = self.set_timer(0.15, self._price_current)

    # --------------------------------------------------------------- errors
    @on(ErrorPanel.Picked, "#errorpanel")
    @while_running
    def _picked(self, message: ErrorPanel.Picked) -> None:
        self.select_error(message.row, focus_text=message.jump)

    def watch_theme(self, theme: str) -> None:
        """Tables hold resolved type colours: redraw them in the new theme's colours."""
        if self.corpus is not None and self.is_mounted:
            self._show_errors()
            self.show_entity_errors()
            if self.query_one(ContentSwitcher).current == "chains":
                self._show_chains()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Palette: jump to a document, switch view or mode, weights, export, theme, quit."""
        return system_commands(self)

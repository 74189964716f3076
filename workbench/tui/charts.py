"""The charts view (F8): what the figures of `corefwb plot` show, drawn in the terminal.

Three tabs, each a plotext chart (textual-plotext, a maintained Textual widget for the plotext
library; nothing is drawn by hand):
- Sweep: Chen & Ng's Figure 3 for the loaded responses: a chart per LMetric, x the responses, a
  line per weight vector W1..W5, one for the current weights ("now", which follows an edit of the
  weights the next time the view opens), and the OMetric.
- Errors: errors by category x mention type as grouped bars, per system, for the shown document or
  the corpus (d switches).
- Documents: per-document CoNLL F1, a histogram for one system, in compare mode a scatter of the
  compared system against the baseline, a point per document.
- K&K stages: Kummerfeld & Klein's figure, the CoNLL F1 after correcting each error type in turn
  (BCA's order), bars per system; computed after the others (the K&K analysis of each system).
The data come from `workbench.charts` in a worker thread (the sweep rescores the LMetrics under
six weight vectors).  Every line has its own marker character, so the charts read without colour
(NO_COLOR) as well as in either theme.
"""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.color import Color
from textual.containers import Grid
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static, TabbedContent, TabPane
from plotext._utility import hist_data
from textual_plotext import PlotextPlot

from metrics.measures.catalog import label
from metrics.errors.chen_ng.records import shown_types
from metrics.measures.weights import Weights
from metrics.model import MentionType

from ..charts import SWEEP_PANELS, DocumentScores, ErrorCounts, Stages, Sweep, document_scores, error_counts, kk_stages, \
    sweep
from ..names import short_labels
from ..session import Session
from .entityerrors import SHORT
from .messages import while_running
from .theme import CHART_COLOURS

MARKERS = {"W1": "1", "W2": "2", "W3": "3", "W4": "4", "W5": "5", "now": "*"}
"""One character per line: the lines differ without colour."""
OFFICIAL_MARKER = "O"
BAR_MARKERS = "#=.o"
"""Fill of the name, nominal, pronoun and zero bars."""


class ChartsScreen(Screen[None]):
    """The three charts of the loaded systems (see the module docstring)."""

    BINDINGS = [Binding("escape,f8,q", "app.pop_screen", "Close", id="charts.close"),
                Binding("d", "toggle_scope", "Document / corpus errors", id="charts.scope")]
    APP_ACTIONS = ("quit", "help", "toggle_theme", "command_palette", "pop_screen")
    """The main screen's keys (next error, views, panels) have nothing to act on here."""
    HELP = """Charts of the loaded responses: Sweep (Chen & Ng's Figure 3: each LMetric under W1..W5, the
    current weights and the OMetric, across responses), Errors (category x mention type, d: document
    or corpus), Documents (CoNLL F1 per document), K&K stages (the CoNLL F1 after correcting
    each of Kummerfeld & Klein's error types in turn, per system). Lines are marked 1-5 (W1..W5), * (now), O (OMetric)."""

    class ChartsReady(Message):
        """The charts' data (workbench.charts), computed off the UI thread."""

        def __init__(self, sweep: Sweep, errors: ErrorCounts, documents: DocumentScores) -> None:
            super().__init__()
            self.sweep = sweep
            self.errors = errors
            self.documents = documents

    class StagesReady(Message):
        """The K&K stages (workbench.charts.kk_stages) of the corpus or of one document, after the
        other charts; empty when the analysis failed."""

        def __init__(self, stages: Stages) -> None:
            super().__init__()
            self.stages = stages

    def __init__(self, session: Session, systems: list[str], weights: Weights, *, document: str | None = None,
                 pair: tuple[int, int] | None = None) -> None:
        """The charts of `session`'s systems (named `systems`) under `weights` (the "now" line
        and the error counts); `document`: the one on screen (`d` shows its errors)."""
        super().__init__()
        self.session = session
        self.systems = systems
        self.weights = weights
        self.pair = pair
        """Compare mode: (baseline, compared system), the axes of the documents scatter."""
        self.document = document
        self.scope_document = document is not None
        self.sweep_data: Sweep | None = None
        self.error_data: ErrorCounts | None = None
        self.document_data: DocumentScores | None = None
        self.stage_data: Stages | None = None
        """The stages shown: of the document in the document scope, else of the corpus."""
        self._stages: dict[str | None, Stages] = {}
        """Stages computed, by document (None: the corpus), so `d` back and forth recomputes nothing."""

    def compose(self) -> ComposeResult:
        with TabbedContent(id="charts"):
            with TabPane("Sweep", id="tab-sweep"):
                with Grid(id="sweep-grid"):
                    for lmetric, _ in SWEEP_PANELS:
                        yield PlotextPlot(id=f"sweep-{lmetric}")
            with TabPane("Errors", id="tab-errors"):
                with Grid(id="errors-grid", classes="-one" if len(self.systems) == 1 else ""):
                    for system in range(len(self.systems)):
                        yield PlotextPlot(id=f"errors-{system}")
            with TabPane("Documents", id="tab-documents"):
                yield PlotextPlot(id="documents-plot")
            with TabPane("K&K stages", id="tab-stages"):
                yield PlotextPlot(id="stages-plot")
        yield Static("computing the charts ...", id="charts-status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Footer).compact = self.app.size.width < 130  # as the main screen's: every key fits
        for plot in self.query(PlotextPlot):  # scoring every system under W1..W5 takes a while
            plot.plt.title("computing ...")
            plot.refresh()
        self.compute()
        self.app.theme_changed_signal.subscribe(self, lambda theme: self.draw())

    def _colours(self) -> tuple[tuple[int, int, int], ...]:
        """The chart colours of the app's theme, as plotext takes them (RGB)."""
        palette = CHART_COLOURS.get(self.app.theme, CHART_COLOURS["corefwb-dark"])
        return tuple(rgb(colour) for colour in palette)

    def _type_colours(self, kinds: list[MentionType]) -> list[tuple[int, int, int]]:
        variables = self.app.theme_variables
        return [Color.parse(variables[f"type-{t.name.lower()}"]).rgb for t in kinds]

    @work(thread=True, exclusive=True, group="charts")
    def compute(self) -> None:
        """The charts' data, then the K&K stages (once), each posted to this screen."""
        session, weights = self.session, self.weights
        document = self.document if self.scope_document else None
        data = (sweep(session, self.systems, [("now", weights)]), error_counts(session, self.systems, weights, document),
                document_scores(session, self.systems, weights))
        self.app.call_from_thread(self.post_message, self.ChartsReady(*data))
        if document not in self._stages:
            try:
                stages = kk_stages(session, self.systems, document)
            except Exception:  # noqa: BLE001 - an optional chart: the tab says it is not available
                stages = Stages([], [], [], document)
            self.app.call_from_thread(self.post_message, self.StagesReady(stages))

    @on(StagesReady)
    @while_running
    def _stages_ready(self, message: ChartsScreen.StagesReady) -> None:
        self._stages[message.stages.document] = message.stages
        self._show_stages()

    def _show_stages(self) -> None:
        """The stages of the scope shown (`d`), once computed."""
        self.stage_data = self._stages.get(self.document if self.scope_document else None)
        if self.stage_data is not None:
            self._draw_stages(self.query_one("#stages-plot", PlotextPlot))

    @on(ChartsReady)
    @while_running
    def _ready(self, message: ChartsScreen.ChartsReady) -> None:
        self.sweep_data, self.error_data, self.document_data = message.sweep, message.errors, message.documents
        self._show_status()
        self.stage_data = self._stages.get(self.document if self.scope_document else None)
        self.draw()

    @on(TabbedContent.TabActivated)
    def _tab_shown(self) -> None:
        self._show_status()
        self.refresh_bindings()  # `d` shows in the footer on the tabs it changes only

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`d` (document or corpus) where it changes something: the Errors and K&K stages tabs, with
        a document open; the Sweep and Documents tabs always cover the corpus (`CORPUS_TABS`), and
        the footer showed `d` there though it did nothing."""
        if action == "toggle_scope":
            tabs = self.query("#charts").results(TabbedContent)
            active = next(tabs, None)
            return self.document is not None and (active is None or active.active not in CORPUS_TABS)
        return True

    def _show_status(self) -> None:
        """The line under the charts: what the shown tab covers, and the systems' short names.  The
        sweep and the documents always cover the corpus; the errors and the stages follow `d`."""
        if self.sweep_data is None:  # still computing: the line says so
            return
        labels = short_labels(self.systems)
        legend = ", ".join(f"{s} = {n}" for s, n in zip(labels, self.systems) if s != n) or ", ".join(self.systems)
        tab = self.query_one("#charts", TabbedContent).active
        what = TAB_SUBJECTS.get(tab, "errors")
        if tab in CORPUS_TABS:
            scope = what
        else:
            scope = f"{what} of this document (d: corpus)" if self.scope_document else f"{what} of the corpus" + (
                " (d: this document)" if self.document is not None else "")
        self.query_one("#charts-status", Static).update(Text(f"{scope}; {legend}"))

    def action_toggle_scope(self) -> None:
        if self.document is None:
            return
        self.scope_document = not self.scope_document
        self.compute()

    def draw(self) -> None:
        if self.sweep_data is not None:
            for lmetric, ometric in SWEEP_PANELS:
                self._draw_sweep(self.query_one(f"#sweep-{lmetric}", PlotextPlot), lmetric, ometric)
        if self.error_data is not None:
            for system in range(len(self.systems)):
                self._draw_errors(self.query_one(f"#errors-{system}", PlotextPlot), system)
        if self.document_data is not None:
            self._draw_documents(self.query_one("#documents-plot", PlotextPlot))
        if self.stage_data is not None:
            self._draw_stages(self.query_one("#stages-plot", PlotextPlot))

    def _draw_sweep(self, widget: PlotextPlot, lmetric: str, ometric: str) -> None:
        """The legend is the title (plotext's own sits over the lines in a small chart)."""
        data, plt = self.sweep_data, widget.plt
        plt.clear_data()
        x = list(range(1, len(data.systems) + 1))
        colours = self._colours()
        series = [(data.lines[lmetric][name], MARKERS.get(name, "+"), colour)
                  for (name, _), colour in zip(data.weights, colours)]
        series.append((data.official[lmetric], OFFICIAL_MARKER, colours[-1]))
        shifted = spread_shared_points([values for values, _, _ in series])
        for (values, marker, colour), xs in zip(series, shifted):
            plt.plot(xs, values, marker=marker, color=colour)
        plt.xlim(0.5, len(x) + 0.5)
        plt.xticks(x, short_labels(data.systems))
        plt.title(f"{label(lmetric)}: 1-5 = W1..W5, * = now; {OFFICIAL_MARKER} = {label(ometric)}")
        plt.xlabel("response")
        plt.ylabel("F1 %")
        widget.refresh()

    def _draw_errors(self, widget: PlotextPlot, system: int) -> None:
        data, plt = self.error_data, widget.plt
        plt.clear_data()
        counts = data.counts[system]
        categories = list(counts)
        kinds = shown_types(counts)
        plt.multiple_bar([c.short for c in categories], [[counts[c][t] for c in categories] for t in kinds],
                         marker=list(BAR_MARKERS[:len(kinds)]), color=self._type_colours(kinds))
        legend = "  ".join(f"{m} {t.name.lower()}" for m, t in zip(BAR_MARKERS, kinds))
        plt.title(f"{short_labels(data.systems)[system]}: {legend}")
        plt.xlabel("error category")
        plt.ylabel("errors")
        plt.yticks(whole_ticks(max((counts[c][t] for c in categories for t in kinds), default=0)))
        widget.refresh()

    def _draw_stages(self, widget: PlotextPlot) -> None:
        data, plt = self.stage_data, widget.plt
        plt.clear_data()
        if not data.systems:
            plt.title("K&K stages: the analysis is not available")
            widget.refresh()
            return
        n = len(data.systems)
        colours = self._colours()
        plt.multiple_bar([STAGE_LABELS[s] for s in data.stages], data.f1, marker=list(SYSTEM_MARKERS[:n]),
                         color=[colours[i % len(colours)] for i in range(n)])
        low = min(min(values) for values in data.f1)
        plt.ylim(max(0.0, 10 * (low // 10) - 10), 100)  # the gains, not a wall of bars from 0
        # "none" is the CoNLL F1 of the files as BCA reads them (a repeated span kept once), which
        # the scores panel's v8.01 figure can differ from: the title says whose reading it is
        scope = "the corpus" if data.document is None else "this document"
        plt.title(f"CoNLL F1 of {scope} (BCA's reading) after correcting each K&K type in turn: "
                  + "  ".join(f"{m} {s}" for m, s in zip(SYSTEM_MARKERS, short_labels(data.systems))))
        plt.xlabel("after correcting (BCA's order)")
        plt.ylabel("CoNLL F1 %")
        widget.refresh()

    def _draw_documents(self, widget: PlotextPlot) -> None:
        data, plt = self.document_data, widget.plt
        plt.clear_data()
        if len(data.systems) == 1:
            plt.hist(data.f1[0], bins=HISTOGRAM_BINS, marker="#", color=self._colours()[2])
            # the counts plotext draws (its own binning), so that the top tick is the tallest bar's
            plt.yticks(whole_ticks(max(hist_data(data.f1[0], HISTOGRAM_BINS)[1], default=0)))
            plt.title(f"CoNLL F1 per document: # = documents ({len(data.documents)})")
            plt.xlabel("CoNLL F1 % of a document")
            plt.ylabel("documents")
        else:
            x, y = self.pair or (0, 1)
            a, b = (short_labels(data.systems)[s] for s in (x, y))
            plt.scatter(data.f1[x], data.f1[y], marker="o", color=self._colours()[2])
            plt.plot([0, 100], [0, 100], marker=".", color=self._colours()[-2])
            plt.title(f"CoNLL F1 per document, {b} (y) against {a} (x): o = a document, . = equal")
            plt.xlabel(f"{a} F1 %")
            plt.ylabel(f"{b} F1 %")
        widget.refresh()


def rgb(colour: str) -> tuple[int, int, int]:
    """`#rrggbb` as plotext takes a colour."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


CORPUS_TABS = ("tab-sweep", "tab-documents")
"""The tabs that cover the corpus whatever `d` says (their status line names no scope)."""
TAB_SUBJECTS = {"tab-sweep": "scores of the corpus", "tab-documents": "every document of the corpus",
                "tab-errors": "errors", "tab-stages": "K&K stages"}
"""What each tab shows, as the line under the charts says it: the sweep's and the documents' cover
the corpus whatever `d` chose; the errors and the stages are of the scope `d` chose."""
HISTOGRAM_BINS = 20
MOST_TICKS = 5
"""Ticks on a count axis at most: plotext's own gave 0.17, 0.33 to counts of 0 to 1."""


def whole_ticks(top: int, most: int = MOST_TICKS) -> list[int]:
    """Ticks of an axis of counts from 0 to `top`: whole numbers, at most `most` steps, each
    1, 2 or 5 times a power of ten (0, 5, 10 ... 25 for 23)."""
    scale = 1
    while True:
        for factor in (1, 2, 5):
            if top <= most * factor * scale:
                return list(range(0, int(top) + 1, factor * scale))
        scale *= 10


STAGE_LABELS = {"none": "none", **SHORT}
"""The stages' x labels: the K&K list's abbreviations."""
SYSTEM_MARKERS = "#=.o+x"
"""Fill of each system's bars in the stages chart: they differ without colour."""


ROWS = 24
"""About as many rows as a sweep chart has: values closer than the range over this share a cell."""
SHARED_STEP = 0.07
"""How far apart (in systems along the x axis) markers of one shared point are drawn: about
three characters in a chart of one system."""


def spread_shared_points(series: list[list[float]]) -> list[list[float]]:
    """The x position of each series' points (system i at i + 1), with the markers of series that
    share a point (equal values at one system) set side by side around it, so that every label of
    a shared point shows (W1..W3 equal in LB3 drew only the last one)."""
    xs = [[float(i + 1) for i in range(len(values))] for values in series]
    every = [float(v) for values in series for v in values]
    near = (max(every) - min(every)) / ROWS if every else 0.0  # closer than a row of the chart: one point
    for i in range(max((len(v) for v in series), default=0)):
        here = sorted((float(values[i]), s) for s, values in enumerate(series) if i < len(values))
        groups: list[list[int]] = []
        last = None
        for value, s in here:
            if last is None or value - last > near:
                groups.append([])
            groups[-1].append(s)
            last = value
        for members in groups:
            members.sort()
            for k, s in enumerate(members):
                xs[s][i] += (k - (len(members) - 1) / 2) * SHARED_STEP
    return xs

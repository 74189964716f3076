"""The scores panel: R/P/F of the document and the corpus, and the weight vector W the LMetrics use.

Why it scrolls as a whole: twenty metrics and the weight editor need 25 rows, a 100x30 terminal
gives the panel 16.  The table is as tall as its rows (it never scrolls on its own, so its last
column is never hidden behind a scrollbar), and the panel scrolls; focusing a weight box (ctrl+w)
brings the editor into view.  The preset buttons are for the mouse: they are outside the Tab
order, so Shift+Tab cannot land on one and apply it with Enter by accident (the palette has them).
"""

from __future__ import annotations

from typing import Any, Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.coordinate import Coordinate
from textual.message import Message
from textual.widgets import Button, Input, Static

from metrics.measures.weights import MAX_WEIGHT, PRESETS, Weights

from .cells import FastTable, fitted_names, pair_heads
from .rows import DELTA_WIDTH, ScoreLine, percent
from ..output import fitted_interval, fitted_points, nothing_to_score, nothing_to_score_note

COLUMNS = (("metric", 12), (" doc R", 6), ("     P", 6), ("     F", 6), (" ", 1),
           ("corp R", 6), ("     P", 6), ("     F", 6), ("    ΔF", 6))
"""Header and width of each column: 12 cells fit the longest label (`Anchor F-phi`)."""
ONE_SCOPE_COLUMNS = (("metric", 12), ("     F", 6), ("     R", 6), ("     P", 6), ("    ΔF", 6))
"""Below 130 columns: the document's or the corpus's scores (`d` switches), F1 first, so that the
panel takes 40 columns and the text and chains the rest."""
SHORT_WEIGHT_LABELS = ("N", "M", "P", "S")
"""Below 130 columns the weights are labelled by their mention type's letter (S: singleton), so that
each box keeps room for `0.25` and the cursor after it (with `nam`, `0.25` scrolled to `.25`)."""
WEIGHT_NAMES = ("nam", "nom", "pro", "sing")
ZERO_WEIGHT_LABEL = "w_zero (empty: as w_pro)"
"""The fifth weight's box, on its own line under the four (in the 40 columns below 130 a fifth box
in their line left no room for `0.25`): shown only where zeros are read and `--weights` takes a
fifth number (CorefUD's and UA's conventions); CoNLL-2012 has no zeros, and the CLI refuses it."""
INTERVAL_WIDTH = 13
"""The interval of a difference, in points: `[+1.25,+3.40]`, or `[-26.6,-23.8]` where two decimals
do not fit (`output.fitted_interval`); wider with a blank before it when the systems leave room."""
SCORES_WIDTH = 61
"""The table's width (`#scores` in workbench.tcss: the panel's 64 less its border and scrollbar)."""
MAX_SYSTEM_COLUMNS = (SCORES_WIDTH - COLUMNS[0][1] - 6 - INTERVAL_WIDTH) // 6
"""Compare mode: a column per system while they fit (5), else the baseline's and the compared one's."""


WIDE_DELTA_WIDTH, WIDE_INTERVAL_WIDTH = DELTA_WIDTH, 16
"""Compare mode, where the systems leave room: ΔF and its interval in these cells, each with the
scores' two decimals and a blank before it (` -34.30`, ` [-38.46,-22.02]`: `output.fitted_points`,
`fitted_interval`); else in 6 and what is left, with fewer decimals where they do not fit."""
NARROW_MARK_WIDTH = 4
"""Below 130 columns, compare mode: ` 95%` heads a column with `*` where the 95% interval of ΔF
excludes 0, in the place of the interval (the panel keeps its 40 columns, the text its room)."""


def compare_columns(labels: Sequence[str], narrow: bool = False) -> list[tuple[str, int]]:
    """Compare mode's columns: metric, each system's corpus F1 (headed by its name, cut to fit),
    the compared system's difference to the baseline, and that difference's interval.  A system's
    column is 6 cells, or wider for its name when the systems are few enough to leave room (two
    systems: names of up to 13 characters in full, instead of `respo` for `response`).  `narrow`
    (below 130 columns: the baseline's and the compared system's columns only): the interval
    becomes a mark, `*` where it excludes 0."""
    if narrow:  # the baseline's and the compared system's: A and B when a name is too long (`pair_heads`)
        heads = pair_heads(labels[0], labels[1], 5)[0] if len(labels) == 2 else fitted_names(labels, 5)
        return ([COLUMNS[0]] + [(name.rjust(6), 6) for name in heads]
                + [("    ΔF", 6), (" 95%", NARROW_MARK_WIDTH)])
    room = (SCORES_WIDTH - COLUMNS[0][1] - 6 - INTERVAL_WIDTH - 1) // max(1, len(labels))
    column = max(6, min(room, 1 + max((len(name) for name in labels), default=0)))
    left = SCORES_WIDTH - COLUMNS[0][1] - column * len(labels)  # ΔF's and the interval's room
    delta = WIDE_DELTA_WIDTH if left - WIDE_DELTA_WIDTH >= WIDE_INTERVAL_WIDTH else 6
    return ([COLUMNS[0]] + [(name.rjust(column), column) for name in fitted_names(labels, column - 1)]
            + [("ΔF".rjust(delta), delta), ("95% interval".rjust(left - delta), left - delta)])


def comparison_cells(metric: str, label: str, values: Sequence[Any | None], *, baseline: Any | None,
                     system: Any | None, difference: Any | None, narrow: bool = False,
                     widths: tuple[int, int] = (6, INTERVAL_WIDTH)) -> list[str]:
    """One row of the compare table: the systems' corpus F1, the difference (compared system -
    baseline, in points) and its interval once the bootstrap has run (`…` until then), in their
    columns' `widths`, with the scores' decimals where they fit (`fitted_points`, as `corefwb
    compare` writes them); `narrow`: `*` where the interval excludes 0 instead of the interval."""
    delta = fitted_points(100 * (system.f1 - baseline.f1), widths[0]) if baseline is not None and system is not None \
        else ""
    if narrow and difference is not None:
        low, high = difference.interval.low, difference.interval.high
        interval = "*" if low > 0 or high < 0 else ""
    elif difference is not None:
        interval = fitted_interval(100 * difference.interval.low, 100 * difference.interval.high, widths[1])
    else:
        interval = "…" if delta else ""
    return [label + " ", *(percent(v.f1) if v is not None else "" for v in values), delta, interval]


def _score_cell(text: str, column: int, spacer: bool = False) -> Text | str:
    """A cell of the scores table: the metric name, a blank spacer, or a right-aligned number."""
    if spacer:
        return text
    return Text(text) if column == 0 else Text(text, justify="right")


class ScoresPanel(VerticalScroll):
    """R/P/F of the document and the corpus, and the weight vector W that LMetrics use."""

    HELP = """\
Scores of the current document (doc) and of the whole corpus (micro-averaged, as the
official scorer reports).  ΔF is the change of the corpus F1 from the starting weights (empty
until the weights change).  Below 130 columns one of the two is shown, F1 first: `d` switches
between the document's and the corpus's.
The ACE-value's F column is its value (below 0 when false alarms outweigh what was found);
its R and P are the ACE scorer's value-based recall and precision.
A metric with nothing to count in either file (zero anaphora without zeros: 0/0) shows 0.00,
as corefud-scorer prints it; the line under the table says so.
In compare mode: each system's corpus F1 (a column per system, headed by its name), ΔF =
the compared system minus the baseline, and its 95% interval from a paired bootstrap over
documents (1,000 resamples, seed 12345, as `corefwb compare`), shown once computed; below
130 columns the baseline's and the compared system's columns, and `*` under 95% where the
interval excludes 0.
Edit w_nam, w_nom, w_pro, w_sing (ctrl+w; below 130 columns labelled N, M, P, S) or click a
preset W1..W5 (also in the palette); under CorefUD's and UA's conventions also w_zero, a link
between two zeros (empty: as w_pro, as `--weights` without a fifth number; CoNLL-2012 has no zeros):
the corpus is rescored in the background; a newer edit cancels an older run.  The panel
scrolls when the terminal is short.
"""

    class WeightsEdited(Message):
        """The user set new weights (typed in the boxes, or a preset)."""

        def __init__(self, panel: ScoresPanel, weights: Weights) -> None:
            super().__init__()
            self.panel = panel
            self.weights = weights

        @property
        def control(self) -> ScoresPanel:
            """The panel it came from (so that `@on(ScoresPanel.WeightsEdited, "#id")` can select it)."""
            return self.panel

    def __init__(self, *, id: str | None = None, weighs_zeros: bool = False) -> None:
        super().__init__(id=id)
        self.weighs_zeros = weighs_zeros
        """Whether the conventions read zeros, and the editor offers w_zero (`ZERO_WEIGHT_LABEL`)."""
        self._setting = False
        self._shown_metrics: list[str] = []
        self._shown: list[list[str]] = []
        self._compare: list[tuple[str, int]] | None = None
        """Compare mode: the table's columns (None: the single-response columns)."""
        self.scope: str | None = None
        """Below 130 columns, "corpus" or "document": the one scope shown (None: both)."""
        self._delta_header = True
        """Whether the ΔF column has its header: only once a weight edit changed a corpus F1."""

    def compose(self) -> ComposeResult:
        table = FastTable(id="scores", cursor_type="none", show_cursor=False, cell_padding=0)
        table.can_focus = False  # nothing to pick in it; the panel itself scrolls
        for label, width in COLUMNS:
            table.add_column(label, width=width)
        yield table
        yield Static("", id="score-note")  # a metric with nothing to count: why its 0.00 is no failure
        with Horizontal(id="weights"):
            for name in WEIGHT_NAMES:
                yield Static(f"w_{name}", classes="weight-label")
                yield Input(id=f"w-{name}", type="number", compact=True)
        if self.weighs_zeros:
            with Horizontal(id="zero-weight"):
                yield Static(ZERO_WEIGHT_LABEL, classes="weight-label")
                yield Input(id="w-zero", type="number", compact=True)
        with Horizontal(id="presets"):
            for name in PRESETS:
                button = Button(name, id=f"preset-{name}", compact=True)
                button.can_focus = False
                yield button
        yield Static("", id="score-status")

    def show_weights(self, weights: Weights) -> None:
        self._setting = True
        shown = list(zip(WEIGHT_NAMES, weights[:4]))
        if self.weighs_zeros:
            shown.append(("zero", weights.zero))
        for name, value in shown:
            box = self.query_one(f"#w-{name}", Input)
            text = "" if value is None else f"{value:g}"
            if box.value != text:
                box.value = text
        self.call_after_refresh(self._done_setting)

    def _done_setting(self) -> None:
        self._setting = False

    def narrow(self, narrow: bool) -> None:
        """Below 130 columns one scope at a time (the corpus's to start with), short weight labels."""
        if narrow == (self.scope is not None):
            return
        self.scope = "corpus" if narrow else None
        self.set_class(narrow, "-one-scope")
        for label, long, short in zip(self.query(".weight-label").results(Static), WEIGHT_NAMES, SHORT_WEIGHT_LABELS):
            label.update(short if narrow else f"w_{long}")
        if self._compare is None:
            self._delta_header = True  # set again by the next scores shown
            self._columns(ONE_SCOPE_COLUMNS if narrow else COLUMNS)

    def switch_scope(self) -> bool:
        """`d`: the document's scores or the corpus's (False when both are shown)."""
        if self.scope is None:
            return False
        self.scope = "document" if self.scope == "corpus" else "corpus"
        return True

    def _columns(self, columns: Sequence[tuple[str, int]]) -> None:
        table = self.query_one("#scores", FastTable)
        table.clear(columns=True)
        for label, width in columns:
            table.add_column(Text(label), width=width)  # a name is data, never markup
        self._shown_metrics, self._shown = [], []

    def show_scores(self, lines: Sequence[ScoreLine], previous: dict[str, Any] | None,
                    say_nothing_counted: bool = False) -> None:
        """The document's and the corpus's R/P/F, and the change of corpus F1 since the start
        (below 130 columns: one scope's F/R/P and ΔF).  `say_nothing_counted` (under CorefUD's
        conventions, where `score` says it too): a line under the table names the rows with
        nothing to count, whose 0.00 is corefud-scorer's."""
        rows = []
        for line in lines:
            doc, corpus = line.document, line.corpus
            delta = ""
            if previous and corpus is not None and line.metric in previous:
                change = 100 * (corpus.f1 - previous[line.metric].f1)
                written = fitted_points(change, 6)
                delta = written if float(written) != 0 else ""  # a change too small to show is none
            if self.scope is not None:
                shown = doc if self.scope == "document" else corpus
                rows.append([line.label + " ", *(percent(getattr(shown, part)) if shown is not None else ""
                                                  for part in ("f1", "recall", "precision")),
                             delta if self.scope == "corpus" else ""])
                continue
            rows.append([
                line.label + " ",
                *(percent(getattr(doc, part)) if doc is not None else "" for part in ("recall", "precision", "f1")),
                "",
                *(percent(getattr(corpus, part)) if corpus is not None else "" for part in ("recall", "precision", "f1")),
                delta,
            ])
        deltas = any(row[-1] for row in rows)
        if deltas != self._delta_header and self._compare is None:  # ΔF headed only when it says something
            columns = ONE_SCOPE_COLUMNS if self.scope is not None else COLUMNS
            self._columns([*columns[:-1], (columns[-1][0] if deltas else "", columns[-1][1])])
            self._delta_header = deltas
        self.fill([line.metric for line in lines], rows)
        self._show_note(nothing_to_score_note(self.nothing_counted(lines)) if say_nothing_counted else None)

    def nothing_counted(self, lines: Sequence[ScoreLine]) -> list[str]:
        """The labels of the shown rows whose scores had nothing to count (0/0: zero anaphora where
        neither file has a zero), printed 0.00 as corefud-scorer prints them.  With both scopes
        shown, a row whose document alone had nothing says so (the corpus's 0.00 is a real one)."""
        labels = []
        for line in lines:
            corpus = self.scope != "document" and nothing_to_score(line.corpus)
            document = self.scope != "corpus" and nothing_to_score(line.document)
            if corpus or document:
                labels.append(line.label if corpus or self.scope == "document" else f"{line.label} (this document)")
        return labels

    def _show_note(self, note: str | None) -> None:
        """The line under the table: shown only when it says something."""
        shown = self.query_one("#score-note", Static)
        shown.update(Text(note or ""))
        shown.display = note is not None

    def compare(self, labels: Sequence[str]) -> None:
        """Compare mode: the table's columns become the systems' (`compare_columns`, narrow below
        130 columns); rows then come through `fill` with `comparison_cells`."""
        columns = compare_columns(labels, narrow=self.scope is not None)
        if self._compare == columns:  # the same systems' columns (a switch among at most five)
            return
        self._columns(columns)
        self._compare = columns
        self._show_note(None)  # compare mode lists no metric that can have nothing to count
        self.add_class("-compare")

    @property
    def difference_widths(self) -> tuple[int, int]:
        """Compare mode: the cells of ΔF's and the interval's columns (its last two), as
        `compare_columns` made them."""
        return (self._compare[-2][1], self._compare[-1][1]) if self._compare else (6, INTERVAL_WIDTH)

    def fill(self, metrics: list[str], rows: list[list[str]]) -> None:
        """Fill the table; when the same metrics are shown again (another document, new weights),
        only the cells whose text changed are updated, so the others keep their rendering."""
        table = self.query_one("#scores", FastTable)
        if metrics == self._shown_metrics and len(self._shown) == len(rows):
            for r, (old, new) in enumerate(zip(self._shown, rows)):
                for c, (before, after) in enumerate(zip(old, new)):
                    if before != after:
                        table.update_cell_at(Coordinate(r, c), _score_cell(after, c, self._spacer(c)))
        else:
            table.clear()
            for metric, row in zip(metrics, rows):
                table.add_row(*(_score_cell(text, c, self._spacer(c)) for c, text in enumerate(row)), key=metric)
        self._shown_metrics, self._shown = metrics, rows

    def _spacer(self, column: int) -> bool:
        """Whether a column is the blank between the document's scores and the corpus's."""
        return column == 4 and self._compare is None and self.scope is None

    def set_status(self, text: str) -> None:
        self.query_one("#score-status", Static).update(Text(text))

    def current_weights(self) -> Weights | None:
        """The weights the boxes hold, or None while one is not a weight from 0 to `MAX_WEIGHT`
        (an empty w_zero box is "as w_pro", as `--weights` with four numbers)."""
        values = [self._box_weight(name) for name in WEIGHT_NAMES]
        if any(value is None for value in values):
            return None
        if not self.weighs_zeros or not self.query_one("#w-zero", Input).value.strip():
            return Weights(*values)
        zero = self._box_weight("zero")
        return None if zero is None else Weights(*values, zero=zero)

    def _box_weight(self, name: str) -> float | None:
        try:
            value = float(self.query_one(f"#w-{name}", Input).value)
        except ValueError:
            return None
        return value if 0 <= value <= MAX_WEIGHT else None

    @on(Input.Changed, "#weights Input, #zero-weight Input")
    def _edited(self, event: Input.Changed) -> None:
        event.stop()  # the panel's own boxes: new weights go up as `WeightsEdited`
        if self._setting:
            return
        weights = self.current_weights()
        if weights is None:
            self.set_status(f"weights: four numbers from 0 to {MAX_WEIGHT:g}"
                            + (" (w_zero one too, or empty)" if self.weighs_zeros else ""))
        else:
            self.post_message(self.WeightsEdited(self, weights))

    @on(Button.Pressed, "#presets Button")
    def _preset(self, event: Button.Pressed) -> None:
        event.stop()
        self.apply_preset((event.button.id or "").removeprefix("preset-"))

    def apply_preset(self, name: str) -> None:
        """Show and apply a preset W1..W5 (a button or the palette)."""
        self.show_weights(PRESETS[name])
        self.post_message(self.WeightsEdited(self, PRESETS[name]))

"""The panels around the text: document list, scores and weights, error list, chains.

Each panel is told what to show by the app (attributes down) and reports what the user did by a
message (messages up); none of them calls the engine.  Cells that hold text from the input files
are `rich.text.Text` objects, never markup strings.
"""

from __future__ import annotations

from typing import Any, Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.coordinate import Coordinate
from textual.message import Message
from textual.widgets import Button, DataTable, Input, Select, Static

from metrics.errors.records import CATEGORIES, Category, ErrorRecord, count_errors
from metrics.model import MentionType
from metrics.weights import PRESETS, Weights

from ..output import impact_text
from .rows import (
    SORT_KEYS,
    ChainRow,
    DocumentRow,
    ScoreLine,
    display_text,
    percent,
    select_documents,
    short_name,
)

TYPE_STYLE = {MentionType.NAME: "name", MentionType.NOMINAL: "nominal", MentionType.PRONOUN: "pronoun"}


def type_colour(app: Any, kind: MentionType) -> str:
    """The current theme's colour of a mention type (theme variables `type-name` etc.)."""
    return app.theme_variables.get(f"type-{TYPE_STYLE[kind]}", "")


def type_text(app: Any, kind: MentionType, text: str = "") -> Text:
    """A mention type as a letter (meaning without colour) coloured by the theme's type colour."""
    return Text(kind.letter + (" " + text if text else ""), style=f"bold {type_colour(app, kind)}")


class DocumentList(Vertical):
    """Documents with their scores, worst first; a name filter above."""

    BINDINGS = [
        Binding("s", "cycle_sort", "Sort", id="documents.sort"),
    ]
    HELP = """\
The documents of the corpus with their CoNLL F1, MUC F1 and number of errors.
Sorted worst first; `s` cycles the sort key (CoNLL, MUC, errors, name).  Type in the box
above to filter by name (`/` goes there), Enter opens the first match.  Moving the cursor
in the list opens the document under it.
"""

    class Chosen(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[DocumentRow] = []
        self.sort_key = "conll"
        self.current = 0

    def compose(self) -> ComposeResult:
        yield Input(placeholder="filter documents", id="doc-filter")
        table: DataTable = DataTable(id="documents", cursor_type="row", zebra_stripes=True, cell_padding=0)
        table.add_column(" document", key="name", width=24)
        table.add_column(" CoNLL", key="conll", width=6)
        table.add_column("   MUC", key="muc", width=6)
        table.add_column("  err", key="errors", width=5)
        yield table

    def set_rows(self, rows: list[DocumentRow]) -> None:
        self.rows = rows
        self.refill()

    def refill(self) -> None:
        table = self.query_one("#documents", DataTable)
        shown = select_documents(self.rows, self.query_one("#doc-filter", Input).value, self.sort_key)
        table.clear()
        cursor = 0
        for position, row in enumerate(shown):
            table.add_row(
                Text(" " + display_text(short_name(row.name)), overflow="ellipsis", no_wrap=True),
                Text(percent(row.f1("conll")) if row.scores else "", justify="right"),
                Text(percent(row.f1("muc")) if row.scores else "", justify="right"),
                Text("" if row.errors is None else f"{row.errors:5d}", justify="right"),
                key=str(row.index),
            )
            if row.index == self.current:
                cursor = position
        if shown:
            table.move_cursor(row=cursor, animate=False)
        self.border_title = f"documents ({len(shown)}/{len(self.rows)}) by {self.sort_key}"

    @on(Input.Changed, "#doc-filter")
    def _filter(self) -> None:
        self.refill()

    @on(DataTable.RowHighlighted, "#documents")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Only the user moving the cursor opens a document, never a refill (filter, sort)."""
        if not event.data_table.has_focus or event.row_key.value is None:
            return
        self._choose(int(event.row_key.value))

    @on(Input.Submitted, "#doc-filter")
    def _open_first(self) -> None:
        """Enter in the filter opens the first document listed."""
        table = self.query_one("#documents", DataTable)
        if table.row_count:
            self._choose(int(table.coordinate_to_cell_key((0, 0)).row_key.value))
            table.focus()

    def _choose(self, index: int) -> None:
        if index != self.current:
            self.current = index
            self.post_message(self.Chosen(index))

    def action_cycle_sort(self) -> None:
        self.sort_key = SORT_KEYS[(SORT_KEYS.index(self.sort_key) + 1) % len(SORT_KEYS)]
        self.refill()


def _score_cell(text: str, column: int) -> Text | str:
    """A cell of the scores table: the metric name, a blank spacer, or a right-aligned number."""
    if column == 4:
        return text
    return Text(text) if column == 0 else Text(text, justify="right")


class ScoresPanel(Vertical):
    """R/P/F of the document and the corpus, and the weight vector W that LMetrics use."""

    HELP = """\
Scores of the current document (doc) and of the whole corpus (micro-averaged, as the
official scorer reports).  ΔF is the change of the corpus F1 from the starting weights.
The ACE-value's F column is its value (below 0 when false alarms outweigh what was found);
its R and P are the ACE scorer's value-based recall and precision.
Edit w_nam, w_nom, w_pro, w_sing or press a preset W1..W5: the corpus is rescored in the
background; a newer edit cancels an older run.
"""

    class WeightsEdited(Message):
        def __init__(self, weights: Weights) -> None:
            super().__init__()
            self.weights = weights

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._setting = False
        self._shown_metrics: list[str] = []
        self._shown: list[list[str]] = []

    def compose(self) -> ComposeResult:
        table: DataTable = DataTable(id="scores", cursor_type="row", show_cursor=False, cell_padding=0)
        for label in ("metric", " doc R", "     P", "     F", " ", "corp R", "     P", "     F", "    ΔF"):
            table.add_column(label, width={"metric": 12, " ": 1}.get(label, 6))
        yield table
        with Horizontal(id="weights"):
            for name in ("nam", "nom", "pro", "sing"):
                with Vertical(classes="weight"):
                    yield Static(f"w_{name}", classes="weight-label")
                    yield Input(id=f"w-{name}", type="number", compact=True)
        with Horizontal(id="presets"):
            for name in PRESETS:
                yield Button(name, id=f"preset-{name}", compact=True)
        yield Static("", id="score-status")

    def show_weights(self, weights: Weights) -> None:
        self._setting = True
        for name, value in zip(("nam", "nom", "pro", "sing"), weights):
            box = self.query_one(f"#w-{name}", Input)
            text = f"{value:g}"
            if box.value != text:
                box.value = text
        self.call_after_refresh(self._done_setting)

    def _done_setting(self) -> None:
        self._setting = False

    def show_scores(self, lines: Sequence[ScoreLine], previous: dict[str, Any] | None) -> None:
        """Fill the table; when the same metrics are shown again (another document, new weights),
        only the cells whose text changed are updated, so the others keep their rendering."""
        table = self.query_one("#scores", DataTable)
        rows = []
        for line in lines:
            doc, corpus = line.document, line.corpus
            delta = ""
            if previous and corpus is not None and line.metric in previous:
                change = 100 * (corpus.f1 - previous[line.metric].f1)
                delta = f"{change:+6.1f}" if abs(change) >= 0.05 else ""
            rows.append([
                line.label + " ",
                *(percent(getattr(doc, part)) if doc is not None else "" for part in ("recall", "precision", "f1")),
                "",
                *(percent(getattr(corpus, part)) if corpus is not None else "" for part in ("recall", "precision", "f1")),
                delta,
            ])
        metrics = [line.metric for line in lines]
        if metrics == self._shown_metrics and len(self._shown) == len(rows):
            for r, (old, new) in enumerate(zip(self._shown, rows)):
                for c, (before, after) in enumerate(zip(old, new)):
                    if before != after:
                        table.update_cell_at(Coordinate(r, c), _score_cell(after, c))
        else:
            table.clear()
            for metric, row in zip(metrics, rows):
                table.add_row(*(_score_cell(text, c) for c, text in enumerate(row)), key=metric)
        self._shown_metrics, self._shown = metrics, rows

    def set_status(self, text: str) -> None:
        self.query_one("#score-status", Static).update(Text(text))

    def current_weights(self) -> Weights | None:
        values = []
        for name in ("nam", "nom", "pro", "sing"):
            try:
                value = float(self.query_one(f"#w-{name}", Input).value)
            except ValueError:
                return None
            if not (value >= 0 and value != float("inf")):
                return None
            values.append(value)
        return Weights(*values)

    @on(Input.Changed, "#weights Input")
    def _edited(self) -> None:
        if self._setting:
            return
        weights = self.current_weights()
        if weights is None:
            self.set_status("weights: four non-negative numbers")
        else:
            self.post_message(self.WeightsEdited(weights))

    @on(Button.Pressed, "#presets Button")
    def _preset(self, event: Button.Pressed) -> None:
        name = (event.button.id or "").removeprefix("preset-")
        self.show_weights(PRESETS[name])
        self.post_message(self.WeightsEdited(PRESETS[name]))


class ErrorPanel(Horizontal):
    """The errors of the current document, filterable, sortable; category x type counts beside."""

    BINDINGS = [
        Binding("i", "toggle_sort", "Impact sort", id="errors.sort"),
    ]
    HELP = """\
One row per error (errors.md): FN false new, WL wrong link, FA false anaphoric, SUB suboptimal
link, MISS missing mention, SPUR spurious mention; the mention's type (N/M/P), its text, the
response antecedent and the best key antecedent, the cost (suboptimal links) and the impact
(change of CoNLL F1 if the error were fixed).  `i` toggles sorting by impact; Enter jumps to
the mention in the text; n / p go to the next / previous error from anywhere.
"""

    class Picked(Message):
        """The cursor is on an error (jump=False) or Enter was pressed on it (jump=True)."""

        def __init__(self, row: ErrorRecord | None, jump: bool) -> None:
            super().__init__()
            self.row = row
            self.jump = jump

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[ErrorRecord] = []
        self.shown: list[ErrorRecord] = []
        self.by_impact = False
        self.available = False
        self._filled: object | None = None
        """Token of a deferred fill; a newer set_rows supersedes it."""
        self._picked = False
        """Whether the user has picked an error in this list (the first `n` picks the first row)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="error-main"):
            with Horizontal(id="error-filters"):
                yield Select(
                    [(f"{c.short} {c.label}", c.value) for c in CATEGORIES],
                    prompt="all categories", id="error-category", compact=True,
                )
                yield Select([(f"{t.letter} {t.name}", t.name) for t in MentionType], prompt="all types", id="error-type", compact=True)
                yield Static("", id="error-sort")
            table: DataTable = DataTable(id="errors", cursor_type="row", zebra_stripes=True)
            for label, width in (("cat", 4), ("type", 4), ("mention", 34), ("antecedent", 30),
                                 ("best key antecedent", 30), ("cost", 5), ("impact", 7)):
                table.add_column(label, width=width)
            yield table
        yield Static("", id="error-counts")

    def set_rows(self, rows: list[ErrorRecord] | None, keep_cursor: bool = False, defer: bool = False) -> None:
        """New rows; `keep_cursor` (same document, impacts priced) keeps the cursor and selection.

        `defer` (a new document): the table is emptied now and filled after the next frame, so
        the text and scores of the new document appear first (a DataTable measures every cell
        it is given: ~40 ms for the 400 errors of a long document)."""
        self.available = rows is not None
        self.rows = rows or []
        if defer:
            self.shown = []
            self.query_one("#errors", DataTable).clear()
            self.border_title = f"errors ({len(self.rows)})" if self.available else "errors"
            self._filled = object()
            token = self._filled
            self.call_after_refresh(lambda: self._filled is token and self.refill())
        else:
            self._filled = None
            self.refill(keep_cursor)

    def filters(self) -> tuple[Category | None, MentionType | None]:
        category = self.query_one("#error-category", Select).value
        kind = self.query_one("#error-type", Select).value
        return (
            Category(category) if isinstance(category, str) else None,
            MentionType[kind] if isinstance(kind, str) else None,
        )

    def refill(self, keep_cursor: bool = False) -> None:
        from .rows import filter_errors

        category, kind = self.filters()
        table = self.query_one("#errors", DataTable)
        spans = [row.mention.span for row in self.shown]
        cursor_span = spans[table.cursor_row] if keep_cursor and 0 <= table.cursor_row < len(spans) else None
        self.shown = filter_errors(self.rows, category, kind, self.by_impact)
        self._picked = self._picked and cursor_span is not None
        table.clear()
        for number, row in enumerate(self.shown):
            table.add_row(
                Text(row.category.short),
                type_text(self.app, row.mention.type),
                Text(display_text(row.mention.text), overflow="ellipsis", no_wrap=True),
                self._ref(row.antecedent),
                self._ref(row.best_antecedent),
                Text("" if row.cost is None else f"{row.cost:.2f}", justify="right"),
                Text(impact_text(row.impact), justify="right"),
                key=str(number),
            )
        if cursor_span is not None:
            position = next((i for i, row in enumerate(self.shown) if row.mention.span == cursor_span), 0)
            table.move_cursor(row=position, animate=False)
        self.query_one("#error-sort", Static).update(Text("by impact" if self.by_impact else "in text order"))
        self.border_title = (
            f"errors ({len(self.shown)}/{len(self.rows)})" if self.available else "errors (error analysis not available)"
        )
        self._show_counts()

    def _ref(self, ref) -> Text:
        if ref is None:
            return Text("")
        text = type_text(self.app, ref.type)
        text.append(" ")
        text.append(display_text(ref.text))
        text.overflow, text.no_wrap = "ellipsis", True
        return text

    def _show_counts(self) -> None:
        counts = count_errors(self.rows)
        text = Text("        N    M    P\n", style="bold")
        for category in CATEGORIES:
            n, m, p = (counts[category][t] for t in MentionType)
            text.append(f"{category.short:<5}{n:>4} {m:>4} {p:>4}\n")
        self.query_one("#error-counts", Static).update(text)

    @on(Select.Changed)
    def _filter(self) -> None:
        self.refill()

    @on(DataTable.RowHighlighted, "#errors")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        """The text follows the cursor only while the user is in the list: a refill elsewhere
        (new document, impacts arriving) must not select an error by itself."""
        if not event.data_table.has_focus:
            return
        self._picked = True
        self.post_message(self.Picked(self._row(event.cursor_row), jump=False))

    @on(DataTable.RowSelected, "#errors")
    def _selected(self, event: DataTable.RowSelected) -> None:
        self._picked = True
        self.post_message(self.Picked(self._row(event.cursor_row), jump=True))

    def _row(self, index: int) -> ErrorRecord | None:
        return self.shown[index] if 0 <= index < len(self.shown) else None

    def move(self, step: int) -> None:
        table = self.query_one("#errors", DataTable)
        if self.shown:
            row = table.cursor_row if not self._picked and step > 0 else (table.cursor_row + step) % len(self.shown)
            self._picked = True
            table.move_cursor(row=row, animate=False)
            # n / p emphasise and scroll the text but leave focus and view where the user has them
            self.post_message(self.Picked(self._row(table.cursor_row), jump=False))

    def action_toggle_sort(self) -> None:
        self.by_impact = not self.by_impact
        self.refill()


class ChainsView(Horizontal):
    """Key chains beside response chains: which key chains a response chain divides or conflates."""

    HELP = """\
Left: key chains K1.. ; right: response chains R1.. .  Each chain lists its type counts and
mentions (type letter before the text).  "divided over R2 R5" marks a key chain the response
split; "conflates K1 K4" marks a response chain that merges key chains; "n missing" / "n
spurious" count mentions the other side lacks.
"""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="key-chains"):
            yield Static("", id="key-chains-text")
        with VerticalScroll(id="response-chains"):
            yield Static("", id="response-chains-text")

    def show(self, key_rows: list[ChainRow], response_rows: list[ChainRow]) -> None:
        self.query_one("#key-chains-text", Static).update(self._chains_text(self.app, key_rows, "K", "R", "divided over", "missing"))
        self.query_one("#response-chains-text", Static).update(self._chains_text(self.app, response_rows, "R", "K", "conflates", "spurious"))
        self.query_one("#key-chains", VerticalScroll).border_title = f"key chains ({len(key_rows)})"
        self.query_one("#response-chains", VerticalScroll).border_title = f"response chains ({len(response_rows)})"

    @staticmethod
    def _chains_text(app: Any, rows: list[ChainRow], own: str, other: str, several: str, lacking: str) -> Text:
        text = Text(no_wrap=False)
        for row in rows:
            n, m, p = row.type_counts
            text.append(f"{own}{row.number}", style="bold")
            text.append(f"  N{n} M{m} P{p}")
            if len(row.partners) > 1:
                text.append(f"  {several} " + " ".join(f"{other}{x}" for x in row.partners), style="bold reverse")
            elif row.partners:
                text.append(f"  = {other}{row.partners[0]}")
            if row.unmatched:
                text.append(f"  {row.unmatched} {lacking}", style="italic")
            text.append("\n")
            for span, kind, words in row.mentions:
                text.append("   ")
                text.append_text(type_text(app, kind))
                text.append(" ")
                text.append(words, style=type_colour(app, kind))
                text.append(f" {span[0]}-{span[1]}\n", style="dim")
        return text


class WarningsView(VerticalScroll):
    """What the readers and the aligner noticed about the input files (F5), one per paragraph."""

    HELP = """\
Warnings about the input files: repeated spans, words that differ between key and response,
documents missing on one side.  The scores follow v8.01's treatment of each; `corefwb score`
prints the same lines on stderr.
"""

    def compose(self) -> ComposeResult:
        yield Static("", id="warnings-text")

    def show(self, warnings: Sequence[str]) -> None:
        """List the warnings (text from the files: plain Text, never markup)."""
        text = Text()
        for number, warning in enumerate(warnings, start=1):
            text.append(f"{number}. ", style="bold")
            text.append(display_text(warning) + "\n\n")
        self.query_one("#warnings-text", Static).update(text if warnings else Text("no warnings"))
        self.border_title = f"warnings ({len(warnings)})"

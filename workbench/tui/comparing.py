"""Compare mode: `corefwb KEY RESP_A RESP_B [...]` shows a baseline (A, the first response) and a
compared system (B) side by side.  A mixin of `Workbench`.

What each panel shows in compare mode (the single-response workbench is unchanged):
- documents: A's and B's CoNLL F1 and ΔF, sorted by ΔF, the documents that differ most marked;
- scores: each system's corpus F1, ΔF and its paired-bootstrap interval (a worker computes it);
- text: key/A/B chain ids on each mention, mentions whose error changed tinted and marked;
- errors: every mention with an error under A or B, with both categories, filtered by change.
F9 compares the next system with the baseline (with two responses it swaps them).  Every system's
scores and errors are kept per weight vector (`SystemView`), so a switch only redraws.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from rich.text import Text

from metrics.conventions.base import listed
from metrics.conventions.registry import CONVENTIONS, convention
from metrics.measures.catalog import ALL_METRICS, METRICS, Family, names, with_parts
from metrics.errors.chen_ng.records import ErrorRecord
from metrics.corpus.children import ScoresInChildren
from metrics.corpus.scoring import CorpusResult
from metrics.statistics.significance import Comparison, Method, compare
from metrics.measures.weights import Weights

from ..comparison import Change, changed_spans, document_changes
from .cells import pair_heads
from .rows import display_text
from .scores import MAX_SYSTEM_COLUMNS, ScoresPanel, comparison_cells

FIRST_METRICS = with_parts(names(Family.MENTION) + names(Family.OFFICIAL))
"""Scored first, so the official numbers are on screen while the other metrics are computed."""
REST_METRICS = tuple(m for m in ALL_METRICS if m not in FIRST_METRICS)
"""The rest of the metrics every convention lists (CoNLL-2012's whole rest: `rest_metrics`)."""


def listed_metrics(conventions: str) -> tuple[str, ...]:
    """Every metric the scores panel lists of one system: the convention's (`base.listed`: its
    `scores`, then its official scorer's own: MOR and zero under corefud; under ua the UA scorer's
    list alone, as `corefwb score` prints it and the UA relation errors are priced on)."""
    if conventions not in CONVENTIONS:
        return ALL_METRICS
    return tuple(metric.name for metric in listed(convention(conventions)))


def compared_metrics(conventions: str) -> tuple[str, ...]:
    """The metrics compare mode lists with their intervals: the convention's `scores`, as
    `corefwb compare` lists them."""
    if conventions not in CONVENTIONS:
        return ALL_METRICS
    return tuple(metric.name for metric in convention(conventions).scores)


def rest_metrics(conventions: str) -> tuple[str, ...]:
    """The metrics scored after the first ones (`FIRST_METRICS`): the rest of the listed ones."""
    return tuple(name for name in listed_metrics(conventions) if name not in FIRST_METRICS)


INTERVAL_METHOD = Method()
"""The intervals of the scores panel: `corefwb compare`'s defaults (1,000 resamples, seed 12345)."""


def shown_at_start(responses: int) -> list[int]:
    """The systems on screen when the workbench opens, the shown one first: the first response,
    or in compare mode the second, beside the first as the baseline."""
    return [1, 0] if responses > 1 else [0]


class ComparedPair(NamedTuple):
    """Compare mode: a compared system and its baseline under some weights, the key of the
    differences' intervals (`Workbench.intervals`)."""

    baseline: int
    system: int
    weights: Weights


@dataclass
class SystemView:
    """What the workbench holds of one system: its latest scores and error records, each under
    the weights it was computed with (a weight edit replaces them when the new ones arrive)."""

    result: CorpusResult | None = None
    errors: dict[str, list[ErrorRecord]] | None = None
    """Error records per document under `errors_weights`; priced ones replace their unpriced rows."""
    errors_weights: Weights | None = None
    priced: set[str] = field(default_factory=set)
    """Documents whose error impacts are priced under `errors_weights`."""
    preview: dict[str, list[ErrorRecord]] = field(default_factory=dict)
    """Errors of documents classified before the UI started (`opening.py`), under the starting
    weights: listed until the corpus's errors arrive."""
    scoring: ScoresInChildren | None = None
    """The system's scores being computed in forked children (`opening.py`): the scoring worker
    takes them from there under their weights."""


def complete(result: CorpusResult | None, conventions: str) -> bool:
    """Whether every listed metric is scored (not only the official ones scored first)."""
    return result is not None and set(listed_metrics(conventions)) <= set(result.metrics)


def interval_comparison(baseline: CorpusResult, system: CorpusResult, conventions: str) -> Comparison:
    """The compared system's differences to the baseline with their intervals, every compared metric."""
    return compare([baseline, system], [m for m in compared_metrics(conventions)
                                        if m in system.metrics and m in baseline.metrics], INTERVAL_METHOD)


class Comparing:
    """Compare mode's state and actions (mixed into the App)."""

    def shown_systems(self) -> list[int]:
        """The systems on screen, the shown one first (and the baseline in compare mode)."""
        return [self.system, self.baseline] if self.comparing else [self.system]

    def response_names(self) -> list[str]:
        """The systems' names: a CRAC run's folders (every dataset's files share names), else the files'."""
        from ..names import system_names

        if self.crac_run is not None:
            return list(self.crac_run.names)
        return system_names(self.response_paths, None) if self.response_paths else ["key"]

    def labels(self, *, narrowest: bool = False) -> list[str]:
        """Names for narrow places: what tells them apart, unless that is a letter or two;
        `narrowest` (the 40-column scores panel): what tells them apart, however short (`a`, `b`
        for `response-a`, `response-b`: a name cut to `…se-a` says less)."""
        from ..names import short_labels

        names = self.response_names()
        short = short_labels(names)
        return short if narrowest or min(map(len, short)) >= 3 else names

    def compared_pair(self) -> ComparedPair:
        """The pair on screen, under the current weights."""
        return ComparedPair(self.baseline, self.system, self.weights)

    def view_of(self, system: int) -> SystemView:
        return self.views.setdefault(system, SystemView())

    # ---------------------------------------------------------------- setting up
    def setup_compare(self) -> None:
        """Once loaded: the panels take their compare-mode columns for the current pair."""
        from .documents import DocumentList
        from .errorlist import ErrorPanel

        labels = self.labels()
        self.query_one(DocumentList).compare(labels[self.baseline], labels[self.system])
        self.query_one(ScoresPanel).compare([labels[s] for s in self.score_columns()])
        self.query_one(ErrorPanel).set_compare()

    def score_columns(self) -> list[int]:
        """The systems with a column in the scores panel: all while they fit, else A and B (below
        130 columns, A and B)."""
        count = len(self.response_paths)
        narrow = self.query_one(ScoresPanel).scope is not None
        return list(range(count)) if count <= MAX_SYSTEM_COLUMNS and not narrow else [self.baseline, self.system]

    # ---------------------------------------------------------------- drawing
    def show_comparison(self) -> None:
        """The scores panel in compare mode: every system's corpus F1, ΔF = B - A and its interval."""
        columns = self.score_columns()
        micros = [self.view_of(s).result.micro if self.view_of(s).result is not None else {} for s in columns]
        base, other = self.view_of(self.baseline).result, self.view_of(self.system).result
        comparison = self.intervals.get(self.compared_pair())
        differences = comparison.differences[0] if comparison is not None else {}
        metrics, rows = [], []
        panel = self.query_one(ScoresPanel)
        narrow = panel.scope is not None  # 40 columns below 130
        labels = self.labels(narrowest=narrow)
        panel.compare([labels[s] for s in columns])  # the columns of this width
        compared = compared_metrics(self.session.options.conventions)
        for metric in (METRICS[name] for name in compared):
            # what `corefwb compare` compares: CorefUD's own MOR and zero (single mode lists them) have no interval
            if not any(metric.name in micro for micro in micros):
                continue
            metrics.append(metric.name)
            rows.append(comparison_cells(metric.name, metric.short or metric.label, [micro.get(metric.name) for micro in micros],
                                         baseline=base.micro.get(metric.name) if base else None,
                                         system=other.micro.get(metric.name) if other else None,
                                         difference=differences.get(metric.name), narrow=narrow,
                                         widths=panel.difference_widths))
        panel.fill(metrics, rows)
        title = "corpus" if narrow else "scores: corpus"  # 40 columns below 130: no cut
        a, b = display_text(labels[self.baseline]), display_text(labels[self.system])
        legend = pair_heads(a, b, 5)[1] if narrow else ""
        panel.border_title = Text(f"{title} · ΔF = B - A" if legend else f"{title} · ΔF = {b} - {a}")
        panel.border_subtitle = Text(legend)  # the columns headed A and B: which is which

    def document_changes(self, name: str) -> list[Change] | None:
        """The changes of a document between the baseline and the compared system, once both
        systems' errors are known under the current weights (None until then)."""
        a, b = self.view_of(self.baseline), self.view_of(self.system)
        if a.errors is None or b.errors is None or a.errors_weights != self.weights or b.errors_weights != self.weights:
            return None
        return document_changes(a.errors.get(name, []), b.errors.get(name, []))

    def previewed(self, name: str) -> list[ErrorRecord] | list[Change] | None:
        """The rows of a document whose errors were classified before the UI started (the first
        screen lists them), while the corpus's are not in yet: None when there are none."""
        if self.weights != self.start_weights:
            return None
        previews = [self.view_of(s).preview.get(name) for s in self.shown_systems()]
        if any(preview is None for preview in previews):
            return None
        return document_changes(previews[1], previews[0]) if self.comparing else previews[0]

    def show_compared_text(self, index: int, keep_view: bool = False) -> None:
        """The text of document `index` with key/A/B chain ids and the changed mentions tinted;
        `keep_view` (the same document, its changes just known) keeps selection and scroll."""
        from .rows import MODES

        a = self.session.corpora[self.baseline].pairs[index]
        b = self.session.corpora[self.system].pairs[index]
        changes = self.document_changes(a.name)
        types = {**b.types, **a.types}  # a span only one system has is typed in its pair
        text = self.query_one("#text")  # the DocumentText (by id: the text view's module imports this one's messages)
        draw = text.redraw if keep_view else text.show
        draw(a.key, a.response, types, MODES[self.mode_index], other=b.response,
             changes=changed_spans(changes) if changes is not None else None)

    # ---------------------------------------------------------------- actions
    def action_next_system(self) -> None:
        """F9: compare the next system with the baseline; with two responses, swap them."""
        count = len(self.response_paths)
        if count < 2:
            self.action_compare_only()
            return
        if self.session is None:
            return
        if count == 2:
            self.baseline, self.system = self.system, self.baseline
        else:
            self.system = next(s % count for s in range(self.system + 1, self.system + count)
                               if s % count != self.baseline)
        self.setup_compare()
        self.show_document(self.doc_index)
        self.refresh_documents()
        # after the frame: the worker computes only what this pair lacks (its intervals, say),
        # and would share the GIL with drawing the switch
        self.call_after_refresh(self._rescore_worker, self.weights, self._edit_started)
        labels = self.labels()
        self.notify(f"comparing {labels[self.system]} with {labels[self.baseline]} (baseline)", timeout=3, markup=False)

    def action_compare_only(self) -> None:
        """F9 or c with one response: their bindings give way there (`check_action`) and pressing
        them changed nothing; this says why."""
        self.notify("one response: F9 and c compare several (open the workbench with two or more responses)",
                    timeout=5, markup=False)

    def action_cycle_change(self) -> None:
        """`c`: the error list's change filter (compare mode)."""
        from .errorlist import ErrorPanel

        if self.taxonomy == "kk":  # the change filter belongs to the per-mention list
            self.notify("c filters the per-mention list's changes (t switches to it)", markup=False)
            return
        self.query_one(ErrorPanel).cycle_change()

    def system_label(self) -> str:
        """The text panel title's part naming the systems (compare mode: whose ids the labels show)."""
        if not self.comparing:
            return ""
        labels = [display_text(label) for label in self.labels()]
        a, b = labels[self.baseline], labels[self.system]
        return {"key": "", "response": f" · {a}/{b}", "both": f" · key/{a}/{b}"}[self.mode_name()]

    def show_changes(self, change: str | None) -> None:
        """The error list's change filter set to `change` (the palette)."""
        from .errorlist import ErrorPanel

        self.query_one(ErrorPanel).show_change(change)

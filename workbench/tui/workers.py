"""The workbench's engine work off the UI thread, and what the app does with its results.

A mixin of `Workbench`.  A weight edit (or the first load, or a switch of the compared system)
starts an exclusive scoring worker that computes only what is missing under the weights: the
systems on screen first, the official metrics before the others (`Rescored` each time), then their
errors (`ErrorsReady`), in compare mode the intervals of the differences (`IntervalsReady`), then
the other systems, so that a switch finds them ready.  The shown document's errors are priced by a
second worker (`ImpactsReady`).  Workers never touch widgets: they post messages, handled here
(`on_<message>`, which Textual finds on a mixin, unlike `@on`).
"""

from __future__ import annotations

import gc
import threading
import time

from textual import work
from textual.widgets import ProgressBar
from textual.worker import get_current_worker

from metrics.errors.chen_ng.records import ErrorRecord
from metrics.corpus.children import ScoresInChildren
from metrics.corpus.scoring import CorpusResult
from metrics.measures.weights import Weights, given

from ..session import Session
from .impacts import Asked, pieces, with_impacts
from .comparing import FIRST_METRICS, ComparedPair, complete, interval_comparison, rest_metrics
from .messages import EngineFault, ErrorsReady, ImpactsReady, IntervalsReady, Rescored, while_running
from .rows import group_errors
from .scores import ScoresPanel

WORKER_PRICING = "pricing the shown document's errors"
"""The pricing worker's description.  Given, because without one Textual describes a worker by
the `repr` of its arguments: on a book, 52,000 records, 0.9 to 2.3 s on the UI thread each time
the worker started (the first screen's list and its first impacts waited for it)."""


class Workers:
    """Scoring, error analysis and pricing workers, and their results' handlers (mixed into the App)."""

    @work(thread=True, exclusive=True, group="score", description="scoring")
    def _rescore_worker(self, weights: Weights, started: float) -> None:
        """Score under `weights` what is not yet scored, then classify errors; dropped when a newer
        edit came in.  The systems on screen come first (the official metrics before the others,
        so they are on screen soonest), then, in compare mode, their intervals and the other
        systems, so that a switch finds them ready."""
        worker = get_current_worker()
        session = self.session
        shown = self.shown_systems()
        order = [shown, [s for s in range(len(session.corpora)) if s not in shown]]
        results = {s: view.result for s, view in list(self.views.items())}
        classified = {s for s, view in list(self.views.items()) if view.errors_weights == weights}
        for group in order:
            for stage in ("first", "rest"):
                drawn = None
                for system in group:
                    if worker.is_cancelled:
                        return
                    result = self._scored(session, results.get(system), weights, system, stage=stage,
                                          children=self.view_of(system).scoring)
                    if result is None:
                        continue
                    results[system] = result
                    drawn = Rescored(weights, result, time.perf_counter() - started, system)
                    self.post_message(drawn)
                if drawn is not None:
                    # these scores' frame first: the work that follows shares the GIL with drawing
                    drawn.drawn.wait(timeout=1.0)
                if stage == "first":  # errors the opening found: listed and priced while the rest is scored
                    for system in group:
                        if system in classified or worker.is_cancelled:
                            continue
                        errors = self._previewed_all(system, weights)
                        deferred = errors is None and self._errors_deferred(system, weights)
                        if deferred:
                            self._after_frame()  # the text and the scores on screen first
                            errors = self._classified(session, weights, system)
                        if (errors is not None or deferred) and not worker.is_cancelled:
                            classified.add(system)
                            self.post_message(ErrorsReady(weights, errors, system))
            if group is shown and any(system not in classified for system in group):
                self._after_relation_errors(worker)
            for system in group:
                if worker.is_cancelled:
                    return
                if system in classified:
                    continue
                errors = self._classified(session, weights, system)
                if not worker.is_cancelled:
                    self.post_message(ErrorsReady(weights, errors, system))
            pair = ComparedPair(self.baseline, self.system, weights)
            if self.comparing and group is shown and pair not in self.intervals and not worker.is_cancelled:
                comparison = interval_comparison(results[self.baseline], results[self.system],
                                                 session.options.conventions)
                self.post_message(IntervalsReady(pair, comparison))

    def _after_relation_errors(self, worker) -> None:
        """Under the UA conventions, with the relations' list shown (what a UA input opens on):
        wait until its errors are in (their worker ended) before the per-mention errors are
        classified and priced.  That list is hidden until `t`, and its analysis shared the GIL
        with the relations' errors the first screen waits for (on the UA book, 0.4 s of
        classification and the pricing of its first rows, before the relations' list)."""
        while not worker.is_cancelled and self.taxonomy == "ua" and any(
                other.group == "relation-errors" and not other.is_finished for other in list(self.workers)):
            time.sleep(0.05)

    def _previewed_all(self, system: int, weights: Weights) -> dict[str, list[ErrorRecord]] | None:
        """A system's errors when the opening already classified every document under these
        weights (a corpus of one document, such as a book: its second classification took a
        second and a half), else None.  They are posted once the official scores are, so that
        the list's counts and its pricing do not wait for the other metrics."""
        preview = self.view_of(system).preview
        names = self.session.document_names()
        if weights != self.start_weights or not preview or any(name not in preview for name in names):
            return None
        return {name: rows for name, rows in preview.items() if rows}

    def _errors_deferred(self, system: int, weights: Weights) -> bool:
        """Whether the opening left a system's errors to this worker, to be classified as soon as
        the official scores are drawn (a long first document: `opening.LONG_FIRST_TOKENS`; its
        list says "analysing" meanwhile), rather than after every metric."""
        opening = self.opening
        # Under UA the relations' list is shown and this one hidden: classified after the
        # relations' errors are in (`_after_relation_errors`), not beside them.
        return (opening is not None and opening.errors_deferred and weights == self.start_weights
                and not self.view_of(system).preview and self.taxonomy != "ua")

    def _after_frame(self) -> None:
        """Wait (a second at most) until the screen is next drawn: the work that follows holds the
        GIL, and what is ready (a book's text and scores) is to be on screen before it."""
        drawn = threading.Event()
        try:
            self.call_from_thread(self.call_after_refresh, drawn.set)
        except RuntimeError:  # the app is closing: nothing will be drawn
            return
        drawn.wait(timeout=1.0)

    def _classified(self, session: Session, weights: Weights, system: int) -> dict[str, list[ErrorRecord]] | None:
        """A system's errors per document; None when the analysis failed (said on screen)."""
        try:
            return group_errors(session.classify(weights, system=system))
        except Exception as error:  # an engine fault must not take the scores down with it
            self.post_message(EngineFault(f"error analysis failed: {type(error).__name__}: {error}"))
            return None

    @staticmethod
    def _scored(session: Session, result: CorpusResult | None, weights: Weights, system: int, *,
                stage: str, children: ScoresInChildren | None = None) -> CorpusResult | None:
        """The next result of a system in a scoring pass, None when this stage has nothing to do:
        first the official metrics (or, after a weight edit, only the weighted ones), then the rest.
        Scores computed in forked children under these weights (`opening.py`) are taken from
        them, and a weight edit is rescored by them too (this thread only waits, so the UI keeps
        the processor); should a child fail, they are computed here."""
        if stage == "first":
            if result is not None and result.weights == weights:
                return None
            if complete(result, session.options.conventions):
                if children is not None:
                    try:
                        return children.rescore(result, weights)
                    except Exception:  # noqa: BLE001 - a child that died: rescored here instead
                        if get_current_worker().is_cancelled:
                            return None
                return session.rescore(result, weights, system)
        elif result is None or result.weights != weights or complete(result, session.options.conventions):
            return None
        if children is not None and children.weights == weights:
            try:
                return children.stage(0 if stage == "first" else 1)
            except Exception:  # noqa: BLE001 - a child that died (killed at exit, out of memory)
                if get_current_worker().is_cancelled:
                    return None
        if stage == "first":
            return session.score(weights, FIRST_METRICS, system)
        return result.updated(session.score(weights, rest_metrics(session.options.conventions), system))

    @while_running
    def on_rescored(self, message: Rescored) -> None:
        self.call_after_refresh(message.drawn.set)
        if message.weights != self.weights:
            return
        self.view_of(message.system).result = message.result
        if message.system == self.system and message.weights == self.start_weights:
            self.start_micro = message.result.micro
        if message.system not in self.shown_systems():
            return
        self.query_one("#progress", ProgressBar).display = False
        self.refresh_documents()
        if not self.top_opened and self.doc_index == 0:  # the first scores: the list's top opens (untouched)
            top = self.top_document(preview=False)
            if top != self.doc_index:
                self.show_document(top)
        self._show_scores()
        if self.scored_in_full():
            self.last_rescore_seconds = message.seconds
            self.show_weights_status()
            self.prefetch_entity_errors()  # the scoring children are done: the other core is free
        self._status()

    def scored_in_full(self) -> bool:
        """Whether the shown systems are scored, every metric, under the weights in force."""
        conventions = self.session.options.conventions
        return complete(self.result, conventions) and (not self.comparing or
                                                      complete(self.view_of(self.baseline).result, conventions))

    def weights_typed(self, weights: Weights) -> None:
        """New weights from the boxes or a preset: rescored, unless they are those in force (a box
        edited back after an invalid value), when the line under the boxes says so again."""
        if weights != self.weights:
            self.rescore(weights)
        else:
            self.show_weights_status()

    def show_weights_status(self) -> None:
        """The line under the weight boxes: the weights scored, or that their scoring is under way."""
        w = self.weights
        scored = self.scored_in_full() and self.result is not None and self.result.weights == w
        self.query_one(ScoresPanel).set_status(
            f"scored with W = ({', '.join(f'{v:g}' for v in given(w))})" if scored else "scoring ...")  # w_zero if given

    @while_running
    def on_intervals_ready(self, message: IntervalsReady) -> None:
        self.intervals[message.pair] = message.comparison
        if message.pair == self.compared_pair():
            self._show_scores()

    @while_running
    def on_errors_ready(self, message: ErrorsReady) -> None:
        if message.weights != self.weights:
            return
        view = self.view_of(message.system)
        view.errors, view.priced, view.errors_weights = message.errors, set(), message.weights
        gc.freeze()  # tens of thousands of long-lived records: keep full GC passes off them
        if message.system not in self.shown_systems():
            return
        if self.comparing:  # the tints of the changes: the text stays where the user has it
            self.show_compared_text(self.doc_index, keep_view=True)
        self._show_errors()
        self.refresh_documents()
        self._price_current()

    def _price_current(self) -> None:
        """Price the current document's errors (of both systems in compare mode) unless done:
        the list shows them meanwhile."""
        if self.corpus is None:
            return
        name = self.corpus.pairs[self.doc_index].name
        work = []
        for system in self.shown_systems():
            view = self.view_of(system)
            if view.errors_weights != self.weights:
                return  # not all classified yet: priced when they are
            if view.errors is not None and name not in view.priced and view.errors.get(name):  # None: analysis failed
                work.append((system, view.errors[name]))
        if not work:
            self.settled_weights = self.weights
            return
        self._price_worker(self.weights, name, work)

    @work(thread=True, exclusive=True, group="price", description=WORKER_PRICING)
    def _price_worker(self, weights: Weights, name: str, work: list[tuple[int, list[ErrorRecord]]]) -> None:
        """Impacts on the corpus CoNLL F1 (independent of W, so one pricer serves every W).

        A long document's list (a book: tens of thousands of errors) is priced from its top
        (`impacts.pieces`): the first `FIRST_PRICED` rows, the screen's, are posted at once
        (`partial`, the rest listed unpriced), the whole at the end.  Under the UA conventions,
        while the relations' list hides this one, it is not priced until `t` shows it (on the UA
        book its pricer's set-up and its rows were seconds of GIL that every key after the first
        screen shared: F3 took 0.8-2.2 s).  The opening's pricing
        child prices them when there is one (`impacts.py`: this thread only waits for it)."""
        worker = get_current_worker()
        for system, records in work:
            rows: list[ErrorRecord] = []
            try:
                for number, (start, end) in enumerate(pieces(len(records))):
                    if self.taxonomy == "ua":  # the list hidden behind the relations' (UA): priced at `t`
                        break
                    if number == 1 and not self._rest_may_be_priced(system, weights, worker):
                        return
                    priced = self._priced(Asked(system, weights, name, start, end), records[start:end])
                    if priced is None or worker.is_cancelled:
                        return
                    rows.extend(priced)
                    if number == 0 and end < len(records):
                        self.post_message(ImpactsReady(weights, {name: rows + records[end:]}, system, partial=True))
            except Exception as error:  # keep the errors listed, without impacts
                self.post_message(EngineFault(f"impact pricing failed: {type(error).__name__}: {error}"))
                rows = records
            if worker.is_cancelled:
                return
            if len(rows) < len(records):  # priced once `t` shows the list (`action_taxonomy`)
                self.post_message(ImpactsReady(weights, {}, system, partial=True, deferred=True))
                continue
            self.post_message(ImpactsReady(weights, {name: rows}, system))

    def _rest_may_be_priced(self, system: int, weights: Weights, worker) -> bool:
        """Wait until a system's scores under `weights` are all in and no K&K analysis is under
        way (False: the worker was cancelled meanwhile).  The rest of a long list, beyond the
        screen's rows, is priced only then: what is on screen, or is what `t` waits for, comes
        first (on a book, ten seconds of pricing beside the K&K analysis doubled its time)."""
        while not worker.is_cancelled:
            result = self.view_of(system).result
            done = result is not None and (result.weights != weights or complete(result, self.session.options.conventions))
            if done and not self.kk_pending:
                return True
            time.sleep(0.05)
        return False

    def _priced(self, asked: Asked, records: list[ErrorRecord]) -> list[ErrorRecord] | None:
        """`records` (`asked`'s) with their impacts: from the pricing child when it answers for
        these very errors, else priced here; None once the worker is cancelled."""
        opening = self.opening
        answer = opening.impacts_of(asked, records if opening.sends_errors else None) if opening else None
        priced = with_impacts(records, answer) if answer is not None else None
        if priced is not None:
            return priced
        worker = get_current_worker()
        return self.session.price(records, "conll", asked.weights, lambda: worker.is_cancelled, asked.system)

    @while_running
    def on_impacts_ready(self, message: ImpactsReady) -> None:
        view = self.view_of(message.system)
        if message.weights != self.weights or view.errors is None or view.errors_weights != message.weights:
            return
        view.errors.update(message.errors)
        if not message.partial:
            view.priced.update(message.errors)
        if message.deferred and message.system in self.shown_systems():
            self.settled_weights = message.weights  # the rest of a hidden list: nothing on screen waits
        self.prefetch_entity_errors()  # the first screen is drawn: the K&K analysis can start
        name = self.corpus.pairs[self.doc_index].name
        if name in message.errors and message.system in self.shown_systems():
            self._show_errors(keep_cursor=True)
            if not message.partial and all(name in self.view_of(s).priced or not self.view_of(s).errors.get(name) for s in self.shown_systems()):
                self.settled_weights = message.weights

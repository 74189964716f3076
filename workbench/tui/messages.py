"""Messages the workbench's workers post to the app ("messages up"): workers never touch widgets.

Loading posts `Progress` then `Loaded` (or `LoadFailed`); a weight edit's worker posts `Rescored`,
then `ErrorsReady`, and in compare mode `IntervalsReady`; the pricing worker posts `ImpactsReady`;
the K&K worker `EntityErrorsReady`; an optional analysis that fails posts `EngineFault`, and the
rest of the screen keeps working.  (The charts screen's worker posts to that screen: its messages
are its own, `ChartsScreen.ChartsReady` and `ChartsScreen.StagesReady`.)

Every handler of such a message (and of a widget's message that can come in while the app quits)
goes through the one closing guard, `while_running`.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from textual.message import Message

from metrics.errors.chen_ng.records import ErrorRecord
from metrics.corpus.scoring import CorpusResult
from metrics.measures.weights import Weights
from metrics.statistics.significance import Comparison

from ..session import Session
from .comparing import ComparedPair

if TYPE_CHECKING:  # the analysis loads when the entity list is first asked for, not with the app
    from .kkpacked import PackedKKErrors


class Progress(Message):
    def __init__(self, label: str) -> None:
        super().__init__()
        self.label = label


class Loaded(Message):
    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session


class LoadFailed(Message):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class Rescored(Message):
    """A corpus scored under `weights` (`seconds`: from the edit to the result).  The app sets
    `drawn` once the scores are on screen; the worker waits for it before classifying errors, so
    that its CPU work does not delay that frame (threads share the GIL)."""

    def __init__(self, weights: Weights, result: CorpusResult, seconds: float, system: int = 0) -> None:
        super().__init__()
        self.weights, self.result, self.seconds, self.system = weights, result, seconds, system
        self.drawn = threading.Event()


class ErrorsReady(Message):
    """Error records of every document under `weights` (impacts not yet priced), or None when
    the error analysis failed."""

    def __init__(self, weights: Weights, errors: dict[str, list[ErrorRecord]] | None, system: int = 0) -> None:
        super().__init__()
        self.weights, self.errors, self.system = weights, errors, system


class EngineFault(Message):
    """An optional analysis (errors, impacts) failed: say so, keep the rest of the screen working."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class ImpactsReady(Message):
    """Error records of some documents with their impacts priced, under `weights`; `partial`:
    only the first rows priced so far (a long list's), the rest to come; `deferred`: the rest
    of a hidden list left until it is shown (nothing on screen waits for it)."""

    def __init__(self, weights: Weights, errors: dict[str, list[ErrorRecord]], system: int = 0,
                 partial: bool = False, deferred: bool = False) -> None:
        super().__init__()
        self.weights, self.errors, self.system, self.partial = weights, errors, system, partial
        self.deferred = deferred


class IntervalsReady(Message):
    """Compare mode: the differences of `pair`'s compared system to its baseline, under its
    weights, with their intervals."""

    def __init__(self, pair: ComparedPair, comparison: Comparison) -> None:
        super().__init__()
        self.pair = pair
        self.comparison = comparison


class EntityErrorsReady(Message):
    """Kummerfeld & Klein's errors of some systems (system -> its errors as arrays, None when the
    analysis failed)."""

    def __init__(self, errors: dict[int, PackedKKErrors | None]) -> None:
        super().__init__()
        self.errors = errors


Handler = TypeVar("Handler", bound=Callable[..., None])


def while_running(handler: Handler) -> Handler:
    """The closing guard: `handler` (of an app, screen or widget) runs only while its message
    pump does.  Why: a worker's message, or a widget's posted just before a quit, can arrive
    while the app is closing, when its widgets are gone (a query would raise over the exit).
    A dropped `Rescored` is released (its `drawn` set), so its worker does not wait for a frame
    that will not come.  Textual reads the handler's parameters through the wrapper (`wraps`)."""

    @functools.wraps(handler)
    def guarded(self: Any, *args: Any) -> None:
        if self.is_running:
            handler(self, *args)
            return
        for argument in args:
            if isinstance(argument, Rescored):
                argument.drawn.set()

    return cast(Handler, guarded)


class RelationErrorsReady(Message):
    """Under --conventions ua: systems' relation errors (None where they failed)."""

    def __init__(self, errors: dict) -> None:
        super().__init__()
        self.errors = errors

"""Opening the workbench: its inputs read, and their scoring started, before the UI starts.

Why here and not in the app's loading worker: the UI runs threads, and a process with threads
must not fork (`metrics.runtime.parallel.can_fork`), so in the app one core would read, align and score
everything (on gum-open, 0.8 s for the 20 metrics alone, sharing the GIL with the drawing).
Before Textual starts there is one thread, so:
- `Session.load` could read the responses in forked processes beside the key (from
  `metrics.conventions.pipeline.PARALLEL_READ_BYTES`, more than `OPEN_BYTES`: not for the inputs
  opened here);
- the first document's mention types are found (a book's: 0.8 s, which each child that scores
  the other metrics or prices errors found again for itself, and the UI's text waits for);
- every system's scores are computed in forked children (`metrics.corpus.children`),
  the official metrics first and then the others, while this process starts the UI and draws;
- the first document's errors are classified here (a few milliseconds), so the first screen
  lists them; the scoring worker classifies the whole corpus's once its scores are in.  A first
  document of `LONG_FIRST_TOKENS` or more (a book) is not: its classification (0.5 s of
  processor, 1.8 s on a busy machine) would hold back its text and scores, which are what the
  first screen shows.  Its list says "analysing" on the first screen, and the app's worker
  classifies it as soon as the official scores are drawn.  Its pricing child is forked at once,
  so that it sets up its pricer on the document meanwhile and is sent the errors with each
  question;
- when the first document's error list is long, a child then prices the first screen's errors at
  once, and any others when the app asks (`impacts.py`): a book's pricing no longer holds the
  app's GIL for seconds;
- a child analyses the shown systems' errors as Kummerfeld & Klein do (`entity_errors`) from
  the start, below every other child (`KK_NICE`), and answers when the app asks (once the first
  screen is drawn, or at `t` if sooner).  On a book that is seconds of work, done on the other
  core, so the UI's thread does not share the GIL with it and every key answers meanwhile, and
  `t` finds it done or nearly; the errors come back as arrays (`kkpacked`), not pickled objects.
- under the UA conventions, a child finds the relations' errors (`Session.ua_errors`, priced
  against every UA metric), what a UA input's first screen lists: in the app they shared its GIL
  with the text's first layout, and the app had to score every metric itself first.  It and the
  scoring children are forked before the first document is typed (neither needs the types);
  the K&K child waits to be asked, and the app asks once the relations' errors are in, and a
  long first document's pricer is set up only when `t` shows its list: neither takes processor
  from the relations' child meanwhile.
Inputs larger than `OPEN_BYTES` (`UA_OPEN_BYTES` under UA), or a system without `os.fork`, are
loaded by the app's own worker instead, behind its progress bar: nobody should face a blank
terminal for many seconds.
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from metrics.errors.chen_ng.records import ErrorRecord
from metrics.runtime.gc_pause import gc_paused
from metrics.conventions.options import UA
from metrics.model import InputError
from metrics.runtime.parallel import Forked, can_fork
from metrics.corpus.children import ScoresInChildren, score_in_children
from metrics.measures.weights import Weights

from ..session import LoadOptions, Session
from .comparing import FIRST_METRICS, rest_metrics
from .impacts import Asked, Priced, Request, pieces, serve_impacts
from .rows import group_errors

if TYPE_CHECKING:  # the analysis loads in the child
    from metrics.errors.ua.records import UAError

    from .kkpacked import PackedKKErrors

OPEN_BYTES = 32 << 20
"""Inputs up to this size (all files together) are read before the UI starts: 0.3-0.6 s on
gum-open (11 MB, 17 MB with both responses) with a warm cache, 3.5 s on a synthetic 29 MB pair
(7 s the first time, when the cache is written), with a line on the terminal meanwhile."""
UA_OPEN_BYTES = 64 << 20
"""The same under the UA conventions, whose files read faster by the byte: the UA book (two files
of 26 and 29 MB, 282,729 words) reads in 0.35 s with a warm cache and 1.9 s of processor the first
time, the first document typed in 0.7 s more.  Read before the UI, its scores and relations'
errors are found in children while the app lays out its text (its first screen at 200x50 came
5.5-6.8 s after the start, all in one process, at load 2-5).  (The CoNLL-U book, which reads more
slowly, was made slower by a limit of 64 MB for every format: tui11's trial.)"""


@dataclass
class Opening:
    """What is ready when the UI starts: the session or why it could not be read, the scoring
    running in children per system, and the first document's errors per shown system."""

    session: Session | None = None
    failure: str | None = None
    """The one-line message of an input that could not be read (shown on screen; exit status 1)."""
    scoring: dict[int, ScoresInChildren] = field(default_factory=dict)
    preview: dict[int, dict[str, list[ErrorRecord]]] = field(default_factory=dict)
    entity_errors: Forked | None = None
    """A child that analyses a system's K&K errors (`entity_errors_of`)."""
    sends_errors: bool = False
    """The pricing child was forked before the errors it prices were classified (a long first
    document's): each question to it carries them."""
    errors_deferred: bool = False
    """A long first document (`LONG_FIRST_TOKENS`): nothing classified here, the app's worker
    classifies the errors right after the official scores are drawn (under UA, after the
    relations' errors), and the app lays out its text before it waits for any score."""
    pricing: Forked | None = None
    """A child that prices errors' impacts when asked (`impacts_of`)."""
    relation_errors: Forked | None = None
    """Under UA: a child that finds a system's relations' errors (`relation_errors_of`)."""
    _asking: threading.Lock = field(default_factory=threading.Lock)
    """One question to the child at a time (the app's workers may ask for two systems at once)."""
    _pricing_lock: threading.Lock = field(default_factory=threading.Lock)
    _relating: threading.Lock = field(default_factory=threading.Lock)

    def close(self) -> None:
        """End the children still running (the app has quit)."""
        for children in (*self.scoring.values(),
                         *(c for c in (self.entity_errors, self.pricing, self.relation_errors) if c)):
            children.close()

    def impacts_of(self, asked: Asked, rows: list[ErrorRecord] | None = None) -> Priced | None:
        """The impacts the pricing child gives for `asked` (`rows`: the errors, for a child that
        does not have them), waited for; None when there is no child or it cannot answer (the
        caller prices them itself)."""
        return self._answer(self._pricing_lock, "pricing", Request(asked, rows))

    def entity_errors_of(self, system: int) -> PackedKKErrors | None:
        """A system's K&K errors (`Session.kk_errors`, packed) from the child, waited for; None when
        there is no child or it cannot answer (the caller analyses them itself)."""
        return self._answer(self._asking, "entity_errors", system)

    def relation_errors_of(self, system: int) -> list[UAError] | None:
        """A system's UA relations' errors (`Session.ua_errors`) from the child, waited for; None
        when there is no child or it cannot answer (the caller finds them itself)."""
        return self._answer(self._relating, "relation_errors", system)

    def _answer(self, lock: threading.Lock, child_name: str, question: Any) -> Any:
        """The child's answer to `question`; a child that died or failed is closed and forgotten
        (None: the caller does the work in the app instead)."""
        with lock:
            child = getattr(self, child_name)
            if child is None:
                return None
            try:
                return child.ask(question)[0]
            except Exception:  # noqa: BLE001 - a child that died or failed: the work is done in the app
                setattr(self, child_name, None)
                child.close()
                return None


LONG_FIRST_TOKENS = 20_000
"""A first document of at least this many key tokens is not classified before the UI: the first
screen shows its text and scores, its list says "analysing", and the app's worker classifies it
once the official scores are drawn (a book of 295,000 tokens: 0.5 s of processor, 1.8 s on a
busy machine, which its first screen waited for).  Its pricing child is forked at once, so that
it sets up its pricer on the document meanwhile (0.7 s of its first impacts), and is sent the
errors with each question; a shorter document's child is forked after its errors are classified
here, with them in memory."""


UNREADABLE = "error: cannot read these files"
"""Said when a load failed without a message of its own (it always has one; a last resort)."""


SCORING_NICE = 10
"""Every child of the opening (scoring, pricing, the K&K analysis) runs at a lower priority than
the UI: its start is what the user waits for first, and the children have the official scores by
its end (with four children and the UI on two cores at one priority, the UI took 0.6 s to start
instead of 0.35-0.45 s).  Where the system schedules a terminal's processes as one group (Linux's
autogroups), the children only give way to the UI, not to other programs.  (At one priority, a
book's opening and first screen came 1-6 s later on a busy machine: the children took half of
what the UI had.)"""
KK_NICE = 19
"""The K&K child, which starts at once, runs below the other children: the first screen waits
for them (its errors, their impacts, the scores), `t` only comes later."""


def load_session(key_path: str, response_paths: Sequence[str], options: LoadOptions,
                 stage: Callable[[str], None] | None = None, processes: int = 1) -> tuple[Session | None, str | None]:
    """The session, or the message saying why the files cannot be scored (one line, no traceback)."""
    try:
        return Session.load(key_path, response_paths, options, stage=stage, processes=processes), None
    except (InputError, OSError) as error:
        return None, f"error: {error}"
    except Exception as error:  # an engine fault: said on screen, not a traceback over it
        return None, f"error: cannot score these files: {type(error).__name__}: {error}"


def open_inputs(key_path: str, response_paths: Sequence[str], options: LoadOptions, *, weights: Weights,
                shown: Sequence[int], processes: int, notice: Callable[[str], None] | None = None) -> Opening | None:
    """Read and start scoring before the UI (see the module docstring); None when the app should
    load by itself (too large, no fork, one process asked for).  `notice` hears what is being
    done, for the terminal that waits meanwhile."""
    if processes < 2 or not can_fork() or _size([key_path, *response_paths]) > open_bytes(options):
        return None
    if notice is not None:
        count = len(response_paths)
        notice(f"reading the key{f' and {count} response' + ('s' if count > 1 else '') if count else ''} ...")
    with gc_paused():
        opening = _open(key_path, response_paths, options, weights=weights, shown=shown, processes=processes)
        # What was read lives as long as the app: out of the cyclic collector's sight before the
        # UI starts, or its first full pass walks it all (90 ms, in the middle of Textual's
        # start).  Frozen before the collector resumes: the first allocation after that would
        # otherwise walk everything made while it was paused (60 ms).
        gc.freeze()
    return opening


def _open(key_path: str, response_paths: Sequence[str], options: LoadOptions, *, weights: Weights,
          shown: Sequence[int], processes: int) -> Opening:
    """The session read, and the children forked before the app starts (each system's scoring,
    K&K's errors, the pricing of the first screen's errors), with what they share computed first.
    Each step is a head start only: one that fails, or finds no process to be had, is left to the
    app's workers, which meet any fault again and say it."""
    session, failure = load_session(key_path, response_paths, options, processes=processes)
    opening = Opening(session, failure)
    if session is None or not response_paths:
        return opening
    # Under UA the scores and the relations' errors need no mention types: their children start
    # before the typing (0.7 s on the UA book), which the others, and the app, share.
    untyped = session.options.conventions == UA
    if not untyped:
        first_typed(session, shown)  # before any child is forked: every one of them, and the app, shares them
    for system in range(len(session.corpora)):
        try:
            # the shown systems' children stay, to rescore a weight edit while the UI draws
            stages = [FIRST_METRICS, rest_metrics(session.options.conventions)]
            children = score_in_children(session.corpora[system], weights, stages, processes, nice=SCORING_NICE,
                                          serving=system in shown)
        except OSError:  # no process to be had (a limit, memory): the app's worker scores it
            continue
        if children is not None:
            opening.scoring[system] = children
    if untyped:
        try:  # what the first screen lists: found beside the scores, the app's GIL left to its text
            opening.relation_errors = Forked(partial(_serve_relation_errors, session, list(shown)), [None],
                                             SCORING_NICE, serving=True)
        except OSError:  # no process to be had: the app finds them in its worker
            pass
        first_typed(session, shown)
    try:  # it starts on the shown systems at once (under UA once asked), below the other children
        opening.entity_errors = Forked(partial(_serve_entity_errors, session, list(shown), at_once=not untyped),
                                       [None], KK_NICE, serving=True)
    except OSError:  # no process to be had: the app analyses them in its worker
        pass
    first = session.document_names()[:1]
    if first and len(session.corpora[0].pairs[0].key.words) >= LONG_FIRST_TOKENS:
        # a long first document: the pricer set up on it while the app's worker classifies it,
        # the errors sent with each question
        # (Under UA the per-mention list is hidden behind the relations' list and priced at `t`:
        # its pricer is set up then, not beside the children the first screen waits for.)
        warm = [] if untyped else [(system, name) for system in shown for name in first]
        _fork_pricing(opening, partial(serve_impacts, session=session, preview={}, weights=weights, first=[], warm=warm))
        opening.sends_errors = opening.pricing is not None
        opening.errors_deferred = True
        return opening
    try:
        for system in shown:
            errors = group_errors(session.classify(weights, first, system))
            opening.preview[system] = {name: errors.get(name, []) for name in first}
    except Exception:  # noqa: BLE001 - the scoring worker classifies again and reports the fault
        opening.preview = {}
    # forked last, with the first document's errors in memory: it prices those the first screen
    # shows.  Only for a long list (priced in pieces, a book's): a short one takes the app's worker
    # milliseconds, and forking (40 ms on gum-open) would come out of the first screen's second.
    lists = [len(opening.preview[system][name]) for system in shown for name in first
             if opening.preview.get(system, {}).get(name)]
    if opening.pricing is not None or not any(len(pieces(count)) > 1 for count in lists):
        return opening
    first_screen = [Asked(system, weights, name, *pieces(len(opening.preview[system][name]))[0])
                    for system in shown for name in first if opening.preview.get(system, {}).get(name)]
    _fork_pricing(opening, partial(serve_impacts, session=session, preview=opening.preview, weights=weights,
                                   first=first_screen))
    return opening


def first_typed(session: Session, shown: Sequence[int]) -> None:
    """The shown systems' first document's spans and mention types, computed once and kept by its
    pair: what its text is drawn with.  Here or in the app's loading worker, not on the UI thread
    that draws the text (a UA book's: 2.7 s, its token spans and relations made as well)."""
    try:
        for system in shown:
            for pair in session.corpora[system].pairs[:1]:
                pair.typed_spans()
    except Exception:  # noqa: BLE001 - an engine fault: the app's worker meets it again and says it
        pass


def _fork_pricing(opening: Opening, serve: Callable[..., Iterator[Priced]]) -> None:
    """The pricing child (`impacts.py`), left waiting for the app's questions."""
    try:
        opening.pricing = Forked(serve, [None], SCORING_NICE, serving=True)
    except OSError:  # no process to be had: the app prices them in its worker
        pass


def _serve_entity_errors(session: Session, shown: Sequence[int], _: None, requests: Iterable[int], *,
                         at_once: bool = True) -> Iterator[PackedKKErrors]:
    """In a child: the K&K errors of the shown systems analysed at once (`at_once`; else when
    first asked: under UA, once the relations' list the first screen waits for is in, whose
    children it took processor from), then of each system the app asks for, as arrays
    (`kkpacked`: what crosses the pipe and is read in the app in milliseconds)."""
    from .kkpacked import PackedKKErrors

    analysed = {system: PackedKKErrors(session.kk_errors(system)) for system in shown} if at_once else {}
    for system in requests:
        found = analysed.get(system)
        yield found if found is not None else PackedKKErrors(session.kk_errors(system))


def _serve_relation_errors(session: Session, shown: Sequence[int], _: None,
                           requests: Iterable[int]) -> Iterator[list[UAError]]:
    """In a child: the UA relations' errors of the shown systems found at once, then of each
    system the app asks for."""
    found = {system: session.ua_errors(system) for system in shown}
    for system in requests:
        errors = found.get(system)
        yield errors if errors is not None else session.ua_errors(system)


def open_bytes(options: LoadOptions) -> int:
    """The largest inputs (all files together) read before the UI under these options."""
    return UA_OPEN_BYTES if options.conventions == UA else OPEN_BYTES


def _size(paths: Sequence[str]) -> int:
    """The inputs' total size in bytes (a path that cannot be measured counts as too large, so
    the app's loading worker reads it and reports what is wrong)."""
    try:
        return sum(os.stat(path).st_size for path in paths)
    except (OSError, ValueError):
        return UA_OPEN_BYTES + OPEN_BYTES + 1

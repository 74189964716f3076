"""Independent pieces of work spread over forked processes, their results returned in order.

Why fork: scoring a corpus is a loop over document pairs that share nothing, and on a corpus the
size of GUM the scores, heads and mention types are about half of a `corefwb score` run.  A forked
child starts with the parent's prepared documents already in memory (copy-on-write), so nothing
is sent to it; only its results (a few hundred small score objects) come back, pickled through a
pipe.  A process pool would pay for starting interpreters, or for pickling the documents out.

`fork_map` computes the first piece in the parent, so `n` pieces take `n - 1` children;
`Forked` computes every piece in a child, and each child may send a series of results, for a
parent with work of its own meanwhile (the workbench drawing its first screen).  Results are
returned in piece order, and each piece's result does not depend on which process computed it,
so the outcome is identical to the serial loop's.  Where forking is unsafe or impossible (no
`os.fork`, or other threads running: a forked child inherits their locks but not the threads) the
pieces are computed here, one after another.
"""

from __future__ import annotations

import os
import pickle
from bisect import bisect_left
from itertools import accumulate
import select
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import BinaryIO, TypeVar

Piece = TypeVar("Piece")
Result = TypeVar("Result")


PARALLEL_TOKENS = 1_000_000
"""Tokens (key and response) a process that scores or types documents should have at least:
below that, forking and collecting cost more than they save.  Measured on a corpus of 250,000
tokens (590,000 key and response) on 2 cores: scoring in two processes took 0.05 s off the run's
critical path (the parent's CPU time, what an idle machine would wait) and cost 0.2-0.3 s of CPU,
most of it pages of the parent's memory copied as either process writes them (40,000 more page
faults: every object whose reference count a child changes, every allocation in a shared page).
On a machine with no idle processor a fork saves nothing and costs as much."""

BACKGROUND_TOKENS = 40_000
"""Tokens (key and response) from which documents are scored in forked children while the caller
works on (`corpus.children`: the workbench drawing its first screen), where the caller's own
time is what counts: below that, scoring them in the caller costs less than forking."""


def processors() -> int:
    """Processors this process may run on (its affinity mask where the system has one)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def can_fork() -> bool:
    """Whether forking is safe here: a POSIX system, and no thread besides this one."""
    return hasattr(os, "fork") and threading.active_count() == 1


def fork_map(function: Callable[[Piece], Result], pieces: Sequence[Piece]) -> list[Result]:
    """`[function(piece) for piece in pieces]`, the pieces after the first in forked children.

    An exception in a child is raised here (as a RuntimeError naming it if it cannot be pickled).
    Where no process can be forked, the pieces are computed here.
    """
    if len(pieces) <= 1 or not can_fork():
        return [function(piece) for piece in pieces]
    try:
        children = Forked(lambda piece: iter([function(piece)]), pieces[1:])
    except OSError:  # no process to be had (a process limit, memory): all of it here, in turn
        return [function(piece) for piece in pieces]
    try:
        first = function(pieces[0])
        return [first, *children.next()]
    finally:
        children.close()


QUEUE_ENTRIES = 16_000
"""Most entries `fork_each` queues: their numbers (4 bytes each) must fit in a pipe's buffer (64
KiB on Linux), as they are written before any process reads.  More items go in runs."""


def fork_each(function: Callable[[Piece], Result], items: Sequence[Piece], processes: int,
              on_done: Callable[[], None] | None = None) -> list[Result]:
    """`[function(item) for item in items]`, by up to `processes` processes (this one and forked
    children), each taking the next item from a shared queue as it finishes one.  For items whose
    cost cannot be told ahead (a document's fixes to price): a process with cheap items takes
    more of them, where a split decided in advance leaves one process waiting for the other.
    Put the dearest items first.  Each item's result must not depend on which process computes
    it; the results come back in item order.

    `on_done()` is called here each time an item is finished, wherever (a progress bar): then
    every item is computed in a child, each child telling of each item it finishes on its pipe,
    and this process reads the pipes as the messages come."""
    if processes <= 1 or len(items) <= 1 or not can_fork():
        return _serial(function, items, on_done)
    run = -(-len(items) // QUEUE_ENTRIES)  # items per queue entry
    entries = -(-len(items) // run)
    queue_out, queue_in = os.pipe()
    try:
        os.write(queue_in, b"".join(entry.to_bytes(4, "little") for entry in range(entries)))
    finally:
        os.close(queue_in)

    def drain() -> dict[int, Result]:
        done: dict[int, Result] = {}
        while len(taken := os.read(queue_out, 4)) == 4:
            first = int.from_bytes(taken, "little") * run
            for index in range(first, min(first + run, len(items))):
                done[index] = function(items[index])
        return done

    def drain_telling() -> Iterator[dict[int, Result] | None]:
        """In a child: None as each item is finished, then the results."""
        done: dict[int, Result] = {}
        while len(taken := os.read(queue_out, 4)) == 4:
            first = int.from_bytes(taken, "little") * run
            for index in range(first, min(first + run, len(items))):
                done[index] = function(items[index])
                yield None
        yield done

    try:
        try:
            if on_done is None:
                children = Forked(lambda _: iter([drain()]), range(min(processes, entries) - 1))
            else:
                children = Forked(lambda _: drain_telling(), range(min(processes, entries)))
        except OSError:  # no process to be had: all of it here
            return _serial(function, items, on_done)
        try:
            if on_done is None:
                found = drain()
                for part in children.next():
                    found.update(part)
            else:
                found = {}
                for message in children.as_they_come():
                    if message is None:
                        on_done()
                    else:
                        found.update(message)
        finally:
            children.close()
    finally:
        os.close(queue_out)
    return [found[index] for index in range(len(items))]


def _serial(function: Callable[[Piece], Result], items: Sequence[Piece],
            on_done: Callable[[], None] | None) -> list[Result]:
    out = []
    for item in items:
        out.append(function(item))
        if on_done is not None:
            on_done()
    return out


class Forked:
    """Pieces computed in forked children, each child sending a series of results (what
    `function(piece)` yields, in turn), so that a caller can use the first results (the official
    metrics, say) while the children compute the next.  Start it only where `can_fork()`.

    `next()` waits for every child's next result; `close()` ends the children that are still
    computing (a caller that no longer wants their results) and reaps them.

    With `serving`, each child also has a pipe of requests: `function(piece, requests)` is called
    with an iterator over the requests `ask` sends, and may yield a result for each, so children
    that have the documents in memory answer later questions (the workbench's rescoring after a
    weight edit) without the parent computing them.  They live until `close()`.
    """

    def __init__(self, function: Callable[..., Iterable[Result]], pieces: Sequence[Piece],
                 nice: int = 0, serving: bool = False) -> None:
        """`nice` > 0 lowers the children's priority (`os.nice`): work in the background of a
        parent that has its own to do first, such as a UI starting."""
        self._children: list[tuple[int, BinaryIO]] = []
        self._requests: list[BinaryIO] = []
        self._closed = False
        try:
            for piece in pieces:
                read_end, write_end = os.pipe()
                asked, ask = os.pipe() if serving else (-1, -1)
                pid = os.fork()
                if pid == 0:  # the child: compute, send, and leave without the parent's exit handlers
                    os.close(read_end)
                    if nice > 0:
                        _lower_priority(nice)
                    work = function
                    if serving:
                        os.close(ask)
                        work = lambda item: function(item, _incoming(asked))  # noqa: E731
                    _child(work, piece, write_end)
                os.close(write_end)
                self._children.append((pid, os.fdopen(read_end, "rb", buffering=0)))
                if serving:
                    os.close(asked)
                    self._requests.append(os.fdopen(ask, "wb"))
        except BaseException:
            self.close()
            raise

    def ask(self, request: object) -> list[Result]:
        """Send `request` to every child (`serving`), then wait for each one's answer, in piece
        order.  A child that has ended is a RuntimeError."""
        if self._closed or not self._requests:
            raise RuntimeError("the worker processes have ended (or take no requests)")
        payload = pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            for target in self._requests:
                _send(target, payload)
        except OSError as exc:  # a child that died: its pipe is broken
            raise RuntimeError(f"a worker process has ended: {exc}") from None
        return self.next()

    def next(self) -> list[Result]:
        """Each child's next result, in piece order.  An exception raised in a child is raised
        here; a child that ended without sending is a RuntimeError."""
        if self._closed:
            raise RuntimeError("the worker processes were ended before sending their results")
        results = []
        for _, source in self._children:
            ok, value = _receive(source)
            if not ok:
                raise value
            results.append(value)
        return results

    def ready(self) -> bool:
        """Whether every child has sent something (or ended): `next()` would not wait for long."""
        if self._closed:
            return True
        fds = [source.fileno() for _, source in self._children]
        ready, _, _ = select.select(fds, [], [], 0)
        return len(ready) == len(fds)

    def as_they_come(self) -> Iterator[Result]:
        """Every result of every child as it arrives, whichever child sends first, until every
        child has ended.  An exception raised in a child is raised here."""
        if self._closed:
            raise RuntimeError("the worker processes were ended before sending their results")
        waiting = {source.fileno(): source for _, source in self._children}
        while waiting:
            ready, _, _ = select.select(list(waiting), [], [])
            for fd in ready:
                size = _exactly(waiting[fd], 8)
                if not size:  # this child has ended and sent everything
                    del waiting[fd]
                    continue
                ok, value = _message(waiting[fd], size)
                if not ok:
                    raise value
                yield value

    def close(self) -> None:
        """End every child (at once: a computation nobody will read is not waited for) and reap it."""
        self._closed = True
        requests, self._requests = self._requests, []
        for target in requests:
            try:
                target.close()
            except OSError:  # a child already gone: nothing to flush to
                pass
        children, self._children = self._children, []
        for pid, _ in children:  # first: a thread still reading from one then meets its end
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for pid, source in children:
            source.close()
            os.waitpid(pid, 0)


def split(costs: Sequence[float], processes: int, least: float) -> list[list[int]]:
    """Indices of `costs` in pieces for at most `processes` processes, as many as the work is
    worth: each piece should cost at least `least` (below that, a fork costs more than it saves)."""
    return balanced(costs, max(1, min(processes, int(sum(costs) // least))))


def split_in_runs(costs: Sequence[float], processes: int, least: float) -> list[list[int]]:
    """`split`'s pieces as runs of consecutive indices, each of about the same cost: a forked
    child then touches (and so copies) few of the pages holding the other pieces' objects, which
    lie elsewhere in memory, and the pieces' results follow each other in index order."""
    if not costs:
        return []
    n = max(1, min(processes, int(sum(costs) // least), len(costs)))
    ends = list(accumulate(costs))
    bounds = [0]
    for k in range(1, n):  # piece k - 1 ends where the running cost comes nearest to k/n of the whole
        target = ends[-1] * k / n
        at = bisect_left(ends, target)
        bounds.append(max(bounds[-1], at + 1 if at == 0 or ends[at] - target <= target - ends[at - 1] else at))
    bounds.append(len(costs))
    return [list(range(a, b)) for a, b in zip(bounds, bounds[1:]) if b > a]


def balanced(costs: Sequence[float], n: int) -> list[list[int]]:
    """Indices of `costs` in at most `n` non-empty pieces of similar total cost (the dearest
    first, each to the lightest piece so far), each piece's indices in increasing order."""
    loads = [0.0] * max(1, min(n, len(costs)))
    pieces: list[list[int]] = [[] for _ in loads]
    for index in sorted(range(len(costs)), key=lambda i: -costs[i]):
        lightest = loads.index(min(loads))
        pieces[lightest].append(index)
        loads[lightest] += costs[index]
    return [sorted(piece) for piece in pieces if piece]


def _child(function: Callable[[Piece], Iterable[Result]], piece: Piece, write_end: int) -> None:
    """Run in a forked child: send (True, result) for each result, or (False, exception) at the
    first error, and exit at once (no exit handlers of the parent's)."""
    status = 0
    try:
        with os.fdopen(write_end, "wb") as out:
            try:
                for result in function(piece):
                    _send(out, pickle.dumps((True, result), protocol=pickle.HIGHEST_PROTOCOL))
            except BaseException as exc:  # noqa: BLE001 - everything is reported to the parent
                status = 1
                try:
                    payload = pickle.dumps((False, exc), protocol=pickle.HIGHEST_PROTOCOL)
                except Exception:  # noqa: BLE001 - an exception that cannot be pickled
                    payload = pickle.dumps((False, RuntimeError(f"{type(exc).__name__}: {exc}")))
                _send(out, payload)
    finally:
        os._exit(status)


def _incoming(fd: int) -> Iterator[object]:
    """In a serving child: the requests the parent sends (`Forked.ask`), until it closes the pipe."""
    with os.fdopen(fd, "rb") as source:
        while len(size := source.read(8)) == 8:
            yield pickle.loads(source.read(int.from_bytes(size, "little")))


def _lower_priority(nice: int) -> None:
    try:
        os.nice(nice)
    except (AttributeError, OSError):  # no such thing here: the child runs at the parent's priority
        pass


def _send(out: BinaryIO, payload: bytes) -> None:
    """One message: its length (8 bytes), then the pickle, flushed so the parent can read it now."""
    out.write(len(payload).to_bytes(8, "little"))
    out.write(payload)
    out.flush()


def _exactly(source: BinaryIO, size: int) -> bytes:
    """`size` bytes of an unbuffered pipe (fewer only at its end): a pipe gives what it has."""
    chunks = []
    while size > 0:
        chunk = source.read(size)
        if not chunk:
            break
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _message(source: BinaryIO, size: bytes) -> tuple[bool, object]:
    """The message whose 8-byte length was read: (ok, result or exception)."""
    length = int.from_bytes(size, "little") if len(size) == 8 else 0
    payload = _exactly(source, length) if length else b""
    if not payload or len(payload) != length:
        return False, RuntimeError("a worker process ended without a result")
    return pickle.loads(payload)


def _receive(source: BinaryIO) -> tuple[bool, object]:
    """The next message of a child: (ok, result or exception)."""
    return _message(source, _exactly(source, 8))

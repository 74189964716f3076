"""Independent pieces of work spread over forked processes, their results returned in order.

Why fork: scoring a corpus is a loop over document pairs that share nothing, and on a corpus the
size of GUM the scores, heads and mention types are about half of a `corefwb score` run.  A forked
child starts with the parent's prepared documents already in memory (copy-on-write), so nothing
is sent to it; only its results (a few hundred small score objects) come back, pickled through a
pipe.  A process pool would pay for starting interpreters, or for pickling the documents out.

The parent computes the first piece itself, so `n` pieces take `n - 1` children.  Results are
returned in piece order, and each piece's result does not depend on which process computed it,
so the outcome is identical to the serial loop's.  Where forking is unsafe or impossible (no
`os.fork`, or other threads running: a forked child inherits their locks but not the threads) the
pieces are computed here, one after another.
"""

from __future__ import annotations

import os
import pickle
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

Piece = TypeVar("Piece")
Result = TypeVar("Result")


PARALLEL_TOKENS = 40_000
"""Tokens (key and response) a process that scores or types documents should have at least:
below that, forking and collecting cost more than they save (on GUM, 197k tokens, two processes
save about a third of the scoring time)."""


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

    An exception in a child is raised here (as a RuntimeError naming it if it cannot be pickled),
    after every child has ended.
    """
    if len(pieces) <= 1 or not can_fork():
        return [function(piece) for piece in pieces]
    children: list[tuple[int, int]] = []
    outcomes: list[tuple[bool, object]] = []
    try:
        for piece in pieces[1:]:
            read_end, write_end = os.pipe()
            pid = os.fork()
            if pid == 0:  # the child: compute, send, and leave without the parent's exit handlers
                os.close(read_end)
                _child(function, piece, write_end)
            os.close(write_end)
            children.append((pid, read_end))
        first = function(pieces[0])
        while children:
            outcomes.append(_collect(*children.pop(0)))
    finally:
        for pid, read_end in children:  # the parent failed: end its children before raising
            os.close(read_end)
            os.waitpid(pid, 0)
    results = [first]
    for ok, value in outcomes:
        if not ok:
            raise value
        results.append(value)
    return results


def split(costs: Sequence[float], processes: int, least: float) -> list[list[int]]:
    """Indices of `costs` in pieces for at most `processes` processes, as many as the work is
    worth: each piece should cost at least `least` (below that, a fork costs more than it saves)."""
    return balanced(costs, max(1, min(processes, int(sum(costs) // least))))


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


def _child(function: Callable[[Piece], Result], piece: Piece, write_end: int) -> None:
    """Run in a forked child: send (True, result) or (False, exception) and exit at once."""
    status = 0
    try:
        try:
            payload = pickle.dumps((True, function(piece)), protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException as exc:  # noqa: BLE001 - everything is reported to the parent
            status = 1
            try:
                payload = pickle.dumps((False, exc), protocol=pickle.HIGHEST_PROTOCOL)
            except Exception:  # noqa: BLE001 - an exception that cannot be pickled
                payload = pickle.dumps((False, RuntimeError(f"{type(exc).__name__}: {exc}")))
        with os.fdopen(write_end, "wb") as out:
            out.write(payload)
    finally:
        os._exit(status)


def _collect(pid: int, read_end: int) -> tuple[bool, object]:
    """A child's (ok, result or exception), once it has ended."""
    with os.fdopen(read_end, "rb") as source:
        payload = source.read()
    _, status = os.waitpid(pid, 0)
    if not payload:
        return False, RuntimeError(f"a worker process ended without a result (status {status})")
    return pickle.loads(payload)

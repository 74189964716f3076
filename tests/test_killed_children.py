"""A workbench child killed from outside (`kill PID` while it prices impacts or analyses K&K
errors): the app's questions get None (the app then computes the answer itself), the dead child is
dropped, and no exception reaches the app."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterable, Iterator

import pytest

from metrics.runtime.parallel import Forked, can_fork
from workbench.tui.opening import Opening

pytestmark = pytest.mark.skipif(not can_fork(), reason="needs fork")


def _echo(_: None, requests: Iterable[object]) -> Iterator[object]:
    for request in requests:
        yield request


def _killed() -> Forked:
    child = Forked(_echo, [None], serving=True)
    assert child.ask("alive") == ["alive"]
    (pid, _), = child._children
    os.kill(pid, signal.SIGKILL)
    return child


def test_a_killed_pricing_child_gives_none_and_is_dropped() -> None:
    opening = Opening(pricing=_killed())
    assert opening.impacts_of("any question") is None
    assert opening.pricing is None
    assert opening.impacts_of("again") is None


def test_a_killed_entity_errors_child_gives_none_and_is_dropped() -> None:
    opening = Opening(entity_errors=_killed())
    assert opening.entity_errors_of(0) is None
    assert opening.entity_errors is None
    opening.close()

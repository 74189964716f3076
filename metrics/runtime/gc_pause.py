"""Pausing Python's cyclic garbage collector while the engine builds many small objects.

Why: reading a corpus makes hundreds of thousands of lists and tuples (a list of fields per token
line, a tuple per span), and every 700 new container objects CPython runs a collection that walks
the young objects, and now and then all of them.  None of that memory is cyclic, so those passes
find nothing: on the GUM corpus they were a third of the reading time and a sixth of the scoring
time.  Reference counting still frees everything as usual while the collector is paused; anything
cyclic made meanwhile is collected once it runs again.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic collector for the block (nesting is fine; it resumes as it was)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()

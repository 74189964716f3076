"""What a short-lived process does with the memory it frees: keeps it for its next allocations
instead of handing it back to the system.

Why: a cold `corefwb score` of a 250,000-token corpus makes hundreds of numpy temporaries of a few
MB each (the readers' columns, the parse's forest, the alignment's and the metrics' arrays).  By
default glibc gives each allocation past its mmap threshold (128 KB at first, raised only as such
blocks are freed) a mapping of its own, unmapped when freed, and returns the heap's free top to
the system past its trim threshold; every such block is then new memory, each of its pages a
fault the kernel zeroes: about 10,000 faults and 60-80 ms of a 1.1 s run on this machine, whose
page faults are dear.  Kept, a freed block's pages are written again where they already are.  The
run's peak memory is not raised: what is kept is reused before the heap grows.  Only the console
script's subcommands ask for it (`workbench.cli.entry`), which end with `os._exit` anyway; the
workbench, a long-lived process, keeps the defaults.
"""

from __future__ import annotations

import sys

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
"""glibc's `mallopt` parameters (malloc.h)."""
MAPPED_BYTES = 32 << 20
"""Allocations of more than this still get a mapping of their own (glibc's largest mmap threshold
on a 64-bit system): a file's bytes, arrays sized for the most fields a file can hold."""
KEPT_BYTES = 1 << 30
"""Free memory at the heap's top kept, not given back (so, in practice, all of it)."""


def keep_freed_memory() -> bool:
    """Ask the C library to keep freed memory (`MAPPED_BYTES`, `KEPT_BYTES`); whether it took both
    settings (False off Linux, or with a C library without glibc's `mallopt`: nothing changes)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MAPPED_BYTES)) and bool(mallopt(M_TRIM_THRESHOLD, KEPT_BYTES))

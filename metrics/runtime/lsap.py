"""scipy's `linear_sum_assignment`, without importing the rest of `scipy.optimize`.

Why: `from scipy.optimize import linear_sum_assignment` runs `scipy.optimize`'s `__init__`, which
imports its solvers and, through them, `scipy.linalg`, `scipy.fft` and `scipy.special`: about
0.4 s of CPU, most of a short `corefwb score` run (a UA file of ten thousand words is scored in
about 0.1 s).  The function itself is one compiled module, `scipy/optimize/_lsap`, which needs
numpy only; loaded by itself it is the very function `scipy.optimize` exports
(`scipy.optimize.linear_sum_assignment is scipy.optimize._lsap.linear_sum_assignment`), so every
pair it returns, ties included, is the same.  It is registered under its own name, so that a later
`import scipy.optimize` finds it instead of loading it twice.  Where a scipy keeps it elsewhere,
the ordinary import is taken, and so it is where the file is there but does not load by itself
(an ImportError: a build that needs its package around it), rather than failing the run.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Callable
from functools import cache

_NAME = "scipy.optimize._lsap"


@cache
def linear_sum_assignment() -> Callable:
    """scipy's `linear_sum_assignment` (loaded on the first call, then kept)."""
    loaded = sys.modules.get(_NAME)
    if loaded is None and "scipy.optimize" not in sys.modules:
        loaded = _load_alone()
    if loaded is not None:
        return loaded.linear_sum_assignment
    from scipy.optimize import linear_sum_assignment as imported

    return imported


def _load_alone():
    """The compiled module `scipy.optimize._lsap` loaded without its package's `__init__`, or
    None where this scipy has no such file or it does not load alone.  The package is found, not
    imported: its `__init__` (its version checks, its test utilities, `subprocess`) costs about
    20 ms, the compiled module alone half a millisecond."""
    found = importlib.util.find_spec("scipy")
    if found is None or not found.submodule_search_locations:
        return None
    folder = os.path.join(found.submodule_search_locations[0], "optimize")
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(folder, "_lsap" + suffix)
        if os.path.isfile(path):
            spec = importlib.util.spec_from_file_location(_NAME, path)
            if spec is None or spec.loader is None:
                return None
            try:
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
            except ImportError:
                return None
            sys.modules[_NAME] = module
            return module
    return None

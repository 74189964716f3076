"""scipy's assignment solver loaded by itself (`metrics.runtime.lsap`): the very function
`scipy.optimize` exports, without the 0.4 s of importing the rest of `scipy.optimize`."""

from __future__ import annotations

import subprocess
import sys

import pytest

PROBE = """
import sys
from metrics.runtime.lsap import linear_sum_assignment
solve = linear_sum_assignment()
alone = sorted(m for m in sys.modules if m.startswith(("scipy.optimize", "scipy.linalg", "scipy.special", "scipy.fft")))
import numpy
rows, cols = solve(numpy.array([[1.0, 1.0], [1.0, 0.0]]), True)
import scipy.optimize
print(alone, solve is scipy.optimize.linear_sum_assignment, rows.tolist(), cols.tolist())
"""


def test_the_solver_alone_is_scipys_own_function():
    """Loaded alone, the solver's module is the only one of scipy's solvers and their helpers, and a
    later import of scipy.optimize exports the same function object (so every pair, ties included,
    is scipy's)."""
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["['scipy.optimize._lsap']", "True", "[0,", "1]", "[1,", "0]"], done.stdout


def test_a_ua_score_with_ceaf_does_not_import_scipy_optimize(tmp_path):
    """`corefwb score` on UA files with CEAF (an assignment) takes the solver alone: neither
    scipy.optimize's package nor scipy.linalg is imported."""
    from pathlib import Path

    data = Path(__file__).parent / "data" / "ua"
    probe = ("import sys; from workbench.cli import main; main(['score', %r, %r, '--split-antecedents', 'keep', "
             "'--metrics', 'ceafe,bcub']); print(sorted(m for m in ('scipy.optimize', 'scipy.linalg', "
             "'scipy.optimize._lsap') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe % (str(data / "split.key"), str(data / "split.response"))],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "['scipy.optimize._lsap']", done.stdout


FALLBACK = """
import importlib.machinery, importlib.util, sys
if sys.argv[1] == "missing":  # a scipy without optimize/_lsap
    importlib.machinery.EXTENSION_SUFFIXES[:] = [".absent"]
else:  # the file is there but does not load by itself
    real = importlib.util.spec_from_file_location
    class Refuses:
        def create_module(self, spec):
            raise ImportError("undefined symbol")
        def exec_module(self, module):
            raise ImportError("undefined symbol")
    def spec_from_file_location(name, path, *args, **kwargs):
        spec = real(name, path, *args, **kwargs)
        if name == "scipy.optimize._lsap":
            spec.loader = Refuses()
        return spec
    importlib.util.spec_from_file_location = spec_from_file_location
import numpy
from metrics.runtime.lsap import linear_sum_assignment
solve = linear_sum_assignment()
import scipy.optimize
rows, cols = solve(numpy.array([[1.0, 1.0], [1.0, 0.0]]), True)
print(solve is scipy.optimize.linear_sum_assignment, rows.tolist(), cols.tolist())
"""


@pytest.mark.parametrize("scipy_has", ["missing", "refuses"])
def test_a_solver_file_missing_or_not_loading_alone_falls_back_to_scipy_optimize(scipy_has):
    """Where scipy has no `optimize/_lsap` of its own, or it does not load by itself (an
    ImportError), scipy.optimize's own function is taken: no traceback, the same pairs."""
    done = subprocess.run([sys.executable, "-c", FALLBACK, scipy_has], capture_output=True, text=True)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert done.stdout.split() == ["True", "[0,", "1]", "[1,", "0]"], done.stdout

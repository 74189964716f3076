"""scipy's assignment solver loaded by itself (`metrics.runtime.lsap`): the very function
`scipy.optimize` exports, without the 0.4 s of importing the rest of `scipy.optimize`."""

from __future__ import annotations

import subprocess
import sys

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

"""scipy's assignment solver loaded by itself (`metrics.runtime.lsap`): the very function
`scipy.optimize` exports, without the 0.4 s of importing the rest of `scipy.optimize`; and the
mention matchers' assignment of positive similarity built on it, against brute force."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.data())
def test_positive_pairs_are_a_best_assignment_of_positive_similarity(n_rows, n_cols, data):
    """`lsap_sparse.positive_pairs` against every one-to-one assignment: its total similarity is the
    largest, and it keeps exactly the pairs of the solver's assignment whose similarity is positive."""
    import itertools

    import numpy as np

    from metrics.runtime.lsap import linear_sum_assignment
    from metrics.runtime.lsap_sparse import positive_pairs

    values = data.draw(st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0, 2.0]), min_size=n_rows * n_cols,
                                max_size=n_rows * n_cols))
    similarity = np.array(values).reshape(n_rows, n_cols)
    costs = [{j: -v for j, v in enumerate(row) if v > 0} for row in similarity.tolist()]
    found = positive_pairs(costs, n_cols)
    rows, cols = linear_sum_assignment()(-similarity)
    assert found == [(r, c) for r, c in zip(rows.tolist(), cols.tolist()) if similarity[r, c] > 0]
    small, large = (n_rows, n_cols) if n_rows <= n_cols else (n_cols, n_rows)
    best = max(sum(similarity[(i, p) if n_rows <= n_cols else (p, i)] for i, p in enumerate(chosen))
               for chosen in itertools.permutations(range(large), small))
    assert sum(similarity[r, c] for r, c in found) == best


@settings(max_examples=200, deadline=None)
@given(st.lists(st.frozensets(st.integers(0, 6), max_size=3), max_size=5),
       st.lists(st.frozensets(st.integers(0, 6), max_size=3), max_size=5))
def test_sharing_costs_are_the_scores_of_the_pairs_that_share_a_unit(rows, columns):
    """`sharing_costs` against scoring every pair: -score where a pair shares a unit and scores
    above 0, nothing elsewhere (the score given here is positive even for pairs that share
    nothing, and 0 for some that share)."""
    from metrics.runtime.lsap_sparse import sharing_costs

    def score(a: frozenset, b: frozenset) -> float:
        return 0.0 if len(a & b) == 2 else 1.0 + len(a & b) + 0.5 * len(b)

    found = sharing_costs(rows, columns, lambda units: units, score)
    expected = [{j: -score(a, b) for j, b in enumerate(columns) if a & b and score(a, b) > 0} for a in rows]
    assert found == expected

"""The K&K report's line on what BCA's reading left out counts in words that agree with the number."""

from metrics.errors.kummerfeld_klein.report import KKReport
from workbench.commands.errors_kk import _reading_line


def _line(**reading: int) -> str:
    return _reading_line(KKReport([], "conll", {"conll": 50.0}, [], reading=reading), None)[0]


def test_one_of_each_is_singular():
    line = _line(duplicate=1, crossing=1, response_singletons=1)
    assert "1 repeated span kept once" in line
    assert "1 mention over a sentence boundary dropped" in line
    assert "1 response singleton removed" in line


def test_more_than_one_is_plural():
    line = _line(duplicate=2, crossing=1_000, response_singletons=3)
    assert "2 repeated spans kept once" in line
    assert "1,000 mentions over a sentence boundary dropped" in line
    assert "3 response singletons removed" in line

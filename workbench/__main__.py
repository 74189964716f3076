"""`python -m workbench` is `corefwb`."""

from workbench.cli import entry

entry()

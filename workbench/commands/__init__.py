"""The headless commands of `corefwb`: score, errors, compare.  Each adds its options to a parser
and runs over a `workbench.session.Session`; none imports the terminal UI."""

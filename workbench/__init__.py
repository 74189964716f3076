"""Terminal workbench and command line for coref-workbench (console script `corefwb`)."""

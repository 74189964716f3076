"""`python -m workbench` is `corefwb`."""

import sys

from workbench.cli import main

sys.exit(main())

"""Starting the workbench from the command line: on files, on the bundled sample, or on a CRAC run.

A CRAC run (`corefwb KEY_DIR SYSTEM_DIR ...`) is a series of apps, one per dataset opened
(`datasets.py`): when the user chooses another dataset the app ends with a `DatasetSwitch`, and
the next starts on that dataset's files with the weights the user left, its inputs read and
scored before its UI starts, as every opening is.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from metrics.measures.weights import W4, Weights

from ..session import EXIT_INPUT, LoadOptions, check_paths
from ..options import UsageError
from .app import HERE, SAMPLE_KEY, SAMPLE_RESPONSE, Workbench
from .comparing import shown_at_start
from .datasets import DatasetRun, DatasetSwitch
from .opening import open_inputs


def _sample_paths() -> tuple[str, str]:
    """The bundled sample, beside the package in a checkout."""
    root = HERE.parent.parent
    return str(root / SAMPLE_KEY), str(root / SAMPLE_RESPONSE)


def _on_terminal(text: str) -> None:
    """Write to the terminal (stderr, where Textual draws too) while nothing else is on it: a
    person is waiting.  Nothing when stderr is not a terminal."""
    try:
        if sys.stderr.isatty():
            sys.stderr.write(text)
            sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


def run_app(key_path: str | None, response_paths: Sequence[str] = (), options: LoadOptions = LoadOptions(), *,
            weights: Weights = W4, processes: int = 1, run: DatasetRun | None = None) -> int:
    """Open the workbench; with no paths, on the bundled GUM sample; with a key alone, to browse
    it; with `run`, on its current dataset, then on each dataset the user chooses.  Returns the
    exit status: 1 when the files could not be read (the message stays on screen until the user
    quits)."""
    responses = list(response_paths)
    if key_path is None:
        key_path, sample_response = _sample_paths()
        responses = [sample_response]
    check_paths([key_path, *responses])
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        # Without a terminal the app would wait for keys that never come (a script, CI, a pipe).
        raise UsageError("the workbench needs a terminal on stdin and stdout; in scripts use "
                         "`corefwb score` or `corefwb errors`")
    try:
        while True:
            app = _open_app(key_path, responses, options, weights=weights, processes=processes, run=run)
            if run is None or not isinstance(app.return_value, DatasetSwitch):
                return EXIT_INPUT if app.load_failed else (app.return_code or 0)
            run.current = app.return_value.dataset
            key_path, responses = run.files(run.current)
            weights = app.weights
    finally:
        if run is not None:
            run.close()


def _open_app(key_path: str, responses: list[str], options: LoadOptions, *, weights: Weights, processes: int,
              run: DatasetRun | None) -> Workbench:
    """One app on one key and its responses, run until it ends."""
    # While the inputs are read before the UI starts, a line says so; it is erased before the UI
    # starts, so nothing of it is left after the app quits.
    noticed: list[str] = []

    def notice(text: str) -> None:
        noticed.append(text)
        _on_terminal(f"corefwb: {text}")

    opening = open_inputs(key_path, responses, options, weights=weights, shown=shown_at_start(len(responses)),
                          processes=processes, notice=notice)
    if noticed:
        _on_terminal("\r\x1b[2K")
    if run is not None:
        from metrics.formats.cache import ReadCache

        run.start(ReadCache.default(options.cache))  # after the opening's forks: the UI has no threads yet
    app = Workbench(key_path, responses, options, weights=weights, opening=opening, run=run)
    try:
        app.run()
    finally:
        if opening is not None:
            opening.close()
    return app

"""The `corefwb` console script: headless subcommands, or the workbench when given only files.

    corefwb                        open the workbench on the bundled sample
    corefwb KEY RESPONSE           open the workbench on two files
    corefwb KEY                    browse a key alone: its text and chains
    corefwb KEY_DIR SYS_DIR ...    open a CRAC run: datasets above the documents
    corefwb score KEY RESPONSE     print scores (text, json, csv, markdown)
    corefwb errors KEY RESPONSE    list errors
    corefwb compare KEY A B        compare two responses
    corefwb crac KEYS SYS [SYS..]  the CRAC report over folders of datasets
    corefwb convert IN OUT         write a file in another format

Exit status: 0 done, 1 input error (a one-line message naming file and line), 2 usage error,
130 interrupted.  Warnings go to stderr, results to stdout; input files are never written.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Sequence
from importlib import import_module
from types import ModuleType
from typing import Any, NoReturn

from metrics.runtime.gc_pause import gc_paused
from metrics.model import InputError

from .commands.common import add_common_arguments, load_options
from .output import visible
from .session import EXIT_INPUT, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE
from .options import UsageError

class _StoreOnce(argparse._StoreAction):
    """A value option given twice is refused: with argparse's default the last one silently wins,
    so `--weights W1 ... --weights W5` would score under W5 without a word."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        seen = namespace.__dict__.setdefault("_given_once", set())
        if self.dest in seen:
            parser.error(f"{option_string} given twice; give it once")
        seen.add(self.dest)
        super().__call__(parser, namespace, values, option_string)


class Parser(argparse.ArgumentParser):
    """argparse with the project's one-line usage errors (exit status 2), like every other usage
    error, instead of argparse's usage block, and options that take one value refused when repeated
    (`--document`, `--category` and `--type` accumulate)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.register("action", None, _StoreOnce)
        self.register("action", "store", _StoreOnce)

    def error(self, message: str) -> NoReturn:
        _say(f"{self.prog}: usage error: {message} (see --help)")
        raise SystemExit(EXIT_USAGE)


COMMANDS = {
    "score": "score a response against a key",
    "errors": "list every error, explained and priced",
    "compare": "compare responses against one key: intervals, significance, breakdowns",
    "crac": "the CRAC shared task's report: systems x datasets, four settings, macro-average, significance",
    "convert": "write any file corefwb reads as CoNLL-2012, CoNLL-U, jsonlines, a system's jsonlines or the CRAC LLM "
               "track's text",
    "plot": "draw a figure for a paper (needs matplotlib: pip install 'coref-workbench[plot]')",
}
"""Each subcommand (its module in `workbench.commands`) and what it does."""


def command(name: str) -> ModuleType:
    """A subcommand's module, imported when it runs: a command line loads its own command's code,
    not every command's."""
    return import_module(f"{__package__}.commands.{name}")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="corefwb",
        description="Coreference scoring exactly as the CoNLL scorer v8.01, with linguistically aware and "
                    "application metrics, error analysis and a terminal workbench.",
        epilog="commands: " + "; ".join(f"corefwb {name} ... ({text})" for name, text in COMMANDS.items())
               + ". Exit status: 0 ok, 1 input error, 2 usage error.",
    )
    parser.add_argument("key", nargs="?", help="key (gold) file; with no files the bundled sample opens")
    parser.add_argument("responses", nargs="*", metavar="RESPONSE",
                        help="response (system) files; the first is shown, all are drawn in the charts (F8); "
                             "without one the key opens alone, for browsing its text and chains")
    parser.add_argument("--jobs", type=int, metavar="N",
                        help="read the responses beside the key and score them in N processes while the workbench "
                             "starts (default: one per processor, at most 8; 1: all in the workbench's process)")
    add_common_arguments(parser)
    return parser


def build_subparser(name: str) -> argparse.ArgumentParser:
    module = command(name)
    parser = Parser(prog=f"corefwb {name}", description=COMMANDS[name])
    module.add_arguments(parser)
    if getattr(module, "COMMON_OPTIONS", True):
        add_common_arguments(parser)
    return parser


def _say(text: str) -> None:
    """A one-line message on stderr, its input-derived parts made visible (no escape reaches the
    terminal); silent when stderr itself is gone."""
    if sys.stderr is not None:
        try:
            print(visible(text, keep_layout=True), file=sys.stderr)
        except OSError:
            pass


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if sys.stdout is None:  # started with stdout closed (`>&-`)
        _say("corefwb: error: standard output is closed; results have nowhere to go")
        return EXIT_INPUT
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and hasattr(stream, "reconfigure"):
            # any encoding (ascii, LC_ALL=C) and any text (a lone surrogate from a jsonlines key)
            stream.reconfigure(errors="backslashreplace")
    try:
        status = _run(args_list)
        sys.stdout.flush()  # a full disk shows here, not in an ignored error at exit
        return status
    except InputError as exc:
        _say(f"corefwb: error: {exc}")
        return EXIT_INPUT
    except UsageError as exc:
        _say(f"corefwb: usage error: {exc}")
        return EXIT_USAGE
    except MemoryError:
        _say("corefwb: error: out of memory (an input too large for this machine? see --max-input-size)")
        return EXIT_INPUT
    except KeyboardInterrupt:
        _say("corefwb: interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # `corefwb score ... | head`: the reader left; not an error worth a traceback.
        _quiet_stdout()
        return EXIT_OK
    except OSError as exc:  # writing the results failed: /dev/full, a vanished mount
        _quiet_stdout()
        _say(f"corefwb: error: cannot write the results: {exc.strerror or exc}")
        return EXIT_INPUT


def entry() -> None:
    """The console script: `main`, then, after a subcommand, an exit that skips the interpreter's
    teardown.  Why: a scored corpus is millions of small objects, and freeing them one by one
    at exit took 60-80 ms of a `corefwb score` run, after every result was written and flushed.
    For the same reason a subcommand runs with the cyclic collector off to the end (`_run` pauses
    it for the command; turned on again, its first pass walked every object the command made and
    kept: 40 ms of a `score` on gum-open), and keeps its session (`commands.common.kept_until_exit`).
    The workbench exits normally (Textual restores the terminal in its own teardown)."""
    subcommand = len(sys.argv) > 1 and sys.argv[1] in COMMANDS
    if subcommand:
        gc.disable()
    status = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            subcommand = False  # let the normal exit report or silence it, as before
    if subcommand:
        os._exit(status)
    sys.exit(status)


def _quiet_stdout() -> None:
    """Stop Python's own flush of a broken stdout at exit (it would print a traceback)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _run(args_list: list[str]) -> int:
    """Parse and run one command line: a subcommand, or the workbench."""
    if args_list and args_list[0] in COMMANDS:
        parser = build_subparser(args_list[0])
        args = parser.parse_args(args_list[1:])
        # A command is one batch of work whose millions of objects reference counting frees: none
        # are cyclic in bulk (every command's peak memory is the same without the collector), and
        # its passes over them took 0.07 s of `score` and 0.47 s of `compare` on gum-open.
        with gc_paused():
            return int(command(args_list[0]).run(args))
    parser = build_parser()
    args = parser.parse_args(args_list)
    from .options import jobs_option, weights_option

    weights, jobs = weights_option(args.weights), jobs_option(args.jobs)
    from .tui.launch import run_app

    if args.key is not None and os.path.isdir(args.key):
        return _open_run(args, weights, jobs)
    options = load_options(args, args.responses, ua_taken=True)
    return int(run_app(args.key, args.responses, options, weights=weights, processes=jobs))


def _open_run(args: argparse.Namespace, weights, jobs: int) -> int:
    """`corefwb KEY_DIR SYSTEM_DIR ...`: the workbench on a CRAC run, its first dataset open."""
    from metrics.formats.datasets import pair

    from .names import system_names
    from .tui.datasets import DatasetRun
    from .tui.launch import run_app

    if not args.responses:
        raise UsageError("a key folder opens with one or more system folders: corefwb KEY_DIR SYSTEM_DIR ...")
    folders = [os.path.normpath(f) for f in args.responses]
    layout = pair(os.path.normpath(args.key), folders)
    for system, folder in enumerate(folders):
        if layout.missing(system):
            raise InputError(folder, None, f"no file for dataset(s) {', '.join(layout.missing(system))}")
    key, responses = layout.datasets[0].key, [row[0] for row in layout.responses]
    options = load_options(argparse.Namespace(**{**vars(args), "key": key}), responses)
    if options.conventions != "corefud":
        raise UsageError("a folder of datasets opens under --conventions corefud (its scores are the CRAC report's)")
    run = DatasetRun(layout, system_names(folders, None), options.corefud)
    return int(run_app(key, responses, options, weights=weights, processes=jobs, run=run))


if __name__ == "__main__":
    # Run the imported module, not this __main__ copy, so exception classes are the same objects.
    from workbench.cli import entry as _entry

    _entry()

"""The `corefwb` console script: headless subcommands, or the workbench when given only files.

    corefwb                        open the workbench on the bundled sample
    corefwb KEY RESPONSE           open the workbench on two files
    corefwb KEY                    browse a key alone: its text and chains
    corefwb score KEY RESPONSE     print scores (text, json, csv, markdown)
    corefwb errors KEY RESPONSE    list errors
    corefwb compare KEY A B        compare two responses

Exit status: 0 done, 1 input error (a one-line message naming file and line), 2 usage error,
130 interrupted.  Warnings go to stderr, results to stdout; input files are never written.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from metrics.model import InputError

from .commands import compare, errors, score
from .commands.common import add_common_arguments, load_options
from .session import EXIT_INPUT, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError

class _StoreOnce(argparse._StoreAction):
    """A value option given twice is refused: with argparse's default the last one silently wins,
    so `--weights W1 ... --weights W5` would score under W5 without a word."""

    def __call__(self, parser, namespace, values, option_string=None):  # type: ignore[override]
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

    def error(self, message: str):  # type: ignore[override]
        print(f"{self.prog}: usage error: {message} (see --help)", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


COMMANDS = {
    "score": (score, "score a response against a key"),
    "errors": (errors, "list every error, explained and priced"),
    "compare": (compare, "compare two responses against one key"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="corefwb",
        description="Coreference scoring exactly as the CoNLL scorer v8.01, with linguistically aware and "
                    "application metrics, error analysis and a terminal workbench.",
        epilog="commands: " + "; ".join(f"corefwb {name} ... ({text})" for name, (_, text) in COMMANDS.items())
               + ". Exit status: 0 ok, 1 input error, 2 usage error.",
    )
    parser.add_argument("key", nargs="?", help="key (gold) file; with no files the bundled sample opens")
    parser.add_argument("response", nargs="?", help="response (system) file; without it the key opens alone, "
                                                    "for browsing its text and chains")
    add_common_arguments(parser)
    return parser


def build_subparser(name: str) -> argparse.ArgumentParser:
    module, text = COMMANDS[name]
    parser = Parser(prog=f"corefwb {name}", description=text)
    module.add_arguments(parser)
    add_common_arguments(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        if args_list and args_list[0] in COMMANDS:
            parser = build_subparser(args_list[0])
            args = parser.parse_args(args_list[1:])
            return int(COMMANDS[args_list[0]][0].run(args))
        parser = build_parser()
        args = parser.parse_args(args_list)
        from .session import weights_option

        options, weights = load_options(args), weights_option(args.weights)
        from .tui.app import run_app

        return int(run_app(args.key, args.response, options, weights))
    except InputError as exc:
        print(f"corefwb: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except UsageError as exc:
        print(f"corefwb: usage error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("corefwb: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # `corefwb score ... | head`: the reader left; not an error worth a traceback.
        sys.stderr.close()
        return EXIT_OK


if __name__ == "__main__":
    # Run the imported module, not this __main__ copy, so exception classes are the same objects.
    from workbench.cli import main as _main

    sys.exit(_main())

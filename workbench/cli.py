"""The `corefwb` console script: headless subcommands, or the workbench when given only files.

    corefwb                        open the workbench on the bundled sample
    corefwb KEY RESPONSE           open the workbench on two files
    corefwb score KEY RESPONSE     print scores (text, json, csv, markdown)
    corefwb errors KEY RESPONSE    list errors
    corefwb compare KEY A B        compare two responses

Exit status: 0 done, 1 input error (a one-line message naming file and line), 2 usage error,
130 interrupted.  Warnings go to stderr, results to stdout; input files are never written.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from metrics.model import InputError

SUBCOMMANDS = {
    "score": ("workbench.cmd_score", "score a response against a key"),
    "errors": ("workbench.cmd_errors", "list every error, explained and priced"),
    "compare": ("workbench.cmd_compare", "compare two responses against one key"),
}
FORMATS = ("auto", "conll", "conllu", "jsonl")
EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class UsageError(Exception):
    """A bad option value found after parsing (exit status 2)."""


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    """Options every command shares: input formats and the linguistic weights."""
    parser.add_argument("--key-format", choices=FORMATS, default="auto", help="format of the key file (default: detect)")
    parser.add_argument("--response-format", choices=FORMATS, default="auto", help="format of the response file(s) (default: detect)")
    parser.add_argument("--match", choices=("exact", "head", "partial"), default="exact",
                        help="how response mentions match key mentions: exact spans (default, as v8.01), or the "
                             "CorefUD scorer's head or partial match")
    parser.add_argument("--clusters-field", default="clusters", metavar="FIELD",
                        help="jsonlines field holding the chains (e.g. predicted_clusters; default clusters)")
    parser.add_argument("--weights", default="W4", metavar="W",
                        help="LMetric weights: a preset W1..W5 or NAM,NOM,PRO,SING (default W4 = 1,0.75,0.5,1)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="corefwb",
        description="Coreference scoring exactly as the CoNLL scorer v8.01, with linguistically aware and "
                    "application metrics, error analysis and a terminal workbench.",
        epilog="commands: " + "; ".join(f"corefwb {name} ... ({text})" for name, (_, text) in SUBCOMMANDS.items())
               + ". Exit status: 0 ok, 1 input error, 2 usage error.",
    )
    parser.add_argument("key", nargs="?", help="key (gold) file; with no files the bundled sample opens")
    parser.add_argument("response", nargs="?", help="response (system) file")
    add_common_arguments(parser)
    return parser


def build_subparser(name: str) -> tuple[argparse.ArgumentParser, object]:
    module_name, text = SUBCOMMANDS[name]
    module = importlib.import_module(module_name)
    parser = argparse.ArgumentParser(prog=f"corefwb {name}", description=text)
    module.add_arguments(parser)
    add_common_arguments(parser)
    return parser, module


def warn(message: str) -> None:
    print(f"corefwb: warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        if args_list and args_list[0] in SUBCOMMANDS:
            parser, module = build_subparser(args_list[0])
            args = parser.parse_args(args_list[1:])
            return int(module.run(args))
        parser = build_parser()
        args = parser.parse_args(args_list)
        if (args.key is None) != (args.response is None):
            parser.error("give both KEY and RESPONSE, or neither to open the bundled sample")
        from workbench.app import run_app

        return int(run_app(args.key, args.response, key_format=args.key_format,
                           response_format=args.response_format, weights=args.weights))
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


def load_pair(key_path: str, response_path: str, key_format: str = "auto", response_format: str = "auto",
              match: str = "exact", clusters_field: str = "clusters"):
    """Read and prepare a key/response pair; warnings go to stderr.  Raises InputError."""
    from metrics.matching import match_corpus
    from metrics.readers import read_documents
    from metrics.scoring import prepare

    from .progress import Progress

    notes: list[str] = []
    keys = read_documents(key_path, None if key_format == "auto" else key_format, notes, clusters_field)
    responses = read_documents(response_path, None if response_format == "auto" else response_format, notes,
                               clusters_field)
    if match != "exact":
        responses = match_corpus(keys, responses, match)
    with Progress(len(keys), "scoring") as progress:
        corpus = prepare(keys, responses, on_document=progress.advance)
    for message in notes + corpus.warnings:
        warn(message)
    return corpus


def load_args(args: argparse.Namespace, response_path: str | None = None):
    """`load_pair` with a subcommand's common options."""
    return load_pair(args.key, response_path or args.response, args.key_format, args.response_format,
                     args.match, args.clusters_field)


def weights_arg(text: str):
    from metrics.weights import parse_weights

    try:
        return parse_weights(text)
    except ValueError as exc:
        raise UsageError(f"--weights: {exc}") from None


if __name__ == "__main__":
    # Run the imported module, not this __main__ copy, so exception classes are the same objects.
    from workbench.cli import main as _main

    sys.exit(_main())

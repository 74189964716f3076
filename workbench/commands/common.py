"""What every command shares: the common options, and loading a session for a command line.

A command reads its files through the same `Session` as the workbench; here that session gets a
progress bar on a terminal, and its warnings go to stderr, each on its own line.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace

from ..output import shortened, visible
from ..warning_kinds import SHOWN_OF_A_KIND, WARNINGS_CHOICES, shown_warnings
from metrics.formats.source import DEFAULT_MAX_DOCUMENT_TOKENS

from ..session import CONVENTIONS, CRAC_ZEROS, DEFAULT_CLUSTERS_FIELD, FORMATS, SINGLETONS, ZERO_MATCHES, LoadOptions, \
    Session, check_clusters_field, resolve_conventions
from ..options import OTHER_METRICS_DEFAULTS, UsageError, jobs_option, size_option, weights_option
from . import ua


def add_output_argument(parser: argparse.ArgumentParser) -> None:
    """`--output FILE`, as every command that writes a result takes it (`output.emit` writes it)."""
    parser.add_argument("--output", metavar="FILE", type=named_file,
                        help="write the result to FILE (atomically; gzipped when FILE ends in .gz) instead of stdout")


def named_file(text: str) -> str:
    """An output file's name as given, refused when empty: an empty name named no file, and the
    atomic write's temporary file went to the working directory's parent."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty file name")
    return text


def add_max_input_size_argument(parser: argparse.ArgumentParser) -> None:
    """`--max-input-size SIZE` (`options.size_option` reads it), as every command that reads files
    takes it, `crac` and `convert` too."""
    parser.add_argument("--max-input-size", default="512M", metavar="SIZE",
                        help="refuse an input whose (decompressed) text is larger (default 512M; K, M, G units): "
                             "a guard against decompression bombs")


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    """Options every command and the workbench share: how files are read, and the weights."""
    parser.add_argument("--key-format", choices=FORMATS, default="auto", help="format of the key file (default: detect)")
    parser.add_argument("--response-format", choices=FORMATS, default="auto", help="format of the response file(s) (default: detect)")
    parser.add_argument("--match", choices=("exact", "head", "partial", "partial-craft"), default=None,
                        help="how response mentions match key mentions: exact spans (default, as v8.01), or the "
                             "CorefUD scorer's head or partial match (head is the default of --conventions corefud); "
                             "partial-craft: --conventions ua's CRAFT match")
    parser.add_argument("--clusters-field", default=DEFAULT_CLUSTERS_FIELD, metavar="FIELD",
                        help="jsonlines field holding the chains (e.g. predicted_clusters; default clusters)")
    parser.add_argument("--weights", default=OTHER_METRICS_DEFAULTS["weights"], metavar="W",
                        help="LMetric weights: a preset W1..W5 or NAM,NOM,PRO,SING (default W4 = 1,0.75,0.5,1)")
    parser.add_argument("--ace-variant", choices=("ace07", "ace05"), default=OTHER_METRICS_DEFAULTS["ace_variant"],
                        help="ACE-value: ace07 (default; every uncredited response mention costs) or ace05 "
                             "(only spurious mentions cost). Mention types (NAME 1.0, NOMINAL 0.5, PRONOUN 0.1) "
                             "come from the same rules as the LMetrics'; entity-type errors count only where "
                             "both files give entity types (CorefUD Entity=). A response with singletons "
                             "against a key without them loses value.")
    add_max_input_size_argument(parser)
    parser.add_argument("--singletons", choices=SINGLETONS, default=None,
                        help="keep singleton chains (default, as v8.01) or remove them from key and responses "
                             "before alignment (as coval's remove_singletons and the CorefUD scorer's default, "
                             "which is --conventions corefud's)")
    parser.add_argument("--no-cache", action="store_true",
                        help="read every input afresh, not through the cache of read files (~/.cache/corefwb; "
                             "also COREFWB_NO_CACHE=1)")
    parser.add_argument("--max-document-tokens", type=int, default=DEFAULT_MAX_DOCUMENT_TOKENS, metavar="N",
                        help=f"refuse a document of more tokens (default {DEFAULT_MAX_DOCUMENT_TOKENS:,})")
    parser.add_argument("--ace-weighting", choices=("mention", "level"),
                        default=OTHER_METRICS_DEFAULTS["ace_weighting"],
                        help="ACE-value entity weighting: mention (default) or level (NIST's entity level)")
    parser.add_argument("--conventions", choices=CONVENTIONS, default="auto",
                        help="whose numbers: conll (v8.01), corefud (corefud-scorer, the CRAC shared task's), or auto "
                             "(default: corefud when key and responses are CoNLL-U, ua when the key is a Universal Anaphora "
                             "file, else conll); ua: the UA scorer's, for score and errors (docs/ua.md)")
    parser.add_argument("--zero-match", choices=ZERO_MATCHES, default=None,
                        help="corefud: align zeros by their enhanced dependencies (default) or by position; "
                             "ua: linear keeps zeros (aligned by position), which are otherwise removed")
    parser.add_argument("--crac-zeros", choices=CRAC_ZEROS, default=None,
                        help="a crac-text/crac-json response (the CRAC LLM track's): zeros as its pipeline treats them "
                             "without -z (free, default: a ## token costs nothing in the alignment and becomes a new "
                             "empty node) or with clean -z and text2conllu -z (gold: the key's empty nodes are aligned "
                             "as words and kept)")
    parser.add_argument("--warnings", choices=WARNINGS_CHOICES, default="summary",
                        help=f"summary (default): the first {SHOWN_OF_A_KIND} warnings of each kind (a word changed, a "
                             f"document missing...) and a line counting the rest; all: every one")
    ua.add_arguments(parser)


UA_COMMANDS = "`corefwb score`, `errors`, `compare`, `plot` and the workbench"
"""What runs under --conventions ua (the others say so: exit status 2)."""


def load_options(args: argparse.Namespace, response_paths: Sequence[str], *, ua_taken: bool = False) -> LoadOptions:
    """The session's load options from the common options of a command line (`_read_options`),
    with how its warnings are shown (`--warnings`)."""
    options = _read_options(args, response_paths, ua_taken=ua_taken)
    return replace(options, every_warning=True) if getattr(args, "warnings", "summary") == "all" else options


def _read_options(args: argparse.Namespace, response_paths: Sequence[str], *, ua_taken: bool = False) -> LoadOptions:
    """How the files of a command line are read, from its common options.  The conventions
    decide the defaults of `--match` and `--singletons` (exact and keep for conll; head and
    remove for corefud, as corefud-scorer's).  `ua_taken`: the front end takes --conventions ua
    (its options then are the UA scorer's, `ua.settings_of`); the others refuse it."""
    check_clusters_field(args.clusters_field, args.key, args.key_format, response_paths, args.response_format)
    if ua.selected(args):
        if not ua_taken:
            raise UsageError(f"--conventions ua: {UA_COMMANDS} so far")
        # the settings alone, every relation read (its --metrics only choose what is listed: `ua.listed_metrics`)
        settings = ua.settings_of(argparse.Namespace(**{**vars(args), "metrics": "all"}))
        if settings.discourse_deixis or settings.only_split:
            option = "--discourse-deixis" if settings.discourse_deixis else "--only-split-antecedents"
            raise UsageError(f"{option}: compare and the workbench analyse the identity chains (Chen & Ng, K&K); "
                             f"score these chains with `corefwb score` and list their relations' errors with "
                             f"`corefwb errors`")
        return ua.load_options(args, settings)
    conventions = resolve_conventions(args.conventions, args.key, response_paths, args.key_format, args.response_format)
    corefud = conventions == "corefud"
    if not corefud and args.zero_match is not None:
        raise UsageError("--zero-match applies to --conventions corefud only")
    if not corefud and args.crac_zeros is not None:
        raise UsageError(ua.CRAC_ZEROS_SCOPE)
    options = LoadOptions(key_format=args.key_format, response_format=args.response_format,
                          match=args.match or ("head" if corefud else "exact"),
                          clusters_field=args.clusters_field, ace_variant=args.ace_variant,
                          ace_weighting=args.ace_weighting, max_input_size=size_option(args.max_input_size),
                          max_document_tokens=args.max_document_tokens,
                          singletons=args.singletons or ("remove" if corefud else "keep"),
                          cache=not args.no_cache, conventions=conventions, zero_match=args.zero_match or "dependency",
                          crac_zeros=args.crac_zeros or "free")
    if not options.weighs_zeros and weights_option(getattr(args, "weights", None) or "W4").zero is not None:
        raise UsageError("--weights: a fifth number weighs zeros (CorefUD's empty nodes, under --conventions "
                         "corefud or ua), and --conventions conll reads none: give four, NAM,NOM,PRO,SING")
    return options


def warn(message: str) -> None:
    """A warning on stderr; a name or token quoted in it shows its control characters visibly."""
    print(visible(f"corefwb: warning: {shortened(message)}", keep_layout=True), file=sys.stderr)


def warn_all(messages: Sequence[str], args: argparse.Namespace) -> None:
    """A command's warnings on stderr, a few of each kind unless `--warnings all` (`summarised`)."""
    for message in shown_warnings(messages, args):
        warn(message)


def load_session(args: argparse.Namespace, response_paths: Sequence[str], *, ua_taken: bool = False) -> Session:
    """A command's session: its files read with its options, progress on a terminal, warnings to
    stderr (`ua_taken`: as `load_options`)."""
    from .progress import Progress

    options = load_options(args, response_paths, ua_taken=ua_taken)
    with Progress(0, "scoring") as progress:
        session = Session.load(args.key, response_paths, options, on_document=progress.update,
                               processes=jobs_option(getattr(args, "jobs", None)))
    warn_all(session.warnings, args)
    return kept_until_exit(session)


_KEPT: list[Session] = []


def kept_until_exit(session: Session) -> Session:
    """A command's session, held until the process ends instead of freed when the command returns.
    Why: the console script ends a command with `os._exit` (`workbench.cli.entry`), so a session
    held here is never freed object by object; freeing it on the command's return took 30 ms of a
    `score` on gum-open (every document read, aligned and scored), after its results were written.
    A command run next in the same process (a test) lets the previous one go."""
    _KEPT[:] = [session]
    return session

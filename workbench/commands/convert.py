"""`corefwb convert IN OUT [--to FORMAT] [--key KEY]`: any file corefwb reads, written in another format.

Why: so that a response written as a system writes it (subtokens, word offsets, plain text) can
also be fed to the official scorers, which read CoNLL-2012 (v8.01) or CoNLL-U (corefud-scorer).
Writing and reading back is the identity on chains for every target (tests/test_outputs.py).

A response in its own words (plain text, subtokens joined, another tokenizer) is written on the
key's words when `--key` gives the key (mapped by characters, as `score` maps it; what the mapping
lost is said on stderr, mention by mention); without `--key` it keeps its own words, and the
official scorers will refuse it unless those are the key's.  With `--key` every document takes its
key partner's name, so the file pairs with the key by name; written as CoNLL-U on a CoNLL-U key it
also follows the key's document order and sent_ids, which corefud-scorer pairs trees by.
"""

from __future__ import annotations

import argparse
import io
import os

from metrics.conventions.options import COREFUD, Options
from metrics.conventions.pipeline import read_key, read_response
from metrics.formats.conllu import sentence_ids
from metrics.formats.readers import FORMATS, UA_ELSEWHERE, UnknownFormat, detect_format
from metrics.formats.source import read_lines, read_text, set_max_input_size
from metrics.formats.writers import write_conll, write_conllu, write_jsonlines, write_outputs
from metrics.model import Document, InputError

from ..output import emit
from ..options import UsageError, size_option
from .common import add_max_input_size_argument, warn, warn_all

COMMON_OPTIONS = False
TARGETS = ("conll", "conllu", "jsonl", "hoi", "wl", "maverick", "text", "crac-text", "crac-json")
_BY_EXTENSION = {".conll": "conll", ".conllu": "conllu", ".jsonl": "jsonl", ".jsonlines": "jsonl"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", metavar="IN", help="a file in any format corefwb reads")
    parser.add_argument("output", metavar="OUT", help="the file to write (- for stdout); never an input")
    parser.add_argument("--to", choices=TARGETS, help="the format to write (default: from OUT's extension: "
                        ".conll, .conllu, .jsonl; each may end in .gz, and the file is then gzipped)")
    parser.add_argument("--from", dest="source_format", choices=("auto", *FORMATS), default="auto",
                        help="the input's format (default: detect)")
    parser.add_argument("--key", metavar="KEY", help="write a response in its own words on this key's words")
    parser.add_argument("--clusters-field", default="clusters", metavar="FIELD",
                        help="jsonlines field holding the chains (e.g. predicted_clusters)")
    parser.add_argument("--blind", action="store_true",
                        help="crac-text/crac-json: words only, no marks (a model's input)")
    parser.add_argument("--sequential-ids", action="store_true",
                        help="crac-text: ids e1, e2 ... in each document, numbered by first appearance")
    parser.add_argument("--zero-mentions", action="store_true",
                        help="crac-text/crac-json: write empty nodes as ## tokens, next to their parents")
    add_max_input_size_argument(parser)


def target_of(args: argparse.Namespace) -> str:
    if args.to:
        return args.to
    name = args.output.lower().removesuffix(".gz")
    for extension, fmt in _BY_EXTENSION.items():
        if name.endswith(extension):
            return fmt
    raise UsageError(f"convert: say the format to write with --to ({', '.join(TARGETS)}); {args.output!r} "
                     f"has no extension that names one")


CONLLU_KEY = Options(conventions=COREFUD, spans=False, cache=False)
"""How `convert` reads a CoNLL-U file as a key (its CoNLL-U copy's check, its CRAC writer's
entities): as the CorefUD convention reads one, node mentions alone, outside the cache as every
input of `convert` is read."""


def _copy_conllu(args: argparse.Namespace) -> int:
    """CoNLL-U to CoNLL-U: the input checked as corefud-scorer reads it (node mentions, zeros and
    DEPS), then written as it is, so that nothing the token spans cannot hold (zeros,
    discontinuous mentions, heads, trees) is lost."""
    text = read_text(args.input)
    read_key(args.input, CONLLU_KEY)
    emit(text, None if args.output == "-" else args.output, inputs=[args.input], data=True)
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        return _convert(args)
    except UnknownFormat as exc:
        if exc.path != args.input:
            raise
        raise UnknownFormat(exc.path, "--from") from None  # said with this command's option for it
    except InputError as exc:
        if exc.message != UA_ELSEWHERE:
            raise
        # the readers' advice is to score it under --conventions ua, which is no conversion
        raise InputError(exc.path, exc.line, "a Universal Anaphora file (global.columns with IDENTITY): "
                                             "convert does not read UA files (its relations have no place in "
                                             "the other formats)") from None


def _convert(args: argparse.Namespace) -> int:
    set_max_input_size(size_option(args.max_input_size))
    target = target_of(args)
    fmt = None if args.source_format == "auto" else args.source_format
    crac_options = [name for name in ("blind", "sequential_ids", "zero_mentions") if getattr(args, name)]
    if target in ("crac-text", "crac-json"):
        return _run_crac(args, target)
    if crac_options:
        raise UsageError(f"--{crac_options[0].replace('_', '-')} applies to --to crac-text and crac-json only")
    if target == "conllu" and (fmt or detect_format(args.input)) == "conllu":
        return _copy_conllu(args)
    options = Options(response_format=fmt, clusters_field=args.clusters_field)
    documents, warnings, characters = read_response(args.input, options, key_path=args.key)
    if args.key is not None:
        if characters is not None:
            warn(f"mapped onto the key's words by characters: {characters.mentions} mentions, {characters.snapped} "
                 f"snapped to a key word's edge, {characters.lost} lost")
    elif any(d.own_words for d in documents):
        warn(f"{args.input}: written in its own words; give --key KEY to write it on the key's words")
    warn_all(warnings, args)
    out = io.StringIO()
    try:
        if target == "conll":
            write_conll(documents, out)
        elif target == "conllu":
            ids = None
            if args.key is not None and detect_format(args.key) == "conllu":
                documents, ids = _in_key_order(documents, args.key)
            write_conllu(documents, out, ids)
        elif target == "jsonl":
            write_jsonlines(documents, out, args.clusters_field)
        else:
            write_outputs(documents, out, target)
    except ValueError as exc:
        raise InputError(args.input, None, f"cannot be written as {target}: {exc}") from None
    inputs = [args.input] + ([args.key] if args.key else [])
    emit(out.getvalue(), None if args.output == "-" else args.output,
         inputs=[p for p in inputs if os.path.exists(p)], data=True)
    return 0


def _in_key_order(documents: list[Document], key_path: str) -> tuple[list[Document], dict[str, list[str | None]]]:
    """A response's documents in its CoNLL-U key's order (those the key lacks after them) and
    the key's sent_ids by document name.  Why: corefud-scorer pairs the trees of key and response
    in file order and refuses a response whose document names or sent_ids differ from the key's
    at any tree, so a response written for it must follow the key, not its own order."""
    ids = sentence_ids(read_lines(key_path))
    place = {name: k for k, name in enumerate(ids)}
    written = {doc.name for doc in documents}
    absent = [name for name in ids if name not in written]
    if absent:
        warn(f"{key_path}: {len(absent):,} key document(s) not in the response ({', '.join(absent[:3])}"
             f"{', ...' if len(absent) > 3 else ''}): corefud-scorer pairs the two files' trees in order and "
             f"refuses this file, as corefwb does under --conventions corefud")
    return sorted(documents, key=lambda doc: place.get(doc.name, len(place))), ids


def _run_crac(args: argparse.Namespace, target: str) -> int:
    """A CoNLL-U key in the CRAC LLM track's inline text or JSON, as text2text-coref's
    `conllu2text` writes it (docs/formats.md)."""
    from metrics.formats.crac_key import read_key as read_skeleton
    from metrics.formats.crac_writer import write_json, write_text
    from metrics.formats.readers import detect_format
    from metrics.formats.source import read_lines

    if args.key is not None:
        raise UsageError("--key: a crac-text or crac-json file is written from a CoNLL-U key itself")
    if target == "crac-json" and args.sequential_ids:
        raise UsageError("--sequential-ids: crac-json names no entity (the k-th list is e{k})")
    fmt = args.source_format if args.source_format != "auto" else detect_format(args.input)
    if fmt != "conllu":
        raise InputError(args.input, None, f"is {fmt}; crac-text and crac-json are written from CoNLL-U (CorefUD)")
    keys = list(read_key(args.input, CONLLU_KEY).nodes)
    skeleton = read_skeleton(args.input, read_lines(args.input))
    if target == "crac-text":
        text = write_text(keys, skeleton, args.blind, args.sequential_ids, args.zero_mentions, path=args.input)
    else:
        text = write_json(keys, skeleton, args.blind, args.zero_mentions)
    emit(text, None if args.output == "-" else args.output, inputs=[args.input], data=True)
    return 0

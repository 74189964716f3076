"""`corefwb crac KEY_DIR SYSTEM_DIR [SYSTEM_DIR ...]`: the CRAC shared task's report in one command.

Every dataset of the key folder (CorefUD's `LANG_CORPUS-corefud-SPLIT.conllu`, gzipped or not),
every system folder paired with it by file name (metrics.formats.datasets), each pair scored as
corefud-scorer scores it in the four settings CRAC's overview papers print (metrics.statistics.crac),
and the macro-average over datasets that ranks the systems.  With two or more systems, a `*`
marks a difference from the first system with p < 1 - confidence (default 0.05), by the paired
bootstrap over documents of `corefwb compare`, stratified by dataset for the macro-average
(metrics.statistics.datasets).

Work: one dataset per process (`--jobs`), its key read once (and kept in the cache of read files,
so the next run reads no key) and every system's file scored against it in every variant.
"""

from __future__ import annotations

import argparse
import os

from metrics.statistics.crac import METRICS, VARIANTS, score_layout, variants_of
from metrics.measures.catalog import CONLL, METRICS as CATALOGUE
from metrics.formats.cache import ReadCache
from metrics.formats.datasets import Layout, pair, read_as_dataset
from metrics.formats.source import set_max_input_size
from metrics.statistics.datasets import dataset_tests
from metrics.statistics.significance import DEFAULT_CONFIDENCE, DEFAULT_SEED, Method

from ..names import system_names
from ..session import ZERO_MATCHES
from ..options import UsageError, jobs_option, size_option
from .common import add_max_input_size_argument, add_output_argument, warn, warn_all
from .crac_tables import CracReport, render
from .progress import Progress
from .systems import MIN_DOCUMENTS

COMMON_OPTIONS = False
"""This command takes its own options, not the per-file ones of `score` (weights, formats...)."""
FORMATS = ("text", "markdown", "latex", "csv", "json")
TABLE_METRICS = tuple(m.name for m in (CONLL, *METRICS))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("key_dir", metavar="KEY_DIR", help="folder of the key files, one .conllu(.gz) per dataset")
    parser.add_argument("systems", nargs="+", metavar="SYSTEM_DIR",
                        help="one folder per system, its files named as the key's (the first system is the baseline "
                             "of the significance marks)")
    parser.add_argument("--name", metavar="A,B,...", help="the systems' names (default: the folders' names)")
    parser.add_argument("--variant", choices=(*VARIANTS, "all"), default="all",
                        help="the table(s) to print: head (primary: head match, singletons removed), partial, exact, "
                             "with_singletons (head match), or all (default); JSON and CSV always hold the ones scored")
    parser.add_argument("--metric", choices=TABLE_METRICS, default=CONLL.name,
                        help="the F1 in the tables (default conll, the mean of MUC, B3 and CEAFe F1, which ranks)")
    parser.add_argument("--format", choices=FORMATS, default="text")
    add_output_argument(parser)
    parser.add_argument("--allow-missing", action="store_true",
                        help="a dataset a system has no file for counts as 0 (said on stderr), instead of an error")
    parser.add_argument("--jobs", type=int, metavar="N", help="datasets scored at once (default: one per processor, at most 8)")
    parser.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                        help="bootstrap resamples for the significance marks (default 1000; 0: no marks)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})")
    parser.add_argument("--confidence", type=float, default=DEFAULT_CONFIDENCE,
                        help="1 - the significance level of the marks (default 0.95: p < 0.05)")
    parser.add_argument("--zero-match", choices=ZERO_MATCHES, default="dependency",
                        help="align zeros by their enhanced dependencies (default, CRAC's since 2024) or by position")
    add_max_input_size_argument(parser)
    parser.add_argument("--no-cache", action="store_true", help="read every key afresh, not through the cache of read files")


def run(args: argparse.Namespace) -> int:
    set_max_input_size(size_option(args.max_input_size))
    jobs = jobs_option(args.jobs)
    method = _method(args)
    folders = [os.path.normpath(f) for f in args.systems]
    if args.output not in (None, "-") and read_as_dataset(args.output, [args.key_dir, *folders]):
        raise UsageError(f"--output {args.output}: a .conllu file in a folder this command reads: the next run "
                         f"would read the report as a dataset; write it elsewhere, or name it otherwise (.txt)")
    names = system_names(folders, args.name)
    layout = pair(os.path.normpath(args.key_dir), folders)
    _check_missing(layout, folders, names, args.allow_missing, warn)
    for path in layout.unused:
        warn(f"{path}: no dataset of the key has this name: not scored")
    for message in layout.skipped:
        warn(message)
    cache = ReadCache.default(not args.no_cache)
    variants = VARIANTS if args.format in ("json", "csv") or args.variant == "all" else (args.variant,)
    with Progress(len(layout.datasets), "datasets") as progress:
        by_dataset = score_layout(layout, cache, variants_of(variants, args.zero_match), jobs, progress.advance)
    systems = [[by_dataset[d][s] for d in range(len(layout.datasets))] for s in range(len(names))]
    metric = CATALOGUE[args.metric]
    tests = ({v: dataset_tests(systems, v, metric, method) for v in variants}
             if method is not None and len(systems) > 1 else {})
    warn_all(cache.warnings, args)
    if tests:
        _warn_few_documents([d.name for d in layout.datasets], systems, variants[0], warn)
    report = CracReport(names, [d.name for d in layout.datasets], systems, variants, metric, tests, method,
                        args.zero_match, "all" if args.variant == "all" else args.variant)
    from ..output import emit

    emit(render(report, args.format), args.output, inputs=[d.key for d in layout.datasets]
         + [p for row in layout.responses for p in row if p is not None])
    return 0


def _warn_few_documents(datasets: list[str], systems: list, variant: str, warn) -> None:
    """Say which datasets are too small for their `*` to mean much, as `compare` says it of a
    corpus.  A dataset of one document has no p-value, and in the macro-average's resamples its
    difference never varies: the macro's test takes it as certain."""
    for d, name in enumerate(datasets):
        present = [s[d].variants[variant] for s in systems if s[d].variants is not None]
        count = len(present[0].documents) if present else 0
        if count == 1:
            warn(f"dataset {name}: 1 document: no p-value, and the macro-average's test holds its difference "
                 f"fixed, as if it were certain (see the README)")
        elif 1 < count < MIN_DOCUMENTS:
            warn(f"dataset {name}: {count} documents: its test resamples documents, and so few say little "
                 f"(see the README)")


def _method(args: argparse.Namespace) -> Method | None:
    if args.bootstrap == 0:
        return None
    try:
        return Method(resamples=args.bootstrap, confidence=args.confidence, seed=args.seed)
    except ValueError as exc:
        raise UsageError(f"--bootstrap/--confidence/--seed: {exc}") from None


def _check_missing(layout: Layout, folders: list[str], names: list[str], allow: bool, warn) -> None:
    """A dataset a system has no file for: an input error naming the system's folder, or with
    `--allow-missing` a warning (it counts as 0)."""
    from metrics.model import InputError

    for system, name in enumerate(names):
        missing = layout.missing(system)
        if missing and not allow:
            raise InputError(folders[system], None, f"no file for dataset(s) {', '.join(missing)} (give them, or "
                                                    f"--allow-missing to count them as 0)")
        for dataset in missing:
            warn(f"system {name} has no file for dataset {dataset}: counted as 0 (--allow-missing)")

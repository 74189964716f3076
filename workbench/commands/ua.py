"""`--conventions ua`: the Universal Anaphora scorer's numbers (`score`) and the errors of its
relations (`errors`), with its options; and `--preset NAME`, the UA scorer's `-t NAME`.

All of the CLI's UA wiring is here: the options (added to every command by `add_arguments`), the
presets (which set other options, or another convention's), and the two commands.  Options:

    --match exact|partial|partial-craft|head   (-a; partial is its partial-corefud)
    --singletons keep|remove                   (-s; default remove, as the UA scorer's)
    --split-antecedents keep|remove            (-l; keep implies singletons kept)
    --only-split-antecedents                   (--only-split-antecedent)
    --discourse-deixis                         (-d)
    --zero-match linear                        (-z: zeros kept, matched by position)
    --preset NAME                              (-t NAME, completed with the defaults)
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from metrics.corpus.ua_settings import BRIDGING, METRICS, PRESETS, Settings, resolve_metrics, shown_metrics
from metrics.conventions.options import UA
from metrics.measures.catalog import label
from metrics.model import InputError

from ..json_text import dumps
from ..options import OTHER_METRICS_DEFAULTS, UsageError, jobs_option, listed, size_option
from ..output import CORPUS_MICRO_ROW, SCORE_CSV_COLUMNS, align_rows, document_json, emit, percent, points_text, \
    render_csv, render_markdown, score_csv_cells, score_json, shown_document
from ..session import LoadOptions, Session, input_format
from ..warning_kinds import shown_warnings

if TYPE_CHECKING:  # loaded when UA errors are asked for, not with every command line
    from metrics.corpus.ua import UAResult
    from metrics.errors.ua.records import UAError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The UA options, on every command (they are refused outside --conventions ua)."""
    parser.add_argument("--split-antecedents", choices=("keep", "remove"), default=None,
                        help="ua: score a plural mention's split antecedents (keep: the UA scorer's -l) or not "
                             "(default remove)")
    parser.add_argument("--only-split-antecedents", action="store_true",
                        help="ua: report the scores of the split antecedents' alignment only (implies keep)")
    parser.add_argument("--discourse-deixis", action="store_true",
                        help="ua: score the discourse-deixis chains instead of the identity chains")
    parser.add_argument("--preset", choices=tuple(PRESETS), default=None,
                        help="a shared task's settings, as the UA scorer's -t NAME (under the convention it names)")


def _given(args: argparse.Namespace, *names: str) -> list[str]:
    return [f"--{n.replace('_', '-')}" for n in names if getattr(args, n, None) not in (None, False)]


def apply_preset(args: argparse.Namespace) -> None:
    """Set the options a preset stands for; an option the preset sets may not be given too."""
    name = getattr(args, "preset", None)
    if name is None or getattr(args, "_preset_applied", False):
        return
    args._preset_applied = True
    preset = PRESETS[name]
    clash = _given(args, "match", "singletons", "split_antecedents", "only_split_antecedents", "discourse_deixis",
                   "zero_match")
    if clash:
        raise UsageError(f"--preset {name} sets the matching and the settings; drop {', '.join(clash)}")
    if args.conventions not in ("auto", "ua" if isinstance(preset, Settings) else preset[0]):
        raise UsageError(f"--preset {name} is under --conventions "
                         f"{'ua' if isinstance(preset, Settings) else preset[0]}, not {args.conventions}")
    if isinstance(preset, Settings):
        args.conventions = "ua"
        return
    conventions, options = preset
    if args.conventions == "auto" and _is_ua(getattr(args, "key", None)):
        raise UsageError(f"--preset {name} is under --conventions {conventions}, and the key is a UA file")
    if conventions == "corefud":
        _check_conllu(args, name)
    args.conventions, args.match, args.singletons = conventions, options["match"], options["singletons"]
    if getattr(args, "metrics", "all") == "all" and hasattr(args, "metrics"):
        names = options["metrics"]
        if not isinstance(names, (list, tuple)):
            raise TypeError(f"preset {name}: its metrics are not a list")  # a programming error, never input
        args.metrics = ",".join(m for m in names if conventions != "corefud" or m != "conll")


def _check_conllu(args: argparse.Namespace, name: str) -> None:
    """A preset under CorefUD's conventions reads its files as CoNLL-U (a response may be the CRAC
    LLM track's text or JSON): a CoNLL-2012 file given to it is refused with the preset's choice
    named, where the CoNLL-U reader said `expected 10 columns, found 12` without saying who chose
    CoNLL-U.  A file whose format cannot be told here goes to its reading, which says what is wrong."""
    responses = getattr(args, "responses", None) or ([args.response] if getattr(args, "response", None) else [])
    inputs = [(getattr(args, "key", None), getattr(args, "key_format", "auto"), ("conllu",))]
    inputs += [(path, getattr(args, "response_format", "auto"), ("conllu", "crac-text", "crac-json")) for path in responses]
    for path, given, readable in inputs:
        try:
            fmt = input_format(path, given)
        except InputError:
            continue
        if fmt is not None and fmt not in readable:
            raise UsageError(f"--preset {name} is under --conventions corefud, which reads CoNLL-U, and {path} is "
                             f"{fmt}: write it as CoNLL-U (`corefwb convert`), or drop the preset")

CRAC_ZEROS_SCOPE = "--crac-zeros applies to a crac-text or crac-json response, scored under --conventions corefud"
"""The usage error of --crac-zeros outside the CRAC LLM track's conventions (corefud)."""


def selected(args: argparse.Namespace) -> bool:
    """Whether this command line is under the UA conventions (given, a preset's, or `auto` with a
    UA key).  Outside them, a UA option is a usage error; inside them, --crac-zeros is."""
    apply_preset(args)
    ua = args.conventions == "ua" or (args.conventions == "auto" and _is_ua(args.key))
    if ua and getattr(args, "crac_zeros", None) is not None:
        raise UsageError(CRAC_ZEROS_SCOPE)
    if not ua:
        given = _given(args, "split_antecedents", "only_split_antecedents", "discourse_deixis")
        if given or args.match == "partial-craft":
            raise UsageError(f"{', '.join(given) or '--match partial-craft'} applies to --conventions ua only")
    return ua


def _is_ua(path: str | None) -> bool:
    if path in (None, "-") or not os.path.isfile(path):
        return False
    from metrics.formats.source import read_head
    from metrics.formats.ua import is_ua_head

    return is_ua_head(read_head(path).decode("utf-8-sig", errors="replace"))


def settings_of(args: argparse.Namespace) -> Settings:
    """The UA settings of a command line (a preset's, or the options with the UA scorer's defaults)."""
    metrics_text = getattr(args, "metrics", "all")
    if args.preset is not None:
        preset = PRESETS[args.preset]
        assert isinstance(preset, Settings)
        if metrics_text == "all":
            return preset.completed()
        return Settings(**{**preset.__dict__, "metrics": _metrics(metrics_text)}).completed()
    if args.zero_match not in (None, "linear"):
        raise UsageError("--zero-match: UA zeros are matched by position only (linear)")
    implying = _given(args, "only_split_antecedents", "discourse_deixis")
    if implying and args.split_antecedents == "remove":
        raise UsageError(f"{' and '.join(implying)} scores split antecedents: drop --split-antecedents remove")
    keep_split = args.split_antecedents == "keep" or bool(implying)
    if keep_split and args.singletons == "remove":
        raise UsageError("split antecedents are scored with singletons kept (a plural's members may be singletons)")
    from metrics.conventions.ua import MATCHES

    match = args.match or "exact"
    if match not in MATCHES:
        raise UsageError(f"--match: {match!r} is not one of {', '.join(MATCHES)} under --conventions ua")
    return Settings(match, args.singletons == "keep" or keep_split, keep_split, args.only_split_antecedents,
                    args.discourse_deixis, args.zero_match == "linear", _metrics(metrics_text)).completed()


def _metrics(text: str) -> tuple[str, ...]:
    try:
        out = resolve_metrics(text.split(","))
    except ValueError as error:
        raise UsageError(f"--metrics: {error}") from None
    if not out:
        raise UsageError(f"--metrics: none given; choose from {', '.join(METRICS)} (or bridging, all)")
    return out


def listed_metrics(args: argparse.Namespace) -> tuple[str, ...]:
    """The metrics a command line lists under --conventions ua: those of its settings (`--metrics`,
    or a preset's) among the UA convention's `scores`, in the UA scorer's order, CoNLL with its
    parts: what `score` prints, and what `compare` lists and tests."""
    return tuple(metric.name for metric in shown_metrics(settings_of(args)))


def _check_available(args: argparse.Namespace) -> None:
    for option in ("stream", "ci", "group_by", "document"):
        if getattr(args, option, None):
            raise UsageError(f"--{option.replace('_', '-')} is not available with --conventions ua yet")


def score(args: argparse.Namespace, warn: Callable[[str], None]) -> UAResult:
    """The UA scorer's scores of a command line, on the one road (`Session.load`, scores alone),
    with what the relations' error analysis reads."""
    _check_available(args)
    _warn_unused(args, warn)
    return _load(args, warn, scores_only=True)[1]


def _warn_unused(args: argparse.Namespace, warn: Callable[[str], None]) -> None:
    """Say so when an option of the other conventions' metrics (`OTHER_METRICS_DEFAULTS`) is set:
    no UA score reads it, and ignoring it without a word would read as if it had been applied."""
    for option, default in OTHER_METRICS_DEFAULTS.items():
        if getattr(args, option, default) != default:
            warn(f"--{option.replace('_', '-')}: no score under --conventions ua reads it; ignored")


def _load(args: argparse.Namespace, warn: Callable[[str], None],
          scores_only: bool = False) -> tuple[Session, UAResult]:
    """The session of a command line (its documents' names) and its UA scores (with `scores_only`,
    the files' other columns not read).  Both files are read in this process, whatever `--jobs`
    says (it is still checked): a UA file comes back from a forked reader pickled at about the
    cost of reading it here (AMI_dev_v2, codicrac22ar: this process's CPU alike either way), so a
    child reading the one response beside the key saved no time and cost its own start (0.04-0.05 s
    of CPU a command)."""
    from metrics.corpus.ua import result_of  # the UA scoring code, loaded by UA command lines alone

    settings = settings_of(args)
    jobs_option(args.jobs)
    session = Session.load(args.key, [args.response], load_options(args, settings, scores_only),
                           processes=1, spans=False)
    for message in shown_warnings(session.warnings, args):
        warn(message)
    return session, result_of(settings, session.corpus.pairs, session.warnings)


def load_options(args: argparse.Namespace, settings: Settings, scores_only: bool = False) -> LoadOptions:
    """The road's options of a UA command line's settings (completed)."""
    return LoadOptions(match=settings.match, max_input_size=size_option(args.max_input_size),
                       max_document_tokens=args.max_document_tokens,
                       singletons="keep" if settings.keep_singletons else "remove", cache=not args.no_cache,
                       conventions=UA, zero_match="linear" if settings.keep_zeros else "dependency",
                       split_antecedents=settings.keep_split, only_split_antecedents=settings.only_split,
                       discourse_deixis=settings.discourse_deixis,
                       bridging=any(metric.name in settings.metrics for metric in BRIDGING),
                       ua_scores_only=scores_only)


def run_score(args: argparse.Namespace, warn: Callable[[str], None]) -> int:
    result = score(args, warn)
    settings = result.settings
    preset = {"preset": args.preset} if args.preset else {}
    if args.format == "json":
        text = dumps({"documents": len(result.documents), **settings.fields(), **preset,  # CoNLL-2012's shape
                      "metrics": {name: score_json(s) for name, s in result.micro.items()},
                      "per_document": [document_json(d.name, d.scores) for d in result.documents]}) + "\n"
    elif args.format == "csv":
        rows = [[CORPUS_MICRO_ROW, name, *score_csv_cells(name, s)] for name, s in result.micro.items()]
        if args.per_doc:
            rows += [[d.name, name, *score_csv_cells(name, s)] for d in result.documents for name, s in d.scores.items()]
        text = render_csv(SCORE_CSV_COLUMNS, rows)
    else:
        headers = ["document", "metric", "recall", "precision", "F1"]
        rows = [["corpus", label(name), percent(s.recall), percent(s.precision), percent(s.f1)]
                for name, s in result.micro.items()]
        if args.per_doc:
            rows += [[shown_document(d.name), label(name), percent(s.recall), percent(s.precision), percent(s.f1)]
                     for d in result.documents for name, s in d.scores.items()]
        if args.format == "markdown":
            text = f"{settings.describe()}\n\n" + render_markdown(headers, rows)
        else:
            text = f"{settings.describe()} (percentages)\n" + "\n".join(align_rows(headers, rows, right=headers[2:])) + "\n"
    emit(text, args.output, inputs=[args.key, args.response])
    return 0


ERROR_HEADERS = ["document", "relation", "type", "mention", "price", "explanation"]


def _price_text(error: UAError) -> str:
    return ", ".join(f"{label(m)} {points_text(v)}" for m, v in error.price.items())


def run_errors(args: argparse.Namespace, warn: Callable[[str], None]) -> int:
    """`corefwb errors --conventions ua` without `--impact`: the relations' errors (filtered by
    --category as the relation, --type and --document), each with its explanation and price.  The prices stay the
    whole corpus' (as Chen & Ng's impacts under --document): fixing an error of one document
    changes the corpus score."""
    from metrics.errors.ua.records import KINDS, RELATIONS, find_errors

    _check_error_options(args)
    session, result = _load(args, warn)
    documents = session.select_documents(args.document)
    chosen = set(listed(args.category or RELATIONS))
    unknown = chosen - set(RELATIONS)
    if unknown:
        raise UsageError(f"--category: {', '.join(sorted(unknown))}; under --conventions ua choose from {', '.join(RELATIONS)}")
    kinds = {k for r in RELATIONS for k in KINDS[r]}
    types = set(listed(args.type or ()))
    if types - kinds:
        raise UsageError(f"--type: {', '.join(sorted(types - kinds))}; choose from {', '.join(sorted(kinds))}")
    wanted = None if documents is None else set(documents)
    errors = [e for e in find_errors(result) if e.relation in chosen and (not types or e.kind in types)
              and (wanted is None or e.document in wanted)]
    counts = {r: {k: sum(1 for e in errors if (e.relation, e.kind) == (r, k)) for k in KINDS[r]} for r in RELATIONS if r in chosen}
    if args.sort == "impact":
        errors = sorted(errors, key=lambda e: -largest_gain(e))  # stable: document order among equals
    if args.limit is not None:
        errors = errors[:max(0, args.limit)]
    emit(errors_text(result.settings, errors, counts, args.format), args.output, inputs=[args.key, args.response])
    return 0


def _check_error_options(args: argparse.Namespace) -> None:
    """The options of `errors` (Chen & Ng's) that have no meaning for the relation errors: refused,
    never silently ignored.  (`--impact` is not one: with it `errors` lists Chen & Ng's errors of
    the identity chains, priced as the workbench prices them, `commands.errors.run`.)"""
    if args.distinct:
        raise UsageError("--distinct: under --conventions ua each relation error has a fix of its own")


def largest_gain(error: UAError) -> float:
    """What `--sort impact` orders the relation errors by: the largest of an error's prices (the
    most fixing it alone gains on any score it touches)."""
    return max(error.price.values(), default=0.0)


def errors_text(settings: Settings, errors: list[UAError], counts: dict[str, dict[str, int]], fmt: str) -> str:
    """The relations' errors as `errors --conventions ua` writes them (text, markdown, JSON, CSV);
    the workbench's export of its relation list writes the same."""
    if fmt == "json":
        return dumps({**settings.fields(), "counts": counts, "errors": [e.to_json() for e in errors]}) + "\n"
    if fmt == "csv":
        return render_csv(["document", "relation", "type", "mention", "metric", "price", "explanation"],
                          [[e.document, e.relation, e.kind, e.mention, m, v, e.explanation]
                           for e in errors for m, v in (e.price.items() or [("", "")])])
    rows = [[shown_document(e.document), e.relation, e.kind, e.mention, _price_text(e), e.explanation] for e in errors]
    summary = "; ".join(f"{r}: " + (", ".join(f"{k} {n}" for k, n in c.items())
                                    if settings.keep_split or r != "split_antecedents" else "not scored (removed)")
                        for r, c in counts.items())  # removed: not looked for, so no 0 that reads as right
    if fmt == "markdown":
        return f"{settings.describe()}\n\n{summary}\n\n" + render_markdown(ERROR_HEADERS, rows)
    return (f"{settings.describe()}\n{summary}\nprice: points of F1 gained by fixing the error alone\n"
            + "\n".join(align_rows(ERROR_HEADERS, rows)) + "\n")


def relation_counts(errors: list[UAError]) -> dict[str, dict[str, int]]:
    """Errors per relation and type (every type, 0 where none)."""
    from metrics.errors.ua.records import KINDS, RELATIONS

    return {r: {k: sum(1 for e in errors if (e.relation, e.kind) == (r, k)) for k in KINDS[r]} for r in RELATIONS}


def systems_table(names: list[str], errors: list[list[UAError]]) -> tuple[list[str], list[list[str]]]:
    """`compare --conventions ua`: each system's errors of the UA relations, per relation and type."""
    from metrics.errors.ua.records import KINDS, RELATIONS

    columns = [(r, k) for r in RELATIONS for k in KINDS[r]]
    headers = ["system", *(f"{r.replace('_', ' ')}: {k.replace('_', ' ')}" for r, k in columns)]
    rows = []
    for name, found in zip(names, errors):
        counts = relation_counts(found)
        rows.append([name, *(str(counts[r][k]) for r, k in columns)])
    return headers, rows


def systems_json(names: list[str], errors: list[list[UAError]]) -> list[dict]:
    return [{"system": name, "counts": relation_counts(found)} for name, found in zip(names, errors)]

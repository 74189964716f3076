"""The headless session: one key and its responses, loaded once, that every front end drives.

`corefwb score`, `errors`, `compare` and the Textual workbench all work through a `Session`:
it reads the files with every load option (formats, mention matching, the jsonlines field), collects
the readers' and the aligner's warnings instead of printing them, and then scores under any
weights, classifies errors, prices their fixes and exports a report.  The front ends only parse
options, show what the session returns and say its warnings: stderr for commands, the warnings
panel for the app.  Nothing here imports textual or rich, so all of it runs and is tested without
a terminal.

Options are validated here, once, for every front end: a bad value raises `UsageError` (exit
status 2, one line), a bad file `InputError` (exit status 1, one line naming the file and line).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from metrics.conventions.base import Progress
from metrics.conventions.options import CONLL_2012, COREFUD, UA, Options
from metrics.conventions.pipeline import load
from metrics.conventions.registry import CONVENTIONS as KNOWN_CONVENTIONS
from metrics.measures.ace import VARIANTS, WEIGHTINGS, AceOptions
from metrics.measures.catalog import names
from metrics.formats.detection import ZERO_MODES as CRAC_ZEROS
from metrics.formats.outputs import KINDS as JSONLINES_KINDS
from metrics.formats.readers import FORMATS as READ_FORMATS
from metrics.formats.source import (DEFAULT_MAX_DOCUMENT_TOKENS, DEFAULT_MAX_INPUT_SIZE, set_max_document_tokens,
                                    set_max_input_size)
from metrics.mentions.matching import MATCH_MODES
from metrics.model import Document, InputError
from metrics.mentions.pairing import document_key
from metrics.corpus.scoring import CorpusResult, PreparedCorpus
from metrics.measures.weights import W4, Weights

from .options import UsageError

if TYPE_CHECKING:  # a convention's own code, the error analyses, load only when asked for
    from metrics.errors.chen_ng.records import ErrorColumns, ErrorRecord
    from metrics.conventions.corefud import Settings as CorefudSettings
    from metrics.corpus.ua import Settings as UASettings, UAResult
    from metrics.errors.kummerfeld_klein.report import KKError
    from metrics.errors.ua.records import UAError

FORMATS = ("auto", *READ_FORMATS)
SINGLETONS = ("keep", "remove")
DEFAULT_CLUSTERS_FIELD = "clusters"
"""The jsonlines field holding the chains unless `--clusters-field` names another."""
CONVENTIONS, ZERO_MATCHES = ("auto", *KNOWN_CONVENTIONS), ("dependency", "linear")
EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
"""Exit statuses of every command and of the workbench (the README lists them)."""


@dataclass(frozen=True)
class LoadOptions:
    """How the input files are read and matched: the same for every front end."""

    key_format: str = "auto"
    response_format: str = "auto"
    match: str = "exact"
    clusters_field: str = DEFAULT_CLUSTERS_FIELD
    ace_variant: str = "ace07"
    ace_weighting: str = "mention"
    max_input_size: int = DEFAULT_MAX_INPUT_SIZE
    """Bytes of (decompressed) text an input may hold (`--max-input-size`)."""
    max_document_tokens: int = DEFAULT_MAX_DOCUMENT_TOKENS
    """Tokens a document may hold (`--max-document-tokens`)."""
    singletons: str = "keep"
    """keep (v8.01) or remove singleton chains from key and responses before alignment."""
    cache: bool = True
    """Read inputs through the cache of read files (`--no-cache`, $COREFWB_NO_CACHE turn it off)."""
    conventions: str = CONLL_2012
    """conll (v8.01's: token spans) or corefud (corefud-scorer's: node mentions, zeros aligned)."""
    zero_match: str = "dependency"
    """corefud: zeros aligned by their enhanced dependencies or by position (linear); ua: zeros
    kept and aligned by position (linear), or removed."""
    crac_zeros: str = "free"
    """corefud, a CRAC LLM-track response: its zeros as the pipeline treats them without -z (free)
    or with it (gold)."""
    split_antecedents: bool = False
    """ua: a plural mention's split antecedents scored (`--split-antecedents keep`)."""
    only_split_antecedents: bool = False
    """ua: the coreference scores of the split antecedents' alignments alone."""
    discourse_deixis: bool = False
    """ua: the discourse-deixis chains scored instead of the identity chains."""
    bridging: bool = True
    """ua: the bridging links read for scoring (when a bridging score is asked for)."""
    ua_scores_only: bool = False
    """ua: only the columns the scores read are read (`score`)."""
    every_warning: bool = False
    """Show every warning, not the first few of each kind (`--warnings all`, `warning_kinds`): not
    how files are read, but kept with the options every front end is given."""

    def __post_init__(self) -> None:
        if self.conventions not in KNOWN_CONVENTIONS:
            raise UsageError(f"--conventions: {self.conventions!r} is not one of {', '.join(CONVENTIONS)}")
        if self.zero_match not in ZERO_MATCHES:
            raise UsageError(f"--zero-match: {self.zero_match!r} is not one of {', '.join(ZERO_MATCHES)}")
        if self.crac_zeros not in CRAC_ZEROS:
            raise UsageError(f"--crac-zeros: {self.crac_zeros!r} is not one of {', '.join(CRAC_ZEROS)}")
        for option, value in (("--key-format", self.key_format), ("--response-format", self.response_format)):
            if value not in FORMATS:
                raise UsageError(f"{option}: {value!r} is not one of {', '.join(FORMATS)}")
        matches = MATCH_MODES
        if self.conventions == UA:
            from metrics.conventions.ua import MATCHES as matches
        if self.match not in matches:
            raise UsageError(f"--match: {self.match!r} is not one of {', '.join(matches)}")
        if not self.clusters_field:
            raise UsageError("--clusters-field: give a field name")
        if self.ace_variant not in VARIANTS:
            raise UsageError(f"--ace-variant: {self.ace_variant!r} is not one of {', '.join(VARIANTS)}")
        if not 0 < self.max_input_size <= 1 << 50:
            raise UsageError("--max-input-size: give a size between 1 byte and 1 PiB (e.g. 500M, 4G)")
        if self.singletons not in SINGLETONS:
            raise UsageError(f"--singletons: {self.singletons!r} is not one of {', '.join(SINGLETONS)}")
        if not 0 < self.max_document_tokens <= 1 << 40:
            raise UsageError("--max-document-tokens: give a count between 1 and 2^40")
        if self.ace_weighting not in WEIGHTINGS:
            raise UsageError(f"--ace-weighting: {self.ace_weighting!r} is not one of {', '.join(WEIGHTINGS)}")

    def apply_limits(self) -> None:
        """The size bounds hold for every read that follows (the readers check them)."""
        set_max_input_size(self.max_input_size)
        set_max_document_tokens(self.max_document_tokens)

    @property
    def weighs_zeros(self) -> bool:
        """Whether zeros are read, so that a fifth weight (w_zero) means something: CorefUD's and
        UA's conventions; `--weights` refuses a fifth number under CoNLL-2012's, and the workbench's
        weight editor offers no fifth box there."""
        return self.conventions != CONLL_2012

    @property
    def ace(self) -> AceOptions:
        return AceOptions(self.ace_variant, self.ace_weighting)

    @property
    def corefud(self) -> CorefudSettings:
        """corefud-scorer's settings of these options (under `conventions == "corefud"`)."""
        from metrics.conventions.corefud import Settings as CorefudSettings

        return CorefudSettings.of(self.engine())

    @property
    def ua(self) -> UASettings:
        """The UA scorer's settings of these options (under `conventions == "ua"`)."""
        from metrics.conventions.ua import settings_of

        return settings_of(self.engine())

    def engine(self, spans: bool = True) -> Options:
        """The engine's options of the road (`metrics.conventions.pipeline`); without `spans`,
        scores alone (a CorefUD pair's token spans are made only if asked for)."""
        return Options(conventions=self.conventions, key_format=_fmt(self.key_format),
                       response_format=_fmt(self.response_format), match=self.match,
                       clusters_field=self.clusters_field, ace=self.ace, keep_singletons=self.singletons == "keep",
                       zero_match=self.zero_match, crac_zeros=self.crac_zeros, cache=self.cache, spans=spans,
                       split_antecedents=self.split_antecedents, only_split_antecedents=self.only_split_antecedents,
                       discourse_deixis=self.discourse_deixis, bridging=self.bridging,
                       ua_scores_only=self.ua_scores_only)


def resolve_conventions(conventions: str, key_path: str, response_paths: Sequence[str], key_format: str = "auto",
                        response_format: str = "auto") -> str:
    """`auto`: corefud when the key and every response are CoNLL-U, else conll."""
    if conventions != "auto":
        return conventions

    def is_conllu(path: str | None, given: str, also: tuple[str, ...] = ()) -> bool:
        return input_format(path, given) in ("conllu", *also)

    crac = ("crac-text", "crac-json")  # the CRAC LLM track's output is scored as its pipeline's CoNLL-U
    both = is_conllu(key_path, key_format) and all(is_conllu(p, response_format, crac) for p in response_paths)
    return COREFUD if both else CONLL_2012


def input_format(path: str | None, given: str) -> str | None:
    """The format a command line's input is read as: the one its option gives, else the one
    detected (`readers.detect_format`); None where the file cannot be looked at before it is read
    (standard input, a missing file: the reading says what is wrong)."""
    if given != "auto":
        return given
    from metrics.formats.readers import detect_format

    return detect_format(path) if path not in (None, "-") and os.path.exists(path) else None


def check_clusters_field(clusters_field: str, key_path: str, key_format: str, response_paths: Sequence[str],
                         response_format: str) -> None:
    """`--clusters-field` names a jsonlines field: given for inputs none of which is jsonlines, it
    would do nothing, and a user who gives it expects a jsonlines output somewhere (a CoNLL file
    where one was meant, say) - a usage error, as `--zero-match` outside CorefUD's conventions.
    An input whose format cannot be told before reading (standard input) lets it pass."""
    if clusters_field == DEFAULT_CLUSTERS_FIELD:
        return
    jsonlines = ("jsonl", *JSONLINES_KINDS)
    try:
        formats = [(path, input_format(path, given)) for path, given in
                   [(key_path, key_format), *((path, response_format) for path in response_paths)]]
    except InputError:  # a file whose format cannot be told: its reading refuses it, in its words
        return
    if any(fmt is None or fmt in jsonlines for _, fmt in formats):
        return
    read_as = ", ".join(f"{path} is {fmt}" for path, fmt in formats)
    raise UsageError(f"--clusters-field {clusters_field}: applies to jsonlines inputs only ({read_as}: "
                     f"their chains are in their coreference column)")


# ------------------------------------------------------------------------------ the session


@dataclass
class Session:
    """A key and N responses (systems), prepared; the first response is the baseline.  With no
    response (a key browsed alone) the key is paired with itself."""

    key_path: str
    response_paths: list[str]
    corpora: list[PreparedCorpus]
    """One prepared corpus per response, in the order given."""
    options: LoadOptions = field(default_factory=LoadOptions)
    warnings: list[str] = field(default_factory=list)
    """Everything the readers and the aligner noticed, each once, the key's first (a key whose
    every score is ill-defined matters before any response's detail): shown, never printed here."""

    keys: list[Document] = field(default_factory=list)
    """The key's documents as read, singletons included: K&K's analysis reads the files as BCA does,
    which keeps the key's singletons under option T (our `--singletons remove`)."""
    responses: list[list[Document | None]] = field(default_factory=list)
    """Per response, the document each of its pairs holds as read (mapped onto the key's words,
    None where it lacks the key's document), singletons included and spans unmatched: K&K's
    analysis finds span errors and singletons its own way."""

    def __post_init__(self) -> None:
        unique = list(dict.fromkeys(self.warnings))  # a key's warning comes once per response
        self.warnings = sorted(unique, key=lambda w: not (w.startswith(f"{self.key_path}:") or "KEY document" in w))
        self._pricers: dict[tuple, object] = {}
        self._kk: dict[tuple, object] = {}
        self._ua: dict[tuple, object] = {}
        self._lock = threading.Lock()

    @classmethod
    def load(cls, key_path: str, response_paths: Sequence[str], options: LoadOptions = LoadOptions(), *,
             stage: Callable[[str], None] | None = None, on_document: Callable[[int, int], None] | None = None,
             processes: int = 1, spans: bool = True) -> Session:
        """Read, match and prepare, on the engine's one road (`metrics.conventions.pipeline.load`).
        `stage(label)` hears each step (reading key, aligning...), `on_document(done, total)` each
        prepared document: a front end's progress display.  With `processes` > 1 the responses may
        be read in forked processes beside the key.  Without `spans`: scores alone (`LoadOptions.engine`)."""
        options.apply_limits()
        progress = Progress(stage=stage or (lambda label: None), document=on_document or (lambda done, total: None))
        loaded = load(key_path, response_paths, options.engine(spans), progress=progress, processes=processes)
        return cls(key_path, list(response_paths), list(loaded.corpora), options, list(loaded.warnings),
                   list(loaded.keys), [list(documents) for documents in loaded.responses])

    @property
    def corpus(self) -> PreparedCorpus:
        """The baseline's prepared corpus (the only one with a single response)."""
        return self.corpora[0]

    @property
    def inputs(self) -> list[str]:
        """Every input path: an output may never be written onto one of them."""
        return [self.key_path, *self.response_paths]

    def document_names(self) -> list[str]:
        return [pair.name for pair in self.corpus.pairs]

    def select_documents(self, wanted: Sequence[str] | None) -> list[str] | None:
        """`--document` values resolved to the key's document names (None: every document).

        A value is a full name (`(GUM_news_korea); part 000`) or the short name the workbench
        shows (`GUM_news_korea`, `metrics.mentions.pairing.document_key`) when only one document has it."""
        if not wanted:
            return None
        names = self.document_names()
        known = set(names)
        by_short: dict[str, list[str]] = {}
        for name in names:
            by_short.setdefault(document_key(name), []).append(name)
        out = []
        for value in wanted:
            if value in known:
                out.append(value)
                continue
            found = by_short.get(value.strip(), [])
            if len(found) > 1:
                raise UsageError(f"--document: {value!r} names {len(found)} documents; give the full name, "
                                 f"e.g. {found[0]!r}")
            if not found:
                raise UsageError(f"--document: no document {value!r} in the key")
            out.append(found[0])
        return out

    # ---------------------------------------------------------------------- scores

    def score(self, weights: Weights = W4, metrics: Sequence[str] | None = None, system: int = 0,
              processes: int = 1) -> CorpusResult:
        """Corpus (micro and macro) and per-document scores of one system, in `processes` forked
        processes for a command that scores once (`PreparedCorpus.score`)."""
        return self.corpora[system].score(weights, metrics, processes)

    def rescore(self, previous: CorpusResult, weights: Weights, system: int = 0) -> CorpusResult:
        """`previous` under new weights: only the metrics that depend on W are computed again."""
        return self.corpora[system].rescore(previous, weights)

    # ---------------------------------------------------------------------- errors

    def classify(self, weights: Weights = W4, documents: Iterable[str] | None = None,
                 system: int = 0) -> list[ErrorRecord]:
        """Every error of the system's response, in key document order."""
        from metrics.errors.chen_ng.records import classify_corpus  # not loaded by a command that only scores

        return classify_corpus(self._pairs_of(documents, system), weights)

    def error_columns(self, weights: Weights = W4, documents: Iterable[str] | None = None,
                      system: int = 0) -> ErrorColumns:
        """`classify` as columns: what `corefwb errors` filters, counts and writes without an object
        per record."""
        from metrics.errors.chen_ng.records import classify_corpus_columns

        return classify_corpus_columns(self._pairs_of(documents, system), weights)

    def _pairs_of(self, documents: Iterable[str] | None, system: int) -> list:
        """The system's pairs of the given documents (None: all), in key document order."""
        wanted = set(documents) if documents is not None else None
        return [p for p in self.corpora[system].pairs if wanted is None or p.name in wanted]

    def kk_report(self, documents: Iterable[str] | None = None, system: int = 0, metric: str = "conll",
                  weights: Weights = W4, processes: int = 1):
        """Kummerfeld & Klein's errors of one system and the scores along BCA's corrections
        (`metrics.errors.kummerfeld_klein`): the key as read, the response as prepared (mapped onto
        the key's words, spans unmatched), its singletons removed under --singletons remove."""
        from metrics.errors.kummerfeld_klein.report import analyse_corpus

        memo = (None if documents is None else tuple(documents), system, metric,
                weights if metric in names(weighted=True) else None)
        if memo in self._kk:  # the workbench's list and charts ask for the same analysis
            return self._kk[memo]
        pairs = self._kk_pairs(documents, system)
        report = self._kk[memo] = analyse_corpus(pairs, self.options.singletons == "keep", metric, weights, processes)
        return report

    def kk_errors(self, system: int = 0) -> list[KKError]:
        """Kummerfeld & Klein's errors of one system's whole corpus, without the scores along the
        corrections (`kk_report` has both): what the workbench's list shows, in a third of the
        time.  Those of a report already made are taken from it."""
        from metrics.errors.kummerfeld_klein.report import analyse_errors

        made = [report for (documents, of, _, _), report in list(self._kk.items()) if documents is None and of == system]
        if made:
            return made[0].errors
        return analyse_errors(self._kk_pairs(None, system), self.options.singletons == "keep")

    def _kk_pairs(self, documents: Iterable[str] | None, system: int) -> list[tuple[str, Document, Document]]:
        """(name, key, response) as K&K reads them: the key as read, the response as prepared."""
        wanted = set(documents) if documents is not None else None
        prepared = self.corpora[system].pairs
        if self.keys and self.responses:  # else (CorefUD conventions, a key alone) the pairs as prepared
            as_read = zip(prepared, self.keys, self.responses[system])
            return [(p.name, key, response if response is not None else p.response)
                    for p, key, response in as_read if wanted is None or p.name in wanted]
        return [(p.name, p.key, p.response) for p in prepared if wanted is None or p.name in wanted]

    def pricer(self, metric: str = "conll", weights: Weights = W4, system: int = 0):
        """The engine's `Pricer` for one metric, weights and system, built once and kept (its
        memo of rescored chain components serves every later question)."""
        from metrics.errors.chen_ng.impact import Pricer

        key = (metric, weights if metric in names(weighted=True) else None, system)
        with self._lock:
            pricer = self._pricers.get(key)
            if pricer is None:
                pricer = self._pricers[key] = Pricer(self.corpora[system], metric, weights,
                                                 singletons_removed=self.options.singletons != "keep")
        return pricer

    def price(self, records: Sequence[ErrorRecord], metric: str = "conll", weights: Weights = W4,
              cancelled: Callable[[], bool] = lambda: False, system: int = 0) -> list[ErrorRecord] | None:
        """The records with `impact` filled in, or None once `cancelled()` turns true (checked
        between errors, so a user who moves on stops the pricing within milliseconds).  Safe to
        call from several threads: one pricing runs at a time."""
        pricer = self.pricer(metric, weights, system)
        out = []
        with self._lock:
            for record in records:
                if cancelled():
                    return None
                out.extend(pricer.price_records([record]))
        return out

    # ---------------------------------------------------------------------- UA relations

    def ua_result(self, system: int = 0) -> UAResult:
        """Under --conventions ua: the UA scorer's scores of one system, every metric (what its
        relations' errors are priced against), computed once."""
        from metrics.corpus.ua import METRICS, result_of

        with self._lock:
            found = self._ua.get(("result", system))
            if found is None:
                settings = replace(self.options.ua, metrics=METRICS)
                found = self._ua[("result", system)] = result_of(settings, self.corpora[system].pairs, [])
        return found

    def ua_errors(self, system: int = 0) -> list[UAError]:
        """Under --conventions ua: the errors of the UA relations of one system (bridging,
        non-referring, split antecedents when kept), explained and priced, in the key's order."""
        from metrics.errors.ua.records import find_errors

        result = self.ua_result(system)
        with self._lock:
            found = self._ua.get(("errors", system))
            if found is None:
                found = self._ua[("errors", system)] = find_errors(result)
        return found

    # ---------------------------------------------------------------------- export

    def export(self, path: str, fmt: str, *, scope: str, weights: Weights, scores: dict,
               records: Sequence[ErrorRecord] | None) -> str:
        """Write a report of one scope (a document or the corpus): its scores and its errors with
        their fixes and impacts, atomically, never onto an input.  Returns the path."""
        from .error_rows import render_report
        from .output import write_atomic

        write_atomic(path, render_report(scope, weights, scores, records, fmt), inputs=self.inputs)
        return path


def _fmt(value: str) -> str | None:
    return None if value == "auto" else value


def check_paths(paths: Iterable[str]) -> None:
    """Fail early, before a terminal UI takes the screen, when an input does not exist.  `-` is
    standard input (one input at most)."""
    paths = list(paths)
    if paths.count("-") > 1:
        raise UsageError("only one input can be read from standard input (-)")
    for path in paths:
        if path != "-" and not os.path.exists(path):
            raise InputError(path, None, "no such file")

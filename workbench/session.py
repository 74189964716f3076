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
from dataclasses import dataclass, field

from metrics.measures.ace import VARIANTS, WEIGHTINGS, AceOptions
from metrics.measures.catalog import names
from metrics.errors.chen_ng.records import ErrorRecord, classify_corpus
from metrics.formats.cache import ReadCache
from metrics.formats.readers import FORMATS as READ_FORMATS, in_cache, read_documents
from metrics.mentions.characters import key_words
from metrics.mentions.types import prepare_types
from metrics.corpus.corefud import Settings as CorefudSettings
from metrics.formats.source import (DEFAULT_MAX_DOCUMENT_TOKENS, DEFAULT_MAX_INPUT_SIZE, is_regular,
                                    set_max_document_tokens, set_max_input_size)
from metrics.mentions.matching import MATCH_MODES, match_corpus
from metrics.model import Document, InputError, without_singletons
from metrics.mentions.pairing import document_key
from metrics.runtime.parallel import can_fork, fork_map
from metrics.corpus.scoring import CorpusResult, PreparedCorpus, prepare
from metrics.measures.weights import W4, Weights

from .options import UsageError

FORMATS = ("auto", *READ_FORMATS)
SINGLETONS = ("keep", "remove")
CONVENTIONS, ZERO_MATCHES = ("auto", "conll", "corefud", "ua"), ("dependency", "linear")
EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
"""Exit statuses of every command and of the workbench (the README lists them)."""


@dataclass(frozen=True)
class LoadOptions:
    """How the input files are read and matched: the same for every front end."""

    key_format: str = "auto"
    response_format: str = "auto"
    match: str = "exact"
    clusters_field: str = "clusters"
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
    conventions: str = "conll"
    """conll (v8.01's: token spans) or corefud (corefud-scorer's: node mentions, zeros aligned)."""
    zero_match: str = "dependency"
    """corefud: zeros aligned by their enhanced dependencies or by position (linear)."""

    def __post_init__(self) -> None:
        if self.conventions not in CONVENTIONS[1:3]:  # ua is scored by workbench/commands/ua.py
            raise UsageError(f"--conventions: {self.conventions!r} is not one of {', '.join(CONVENTIONS)}")
        if self.zero_match not in ZERO_MATCHES:
            raise UsageError(f"--zero-match: {self.zero_match!r} is not one of {', '.join(ZERO_MATCHES)}")
        for option, value in (("--key-format", self.key_format), ("--response-format", self.response_format)):
            if value not in FORMATS:
                raise UsageError(f"{option}: {value!r} is not one of {', '.join(FORMATS)}")
        if self.match not in MATCH_MODES:
            raise UsageError(f"--match: {self.match!r} is not one of {', '.join(MATCH_MODES)}")
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
    def ace(self) -> AceOptions:
        return AceOptions(self.ace_variant, self.ace_weighting)

    @property
    def corefud(self) -> CorefudSettings:
        """corefud-scorer's settings of these options (under `conventions == "corefud"`)."""
        return CorefudSettings(self.match, self.singletons == "keep", self.zero_match)


def resolve_conventions(conventions: str, key_path: str, response_paths: Sequence[str], key_format: str = "auto",
                        response_format: str = "auto") -> str:
    """`auto`: corefud when the key and every response are CoNLL-U, else conll."""
    if conventions != "auto":
        return conventions
    from metrics.formats.readers import detect_format

    def is_conllu(path: str | None, given: str, also: tuple[str, ...] = ()) -> bool:
        if given != "auto":
            return given in ("conllu", *also)
        return path not in (None, "-") and os.path.exists(path) and detect_format(path) in ("conllu", *also)

    crac = ("crac-text", "crac-json")  # the CRAC LLM track's output is scored as its pipeline's CoNLL-U
    both = is_conllu(key_path, key_format) and all(is_conllu(p, response_format, crac) for p in response_paths)
    return "corefud" if both else "conll"


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
    responses: list[list[Document]] = field(default_factory=list)
    """Each response's documents as read (mapped onto the key's words), singletons included and
    spans unmatched: K&K's analysis finds span errors and singletons its own way."""

    def __post_init__(self) -> None:
        unique = list(dict.fromkeys(self.warnings))  # a key's warning comes once per response
        self.warnings = sorted(unique, key=lambda w: not (w.startswith(f"{self.key_path}:") or "KEY document" in w))
        self._pricers: dict[tuple, object] = {}
        self._kk: dict[tuple, object] = {}
        self._lock = threading.Lock()

    @classmethod
    def load(cls, key_path: str, response_paths: Sequence[str], options: LoadOptions = LoadOptions(),
             stage: Callable[[str], None] | None = None,
             on_document: Callable[[int, int], None] | None = None, processes: int = 1) -> Session:
        """Read, match and prepare.  `stage(label)` hears each step (reading key, aligning...),
        `on_document(done, total)` each prepared document: a front end's progress display.  With
        `processes` > 1 the responses may be read in forked processes beside the key (`_Inputs`)."""
        say = stage or (lambda label: None)
        options.apply_limits()
        if options.conventions == "corefud":
            return cls._load_corefud(key_path, response_paths, options, say, on_document, processes)
        warnings: list[str] = []
        inputs = _Inputs(key_path, response_paths, options, processes)
        say("reading key")
        keys, notes, cache_notes = inputs.get(0)
        warnings.extend(notes)
        read, keys = keys, _singletons(keys, options, key_path, warnings)
        warnings.extend(cache_notes)
        total, done = len(keys) * len(response_paths), [0]

        def prepared() -> None:
            done[0] += 1
            if on_document is not None:
                on_document(done[0], total)

        if not response_paths:  # a key browsed alone: paired with itself, so every view has its pairs
            corpus = prepare(keys, keys, on_document=lambda: None, ace=options.ace)
            return cls(key_path, [], [corpus], options, warnings + corpus.warnings, read)
        corpora, read_responses = [], []
        for number, path in enumerate(response_paths, start=1):
            say("reading response" if len(response_paths) == 1 else f"reading response {number}/{len(response_paths)}")
            responses, notes, cache_notes = inputs.get(number)
            warnings.extend(notes)
            mapped, characters, lost = key_words(keys, responses)
            read_responses.append(mapped)
            responses = _singletons(mapped, options, path, warnings)
            warnings.extend(cache_notes + lost)
            if options.match != "exact":
                say("matching mentions")
                responses = match_corpus(keys, responses, options.match)
            say("aligning mentions")
            corpus = prepare(keys, responses, on_document=prepared, ace=options.ace)
            corpus.characters = characters
            warnings.extend(corpus.warnings)
            corpora.append(corpus)
        return cls(key_path, list(response_paths), corpora, options, warnings, read, read_responses)

    @classmethod
    def _load_corefud(cls, key_path: str, response_paths: Sequence[str], options: LoadOptions,
                      say: Callable[[str], None], on_document: Callable[[int, int], None] | None,
                      processes: int) -> Session:
        """`load` under the CorefUD conventions (`metrics.corpus.projection`).  The span reader's key
        types the mentions; its notes on zeros and discontinuous mentions do not apply here."""
        from metrics.corpus.projection import prepare_corefud
        from metrics.formats.corefud import read_corefud
        from metrics.formats.readers import read_node_response

        say("reading key")
        base, _, cache_notes = _Inputs(key_path, [], options, processes).get(0)
        warnings = list(cache_notes)
        keys = read_corefud(key_path, warnings)
        total, done = len(keys) * max(1, len(response_paths)), [0]

        def prepared() -> None:
            done[0] += 1
            if on_document is not None:
                on_document(done[0], total)

        corpora = []
        for number, path in enumerate(response_paths or [key_path], start=1):
            if response_paths:
                say("reading response" if len(response_paths) == 1 else f"reading response {number}/{len(response_paths)}")
            responses = keys
            if response_paths:
                responses, repairs = read_node_response(path, _fmt(options.response_format), key_path, keys, warnings)
                if repairs is not None:
                    warnings.extend(repairs.warnings())
            say("aligning mentions")
            corpus = prepare_corefud(base, keys, responses, key_path, path, options.corefud, options.ace, prepared)
            warnings.extend(corpus.warnings)
            corpora.append(corpus)
        return cls(key_path, list(response_paths), corpora, options, warnings)

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
        wanted = set(documents) if documents is not None else None
        pairs = [p for p in self.corpora[system].pairs if wanted is None or p.name in wanted]
        return classify_corpus(pairs, weights)

    def kk_report(self, documents: Iterable[str] | None = None, system: int = 0, metric: str = "conll",
                  weights: Weights = W4, processes: int = 1):
        """Kummerfeld & Klein's errors of one system and the scores along BCA's corrections
        (`metrics.errors.kummerfeld_klein`): the key as read, the response as prepared (mapped onto
        the key's words, spans unmatched), its singletons removed under --singletons remove."""
        from metrics.errors.kummerfeld_klein.report import analyse_corpus
        from metrics.mentions.pairing import pair_documents

        memo = (None if documents is None else tuple(documents), system, metric,
                weights if metric in names(weighted=True) else None)
        if memo in self._kk:  # the workbench's list and charts ask for the same analysis
            return self._kk[memo]
        wanted = set(documents) if documents is not None else None
        chosen = [p for p in self.corpora[system].pairs if wanted is None or p.name in wanted]
        if self.keys and self.responses:  # else (CorefUD conventions, a key alone) the pairs as prepared
            keys = [doc for doc in self.keys if wanted is None or doc.name in wanted]
            partners, _ = pair_documents(keys, self.responses[system])
            pairs = [(key.name, key, response if response is not None else p.response)
                     for key, response, p in zip(keys, partners, chosen)]
        else:
            pairs = [(p.name, p.key, p.response) for p in chosen]
        report = self._kk[memo] = analyse_corpus(pairs, self.options.singletons == "keep", metric, weights, processes)
        return report

    def pricer(self, metric: str = "conll", weights: Weights = W4, system: int = 0):
        """The engine's `Pricer` for one metric, weights and system, built once and kept (its
        memo of rescored chain components serves every later question)."""
        from metrics.errors.chen_ng.impact import Pricer

        key = (metric, weights if metric in names(weighted=True) else None, system)
        with self._lock:
            pricer = self._pricers.get(key)
            if pricer is None:
                pricer = self._pricers[key] = Pricer(self.corpora[system], metric, weights)
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

    # ---------------------------------------------------------------------- export

    def export(self, path: str, fmt: str, scope: str, weights: Weights, scores: dict,
               records: Sequence[ErrorRecord] | None) -> str:
        """Write a report of one scope (a document or the corpus): its scores and its errors with
        their fixes and impacts, atomically, never onto an input.  Returns the path."""
        from .output import render_report, write_atomic

        write_atomic(path, render_report(scope, weights, scores, records, fmt), inputs=self.inputs)
        return path


PARALLEL_READ_BYTES = 1_000_000
"""Bytes of response files from which reading them beside the key, in forked processes, gains
more than sending their documents back costs."""

_Read = tuple[list[Document], list[str], list[str]]
"""A file's documents, its reader's warnings, and the cache's."""


class _Inputs:
    """The key's (0) and each response's (1..n) documents and warnings, in the order `Session.load`
    takes them: each read when asked for, or all read up front, the responses in forked processes
    beside the key (`metrics.runtime.parallel`), when they are large enough and there is a processor for
    them (a command line: the workbench's threads rule out forking).  A file's documents then come
    back pickled, a fifth of the cost of reading them.  A file that cannot be read raises when it
    is asked for, so the error a user sees is the one a reading in order would meet first."""

    def __init__(self, key_path: str, response_paths: Sequence[str], options: LoadOptions, processes: int) -> None:
        self.paths = [key_path, *response_paths]
        self.options = options
        self.processes = processes
        self.cache = ReadCache.default(options.cache)
        self.ahead: dict[int, tuple[bool, object]] = {}
        sizes = [os.path.getsize(path) if is_regular(path) else -1 for path in response_paths]
        if sizes and min(sizes) >= 0 and sum(sizes) >= PARALLEL_READ_BYTES and processes > 1 and can_fork():
            # the key here, the responses to be parsed shared among the other processes (a cached
            # one loads here faster than it would come back from another process)
            responses = [i for i in range(1, len(self.paths)) if not self._cached(i)]
            if sum(sizes[i - 1] for i in responses) < PARALLEL_READ_BYTES:
                return
            pieces = [[0]] + [piece for piece in (responses[i::processes - 1] for i in range(processes - 1)) if piece]
            for piece, outcomes in zip(pieces, fork_map(self._attempt, pieces)):
                self.ahead.update(zip(piece, outcomes))

    def get(self, index: int) -> _Read:
        if index not in self.ahead:
            return self._read(index)
        ok, value = self.ahead.pop(index)
        if not ok:
            raise value  # type: ignore[misc]
        return value  # type: ignore[return-value]

    def _attempt(self, indices: list[int]) -> list[tuple[bool, object]]:
        """Each file's reading, or the error that stopped it (raised later, in `get`)."""
        outcomes: list[tuple[bool, object]] = []
        for index in indices:
            try:
                outcomes.append((True, self._read(index)))
            except (InputError, OSError) as error:
                outcomes.append((False, error))
        return outcomes

    def _cached(self, index: int) -> bool:
        """Whether response `index` would come from the cache (read as `_read` reads it)."""
        path, fmt, clusters_field, syntax = self._response_reading(index)
        return in_cache(path, fmt, clusters_field, self.cache, syntax)

    def _response_reading(self, index: int) -> tuple[str, str | None, str, bool]:
        """How response `index` is read: path, format, chains field and whether with its syntax
        (with exact matching a response's syntax is never used: types come from the key)."""
        options = self.options
        return self.paths[index], _fmt(options.response_format), options.clusters_field, options.match != "exact"

    def _read(self, index: int) -> _Read:
        notes: list[str] = []
        options = self.options
        if index == 0:  # the key is read in run after run: its mention types are computed once, for the cache
            documents = read_documents(self.paths[0], _fmt(options.key_format), notes, options.clusters_field,
                                       self.cache, prepare=lambda keys: prepare_types(keys, self.processes))
        else:
            path, fmt, clusters_field, syntax = self._response_reading(index)
            documents = read_documents(path, fmt, notes, clusters_field, self.cache, syntax=syntax)
        cache_notes = list(self.cache.warnings)
        self.cache.warnings.clear()
        return documents, notes, cache_notes


def _singletons(documents: list[Document], options: LoadOptions, path: str, warnings: list[str]) -> list[Document]:
    """`--singletons remove`: the documents without singleton chains, and a line saying how many."""
    if options.singletons == "keep":
        return documents
    kept, removed = without_singletons(documents)
    warnings.append(f"--singletons remove: {removed:,} singleton chains removed from {path}")
    return kept


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

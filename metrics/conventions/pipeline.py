"""The one road from files to prepared corpora, for every front end and every convention.

    read (key, then each response) -> the convention's prepare (key words, singletons, matching or
    alignment, tables) -> `Loaded`: frozen prepared corpora, to score (`PreparedCorpus.score`) and
    classify (`metrics.errors`)

`load` takes one frozen `Options`; the convention it names (`registry.convention`) does each
step its way.  `read_key` and `read_response` are the road's first step alone, for `corefwb
convert` (a key as its convention reads it; a response on a key's words and names).  `stream`
is the same road for corpora too large to hold, a document at a time, under a convention that can
(`Streams`): the convention indexes both files, pairs their documents and reads each one; the
pairs are prepared and scored in worker processes, and only their scores come back.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace

from metrics.conventions.base import Convention, Loaded, Progress, Read, Streams
from metrics.conventions.options import Options
from metrics.conventions.registry import convention
from metrics.formats.cache import ReadCache
from metrics.formats.readers import read_documents
from metrics.corpus.scoring import CorpusResult, aggregate, prepare_document, score_pair
from metrics.corpus.stream import Slice, once_per_file, runs
from metrics.formats.source import is_regular, max_document_tokens
from metrics.measures.catalog import resolve
from metrics.measures.weights import W4, Weights
from metrics.runtime.gc_pause import gc_paused
from metrics.mentions.characters import CharacterAlignment, key_words
from metrics.mentions.pairing import pair_documents
from metrics.model import Document, InputError
from metrics.runtime.parallel import can_fork, fork_map


def load(key_path: str, response_paths: Sequence[str], options: Options, *, progress: Progress = Progress(),
         processes: int = 1) -> Loaded:
    """The key and its responses read, paired and prepared under `options.conventions`.  With
    `processes` > 1 the responses may be read in forked processes beside the key (`Inputs`)."""
    conventions = convention(options.conventions)
    inputs = Inputs(conventions, key_path, response_paths, options, processes)
    progress.stage("reading key")
    key = inputs.get(0)
    responses = [(path, lambda number=number: inputs.get(number)) for number, path in enumerate(response_paths, 1)]
    return conventions.prepare(key, responses, key_path, options, progress)


def read_key(path: str, options: Options) -> Read:
    """A file read as the key under `options.conventions`, the road's first step alone: under
    CorefUD its node mentions, zeros and DEPS as corefud-scorer reads them (`corefwb convert`
    checks a CoNLL-U copy so, and writes the CRAC LLM track's text from them)."""
    return convention(options.conventions).read(path, True, options, ReadCache.default(options.cache), 1)


def read_response(path: str, options: Options, *, key_path: str | None = None
                  ) -> tuple[list[Document], list[str], CharacterAlignment | None]:
    """A file read as a response under v8.01's conventions, on a key's words and under its
    document names when a key is given (`key_path`): its documents, the readers' warnings, and
    what the mapping by characters did.  Why the names: the official scorers pair documents by
    name only, so a response written for them must carry the key's (`(NAME); part 000` of a
    CoNLL-2012 key paired with `NAME`, or a record without a name paired by place)."""
    warnings: list[str] = []
    documents = read_documents(path, options.response_format, warnings, options.clusters_field)
    characters = None
    if key_path is not None:
        keys = read_documents(key_path)
        documents, characters, lost = key_words(keys, documents)
        warnings += lost
        partners, _ = pair_documents(keys, documents)
        renamed = {id(doc): replace(doc, name=key.name) for key, doc in zip(keys, partners)
                   if doc is not None and doc.name != key.name}
        documents = [renamed.get(id(doc), doc) for doc in documents]
    return documents, warnings, characters


def stream(key_path: str, response_path: str, options: Options, *, weights: Weights = W4,
           metrics: Sequence[str] | None = None, jobs: int = 1) -> tuple[CorpusResult, list[str]] | None:
    """Two files scored a document at a time in `jobs` processes: memory near one document per
    process, and the result (with the warnings) identical for every `jobs`, as per-document scores
    do not depend on the process and are summed in key order here.  None when the convention
    cannot stream these files (then they are to be read whole, by `load`)."""
    conventions = convention(options.conventions)
    if not isinstance(conventions, Streams) or not conventions.streams(key_path, response_path, options):
        return None
    wanted = resolve(metrics)
    keys = conventions.index(key_path)
    responses = conventions.index(response_path)
    partners, warnings = conventions.pair(keys, responses, response_path)
    unpaired = _read_unpaired(conventions, response_path, responses, partners, options)
    pieces = runs(list(zip(keys, partners)), max(1, jobs) * 8)
    tasks = [_Run(conventions, key_path, response_path, run, options, weights, wanted, max_document_tokens())
             for run in pieces]
    jobs = min(jobs, len(tasks))  # never a process without work
    if jobs <= 1:
        collected = [_score_run(task) for task in tasks]
    else:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            collected = list(pool.map(_score_run, tasks))
    documents = [document for scored, *_ in collected for document in scored]
    # as the whole files' road says them: each file's reading, then the pairing, then each pair's
    # (`load`); a reading's warnings once per file, not once per document (`once_per_file`)
    readings = [once_per_file(path, [note for run in collected for note in run[side]] + (unpaired if side == 2 else []))
                for side, path in ((1, key_path), (2, response_path))]
    warnings = [*readings[0], *readings[1], *warnings, *(note for *_, notes in collected for note in notes)]
    return aggregate(documents, weights, wanted), warnings


def _read_unpaired(conventions: Streams, path: str, responses: Sequence[Slice], partners: Sequence[Slice | None],
                   options: Options) -> list[str]:
    """The response documents no key took, read all the same (and dropped): the whole reading
    reads every document, so a broken one the key lacks refused the run there and passed under
    `--stream` (exit 1 against 0).  Their reading's warnings, for the response's."""
    taken = {id(piece) for piece in partners if piece is not None}
    notes: list[str] = []
    for piece in responses:
        if id(piece) not in taken:
            conventions.read_piece(path, piece, key=False, options=options, warnings=notes,
                                   max_tokens=max_document_tokens())
    return notes


@dataclass(frozen=True)
class _Run:
    """A worker's share of `stream`: a run of paired byte ranges, and how to read and score them
    (the bound on a document's tokens travels with it: a process may not inherit the parent's)."""

    conventions: Streams
    key_path: str
    response_path: str
    pieces: list[tuple[Slice, Slice | None]]
    options: Options
    weights: Weights
    metrics: tuple[str, ...]
    max_tokens: int


def _score_run(run: _Run) -> tuple[list[tuple[str, dict]], list[str], list[str], list[str]]:
    """Worker: read, pair, align and score a run of documents; only their scores go back, with
    the warnings of reading the key, of reading the response, and of pairing and aligning (kept
    apart, so `stream` says them in the whole files' order)."""
    key_notes: list[str] = []
    response_notes: list[str] = []
    warnings: list[str] = []
    scored = []
    read = run.conventions.read_piece
    with gc_paused():
        for key_piece, response_piece in run.pieces:
            key = read(run.key_path, key_piece, key=True, options=run.options, warnings=key_notes,
                       max_tokens=run.max_tokens)
            response = None if response_piece is None else read(
                run.response_path, response_piece, key=False, options=run.options, warnings=response_notes,
                max_tokens=run.max_tokens)
            pair = prepare_document(key, response, run.response_path, warnings, run.options.ace)
            scored.append((key.name, score_pair(pair, run.weights, run.metrics)))
    return scored, key_notes, response_notes, warnings


PARALLEL_READ_BYTES = 100_000_000
"""Bytes of response files from which reading them beside the key, in forked processes, gains
more than it costs.  Measured on a 15 MB response (250,000 tokens) on 2 cores: the read beside
the key took 0.06 s off the run's critical path (the parent's CPU time: sending the documents
back as columns and building them again is 50-80 ms of it) and cost 0.2 s of CPU (the child's
reading in fresh memory: 20,000 more page faults); on a machine with no idle processor it saves
nothing.  The saving grows with the file, the building and the copies with it too."""


class Inputs:
    """The key's (0) and each response's (1..n) readings, in the order the road takes them: each
    read when asked for, or all read up front, the responses in forked processes beside the key
    (`metrics.runtime.parallel`), when they are large enough and there is a processor for them (a
    command line: the workbench's threads rule out forking).  A file's documents then come back
    pickled (a CoNLL-2012 file's as the reader's columns: `formats.conll_columns`).  A file that cannot be read raises when it is
    asked for, so the error a user sees is the one a reading in order would meet first."""

    def __init__(self, conventions: Convention, key_path: str, response_paths: Sequence[str], options: Options,
                 processes: int) -> None:
        self.conventions = conventions
        self.paths = [key_path, *response_paths]
        self.options = options
        self.processes = processes
        self.cache = ReadCache.default(options.cache)
        self.ahead: dict[int, Read | InputError | OSError] = {}
        sizes = [os.path.getsize(path) if is_regular(path) else -1 for path in response_paths]
        if sizes and min(sizes) >= 0 and sum(sizes) >= PARALLEL_READ_BYTES and processes > 1 and can_fork():
            # the key here, the responses to be parsed shared among the other processes (a cached
            # one loads here faster than it would come back from another process)
            responses = [i for i in range(1, len(self.paths))
                         if not conventions.cached(self.paths[i], options, self.cache)]
            if sum(sizes[i - 1] for i in responses) < PARALLEL_READ_BYTES:
                return
            pieces = [[0]] + [piece for piece in (responses[i::processes - 1] for i in range(processes - 1)) if piece]
            for piece, outcomes in zip(pieces, fork_map(self._attempt, pieces)):
                self.ahead.update(zip(piece, outcomes))

    def get(self, index: int) -> Read:
        if index not in self.ahead:
            return self._read(index)
        outcome = self.ahead.pop(index)
        if isinstance(outcome, (InputError, OSError)):
            raise outcome
        return outcome

    def _attempt(self, indices: list[int]) -> list[Read | InputError | OSError]:
        """Each file's reading, or the error that stopped it (raised later, in `get`)."""
        outcomes: list[Read | InputError | OSError] = []
        for index in indices:
            try:
                outcomes.append(self._read(index))
            except (InputError, OSError) as error:
                outcomes.append(error)
        return outcomes

    def _read(self, index: int) -> Read:
        read = self.conventions.read(self.paths[index], index == 0, self.options, self.cache, self.processes)
        cache_notes = tuple(self.cache.warnings)
        self.cache.warnings.clear()
        return replace(read, cache_notes=cache_notes)


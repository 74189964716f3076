"""The CoNLL-2012 conventions: the reference scorer v8.01's.

Reading: CoNLL-2012, CorefUD CoNLL-U read as token spans, or jsonlines (`metrics.formats.readers`);
the key's mention types computed once, for the cache.  A response in its own words is mapped onto
the key's words by characters (`metrics.mentions.characters`).  Singletons stay unless
`keep_singletons` is off.  Mentions match exactly as v8.01's, or by head or partially
(`metrics.mentions.matching`); documents pair by name and align by v8.01's mention ids
(`metrics.corpus.scoring.prepare`).  Clusters keep the file's order.  Every metric of the
catalogue but CorefUD's own applies, computed as v8.01 computes it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from metrics.conventions.base import Convention, Loaded, Progress, Read, applicable
from metrics.conventions.options import CONLL_2012, Options
from metrics.corpus.scoring import PreparedCorpus, pair_corpus, prepare
from metrics.corpus.stream import Slice, index_conll, read_slice
from metrics.formats.cache import ReadCache
from metrics.formats.conll_columns import sendable
from metrics.formats.readers import detect_format, in_cache, read_documents
from metrics.formats.source import is_gzip_file, is_regular
from metrics.measures.catalog import Metric, Scorer
from metrics.mentions.characters import key_words
from metrics.mentions.matching import match_corpus
from metrics.mentions.pairing import Named, T
from metrics.mentions.types import prepare_types
from metrics.model import Document, without_singletons


@dataclass(frozen=True)
class Conll2012:
    """v8.01's conventions (`Convention`)."""

    name: str = CONLL_2012
    scorer: Scorer = Scorer.V801

    @property
    def official(self) -> tuple[Metric, ...]:
        return applicable(self.scorer)

    @property
    def scores(self) -> tuple[Metric, ...]:
        """Every catalogue metric that applies under v8.01 (its official ones among them)."""
        return applicable(self.scorer)

    def read(self, path: str, key: bool, options: Options, cache: ReadCache | None, processes: int) -> Read:
        """The key with its mention types computed ahead for the cache (it is read run after run);
        a response with its syntax only when matching by head or partially needs it.  A CoNLL-2012
        response's documents pickle as the reader's columns (`formats.conll_columns`): read in a
        forked process, it comes back so (the key is read here: it keeps no columns)."""
        notes: list[str] = []
        if key:
            documents = read_documents(path, options.key_format, notes, options.clusters_field, cache=cache,
                                       prepare=lambda keys: prepare_types(keys, processes))
        else:
            documents = read_documents(path, options.response_format, notes, options.clusters_field, cache=cache,
                                       syntax=options.match != "exact")
        return Read(documents=tuple(documents) if key else sendable(documents), notes=tuple(notes))

    def cached(self, path: str, options: Options, cache: ReadCache | None) -> bool:
        return in_cache(path, options.response_format, options.clusters_field, cache, options.match != "exact")

    def prepare(self, key: Read, responses: Sequence[tuple[str, Callable[[], Read]]], key_path: str,
                options: Options, progress: Progress) -> Loaded:
        """Key words, singletons, matching, alignment: each response against the key."""
        warnings = list(key.notes)
        read = list(key.documents)
        keys = _singletons(read, options, key_path, warnings)
        warnings.extend(key.cache_notes)
        if not responses:  # a key browsed alone: paired with itself, so every view has its pairs
            corpus = prepare(keys, keys, on_document=lambda: None, ace=options.ace)
            return Loaded((corpus,), tuple(warnings + corpus.warnings), tuple(read))
        total, done = len(keys) * len(responses), [0]

        def prepared() -> None:
            done[0] += 1
            progress.document(done[0], total)

        corpora: list[PreparedCorpus] = []
        read_responses: list[tuple[Document | None, ...]] = []
        for number, (path, get) in enumerate(responses, start=1):
            progress.reading(number, len(responses))
            response = get()
            warnings.extend(response.notes)
            mapped, characters, lost = key_words(keys, list(response.documents))
            documents = _singletons(mapped, options, path, warnings)
            warnings.extend([*response.cache_notes, *lost])
            if options.match != "exact":
                progress.stage("matching mentions")
                documents = match_corpus(keys, documents, options.match)
            progress.stage("aligning mentions")
            corpus = prepare(keys, documents, on_document=prepared, ace=options.ace, characters=characters)
            warnings.extend(corpus.warnings)
            corpora.append(corpus)
            as_read = {document.name: document for document in mapped}  # each pair's response, as read
            read_responses.append(tuple(as_read.get(pair.response.name) for pair in corpus.pairs))
        return Loaded(tuple(corpora), tuple(warnings), tuple(read), tuple(read_responses))


    def streams(self, key_path: str, response_path: str, options: Options) -> bool:
        """Uncompressed regular CoNLL-2012 files, with exact matching and singletons kept: a
        document's byte range is then all its scoring needs (`Streams`)."""
        return options.match == "exact" and options.keep_singletons and all(
            is_regular(path) and not is_gzip_file(path)
            and (fmt if fmt not in (None, "auto") else detect_format(path)) == "conll"
            for path, fmt in ((key_path, options.key_format), (response_path, options.response_format)))

    def index(self, path: str) -> list[Slice]:
        return index_conll(path)

    def pair(self, keys: Sequence[Named], responses: Sequence[T], response_path: str) -> tuple[list[T | None], list[str]]:
        """By name, as `prepare` pairs documents in memory (`corpus.scoring.pair_corpus`)."""
        return pair_corpus(keys, responses, response_path)

    def read_piece(self, path: str, piece: Slice, *, key: bool, options: Options, warnings: list[str],
                   max_tokens: int) -> Document:
        """As `read` reads a whole file: a response without its syntax unless matching needs it."""
        return read_slice(path, piece, warnings, max_tokens, syntax=key or options.match != "exact")


def _singletons(documents: list[Document], options: Options, path: str, warnings: list[str]) -> list[Document]:
    """Without `keep_singletons`: the documents without singleton chains, and a line saying how many."""
    if options.keep_singletons:
        return documents
    kept, removed = without_singletons(documents)
    warnings.append(f"--singletons remove: {removed:,} singleton chains removed from {path}")
    return kept


CONLL_2012_CONVENTIONS: Convention = Conll2012()

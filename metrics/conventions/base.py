"""What a convention is, and what the road hands from one step to the next.

A convention is an object with a name, the scorer whose numbers it gives (`Scorer`, which picks
each metric's computation in the catalogue), the metrics that scorer prints, and two steps of the
road: reading one file (`read`) and preparing the key with its responses (`prepare`).  The
pipeline (`pipeline.load`) calls them in that order for every front end.  A new convention is one
module with one such object, registered in `registry` (docs/engine.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from metrics.conventions.options import Options
from metrics.corpus.scoring import PreparedCorpus
from metrics.formats.cache import ReadCache
from metrics.measures.catalog import CATALOG, Metric, Scorer
from metrics.model import Document, NodeDocument

if TYPE_CHECKING:  # named in annotations only: loading a convention loads no other convention's readers
    from metrics.corpus.stream import Slice
    from metrics.mentions.pairing import Named, T
    from metrics.mentions.ua import UADocument


@dataclass(frozen=True)
class Read:
    """One file as a convention reads it: its documents as token spans (`documents`), as node
    mentions (`nodes`, CorefUD's), as UA markables (`ua`), the reader's warnings and the cache's."""

    documents: tuple[Document, ...] = ()
    nodes: tuple[NodeDocument, ...] = ()
    ua: tuple[UADocument, ...] = ()
    """Its documents as UA markables (the Universal Anaphora conventions')."""
    notes: tuple[str, ...] = ()
    cache_notes: tuple[str, ...] = ()
    onto_key: str | None = None
    """A response that only the key can read (the CRAC LLM track's inline text or JSON, laid onto
    the key's words and trees): its format, and nothing read yet; `prepare` reads it."""


@dataclass(frozen=True)
class Progress:
    """Who hears the road's progress: `stage(label)` each step, `document(done, total)` each
    prepared document (a front end's progress display)."""

    stage: Callable[[str], None] = field(default=lambda label: None)
    document: Callable[[int, int], None] = field(default=lambda done, total: None)

    def reading(self, number: int, count: int) -> None:
        """The stage of reading response `number` of `count`: one label for every convention."""
        self.stage("reading response" if count == 1 else f"reading response {number}/{count}")


@dataclass(frozen=True)
class Loaded:
    """A key and its responses, prepared: what the road hands to scoring and error analysis."""

    corpora: tuple[PreparedCorpus, ...]
    """One prepared corpus per response, in the order given (the key with itself when none)."""
    warnings: tuple[str, ...]
    """Everything the readers and the aligner noticed, in the order met."""
    keys: tuple[Document, ...] = ()
    """The key's documents as read, singletons included, in the pairs' order (K&K's analysis reads
    the files as BCA does)."""
    responses: tuple[tuple[Document | None, ...], ...] = ()
    """Per response, the document each pair of its corpus holds as read (None where the response
    lacks the key's document): on the key's words, singletons included, spans unmatched."""


class Convention(Protocol):
    """How a corpus is read, paired, aligned and scored under one official scorer's rules."""

    @property
    def name(self) -> str:
        """The name `--conventions` takes."""
        ...

    @property
    def scorer(self) -> Scorer:
        """Whose computation of each catalogue metric its scores are."""
        ...

    @property
    def official(self) -> tuple[Metric, ...]:
        """The metrics its official scorer prints, in its order (`score`'s default)."""
        ...

    @property
    def scores(self) -> tuple[Metric, ...]:
        """The metrics scored and listed under it, in the order listed: `compare`'s `--metrics all`
        (with its significance tests) and the workbench's scores panel (which adds `official`'s
        beyond them, as `score` prints them).  Every front end takes the list from here."""
        ...

    def read(self, path: str, key: bool, options: Options, cache: ReadCache | None, processes: int) -> Read:
        """One file, the key's (`key`) or a response's: the road's first step."""
        ...

    def cached(self, path: str, options: Options, cache: ReadCache | None) -> bool:
        """Whether reading a response would take it from the cache (then it is read here, not forked)."""
        ...

    def prepare(self, key: Read, responses: Sequence[tuple[str, Read]], key_path: str, options: Options,
                progress: Progress) -> Loaded:
        """The key with each response (its path and its reading): paired, aligned, ready to score."""
        ...


@runtime_checkable
class Streams(Protocol):
    """A convention that can also score two files a document at a time (`pipeline.stream`, for
    corpora too large to hold): it says which files it can, finds their documents' byte ranges,
    pairs them as it pairs documents, and reads one document from its range."""

    def streams(self, key_path: str, response_path: str, options: Options) -> bool:
        """Whether these two files, read under `options`, can be scored a document at a time."""
        ...

    def index(self, path: str) -> list[Slice]:
        """The byte ranges of a file's documents, in file order, without parsing them."""
        ...

    def pair(self, keys: Sequence[Named], responses: Sequence[T], response_path: str) -> tuple[list[T | None], list[str]]:
        """Each key document's response partner (None when absent), and the pairing's warnings."""
        ...

    def read_piece(self, path: str, piece: Slice, *, key: bool, options: Options, warnings: list[str],
                   max_tokens: int) -> Document:
        """The one document lying in `piece` of `path`, read as `read` would read it."""
        ...


def shared() -> tuple[Metric, ...]:
    """The catalogue's metrics that apply under every scorer, in catalogue order (`--metrics all`
    of the conventions whose pairs are token spans)."""
    return tuple(metric for metric in CATALOG if not metric.only)


def listed(convention: Convention) -> tuple[Metric, ...]:
    """What a front end lists of one system under a convention: its `scores`, then its official
    scorer's own beyond them (MOR and zero under CorefUD's)."""
    return convention.scores + tuple(metric for metric in convention.official if metric not in convention.scores)


def applicable(scorer: Scorer) -> tuple[Metric, ...]:
    """The catalogue's metrics that exist under a scorer, in catalogue order."""
    return tuple(metric for metric in CATALOG if metric.applies(scorer))

"""A CoNLL-2012 file's documents as the few columns the reader builds them from, and documents
that are sent between processes as those columns.

Why: a large response is read in a forked process beside the key (`metrics.conventions.pipeline`),
and its documents came back pickled object by object: a string per word, an integer per token
line, a tuple per mention, 50-70 ms to pickle and 35-50 ms to load for a 250,000-token file, the
largest part of what the fork cost.  The reader holds the same content as a few arrays and one
long string of words (`Columns`) just before it builds the documents; pickled, those are a few
copies of memory, and the documents built from them in the receiving process equal the ones read
field for field.  `ReadDocuments` is the list `read_conll` returns (pickled as any list: its
caller may still change the documents), `SentDocuments` the tuple a convention keeps
(`Read.documents`), which pickles as the columns while its documents are as read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from operator import is_

import numpy as np

from metrics.formats.brackets import ChainColumns
from metrics.model import Document, Span


@dataclass(frozen=True, eq=False)
class Columns:
    """A file's documents, column by column: document d's tokens are `sizes[d]` consecutive
    entries of the token columns, its sentence starts `sentence_counts[d]` consecutive entries
    of `sentence_starts`."""

    path: str
    names: list[str]
    lines: list[int]
    """Each document's `#begin document` line."""
    sizes: np.ndarray
    words: str
    """Every token's word, joined by line ends (which no field holds)."""
    token_lines: np.ndarray
    sentence_starts: np.ndarray
    """Token indices within their document."""
    sentence_counts: np.ndarray
    chains: ChainColumns
    repeated: dict[int, dict[Span, tuple[int, ...]]]
    """Per document (by index) with a span listed twice: `Document.repeated`."""
    annotations: dict[int, dict]
    """Per document in the full layout: its POS, parse, lemma, speaker and named-entity columns and
    parse heads, as the documents hold them (kept as they are: a response scored with exact
    matching has none)."""

    def documents(self) -> list[Document]:
        """The documents, each field as the reader gives it."""
        words = _cut(self.words.split("\n") if int(self.sizes.sum()) else [], self.sizes)
        token_lines = _cut(self.token_lines.tolist(), self.sizes)
        sentence_starts = _cut(self.sentence_starts.tolist(), self.sentence_counts)
        chains, labels = self.chains.chains(), self.chains.labels()
        out = []
        for d, name in enumerate(self.names):
            extra = self.annotations.get(d, {})
            out.append(Document(
                name=name, words=words[d], chains=chains[d], labels=labels[d], sentence_starts=sentence_starts[d],
                path=self.path, line=self.lines[d], token_lines=token_lines[d], pos=extra.get("pos"),
                lemmas=extra.get("lemmas"), parse=extra.get("parse"), speakers=extra.get("speakers"),
                named_entities=extra.get("named_entities"), repeated=self.repeated.get(d),
                parse_heads=extra.get("parse_heads"),
            ))
        return out


def _cut(items: list, lengths: np.ndarray) -> list[list]:
    """`items` cut into consecutive lists of the given lengths."""
    ends = np.cumsum(lengths).tolist()
    return [items[end - n:end] for n, end in zip(lengths.tolist(), ends)]


def _documents_of(columns: Columns) -> SentDocuments:
    """Unpickling: the documents built from their columns."""
    return SentDocuments(columns, columns.documents())


class ReadDocuments(list):
    """The documents of a CoNLL-2012 file as read (a list), with the columns they were built from
    (`sendable` takes them).  Pickled, it is a plain list of documents: a reader's caller may
    still change them (`types.prepare_types` keeps the key's types on them, for the cache)."""

    def __init__(self, columns: Columns, documents: Iterable[Document]) -> None:
        super().__init__(documents)
        self.columns = columns
        self.built = tuple(self)

    def __reduce__(self):
        return list, (list(self),)


class SentDocuments(tuple):
    """Documents as a convention keeps them (`Read.documents`, a tuple), which pickle as the
    columns they were built from while each is as read (no derived field kept on it yet)."""

    columns: Columns

    def __new__(cls, columns: Columns, documents: Iterable[Document]) -> SentDocuments:
        made = super().__new__(cls, documents)
        made.columns = columns
        return made

    def __reduce__(self):
        if _as_read(self):
            return _documents_of, (self.columns,)
        return tuple, (tuple(self),)


def sendable(documents: list[Document]) -> tuple[Document, ...]:
    """The documents as a tuple; one that pickles as their columns (`SentDocuments`) when they are
    the very documents the CoNLL-2012 reader built from them, each as read."""
    if isinstance(documents, ReadDocuments) and len(documents) == len(documents.built) \
            and all(map(is_, documents, documents.built)) and _as_read(documents):
        return SentDocuments(documents.columns, documents)
    return tuple(documents)


def _as_read(documents: Iterable[Document]) -> bool:
    """Whether no document has had its mentions' types kept on it (`types.prepare_types`, which
    also sets `parse_heads`): the only field set on a document after reading."""
    return all(document.rule_types is None for document in documents)

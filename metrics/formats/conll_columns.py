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
from dataclasses import MISSING, dataclass, field, fields
from functools import lru_cache
from operator import is_

import numpy as np

from metrics.formats.brackets import ChainColumns
from metrics.formats.layout import FieldTexts
from metrics.formats.packed import StoredColumns, mention_arrays
from metrics.mentions.types_arrays import TokenArrays
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
    """Per document in the full layout: its named entities, as the documents hold them (a
    response scored with exact matching has none)."""
    parse_heads: np.ndarray | None = None
    """Every token's head by the parse column, within its document, all documents' laid end to
    end (int64), when every document has them (`conll._annotations`); else None."""
    tag_ids: tuple[np.ndarray, dict[str, int]] | None = None
    """With `parse_heads`, every token's POS tag as a number, and the tags numbered
    (`heads_parse.LaidHeads`): what typing reads (`TokenArrays.tag_ids`)."""
    later: dict[str, tuple] = field(default_factory=dict)
    """Fields every document makes when first read, as the cache's codec states (`packed`) for
    all documents: the POS, parse, lemma and speaker columns and the parse's heads, which a
    `score` reads as arrays (`TokenArrays`, typing the key's mentions) or not at all."""
    lemmas: FieldTexts | None = None
    """Every token's lemma as the file's fields, when every document has lemmas (`conll._annotations`):
    typing reads them at the spans' heads (`TokenArrays.lemmas`) instead of the column split."""

    def documents(self) -> list[Document]:
        """The documents, each field as the reader gives it, each holding the file's chains and
        tokens as arrays (`Document.mention_arrays`), as documents from the cache of read files do.
        The fields a `score` reads as those arrays or not at all (`_MADE_LATER`: the chains, the
        tokens' lines, the sentence starts; and the annotation columns and parse heads, `later`)
        are made when a document first reads them, for every document of the file at once
        (`packed.StoredColumns`, the cache's own): as lists they were a million small objects of a
        250,000-token file, a tenth of a cold `score`'s time in making them and faulting in their
        memory."""
        flat_words = split_words(self.words) if int(self.sizes.sum()) else []
        words = _cut(flat_words, self.sizes)
        columns = self.chains
        chain_state = (columns.chain_counts, columns.chain_sizes, columns.firsts, columns.lasts)
        states = (chain_state, (self.sizes, self.token_lines), (self.sentence_counts, self.sentence_starts))
        stored = StoredColumns(len(self.names), {**dict(zip(_MADE_LATER, states)), **self.later}, {})
        held = mention_arrays(chain_state, None, stored, self._tokens(flat_words, words))
        labels = columns.labels()
        set_later = {name: value for name, value in _SET_LATER.items() if name not in self.later}
        out = []
        for d, name in enumerate(self.names):
            out.append(Document.fields_later(stored, d, {
                **set_later, "name": name, "words": words[d], "labels": labels[d], "path": self.path,
                "line": self.lines[d], "named_entities": self.annotations.get(d, {}).get("named_entities"),
                "repeated": self.repeated.get(d), "mention_arrays": held[d]}))
        stored.documents = out
        return list(out)

    def _tokens(self, flat_words: list[str], words: list[list[str]]) -> TokenArrays | None:
        """The documents' tokens as arrays, as the cache of read files keeps them (`formats.packed`),
        where typing can read them (every document with its tags and the heads its parse gives):
        the tags as the numbers found with the heads (`tag_ids`), the lemmas as the file's fields.  Why:
        typing the key's mentions over the file's tokens reads them instead of the documents'
        lists, which are then never made (`types_arrays.road`)."""
        later = self.later
        if self.parse_heads is None or self.tag_ids is None or "pos" not in later \
                or (later["pos"][0] < 0).any():
            return None
        lemma_lengths, _, lemma_count, _ = later["lemmas"]
        lemmas = self.lemmas if (lemma_lengths >= 0).all() and lemma_count else None
        return TokenArrays(_starts(self.sizes), flat_words, words, None, lemmas, self.parse_heads, self.tag_ids)


_MADE_LATER = ("chains", "token_lines", "sentence_starts")
"""The fields of a read document made when first read (`Columns.documents`)."""
_SET_LATER = {f.name: f.default for f in fields(Document) if f.default is not MISSING and f.name not in _MADE_LATER}
"""The fields the reader does not set, at their defaults: a document made later holds every field
but those it makes later."""


@lru_cache(maxsize=1)
def split_words(words: str) -> list[str]:
    """A file's words joined by line ends (`Columns.words`), split: the last file's split kept,
    so that a response with the key's words (the usual case) holds the key's very strings
    instead of 295,000 new ones for a 250,000-token file (making them and faulting in their
    memory cost about 5% of a cold `score`).  The list is shared: never changed by its users
    (each document holds its own list, cut from it)."""
    return words.split("\n")


def _starts(lengths: np.ndarray) -> np.ndarray:
    """Where each of consecutive groups of these lengths starts, and the end of the last (int64)."""
    return np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)]).astype(np.int64)


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

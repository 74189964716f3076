"""The data model every reader produces and every metric consumes.

A reader turns a file into a list of `Document`s.  A document carries its words (and whatever
token annotations the format had: POS, parse bits, named entities, dependency heads) and its
coreference chains as lists of inclusive token spans.  Key and response are simply two lists of
documents paired by name; nothing here knows which side a document is on.

Chain and mention order is the file's order, as the official scorer (v8.01) sees it: chains in the
order their label was first met, mentions of a chain in the order they were completed.  That order
decides which copy of a duplicated span the official scorer keeps, so readers must preserve it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import IntEnum
from typing import Protocol

Span = tuple[int, int]
"""A mention: (first token, last token), 0-based over the document's tokens, inclusive."""


class MentionType(IntEnum):
    """Chen & Ng's three mention types, and zeros; the integer is the index into type-count vectors.

    Why ZERO of its own: a zero tells the reader even less than a pronoun (no person, often no
    number), and CorefUD data has many; its LMetric weight is the pronoun's unless set.
    """

    NAME = 0
    NOMINAL = 1
    PRONOUN = 2
    ZERO = 3
    """A zero (CorefUD: a mention whose head is an empty node, the dropped subject of a pro-drop language)."""

    @property
    def letter(self) -> str:
        return "NMPZ"[self]

    @classmethod
    def parse(cls, text: str) -> "MentionType":
        """NAME, NOMINAL, PRONOUN, ZERO, their letters N, M, P, Z or NAM, NOM, PRO, ZER (any case)."""
        wanted = text.strip().upper()
        for kind in cls:
            if wanted in (kind.name, kind.letter, kind.name[:3]):
                return kind
        raise ValueError(f"unknown mention type {text!r}; choose from NAME, NOMINAL, PRONOUN, ZERO (or N, M, P, Z)")


class InputError(Exception):
    """A file that cannot be read.  Always names the file and, where there is one, the line."""

    MAX_MESSAGE = 1000
    """Characters of message kept: one quoting a 100 MB line would bury the terminal."""

    def __init__(self, path: str, line: int | None, message: str) -> None:
        if len(message) > self.MAX_MESSAGE:
            message = f"{message[:self.MAX_MESSAGE]}... ({len(message)} characters)"
        self.path = path
        self.line = line
        self.message = message
        named = path or "''"  # an empty name given on the command line, shown as such
        where = f"{named}:{line}" if line is not None else named
        super().__init__(f"{where}: {message}")

    def __reduce__(self):
        # rebuilt from its parts when it crosses a process boundary (`--jobs`)
        return (InputError, (self.path, self.line, self.message))


UNMADE = object()
"""What `StoredFields.made` gives for a field not made yet."""


class StoredFields(Protocol):
    """Where a document loaded from the cache of read files takes the fields it has not made yet
    (`Document.fields_later`): its file's columns as the cache stored them
    (`metrics.formats.packed`), a field made for every document of the file when one first reads it."""

    def value(self, name: str, place: int) -> object:
        """Field `name` of the document at `place` (made now, with every document's, if not yet)."""

    def made(self, name: str, place: int) -> object:
        """That value if it was made, else `UNMADE`."""


@dataclass
class Document:
    """One document (a CoNLL part, a CoNLL-U newdoc, a jsonlines line).

    Optional annotation lists are per token and `None` when the format did not supply them.
    `token_lines` maps each token to its 1-based line in `path` so that later checks (token
    count mismatches, duplicate spans) can point at the file.

    A document loaded from the cache of read files, or read by the CoNLL-2012 reader, makes a field
    when it is first read (`fields_later`): a `score` reads the chains, the typed mentions and the
    tokens' lines of its files' documents as the arrays kept beside them, never as lists.  Its values are the same as
    those of a document made whole, and it compares, copies and pickles the same.
    """

    name: str
    words: list[str]
    chains: list[list[Span]]
    labels: list[str] = field(default_factory=list)
    sentence_starts: list[int] = field(default_factory=list)
    path: str = ""
    line: int = 0
    token_lines: list[int] | None = None
    pos: list[str] | None = None
    lemmas: list[str] | None = None
    parse: list[str] | None = None
    speakers: list[str] | None = None
    named_entities: list[tuple[int, int, str]] | None = None
    heads: list[int] | None = None
    """Dependency head of each token as a document-level token index, -1 for a root."""
    entity_types: list[str | None] | None = None
    """Entity type of each chain (CorefUD `Entity=` etype: person, place...), None where a chain
    has none; None when the format carries no entity types (the ACE-value then counts no type
    errors)."""
    explicit_types: dict[Span, MentionType] | None = None
    """Mention types given by the input itself (e.g. an annotation column); they win over rules."""
    pieces: dict[Span, tuple[Span, ...]] | None = None
    """The pieces of each discontinuous mention (CorefUD's `[1/2]`), a mention that the span from
    its first token to its last stands for: shown piece by piece (`metrics.conventions.projection`)."""
    repeated: dict[Span, tuple[int, ...]] | None = field(default=None, compare=False, repr=False)
    """Spans the file lists more than once (in two chains, or twice in one): the chains listing
    each, in the order the file completes them (within a cell, the order of its items).  v8.01's
    rule for them is in `metrics.mentions.chains`; the Berkeley analyser keeps the first copy
    (`metrics.errors.kummerfeld_klein.view`)."""
    repaired: dict[Span, str] | None = field(default=None, compare=False, repr=False)
    """Mentions a reader repaired to make them (a CRAC LLM-track output's bracket repairs,
    `metrics.formats.crac_repairs`), each with what it did: the workbench marks them."""
    own_words: bool = False
    """The words are the system's own (plain text, subtokens joined, another tokenizer): the
    document is mapped onto the key's words by characters before it is scored
    (metrics.mentions.characters)."""
    parse_heads: list[int] | None = field(default=None, compare=False, repr=False)
    """Derived, not read: the heads the parse column gives (metrics.mentions.heads), when computed
    ahead for the cache of read files, which keeps them with the document ([] when it gives none)."""
    rule_types: dict[Span, tuple[MentionType, str]] | None = field(default=None, compare=False, repr=False)
    """Derived, not read: the type and rule of the document's own mentions (metrics.mentions.types), when
    computed ahead for the cache of read files."""
    mention_arrays: object | None = field(default=None, compare=False, repr=False)
    """Derived, not read: the document's chains as arrays, as the cache of read files stored them or
    the CoNLL-2012 reader made them (`metrics.mentions.chains.MentionArrays` and the document's
    place there), which array work reads
    instead of walking `chains`; used only while `chains` is what they store (`holds_stored`: a
    document `replace`d with other chains keeps the field, not its use)."""

    @classmethod
    def fields_later(cls, stored: StoredFields, place: int, made: dict[str, object]) -> Document:
        """A document holding the fields `made`, its others made from `stored` (the document at
        `place` there) when first read.  Why: the lists of a cached corpus's chains, typed mentions
        and token lines cost a sixth of a cached `score`, which reads none of them (it reads the
        arrays the cache keeps, `mention_arrays`; `holds_stored` tells it may)."""
        document = _FieldsLater.__new__(_FieldsLater)
        document.__dict__.update(made, _stored=(stored, place))
        return document

    def holds_stored(self, name: str, stored: StoredFields, place: int) -> bool:
        """Whether field `name` is what `stored` gives the document at `place` (not made yet, or
        the very object made there): array work may then read the stored columns instead of the
        field.  A document given another value (`replace`), or made by a reader that keeps no arrays
        (not CoNLL-2012), does not."""
        held = self.__dict__
        value = held.get(name, UNMADE)
        if value is UNMADE:  # (a tuple compares its items by identity first: `stored` is not compared by value)
            return held.get("_stored") == (stored, place)
        return value is stored.made(name, place)

    @property
    def n_tokens(self) -> int:
        return len(self.words)

    def keeping_chains(self, indices: list[int]) -> Document:
        """The document with only these chains, their labels and entity types kept alongside."""
        labels = self.chain_labels()
        return replace(self, chains=[self.chains[i] for i in indices], labels=[labels[i] for i in indices],
                       entity_types=None if self.entity_types is None else [self.entity_types[i] for i in indices])

    def mentions(self) -> list[Span]:
        """Every mention occurrence, chain by chain (duplicates included)."""
        return [m for chain in self.chains for m in chain]

    def chain_labels(self) -> list[str]:
        """Each chain's label: the file's own, or the chain's index when the format has none
        (jsonlines clusters are unnamed).  Messages and error records name chains by it."""
        if len(self.labels) == len(self.chains):
            return self.labels
        return [str(i) for i in range(len(self.chains))]

    def chains_listing(self) -> dict[Span, tuple[int, ...]]:
        """Every span -> the indices of the chains that list it, each once, in chain order.

        Usually one chain; real system output lists some spans in two.  This is the raw view of
        the file; which copy counts is v8.01's rule, applied in `metrics.mentions.chains`.
        """
        listing: dict[Span, list[int]] = {}
        for index, chain in enumerate(self.chains):
            for span in chain:
                held = listing.get(span)
                if held is None:
                    listing[span] = [index]
                elif held[-1] != index:  # (chains come in order: only the last can be this one)
                    held.append(index)
        # lists made tuples once: a span in n chains grew a tuple n times (quadratic: 25,000 chains
        # listing one span took 1.3 s)
        return {span: tuple(held) for span, held in listing.items()}

    def where(self, token: int | None = None) -> str:
        """'path:line' of a token (or of the document header) for messages."""
        if token is not None and self.token_lines and 0 <= token < len(self.token_lines):
            return f"{self.path}:{self.token_lines[token]}"
        return f"{self.path}:{self.line}"


_FIELD_NAMES = frozenset(f.name for f in fields(Document))
_COMPARED = tuple(f.name for f in fields(Document) if f.compare)
for _name in _FIELD_NAMES:
    # A field's default stays in `__init__` only: left as a class attribute (as `dataclass` leaves
    # it), it would be what a document not holding the field yet reads (`fields_later`).
    if _name in vars(Document):
        delattr(Document, _name)


class _FieldsLater(Document):
    """A `Document` whose fields not held yet are made when first read (`Document.fields_later`).

    Why a class of its own: a class with `__getattr__` loses Python's quick attribute reads on
    every instance (`doc.words` in 28 ns instead of 10 ns), which the documents of the other
    readers keep.  The cache's and the CoNLL-2012 reader's documents are of this class: a `score`
    reads their fields a few times per document, their tokens and chains as arrays (measured on
    a 250,000-token corpus: no change in its scoring's time).  It compares equal to a `Document`
    of the same values, as a document made whole does."""

    def __getattr__(self, name: str) -> object:  # only for a field not made yet
        stored = self.__dict__.get("_stored")
        if stored is None or name not in _FIELD_NAMES:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        value = self.__dict__[name] = stored[0].value(name, stored[1])
        return value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Document):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in _COMPARED)
    # no __hash__: a class that defines __eq__ alone is unhashable, as a Document is (a mutable dataclass)


def without_singletons(documents: list[Document]) -> tuple[list[Document], int]:
    """The documents with their singleton chains (one distinct span) dropped, and how many were.

    Why a choice of its own: v8.01 keeps singletons; coval's `remove_singletons` and the CorefUD
    scorer's default drop them from key and response before alignment.  `--singletons remove`
    does the latter, so scores can be compared with papers that did.
    """
    out, removed = [], 0
    for doc in documents:
        kept = [i for i, chain in enumerate(doc.chains) if len(set(chain)) > 1]
        removed += len(doc.chains) - len(kept)
        out.append(doc if len(kept) == len(doc.chains) else doc.keeping_chains(kept))
    return out, removed



Node = tuple[int, int, int]
"""A node of a CoNLL-U document: (sentence, word, empty).  Word 5 of sentence 2 is (2, 5, 0), the
empty node 5.1 after it is (2, 5, 1), the sentence's root is (2, 0, 0).  Tuples order as the text
does, so a zero sits between the words around it."""


@dataclass(frozen=True)
class NodeMention:
    """A mention as CorefUD defines it: the set of nodes it covers and its head.

    Why not a `Span`: a CorefUD mention may skip words (discontinuous, `[1/2]`), may cover empty
    nodes, or may be an empty node alone (a zero: the dropped subject of a pro-drop language).  The
    CorefUD conventions align and score mentions as node sets, so this is their unit.
    """

    nodes: tuple[Node, ...]
    """The covered nodes, in text order (each once)."""
    head: Node
    """The head node: the Entity attribute's head index where the file gives one, else the first node."""
    deps: tuple[tuple[Node, str], ...] = ()
    """The head's enhanced dependencies (DEPS): (parent, relation), the parent's root being (s, 0, 0)."""

    @property
    def zero(self) -> bool:
        """Is the head an empty node?  (corefud-scorer's `is_zero`)"""
        return self.head[2] != 0

    def __reduce__(self) -> tuple[type[NodeMention], tuple[tuple[Node, ...], Node, tuple[tuple[Node, str], ...]]]:
        """Pickled as its three fields, rebuilt by its constructor: a corpus's mentions come back
        from the process that read them, and from the cache, in less than half the time the
        default (a frozen dataclass's state dictionary) takes."""
        return NodeMention, (self.nodes, self.head, self.deps)


@dataclass
class NodeDocument:
    """A CoNLL-U document as the CorefUD conventions read it: its words and its entities of node
    mentions.  Entities and their mentions are in udapi's order (by first node; a longer mention
    first; then by last node; then by entity ID), which is the order corefud-scorer scores in."""

    name: str
    forms: list[tuple[Node, str]]
    """Every word (not the empty nodes) with its form: key and response must agree on them."""
    entities: list[tuple[str, list[NodeMention]]]
    line_of: dict[Node, int] = field(default_factory=dict, compare=False, repr=False)
    """The input line of each node, for located errors."""
    etypes: dict[str, str] = field(default_factory=dict)
    """Entity ID -> its type (`etype`: person, place...) where the file gives one."""

"""The Universal Anaphora (UA) document model: markables, the relations between them, and the
mentions the UA scorer compares.

A UA file (CoNLL-U Plus with `# global.columns = ... IDENTITY BRIDGING DISCOURSE_DEIXIS ...`)
annotates, per document:

- identity markables (`IDENTITY`): `(EntityID=1|MarkableID=markable_101|Min=5|SemType=dn)`.  An
  EntityID ending in `-Pseudo` marks a non-referring markable (an expletive, a predicate...);
  `ElementOf=4` (or `4,7`) makes the markable's entity one of the split antecedents of the plural
  entity 4;
- bridging links (`BRIDGING`): anaphor `MarkableID`, relation `Rel`, anchor `MentionAnchor`;
- discourse-deixis markables (`DISCOURSE_DEIXIS`), with the identity syntax (`EntityID=1-DD`).

`formats/ua.py` reads them; `mentions/ua_align.py` groups them into clusters and aligns key and
response mentions; `measures/ua.py` and `measures/ua_relations.py` score them.

Why `Mention` and `SplitAntecedent` hash as they do: the UA scorer keeps mentions in Python sets
and dicts, and some of its numbers depend on the order a set yields them in (BLANC over a plural
entity, ties between equally long discontinuous mentions).  Hashing like it (a mention by the
frozenset of its positions, a split antecedent by the frozenset of its member clusters) makes our
sets yield the same order, so the numbers agree to the last digit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

Position = int | str
"""A word's 0-based index in its document, or a zero's `"W.K"`: the K-th empty node before word W
(a string, so that it never equals a word)."""


def position_order(position: Position) -> tuple[int, int, int]:
    """A position's place in the text: zero "W.K" just before word W."""
    if isinstance(position, int):
        return (position, 1, 0)
    word, _, index = position.partition(".")
    return (int(word), 0, int(index))


_new_frozenset = frozenset.__new__
_new_object = object.__new__
_set_attribute = object.__setattr__
_NO_WORDS: frozenset[int] = frozenset()


class Mention(frozenset):
    """The words a markable covers, as the UA scorer compares markables: the set of its positions.

    Two mentions are the same when they cover the same positions; `words` keeps them in order
    (a position two overlapping parts share, twice: the UA scorer then tells the two apart, which
    no released file needs); `min_words` (the `Min` attribute, or for CRAFT matching the first
    part) and `parts` only serve partial matching.  A frozenset, so that comparing and hashing
    run at C speed: the metrics look mentions up hundreds of thousands of times.
    """

    __slots__ = ("words", "min_words", "parts", "zero")
    is_split = False

    def __new__(cls, words: Iterable[Position], parts: tuple[tuple[Position, Position], ...] = (),
                min_words: frozenset[int] = frozenset(), zero: bool = False) -> "Mention":
        words = tuple(words)
        self = super().__new__(cls, words)
        self.words = words
        self.min_words = min_words
        self.parts = parts
        self.zero = zero
        return self

    @classmethod
    def made(cls, words: tuple[Position, ...], parts: tuple[tuple[Position, Position], ...], min_words: frozenset[int],
             zero: bool) -> "Mention":
        """The same mention as `Mention(...)` from a tuple of words, made as a side's clustering
        makes thousands (without the type call through `__new__`: half the time)."""
        self = _new_frozenset(cls, words)
        self.words = words
        self.min_words = min_words
        self.parts = parts
        self.zero = zero
        return self

    @property
    def word_set(self) -> frozenset:
        return self

    def order(self) -> tuple:
        """The UA scorer's order of mentions: first word, last word, number of words (a zero
        before the word it precedes, where the UA scorer cannot compare the two)."""
        return (position_order(self.words[0]), position_order(self.words[-1]), len(self.words))

    def __repr__(self) -> str:
        return f"Mention{self.words}"


class SplitAntecedent:
    """The split antecedents of a plural entity, as one more mention of that entity.

    `members` holds the clusters (tuples of mentions, as the file lists them) of the entities the
    plural one is made of, nested plural entities replaced by their own members.  Two split
    antecedents are the same when their member sets are.  `members` is a set built in the order
    the members were found, as the UA scorer builds it: its iteration order is part of the scores.
    """

    __slots__ = ("members", "_hash", "entity")

    is_split = True
    zero = False

    def __init__(self, members: set[tuple[Mention, ...]], entity: str = "") -> None:
        self.members = members
        self.entity = entity
        self._hash = hash(frozenset(members))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SplitAntecedent):
            return self.members == other.members
        return NotImplemented

    def __repr__(self) -> str:
        return f"SplitAntecedent({self.entity})"


AnyMention = Mention | SplitAntecedent


def _covered(parts: tuple[tuple[Position, Position], ...], zero: bool) -> tuple[Position, ...]:
    """Every position the parts cover, sorted (a zero's one position)."""
    if zero:
        return (parts[0][0],)
    if len(parts) == 1:
        return tuple(range(int(parts[0][0]), int(parts[0][1]) + 1))
    return tuple(sorted(w for first, last in parts for w in range(int(first), int(last) + 1)))


def non_referring_entity(entity: str) -> bool:
    """Whether an EntityID marks a non-referring markable (`7-Pseudo`)."""
    return entity.endswith("-Pseudo")


@dataclass(frozen=True)
class Markable:
    """One identity (or discourse-deixis) markable of a UA document."""

    id: str
    """MarkableID."""
    entity: str
    """EntityID (the last one given, when a discontinuous markable repeats it)."""
    parts: tuple[tuple[Position, Position], ...]
    """(first, last) position of each part, in the order they were opened."""
    min_span: tuple[int, int] | None
    """The `Min` attribute of the first part, 0-based inclusive word indices; None without it."""
    zero: bool
    element_of: tuple[str, ...] = ()
    """The plural entities this markable's entity is a split antecedent of (each time listed)."""
    line: int = 0
    """The line of its first opening bracket."""
    attribute_text: str = ""
    """Its first opening's attributes as written (`EntityID=1|MarkableID=m|SemType=dn`)."""

    @property
    def non_referring(self) -> bool:
        return non_referring_entity(self.entity)

    @property
    def attributes(self) -> tuple[tuple[str, str], ...]:
        """Every attribute of its first opening (SemType...), for display: made when asked for, as
        the reader reads them (a name given twice keeps its first place and its last value)."""
        out: dict[str, str] = {}
        for piece in self.attribute_text.split("|") if self.attribute_text else ():
            name, _, value = piece.partition("=")
            out[name] = value
        return tuple(out.items())

    words: tuple[Position, ...] = field(init=False, repr=False, compare=False)
    """Every position covered, sorted (a position two parts share is listed twice)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "words", _covered(self.parts, self.zero))

    @classmethod
    def made(cls, id: str, entity: str, parts: tuple[tuple[Position, Position], ...], *,
             min_span: tuple[int, int] | None, zero: bool, element_of: tuple[str, ...], line: int,
             attribute_text: str) -> "Markable":
        """The same markable as `Markable(...)`, made as the reader makes thousands of them: its
        fields given at once, as its whole `__dict__` (a frozen dataclass's `__init__` sets each
        one through `object.__setattr__`, several times slower; a dict written out is a quarter
        faster than one updated from keywords)."""
        self = _new_object(cls)
        _set_attribute(self, "__dict__", {"id": id, "entity": entity, "parts": parts, "min_span": min_span, "zero": zero,
                                          "element_of": element_of, "line": line, "attribute_text": attribute_text,
                                          "words": _covered(parts, zero)})
        return self

    def mention(self, min_source: str) -> Mention:
        """The mention compared for this markable (`mention_of`)."""
        return mention_of(self.words, self.parts, self.zero, self.min_span, min_source)


def mention_of(words: tuple[Position, ...], parts: tuple[tuple[Position, Position], ...], zero: bool,
               min_span: tuple[int, int] | None, min_source: str) -> Mention:
    """The mention compared for a markable of these words and parts: `min_source` is "none" (exact
    matching: no Min read), "min" (the Min attribute) or "first_part" (CRAFT: the first part)."""
    min_words = _NO_WORDS
    if min_source == "min" and min_span is not None:
        min_words = frozenset(range(min_span[0], min_span[1] + 1))
    elif min_source == "first_part" and not zero:
        first, last = parts[0]
        min_words = frozenset(range(int(first), int(last) + 1))
    return Mention.made(words, parts, min_words, zero)


@dataclass(frozen=True)
class BridgingLink:
    """One bridging annotation: the anaphor markable, its relation and its anchor markable."""

    anaphor: str
    anchor: str
    relation: str = ""
    entity_anchor: str = ""
    line: int = 0


_NO_ROWS = np.zeros(0, np.int64)
_NO_ROWS.flags.writeable = False


class MarkableTable:
    """One document's markables of one layer (IDENTITY or DISCOURSE_DEIXIS) as columns, in the
    order their MarkableID is first met: what the reader makes and scoring reads.

    Why columns: a file holds thousands of markables, and an object per markable cost more than
    reading the file's lines; scoring under exact matching needs only each markable's words, its
    entity and its flags, which numpy reads from here at once.  `markables()` is the object view
    (`Markable`s) for what reads markables one by one (partial matching, the relation errors, the
    workbench), built from these columns when first asked for.

    A regular markable (one part, no zero) is the words `starts[i]` to `ends[i]`; any other (parts,
    or a zero) has its parts, as positions, in `irregular` (its `starts`/`ends` are its first
    part's, -1 for a zero).  `min_starts`/`min_ends` are its Min (0-based), -1 without one."""

    __slots__ = ("ids", "entities", "starts", "ends", "irregular", "min_starts", "min_ends", "element_of", "lines",
                 "attribute_texts", "_markables")

    def __init__(self, ids: list[str], entities: list[str], starts: np.ndarray, ends: np.ndarray, *,
                 irregular: dict[int, tuple[tuple[Position, Position], ...]], min_starts: np.ndarray,
                 min_ends: np.ndarray, element_of: dict[int, tuple[str, ...]], lines: np.ndarray,
                 attribute_texts: list[str]) -> None:
        self.ids = ids
        self.entities = entities
        self.starts = starts
        self.ends = ends
        self.irregular = irregular
        """Row -> parts, for a markable of several parts or on a zero."""
        self.min_starts = min_starts
        self.min_ends = min_ends
        self.element_of = element_of
        """Row -> the plural entities its entity is a split antecedent of (rows without: absent)."""
        self.lines = lines
        self.attribute_texts = attribute_texts
        self._markables: list[Markable] | None = None

    def __len__(self) -> int:
        return len(self.ids)

    def __getstate__(self) -> dict:
        return {name: getattr(self, name) for name in self.__slots__ if name != "_markables"}

    def __setstate__(self, state: dict) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self._markables = None

    def zero(self, row: int) -> bool:
        parts = self.irregular.get(row)
        return parts is not None and isinstance(parts[0][0], str)

    def markables(self) -> list["Markable"]:
        """The object view, made once."""
        if self._markables is None:
            made = Markable.made
            irregular, element_of = self.irregular, self.element_of
            out = []
            for i, (markable_id, entity, first, last, min_first, min_last, line, text) in enumerate(zip(
                    self.ids, self.entities, self.starts.tolist(), self.ends.tolist(), self.min_starts.tolist(),
                    self.min_ends.tolist(), self.lines.tolist(), self.attribute_texts)):
                parts = irregular.get(i)
                zero = parts is not None and isinstance(parts[0][0], str)
                out.append(made(markable_id, entity, ((first, last),) if parts is None else parts,
                                min_span=None if min_first < 0 else (min_first, min_last), zero=zero,
                                element_of=element_of.get(i, ()), line=line, attribute_text=text))
            self._markables = out
        return self._markables

    def mentions(self, min_source: str) -> list[Mention]:
        """Each markable's mention (`mention_of`), made from the columns (no `Markable` made).

        A row of one part is the commonest, thousands a file: its mention is made here as
        `mention_of` makes it, without a call per row (a third of this loop's time)."""
        out = []
        append = out.append
        irregular = self.irregular
        new, cls = _new_frozenset, Mention
        reads_min, reads_first_part = min_source == "min", min_source == "first_part"
        for row, (first, last, min_first, min_last) in enumerate(zip(
                self.starts.tolist(), self.ends.tolist(), self.min_starts.tolist(), self.min_ends.tolist())):
            parts = irregular.get(row)
            if parts is not None:
                zero = isinstance(parts[0][0], str)
                append(mention_of(_covered(parts, zero), parts, zero, None if min_first < 0 else (min_first, min_last),
                                  min_source))
                continue
            words = tuple(range(first, last + 1))
            mention = new(cls, words)
            mention.words = words
            mention.parts = ((first, last),)
            mention.zero = False
            if reads_min and min_first >= 0:
                mention.min_words = frozenset(range(min_first, min_last + 1))
            elif reads_first_part:
                mention.min_words = frozenset(words)
            else:
                mention.min_words = _NO_WORDS
            append(mention)
        return out

    @classmethod
    def of(cls, markables: Sequence["Markable"]) -> "MarkableTable":
        """The columns of markables given one by one (a document made by hand, or changed)."""
        count = len(markables)
        if not count:  # a layer before it is read, or without markables
            return cls([], [], _NO_ROWS, _NO_ROWS, irregular={}, min_starts=_NO_ROWS, min_ends=_NO_ROWS,
                       element_of={}, lines=_NO_ROWS, attribute_texts=[])
        starts, ends = np.full(count, -1, np.int64), np.full(count, -1, np.int64)
        min_starts, min_ends = np.full(count, -1, np.int64), np.full(count, -1, np.int64)
        irregular, element_of = {}, {}
        for i, m in enumerate(markables):
            if m.zero or len(m.parts) > 1:
                irregular[i] = m.parts
            if not m.zero:
                starts[i], ends[i] = m.parts[0]
            if m.min_span is not None:
                min_starts[i], min_ends[i] = m.min_span
            if m.element_of:
                element_of[i] = m.element_of
        table = cls([m.id for m in markables], [m.entity for m in markables], starts, ends, irregular=irregular,
                    min_starts=min_starts, min_ends=min_ends, element_of=element_of,
                    lines=np.array([m.line for m in markables], np.int64),
                    attribute_texts=[m.attribute_text for m in markables])
        table._markables = list(markables)
        return table

    def rows(self, first: int, last: int) -> "MarkableTable":
        """Rows `first` to `last - 1` as a table of their own (a file's markables cut per document)."""
        def shifted(sparse: dict) -> dict:
            return {i - first: v for i, v in sparse.items() if first <= i < last}

        return MarkableTable(self.ids[first:last], self.entities[first:last], self.starts[first:last],
                             self.ends[first:last], irregular=shifted(self.irregular),
                             min_starts=self.min_starts[first:last], min_ends=self.min_ends[first:last],
                             element_of=shifted(self.element_of), lines=self.lines[first:last],
                             attribute_texts=self.attribute_texts[first:last])


@dataclass
class UADocument:
    """One document of a UA file: its words and its three layers of annotation.

    Its markable layers are kept as `MarkableTable`s (`identity_table`, `deixis_table`); `identity`
    and `deixis` are their object views (given or set as a list of `Markable`s, a layer has its
    table made from the list)."""

    name: str
    words: list[str]
    identity: list[Markable]
    """Identity markables in the order their MarkableID is first met (a table may be given)."""
    deixis: list[Markable]
    """Discourse-deixis markables, likewise."""
    bridging: list[BridgingLink]
    path: str = ""
    line: int = 0
    """The line of its `# newdoc`."""
    word_lines: list[int] = field(default_factory=list, repr=False)
    """The line of each word (zeros excluded)."""
    sentence_starts: list[int] = field(default_factory=list, repr=False)
    zeros: dict[str, str] = field(default_factory=dict, repr=False)
    """Each zero's position -> its form."""

    @property
    def identity_table(self) -> MarkableTable:
        return self._identity

    @property
    def deixis_table(self) -> MarkableTable:
        return self._deixis

    def layer(self, deixis: bool) -> list[Markable]:
        return self.deixis if deixis else self.identity

    def layer_table(self, deixis: bool) -> MarkableTable:
        return self._deixis if deixis else self._identity


def _table_of(value: "list[Markable] | MarkableTable") -> MarkableTable:
    return value if isinstance(value, MarkableTable) else MarkableTable.of(value)


def _set_identity(document: UADocument, value: "list[Markable] | MarkableTable") -> None:
    document._identity = _table_of(value)


def _set_deixis(document: UADocument, value: "list[Markable] | MarkableTable") -> None:
    document._deixis = _table_of(value)


# The two layers as properties over their tables (set after the dataclass is made, so that its
# fields, `__init__`, `replace` and `==` read and write them through the properties).
UADocument.identity = property(lambda document: document._identity.markables(), _set_identity)
UADocument.deixis = property(lambda document: document._deixis.markables(), _set_deixis)

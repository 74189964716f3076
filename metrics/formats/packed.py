"""Read documents as a few flat columns, for the cache of read files: stored as arrays and long
strings, rebuilt with one split per column instead of one unpickling step per object.

Why: a corpus of 250,000 tokens is millions of small Python objects (words, POS tags, line
numbers, mention spans, typed mentions).  Pickled one by one they took longer to load than the
rest of a cached `corefwb score` run's reading; laid out as columns, a column of strings is one
string split once, a column of numbers one array turned into a list, so loading an entry is a
few copies of memory and the building of the lists the documents hold.

What is packed as a column: the fields whose values have the shape a codec expects (checked
whole when packing: a value of another shape, a string holding a line end, a number that is not
an `int`, sends its field to the rest).  Every other field (and any field added to `Document`
later) is kept as it is, pickled with the rest.  Unpacking gives documents equal to the packed
ones field for field, derived fields included, with the same types (lists, tuples, `int`, `str`,
`MentionType`).  A packed field is made when a document first reads it (`Document.fields_later`,
`StoredColumns`): a cached `score` reads the chains and typed mentions as the arrays kept beside
them (`mention_arrays`), and the tokens' lines, speakers and sentence starts not at all.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from itertools import chain, repeat

import numpy as np

from metrics.mentions.chains import MentionArrays, TypedArrays
from metrics.mentions.types_arrays import TokenArrays
from metrics.model import UNMADE, Document, MentionType

_NONE = -1
"""The length recorded for a document whose field is None."""
_KINDS = np.array(list(MentionType), dtype=object)


class _Unfit(ValueError):
    """A field's values do not have the shape its codec packs: the field is kept as it is."""


def _lengths(values: list) -> np.ndarray:
    return np.fromiter((_NONE if v is None else len(v) for v in values), dtype=np.int64, count=len(values))


def _cut(flat: list, lengths: np.ndarray) -> list:
    """`flat` cut into consecutive lists of the given lengths (None where the length is -1)."""
    ends = np.cumsum(np.maximum(lengths, 0)).tolist()
    return [None if n == _NONE else flat[end - n:end] for n, end in zip(lengths.tolist(), ends)]


def _narrow(numbers: list[int]) -> np.ndarray:
    """The numbers as an array of int32 when they fit (half the bytes to store and check), else int64."""
    wide = np.array(numbers, dtype=np.int64)
    if len(wide) and (wide.min() < np.iinfo(np.int32).min or wide.max() > np.iinfo(np.int32).max):
        return wide
    return wide.astype(np.int32)


def _check_types(items: list, kind: type) -> None:
    if items and set(map(type, items)) != {kind}:
        raise _Unfit(f"not all {kind.__name__}")


def _joined(strings: list) -> str:
    """The strings joined by line ends, which none of them may hold."""
    _check_types(strings, str)
    text = "\n".join(strings)
    if strings and text.count("\n") != len(strings) - 1:
        raise _Unfit("a string holds a line end")
    return text


def _split(text: str, count: int) -> list[str]:
    return text.split("\n") if count else []


def _coded(strings: list) -> tuple[str, int, np.ndarray]:
    """(the distinct strings joined, how many, each string's index among them): a column of
    words or tags holds few distinct strings, and an index is rebuilt with no new string."""
    _check_types(strings, str)
    distinct = list(dict.fromkeys(strings))
    index = {text: i for i, text in enumerate(distinct)}
    return _joined(distinct), len(distinct), np.fromiter(map(index.__getitem__, strings), dtype=np.int32, count=len(strings))


def _decoded(text: str, count: int, codes: np.ndarray) -> list[str]:
    distinct = np.empty(count, dtype=object)
    distinct[:] = _split(text, count)
    return distinct[codes].tolist()


def _spans(spans: list) -> tuple[np.ndarray, np.ndarray]:
    """(first tokens, last tokens) of a list of (int, int) tuples."""
    _check_types(spans, tuple)
    if not spans:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    first, last = zip(*spans)  # a span of another length fails below (or here)
    if len(spans[0]) != 2 or any(len(s) != 2 for s in spans):
        raise _Unfit("a span is not a pair")
    _check_types(list(first), int)
    _check_types(list(last), int)
    return _narrow(first), _narrow(last)


def _check(condition: bool, what: str) -> None:
    if not condition:
        raise TypeError(f"packed column of another shape: {what}")


def _counted(lengths: object, count: int) -> int:
    """How many values a column of `count` documents of these lengths (-1: None) holds, checked."""
    _check(isinstance(lengths, np.ndarray) and lengths.shape == (count,), "lengths")
    return int(np.maximum(lengths, 0).sum())


def _sized(values: object, size: int) -> None:
    _check(isinstance(values, np.ndarray) and values.shape == (size,), "values")


def _distinct(text: object, count: object) -> None:
    """`count` strings joined by line ends (`_joined`)."""
    _check(isinstance(text, str) and isinstance(count, int)
           and (text.count("\n") == count - 1 if count else text == ""), "distinct strings")


def _codes_within(codes: np.ndarray, count: int) -> None:
    _check(not len(codes) or (int(codes.min()) >= 0 and int(codes.max()) < count), "codes")


def _ints(numbers: np.ndarray) -> list[int]:
    """The numbers as a list of `int`: widened first, as numpy makes an `int` of an int64 half again
    as fast as of the int32 they are stored as (12 ms against 8 for a column of 295,000 tokens)."""
    return numbers.astype(np.int64, copy=False).tolist()


def _as_spans(first: np.ndarray, last: np.ndarray) -> list[tuple[int, int]]:
    return list(zip(_ints(first), _ints(last)))


class _Strings:
    """Per document, None or a list of `str` (words, POS tags, chain labels...)."""

    @staticmethod
    def pack(values: list) -> tuple:
        _check_types([v for v in values if v is not None], list)
        flat = list(chain.from_iterable(v for v in values if v is not None))
        return _lengths(values), *_coded(flat)

    @staticmethod
    def unpack(state: tuple, flat: list[str] | None = None) -> list:
        """Each document's list (cut from `flat`, the column's strings laid end to end, when given)."""
        return _cut(_Strings.flat(state) if flat is None else flat, state[0])

    @staticmethod
    def check(state: tuple, count: int) -> None:
        """TypeError unless the state unpacks to `count` documents (checked when an entry is
        loaded, as a field is made only when first read)."""
        lengths, text, distinct, codes = state
        _sized(codes, _counted(lengths, count))
        _distinct(text, distinct)
        _codes_within(codes, distinct)

    @staticmethod
    def flat(state: tuple) -> list[str]:
        """The column's strings, every document's laid end to end."""
        _, text, count, codes = state
        return _decoded(text, count, codes)


class _Numbers:
    """Per document, None or a list of `int` (line numbers, sentence starts, heads)."""

    @staticmethod
    def pack(values: list) -> tuple:
        _check_types([v for v in values if v is not None], list)
        flat = list(chain.from_iterable(v for v in values if v is not None))
        _check_types(flat, int)
        return _lengths(values), _narrow(flat)

    @staticmethod
    def check(state: tuple, count: int) -> None:
        lengths, numbers = state
        _sized(numbers, _counted(lengths, count))

    @staticmethod
    def unpack(state: tuple) -> list:
        lengths, numbers = state
        return _cut(_ints(numbers), lengths)


class _Chains:
    """Per document, its chains: a list of lists of spans."""

    @staticmethod
    def pack(values: list) -> tuple:
        _check_types(values, list)
        chains = list(chain.from_iterable(values))
        _check_types(chains, list)
        first, last = _spans(list(chain.from_iterable(chains)))
        return _lengths(values), _lengths(chains), first, last

    @staticmethod
    def check(state: tuple, count: int) -> None:
        per_document, per_chain, first, last = state
        _check(isinstance(per_document, np.ndarray) and (per_document >= 0).all(), "chains per document")
        _sized(per_chain, _counted(per_document, count))
        _check(bool((per_chain >= 0).all()), "spans per chain")
        _sized(first, _counted(per_chain, len(per_chain)))
        _sized(last, len(first))

    @staticmethod
    def unpack(state: tuple) -> list:
        per_document, per_chain, first, last = state
        return _cut(_cut(_as_spans(first, last), per_chain), per_document)

    @staticmethod
    def one(state: tuple, place: int) -> list:
        """The chains of the document at `place` alone (the same values as `unpack`'s)."""
        per_document, per_chain, first, last = state
        chain_start = int(per_document[:place].sum())
        sizes = per_chain[chain_start:chain_start + int(per_document[place])]
        span_start = int(per_chain[:chain_start].sum())
        span_end = span_start + int(sizes.sum())
        return _cut(_as_spans(first[span_start:span_end], last[span_start:span_end]), sizes)


class _Typed:
    """Per document, None or a dict of span -> (MentionType, rule): its mentions typed ahead."""

    @staticmethod
    def pack(values: list) -> tuple:
        present = [v for v in values if v is not None]
        _check_types(present, dict)
        first, last = _spans(list(chain.from_iterable(present)))
        typed = list(chain.from_iterable(v.values() for v in present))
        _check_types(typed, tuple)
        if any(len(t) != 2 for t in typed):
            raise _Unfit("a type is not (MentionType, rule)")
        kinds = [kind for kind, _ in typed]
        _check_types(kinds, MentionType)
        return _lengths(values), first, last, np.array(kinds, dtype=np.int8), *_coded([rule for _, rule in typed])

    @staticmethod
    def check(state: tuple, count: int) -> None:
        lengths, first, last, kinds, text, distinct, rules = state
        size = _counted(lengths, count)
        for values in (first, last, kinds, rules):
            _sized(values, size)
        _codes_within(kinds, len(_KINDS))
        _distinct(text, distinct)
        _codes_within(rules, distinct)

    @staticmethod
    def unpack(state: tuple) -> list:
        lengths, first, last, kinds, text, count, rules = state
        # each (type, rule) made once and shared: a few dozen distinct among a key's 100,000 mentions
        pairs = np.empty(len(_KINDS) * max(count, 1), dtype=object)
        rule_names = _split(text, count)
        for k, kind in enumerate(_KINDS.tolist()):
            for r, rule in enumerate(rule_names):
                pairs[k * count + r] = (kind, rule)
        typed = pairs[kinds.astype(np.intp) * count + rules.astype(np.intp)].tolist()
        spans = _as_spans(first, last)
        return [None if spans_ is None else dict(zip(spans_, types))
                for spans_, types in zip(_cut(spans, lengths), _cut(typed, lengths))]


_TOKEN_STRINGS = ("words", "pos", "lemmas")
"""The columns of strings whose documents' values laid end to end `TokenArrays` keeps."""
_MADE_NOW = (*_TOKEN_STRINGS, "parse", "heads", "parse_heads")
"""The fields made when unpacking: those a score's mention typing reads of every document (its
`road`, which reads the lists of a document holding them made, as these are).  Made later, they
would be made again by each forked process that scores a share of the documents."""


def _tokens(columns: dict[str, tuple], values: dict[str, list], flat: dict[str, list[str]]) -> TokenArrays:
    """The file's tokens laid end to end (`TokenArrays`) from its columns: words, tags, lemmas
    where every document has them, and the parse's heads (`tokens_kept` tells when it may)."""
    lengths = columns["words"][0]
    heads = columns["parse_heads"][1].astype(np.int64)
    return TokenArrays(_starts(np.maximum(lengths, 0)), flat["words"], values["words"], flat["pos"],
                       flat["lemmas"] if _whole(columns, "lemmas") else None, heads)


def _whole(columns: dict[str, tuple], name: str) -> bool:
    """Every document's column `name` there, one value per token."""
    return name in columns and "words" in columns and np.array_equal(columns[name][0], columns["words"][0])


def _tokens_kept(columns: dict[str, tuple]) -> bool:
    """Whether the file's tokens are kept as arrays (`TokenArrays`): only where typing mentions
    can read them, every document with its words, tags and parse heads (a key's)."""
    return _whole(columns, "pos") and _whole(columns, "parse_heads")


def mention_arrays(state: tuple, typed: tuple | None, stored: StoredColumns, tokens: TokenArrays | None
                   ) -> list[tuple[MentionArrays, int]]:
    """Each document's (its file's mentions as arrays, its place): `Document.mention_arrays`, what
    array work reads instead of the chain lists (and the typed mentions' dicts) made from them."""
    per_document, per_chain, first, last = state
    chain_starts = _starts(per_document)
    typed_arrays = None
    if typed is not None:
        lengths, typed_first, typed_last, kinds = typed[:4]
        typed_arrays = TypedArrays(typed_first.astype(np.int64), typed_last.astype(np.int64), kinds.astype(np.int64),
                                   _starts(np.maximum(lengths, 0)), lengths >= 0)
    arrays = MentionArrays(first.astype(np.int64), last.astype(np.int64), per_chain.astype(np.int64), chain_starts,
                           _starts(per_chain)[chain_starts], stored, typed_arrays, tokens)
    for held in (*arrays[:5], *(typed_arrays[:5] if typed_arrays is not None else ())):
        held.setflags(write=False)  # shared by every reader of the file's documents (`laid_chains` hands them out)
    return list(zip(repeat(arrays), range(int(stored.count))))


def _starts(lengths: np.ndarray) -> np.ndarray:
    """Where each of consecutive groups of these lengths starts, and the end of the last."""
    return np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)]).astype(np.int64)


_CODECS = {
    "words": _Strings, "labels": _Strings, "pos": _Strings, "lemmas": _Strings, "parse": _Strings,
    "speakers": _Strings, "token_lines": _Numbers, "sentence_starts": _Numbers, "heads": _Numbers,
    "parse_heads": _Numbers, "chains": _Chains, "rule_types": _Typed,
}
"""The fields packed as columns, each with its codec (the others are kept as they are)."""


@dataclass
class PackedDocuments:
    """Documents as columns: what the cache of read files stores for a list of `Document`s."""

    count: int
    columns: dict[str, tuple]
    """Field name -> its codec's state (arrays, a joined string, lengths per document)."""
    kept: tuple[str, ...]
    """The other fields, in `Document`'s order ..."""
    rest: list[tuple]
    """... and their values, one tuple per document."""


_DERIVED_HERE = ("mention_arrays",)
"""Fields never stored: made when unpacking, from the columns (`mention_arrays`)."""


def pack(documents: list[Document]) -> PackedDocuments:
    """The documents as columns (a field whose values do not fit its codec is kept as it is)."""
    columns: dict[str, tuple] = {}
    for name, codec in _CODECS.items():
        try:
            columns[name] = codec.pack([getattr(doc, name) for doc in documents])
        except (ValueError, TypeError, OverflowError):  # _Unfit among them
            continue
    kept = tuple(f.name for f in fields(Document) if f.name not in columns and f.name not in _DERIVED_HERE)
    rest = [tuple(getattr(doc, name) for name in kept) for doc in documents]
    return PackedDocuments(len(documents), columns, kept, rest)


class StoredColumns:
    """A file's packed fields, each made for every document when one of them first reads it
    (`Document.fields_later`; `model.StoredFields`); the chains of a few documents alone first."""

    def __init__(self, count: int, columns: dict[str, tuple], made: dict[str, list]) -> None:
        self.count = count
        self._columns = columns
        self._made = made
        """Field name -> every document's value, once made."""
        self.documents: list[Document] = []
        """The documents made from these columns, in order: a field made for all of them is given
        to each at once (20,000 tiny documents would each make it again through `__getattr__`)."""
        self._alone: dict[str, dict[int, object]] = {}
        """Field name -> the values made for a document alone, by its place (kept in the column
        made later: a document's field is made once)."""

    def value(self, name: str, place: int) -> object:
        column = self._made.get(name)
        if column is not None:
            return column[place]
        alone = self._alone.setdefault(name, {})
        if place in alone:
            return alone[place]
        codec = _CODECS[name]
        if hasattr(codec, "one") and len(alone) < ALONE:
            return alone.setdefault(place, codec.one(self._columns[name], place))
        column = codec.unpack(self._columns[name])
        for held, value in list(alone.items()):
            column[held] = value
        column = self._made.setdefault(name, column)  # the first made is kept (two threads may both make it)
        for document, value in zip(self.documents, column):
            document.__dict__.setdefault(name, value)  # (a document given another value keeps it)
        return column[place]

    def made(self, name: str, place: int) -> object:
        column = self._made.get(name)
        if column is not None:
            return column[place]
        return self._alone.get(name, {}).get(place, UNMADE)


ALONE = 32
"""Documents whose chains are made alone, before the whole file's are made at once.  Why: a
`score` aligns the pairs with a span listed twice from their chains' lists (v8.01's rules for
them), a few dozen of a corpus's hundreds; every other pair's chains it reads as arrays.  (One
document's alone costs about as much as a few hundred documents' at once.)"""


def unpack(packed: PackedDocuments) -> list[Document]:
    """The documents `pack` was given, each field made when first read (`Document.fields_later`;
    those of `_MADE_NOW` made now).
    Raises TypeError for anything else (a damaged entry), checked whole here."""
    if not isinstance(packed, PackedDocuments):
        raise TypeError(f"a {type(packed).__name__} where packed documents were expected")
    names = [f.name for f in fields(Document)]
    stored = [name for name in names if name not in _DERIVED_HERE]
    if sorted(stored) != sorted([*packed.columns, *packed.kept]) or len(packed.rest) != packed.count:
        raise TypeError("packed documents of another shape")
    for name, state in packed.columns.items():
        _CODECS[name].check(state, packed.count)
    flat = {name: _Strings.flat(packed.columns[name]) for name in _TOKEN_STRINGS if name in packed.columns}
    values = {name: _CODECS[name].unpack(packed.columns[name], flat[name]) if name in flat
              else _CODECS[name].unpack(packed.columns[name]) for name in _MADE_NOW if name in packed.columns}
    columns = StoredColumns(packed.count, packed.columns, dict(values))
    tokens = _tokens(packed.columns, values, flat) if _tokens_kept(packed.columns) else None
    arrays = (mention_arrays(packed.columns["chains"], packed.columns.get("rule_types"), columns, tokens)
              if "chains" in packed.columns else [None] * packed.count)
    kept = list(zip(*packed.rest)) if packed.count else [()] * len(packed.kept)
    own = [*packed.kept, *values, "mention_arrays"]
    columns.documents = [Document.fields_later(columns, place, dict(zip(own, row)))
                         for place, row in enumerate(zip(*kept, *values.values(), arrays))] if packed.count else []
    return list(columns.documents)

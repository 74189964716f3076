"""Every document's entry of a JSON score report, written column by column.

Why: a corpus of 20,000 documents writes 400,000 scores, and taking each score's recall,
precision and F1 from its properties, building its dict and walking it cost more than scoring
them.  Here each metric's values are computed for all documents at once (the columns scoring
gives, `metrics.measures.columns`: the same operations as the properties, elementwise), each
column's numbers are coded together (each distinct number written once, as `json_text.dumps`
writes it), and the entry's pieces, made once from the first document by the ordinary writer,
are laid around each document's name and numbers; documents with the same numbers share their
text.  A report whose documents do not share one shape goes through the ordinary writer
(`json_text.dumps`); the bytes are the same either way (tests/test_score_rows.py).
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable, Iterator, Sequence
from json.encoder import encode_basestring_ascii as json_string

import numpy as np

from metrics.measures.ace import AceScore
from metrics.measures.columns import Column, DocumentScores, as_list, floats, plain
from metrics.measures.score import AnchorScore, AnyScore, BlancScore, MeanScore, Score, ratio

from .json_text import dumps
from .output import document_json, score_json

_NUMBER, _TEXT = "\x00number", "\x00text"
_SLOT = re.compile(r'("\\u0000number"|"\\u0000text")')

Documents = Sequence[tuple[str, dict[str, AnyScore]]]
Numbers = list[float] | np.ndarray
"""A place's numbers over the documents: a list of Python numbers, or a float64 or int64 array."""


def document_entries(documents: Documents, depth: int, separator: str) -> Iterator[str] | None:
    """Every document's entry, `dumps({"document": name, "metrics": {metric: score_json(score)}},
    depth)`, joined by `separator`, in pieces of a block of documents each (their concatenation
    is `separator.join(entries)`); None when the documents do not share one shape (the same
    metrics, of the same kinds), for the caller's ordinary writing.  Documents held as columns
    (`DocumentScores`, what scoring gives) are read column by column, without a score object per
    document."""
    if not documents:
        return None
    columns = _columns(documents)
    if columns is None:
        return None
    first = documents[0][1]
    numbers: list[Numbers] = []
    names = documents.names if isinstance(documents, DocumentScores) else [name for name, _ in documents]
    # a name as `dumps` writes a string (its own C function), without a walk per document
    texts: list[list[str]] = [list(map(json_string, names)) if all(type(name) is str for name in names)
                              else list(map(dumps, names))]
    by_number: set[str] = set()
    sizes: list[int] = []  # each metric's places, in the order the template has them
    for name, column in columns.items():
        found = _numbers(column)
        if found is None:
            texts.append([dumps(score_json(score), depth + 2) for score in column.rows()])
            sizes.append(1)
        else:
            numbers.extend(found)
            by_number.add(name)
            sizes.append(len(found))
    template = _template(first, depth, by_number, len(numbers))
    if template is None:
        return None
    return _entries(separator, template, numbers=numbers, texts=texts, sizes=sizes)


def _columns(documents: Documents) -> dict[str, Column] | None:
    """The documents' scores, one column per metric; None when they do not share one shape."""
    if isinstance(documents, DocumentScores):
        return documents.columns
    first = documents[0][1]
    names, kinds = list(first), [type(score) for score in first.values()]
    if any(list(scores) != names or list(map(type, scores.values())) != kinds for _, scores in documents):
        return None
    return {name: Column.of([scores[name] for _, scores in documents]) for name in names}


def _entries(separator: str, template: tuple[list[str], list[int]], *, numbers: list[Numbers],
             texts: list[list[str]], sizes: Sequence[int]) -> Iterator[str]:
    """The documents' entries joined by `separator`, a block of documents at a time.  An entry is
    the template's first piece, the document's name (the template's first place: "document"
    comes first) and the rest: the other pieces with its numbers and texts between them.

    Why this way: 20,000 tiny documents have 3 million numbers to write but a few thousand
    distinct rests, and each metric's numbers far fewer distinct rows still.  So each place's
    values are told apart by their bits over all documents at once (`_place`), the places of
    each metric (`sizes`: how many places each metric has, in order) are grouped into its
    distinct rows, and each distinct row of a metric is written once, its numbers as JSON writes
    them (each distinct number written once); a document's rest is its metrics' texts joined,
    each distinct rest once.  Only the joining of the entries goes a block at a time (the text is
    as large as the report)."""
    pieces, order = template
    slots: list[list[float] | list[str]] = [texts[0], *numbers, *texts[1:]]
    numeric = [False] + [True] * len(numbers) + [False] * (len(texts) - 1)
    names = slots[order[0]]
    count = len(names)
    if sum(sizes) != len(order) - 1:
        sizes = [len(order) - 1]
    places = [_place(slots[slot], numeric[slot]) for slot in order[1:]]
    group_codes, group_texts = [], []
    start = 0
    for size in sizes:
        if not size:
            continue
        group = places[start:start + size]
        # this metric's text: each of its numbers and the piece after it
        shape = (_escaped(pieces[1]) if start == 0 else "") + "".join(
            "{}" + _escaped(piece) for piece in pieces[start + 2:start + size + 2])
        codes, first = _rows([identity for identity, _ in group])
        group_codes.append(codes)
        group_texts.append(list(map(shape.format, *(write(identity[first].tolist()) for identity, write in group))))
        start += size
    if not group_codes:
        rest_of, rests = np.zeros(count, dtype=np.intp), [pieces[1]]
    elif len(group_codes) == 1:
        rest_of, rests = group_codes[0], group_texts[0]
    else:
        rest_of, first = _rows([codes.astype(np.uint64) for codes in group_codes])
        rests = list(map("".join, zip(*(map(written.__getitem__, codes[first].tolist())
                                        for codes, written in zip(group_codes, group_texts)))))
    rest_of = rest_of.tolist()
    longest = len(separator) + len(pieces[0]) + max(map(len, names)) + max(map(len, rests))
    block = max(1, _BLOCK_CHARS // longest)
    for start in range(0, count, block):
        end = min(start + block, count)
        flat: list[str] = [separator, pieces[0], "", ""] * (end - start)
        if start == 0:
            flat[0] = ""
        flat[2::4] = names[start:end]
        flat[3::4] = map(rests.__getitem__, rest_of[start:end])
        yield "".join(flat)


Writer = Callable[[list[int]], list[str]]
"""The texts of a place's values given by their identities (`_place`)."""


def _place(values: Sequence[float | None] | np.ndarray | Sequence[str], numeric: bool) -> tuple[np.ndarray, Writer]:
    """(each document's identity of its value at one place, as uint64: equal where the value is
    written alike; how to write values given by their identities).  A number is written as JSON
    writes it (`json_text.dumps`), a text is itself.  Floats are told apart by their bits (so
    -0.0 is not 0.0), ints by their value; numbers of another kind (mixed, None for an undefined
    value, ints beyond 64 bits) by their `repr`; texts by themselves."""
    if numeric:
        if isinstance(values, np.ndarray) and values.dtype not in (np.float64, np.int64):
            values = values.tolist()
        if isinstance(values, np.ndarray):  # float64 or int64 (`Column`'s arrays): no kinds to tell
            return np.ascontiguousarray(values).view(np.uint64), _number_writer(values.dtype.type)
        kinds = set(map(type, values))
        try:
            if kinds == {float}:
                return np.frombuffer(array("d", values), dtype=np.uint64), _number_writer(np.float64)
            if kinds == {int}:
                return np.frombuffer(array("q", values), dtype=np.uint64), _number_writer(np.int64)
        except OverflowError:
            pass
        keys = list(map(repr, values))
        index: dict[str, int] = {}
        codes = [index.setdefault(key, len(index)) for key in keys]
        value_of = dict(zip(keys, values))  # values of one repr are written alike
        written = [dumps(value_of[key]) for key in index]
    else:
        index = {}
        codes = [index.setdefault(text, len(index)) for text in values]
        written = list(index)
    return np.array(codes, dtype=np.uint64), lambda identities: list(map(written.__getitem__, identities))


def _number_writer(kind: type) -> Writer:
    """Numbers of `kind` (float64 or int64) given by their bits, written as JSON writes them,
    each distinct one once."""
    known: dict[int, str] = {}

    def write(identities: list[int]) -> list[str]:
        new = [bits for bits in set(identities) if bits not in known]
        if new:
            known.update(zip(new, map(dumps, np.array(new, dtype=np.uint64).view(kind).tolist())))
        return list(map(known.__getitem__, identities))

    return write


def _rows(identities: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(each document's row among the distinct rows of these places, one document of each row),
    a row being a document's identities at every place: rows hashed, the hash's groups checked
    place by place, and told apart exactly by their bytes if two rows ever share a hash."""
    if len(identities) == 1:
        distinct, codes = _distinct(identities[0])
        return codes, _one_of_each(codes, len(distinct))
    hashed = np.zeros(len(identities[0]), dtype=np.uint64)
    for identity in identities:
        hashed = (hashed ^ identity) * _MIX
        hashed ^= hashed >> np.uint64(29)
    distinct, codes = _distinct(hashed)
    first = _one_of_each(codes, len(distinct))
    same = first[codes]
    if all((identity[same] == identity).all() for identity in identities):
        return codes, first
    width, blob = len(identities) * 8, np.stack(identities, axis=1).tobytes()
    known: dict[bytes, int] = {}
    codes = np.array([known.setdefault(blob[i * width:(i + 1) * width], len(known))
                      for i in range(len(identities[0]))], dtype=np.intp)
    return codes, _one_of_each(codes, len(known))


def _one_of_each(codes: np.ndarray, distinct: int) -> np.ndarray:
    """For each code 0 .. distinct - 1, the index of a document with it."""
    first = np.zeros(distinct, dtype=np.intp)
    first[codes] = np.arange(len(codes), dtype=np.intp)
    return first


def _escaped(piece: str) -> str:
    """A fixed piece as `str.format` reads it literally."""
    return piece.replace("{", "{{").replace("}", "}}")


_BLOCK_CHARS = 1 << 16
"""Most characters of the entries joined into one piece.  Why small: a piece (and its encoded
bytes) past the allocator's threshold for mapping fresh pages (128 KiB) is given new pages each
time, and touching them cost more than writing the text: 20,000 tiny documents' 72 MB written
in pieces of 2,048 entries (7 MB) took 80 ms more than in pieces of 64 KiB."""


_MIX = np.uint64(0x9E3779B97F4A7C15)
"""Fibonacci hashing: a number's bits times the golden ratio's; the top bits give its place."""


def _coded(values: Sequence[float | None] | np.ndarray | Sequence[str], numeric: bool) -> tuple[list[str], np.ndarray]:
    """(each distinct value's text, each value's index among them): a number's text is how JSON
    writes it (`json_text.dumps`), a text is itself.

    Why: a report of 20,000 documents writes 3 million numbers, and writing each took most of its
    writing; a column holds few distinct numbers (small counts, their ratios).  Floats are told
    apart by their bits (so -0.0 is not 0.0), ints by their value; numbers of another kind (mixed,
    None for an undefined value, ints beyond 64 bits) by their `repr`."""
    if numeric:
        if isinstance(values, np.ndarray) and values.dtype not in (np.float64, np.int64):
            values = values.tolist()
        if isinstance(values, np.ndarray):  # float64 or int64 (`Column`'s arrays): no kinds to tell
            as_number = values.dtype.type
            distinct, inverse = _distinct(np.ascontiguousarray(values, dtype=as_number).view(np.uint64))
            return list(map(dumps, distinct.view(as_number).tolist())), inverse
        kinds = set(map(type, values))
        bits = None
        try:
            if kinds == {float}:
                bits, as_number = np.frombuffer(array("d", values), dtype=np.uint64), np.float64
            elif kinds == {int}:
                bits, as_number = np.frombuffer(array("q", values), dtype=np.uint64), np.int64
        except OverflowError:
            bits = None
        if bits is not None:
            distinct, inverse = _distinct(bits)
            return list(map(dumps, distinct.view(as_number).tolist())), inverse
        keys = list(map(repr, values))
        index: dict[str, int] = {}
        codes = [index.setdefault(key, len(index)) for key in keys]
        value_of = dict(zip(keys, values))  # values of one repr are written alike
        return [dumps(value_of[key]) for key in index], np.array(codes, dtype=np.intp)
    index = {}
    codes = [index.setdefault(text, len(index)) for text in values]
    return list(index), np.array(codes, dtype=np.intp)


def _distinct(bits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the distinct values, each value's index among them), without sorting: each value hashed
    to a place of a table four times as large as the values are many, the last value written to a
    place kept there; values whose place holds another (rare) are sorted (`np.unique`) apart."""
    size_bits = max(4, min(20, int(len(bits)).bit_length() + 2))
    place = ((bits * _MIX) >> np.uint64(64 - size_bits)).astype(np.intp)
    table = np.zeros(1 << size_bits, dtype=np.uint64)
    table[place] = bits
    found = table[place] == bits
    index = np.full(1 << size_bits, -1, dtype=np.intp)
    index[place[found]] = 0
    places = np.flatnonzero(index == 0)
    index[places] = np.arange(len(places))
    inverse = index[place]
    distinct = table[places]
    if not found.all():
        others, others_inverse = np.unique(bits[~found], return_inverse=True)
        inverse[~found] = others_inverse + len(places)
        distinct = np.concatenate([distinct, others])
    return distinct, inverse


def _numbers(column: Column) -> list[Numbers] | None:
    """The numbers of `score_json` of each score of one metric, column by column, in the order
    `score_json` writes them; None for a column written whole by the ordinary writer."""
    kind, fields = column.kind, column.fields
    if column.objects is not None:
        return None
    if kind is Score or kind is AnchorScore:
        values = column.computed_arrays()  # None unless every number is finite
        return None if values is None else [*values, *_fields(column)]
    if kind is BlancScore:
        values = column.computed_arrays()
        parts = [_numbers(Column(Score, fields[:4])), _numbers(Column(Score, fields[4:]))]
        if values is None or parts[0] is None or parts[1] is None:
            return None
        return [*values, *parts[0], *parts[1]]
    if kind is MeanScore:
        return fields if all(floats(values) for values in fields) else None
    if kind is AceScore:
        return _ace_numbers(fields)
    return None


def _fields(column: Column) -> list[Numbers]:
    """A column's fields, each as its `Column.field_array` where it has one (its numbers' kinds
    told once), else as it is."""
    return [column.fields[i] if found is None else found
            for i, found in enumerate(map(column.field_array, range(len(column.fields))))]


def _ace_numbers(fields: list[Numbers]) -> list[Numbers] | None:
    """`AceScore.to_json`'s numbers in its order, each computed as its properties compute it (an
    undefined value is None, written null)."""
    if not all(plain(values) for values in fields):
        return None
    (numerator, denominator, miss_cost, mapped_cost, false_alarm_cost, mapped_value, mapped_key_value,
     key_entities, response_entities, mapped) = fields
    as_array = [np.asarray(values, dtype=np.float64) for values in (numerator, denominator, mapped_value,
                                                                     mapped_key_value, false_alarm_cost)]
    if any(np.abs(values).max() >= 2.0 ** 53 or not np.isfinite(values).all() for values in as_array):
        return None
    num, den, found, found_key, false_alarm = as_array
    credited = np.where(0.0 > found, 0.0, found)  # max(C, 0.0) as Python's max takes it
    with np.errstate(all="ignore"):
        recall = ratio(credited, den)
        precision = ratio(credited, found_key + false_alarm)
        # n / d of numbers exact as floats (below 2**53) is the float division, ints' or floats'
        value: Numbers = np.divide(num, den, out=np.ones(len(den)), where=den != 0)
    if (undefined := (den == 0) & (num != 0)).any():  # None, written null
        value = value.tolist()
        for index in np.flatnonzero(undefined).tolist():
            value[index] = None
    return [value, numerator, denominator, _difference(key_entities, mapped), miss_cost,
            _difference(response_entities, mapped), false_alarm_cost, mapped, mapped_cost, mapped_value, recall,
            precision]


def _difference(minuend: Numbers, subtrahend: Numbers) -> Numbers:
    """Each document's `minuend - subtrahend`, as Python subtracts its numbers (two int64 arrays
    of counts at once)."""
    if isinstance(minuend, np.ndarray) and isinstance(subtrahend, np.ndarray) and minuend.dtype == np.int64 \
            and subtrahend.dtype == np.int64 and len(minuend) and max(np.abs(minuend).max(), np.abs(subtrahend).max()) < 2 ** 62:
        return minuend - subtrahend
    return [k - m for k, m in zip(as_list(minuend), as_list(subtrahend))]


def _template(scores: dict[str, AnyScore], depth: int, by_number: set[str],
              n_numbers: int) -> tuple[list[str], list[int]] | None:
    """A document's entry as its fixed pieces, between which go in turn its numbers (as
    `_coded` writes them) and texts (the document's name, then each score of a metric not
    in `by_number`, written whole), with what fills each place in turn, as an index into [name,
    numbers..., texts...]; None if the numbers' places are not as many as the numbers."""
    skeleton = document_json(_TEXT, scores)  # the one shape of an entry, its values made slots
    skeleton["metrics"] = {m: _blank(value) if m in by_number else _TEXT for m, value in skeleton["metrics"].items()}
    pieces = _SLOT.split(dumps(skeleton, depth))
    out, order, number, text = [], [], 1, 0
    for i, piece in enumerate(pieces):
        if i % 2 == 0:
            out.append(piece)
        elif piece == '"\\u0000number"':
            order.append(number)
            number += 1
        else:
            order.append(n_numbers + text if text else 0)  # text 0 is the name
            text += 1
    return (out, order) if number == 1 + n_numbers else None


def _blank(value: object) -> object:
    """A score's JSON with each number replaced by the number slot."""
    if isinstance(value, dict):
        return {key: _blank(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_blank(item) for item in value]
    return _NUMBER

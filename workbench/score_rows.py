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
from collections.abc import Iterator, Sequence
from json.encoder import encode_basestring_ascii as json_string

import numpy as np

from metrics.measures.ace import AceScore
from metrics.measures.columns import Column, DocumentScores
from metrics.measures.score import AnchorScore, AnyScore, BlancScore, MeanScore, Score, ratio

from .json_text import dumps
from .output import score_json

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
    for name, column in columns.items():
        found = _numbers(column)
        if found is None:
            texts.append([dumps(score_json(score), depth + 2) for score in column.rows()])
        else:
            numbers.extend(found)
            by_number.add(name)
    template = _template(first, depth, by_number, len(numbers))
    if template is None:
        return None
    return _entries(separator, template, numbers=numbers, texts=texts)


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
             texts: list[list[str]]) -> Iterator[str]:
    """The documents' entries joined by `separator`, a block of documents at a time.  An entry is
    the template's first piece, the document's name (the template's first place: "document"
    comes first) and the rest: the other pieces with its numbers and texts between them.  Many
    documents share their rest (20,000 tiny documents have a few thousand distinct rows of
    numbers), so each place's values are coded over all documents at once (`_coded`: each
    distinct value written once, as JSON writes it), a document's rest is known by its row of
    codes, and each distinct rest is written once, by one format of the pieces; only the
    joining of the entries goes a block at a time (the text is as large as the report)."""
    pieces, order = template
    slots: list[list[float] | list[str]] = [texts[0], *numbers, *texts[1:]]
    numeric = [False] + [True] * len(numbers) + [False] * (len(texts) - 1)
    names = slots[order[0]]
    count = len(names)
    rest_format = _escaped(pieces[1]) + "".join("{}" + _escaped(piece) for piece in pieces[2:])
    if len(order) > 1:
        rows = np.empty((count, len(order) - 1), dtype=np.int32)
        texts_of: list[list[str]] = []  # each place's distinct values written
        for place, slot in enumerate(order[1:]):
            written, rows[:, place] = _coded(slots[slot], numeric[slot])
            texts_of.append(written)
        width, blob = rows.shape[1] * 4, rows.tobytes()
        known: dict[bytes, int] = {}
        rest_of = [known.setdefault(blob[i * width:(i + 1) * width], len(known)) for i in range(count)]
        firsts = rows[_first_of(rest_of, len(known))]
        values = [list(map(written.__getitem__, firsts[:, place].tolist())) for place, written in enumerate(texts_of)]
        rests = list(map(rest_format.format, *values))
    else:
        rest_of, rests = [0] * count, [rest_format.format()]
    for start in range(0, count, _BLOCK):
        end = min(start + _BLOCK, count)
        flat: list[str] = [separator, pieces[0], "", ""] * (end - start)
        if start == 0:
            flat[0] = ""
        flat[2::4] = names[start:end]
        flat[3::4] = map(rests.__getitem__, rest_of[start:end])
        yield "".join(flat)


def _first_of(codes: list[int], distinct: int) -> list[int]:
    """For each code 0 .. distinct - 1 (codes numbered in order of first appearance), the index
    of its first appearance."""
    first = [0] * distinct
    seen = -1
    for index, code in enumerate(codes):
        if code > seen:
            first[code] = index
            seen = code
    return first


def _escaped(piece: str) -> str:
    """A fixed piece as `str.format` reads it literally."""
    return piece.replace("{", "{{").replace("}", "}}")


_BLOCK = 2048
"""Documents whose entries are joined together: a block's text (some 7 MB for tiny documents'
entries) small beside the scores themselves (8,192 took 75 MB more at the peak
on 20,000 tiny documents, for no less time)."""


_MIX = np.uint64(0x9E3779B97F4A7C15)
"""Fibonacci hashing: a number's bits times the golden ratio's; the top bits give its place."""


def number_texts(values: Sequence[float | None]) -> list[str]:
    """Each number as JSON writes it (`json_text.dumps`: a finite float's or an int's `repr`,
    NaN, Infinity, null for None), each distinct number's written once (`_coded`)."""
    written, codes = _coded(values, numeric=True)
    return [written[code] for code in codes.tolist()]


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
        return fields if all(set(map(type, values)) <= {float} for values in fields) else None
    if kind is AceScore:
        return _ace_numbers(fields)
    return None


def _fields(column: Column) -> list[Numbers]:
    """A column's fields, each as its `Column.field_array` where it has one (its numbers' kinds
    told once), else as it is."""
    return [column.fields[i] if found is None else found
            for i, found in enumerate(map(column.field_array, range(len(column.fields))))]


def _ace_numbers(fields: list[list[float]]) -> list[list[float]] | None:
    """`AceScore.to_json`'s numbers in its order, each computed as its properties compute it (an
    undefined value is None, written null)."""
    if not all(set(map(type, values)) <= {float, int} for values in fields):
        return None
    (numerator, denominator, miss_cost, mapped_cost, false_alarm_cost, mapped_value, mapped_key_value,
     key_entities, response_entities, mapped) = fields
    as_array = [np.array(values, dtype=np.float64) for values in (numerator, denominator, mapped_value,
                                                                   mapped_key_value, false_alarm_cost)]
    if any(np.abs(values).max() >= 2.0 ** 53 or not np.isfinite(values).all() for values in as_array):
        return None
    num, den, found, found_key, false_alarm = as_array
    credited = np.where(0.0 > found, 0.0, found)  # max(C, 0.0) as Python's max takes it
    with np.errstate(all="ignore"):
        value = [n / d if d else (1.0 if n == 0 else None) for n, d in zip(numerator, denominator)]
        recall = ratio(credited, den)
        precision = ratio(credited, found_key + false_alarm)
    return [value, numerator, denominator,
            [k - m for k, m in zip(key_entities, mapped)], miss_cost,
            [r - m for r, m in zip(response_entities, mapped)], false_alarm_cost,
            mapped, mapped_cost, mapped_value, recall.tolist(), precision.tolist()]


def _template(scores: dict[str, AnyScore], depth: int, by_number: set[str],
              n_numbers: int) -> tuple[list[str], list[int]] | None:
    """A document's entry as its fixed pieces, between which go in turn its numbers (as
    `number_texts` writes them) and texts (the document's name, then each score of a metric not
    in `by_number`, written whole), with what fills each place in turn, as an index into [name,
    numbers..., texts...]; None if the numbers' places are not as many as the numbers."""
    skeleton = {"document": _TEXT, "metrics": {m: _blank(score_json(s)) if m in by_number else _TEXT
                                               for m, s in scores.items()}}
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

"""Many documents' scores of one metric as columns of numbers, not one object per document.

Why: 20,000 tiny documents scored under every metric were 400,000 score objects, each made,
kept, summed (the micro-average), asked its recall, precision and F1 (the macro-average) and
taken apart again for the JSON report, which cost more than computing the scores.  A `Column`
holds a metric's scores of many documents field by field (a `Score`'s four counts, a
`BlancScore`'s eight, an `AceScore`'s ten...), each field the Python numbers the score objects
would hold: a list of them, or, as the batched metrics compute them, a float64 array standing for
Python floats or an int64 array standing for Python ints (`Field`: nothing per document is made
of numbers that stay numbers, and a process's columns pickle as their bytes), so:
- `total` is each field summed in document order, as `score.total` adds the objects (a left fold);
- `values` are recall, precision and F1 of every document, computed as the objects' properties
  compute them (the same IEEE operations, elementwise), for the macro-average and the report;
- `row` makes one document's score object when someone asks for it (the workbench, a test).
A metric whose documents' scores are of several kinds keeps them as objects (`objects`).

`DocumentScores` is a corpus result's documents over such columns: a sequence of (name,
{metric: score}) as before, each entry made when it is read.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from dataclasses import fields as dataclass_fields
from functools import reduce
from operator import add, itemgetter

import numpy as np

from metrics.measures.ace import AceScore
from metrics.measures.score import (AnchorScore, AnyScore, BlancScore, MeanScore, Score, blanc_values, counts_values,
                                   harmonic, mean, ratio)
from metrics.runtime.ondemand import OnDemand

Numbers = list[float]
Values = np.ndarray | Numbers
"""A column of numbers: float64 values computed by numpy at once, or a list of Python numbers."""
Field = np.ndarray | Numbers
"""One field of a column over its documents: a list of Python numbers, or a float64 array (each
number a Python float) or an int64 array (each a Python int).  Read one number with `_at`, all of
them as Python numbers with `as_list`."""

_ACE_NAMES = tuple(f.name for f in dataclass_fields(AceScore))
_WIDTH: dict[type, int] = {Score: 4, BlancScore: 8, AnchorScore: 8, MeanScore: 3, AceScore: len(_ACE_NAMES)}
"""How many numbers each kind of score is made of."""


def flat(score: AnyScore) -> list[float]:
    """A score's numbers, in the order `build` takes them."""
    if isinstance(score, Score):
        return [score.recall_num, score.recall_den, score.precision_num, score.precision_den]
    if isinstance(score, BlancScore):
        return flat(score.coref) + flat(score.noncoref)
    if isinstance(score, AnchorScore):
        return flat(score.ed) + flat(score.em)
    if isinstance(score, MeanScore):
        return [score.recall, score.precision, score.f1]
    return [getattr(score, name) for name in _ACE_NAMES]


def build(kind: type, numbers: Sequence[float]) -> AnyScore:
    """The score of `kind` made of `numbers` (`flat`'s order)."""
    if kind is Score or kind is MeanScore:
        return kind(*numbers)
    if kind is BlancScore or kind is AnchorScore:
        return kind(Score(*numbers[:4]), Score(*numbers[4:]))
    return kind(*numbers)


class Column:
    """One metric's scores of many documents: field by field (`kind`, `fields`), or, when they
    are not all of one kind, as objects."""

    def __init__(self, kind: type | None, fields: Sequence[Field] | None = None,
                 objects: list[AnyScore] | None = None, missing: Sequence[int] = ()) -> None:
        self.kind = kind
        fields = [_field(field) for field in fields] if fields is not None else []
        # a field given twice (CEAF's common count is its recall's and its precision's numerator)
        # becomes two, so that filling a row of one leaves the other alone
        self.fields: list[Field] = [_copied(field) if any(field is earlier for earlier in fields[:i]) else field
                                    for i, field in enumerate(fields)]
        self.objects = objects
        self.missing = list(missing)
        """Rows not computed here (`metrics.measures.batch` leaves some documents to their own
        computation): their numbers mean nothing until `fill` gives them."""
        self._found: tuple[tuple[Values, Values, Values] | None] | None = None
        """`computed_arrays`, once computed (in a tuple: None is a computed answer)."""
        self._arrays: dict[int, np.ndarray | None] = {}
        """`field_array` of each field asked for, once made."""

    def fill(self, scores: Sequence[AnyScore]) -> None:
        """Give the `missing` rows their scores, in the order of `missing` (one score each: a row
        left unfilled would read as a score of zeros)."""
        if len(scores) != len(self.missing):
            raise ValueError(f"{len(scores)} scores for {len(self.missing)} missing rows")
        missing, self.missing = self.missing, []
        self._found, self._arrays = None, {}
        if self.objects is None and all(type(score) is self.kind for score in scores):
            numbers = list(zip(*map(flat, scores))) if scores else [() for _ in self.fields]
            for index, (field, given) in enumerate(zip(self.fields, numbers)):
                if isinstance(field, np.ndarray) and _holds(field, given):
                    field[missing] = given
                    continue
                field = self.fields[index] = as_list(field)  # a number the array cannot stand for
                for row, number in zip(missing, given):
                    field[row] = number
            return
        rows = self.rows()
        for row, score in zip(missing, scores):
            rows[row] = score
        filled = Column.of(rows)
        self.kind, self.fields, self.objects = filled.kind, filled.fields, filled.objects

    def scores(self) -> list[AnyScore | None]:
        """Each row's score, None for a `missing` one."""
        rows: list[AnyScore | None] = list(self.rows())
        for row in self.missing:
            rows[row] = None
        return rows

    @classmethod
    def of(cls, scores: Sequence[AnyScore]) -> Column:
        """The column of these scores (objects kept as such when of several kinds)."""
        kinds = set(map(type, scores))
        if len(kinds) != 1 or next(iter(kinds)) not in _WIDTH:
            return cls(None, objects=list(scores))
        kind = kinds.pop()
        rows = list(map(flat, scores))
        return cls(kind, [list(field) for field in zip(*rows)] if rows else [[] for _ in range(_WIDTH[kind])])

    @classmethod
    def joined(cls, columns: Sequence[Column]) -> Column:
        """The columns of consecutive groups of documents, as one."""
        kinds = {column.kind for column in columns}
        if len(kinds) == 1 and None not in kinds:
            kind = kinds.pop()
            return cls(kind, [_joined_field(parts) for parts in zip(*(c.fields for c in columns))])
        return cls.of([score for column in columns for score in column.rows()])

    def __len__(self) -> int:
        if self.objects is not None:
            return len(self.objects)
        return len(self.fields[0])

    def row(self, index: int) -> AnyScore:
        """One document's score object."""
        if self.objects is not None:
            return self.objects[index]
        assert self.kind is not None
        return build(self.kind, [_at(field, index) for field in self.fields])

    def rows(self) -> list[AnyScore]:
        if self.objects is not None:
            return list(self.objects)
        assert self.kind is not None
        kind = self.kind
        return [build(kind, numbers) for numbers in zip(*map(as_list, self.fields))]

    def taken(self, indices: Sequence[int]) -> Column:
        """The column of these documents (in this order)."""
        if self.objects is not None:
            return Column(None, objects=[self.objects[i] for i in indices])
        at = np.asarray(indices, dtype=np.intp)
        if len(indices) < 2:
            return Column(self.kind, [field[at] if isinstance(field, np.ndarray) else [field[i] for i in indices]
                                      for field in self.fields])
        take = itemgetter(*indices)
        return Column(self.kind, [field[at] if isinstance(field, np.ndarray) else list(take(field))
                                  for field in self.fields])

    def total(self) -> AnyScore | None:
        """The documents' scores added in order (`score.total`: each count a left fold of `+`);
        None for no document."""
        if not len(self):
            return None
        if self.objects is not None or self.kind is MeanScore:
            from metrics.measures.score import total

            return total(self.rows())
        assert self.kind is not None
        return build(self.kind, [self._summed(index) for index in range(len(self.fields))])

    def _summed(self, index: int) -> float:
        """Field `index` summed as `reduce(add, field)` sums it: a field of floats by numpy's
        running sum (one addition after another in order, as the fold: not `sum`'s pairwise
        one), a field of ints by numpy when no partial sum can leave 64 bits."""
        found = self.field_array(index)
        if found is not None and found.dtype == np.float64:
            with np.errstate(all="ignore"):  # an overflow or NaN is the fold's too, without a warning
                return float(np.add.accumulate(found)[-1])
        if found is not None and max(int(found.max()), -int(found.min())) < 2 ** 62 // len(found):
            return int(found.sum())
        return reduce(add, as_list(self.fields[index]))

    def values(self) -> tuple[Numbers, Numbers, Numbers]:
        """Each document's recall, precision and F1, as its score's properties give them."""
        found = self.computed_values()
        if found is None:
            rows = self.rows()
            return [s.recall for s in rows], [s.precision for s in rows], [s.f1 for s in rows]
        return found

    def computed_values(self) -> tuple[Numbers, Numbers, Numbers] | None:
        """`values` computed for all documents at once; None where that cannot be done to the bit
        (counts that are not plain numbers exact as floats, or not finite; a column of objects)."""
        found = self.computed_arrays()
        return None if found is None else _as_lists(found)

    def computed_arrays(self) -> tuple[Values, Values, Values] | None:
        """`computed_values` as they are computed, once (the macro-average and the report both
        read them): float64 arrays where numpy computes them (the JSON report reads their bits;
        a list of Python floats held for each would take four times the memory), lists otherwise."""
        if self._found is None:
            self._found = (self._computed_arrays(),)
        return self._found[0]

    def field_array(self, index: int) -> np.ndarray | None:
        """Field `index`'s numbers as one array, made once: float64 when every one is a float,
        int64 when every one is an int of 64 bits, else (mixed kinds, other kinds, no document)
        None.  Why: the values and the JSON report both read a field whole, and telling its
        numbers' kinds and copying them cost as much as their arithmetic."""
        field = self.fields[index]
        if isinstance(field, np.ndarray):
            return field
        if index not in self._arrays:
            self._arrays[index] = _typed_array(field)
        return self._arrays[index]

    def _plain(self, start: int, stop: int) -> list[np.ndarray | Numbers]:
        """Fields start .. stop - 1, each as its `field_array` where it has one, else as it is."""
        out: list[np.ndarray | Numbers] = []
        for index in range(start, stop):
            found = self.field_array(index)
            out.append(self.fields[index] if found is None else found)
        return out

    def _computed_arrays(self) -> tuple[Values, Values, Values] | None:
        kind = self.kind
        if self.objects is not None:
            return None
        if kind is MeanScore:
            return self.fields[0], self.fields[1], self.fields[2]
        if kind is Score:
            return counts_values(self._plain(0, 4))
        if kind is BlancScore:
            return blanc_values(self._plain(0, 8))
        if kind is AnchorScore:
            ed, em = counts_values(self._plain(0, 4)), counts_values(self._plain(4, 8))
            if ed is None or em is None:
                return None
            with np.errstate(all="ignore"):
                recall, precision, f1 = (np.asarray(harmonic(a, b)) for a, b in zip(ed, em))
            return recall, precision, f1
        if kind is AceScore:
            return _ace_values(self.fields)
        return None

    def mean(self) -> MeanScore:
        """The macro-average: the plain mean of the documents' recall, precision and F1
        (`score.mean_score`)."""
        recall, precision, f1 = self.values()
        return MeanScore(mean(recall), mean(precision), mean(f1))


def _as_lists(found: tuple[Values, Values, Values]) -> tuple[Numbers, Numbers, Numbers]:
    recall, precision, f1 = (values.tolist() if isinstance(values, np.ndarray) else values for values in found)
    return recall, precision, f1


def as_list(field: Field) -> Numbers:
    """A field's numbers as a list of Python numbers (the list itself when it is one)."""
    return field.tolist() if isinstance(field, np.ndarray) else field


def _at(field: Field, index: int) -> float:
    """One number of a field, as the Python number it stands for."""
    return field.item(index) if isinstance(field, np.ndarray) else field[index]


def _field(field: Field) -> Field:
    """A field as a column holds it: an array of another kind than float64 or int64 (a count of
    another width, booleans) as the list of its Python numbers."""
    if isinstance(field, np.ndarray) and (field.dtype != np.float64 and field.dtype != np.int64 or field.ndim != 1):
        return field.tolist()
    return field


def _copied(field: Field) -> Field:
    return field.copy() if isinstance(field, np.ndarray) else list(field)


def _holds(array: np.ndarray, numbers: Sequence[float]) -> bool:
    """Whether `array` can hold these numbers and give them back as they are: Python floats in a
    float64 array, Python ints of 64 bits in an int64 one (not a bool, nor a numpy number)."""
    if array.dtype == np.float64:
        return all(type(number) is float for number in numbers)
    return all(type(number) is int and -2 ** 63 <= number < 2 ** 63 for number in numbers)


def _joined_field(parts: Sequence[Field]) -> Field:
    """One field of consecutive groups of documents: one array where every part is an array of
    one kind, else one list."""
    if all(isinstance(part, np.ndarray) for part in parts) and len({part.dtype for part in parts}) == 1:
        return np.concatenate(parts)
    return reduce(add, map(as_list, parts), [])


def _typed_array(numbers: Numbers) -> np.ndarray | None:
    """`Column.field_array` of one field."""
    kinds = set(map(type, numbers))
    try:
        if kinds == {float}:
            return np.frombuffer(array("d", numbers), dtype=np.float64)
        if kinds == {int}:
            return np.frombuffer(array("q", numbers), dtype=np.int64)
    except OverflowError:  # an int beyond 64 bits
        return None
    return None


def _ace_values(fields: list[Field]) -> tuple[Values, Values, Values] | None:
    """`AceScore`'s recall, precision and F1 (its value, 0 where undefined), as its properties
    compute them."""
    named = dict(zip(_ACE_NAMES, fields))
    if not all(plain(field) for field in fields):
        return None
    arrays = [np.array(named[name], dtype=np.float64)
              for name in ("denominator", "mapped_value", "mapped_key_value", "false_alarm_cost")]
    if any(len(values) and (np.abs(values).max() >= 2.0 ** 53 or not np.isfinite(values).all()) for values in arrays):
        return None
    den, found, found_key, false_alarm = arrays
    credited = np.where(0.0 > found, 0.0, found)  # max(C, 0.0) as Python's max takes it
    with np.errstate(all="ignore"):
        recall, precision = ratio(credited, den), ratio(credited, found_key + false_alarm)
    f1 = [n / d if d else (1.0 if n == 0 else 0.0) for n, d in zip(as_list(named["numerator"]),
                                                                       as_list(named["denominator"]))]
    return recall, precision, f1


def plain(field: Field) -> bool:
    """Whether a field holds only Python ints and floats (an array always does)."""
    return isinstance(field, np.ndarray) or set(map(type, field)) <= {float, int}


def floats(field: Field) -> bool:
    """Whether a field holds only Python floats (a float64 array stands for them)."""
    if isinstance(field, np.ndarray):
        return field.dtype == np.float64
    return set(map(type, field)) <= {float}


Entry = tuple[str, dict[str, AnyScore]]


class DocumentScores(OnDemand[Entry]):
    """A corpus result's documents, (name, {metric: score}) in order, held as one `Column` per
    metric; each entry is made when read."""

    def __init__(self, names: list[str], columns: dict[str, Column]) -> None:
        self.names = names
        self.columns = columns

    def __len__(self) -> int:
        return len(self.names)

    def _at(self, index: int) -> Entry:
        return self.names[index], {name: column.row(index) for name, column in self.columns.items()}

    def __iter__(self) -> Iterator[Entry]:
        rows = [column.rows() for column in self.columns.values()]
        metrics = list(self.columns)
        for name, scores in zip(self.names, zip(*rows) if rows else ((),) * len(self.names)):
            yield name, dict(zip(metrics, scores))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return repr(list(self))  # as the list of entries it stands for

    def __add__(self, other: Sequence[Entry]) -> list[Entry]:
        return list(self) + list(other)

    def __radd__(self, other: Sequence[Entry]) -> list[Entry]:
        return list(other) + list(self)

    def only(self, metrics: Sequence[str]) -> DocumentScores:
        """These documents with the columns of `metrics` alone."""
        return DocumentScores(self.names, {name: column for name, column in self.columns.items() if name in metrics})

"""Every document's entry of a JSON score report, written column by column.

Why: a corpus of 20,000 documents writes 400,000 scores, and taking each score's recall,
precision and F1 from its properties, building its dict and walking it cost more than scoring
them.  Here each metric's values are computed for all documents at once (`values_of`, `counts_of`:
the same operations as the properties, elementwise), each document's numbers become text in one
`repr` of a list (the same `float.__repr__` and `int.__repr__` as `json.dumps`), and one template,
made once from the first document by the ordinary writer, places them.  A document whose entry
could differ (a number that is not finite, which JSON writes its own way) and a report whose
documents do not share one shape go through the ordinary writer (`json_text.dumps`); the bytes
are the same either way (tests/test_score_rows.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from operator import attrgetter
from typing import cast

import numpy as np

from metrics.measures.ace import AceScore
from metrics.measures.score import AnyScore, BlancScore, MeanScore, Score, counts_of, harmonic, ratio, values_of
from metrics.measures.tuggener import AnchorScore

from .json_text import dumps
from .output import score_json

_NUMBER, _TEXT = "\x00number", "\x00text"
_SLOT = re.compile(r'("\\u0000number"|"\\u0000text")')

Documents = Sequence[tuple[str, dict[str, AnyScore]]]


def document_entries(documents: Documents, depth: int) -> Iterator[str] | None:
    """Each document's entry, `dumps({"document": name, "metrics": {metric: score_json(score)}},
    depth)`, or None when the documents do not share one shape (the same metrics, of the same
    kinds), for the caller's ordinary writing."""
    if not documents:
        return None
    first = documents[0][1]
    names, kinds = list(first), [type(score) for score in first.values()]
    if any(list(scores) != names or list(map(type, scores.values())) != kinds for _, scores in documents):
        return None
    numbers: list[list[float]] = []
    texts: list[list[str]] = [list(map(dumps, [name for name, _ in documents]))]
    by_number: set[str] = set()
    for name, kind in zip(names, kinds):
        column = [scores[name] for _, scores in documents]
        found = _numbers(column, kind)
        if found is None:
            texts.append([dumps(score_json(score), depth + 2) for score in column])
        else:
            numbers.extend(found)
            by_number.add(name)
    template = _template(first, depth, by_number, len(numbers))
    if template is None:
        return None
    return _entries(documents, depth, template, numbers, texts)


def _entries(documents: Documents, depth: int, template: str, numbers: list[list[float]],
             texts: list[list[str]]) -> Iterator[str]:
    rows = zip(*numbers) if numbers else iter([()] * len(documents))
    for (name, scores), row, text in zip(documents, rows, zip(*texts)):
        written = repr(list(row))
        if "n" in written:  # nan or inf: JSON writes NaN, Infinity (the ordinary writer knows how)
            yield dumps({"document": name, "metrics": {m: score_json(s) for m, s in scores.items()}}, depth)
            continue
        yield template.format(*(written[1:-1].split(", ") if row else ()), *text)


def _numbers(column: list[AnyScore], kind: type) -> list[list[float]] | None:
    """The numbers of `score_json` of each score of one metric, column by column, in the order
    `score_json` writes them; None for a kind written whole by the ordinary writer."""
    if kind is Score:
        scores = cast(list[Score], column)
        values, counts = values_of(scores), counts_of(scores)
        if values is None or counts is None:
            return None
        return [values[0].tolist(), values[1].tolist(), values[2].tolist(), *counts]
    if kind is BlancScore:
        values = values_of(column)
        blancs = cast(list[BlancScore], column)
        parts = [_numbers([score.coref for score in blancs], Score),
                 _numbers([score.noncoref for score in blancs], Score)]
        if values is None or parts[0] is None or parts[1] is None:
            return None
        return [values[0].tolist(), values[1].tolist(), values[2].tolist(), *parts[0], *parts[1]]
    if kind is MeanScore:
        found = [[score.recall for score in column], [score.precision for score in column],
                 [score.f1 for score in column]]
        return found if all(set(map(type, values)) <= {float} for values in found) else None
    if kind is AnchorScore:
        return _anchor_numbers(cast(list[AnchorScore], column))
    if kind is AceScore:
        return _ace_numbers(cast(list[AceScore], column))
    return None


def _anchor_numbers(column: list[AnchorScore]) -> list[list[float]] | None:
    """An F-phi's recall, precision and F (harmonic means of its two parts') and its eight counts."""
    ed, em = [score.ed for score in column], [score.em for score in column]
    ed_values, em_values, ed_counts, em_counts = values_of(ed), values_of(em), counts_of(ed), counts_of(em)
    if ed_values is None or em_values is None or ed_counts is None or em_counts is None:
        return None
    with np.errstate(all="ignore"):
        values = [harmonic(a, b) for a, b in zip(ed_values, em_values)]
    return [value.tolist() for value in values] + ed_counts + em_counts


def _ace_numbers(column: list[AceScore]) -> list[list[float]] | None:
    """`AceScore.to_json`'s numbers in its order, each computed as its properties compute it (an
    undefined value is None: the document's `repr` then holds "None" and it is written the
    ordinary way)."""
    fields = [list(map(attrgetter(name), column)) for name in _ACE_FIELDS]
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


_ACE_FIELDS = ("numerator", "denominator", "miss_cost", "mapped_cost", "false_alarm_cost", "mapped_value",
               "mapped_key_value", "key_entities", "response_entities", "mapped")


def _template(scores: dict[str, AnyScore], depth: int, by_number: set[str], n_numbers: int) -> str | None:
    """A document's entry with a `str.format` field where each number goes (fields 0 ..
    n_numbers-1, in order) and where each text goes (the document's name, then each score of a
    metric not in `by_number`, written whole), numbered after the numbers; None if the numbers'
    places are not as many as the numbers."""
    skeleton = {"document": _TEXT, "metrics": {m: _blank(score_json(s)) if m in by_number else _TEXT
                                               for m, s in scores.items()}}
    pieces = _SLOT.split(dumps(skeleton, depth))
    out, number, text = [], 0, n_numbers
    for i, piece in enumerate(pieces):
        if i % 2 == 0:
            out.append(piece.replace("{", "{{").replace("}", "}}"))
        elif piece == '"\\u0000number"':
            out.append(f"{{{number}}}")
            number += 1
        else:
            out.append(f"{{{text}}}")
            text += 1
    return "".join(out) if number == n_numbers else None


def _blank(value: object) -> object:
    """A score's JSON with each number replaced by the number slot."""
    if isinstance(value, dict):
        return {key: _blank(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_blank(item) for item in value]
    return _NUMBER

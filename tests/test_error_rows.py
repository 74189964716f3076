"""The errors written column by column (workbench/error_rows.py) against the records written one
at a time: the JSON list as `dumps` writes `error_json` of each record, the CSV as `render_csv`
writes each record's fields (`_record_csv_cells` below, the per-record code it replaced), and the
text table's cells as the per-record code made them (`_record_cells`), on generated records with
hostile words; the workbench's report (`render_report`) in CSV and Markdown against the same."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from records_road import count_by_document
from metrics.errors.chen_ng.records import CATEGORIES, ErrorColumns, ErrorRecord, counts_to_json, shown_types
from metrics.errors.mention import Mention
from metrics.model import MentionType
from workbench.error_rows import ERROR_COLUMNS, document_counts_json, error_pieces, errors_csv, render_report, \
    table_cells
from workbench.json_text import Written, dumps
from workbench.output import error_json, impact_points, impact_text, render_csv, render_markdown, shown_document

_TEXT = st.one_of(st.text(max_size=40), st.sampled_from(["%s", "%(x)d", "{0}", '"\\', "\u2028", "\x1b[31m", "é … ü",
                                                          "a,b", "line\nbreak", "\ud800"]))
_FLOAT = st.one_of(st.none(), st.floats(-1.0, 1.0), st.sampled_from([0.0, -0.0, 1e-9, 0.25, 5e-310]),
                   st.floats(-1.0, 1.0).map(np.float64))
"""A cost or an impact (a change of a fraction: impact_text writes no larger one), numpy's too (a
price of the CorefUD conventions)."""


_MENTION_TYPES = st.sampled_from(list(MentionType))


@st.composite
def mentions(draw: st.DrawFn) -> Mention:
    start = draw(st.integers(0, 10**6))
    return Mention((start, start + draw(st.integers(0, 50))), draw(_TEXT), draw(_MENTION_TYPES))


_DOCUMENTS = st.sampled_from(["d0", "(GUM_a); part 000", "é\"%"])
_CATEGORIES = st.sampled_from(CATEGORIES)
_MENTION = mentions()
_MAYBE_MENTION = st.none() | _MENTION
_MAYBE_TEXT = st.none() | _TEXT
"""The parts of a record, each strategy built once: built at each draw, each was validated again
at every draw, most of these tests' time.  The same draws either way."""


@st.composite
def records(draw: st.DrawFn) -> ErrorRecord:
    return ErrorRecord(draw(_DOCUMENTS), draw(_CATEGORIES), draw(_MENTION), draw(_MAYBE_MENTION), draw(_MAYBE_MENTION),
                       draw(_MAYBE_TEXT), draw(_MAYBE_TEXT), draw(_FLOAT), draw(_TEXT), draw(_FLOAT))


def _record_csv_cells(r: ErrorRecord, for_people: bool = False) -> list:
    """One record's cells of `ERROR_COLUMNS`, as the per-record code made them: the impact as the
    JSON writes it (CSV, for programs) or as people read it (`for_people`: Markdown)."""
    impact = impact_text(r.impact) if for_people else \
        "" if r.impact is None else json.dumps(error_json(r)["impact_points"])
    def mention(m: Mention | None) -> list:
        return [m.span[0], m.span[1], m.text] if m else ["", "", ""]

    return [r.document, r.category.value, *mention(r.mention), r.mention.type.name, *mention(r.antecedent),
            *mention(r.best_antecedent), r.key_chain or "", r.response_chain or "",
            "" if r.cost is None else repr(r.cost), impact, r.fix]


def _record_cells(r: ErrorRecord, width: int, letters: bool, missing: str, impacts: bool) -> list[str]:
    """One record's row of the text (and Markdown) table, as the per-record code made it (the document by
    its shown name)."""
    def mention(m: Mention | None) -> str:
        if m is None:
            return "-"
        text = m.text if len(m.text) <= width else m.text[:width - 1] + "…"
        return f"{text} [{m.span[0]}-{m.span[1]}]"

    cells = [shown_document(r.document), r.category.label, r.mention.type.letter if letters else r.mention.type.name,
             mention(r.mention), mention(r.antecedent), mention(r.best_antecedent), r.key_chain or missing,
             r.response_chain or missing, missing if r.cost is None else f"{r.cost:g}"]
    return cells + ([impact_text(r.impact) or "-"] if impacts else [])


@settings(max_examples=300, deadline=None)
@given(st.lists(records(), max_size=8), st.integers(0, 3), st.booleans())
def test_json_of_columns_is_the_json_of_each_record(listed: list[ErrorRecord], depth: int, distinct: bool) -> None:
    same_fix = list(range(1, len(listed) + 1)) if distinct else None
    one_by_one = [{**error_json(r), **({"same_fix": same_fix[i]} if distinct else {})} for i, r in enumerate(listed)]
    columns = ErrorColumns.of(listed)
    written = "".join(error_pieces(columns, same_fix, depth))
    assert written == dumps(one_by_one, depth) == json.dumps(one_by_one, indent=1).replace("\n", "\n" + " " * depth)
    report = {"a": 1, "errors": Written("".join(error_pieces(columns, same_fix, depth=1)))}  # one level down
    assert dumps(report) == dumps({"a": 1, "errors": one_by_one})


@settings(max_examples=300, deadline=None)
@given(st.lists(records(), max_size=8), st.booleans(),
       st.none() | st.fixed_dictionaries({c: _FLOAT.filter(lambda v: v is not None) for c in CATEGORIES}))
def test_csv_of_columns_is_the_csv_of_each_record(listed: list[ErrorRecord], distinct: bool,
                                                  category_impact: dict | None) -> None:
    same_fix = [len(r.fix) for r in listed] if distinct else None
    headers = ERROR_COLUMNS + (["same_fix"] if distinct else []) + (["category_impact_points"] if category_impact else [])
    rows = [_record_csv_cells(r) + ([same_fix[i]] if distinct else [])
            + ([json.dumps(impact_points(category_impact[r.category]))] if category_impact else [])
            for i, r in enumerate(listed)]
    assert errors_csv(ErrorColumns.of(listed), same_fix, category_impact) == render_csv(headers, rows)


@settings(max_examples=100, deadline=None)
@given(st.lists(records(), max_size=8))
def test_reports_errors_are_each_records_cells(listed: list[ErrorRecord]) -> None:
    """The report's errors in CSV and Markdown: each record's cells as `render_csv` and
    `render_markdown` write them (its scores table is the same text either way); Markdown, read by
    people, names each document (and the scope in its heading) as the text views do, CSV by its
    full name."""
    scores: dict = {}
    scope = "(GUM_a); part 000"
    head = render_report(scope, (1, 0.75, 0.5, 1), scores, None, "csv")
    rows = [_record_csv_cells(r) for r in listed]
    assert render_report(scope, (1, 0.75, 0.5, 1), scores, listed, "csv") == \
        head + "\n" + render_csv(ERROR_COLUMNS, rows)
    head = render_report(scope, (1, 0.75, 0.5, 1), scores, None, "markdown")
    assert head.startswith("# Scores: GUM\\_a\n")
    shown = [[shown_document(row[0]), *row[1:]] for row in (_record_csv_cells(r, for_people=True) for r in listed)]
    assert render_report(scope, (1, 0.75, 0.5, 1), scores, listed, "markdown") == \
        head + "\n" + render_markdown(ERROR_COLUMNS, shown, title=f"Errors ({len(listed)})")


@settings(max_examples=300, deadline=None)
@given(st.lists(records(), max_size=8), st.integers(1, 60), st.booleans(), st.sampled_from(["-", ""]), st.booleans())
def test_table_cells_of_columns_are_each_records_row(listed: list[ErrorRecord], width: int, letters: bool,
                                                     missing: str, impacts: bool) -> None:
    cells = table_cells(ErrorColumns.of(listed), width=width, letters=letters, missing=missing, impacts=impacts)
    assert [list(row) for row in zip(*cells)] == [_record_cells(r, width, letters, missing, impacts) for r in listed]


def test_a_written_piece_is_put_in_as_it_is() -> None:
    assert dumps({"x": [Written("[\n  1\n ]")]}) == '{\n "x": [\n  [\n  1\n ]\n ]\n}'
    assert "".join(error_pieces(ErrorColumns.of([]))) == "[]"


@settings(max_examples=100, deadline=None)
@given(st.lists(records(), max_size=12), st.integers(0, 3), st.booleans())
def test_document_counts_of_columns_are_the_json_of_each_documents_counts(listed: list[ErrorRecord], depth: int,
                                                                           zeros: bool) -> None:
    columns = ErrorColumns.of(listed)
    kinds = list(MentionType) if zeros else shown_types(columns.counts())
    expected = {name: counts_to_json(counts, kinds) for name, counts in count_by_document(listed).items()}
    assert dumps({"documents": document_counts_json(columns, kinds, depth=1)}) == dumps({"documents": expected})
    assert document_counts_json(columns, kinds, depth) == dumps(expected, depth)


_REPEATED_IMPACTS = st.sampled_from([None, 0.0, -0.0, 1e-9, -1e-9, 0.25, np.float64(0.25), np.float64(-0.0), 5e-310,
                                     -3.4479038428791853e-06, float("nan")])
"""Impacts as a corpus has them: a few values shared by many errors (the same fix), numpy's and
Python's floats of one value, both zeros, NaN."""


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(records(), _REPEATED_IMPACTS), max_size=30))
def test_json_of_impacts_written_once_per_value_is_each_records(listed: list) -> None:
    records_ = [dataclasses.replace(r, impact=impact) for r, impact in listed]
    one_by_one = [error_json(r) for r in records_]
    written = "".join(error_pieces(ErrorColumns.of(records_), None, 1))
    assert written == json.dumps(one_by_one, indent=1).replace("\n", "\n ")

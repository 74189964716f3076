"""Chen & Ng error records written column by column: the JSON list and the CSV table of
`corefwb errors`, the rows of its text table, and the workbench's report of one scope
(`render_report`), whose errors' CSV and Markdown cells are the same (`error_cells`).

Why columns: a corpus of 250,000 tokens has fifty thousand records, and writing them as a dict
each (`output.error_json`) walked by the JSON writer cost more than finding them.  Here each
field's text is made once per column (a document's name once per document, a category's once),
and each record's text is one template filled with its row.  The bytes are those of
`dumps([error_json(r) for r in records], depth)` and of `render_csv(ERROR_COLUMNS, ...)` of each
record's fields, which tests/test_error_rows.py checks on generated records.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from metrics.errors.chen_ng.records import CATEGORIES, ErrorColumns, ErrorRecord, counts_of, counts_to_json
from metrics.errors.mention import MentionColumns
from metrics.measures.weights import given
from metrics.model import MentionType

from .json_text import Written, dumps, scalar, string
from .output import IMPACT_UNIT, SCORE_CSV_COLUMNS, error_json, impact_points, impact_text, markdown_cell, percent, render_csv, \
    render_markdown, score_csv_cells, score_json, shown_document, single_valued_note

ERROR_COLUMNS = ["document", "category", "start", "end", "text", "type", "antecedent_start", "antecedent_end",
                 "antecedent_text", "best_antecedent_start", "best_antecedent_end", "best_antecedent_text",
                 "key_chain", "response_chain", "cost", "impact_points", "fix"]
"""The columns of an error in CSV: the fields of its JSON shape, flattened; the impact in points at
full precision, as the JSON's field of that name (a CSV is read by programs)."""

_FIELDS = ("document", "category", "mention", "antecedent", "best_antecedent", "key_chain", "response_chain", "cost",
           "fix", "impact_points")
"""An error's JSON fields in the order `output.error_json` gives them."""
_NULL = "null"


BLOCK_ROWS = 128
"""Records written per piece of `error_pieces` (about 64 KiB of JSON).  Why pieces of this size:
a report written whole (27 MB on a corpus of 250,000 tokens) was given fresh pages at each of
its joins, a fifth of the writing; pieces this small reuse the memory the last one freed."""


def error_pieces(columns: ErrorColumns, same_fix: Sequence[int] | None = None, depth: int = 0) -> Iterator[str]:
    """The records as a JSON list standing `depth` levels down (with `same_fix`, --distinct: each
    record ends with its count), in pieces of `BLOCK_ROWS` records: each field's text made once per
    column (a document's name once per document, a category's once), each record one `%`
    template filled with its row (its mention's fields among them: every record has one)."""
    n = len(columns)
    if not n:
        yield "[]"
        return
    item, field, inner = "\n" + " " * (depth + 1), "\n" + " " * (depth + 2), "\n" + " " * (depth + 3)
    mention = ("{" + inner + '"start": %s,' + inner + '"end": %s,' + inner + '"text": %s,' + inner + '"type": %s'
               + field + "}")
    names = list(_FIELDS) + (["same_fix"] if same_fix is not None else [])
    template = "{" + field + ("," + field).join(
        scalar(name).replace("%", "%%") + ": " + (mention if name == "mention" else "%s") for name in names
    ) + item + "}"
    kinds = [scalar(kind.name) for kind in MentionType]
    document_text = [scalar(name) for name in columns.documents]
    category_text = [scalar(c.value) for c in CATEGORIES]
    made = [  # the columns before the antecedents (the mention's fields last), and after them
        [[document_text[d] for d in columns.document.tolist()], [category_text[c] for c in columns.category.tolist()]],
        [[_NULL if label is None else string(label) for label in columns.key_chain],
         [_NULL if label is None else string(label) for label in columns.response_chain],
         [_NULL if cost is None else scalar(cost) for cost in columns.cost],
         list(map(string, columns.fix)),
         _impact_texts(columns.impact)]
        + ([[scalar(n) for n in same_fix]] if same_fix is not None else [])]
    made[0] += [columns.mention.start.tolist(), columns.mention.end.tolist(), list(map(string, columns.mention.text)),
                [kinds[kind] for kind in columns.mention.type.tolist()]]
    shown = [_MentionFields(columns.antecedent), _MentionFields(columns.best_antecedent)]
    between = "," + item
    for start in range(0, n, BLOCK_ROWS):
        end = min(start + BLOCK_ROWS, n)
        cells = [*(cell[start:end] for cell in made[0]),
                 *(fields.json(start, end, mention, kinds) for fields in shown),
                 *(cell[start:end] for cell in made[1])]
        yield ("[" + item if start == 0 else between) + between.join([template % row for row in zip(*cells)])
    yield "\n" + " " * depth + "]"


def _impact_texts(impacts: Sequence[float | None]) -> list[str]:
    """Each impact's JSON text (in points, `impact_points`), each distinct float's written once.
    Why: a corpus's fifty thousand prices hold a few thousand distinct values (errors with the
    same fix), and writing each was a third of the errors' JSON."""
    written: dict[float, str] = {}
    texts = []
    for value in impacts:
        if type(value) is float:
            text = written.get(value)  # 0.0 and -0.0 share an entry: both are written 0.0
            if text is None:
                text = written[value] = scalar(impact_points(value))
        else:
            text = _NULL if value is None else scalar(impact_points(value))
        texts.append(text)
    return texts


class _MentionFields:
    """A column of mentions as lists, for their JSON written a block of rows at a time."""

    def __init__(self, mentions: MentionColumns) -> None:
        self.start, self.end, self.text, self.type = (mentions.start.tolist(), mentions.end.tolist(), mentions.text,
                                                      mentions.type.tolist())

    def json(self, first: int, last: int, template: str, kinds: list[str]) -> list[str]:
        """Rows first to last: each mention as a JSON object (`template` filled), null where absent."""
        return [template % (start, end, string(text), kinds[kind]) if kind >= 0 else _NULL
                for start, end, text, kind in zip(self.start[first:last], self.end[first:last], self.text[first:last],
                                                  self.type[first:last])]


def document_counts_json(columns: ErrorColumns, kinds: Sequence[MentionType], depth: int = 0) -> Written:
    """`{name: counts_to_json(counts, kinds)}` of each document's counts (`ErrorColumns.count_table`) as
    `dumps` writes it standing `depth` levels down, each distinct table of counts written once:
    20,000 small documents share a few hundred."""
    order, table = columns.count_table()
    if not order:
        return Written("{}")
    distinct, inverse = np.unique(table, axis=0, return_inverse=True)
    texts = [dumps(counts_to_json(counts_of(row), kinds), depth + 1) for row in distinct]
    inner = "\n" + " " * (depth + 1)
    entries = [string(columns.documents[d]) + ": " + texts[i] for d, i in zip(order, inverse.ravel().tolist())]
    return Written("{" + inner + ("," + inner).join(entries) + "\n" + " " * depth + "}")


def errors_csv(columns: ErrorColumns, same_fix: Sequence[int] | None = None,
               category_impact: dict | None = None) -> str:
    """The records as CSV: `ERROR_COLUMNS` (and `same_fix`), one row each; with `category_impact`
    (Category -> the impact of fixing all its errors, as `--impact` prices it) a last column
    `category_impact_points`, each row's category's, at full precision: where the JSON's
    `category_impact_points` is, in the one table a CSV reader reads (not a second table after it)."""
    headers = ERROR_COLUMNS + (["same_fix"] if same_fix is not None else [])
    cells = error_cells(columns)
    if same_fix is not None:
        cells.append([str(n) for n in same_fix])
    if category_impact is not None:
        by_index = [_full_points(category_impact.get(c)) for c in CATEGORIES]
        headers = headers + ["category_impact_points"]
        cells.append([by_index[c] for c in columns.category.tolist()])
    return render_csv(headers, zip(*cells), texts=True)


def error_cells(columns: ErrorColumns, for_people: bool = False) -> list[list[str]]:
    """The text of each record's `ERROR_COLUMNS`, column by column: the CSV's cells, and the
    Markdown report's.  `for_people` (Markdown, read by people as the text views): each document by
    its shown name (`shown_document`) and the impact as people read it (`impact_text`); else (CSV,
    read by programs) the file's full name a program joins on and the impact at full precision."""
    kinds = [kind.name for kind in MentionType]
    names = [shown_document(name) for name in columns.documents] if for_people else columns.documents
    impact = impact_text if for_people else _full_points
    return [
        [names[d] for d in columns.document.tolist()],
        [CATEGORIES[c].value for c in columns.category.tolist()],
        *_mention_cells(columns.mention),
        [kinds[kind] for kind in columns.mention.type.tolist()],
        *_mention_cells(columns.antecedent),
        *_mention_cells(columns.best_antecedent),
        [label or "" for label in columns.key_chain],
        [label or "" for label in columns.response_chain],
        ["" if cost is None else repr(cost) for cost in columns.cost],
        [impact(value) for value in columns.impact],
        columns.fix,
    ]


def _full_points(value: float | None) -> str:
    """An impact (a fraction's change) in points as a CSV cell: the JSON's text (`impact_points`,
    full precision), empty when not priced."""
    return "" if value is None else scalar(impact_points(value))


def _mention_cells(mentions: MentionColumns) -> list[list]:
    """Start, end and words of each row's mention, as text ("" where absent)."""
    present = (mentions.type >= 0).tolist()
    return [[str(value) if here else "" for value, here in zip(mentions.start.tolist(), present)],
            [str(value) if here else "" for value, here in zip(mentions.end.tolist(), present)],
            [text if here else "" for text, here in zip(mentions.text, present)]]


def table_headers(*, impacts: bool, same_fix: bool) -> list[str]:
    """The headers of `table_cells`' columns, in their order (the impact's and the same fix's when
    the table has them)."""
    headers = ["document", "category", "type", "mention", "antecedent", "best antecedent", "key", "resp", "cost"]
    if impacts:
        headers.append(f"impact ({IMPACT_UNIT})")
    if same_fix:
        headers.append("same fix")
    return headers


def impact_cell(value: float | None) -> str:
    """An impact in the text and Markdown tables: `impact_text`, "-" when not priced."""
    return impact_text(value) or "-"


def table_cells(columns: ErrorColumns, *, width: int, letters: bool, missing: str, impacts: bool,
                same_fix: Sequence[int] | None = None) -> list[list[str]]:
    """The columns of the errors' table in text and Markdown: document (its shown name,
    `shown_document`), category, type (its letter with `letters`, else its name), the three
    mentions (words cut to `width`, then the span), the chains and the cost (`missing` where there
    is none), the impact (`impacts`), `same_fix`."""
    kinds = [kind.letter if letters else kind.name for kind in MentionType]
    labels = [c.label for c in CATEGORIES]
    shown = [shown_document(name) for name in columns.documents]
    cells = [
        [shown[d] for d in columns.document.tolist()],
        [labels[c] for c in columns.category.tolist()],
        [kinds[kind] for kind in columns.mention.type.tolist()],
        *(_mentions_text(m, width) for m in (columns.mention, columns.antecedent, columns.best_antecedent)),
        [label or missing for label in columns.key_chain],
        [label or missing for label in columns.response_chain],
        [missing if cost is None else f"{cost:g}" for cost in columns.cost],
    ]
    if impacts:
        cells.append([impact_cell(value) for value in columns.impact])
    if same_fix is not None:
        cells.append([str(n) for n in same_fix])
    return cells


def _mentions_text(mentions: MentionColumns, width: int) -> list[str]:
    """Each row's mention as `mention_text` shows it; "-" where absent."""
    return [mention_text(text, start, end, width) if kind >= 0 else "-"
            for start, end, text, kind in zip(mentions.start.tolist(), mentions.end.tolist(), mentions.text,
                                              mentions.type.tolist())]


def mention_text(text: str, start: int, end: int, width: int) -> str:
    """A mention in a table of errors (Chen & Ng's, K&K's, compare's changes): `words [start-end]`,
    the words cut to `width` with an ellipsis, so that a long mention keeps its span in view."""
    return f"{text if len(text) <= width else text[:width - 1] + '…'} [{start}-{end}]"


def render_report(scope: str, weights: Sequence[float], scores: dict, records: Sequence[ErrorRecord] | None,
                  fmt: str) -> str:
    """A report of one scope (a document name or "corpus"): weights, scores, and the errors with
    their fixes (None: no error analysis), as JSON, CSV (a scores table, then an errors table,
    `errors_csv`) or Markdown (the errors' cells those of the CSV, `error_cells`, but each document
    by its shown name, in its heading too: a text view, read by people)."""
    from metrics.measures.catalog import label

    if fmt == "json":
        report = {"scope": scope, "weights": given(weights),
                  "scores": {name: score_json(score) for name, score in scores.items()},
                  "errors": None if records is None else [error_json(r) for r in records]}
        return dumps(report) + "\n"
    if fmt == "csv":
        text = render_csv(["scope", *SCORE_CSV_COLUMNS[1:]],
                          [[scope, name, *score_csv_cells(name, s)] for name, s in scores.items()])
        if records is not None:
            text += "\n" + errors_csv(ErrorColumns.of(records))
        return text
    if fmt != "markdown":
        raise ValueError(f"unknown report format {fmt!r}")
    w = ", ".join(f"w_{n} = {v:g}" for n, v in zip(("nam", "nom", "pro", "sing"), weights))
    text = f"# Scores: {markdown_cell(shown_document(scope))}\n\nWeights: {w}\n\n" + render_markdown(
        ["metric", "R", "P", "F1"],
        [[label(name), percent(s.recall), percent(s.precision), percent(s.f1)] for name, s in scores.items()])
    single = single_valued_note(list(scores))
    text += "" if single is None else f"\n{single}\n"
    if records is not None:
        cells = error_cells(ErrorColumns.of(records), for_people=True)
        text += "\n" + render_markdown(ERROR_COLUMNS, list(zip(*cells)), title=f"Errors ({len(records)})")
    return text

"""The workbench's export: the scores and errors of one document or of the whole corpus.

The session writes the file (the one guarded writer, the one report renderer); this module picks
what to write from what the app shows: its scores, and the error records the list shows (the
active category and type filter applied) with impacts priced, pricing the documents the user has
not opened.  It reads the app's state, never its widgets, so it runs in a worker thread.
"""

from __future__ import annotations

from typing import Any

from metrics.errors.chen_ng.records import Category, ErrorRecord
from metrics.model import MentionType

from ..output import REPORT_EXTENSIONS
from .rows import filter_errors, short_name


def default_path(app: Any, scope: str, fmt: str) -> str:
    """`corefwb-<document>.json` or `corefwb-corpus.csv`, in the current directory."""
    label = "corpus" if scope == "corpus" else short_name(app.corpus.pairs[app.doc_index].name)
    return f"corefwb-{label.replace(' ', '_').replace('/', '_')}{REPORT_EXTENSIONS[fmt]}"


def write_report(app: Any, scope: str, fmt: str, path: str | None = None,
                 filters: tuple[Category | None, MentionType | None] = (None, None)) -> str:
    """Write `scope` ("document": the one shown, or "corpus") as `fmt`; returns the path."""
    result, errors, weights = app.result, app.errors, app.weights
    names = app.session.document_names() if scope == "corpus" else [app.corpus.pairs[app.doc_index].name]
    category, kind = filters
    records: list[ErrorRecord] | None = None
    if errors is not None:
        records = []
        for name in names:
            rows = filter_errors(errors.get(name, []), category, kind, by_impact=False)
            records.extend(rows if name in app.priced else app.session.price(rows, "conll", weights, system=app.system) or [])
    if scope == "corpus":
        label, scores = "corpus", result.micro
    else:
        label, scores = names[0], dict(result.documents).get(names[0], {})
    return app.session.export(path or default_path(app, scope, fmt), fmt, label, weights, scores, records)


def write_entity_report(app: Any, scope: str, fmt: str, path: str | None = None) -> str:
    """The K&K list's export (`t`): the document's or the corpus's entity errors, counts by type and
    the CoNLL F1 after each correction stage (of that document alone, for a document), in the
    formats of `corefwb errors --taxonomy kk`."""
    from ..commands.errors_kk import ERROR_HEADERS, error_row, paper_table, to_json
    from ..json_text import dumps
    from ..output import render_csv, render_markdown, write_atomic

    names = None if scope == "corpus" else [app.corpus.pairs[app.doc_index].name]
    report = app.session.kk_report(names, system=app.system)
    if fmt == "json":
        text = dumps(to_json(report, report.errors, report.errors, None)) + "\n"
    elif fmt == "csv":
        text = render_csv(*paper_table(report, report.errors))
    else:
        headers, rows = paper_table(report, report.errors)
        text = render_markdown(headers, rows, title=f"Kummerfeld & Klein errors: {names[0] if names else 'corpus'}")
        text += "\n" + render_markdown(ERROR_HEADERS, [error_row(e, 60) for e in report.errors], title="Errors")
    target = path or default_path(app, scope, fmt)
    write_atomic(target, text, inputs=app.session.inputs)
    return target

"""The workbench's export: the scores and errors of one document or of the whole corpus.

The session writes the file (the one guarded writer, the one report renderer); this module picks
what to write from what the app shows: its scores, and its error records with impacts priced,
pricing the documents the user has not opened.  It reads the app's state, never its widgets, so
it runs in a worker thread.
"""

from __future__ import annotations

from typing import Any

from metrics.errors.records import ErrorRecord

from ..output import REPORT_EXTENSIONS
from .rows import short_name


def write_report(app: Any, scope: str, fmt: str, path: str | None = None) -> str:
    """Write `scope` ("document": the one shown, or "corpus") as `fmt`; returns the path."""
    result, errors, weights = app.result, app.errors, app.weights
    names = app.session.document_names() if scope == "corpus" else [app.corpus.pairs[app.doc_index].name]
    records: list[ErrorRecord] | None = None
    if errors is not None:
        records = []
        for name in names:
            rows = errors.get(name, [])
            records.extend(rows if name in app.priced else app.session.price(rows, "conll", weights) or [])
    if scope == "corpus":
        label, scores = "corpus", result.micro
    else:
        label, scores = names[0], dict(result.documents).get(names[0], {})
    path = path or f"corefwb-{short_name(label).replace(' ', '_').replace('/', '_')}{REPORT_EXTENSIONS[fmt]}"
    return app.session.export(path, fmt, label, weights, scores, records)

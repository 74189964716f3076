"""The workbench's export: the scores and errors of one document or of the whole corpus.

The session writes the file (the one guarded writer, the one report renderer); this module picks
what to write from what the app shows: its scores, and the error records the list shows (the
active category and type filter applied) with impacts priced, pricing the documents the user has
not opened.  The app hands it an `ExportSource`, taken on the UI thread, so that the worker that
writes reads no widget and no attribute of the app.
"""

from __future__ import annotations

from dataclasses import dataclass

from metrics.corpus.scoring import CorpusResult
from metrics.errors.chen_ng.records import Category, ErrorRecord
from metrics.measures.weights import Weights
from metrics.model import MentionType

from ..output import REPORT_EXTENSIONS
from ..session import Session
from .rows import filter_errors, short_name


@dataclass(frozen=True)
class ExportSource:
    """What an export writes from: the shown system's scores and error records under the
    weights on screen, the document on screen, and the error list shown (its taxonomy and its
    filters)."""

    session: Session
    result: CorpusResult
    errors: dict[str, list[ErrorRecord]] | None
    """Error records per document (None when the analysis failed); the app's own, priced ones
    replacing their rows as they come."""
    priced: frozenset[str]
    """Documents whose records have their impacts already."""
    weights: Weights
    system: int
    document: str
    """The name of the document on screen."""
    taxonomy: str = "chen-ng"
    """The error list shown: "chen-ng" (per mention), "kk" (per entity error) or "ua" (the UA relations')."""
    filters: tuple[Category | None, MentionType | None] = (None, None)
    """The per-mention list's category and type filter."""

    def label(self, scope: str) -> str:
        """"corpus", or the short name of the document on screen."""
        return "corpus" if scope == "corpus" else short_name(self.document)


def default_path(label: str, fmt: str) -> str:
    """`corefwb-<document>.json` or `corefwb-corpus.csv`, in the current directory."""
    return f"corefwb-{label.replace(' ', '_').replace('/', '_')}{REPORT_EXTENSIONS[fmt]}"


def write_export(source: ExportSource, scope: str, fmt: str, path: str | None = None) -> str:
    """Write what the list shown lists (see `write_report`, `write_entity_report`); returns the path."""
    if source.taxonomy == "kk":  # the list shown is the entity errors: they are what is exported
        return write_entity_report(source, scope, fmt, path)
    if source.taxonomy == "ua":  # the UA relations' errors
        return write_relation_report(source, scope, fmt, path)
    return write_report(source, scope, fmt, path)


def write_relation_report(source: ExportSource, scope: str, fmt: str, path: str | None = None) -> str:
    """The UA relations' list's export (`t`): the document's or the corpus's relation errors with
    their counts, as `corefwb errors --conventions ua` writes them."""
    from ..commands.ua import errors_text, relation_counts
    from ..output import write_atomic

    errors = [e for e in source.session.ua_errors(source.system) if scope == "corpus" or e.document == source.document]
    text = errors_text(source.session.ua_result(source.system).settings, errors, relation_counts(errors), fmt)
    target = path or default_path(source.label(scope), fmt)
    write_atomic(target, text, inputs=source.session.inputs)
    return target


def write_report(source: ExportSource, scope: str, fmt: str, path: str | None = None) -> str:
    """Write `scope` ("document": the one shown, or "corpus") as `fmt`; returns the path."""
    result, errors, weights, session = source.result, source.errors, source.weights, source.session
    names = session.document_names() if scope == "corpus" else [source.document]
    category, kind = source.filters
    records: list[ErrorRecord] | None = None
    if errors is not None:
        records = []
        for name in names:
            rows = filter_errors(errors.get(name, []), category, kind, by_impact=False)
            records.extend(rows if name in source.priced
                           else session.price(rows, "conll", weights, system=source.system) or [])
    if scope == "corpus":
        label, scores = "corpus", result.micro
    else:
        label, scores = names[0], dict(result.documents).get(names[0], {})
    return session.export(path or default_path(source.label(scope), fmt), fmt, scope=label, weights=weights,
                          scores=scores, records=records)


def write_entity_report(source: ExportSource, scope: str, fmt: str, path: str | None = None) -> str:
    """The K&K list's export (`t`): the document's or the corpus's entity errors, counts by type and
    the CoNLL F1 after each correction stage (of that document alone, for a document), in the
    formats of `corefwb errors --taxonomy kk`."""
    from ..commands.errors_kk import ERROR_HEADERS, error_row, paper_table, to_json
    from ..json_text import dumps
    from ..output import render_csv, render_markdown, write_atomic

    names = None if scope == "corpus" else [source.document]
    report = source.session.kk_report(names, system=source.system)
    if fmt == "json":
        text = dumps(to_json(report, report.errors, report.errors, None)) + "\n"
    elif fmt == "csv":
        text = render_csv(*paper_table(report, report.errors))
    else:
        headers, rows = paper_table(report, report.errors)
        text = render_markdown(headers, rows, title=f"Kummerfeld & Klein errors: {source.label(scope)}")
        text += "\n" + render_markdown(ERROR_HEADERS, [error_row(e, 60) for e in report.errors], title="Errors")
    target = path or default_path(source.label(scope), fmt)
    write_atomic(target, text, inputs=source.session.inputs)
    return target

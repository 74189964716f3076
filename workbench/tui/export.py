"""Export from the workbench: the scores and errors of one document or of the corpus.

Why here and not in the widgets: an export is data (a dict) rendered to JSON, CSV or Markdown and
written atomically, so a crash or a full disk never leaves a half-written file where the user expects
a report.  The JSON error records use the field names of `corefwb errors --format json`.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from typing import Any, Iterable, Literal, Sequence

from .rows import ErrorRow, MentionRef, METRIC_LABELS

Format = Literal["json", "csv", "markdown"]
FORMATS: tuple[Format, ...] = ("json", "csv", "markdown")
EXTENSIONS = {"json": ".json", "csv": ".csv", "markdown": ".md"}


def _score_dict(scores: dict[str, Any]) -> dict[str, dict[str, float]]:
    return {
        metric: {"recall": score.recall, "precision": score.precision, "f1": score.f1}
        for metric, score in scores.items()
    }


def _mention(ref: MentionRef | None) -> dict[str, Any] | None:
    if ref is None:
        return None
    return {"start": ref.span[0], "end": ref.span[1], "text": ref.text, "type": ref.type.name}


def _error_dict(row: ErrorRow) -> dict[str, Any]:
    return {
        "document": row.document,
        "category": row.category,
        "mention": _mention(row.mention),
        "antecedent": _mention(row.antecedent),
        "best_antecedent": _mention(row.best_antecedent),
        "key_chain": row.key_chain,
        "response_chain": row.response_chain,
        "cost": row.cost,
        "impact": row.impact,
    }


def build_report(
    scope: str, weights: Sequence[float], scores: dict[str, Any], errors: Iterable[ErrorRow] | None
) -> dict[str, Any]:
    """The export as plain data: scope (a document name or "corpus"), weights, scores, errors."""
    return {
        "scope": scope,
        "weights": dict(zip(("nam", "nom", "pro", "sing"), map(float, weights))),
        "scores": _score_dict(scores),
        "errors": [_error_dict(row) for row in errors] if errors is not None else None,
    }


def render(report: dict[str, Any], fmt: Format) -> str:
    if fmt == "json":
        return json.dumps(report, indent=2, ensure_ascii=False) + "\n"
    if fmt == "csv":
        return _render_csv(report)
    return _render_markdown(report)


def _error_cells(error: dict[str, Any]) -> list[str]:
    mention = error["mention"]
    ante = error["antecedent"] or {}
    best = error["best_antecedent"] or {}
    return [
        error["document"], error["category"], mention["type"], str(mention["start"]), str(mention["end"]),
        mention["text"], ante.get("text", ""), best.get("text", ""),
        "" if error["cost"] is None else f"{error['cost']:.4f}",
        "" if error["impact"] is None else f"{error['impact']:.4f}",
    ]


ERROR_HEADER = ["document", "category", "type", "start", "end", "mention", "antecedent", "best_antecedent", "cost", "impact"]


def _render_csv(report: dict[str, Any]) -> str:
    """Two tables in one file, scores then errors, each with a header row (section in column 1)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["section", "scope", "metric", "recall", "precision", "f1"])
    for metric, score in report["scores"].items():
        writer.writerow(["score", report["scope"], metric, f"{score['recall']:.6f}", f"{score['precision']:.6f}", f"{score['f1']:.6f}"])
    if report["errors"] is not None:
        writer.writerow(["section", *ERROR_HEADER])
        for error in report["errors"]:
            writer.writerow(["error", *_error_cells(error)])
    return out.getvalue()


def _md_cell(text: str) -> str:
    """A Markdown table cell that cannot break the table or inject markup."""
    escaped = "".join("\\" + c if c in "\\|`*_[]<>#" else c for c in text)
    return escaped.replace("\n", " ")


def _render_markdown(report: dict[str, Any]) -> str:
    weights = report["weights"]
    lines = [
        f"# Scores: {_md_cell(report['scope'])}",
        "",
        "Weights: " + ", ".join(f"w_{name} = {value:g}" for name, value in weights.items()),
        "",
        "| metric | R | P | F1 |",
        "|---|---:|---:|---:|",
    ]
    for metric, score in report["scores"].items():
        label = METRIC_LABELS.get(metric, metric)
        lines.append(f"| {label} | {100 * score['recall']:.2f} | {100 * score['precision']:.2f} | {100 * score['f1']:.2f} |")
    if report["errors"] is not None:
        lines += ["", f"## Errors ({len(report['errors'])})", "", "| " + " | ".join(ERROR_HEADER) + " |", "|" + "---|" * len(ERROR_HEADER)]
        for error in report["errors"]:
            lines.append("| " + " | ".join(_md_cell(cell) for cell in _error_cells(error)) + " |")
    return "\n".join(lines) + "\n"


def write_atomic(path: str, text: str) -> None:
    """Write next to the target, then `os.replace`: readers see the old file or the whole new one."""
    directory = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(prefix=".corefwb-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise

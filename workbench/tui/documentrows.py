"""The documents list's rows: what each row holds (a document's scores, its error count, in
compare mode the baseline's scores and the change of CoNLL F1) and how the list filters and sorts
them.

Why apart from `rows`: the list's rows are built from the corpus result and sorted, never drawn
into the text; `rows` holds what the text and the error list are made of.  Plain data, no Textual.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from metrics.errors.chen_ng.records import ErrorRecord
from metrics.measures.catalog import CONLL, MUC

SORT_KEYS = (CONLL.name, MUC.name, "errors", "name")
COMPARE_SORT_KEYS = ("delta", "change", CONLL.name, "name")
"""Compare mode: by the change of CoNLL F1 (largest loss first), by its size (either way), by the
compared system's CoNLL F1, by name."""
BROWSE_SORT_KEYS = ("file", "name")
"""A key browsed alone: no scores nor errors to sort by; in the file's order, or by name."""
SORT_LABELS = {"delta": "ΔF", "change": "|ΔF|"}


def order_text(sort_key: str) -> str:
    """How the list is ordered, as its title and the status line say it (`by conll`, `in file order`)."""
    return "in file order" if sort_key == "file" else f"by {SORT_LABELS.get(sort_key, sort_key)}"


@dataclass(frozen=True)
class DocumentRow:
    """A row of the documents list, complete when built."""

    index: int
    name: str
    scores: dict[str, Any]
    errors: int | None
    baseline: dict[str, Any] = field(default_factory=dict)
    """Compare mode: the baseline's scores of the document (`scores` are the compared system's)."""
    delta: float | None = None
    """Compare mode: the change of CoNLL F1 in points, compared system - baseline."""
    marked: bool = False
    """Compare mode: among the documents where the two systems differ most."""

    def f1(self, metric: str) -> float:
        score = self.scores.get(metric)
        return score.f1 if score is not None else 0.0


def document_rows(
    names: Sequence[str], documents: Sequence[tuple[str, dict[str, Any]]] | None,
    errors: dict[str, list[ErrorRecord]] | None, baseline: Sequence[tuple[str, dict[str, Any]]] | None = None
) -> list[DocumentRow]:
    """The documents list's rows; with the `baseline`'s scores (compare mode), each with its change
    of CoNLL F1 and whether it is among the documents that differ most (`comparison`)."""
    scores = dict(documents or ())
    base: dict[str, dict[str, Any]] = {}
    deltas: dict[str, float] = {}
    marked: set[str] = set()
    if baseline is not None and documents is not None:
        from ..comparison import document_deltas, most_different

        base = dict(baseline)
        deltas = document_deltas(baseline, documents)
        marked = most_different(deltas)
    return [DocumentRow(index, name, scores.get(name, {}), len(errors.get(name, ())) if errors is not None else None,
                        baseline=base.get(name, {}), delta=deltas.get(name), marked=name in marked)
            for index, name in enumerate(names)]


def select_documents(rows: Sequence[DocumentRow], text: str, sort_key: str) -> list[DocumentRow]:
    """Filter by a case-insensitive name substring; sort worst first (lowest F1 / most errors /
    largest loss against the baseline) or by the size of the change, largest first."""
    needle = text.strip().lower()
    out = [row for row in rows if needle in row.name.lower()]
    if sort_key == "name":
        out.sort(key=lambda row: row.name)
    elif sort_key == "file":
        out.sort(key=lambda row: row.index)
    elif sort_key == "errors":
        out.sort(key=lambda row: (-(row.errors or 0), row.index))
    elif sort_key == "delta":
        out.sort(key=lambda row: (row.delta if row.delta is not None else 0.0, row.index))
    elif sort_key == "change":
        out.sort(key=lambda row: (-abs(row.delta or 0.0), row.index))
    else:
        out.sort(key=lambda row: (row.f1(sort_key), row.index))
    return out

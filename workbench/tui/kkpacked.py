"""Kummerfeld & Klein's errors as arrays: how the child that analyses them hands them to the app,
and how the entity-error list reads them.

Why: on a 300,000-token book the analysis finds 33,000 errors.  Pickled as objects they took 0.8 s
to send and 1.1 s to read back in the app, holding the GIL there, so keys waited and `t` settled
seconds later.  As a few arrays and two strings they cross a pipe in milliseconds, and a row's
`KKError` is made only when the list draws it or the user picks it.  The counts per type and
the spans `n` moves by come from the arrays, without making any.

Plain data, no Textual, as every view-model.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from metrics.errors.kummerfeld_klein import KK_TYPES
from metrics.errors.kummerfeld_klein.report import Counts, KKError
from metrics.errors.mention import Mention
from metrics.model import MentionType, Span
from metrics.runtime.ondemand import OnDemand

TYPES = tuple(MentionType)
"""Mention types by their code in the arrays."""


def _offsets(lengths: Sequence[int]) -> np.ndarray:
    """Where each of a run of items starts in their concatenation, and where the last ends."""
    bounds = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=bounds[1:])
    return bounds


class PackedKKErrors(OnDemand[KKError]):
    """A system's K&K errors, in their order, as arrays (see the module docstring).  Indexing
    makes the `KKError` (equal to the one packed); `of_document` is one document's errors."""

    def __init__(self, errors: Sequence[KKError]) -> None:
        self.documents = list(dict.fromkeys(e.document for e in errors))
        self.sides = sorted({e.side for e in errors})
        documents = {name: number for number, name in enumerate(self.documents)}
        sides = {side: number for number, side in enumerate(self.sides)}
        self.document = np.array([documents[e.document] for e in errors], dtype=np.int32)
        self.kind = np.array([KK_TYPES.index(e.kind) for e in errors], dtype=np.int8)
        self.side = np.array([sides[e.side] for e in errors], dtype=np.int8)
        self.type = np.array([e.type for e in errors], dtype=np.int8)
        mentions: list[Mention] = [m for e in errors for m in e.mentions]
        self.mention_bounds = _offsets([len(e.mentions) for e in errors])
        targets = [e.target for e in errors if e.target is not None]
        self.target = np.full(len(errors), -1, dtype=np.int64)
        """Each error's target mention (a span error's key mention), as a row of the mention table; -1: none."""
        self.target[[i for i, e in enumerate(errors) if e.target is not None]] = \
            np.arange(len(mentions), len(mentions) + len(targets), dtype=np.int64)
        mentions += targets
        self.mention_span = np.array([m.span for m in mentions], dtype=np.int64).reshape(-1, 2)
        self.mention_type = np.array([m.type for m in mentions], dtype=np.int8)
        self.texts = "".join(m.text for m in mentions)
        self.text_bounds = _offsets([len(m.text) for m in mentions])
        self.cluster_bounds = _offsets([len(e.cluster) for e in errors])
        self.cluster_span = np.array([span for e in errors for span in e.cluster], dtype=np.int64).reshape(-1, 2)
        labels = [label for e in errors for label in (*e.key_chains, *e.response_chains)]
        self.key_chains = np.array([len(e.key_chains) for e in errors], dtype=np.int64)
        self.label_bounds = _offsets([len(e.key_chains) + len(e.response_chains) for e in errors])
        self.labels = "".join(labels)
        self.label_text_bounds = _offsets([len(label) for label in labels])

    def __len__(self) -> int:
        return len(self.document)

    def _at(self, index: int) -> KKError:
        first, last = self.mention_bounds[index:index + 2].tolist()
        clusters = self.cluster_bounds[index:index + 2].tolist()
        labels = self.label_bounds[index:index + 2].tolist()
        keys = labels[0] + int(self.key_chains[index])
        named = [self._label(row) for row in range(*labels)]
        target = int(self.target[index])
        return KKError(self.documents[self.document[index]], KK_TYPES[self.kind[index]],
                       tuple(self._mention(row) for row in range(first, last)),
                       tuple(map(tuple, self.cluster_span[clusters[0]:clusters[1]].tolist())),
                       self.sides[self.side[index]], tuple(named[:keys - labels[0]]), tuple(named[keys - labels[0]:]),
                       TYPES[self.type[index]], self._mention(target) if target >= 0 else None)

    def _mention(self, row: int) -> Mention:
        start, end = self.text_bounds[row:row + 2].tolist()
        return Mention(tuple(self.mention_span[row].tolist()), self.texts[start:end], TYPES[self.mention_type[row]])

    def _label(self, row: int) -> str:
        start, end = self.label_text_bounds[row:row + 2].tolist()
        return self.labels[start:end]

    def of_document(self, name: str) -> DocumentKKErrors:
        """One document's errors, in their order."""
        number = self.documents.index(name) if name in self.documents else -1
        return DocumentKKErrors(self, np.flatnonzero(self.document == number))


class DocumentKKErrors(OnDemand[KKError]):
    """Some of a `PackedKKErrors`' errors (one document's), each made when asked for."""

    def __init__(self, packed: PackedKKErrors, rows: np.ndarray) -> None:
        self.packed, self.rows = packed, rows

    def __len__(self) -> int:
        return len(self.rows)

    def _at(self, index: int) -> KKError:
        return self.packed[int(self.rows[index])]

    def spans(self) -> list[Span]:
        """Each error's span (`KKError.span`: its first mention's), made from the arrays."""
        first = self.packed.mention_bounds[self.rows]
        return list(map(tuple, self.packed.mention_span[first].tolist()))

    def counts(self) -> Counts:
        """`report.count_kk` of these errors, from the arrays."""
        cells = np.bincount(self.packed.kind[self.rows].astype(np.int64) * len(TYPES) + self.packed.type[self.rows],
                            minlength=len(KK_TYPES) * len(TYPES)).tolist()
        return {kind: {t: cells[k * len(TYPES) + int(t)] for t in TYPES} for k, kind in enumerate(KK_TYPES)}

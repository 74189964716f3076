"""A mention as every error record shows it, whatever the taxonomy: the one definition both
`chen_ng` and `kummerfeld_klein` records use, so that front ends render them alike."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from metrics.model import MentionType, Span


@dataclass(frozen=True)
class Mention:
    """A mention as a record shows it: span (document token offsets, inclusive), words, type."""

    span: Span
    text: str
    type: MentionType

    def to_json(self) -> dict:
        return {"start": self.span[0], "end": self.span[1], "text": self.text, "type": self.type.name}


ABSENT = -1
"""A column's entry where a record has no such mention (no antecedent, no best antecedent)."""


@dataclass(frozen=True)
class MentionColumns:
    """One mention of each of many records, as columns: token offsets, type (`ABSENT` where a
    record has no such mention) and words (None there)."""

    start: np.ndarray
    end: np.ndarray
    type: np.ndarray
    text: list[str | None]

    def take(self, rows: np.ndarray) -> "MentionColumns":
        return MentionColumns(self.start[rows], self.end[rows], self.type[rows], list(map(self.text.__getitem__, rows.tolist())))

    def mentions(self) -> list[Mention | None]:
        """Each row's `Mention` (None where absent)."""
        kinds = list(MentionType)
        return [None if kind < 0 else Mention((start, end), text, kinds[kind])
                for start, end, kind, text in zip(self.start.tolist(), self.end.tolist(), self.type.tolist(), self.text)]

    @staticmethod
    def of(mentions: Sequence[Mention | None]) -> "MentionColumns":
        present = [m if m is not None else _NONE for m in mentions]
        return MentionColumns(np.array([m.span[0] for m in present], dtype=np.int64),
                              np.array([m.span[1] for m in present], dtype=np.int64),
                              np.array([ABSENT if m is _NONE else int(m.type) for m in present], dtype=np.int64),
                              [None if m is _NONE else m.text for m in present])


_NONE = Mention((ABSENT, ABSENT), "", MentionType.NAME)

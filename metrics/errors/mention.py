"""A mention as every error record shows it, whatever the taxonomy: the one definition both
`chen_ng` and `kummerfeld_klein` records use, so that front ends render them alike."""

from __future__ import annotations

from dataclasses import dataclass

from metrics.model import MentionType, Span


@dataclass(frozen=True)
class Mention:
    """A mention as a record shows it: span (document token offsets, inclusive), words, type."""

    span: Span
    text: str
    type: MentionType

    def to_json(self) -> dict:
        return {"start": self.span[0], "end": self.span[1], "text": self.text, "type": self.type.name}

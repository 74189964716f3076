"""Reading any supported input into Documents, by format name or by detection."""

from __future__ import annotations

from .conll import read_conll
from .model import Document


def read_documents(path: str, fmt: str | None = None, warnings: list[str] | None = None) -> list[Document]:
    """Read a key or response file.  fmt: None/"auto" to detect, or "conll"."""
    return read_conll(path, warnings)

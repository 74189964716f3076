"""A sequence whose items are made when first asked for.

Why: a corpus result's documents (`measures.columns.DocumentScores`), the workbench's chain rows,
text lines and K&K errors are each far more than anyone reads at once; each makes an item only
when it is indexed.  The indexing itself (slices, negative indices, the bounds) is written once
here, so that every such sequence behaves as a list does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

T_ITEM = TypeVar("T_ITEM")


class OnDemand(Sequence[T_ITEM]):
    """Indexing, slices and negative indices once; a subclass gives `__len__` and `_at`."""

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._at(index)

    if TYPE_CHECKING:  # each subclass makes its items
        def _at(self, index: int) -> T_ITEM:
            """The item at a valid, non-negative index."""

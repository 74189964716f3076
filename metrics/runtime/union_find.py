"""Items joined in pairs, each given its connected component's least member: the one union-find.

Why: chains that share a span (a key chain and a response chain with a common cell; two chains of
one side listing one span) are one component, and the scorer's CEAF components, the pricer's parts
and the delta table's components each found them with a union-find of their own.  Here is the
one: the components of items 0 .. n-1 joined by pairs (left[i], right[i]), each item labelled
with the least item of its component, so the label does not depend on the order of the pairs or
on how the search ran (`delta` names a component by its first key chain: number the key chains
first).

Two ways, one answer: few pairs are joined in Python (union by the least root, path halving, over
the items the pairs name); many as array work, labels spread along the pairs (each pair's items
take the least label of the two, then each label its own label, until nothing changes).  Which
is quicker depends only on the number of pairs (benchmarks/bench_union_find.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

ARRAY_PAIRS = 32
"""From this many pairs the array work is quicker than the Python loop (benchmarks/bench_union_find.py)."""


def least_members(n: int, left: Sequence[int] | np.ndarray, right: Sequence[int] | np.ndarray) -> np.ndarray:
    """Each of the items 0 .. n-1 labelled with the least item of its connected component, where
    pair i joins left[i] and right[i] (int64; an item in no pair is its own label)."""
    if len(left) != len(right):
        raise ValueError(f"{len(left)} left items for {len(right)} right items")
    if len(left) < ARRAY_PAIRS:
        return _joined_in_python(n, left, right)
    return _spread(n, np.asarray(left, dtype=np.int64), np.asarray(right, dtype=np.int64))


def _joined_in_python(n: int, left: Sequence[int] | np.ndarray, right: Sequence[int] | np.ndarray) -> np.ndarray:
    """Union by the least root with path halving, over only the items the pairs name."""
    if isinstance(left, np.ndarray):
        left = left.tolist()
    if isinstance(right, np.ndarray):
        right = right.tolist()
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        up = parent.setdefault(x, x)
        while up != x:
            above = parent[up]
            parent[x] = above
            x, up = above, parent[above]
        return x

    for a, b in zip(left, right):
        a, b = find(a), find(b)
        if a < b:
            parent[b] = a
        elif b < a:
            parent[a] = b
    labels = np.arange(n, dtype=np.int64)
    if parent:
        labels[list(parent)] = [find(x) for x in parent]
    return labels


def _spread(n: int, left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Labels spread along the pairs until stable.  Each round hooks the label of each pair's
    items to the least label of the pair, then points every item at its label's label; labels
    only fall and stay within the component, so when nothing changes each pair's items share a
    label, which is then the least member (it is its own label and no item's label is below)."""
    labels = np.arange(n, dtype=np.int64)
    while True:
        at_left, at_right = labels[left], labels[right]
        low = np.minimum(at_left, at_right)
        spread = labels.copy()
        np.minimum.at(spread, at_left, low)
        np.minimum.at(spread, at_right, low)
        spread = spread[spread]
        if np.array_equal(spread, labels):
            return labels
        labels = spread

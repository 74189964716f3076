"""The linguistic weights of one cell and one response chain, a value at a time: the closed forms
the engine's arrays (`common_weights`, `response_weights`) compute row by row, kept here because
no product path asks for one value (tests/test_linguistic.py checks them against a plain Kruskal
and the arrays against them)."""

from __future__ import annotations

from collections.abc import Iterable

from metrics.measures.linguistic import N_TYPES, TypeCounts, _counts, _nested_tree, tree_weight
from metrics.measures.weights import Weights


def common_weight(c_counts: TypeCounts, k_size: int, s_size: int, w: Weights) -> float:
    """w_c^L(C) for C = K ∩ S: its tree weight if |C| > 1; w_sing only when the singleton was found
    exactly (|C| = |K| = |S| = 1), because a lone shared mention of larger chains is no success."""
    size = sum(c_counts)
    if size > 1:
        return tree_weight(c_counts, w)
    if size == 1 and k_size == 1 and s_size == 1:
        return w[3]
    return 0.0


def response_weight(parts: Iterable[TypeCounts], w: Weights) -> float:
    """w_s^L(S) from the parts of S (S split by key chains; a response mention in no key chain is a
    part of its own).  Empty parts are ignored.

    Why not a spanning tree of S itself: a correct but suboptimal link would then cost precision
    as well as recall.  Instead S weighs what it got right (the trees of its parts) plus the spurious
    links needed to glue the parts together, priced at their heaviest: E_t(S), a maximum spanning
    tree over the parts.  w_sing for a singleton S.
    """
    n_parts = size = 0
    inside = 0.0
    with_type = [0] * N_TYPES
    """parts holding a mention of type t"""
    with_below = [0] * N_TYPES
    """parts holding a mention of type t or a less informative one"""
    for part in parts:
        counts = _counts(part)
        part_size = sum(counts)
        if part_size == 0:
            continue
        size += part_size
        n_parts += 1
        if part_size > 1:
            inside += tree_weight(counts, w)
        below = False
        for t in range(N_TYPES - 1, -1, -1):
            below = below or counts[t] > 0
            with_type[t] += counts[t] > 0
            with_below[t] += below
    if size == 1:
        return w[3]
    between = _nested_tree(w, [with_below[t] if with_type[t] else 0 for t in range(N_TYPES)])
    return inside + between

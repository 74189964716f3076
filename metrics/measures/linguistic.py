"""Chen & Ng's (2013) linguistically aware weight functions w_k^L, w_c^L, w_s^L, in closed form.

Why a spanning tree: a chain of n mentions is established by n - 1 links, and Chen & Ng credit a
resolver for the *most informative* n - 1 links that would build it (a pronoun linked to a name tells
the reader who is meant; two pronouns linked together do not).  The heaviest set of n - 1 links that
connects the chain is a maximum spanning tree of the complete graph over its mentions, where a link
weighs w_nam if either end is a NAME, else w_nom if either end is a NOMINAL, else w_pro.

Why closed forms: link weights depend only on the mention types, so the tree weight depends only on
the type counts (n_name, n_nominal, n_pronoun).  Kruskal's algorithm over the three *link classes*
explains the formula.  Taken whole, each class connects a fixed set of mentions:

    NAME links    (some end is a name)             connect every mention, if there is a name;
    NOMINAL links (one end nominal, none a name)   connect nominals + pronouns, if there is a nominal;
    PRONOUN links (two pronouns)                   connect the pronouns.

Zeros (CorefUD's empty-node mentions, `MentionType.ZERO`) are a fourth, least informative type: a
link between two zeros is a ZERO link (w_zero); PRONOUN links then reach pronouns and zeros, NOMINAL
links nominals, pronouns and zeros.  Without zeros everything is as Chen & Ng wrote it.

These sets are nested (pronouns within nominals+pronouns within everything), so after Kruskal has
added any classes, the only non-trivial component is the largest set added so far.  Processing the
classes by decreasing weight (any order: w_pro > w_nam is legal), a class therefore adds
max(0, its set size - largest set size so far) links.  That is `_nested_tree`, O(1).

The same nesting holds one level up, for E_t(S) of w_s^L: the "heaviest cross link" between two
parts of a response chain is a NAME link if either part holds a name, a NOMINAL link if one part
holds a nominal and the other a nominal or pronoun, a PRONOUN link if both hold a pronoun.  So the
parts play the role of mentions, with set sizes counted in parts.

Weights may be 0 and w_sing may be 0; nothing here divides.  The numpy versions (`*_weights`) do
the same over arrays of type counts for the engine, which needs one value per contingency cell and
per chain.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from metrics.measures.weights import Weights
from metrics.model import MentionType

TypeCounts = tuple[int, ...]
"""(number of NAME, NOMINAL, PRONOUN[, ZERO] mentions) of a set of mentions; index = MentionType.
Three counts mean no zeros."""

N_TYPES = len(MentionType)
"""NAME, NOMINAL, PRONOUN, ZERO: the link classes, most informative first."""


def _counts(counts: TypeCounts) -> tuple[int, ...]:
    return tuple(counts) + (0,) * (N_TYPES - len(counts))


def _nested_tree(w: Weights, sizes: Sequence[int]) -> float:
    """Maximum spanning tree weight when the link classes NAME, NOMINAL, PRONOUN, ZERO connect
    nested sets of the given sizes (0 for a class that has no link at all).

    Kruskal by class, heaviest first (ties: NAME, NOMINAL, PRONOUN, ZERO; equal weights give equal
    totals whatever the order): a class adds as many links as its set has elements beyond the
    largest set already connected by heavier classes.
    """
    weights = w.by_type
    total = 0.0
    largest = 1
    for t in sorted(range(N_TYPES), key=lambda t: -weights[t]):
        if sizes[t] > largest:
            total += weights[t] * (sizes[t] - largest)
            largest = sizes[t]
    return total


def _class_sizes(counts: tuple[int, ...]) -> list[int]:
    """The set each link class connects: class t reaches every mention of type t or a less
    informative one, when there is a mention of type t."""
    sizes, below = [0] * N_TYPES, 0
    for t in range(N_TYPES - 1, -1, -1):
        below += counts[t]
        sizes[t] = below if counts[t] else 0
    return sizes


def tree_weight(counts: TypeCounts, w: Weights) -> float:
    """Weight of a maximum spanning tree over mentions with these type counts (0 for <= 1 mention).

    NAME links reach every mention when there is a name; NOMINAL links reach nominals, pronouns
    and zeros when there is a nominal; PRONOUN links pronouns and zeros; ZERO links the zeros.
    """
    return _nested_tree(w, _class_sizes(_counts(counts)))


def key_weight(counts: TypeCounts, w: Weights) -> float:
    """w_k^L(K): the tree weight of a key chain; w_sing for a singleton, so that finding a
    singleton can be rewarded (a lone mention has no links to weigh)."""
    if sum(counts) == 1:
        return w[3]
    return tree_weight(counts, w)


# ----------------------------------------------------------------------------------------------
# numpy versions: one value per row of an (n, 4) array of type counts


def _nested_trees(w: Weights, sizes: Sequence[np.ndarray]) -> np.ndarray:
    """`_nested_tree` over arrays of set sizes: the same Kruskal by class, heaviest class first,
    each adding the elements of its set beyond the largest set connected so far."""
    weights = w.by_type
    total = np.zeros(len(sizes[0]), dtype=np.float64)
    largest: np.ndarray | int = 1
    for t in sorted(range(N_TYPES), key=lambda t: -weights[t]):
        total += float(weights[t]) * np.maximum(sizes[t] - largest, 0)
        largest = np.maximum(largest, sizes[t])
    return total


def _as_counts(counts: np.ndarray | Sequence[TypeCounts]) -> np.ndarray:
    if not isinstance(counts, np.ndarray):
        counts = [_counts(c) for c in counts]
    array = np.asarray(counts, dtype=np.int64)
    array = array.reshape(-1, array.shape[-1] if array.ndim and array.size else N_TYPES)
    if array.shape[1] < N_TYPES:  # NAME, NOMINAL, PRONOUN only: no zeros
        array = np.pad(array, ((0, 0), (0, N_TYPES - array.shape[1])))
    return array


def _class_size_arrays(c: np.ndarray) -> list[np.ndarray]:
    """`_class_sizes` of every row."""
    below = np.cumsum(c[:, ::-1], axis=1)[:, ::-1]
    return [np.where(c[:, t] > 0, below[:, t], 0) for t in range(N_TYPES)]


def tree_weights(counts: np.ndarray | Sequence[TypeCounts], w: Weights) -> np.ndarray:
    """`tree_weight` of every row of an (n, 4) array of type counts."""
    return _nested_trees(w, _class_size_arrays(_as_counts(counts)))


def key_weights(counts: np.ndarray | Sequence[TypeCounts], w: Weights) -> np.ndarray:
    """`key_weight` of every row (one key chain per row)."""
    c = _as_counts(counts)
    return np.where(c.sum(axis=1) == 1, float(w[3]), tree_weights(c, w))


def common_weights(
    c_counts: np.ndarray | Sequence[TypeCounts], k_sizes: np.ndarray | Sequence[int], s_sizes: np.ndarray | Sequence[int], w: Weights
) -> np.ndarray:
    """w_c^L(C) of every row, row i a cell C = K ∩ S with |K| = k_sizes[i], |S| = s_sizes[i]: its
    tree weight if |C| > 1; w_sing only when the singleton was found exactly (|C| = |K| = |S| = 1),
    because a lone shared mention of larger chains is no success (tests/linguistic_scalar.py: one
    cell at a time)."""
    c = _as_counts(c_counts)
    size = c.sum(axis=1)
    k = np.asarray(k_sizes)
    s = np.asarray(s_sizes)
    exact_singleton = (size == 1) & (k == 1) & (s == 1)
    return np.where(size > 1, tree_weights(c, w), np.where(exact_singleton, float(w[3]), 0.0))


def response_weights(
    part_counts: np.ndarray | Sequence[TypeCounts], part_chain: np.ndarray | Sequence[int], n_chains: int, w: Weights
) -> np.ndarray:
    """w_s^L(S) of every response chain at once, from the parts of S (S split by key chains; a
    response mention in no key chain is a part of its own); w_sing for a singleton S.

    Why not a spanning tree of S itself: a correct but suboptimal link would then cost precision
    as well as recall.  Instead S weighs what it got right (the trees of its parts) plus the spurious
    links needed to glue the parts together, priced at their heaviest: E_t(S), a maximum spanning
    tree over the parts (tests/linguistic_scalar.py: one chain at a time).

    `part_counts[i]` are the type counts of part i and `part_chain[i]` the response chain (0 ..
    n_chains - 1) it belongs to; every non-empty part of every chain must be listed once (the
    contingency cells of a response column plus one single-mention part per twinless mention).
    Empty parts are ignored; a chain with no parts gets 0.
    """
    c = _as_counts(part_counts)
    chain = np.asarray(part_chain, dtype=np.int64)
    sizes = c.sum(axis=1)
    keep = sizes > 0
    c, chain, sizes = c[keep], chain[keep], sizes[keep]

    def per_chain(values: np.ndarray) -> np.ndarray:
        return np.bincount(chain, weights=values, minlength=n_chains)[:n_chains]

    inside = per_chain(np.where(sizes > 1, tree_weights(c, w), 0.0))
    chain_size = per_chain(sizes.astype(np.float64)).astype(np.int64)
    n_parts = per_chain(np.ones(len(chain))).astype(np.int64)
    present = c > 0
    below = np.cumsum(c[:, ::-1], axis=1)[:, ::-1] > 0
    with_type = [per_chain(present[:, t].astype(np.float64)) for t in range(N_TYPES)]
    with_below = [per_chain(below[:, t].astype(np.float64)) for t in range(N_TYPES)]
    between = _nested_trees(w, [np.where(with_type[t] > 0, with_below[t], 0) for t in range(N_TYPES)])
    return np.where(chain_size == 1, float(w[3]), inside + between)

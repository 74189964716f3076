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

from collections.abc import Iterable, Sequence

import numpy as np

from metrics.measures.weights import Weights

TypeCounts = tuple[int, int, int]
"""(number of NAME, NOMINAL, PRONOUN mentions) of a set of mentions; index = MentionType."""


def _nested_tree(w: Weights, all_size: int, nompro_size: int, pro_size: int) -> float:
    """Maximum spanning tree weight when the NAME / NOMINAL / PRONOUN link classes connect nested
    sets of the given sizes (0 for a class that has no link at all).

    Kruskal by class, heaviest first (ties: NAME, NOMINAL, PRONOUN; equal weights give equal totals
    whatever the order): a class adds as many links as its set has elements beyond the largest set
    already connected by heavier classes.
    """
    nam, nom, pro = w[0], w[1], w[2]
    before_nam = max(1, nompro_size if nom > nam else 0, pro_size if pro > nam else 0)
    before_nom = max(1, all_size if nam >= nom else 0, pro_size if pro > nom else 0)
    before_pro = max(1, all_size if nam >= pro else 0, nompro_size if nom >= pro else 0)
    total = 0.0
    if all_size > before_nam:
        total += nam * (all_size - before_nam)
    if nompro_size > before_nom:
        total += nom * (nompro_size - before_nom)
    if pro_size > before_pro:
        total += pro * (pro_size - before_pro)
    return total


def tree_weight(counts: TypeCounts, w: Weights) -> float:
    """Weight of a maximum spanning tree over mentions with these type counts (0 for <= 1 mention).

    NAME links reach every mention when there is a name; NOMINAL links reach nominals and pronouns
    when there is a nominal; PRONOUN links reach the pronouns.
    """
    n_nam, n_nom, n_pro = counts
    return _nested_tree(
        w,
        n_nam + n_nom + n_pro if n_nam else 0,
        n_nom + n_pro if n_nom else 0,
        n_pro,
    )


def key_weight(counts: TypeCounts, w: Weights) -> float:
    """w_k^L(K): the tree weight of a key chain; w_sing for a singleton, so that finding a
    singleton can be rewarded (a lone mention has no links to weigh)."""
    if counts[0] + counts[1] + counts[2] == 1:
        return w[3]
    return tree_weight(counts, w)


def common_weight(c_counts: TypeCounts, k_size: int, s_size: int, w: Weights) -> float:
    """w_c^L(C) for C = K ∩ S: its tree weight if |C| > 1; w_sing only when the singleton was found
    exactly (|C| = |K| = |S| = 1), because a lone shared mention of larger chains is no success."""
    size = c_counts[0] + c_counts[1] + c_counts[2]
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
    n_parts = n_with_nam = n_with_nompro = n_with_nom = n_with_pro = 0
    size = 0
    inside = 0.0
    for part in parts:
        n_nam, n_nom, n_pro = part
        part_size = n_nam + n_nom + n_pro
        if part_size == 0:
            continue
        size += part_size
        n_parts += 1
        if part_size > 1:
            inside += tree_weight(part, w)
        if n_nam:
            n_with_nam += 1
        if n_nom:
            n_with_nom += 1
        if n_nom or n_pro:
            n_with_nompro += 1
        if n_pro:
            n_with_pro += 1
    if size == 1:
        return w[3]
    between = _nested_tree(
        w,
        n_parts if n_with_nam else 0,
        n_with_nompro if n_with_nom else 0,
        n_with_pro,
    )
    return inside + between


# ----------------------------------------------------------------------------------------------
# numpy versions: one value per row of an (n, 3) array of type counts


def _nested_trees(w: Weights, all_size: np.ndarray, nompro_size: np.ndarray, pro_size: np.ndarray) -> np.ndarray:
    """`_nested_tree` over arrays of set sizes: the same Kruskal by class, heaviest class first,
    each adding the elements of its set beyond the largest set connected so far."""
    classes = sorted(zip((float(w[0]), float(w[1]), float(w[2])), (all_size, nompro_size, pro_size)), key=lambda c: -c[0])
    total = np.zeros(len(all_size), dtype=np.float64)
    largest: np.ndarray | int = 1
    for weight, size in classes:
        total += weight * np.maximum(size - largest, 0)
        largest = np.maximum(largest, size)
    return total


def _as_counts(counts: np.ndarray | Sequence[TypeCounts]) -> np.ndarray:
    array = np.asarray(counts, dtype=np.int64)
    return array.reshape(-1, 3)


def tree_weights(counts: np.ndarray | Sequence[TypeCounts], w: Weights) -> np.ndarray:
    """`tree_weight` of every row of an (n, 3) array of type counts."""
    c = _as_counts(counts)
    n_nam, n_nom, n_pro = c[:, 0], c[:, 1], c[:, 2]
    return _nested_trees(w, np.where(n_nam > 0, n_nam + n_nom + n_pro, 0), np.where(n_nom > 0, n_nom + n_pro, 0), n_pro)


def key_weights(counts: np.ndarray | Sequence[TypeCounts], w: Weights) -> np.ndarray:
    """`key_weight` of every row (one key chain per row)."""
    c = _as_counts(counts)
    return np.where(c.sum(axis=1) == 1, float(w[3]), tree_weights(c, w))


def common_weights(
    c_counts: np.ndarray | Sequence[TypeCounts], k_sizes: np.ndarray | Sequence[int], s_sizes: np.ndarray | Sequence[int], w: Weights
) -> np.ndarray:
    """`common_weight` of every row: row i is a cell C = K ∩ S with |K| = k_sizes[i], |S| = s_sizes[i]."""
    c = _as_counts(c_counts)
    size = c.sum(axis=1)
    k = np.asarray(k_sizes)
    s = np.asarray(s_sizes)
    exact_singleton = (size == 1) & (k == 1) & (s == 1)
    return np.where(size > 1, tree_weights(c, w), np.where(exact_singleton, float(w[3]), 0.0))


def response_weights(
    part_counts: np.ndarray | Sequence[TypeCounts], part_chain: np.ndarray | Sequence[int], n_chains: int, w: Weights
) -> np.ndarray:
    """`response_weight` of every response chain at once.

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
    with_nam = per_chain((c[:, 0] > 0).astype(np.float64)).astype(np.int64)
    with_nom = per_chain((c[:, 1] > 0).astype(np.float64)).astype(np.int64)
    with_nompro = per_chain(((c[:, 1] > 0) | (c[:, 2] > 0)).astype(np.float64)).astype(np.int64)
    with_pro = per_chain((c[:, 2] > 0).astype(np.float64)).astype(np.int64)
    between = _nested_trees(w, np.where(with_nam > 0, n_parts, 0), np.where(with_nom > 0, with_nompro, 0), with_pro)
    return np.where(chain_size == 1, float(w[3]), inside + between)

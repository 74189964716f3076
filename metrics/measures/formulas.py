"""The metrics of one document, computed from its contingency table under a weight scheme.

Chen & Ng (2013) show MUC, B3, CEAFm and CEAFe are each one formula over three weight functions:
w_c of a common part C = K ∩ S, w_k of a key chain, w_s of a response chain.  The agnostic
weights (sizes) give the official metrics; the linguistic weights give LMUC, LB3, LCEAFm, LCEAFe.
So each metric is written once here, taking the three weight arrays; `agnostic_weights` and
`linguistic_weights` produce them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from metrics.measures.components import component_matching, component_total
from metrics.measures.score import Score, ratio
from metrics.measures.table import ChainTypes, Table
from metrics.measures.weights import Weights


class ChainWeights(NamedTuple):
    """w_c per cell, w_k per key chain, w_s per response chain (floats)."""

    common: np.ndarray
    key: np.ndarray
    response: np.ndarray


def agnostic_weights(table: Table, *, links: bool = False, key_side: bool = False) -> ChainWeights:
    """OMetric weights: sizes, or with `links` sizes minus one (|C|-1, |K|-1, |S|-1: MUC's).

    |C| is counted as v8.01 counts it for the metric: on the key side for CEAF (`key_side`),
    shared otherwise (the cell sizes of `Table` differ only when a key span sits in two key chains).
    """
    if links:
        return ChainWeights(np.maximum(table.primary - 1, 0).astype(np.float64),
                            np.maximum(table.key_sizes - 1, 0).astype(np.float64),
                            np.maximum(table.response_sizes - 1, 0).astype(np.float64))
    common = table.key_side if key_side else table.shared
    return ChainWeights(common.astype(np.float64), table.key_sizes.astype(np.float64),
                        table.response_sizes.astype(np.float64))


def linguistic_weights(table: Table, types: ChainTypes, w: Weights) -> ChainWeights:
    """LMetric weights w^L: spanning-tree weights over typed mentions (closed forms)."""
    from metrics.measures.linguistic import common_weights, key_weights, response_weights

    return ChainWeights(
        common_weights(types.cells, table.key_sizes[table.cell_key],
                       table.response_sizes[table.cell_response], w),
        key_weights(types.key, w),
        response_weights(types.parts, table.part_response, table.n_response_chains, w),
    )


def muc(table: Table, cw: ChainWeights) -> Score:
    """MUC / LMUC: common links over key links and over response links."""
    correct = float(cw.common.sum())
    return Score(correct, float(cw.key.sum()), correct, float(cw.response.sum()))


def bcub(table: Table, cw: ChainWeights) -> Score:
    """B3 / LB3: per mention R(m) = w_c/w_k, P(m) = w_c/w_s, averaged over key / response mentions."""
    k, r = table.cell_key, table.cell_response
    rec = float((table.primary * ratio(cw.common, cw.key[k])).sum())
    prec = float((table.primary * ratio(cw.common, cw.response[r])).sum())
    return Score(rec, float(table.key_sizes.sum()), prec, float(table.response_sizes.sum()))


def ceaf_mention(table: Table, cw: ChainWeights) -> Score:
    """CEAFm / LCEAFm: phi = w_c, best one-to-one chain alignment, over total w_k and w_s."""
    total = best_alignment(table, cw.common)
    return Score(total, float(cw.key.sum()), total, float(cw.response.sum()))


def ceaf_entity(table: Table, cw: ChainWeights) -> Score:
    """CEAFe / LCEAFe: phi = 2 w_c / (w_k + w_s), over the number of chains."""
    k, r = table.cell_key, table.cell_response
    phi = ratio(2.0 * cw.common, cw.key[k] + cw.response[r])
    total = best_alignment(table, phi)
    return Score(total, float(np.count_nonzero(table.key_sizes)), total,
                 float(np.count_nonzero(table.response_sizes)))


def luo_phi(table: Table, exact: bool) -> np.ndarray:
    """Luo's (2005) entity similarities phi1 and phi2 of each cell (key chain K, response chain R):
    phi1(K, R) = 1 if R = K (equation 6, `exact`), phi2(K, R) = 1 if R is contained in K (equation 7), else 0.
    |K ∩ R| is counted as CEAFe counts it (v8.01's key-side size)."""
    k, r = table.cell_key, table.cell_response
    inside = table.key_side == table.response_sizes[r]
    if exact:
        inside &= table.key_side == table.key_sizes[k]
    return inside.astype(np.float64)


def ceaf_entity_phi(table: Table, phi: np.ndarray) -> Score:
    """Entity-based CEAF under a similarity with phi(E, E) = 1 for every entity (phi1, phi2):
    recall = Phi(g*) / number of key entities, precision = Phi(g*) / number of response entities.

    phi1 and phi2 are 0 or 1, so the best alignment's Phi is the size of a largest matching of
    the cells where phi is 1 (an exact integer, whichever best alignment is taken)."""
    ones = phi == 1.0
    total = float(matching_size(table.cell_key[ones].tolist(), table.cell_response[ones].tolist()))
    return Score(total, float(np.count_nonzero(table.key_sizes)), total,
                 float(np.count_nonzero(table.response_sizes)))


def matching_size(rows: list[int], columns: list[int]) -> int:
    """The most (row, column) pairs that can be chosen with no row or column twice: the size of
    a largest matching of the bipartite graph with these edges (`largest_matching`)."""
    return len(largest_matching(rows, columns))


def largest_matching(rows: list[int], columns: list[int]) -> dict[int, int]:
    """A largest matching of the bipartite graph with these edges, as column -> row (Kuhn's
    augmenting paths, walked with an explicit stack).  CEAF's 0/1 similarities need no weights,
    and their graphs are nearly matchings already: most rows find a free column at once.  The
    graph of many documents' cells gives each document a largest matching of its own."""
    edges: dict[int, list[int]] = {}
    for r, c in zip(rows, columns):
        edges.setdefault(r, []).append(c)
    owner: dict[int, int] = {}
    for start in edges:
        seen: set[int] = set()
        path: list[tuple[int, int]] = []  # (row, column taken for it) along the augmenting path
        stack = [(start, iter(edges[start]))]
        while stack:
            row, untried = stack[-1]
            for c in untried:
                if c in seen:
                    continue
                seen.add(c)
                path.append((row, c))
                if c not in owner:  # a free column: flip the path
                    for r, col in path:
                        owner[col] = r
                    stack = []
                    break
                stack.append((owner[c], iter(edges[owner[c]])))
                break
            else:
                stack.pop()
                if path and stack:
                    path.pop()
    return owner


def best_alignment(table: Table, phi: np.ndarray) -> float:
    """Maximum total phi of a one-to-one key/response chain alignment (Kuhn-Munkres).

    Only the total is asked for, so a component with two chains on one side takes its best pair
    of partners directly, ties and all (any best pairs give the same total); the sums are taken
    in the same order as `best_cells` would give them, so the total is the same to the last bit."""
    groups = best_cells(table, phi, components=False)
    total = 0.0
    for cells in groups:
        total += float(phi[cells].sum())
    for component in component_totals(table, phi):
        total += component
    return total


def component_totals(table: Table, phi: np.ndarray) -> list[float]:
    """The best total of each of the table's components for the solver (`Table.components`, in
    order), each summed as the solver's pairs come (`components.component_total`): what
    `best_alignment` adds to its simple and star cells' sums, one after another.  (Taking them at
    once, `components.best_totals`, pays for many documents' components, not for one document's:
    a book's cost is its large components, which go to the solver either way.)"""
    return [component_total(at_row, at_col, phi[cells].tolist(), n_rows, n_cols)
            for at_row, at_col, cells, n_rows, n_cols in table.component_places()]


def best_cells(table: Table, phi: np.ndarray, components: bool = True) -> list[np.ndarray | list[int]]:
    """The cells (key chain, response chain pairs) of a best one-to-one alignment, in groups.

    Pairs of chains that overlap nothing else are matched directly (the first group), a chain
    alone on its side of a component takes its best partner (the second), and each other connected
    component of the overlap graph is solved on its own (a list each; left out without
    `components`): in plain Python when small (`metrics.measures.assignment`), by scipy otherwise, which is
    imported only then.  A component's pairs without a common cell (phi 0) are not cells and are
    left out.
    """
    groups: list[np.ndarray | list[int]] = [table.simple_cells]
    if len(table.star_starts):
        groups.append(table.star_cells[first_best(phi[table.star_cells], table.star_starts)])
    if not components:
        return groups
    for at_row, at_col, cells, n_rows, n_cols in table.component_places():
        groups.append(cells[component_matching(at_row, at_col, phi[cells].tolist(), n_rows, n_cols)].tolist())
    return groups


def first_best(values: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Where the largest value of each group (groups from `starts` on, in order) first stands: each
    group's `np.argmax`, for all groups in one pass (a document has hundreds of star components)."""
    best = np.maximum.reduceat(values, starts)
    group = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(values))))
    place = np.where(values == best[group], np.arange(len(values)), len(values))
    return np.minimum.reduceat(place, starts)


def lea(table: Table) -> Score:
    """LEA (Moosavi & Strube 2016): entity importance |e| times the fraction of its links resolved.

    A singleton has one self-link, resolved when it is a singleton on the other side too.
    """
    recall_terms, precision_terms, ks, rs = lea_terms(table.cell_key, table.cell_response, table.shared,
                                                      table.key_sizes, table.response_sizes)
    return Score(float(recall_terms.sum()), float(ks.sum()), float(precision_terms.sum()), float(rs.sum()))


def lea_terms(cell_key: np.ndarray, cell_response: np.ndarray, shared: np.ndarray, key_sizes: np.ndarray,
              response_sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """LEA's recall and precision term of each cell (a chain's size times its resolved share of
    links), with the chains' sizes as floats: one document's table, or many laid end to end
    (`batch.lea` sums them per document)."""
    k, r = cell_key, cell_response
    n = shared.astype(np.float64)
    ks = key_sizes.astype(np.float64)
    rs = response_sizes.astype(np.float64)
    links_k = np.where(ks == 1, 1.0, ks * (ks - 1) / 2)
    links_r = np.where(rs == 1, 1.0, rs * (rs - 1) / 2)
    common = n * (n - 1) / 2
    both_single = (n == 1) & (ks[k] == 1) & (rs[r] == 1)
    common = np.where(both_single, 1.0, common)
    return ks[k] * ratio(common, links_k[k]), rs[r] * ratio(common, links_r[r]), ks, rs


def mentions(table: Table) -> Score:
    """Mention identification: exact span matches over distinct key and response spans."""
    return Score(float(table.matched), float(table.n_key_spans), float(table.matched),
                 float(table.n_response_spans))

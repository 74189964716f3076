"""The key x response contingency table of one document: everything the metrics need, built once.

Every metric (MUC, B3, CEAF, LEA and their linguistically aware variants) is a function of the
chains' sizes, the sizes of their common parts C = K ∩ S, and, for the LMetrics, the mention-type
counts of those parts.  So a document is reduced once to arrays over chains and over the non-empty
cells of the table, and each metric (and each new weight vector) is arithmetic on those arrays.

In clean data a cell has one size.  v8.01 gives it three when the key holds a span in two chains
(ontogum does): `primary` counts the response mentions it attributes to the key chain (the last
key chain holding the span), `shared` counts distinct common ids, `key_side` counts key positions
whose id is in the response chain.  MUC and B3 use `primary` for attribution and `shared` for
|K ∩ S|; CEAF uses `key_side`.  All three are the same array in clean documents.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .alignment import Alignment

_EMPTY_INT = np.zeros(0, dtype=np.int64)


@dataclass
class Table:
    """Weight-independent summary of one aligned document."""

    key_sizes: np.ndarray
    """Mention positions per key chain (duplicates counted, as v8.01 counts them)."""
    response_sizes: np.ndarray
    key_types: np.ndarray
    """(key chains, 3) counts of NAME / NOMINAL / PRONOUN mentions per key chain."""
    cell_key: np.ndarray
    cell_response: np.ndarray
    primary: np.ndarray
    shared: np.ndarray
    key_side: np.ndarray
    cell_types: np.ndarray
    """(cells, 3) type counts of the common part C of each cell."""
    part_response: np.ndarray
    part_types: np.ndarray
    """Parts of each response chain for w_s^L: its share of each key chain, and each twinless mention."""
    id_types: np.ndarray
    n_key_spans: int
    n_response_spans: int
    matched: int
    components: list[tuple[np.ndarray, np.ndarray, np.ndarray]]
    """CEAF sub-problems with more than one chain on some side: (cell indices, key rows, response cols)."""
    simple_cells: np.ndarray
    """Cells that form a component of their own (one key chain, one response chain): no solver needed."""

    @property
    def n_key_chains(self) -> int:
        return len(self.key_sizes)

    @property
    def n_response_chains(self) -> int:
        return len(self.response_sizes)


def build_table(alignment: Alignment, id_types: np.ndarray) -> Table:
    """Reduce an alignment (and the mention type of each id) to a contingency table."""
    n_ids = len(alignment.spans)
    key_chains = alignment.key_chains
    resp_chains = alignment.response_chains
    n_key, n_resp = len(key_chains), len(resp_chains)

    key_sizes = np.fromiter((len(c) for c in key_chains), dtype=np.int64, count=n_key)
    resp_sizes = np.fromiter((len(c) for c in resp_chains), dtype=np.int64, count=n_resp)
    key_flat = np.fromiter((i for c in key_chains for i in c), dtype=np.int64, count=int(key_sizes.sum()))
    key_owner = np.repeat(np.arange(n_key, dtype=np.int64), key_sizes)
    resp_flat = np.fromiter((i for c in resp_chains for i in c), dtype=np.int64, count=int(resp_sizes.sum()))
    resp_owner = np.repeat(np.arange(n_resp, dtype=np.int64), resp_sizes)

    key_types = _type_counts(key_owner, id_types[key_flat], n_key)

    # Primary key chain of each id: the last key chain holding it (v8.01's Indexa).
    # Chain indices grow along key_flat, so the last chain holding an id is the largest one.
    primary_chain = np.full(n_ids, -1, dtype=np.int64)
    np.maximum.at(primary_chain, key_flat, key_owner)

    k_of_resp = primary_chain[resp_flat]
    in_key = k_of_resp >= 0
    codes = k_of_resp[in_key] * max(n_resp, 1) + resp_owner[in_key]
    cell_codes, inverse, primary = np.unique(codes, return_inverse=True, return_counts=True)
    cell_key = cell_codes // max(n_resp, 1)
    cell_resp = cell_codes % max(n_resp, 1)
    cell_types = _type_counts(inverse, id_types[resp_flat[in_key]], len(cell_codes))

    # Parts of response chains: primary shares (cells) plus one part per twinless position.
    twinless = ~in_key
    part_response = np.concatenate([cell_resp, resp_owner[twinless]])
    part_types = np.concatenate([cell_types, np.eye(3, dtype=np.int64)[id_types[resp_flat[twinless]]]])

    regular = len(key_flat) == alignment.n_key_ids
    if regular:
        shared = key_side = primary
    else:
        cell_key, cell_resp, primary, shared, key_side, cell_types = _irregular_cells(
            alignment, id_types, primary_chain, n_resp)

    components, simple = _components(cell_key, cell_resp, n_key, n_resp)
    return Table(
        key_sizes=key_sizes, response_sizes=resp_sizes, key_types=key_types,
        cell_key=cell_key, cell_response=cell_resp, primary=primary, shared=shared,
        key_side=key_side, cell_types=cell_types, part_response=part_response,
        part_types=part_types, id_types=id_types, n_key_spans=alignment.n_key_ids,
        n_response_spans=alignment.response_spans, matched=alignment.matched,
        components=components, simple_cells=simple,
    )


def _type_counts(group: np.ndarray, types: np.ndarray, n_groups: int) -> np.ndarray:
    """(n_groups, 3) counts of each mention type per group."""
    out = np.zeros((n_groups, 3), dtype=np.int64)
    if len(group):
        np.add.at(out, (group, types), 1)
    return out


def _irregular_cells(alignment: Alignment, id_types: np.ndarray, primary_chain: np.ndarray, n_resp: int):
    """Cells when a key span sits in several key chains: the three v8.01 sizes differ here."""
    members: dict[int, dict[int, int]] = {}
    for k, chain in enumerate(alignment.key_chains):
        for mid in chain:
            members.setdefault(mid, {})
            members[mid][k] = members[mid].get(k, 0) + 1
    cells: dict[tuple[int, int], list[int]] = {}
    for r, chain in enumerate(alignment.response_chains):
        for mid in chain:
            for k, multiplicity in members.get(mid, {}).items():
                cell = cells.setdefault((k, r), [0, 0, 0, 0, 0, 0])
                cell[0] += int(primary_chain[mid] == k)
                cell[1] += 1
                cell[2] += multiplicity
                cell[3 + int(id_types[mid])] += 1
    keys = sorted(cells)
    data = np.array([cells[c] for c in keys], dtype=np.int64).reshape(len(keys), 6)
    ck = np.array([c[0] for c in keys], dtype=np.int64)
    cr = np.array([c[1] for c in keys], dtype=np.int64)
    return ck, cr, data[:, 0], data[:, 1], data[:, 2], data[:, 3:6]


def _components(cell_key: np.ndarray, cell_resp: np.ndarray, n_key: int, n_resp: int):
    """Split the CEAF assignment into connected components of the key-response overlap graph.

    Most chains overlap exactly one chain on the other side, and such a pair is matched without a
    solver; only the remaining components (small) go to the Hungarian algorithm.
    """
    deg_key = np.bincount(cell_key, minlength=n_key) if n_key else _EMPTY_INT
    deg_resp = np.bincount(cell_resp, minlength=n_resp) if n_resp else _EMPTY_INT
    simple_mask = (deg_key[cell_key] == 1) & (deg_resp[cell_resp] == 1)
    simple = np.nonzero(simple_mask)[0]
    rest = np.nonzero(~simple_mask)[0]
    if len(rest) == 0:
        return [], simple
    parent = list(range(n_key + n_resp))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for c in rest.tolist():
        a, b = find(int(cell_key[c])), find(n_key + int(cell_resp[c]))
        if a != b:
            parent[a] = b
    groups: dict[int, list[int]] = {}
    for c in rest.tolist():
        groups.setdefault(find(int(cell_key[c])), []).append(c)
    components = []
    for cells in groups.values():
        idx = np.array(cells, dtype=np.int64)
        components.append((idx, np.unique(cell_key[idx]), np.unique(cell_resp[idx])))
    return components, simple

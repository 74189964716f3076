"""A clean document's overlap graph as arrays, for CEAF-e's change of many fixes at once
(`metrics.errors.ceaf_arrays`): its cells by response chain and by key chain, its components,
each component's best matching before any change certified by key-chain duals, and a
depth-first tree of the components where a fix removes a cell (its bridges).

Why its own module: `ceaf_arrays` computes the changes; this is what they read, found once per
document and per component (a component's certificate and tree when a fix first needs them; the
certificates of all the document's stars at once, when the first is needed).
"""

from __future__ import annotations

from itertools import chain
from typing import NamedTuple

import numpy as np

from metrics.errors.best_matching import MARGIN, certified, matching_duals
from metrics.errors.ceaf_change import CeafTable
from metrics.mentions.chains import ranges as index_ranges



class Before(NamedTuple):
    """What a pass found of one document's components before any change, in the document's own
    numbers (`TableArrays.blocks_before`): each key chain's and response chain's component (as
    `CeafTable.component_index` gives them), the best alignment of each component found, by
    component, and the key chains' duals of the components certified, with those components."""

    components: tuple[list[int], list[int]]
    optimum: dict[int, float]
    duals: dict[int, float]
    certified: set[int]


class TableArrays:
    """A clean document's cells as arrays (by response chain and by key chain), its components'
    sizes, and (found when a fix first needs them) each component's certified best matching and
    its bridges.  Nodes: key chain k is node k, response chain t node n_rows + t; a component is
    named by its first key chain (`CeafTable.component_index`)."""

    def __init__(self, table: CeafTable) -> None:
        self.table = table
        rows, cols = table.row_cells, table.col_cells
        self.n_rows, self.n_cols = n_rows, n_cols = len(rows), len(cols)
        # response chain n_cols stands for "none" (a chain a fix makes, or no chain): no cells
        self.key_sizes = np.array(table.key_sizes, dtype=np.int64)
        self.col_sizes = np.array([*table.col_sizes, 0], dtype=np.int64)
        self.col_ptr, self.col_rows, self.col_n = _csr([*cols, {}])
        self.row_ptr, self.row_cols, self.row_n = _csr(rows)
        root_row, root_col = table.component_index()
        n_nodes = n_rows + n_cols + 1
        self.root_row = np.array(root_row, dtype=np.int64).reshape(-1)
        self.root_col = np.array([*root_col, n_nodes - 1], dtype=np.int64)
        self.comp_rows = np.bincount(self.root_row, minlength=n_nodes)
        self.comp_cols = np.bincount(self.root_col, minlength=n_nodes)
        self.members = np.argsort(self.root_row, kind="stable")  # key chains by component, in order
        self.member_start = np.searchsorted(self.root_row[self.members], np.arange(n_nodes))
        # each component's certified best matching, found when first asked for
        self.known = np.zeros(n_nodes, dtype=bool)
        self.stars_known = False
        self.certified = np.zeros(n_nodes, dtype=bool)
        self.dual = np.zeros(n_rows)
        self.weight = np.zeros(n_rows)  # a key chain's weight in its matching, 0.0 if left out
        self.partner_of_row = np.full(n_rows, -1, dtype=np.int64)
        self.partner_of_col = np.full(n_cols + 1, -1, dtype=np.int64)
        # each component's depth-first tree, found when a fix first removes one of its cells
        self.searched = np.zeros(n_nodes, dtype=bool)
        self.enter = np.zeros(n_nodes, dtype=np.int64)
        self.leave = np.zeros(n_nodes, dtype=np.int64)
        self.low = np.zeros(n_nodes, dtype=np.int64)
        self.parent = np.full(n_nodes, -1, dtype=np.int64)
        self.clock = 0
        self._kept: tuple[np.ndarray, np.ndarray] | None = None
        self.optimum: dict[int, float] = {}
        self._matched: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def members_of(self, component: int) -> list[int]:
        start = int(self.member_start[component])
        return self.members[start:start + int(self.comp_rows[component])].tolist()

    def certify(self, components: np.ndarray, metric: str) -> np.ndarray:
        """Whether each component's best matching before any change is certified unique by its key
        chains' duals over every cell of the component (the leaves too); each found once."""
        if not self.stars_known:  # every star of the document at once, when first asked
            self.stars_known = True
            stars = np.unique(self.root_row[np.diff(self.row_ptr) > 0])
            stars = stars[(self.comp_rows[stars] == 1) | (self.comp_cols[stars] == 1)]
            self.known[stars] = True
            self._certify_stars(stars)
        todo = np.unique(components[~self.known[components]])
        if len(todo):
            self.known[todo] = True
            self._matched = None
            for c in todo.tolist():
                self.certified[c] = self._certify(c, metric)
        return self.certified[components]

    def _certify_stars(self, components: np.ndarray) -> None:
        """`_certify` of stars, all at once (most components are: 5,868 of the 7,392 the corpus
        certifies, each a Python call before).  A star on one key chain: every edge, the best
        certified by the dual halfway between it and the second, or alone with dual 0; a star on
        one response chain: only its first best leaf is kept (the reduction's), with dual 0.  The
        same floats and tests as `_certify`'s were, element by element."""
        on_row = components[self.comp_rows[components] == 1]
        owner, cell = ranges(self.row_ptr[on_row], self.row_ptr[on_row + 1] - self.row_ptr[on_row])
        t = self.row_cols[cell]
        weight = 2.0 * self.row_n[cell] / (self.key_sizes[on_row][owner] + self.col_sizes[t])
        weights, cols = best_edges(owner, weight, t, cell, len(on_row))
        best, second, col = weights[:, 0], weights[:, 1], cols[:, 0]
        alone = second == -np.inf
        with np.errstate(invalid="ignore"):
            dual = np.where(alone, 0.0, (best + second) / 2)
            good = np.where(alone, best >= MARGIN, (best - second >= 2 * MARGIN) & (best - dual >= MARGIN)
                            & (second - dual <= -MARGIN))
        self._certified_pairs(on_row, on_row, col, weight=best, dual=dual, good=good)
        on_col = components[self.comp_rows[components] > 1]
        t = self.row_cols[self.row_ptr[on_col]]  # the one response chain of each
        owner, cell = ranges(self.col_ptr[t], self.col_ptr[t + 1] - self.col_ptr[t])
        row = self.col_rows[cell]
        weight = 2.0 * self.col_n[cell] / (self.key_sizes[row] + self.col_sizes[t][owner])
        weights, leaves = best_edges(owner, weight, row, cell, len(on_col), width=1)  # every key chain is a leaf
        best, leaf = weights[:, 0], leaves[:, 0]
        self._certified_pairs(on_col, leaf, t, weight=best, dual=np.zeros(len(on_col)), good=best >= MARGIN)

    def _certified_pairs(self, components: np.ndarray, rows: np.ndarray, cols: np.ndarray, *,
                         weight: np.ndarray, dual: np.ndarray, good: np.ndarray) -> None:
        """Record stars' certificates: each good component's matched pair (rows[i], cols[i]) of
        `weight` and its key chain's dual (every other key chain of a star keeps dual 0)."""
        self.certified[components] = good
        rows, cols = rows[good], cols[good]
        self.partner_of_row[rows] = cols
        self.partner_of_col[cols] = rows
        self.weight[rows] = weight[good]
        self.dual[rows] = dual[good]

    def matched_rows(self, components: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(which of `components`, key chain) of every key chain each certified component's best
        matching holds, in key-chain order.  Why not every key chain: a component's total is the
        sum of its chains' weights in key-chain order, and a chain left out adds 0.0, which
        changes no float; a response chain that merged thousands of key chains makes a component
        of thousands with a matching of one."""
        if self._matched is None:
            matched = self.members[self.weight[self.members] != 0.0]
            roots = self.root_row[matched]
            n_nodes = len(self.known)
            self._matched = (matched, np.searchsorted(roots, np.arange(n_nodes)), np.bincount(roots, minlength=n_nodes))
        matched, start, count = self._matched
        owner, at = ranges(start[components], count[components])
        return owner, matched[at]

    def _certify(self, component: int, metric: str) -> bool:
        """Certify one component that is no star: its best matching as `delta` reduces the
        component, proved unique by key-chain duals (`best_matching.certified`), written into the
        partners, weights, duals and, for a component `delta` sums as a whole, its optimum; False
        (nothing written) where no certificate is found, and the component's changes go to the
        search.  Why a certificate: after a change only the changed columns are judged again,
        which is sound only where every other column keeps its partner by a margin."""
        table = self.table
        members = self.members_of(component)
        key_sizes, col_sizes, row_cells, col_cells = table.key_sizes, table.col_sizes, table.row_cells, table.col_cells
        edges: dict[tuple[int, int], float] = {}
        # no star (`_certify_stars`): the component as `delta` reduces it: hubs, and each hub's
        # first best leaf only (the reduction breaks leaves' ties, so the matching is unique where
        # the leaves tie)
        leaves = table.leaves(metric)
        for k in members:
            cells = row_cells[k]
            if len(cells) > 1:
                for t in leaves.row_hubs[k] + leaves.row_leaves[k][:1]:
                    edges[(k, t)] = 2.0 * cells[t] / (key_sizes[k] + col_sizes[t])
                for t in leaves.row_hubs[k]:
                    first = leaves.col_leaves(t, col_sizes[t])[:1]
                    for leaf in first:
                        edges[(leaf, t)] = 2.0 * col_cells[t][leaf] / (key_sizes[leaf] + col_sizes[t])
        duals = matching_duals(list(edges), edges)
        cells = list(edges)
        matched = certified(cells, edges, duals) if duals is not None else None
        if matched is None:
            return False
        best: dict[int, tuple[float, int]] = {}  # response chain -> (its best slack, key chain)
        for (k, t), w in edges.items():
            slack = w - duals.get(k, 0.0)
            if t not in best or slack > best[t][0]:
                best[t] = (slack, k)
        for t, (slack, k) in best.items():
            if slack >= MARGIN:  # certified: these are the matching's pairs, one per key chain
                self.partner_of_row[k] = t
                self.partner_of_col[t] = k
                self.weight[k] = edges[(k, t)]
        for k in members:
            self.dual[k] = duals.get(k, 0.0)
        if len(members) > 1 and self.comp_cols[component] > 1 and len(row_cells[component]) > 1:
            # `delta` reduces the component as here (its first key chain is no leaf): its unique
            # best matching, summed in key-chain order from 0 as `best_total` sums it
            total = 0.0
            for k in members:
                total += self.weight[k]
            self.optimum[component] = total
        return True

    def blocks_before(self, first_rows: list[int], first_cols: list[int], sizes: list[tuple[int, int]]) -> list[Before]:
        """What this table (several documents' joined: `delta.joined`) knows of each document's
        components before any change (`Before`; `sizes`: each document's key chains and response
        chains; a component's optimum as `component_optimum` found it).  Why: each document's
        table found them again, one search, solve and Bellman-Ford per component, for the changes
        the arrays leave to the search and for its categories.  No cell joins two documents, so
        each component is one document's, its chains in the same order: the same values (a dual
        certificate proves the unique best matching whichever duals prove it, so duals found
        otherwise only change which changes the solver sees, never a value: `best_matching`)."""
        n_all = self.n_rows
        certified_rows = np.flatnonzero(self.certified[self.root_row])
        row_block = np.searchsorted(first_rows, certified_rows, side="right") - 1
        found = np.array(sorted(self.optimum), dtype=np.int64)
        found_block = np.searchsorted(first_rows, found, side="right") - 1
        values = [self.optimum[c] for c in found.tolist()]
        out = []
        for d, (first_row, first_col, (n_rows, n_cols)) in enumerate(zip(first_rows, first_cols, sizes)):
            rows = self.root_row[first_row:first_row + n_rows] - first_row
            cols = self.root_col[first_col:first_col + n_cols]
            cols = np.where(cols >= n_all, cols - n_all - first_col + n_rows, cols - first_row)
            lo, hi = np.searchsorted(found_block, (d, d + 1)) if len(found) else (0, 0)
            optimum = {c - first_row: values[i] for i, c in zip(range(lo, hi), found[lo:hi].tolist())}
            lo, hi = np.searchsorted(row_block, (d, d + 1))
            keys = certified_rows[lo:hi]
            duals = dict(zip((keys - first_row).tolist(), self.dual[keys].tolist()))
            out.append(Before((rows.tolist(), cols.tolist()), optimum, duals,
                              set((self.root_row[keys] - first_row).tolist())))
        return out

    def reduction_keeps(self, metric: str) -> tuple[np.ndarray, np.ndarray]:
        """Where a change makes `delta`'s reduction keep a leaf it dropped before: (for each key
        chain, the response chain it is a leaf of, when that chain has other key chains: once the
        key chain changes, that chain's next leaf comes in, -1 otherwise; for each response chain
        that is a key chain's first leaf of several, that key chain's next leaf: it comes in when
        the response chain changes, -1 otherwise)."""
        if self._kept is None:
            leaves = self.table.leaves(metric)
            of_row = np.full(self.n_rows, -1, dtype=np.int64)
            at = np.flatnonzero(np.diff(self.row_ptr) == 1)
            t = self.row_cols[self.row_ptr[at]]
            of_row[at] = np.where(np.diff(self.col_ptr)[t] > 1, t, -1)
            next_leaf = np.full(self.n_cols + 1, -1, dtype=np.int64)
            for order in leaves.row_leaves:
                if len(order) > 1:
                    next_leaf[order[0]] = order[1]
            self._kept = (of_row, next_leaf)
        return self._kept

    def search(self, components: np.ndarray) -> None:
        """Each component's depth-first tree over its chains (entry and exit order, each node's
        parent and the lowest entry its subtree reaches): a tree edge (p, c) is a bridge when
        low[c] > enter[p], and removing it leaves c's subtree, the nodes entered from enter[c] to
        leave[c], apart."""
        row_cells, col_cells, n_rows = self.table.row_cells, self.table.col_cells, self.n_rows
        enter, leave, low, parent = self.enter, self.leave, self.low, self.parent
        for c in np.unique(components[~self.searched[components]]).tolist():
            self.searched[c] = True
            clock = self.clock + 1  # entries count from 1: 0 is "not entered"
            enter[c] = low[c] = clock
            stack = [(c, iter(row_cells[c]))]
            while stack:
                node, todo = stack[-1]
                for other in todo:
                    nxt = other + n_rows if node < n_rows else other
                    if nxt == parent[node]:
                        continue
                    if enter[nxt]:
                        if enter[nxt] < low[node]:
                            low[node] = enter[nxt]
                        continue
                    clock += 1
                    enter[nxt] = low[nxt] = clock
                    parent[nxt] = node
                    stack.append((nxt, iter(col_cells[nxt - n_rows] if nxt >= n_rows else row_cells[nxt])))
                    break
                else:
                    stack.pop()
                    leave[node] = clock + 1
                    if stack and low[node] < low[stack[-1][0]]:
                        low[stack[-1][0]] = low[node]
            self.clock = clock

    def component_optimum(self, components: np.ndarray, metric: str) -> np.ndarray:
        """Each component's best alignment before any change, as `delta` keeps it (a star's is
        its largest edge, as `best_matching.at_most_one_choice` takes it: no search)."""
        optimum = self.optimum
        table = self.table
        for c in components.tolist():
            if c not in optimum:
                if self.comp_rows[c] == 1:
                    optimum[c] = max(2.0 * n / (table.key_sizes[c] + table.col_sizes[t]) for t, n in table.row_cells[c].items())
                elif self.comp_cols[c] == 1:
                    (t,) = table.row_cells[c]
                    size = table.col_sizes[t]
                    optimum[c] = max(2.0 * n / (table.key_sizes[k] + size) for k, n in table.col_cells[t].items())
                else:
                    optimum[c] = table.component_best(metric, c)
        return np.array([optimum[c] for c in components.tolist()], dtype=np.float64).reshape(-1)


def best_edges(owner: np.ndarray, weight: np.ndarray, partner: np.ndarray, place: np.ndarray, n: int, *,
               width: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Per owner 0..n-1, its `width` best weights (-inf where it has fewer edges) and their
    partners (-1), best first, equal weights in `place` order (as a stable sort by weight takes
    them): an (n, width) array of each."""
    order = np.lexsort((place, -weight, owner))
    group = owner[order]
    rank = np.arange(len(order)) - np.searchsorted(group, group)
    order, group, rank = order[rank < width], group[rank < width], rank[rank < width]
    weights, partners = np.full((n, width), -np.inf), np.full((n, width), -1, dtype=np.int64)
    weights[group, rank], partners[group, rank] = weight[order], partner[order]
    return weights, partners


def ranges(starts: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(which range, index) of every index of the ranges [start, start + length): the indices as
    `chains.ranges` lays them out, with the range each belongs to."""
    return np.repeat(np.arange(len(starts)), lengths), index_ranges(starts, starts + lengths).astype(np.int64)


def _csr(cells: list[dict[int, int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(start of each chain's cells, partner chain, count) of one side's cells, in dict order."""
    ptr = np.zeros(len(cells) + 1, dtype=np.int64)
    np.cumsum(list(map(len, cells)), out=ptr[1:])
    partners = np.fromiter(chain.from_iterable(cells), dtype=np.int64, count=int(ptr[-1]))
    counts = np.fromiter(chain.from_iterable(map(dict.values, cells)), dtype=np.int64, count=int(ptr[-1]))
    return ptr, partners, counts

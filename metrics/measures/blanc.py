"""BLANC link counts (Luo et al. 2014, as v8.01 computes them) without enumerating mention pairs.

v8.01 builds sets of mention-id pairs: coreference links (pairs inside a chain) and
non-coreference links (pairs across two chains of the document), for key and response, and
intersects them.  For ids that sit in exactly one chain per side this is pure arithmetic on the
contingency table.  The few ids that occur more than once on a side (a twinless span in two
response chains, a span in two key chains) change the sets in ways arithmetic cannot see (a pair
can be both coreferent and not, an id can link to itself), so pairs touching them are counted one
by one: O(duplicates x mentions), tiny next to the O(mentions^2) of listing pairs.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from metrics.measures.score import BlancScore, Score
from metrics.mentions.alignment import Alignment


class BlancCounts(NamedTuple):
    correct_coref: int
    key_coref: int
    response_coref: int
    correct_noncoref: int
    key_noncoref: int
    response_noncoref: int


def _pairs(n: np.ndarray | int) -> int:
    n = np.asarray(n, dtype=np.int64)
    return int((n * (n - 1) // 2).sum())


def blanc_score(alignment: Alignment) -> BlancScore:
    """BLANC of one document as v8.01 scores it: its coreference and non-coreference parts."""
    b = blanc_counts(alignment)
    return BlancScore(Score(b.correct_coref, b.key_coref, b.correct_coref, b.response_coref),
                      Score(b.correct_noncoref, b.key_noncoref, b.correct_noncoref, b.response_noncoref))


def blanc_counts(alignment: Alignment) -> BlancCounts:
    n_ids = len(alignment.spans)
    key_flat, key_owner = _flatten(alignment.key_chains)
    resp_flat, resp_owner = _flatten(alignment.response_chains)
    key_occ = np.bincount(key_flat, minlength=n_ids)
    resp_occ = np.bincount(resp_flat, minlength=n_ids)
    irregular = (key_occ > 1) | (resp_occ > 1)

    key_chain = np.full(n_ids, -1, dtype=np.int64)
    key_chain[key_flat] = key_owner
    resp_chain = np.full(n_ids, -1, dtype=np.int64)
    resp_chain[resp_flat] = resp_owner
    regular_ids = np.nonzero(~irregular & ((key_occ > 0) | (resp_occ > 0)))[0]
    kc = key_chain[regular_ids]
    rc = resp_chain[regular_ids]

    in_key, in_resp = kc >= 0, rc >= 0
    key_coref = _pairs(np.bincount(kc[in_key])) if in_key.any() else 0
    key_non = _pairs(int(in_key.sum())) - key_coref
    resp_coref = _pairs(np.bincount(rc[in_resp])) if in_resp.any() else 0
    resp_non = _pairs(int(in_resp.sum())) - resp_coref
    both = in_key & in_resp
    if both.any():
        kb, rb = kc[both], rc[both]
        _, cell = np.unique(kb * (int(rb.max()) + 1) + rb, return_counts=True)
        correct_coref = _pairs(cell)
        correct_non = (_pairs(int(both.sum())) - _pairs(np.bincount(kb)) - _pairs(np.bincount(rb))
                       + correct_coref)
    else:
        correct_coref = correct_non = 0

    counts = np.array([correct_coref, key_coref, resp_coref, correct_non, key_non, resp_non], dtype=np.int64)
    if irregular.any():
        counts += _irregular_pairs(alignment, np.nonzero(irregular)[0], regular_ids, kc, rc)
    return BlancCounts(*(int(x) for x in counts))


def _flatten(chains: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    sizes = np.fromiter((len(c) for c in chains), dtype=np.int64, count=len(chains))
    flat = np.fromiter((i for c in chains for i in c), dtype=np.int64, count=int(sizes.sum()))
    return flat, np.repeat(np.arange(len(chains), dtype=np.int64), sizes)


def _memberships(chains: list[list[int]], ids: set[int]) -> dict[int, list[int]]:
    """Chain index of every occurrence of the given ids (with repeats)."""
    out: dict[int, list[int]] = {i: [] for i in ids}
    for index, chain in enumerate(chains):
        for mid in chain:
            if mid in out:
                out[mid].append(index)
    return out


def _links(a: list[int], b: list[int]) -> tuple[bool, bool]:
    """(coreference link, non-coreference link) between two distinct ids with these chain lists."""
    if not a or not b:
        return False, False
    sa, sb = set(a), set(b)
    coref = not sa.isdisjoint(sb)
    non = not (len(sa) == 1 and sa == sb)
    return coref, non


def _irregular_pairs(alignment: Alignment, irregular: np.ndarray, regular_ids: np.ndarray,
                     kc: np.ndarray, rc: np.ndarray) -> np.ndarray:
    """Count contributions of pairs involving an id that occurs more than once on a side."""
    dup = set(irregular.tolist())
    key_m = _memberships(alignment.key_chains, dup)
    resp_m = _memberships(alignment.response_chains, dup)
    total = np.zeros(6, dtype=np.int64)
    ordered = sorted(dup)
    for position, x in enumerate(ordered):
        kx, rx = key_m[x], resp_m[x]
        # the id with itself
        k_self = (len(kx) > len(set(kx)), len(set(kx)) > 1)
        r_self = (len(rx) > len(set(rx)), len(set(rx)) > 1)
        total += _contribution(k_self, r_self)
        # with each later duplicated id
        for y in ordered[position + 1:]:
            total += _contribution(_links(kx, key_m[y]), _links(rx, resp_m[y]))
        # with every regular id, vectorised: a regular id has at most one chain per side
        k_coref, k_non = _regular_links(kx, kc)
        r_coref, r_non = _regular_links(rx, rc)
        total += np.array([
            int((k_coref & r_coref).sum()), int(k_coref.sum()), int(r_coref.sum()),
            int((k_non & r_non).sum()), int(k_non.sum()), int(r_non.sum()),
        ], dtype=np.int64)
    return total


def _regular_links(chains_of_x: list[int], chain_of_regular: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Boolean arrays over regular ids: coreference / non-coreference link with x on one side."""
    present = chain_of_regular >= 0
    if not chains_of_x:
        none = np.zeros(len(chain_of_regular), dtype=bool)
        return none, none
    sx = np.array(sorted(set(chains_of_x)), dtype=np.int64)
    coref = present & np.isin(chain_of_regular, sx)
    if len(sx) == 1:
        non = present & (chain_of_regular != sx[0])
    else:
        non = present
    return coref, non


def _contribution(key: tuple[bool, bool], resp: tuple[bool, bool]) -> np.ndarray:
    return np.array([key[0] and resp[0], key[0], resp[0], key[1] and resp[1], key[1], resp[1]], dtype=np.int64)

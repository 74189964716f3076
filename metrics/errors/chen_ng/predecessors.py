"""Each mention's category and predecessors, as array work over many documents at once: what
Chen & Ng's records (`records`) are made of.

The best predecessor of a mention only depends on its type and on the last earlier mention of
each type in its chain, so no pair of mentions is ever compared: per chain, the last earlier
member of each type is a running maximum of indices, the same over each key chain x response
chain pair gives the coreferent response predecessors, and a 4 x 4 weight matrix picks the
heaviest.  Documents laid end to end (`joined_view`: each document's spans shifted past the
tokens of those before it) never share a chain, so a corpus is classified in one pass, as one
document is: a corpus of small documents pays numpy's calls once, not once per document.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain as chained
from typing import NamedTuple

import numpy as np

from metrics.errors.mention import ABSENT
from metrics.mentions.chains import (CODE_BASE, KEY_KEEPS_LAST, RESPONSE_KEEPS_LAST, ChainView, joined_view,
                                     span_codes, token_offsets)
from metrics.measures.laid import typed_together
from metrics.measures.weights import Weights
from metrics.model import MentionType

FALSE_NEW, WRONG_LINK, SUBOPTIMAL_LINK, FALSE_ANAPHORIC, MISSING_MENTION, SPURIOUS_MENTION = range(6)
"""The categories' indices, in the order `records.CATEGORIES` lists them."""
N_TYPES = len(MentionType)


class Found(NamedTuple):
    """Every mention of either side (indices into `codes`) and the records of those with an error."""

    codes: np.ndarray
    """Every mention's span code (`CODE_BASE`), in document order (documents laid end to end)."""
    kinds: np.ndarray
    """Each mention's type (`MentionType`'s integer)."""
    in_response: np.ndarray
    """Each mention's member of the response view, -1 where the response lacks it."""
    rows: np.ndarray
    """The mentions with an error, in document order."""
    category: np.ndarray
    """Each row's category (`FALSE_NEW` ...)."""
    antecedent: np.ndarray
    """Each row's response antecedent that matters (see `records.ErrorRecord`), -1 for none."""
    best: np.ndarray
    """Each row's best key antecedent, -1 for none."""
    key_chain: np.ndarray
    """Each row's chain in the key view, -1 for none."""
    response_chain: np.ndarray
    """Each row's chain in the response view, -1 for none."""


class Laid(NamedTuple):
    """Many document pairs' chains laid end to end, as `find` reads them."""

    key_view: ChainView
    response_view: ChainView
    kinds_of: Callable[[np.ndarray], np.ndarray]
    """The type of each of some span codes of the views."""
    token_offset: np.ndarray
    """Where each document's tokens start in the laid codes."""


def lay(pairs: Sequence) -> Laid:
    """The pairs' (`corpus.scoring.DocPair`) key and response chains as two views over documents
    laid end to end, chains labelled with their files' labels, and their mentions' types (the
    pairs' types of mention ids, typed together for those not typed yet)."""
    n = len(pairs)
    spans_per_doc = np.fromiter((len(pair.alignment.spans) for pair in pairs), dtype=np.int64, count=n)
    codes = span_codes(list(chained.from_iterable(pair.alignment.spans for pair in pairs)))
    span_doc = np.repeat(np.arange(n), spans_per_doc)
    token_offset = token_offsets(span_doc, codes % CODE_BASE, n)
    codes += token_offset[span_doc] * (CODE_BASE + 1)  # (start, end) -> (start + offset, end + offset), as joined_view
    keys, responses = [pair.key for pair in pairs], [pair.response for pair in pairs]
    kv = joined_view(keys, token_offset, KEY_KEEPS_LAST, [label for key in keys for label in key.chain_labels()])
    rv = joined_view(responses, token_offset, RESPONSE_KEEPS_LAST,
                     [label for response in responses for label in response.chain_labels()])
    order = np.argsort(codes, kind="stable")
    sorted_codes, sorted_types = codes[order], typed_together(pairs)[order]

    def kinds_of(wanted: np.ndarray) -> np.ndarray:
        return sorted_types[np.searchsorted(sorted_codes, wanted)]

    return Laid(kv, rv, kinds_of, token_offset)


def find(kv: ChainView, rv: ChainView, kinds_of: Callable[[np.ndarray], np.ndarray], weights: Weights) -> Found:
    """The records of the mentions of two views (one document's, or many laid end to end): every
    mention of either side in document order; per side's chain, the last earlier member of each
    type (a running maximum of indices); the same over each key chain x response chain pair (the
    coreferent response predecessors); the heaviest of them by the weight matrix."""
    codes = distinct(np.concatenate((kv.codes, rv.codes)))  # every mention, in document order
    kinds = kinds_of(codes).astype(np.int64)
    link = np.array([[weights.link(a, b) for b in range(N_TYPES)] for a in range(N_TYPES)], dtype=np.float64)
    in_key, in_resp = kv.find(codes), rv.find(codes)  # each mention's member of each side's view, -1 for none
    key_chain, resp_chain = _padded(kv.member_chain)[in_key], _padded(rv.member_chain)[in_resp]
    has_key_pred = _padded(kv.member_position)[in_key] > 0
    has_resp_pred = _padded(rv.member_position)[in_resp] > 0
    # the best key predecessor, found over each key chain's members
    key_mention = _padded(_members_mentions(in_key, len(kv.codes)))
    key_kinds = kinds[key_mention[:-1]]
    best_member, key_weight = _heaviest(_last_of_each_type(key_kinds, kv.bounds[kv.member_chain]), key_kinds, link)
    best_key = np.where(has_key_pred, key_mention[_padded(best_member)[in_key]], ABSENT)
    best_key_weight = np.append(key_weight, 0.0)[in_key]
    # the closest response predecessor: the member before it in its response chain
    resp_mention = _padded(_members_mentions(in_resp, len(rv.codes)))
    closest = resp_mention[np.where(has_resp_pred, in_resp - 1, ABSENT)]
    # the best coreferent response predecessor, found over the mentions of each (key chain, response chain)
    shared = np.flatnonzero((in_key >= 0) & (in_resp >= 0))
    group = key_chain[shared] * max(len(rv.sizes), 1) + resp_chain[shared]
    order = np.argsort(group, kind="stable")
    shared, group = shared[order], group[order]
    opens = np.ones(len(shared), dtype=bool)
    opens[1:] = group[1:] != group[:-1]
    group_start = np.flatnonzero(opens)[np.cumsum(opens) - 1]
    shared_best, shared_weight = _heaviest(_last_of_each_type(kinds[shared], group_start), kinds[shared], link)
    coref = np.full(len(codes), ABSENT, dtype=np.int64)
    coref[shared] = _padded(shared)[shared_best]
    best_resp_weight = np.zeros(len(codes))
    best_resp_weight[shared] = shared_weight
    linked = has_key_pred & has_resp_pred
    alone = ~has_key_pred & ~has_resp_pred
    category = np.select(
        [has_key_pred & ~has_resp_pred, linked & (coref < 0), linked & (coref >= 0) & (best_resp_weight < best_key_weight),
         ~has_key_pred & has_resp_pred, alone & (in_resp < 0), alone & (in_key < 0)],
        [FALSE_NEW, WRONG_LINK, SUBOPTIMAL_LINK, FALSE_ANAPHORIC, MISSING_MENTION, SPURIOUS_MENTION], ABSENT)
    rows = np.flatnonzero(category >= 0)
    category = category[rows]
    antecedent = np.select([category == SUBOPTIMAL_LINK, (category == WRONG_LINK) | (category == FALSE_ANAPHORIC)],
                           [coref[rows], closest[rows]], ABSENT)
    return Found(codes, kinds, in_resp, rows, category, antecedent, best_key[rows], key_chain[rows], resp_chain[rows])


def distinct(values: np.ndarray) -> np.ndarray:
    """`np.unique(values)` by sorting: numpy's default, by hashing, took five times as long on a
    corpus's hundred thousand span codes."""
    ordered = np.sort(values)
    keep = np.ones(len(ordered), dtype=bool)
    keep[1:] = ordered[1:] != ordered[:-1]
    return ordered[keep]


def _members_mentions(member: np.ndarray, n_members: int) -> np.ndarray:
    """The inverse of `member` (each mention's member of a view, -1 for none): each member's mention."""
    out = np.empty(n_members, dtype=np.int64)
    out[member[member >= 0]] = np.flatnonzero(member >= 0)
    return out


def _padded(values: np.ndarray) -> np.ndarray:
    """`values` with `ABSENT` after its end: indexed by -1 (no such mention) it gives `ABSENT`."""
    return np.append(values, ABSENT)


def _last_of_each_type(kinds: np.ndarray, group_start: np.ndarray) -> np.ndarray:
    """For items laid out in groups (a chain's members), the index of the last earlier item of the
    same group of each type, -1 for none: one column per type (a running maximum of indices)."""
    n = len(kinds)
    last = np.full((n, N_TYPES), ABSENT, dtype=np.int64)
    if not n:
        return last
    index = np.arange(n)
    for kind in range(N_TYPES):
        seen = np.maximum.accumulate(np.where(kinds == kind, index, ABSENT))  # at or before each item
        before = np.concatenate(([ABSENT], seen[:-1]))
        last[:, kind] = np.where(before >= group_start, before, ABSENT)
    return last


def _heaviest(last: np.ndarray, kinds: np.ndarray, link: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The heaviest of each item's earlier items (`last`: one per type) and its link weight: a
    weight above -1, on equal weight the more informative type (the first maximum: NAME, NOMINAL,
    PRONOUN, ZERO), as the first classifier chose it (tests/chen_ng_brute.py); -1 where there is none."""
    weight = np.where(last >= 0, link[kinds], -np.inf)
    pick = weight.argmax(axis=1) if len(kinds) else np.zeros(0, dtype=np.int64)
    rows = np.arange(len(kinds))
    heaviest = weight[rows, pick]
    return np.where(heaviest > -1.0, last[rows, pick], ABSENT), heaviest

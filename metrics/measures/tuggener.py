"""Tuggener's (2014) application metrics: is coreference output usable by the task that consumes it?

Each metric judges key and response mentions one by one and counts tp, wl (wrong linkage: a key
mention resolved to a wrong antecedent), fn and fp, with R = tp/(tp+wl+fn) and P = tp/(tp+wl+fp):
wl counts in both, so that a mention linked wrongly is neither "not found" nor "not returned".

- "immediate" (section 3.1, Table 1): for entity-sequence models.  A non-first key mention is tp
  when its predecessor in its response chain is its predecessor in its key chain, fn when it has
  no response predecessor, else wl; a non-first response mention that is not a non-first key
  mention is fp.
- "inferred" (section 3.2): for tasks that replace a pronoun by a nominal (NAME or NOMINAL)
  antecedent.  A non-first key mention is tp when the closest nominal before it in its response
  chain is in its key chain, fn when there is no nominal before it there, else wl.  Key chains
  without a nominal are skipped, and so (the paper does not treat cataphora) are mentions with no
  nominal before them in their key chain.  The paper's extra rule: a mention of a key chain
  without nominals that the response gives a nominal antecedent is wl.  A response mention given
  a nominal antecedent that is not a non-first key mention is fp.
- "anchor_ed", "anchor_em", "anchor" (section 3.3, Table 2): for query-driven tasks.  A chain's
  anchor is its first nominal mention.  ED: a key chain is tp when its anchor is in a response
  chain, else fn; a response chain whose anchor is in no key chain is fp.  A chain without a
  nominal has no anchor and is skipped on either side, as in section 3.2 (Table 2 read literally
  would count it fn / fp, so that even the key scored against itself would fall short of 1).  EM: for each key chain aligned to the response chain
  holding its anchor, its mentions in that chain are tp, the others fn, and that chain's mentions
  outside the key chain fp.  "anchor" is F-phi, the harmonic mean of the ED and EM F-scores.

Singleton chains are skipped on both sides (footnote 1: no application gains from them).  Each
span counts once per side (a span listed twice keeps the chain v8.01 keeps, see metrics.errors.chen_ng.records).
Each judgement keeps the class of the judged mention (the anchor's for ED), so that the counts can
be broken down by mention type, or by its head's POS class or named-entity class as in the paper's
Tables 3 and 4: only tests ask for that breakdown (tests/tuggener_support.py's `count_views`, which
checks the paper's tables and `score_documents`, which counts by outcome alone).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import chain as chained

import numpy as np

from metrics.measures.catalog import ANCHOR, ANCHOR_ED, ANCHOR_EM, IMMEDIATE, INFERRED, Family, names
from metrics.mentions.chains import (CODE_BASE, KEY_KEEPS_LAST, RESPONSE_KEEPS_LAST, ChainView, joined_view,
                                     span_codes, token_offsets)
from metrics.mentions.alignment import laid_alignments
from metrics.model import MentionType, Span
from metrics.measures.score import AnchorScore, Score  # AnchorScore: F-phi's value, kept with the other scores

METRICS = names(Family.APPLICATION)
COUNTED = tuple(name for name in METRICS if name != ANCHOR.name)
"""The metrics with their own tp/wl/fn/fp counts ("anchor" combines the two anchor ones)."""

_TP, _WL, _FN, _FP = range(4)


@dataclass(frozen=True)
class Tally:
    """Tuggener's four counts."""

    tp: int = 0
    wl: int = 0
    fn: int = 0
    fp: int = 0

    def score(self) -> Score:
        return Score(self.tp, self.tp + self.wl + self.fn, self.tp, self.tp + self.wl + self.fp)

    def __add__(self, other: "Tally") -> "Tally":
        return Tally(self.tp + other.tp, self.wl + other.wl, self.fn + other.fn, self.fp + other.fp)

    def to_json(self) -> dict:
        return {"tp": self.tp, "wl": self.wl, "fn": self.fn, "fp": self.fp}


def _member_types(view: ChainView, types: Mapping[Span, MentionType]) -> np.ndarray:
    """The mention type of each member of a view, from a mapping of spans to types."""
    return np.fromiter(map(types.__getitem__, view.spans), dtype=np.int64, count=len(view.codes))


Judged = tuple[np.ndarray, np.ndarray, np.ndarray]
"""One metric's judgements in order: the judged mention's span code, its mention type, the outcome."""


def _judgements(kv: ChainView, rv: ChainView, key_types: np.ndarray, response_types: np.ndarray,
                per_entity: bool = False) -> dict[str, Judged]:
    """Every judgement of the four counted metrics, per metric, in the order the paper's loops over
    chains and their mentions make them (so a breakdown's classes come in that order).  The
    types are those of each view's members.  Whole-array work: no loop over mentions."""
    sides = _Sides(kv, rv, key_types, response_types)
    ed, em = _anchors(sides, per_entity)
    return {IMMEDIATE.name: _immediate(sides), INFERRED.name: _inferred(sides), ANCHOR_ED.name: ed,
            ANCHOR_EM.name: em}


class _Sides:
    """The two views as arrays, with each side's members found on the other."""

    def __init__(self, kv: ChainView, rv: ChainView, key_types: np.ndarray, response_types: np.ndarray) -> None:
        self.kv, self.rv = kv, rv
        self.key_types, self.response_types = key_types, response_types
        self.key_nominal = _nominal(key_types)
        self.response_nominal = _nominal(response_types)
        self.in_response = rv.find(kv.codes)
        """The response member of each key member's span, -1 for none."""
        self.in_key = kv.find(rv.codes)
        """The key member of each response member's span, -1 for none."""
        self.key_chain_of_response = _take(kv.member_chain, self.in_key)
        """The key chain of each response member's span, -1 for none."""
        self.response_chain_of_key = _take(rv.member_chain, self.in_response)
        """The response chain of each key member's span, -1 for none."""
        self.key_anaphoric = kv.member_position > 0
        self.response_anaphoric = rv.member_position > 0
        self.response_judged_on_key = _take(self.key_anaphoric, self.in_key, False)
        """Response members that are a non-first mention of a key chain."""

    def key(self, members: np.ndarray, outcomes: np.ndarray) -> Judged:
        return self.kv.codes[members], self.key_types[members], outcomes

    def response(self, members: np.ndarray, outcomes: np.ndarray) -> Judged:
        return self.rv.codes[members], self.response_types[members], outcomes


def _take(values: np.ndarray, index: np.ndarray, fill: int | bool = -1) -> np.ndarray:
    """values[index], `fill` where the index is -1 (nothing there)."""
    if not len(values):
        return np.full(len(index), fill, dtype=values.dtype)
    return np.where(index >= 0, values[index], fill)


def _nominal(kinds: np.ndarray) -> np.ndarray:
    return (kinds != MentionType.PRONOUN) & (kinds != MentionType.ZERO)


def _joined(*parts: Judged) -> Judged:
    codes, kinds, outcomes = zip(*parts)
    return np.concatenate(codes), np.concatenate(kinds), np.concatenate(outcomes)


def _immediate(s: _Sides) -> Judged:
    """A non-first key mention: fn without a response predecessor, tp when that predecessor is its
    key predecessor, else wl; then a non-first response mention that is no non-first key mention: fp."""
    kv, rv = s.kv, s.rv
    judged = np.flatnonzero(s.key_anaphoric)
    r = s.in_response[judged]
    missing = ~_take(s.response_anaphoric, r, False)
    same = _take(rv.codes, np.where(missing, -1, r - 1)) == kv.codes[judged - 1]
    outcome = np.where(missing, _FN, np.where(same, _TP, _WL))
    spurious = np.flatnonzero(s.response_anaphoric & ~s.response_judged_on_key)
    return _joined(s.key(judged, outcome), s.response(spurious, np.full(len(spurious), _FP)))


def _nominal_before(view: ChainView, nominal: np.ndarray) -> np.ndarray:
    """The closest nominal member before each member in its chain, -1 for none."""
    last = np.maximum.accumulate(np.where(nominal, np.arange(len(nominal)), -1)) if len(nominal) else nominal.astype(np.int64)
    before = np.concatenate(([-1], last[:-1])) if len(last) else last
    return np.where(before >= view.bounds[view.member_chain], before, -1)


def _inferred(s: _Sides) -> Judged:
    """See the module docstring: each non-first key mention against the closest nominal before it in
    its response chain; then the response mentions given a nominal antecedent that are no non-first
    key mention: fp."""
    kv, rv = s.kv, s.rv
    inferred = _nominal_before(rv, s.response_nominal)
    """the response member each response member's inferred antecedent is"""
    chain_has_nominal = np.bincount(kv.member_chain, weights=s.key_nominal, minlength=len(kv.sizes)) > 0
    seen_nominal = _nominal_before(kv, s.key_nominal) >= 0
    r = s.in_response
    antecedent = _take(inferred, r)
    without = s.key_anaphoric & ~chain_has_nominal[kv.member_chain] & (antecedent >= 0)
    """the paper's extra rule: a nominal antecedent for a mention of a chain without nominals"""
    judged_with = s.key_anaphoric & seen_nominal
    judged = np.flatnonzero(without | judged_with)
    h = antecedent[judged]
    right = _take(s.key_chain_of_response, h) == kv.member_chain[judged]
    outcome = np.where(without[judged], _WL, np.where(h < 0, _FN, np.where(right, _TP, _WL)))
    spurious = np.flatnonzero((inferred >= 0) & ~s.response_judged_on_key)
    return _joined(s.key(judged, outcome), s.response(spurious, np.full(len(spurious), _FP)))


def _anchors(s: _Sides, per_entity: bool) -> tuple[Judged, Judged]:
    """ED and EM (module docstring).  EM's judgements come per key chain aligned to a response chain,
    in key chain order: its mentions (tp in that chain, else fn), then that chain's mentions outside
    it (fp)."""
    kv, rv = s.kv, s.rv
    key_anchor = _first_nominal(kv, s.key_nominal)
    response_anchor = _first_nominal(rv, s.response_nominal)
    key_chains = np.flatnonzero((kv.sizes > 1) & (key_anchor >= 0))
    anchors = key_anchor[key_chains]
    r = s.response_chain_of_key[anchors]
    found = _take(rv.sizes, r, 0) > 1
    ed_key = s.key(anchors, np.where(found, _TP, _FN))
    response_chains = np.flatnonzero((rv.sizes > 1) & (response_anchor >= 0))
    k = s.key_chain_of_response[response_anchor[response_chains]]
    lone = _take(kv.sizes, k, 0) <= 1
    ed_response = s.response(response_anchor[response_chains[lone]], np.full(int(lone.sum()), _FP))

    aligned, partner, anchor_of = key_chains[found], r[found], anchors[found]
    # the key chains' mentions, each with its rank among the aligned chains
    key_members = _members(kv, aligned)
    key_rank = np.repeat(np.arange(len(aligned)), kv.sizes[aligned])
    key_outcome = np.where(s.response_chain_of_key[key_members] == partner[key_rank], _TP, _FN)
    # the partner chains' mentions outside the key chain
    response_members = _members(rv, partner)
    response_rank = np.repeat(np.arange(len(aligned)), rv.sizes[partner])
    outside = s.key_chain_of_response[response_members] != aligned[response_rank]
    response_members, response_rank = response_members[outside], response_rank[outside]
    order = np.argsort(np.concatenate((key_rank, response_rank)), kind="stable")
    if per_entity:
        em_key = s.key(anchor_of[key_rank], key_outcome)
        em_response = s.key(anchor_of[response_rank], np.full(len(response_rank), _FP))
    else:
        em_key = s.key(key_members, key_outcome)
        em_response = s.response(response_members, np.full(len(response_rank), _FP))
    em = _joined(em_key, em_response)
    return _joined(ed_key, ed_response), (em[0][order], em[1][order], em[2][order])


def _first_nominal(view: ChainView, nominal: np.ndarray) -> np.ndarray:
    """Each chain's anchor: its first nominal member, -1 for none."""
    first = np.full(len(view.sizes), -1, dtype=np.int64)
    members = np.flatnonzero(nominal)
    chains, at = np.unique(view.member_chain[members], return_index=True)
    first[chains] = members[at]
    return first


def _members(view: ChainView, chains: np.ndarray) -> np.ndarray:
    """The members of the given chains, chain after chain (a chain may come more than once)."""
    sizes = view.sizes[chains]
    starts = np.repeat(view.bounds[chains] - np.concatenate(([0], np.cumsum(sizes)[:-1])), sizes)
    return starts + np.arange(int(sizes.sum()))


def _scores(tallies: Mapping[str, Tally]) -> dict[str, Score | AnchorScore]:
    out: dict[str, Score | AnchorScore] = {name: tallies[name].score() for name in COUNTED}
    out[ANCHOR.name] = AnchorScore(out[ANCHOR_ED.name], out[ANCHOR_EM.name])
    return {name: out[name] for name in METRICS}


def score_documents(pairs: Sequence) -> list[dict[str, Score | AnchorScore]]:
    """Tuggener's five metrics (keys "immediate", "inferred", "anchor_ed", "anchor_em",
    "anchor") of each of many engine `DocPair`s, counted by outcome alone, at once (`count_documents`)."""
    if not pairs:
        return []
    counts = {name: found.tolist() for name, found in count_documents(pairs).items()}
    return [_scores({name: Tally(*counts[name][d]) for name in COUNTED}) for d in range(len(pairs))]


def count_documents(pairs: Sequence) -> dict[str, np.ndarray]:
    """The four counts (tp, wl, fn, fp) of each counted metric (`COUNTED`) of many pairs, one
    row per pair: their views laid end to end (`joined_view`: each document's spans shifted past
    the tokens of those before it), judged in one pass and counted per document, so that a
    corpus of small documents pays numpy's calls once (and, scored as columns, no object per
    document: `batch.application`).  The types are read from each pair's types of mention ids
    (`DocPair.id_types`)."""
    n = len(pairs)
    if not n:
        return {name: np.zeros((0, 4), dtype=np.int64) for name in COUNTED}
    laid = laid_alignments([pair.alignment for pair in pairs])
    if laid is not None:  # the ids' spans as arrays (`align_all`)
        spans_per_doc, codes = np.diff(laid.id_starts), laid.first * CODE_BASE + laid.last
    else:
        spans_per_doc = np.fromiter((len(pair.alignment.spans) for pair in pairs), dtype=np.int64, count=n)
        codes = span_codes(list(chained.from_iterable(pair.alignment.spans for pair in pairs)))
    span_doc = np.repeat(np.arange(n), spans_per_doc)
    token_offset = token_offsets(span_doc, codes % CODE_BASE, n)
    codes += token_offset[span_doc] * (CODE_BASE + 1)  # (start, end) -> (start + offset, end + offset), as joined_view
    kv = joined_view([pair.key for pair in pairs], token_offset, KEY_KEEPS_LAST)
    rv = joined_view([pair.response for pair in pairs], token_offset, RESPONSE_KEEPS_LAST)
    order = np.argsort(codes, kind="stable")
    sorted_codes = codes[order]
    sorted_types = np.concatenate([pair.id_types for pair in pairs]).astype(np.int64)[order]

    def types_of(view: ChainView) -> np.ndarray:
        return sorted_types[np.searchsorted(sorted_codes, view.codes)]

    counts = {}
    for name, (judged, _, outcomes) in _judgements(kv, rv, types_of(kv), types_of(rv)).items():
        doc = np.searchsorted(token_offset, judged // CODE_BASE, side="right") - 1
        counts[name] = np.bincount(doc * 4 + outcomes, minlength=4 * n).reshape(n, 4).astype(np.int64)
    return counts

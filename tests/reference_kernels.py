"""The per-mention code that array kernels replaced, kept as the brute force the tests check them
against (`test_kernels.py`): v8.01's keep rule as dictionaries (`chain_view`) and Tuggener's
judgements as loops over chains (`judgements`), as they were before.

Each judgement is (mention judged, outcome), outcome 0 tp, 1 wl, 2 fn, 3 fp, in the order the
loops make them (the breakdown's classes appear in that order).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from metrics.model import Document, MentionType, Span

COUNTED = ("immediate", "inferred", "anchor_ed", "anchor_em")
_TP, _WL, _FN, _FP = range(4)


@dataclass
class RefView:
    """One side's chains with each span once, chains sorted in document order."""

    chains: list[list[Span]]
    """Chains in file order, each sorted in document order, each span in exactly one chain."""
    labels: list[str]
    chain_of: dict[Span, int]
    position: dict[Span, int]
    """Index of a span within its (sorted) chain: 0 for the first mention."""


def chain_view(doc: Document, keep_last: bool) -> RefView:
    """Deduplicated, sorted chains of a document: a repeated span stays in the first chain listing
    it, or in the last with `keep_last`."""
    owner: dict[Span, int] = {}
    for index, chain in enumerate(doc.chains):
        for span in chain:
            if keep_last or span not in owner:
                owner[span] = index
    members: list[list[Span]] = [[] for _ in doc.chains]
    for span, index in owner.items():
        members[index].append(span)
    for chain in members:
        chain.sort()
    position = {span: i for chain in members for i, span in enumerate(chain)}
    return RefView(members, list(doc.chain_labels()), owner, position)


def ref_key_view(key: Document) -> RefView:
    return chain_view(key, keep_last=True)


def ref_response_view(response: Document) -> RefView:
    return chain_view(response, keep_last=False)


def _nominal(kind: MentionType) -> bool:
    return kind not in (MentionType.PRONOUN, MentionType.ZERO)


def judgements(kv: RefView, rv: RefView, types: Mapping[Span, MentionType],
                per_entity: bool = False) -> dict[str, list[tuple[Span, int]]]:
    """Every judgement of the four counted metrics, as (mention judged, outcome), per metric.
    Each is appended, then all are classed and counted at once (a call per judgement through
    closures was most of these metrics' time)."""
    judged: dict[str, list[tuple[Span, int]]] = {name: [] for name in COUNTED}
    _immediate(kv, rv, judged["immediate"].append)
    _inferred(kv, rv, types, judged["inferred"].append)
    em = judged["anchor_em"].append
    _anchors(kv, rv, types, judged["anchor_ed"].append,
             (lambda item: em((item[1], item[2]))) if per_entity else (lambda item: em((item[0], item[2]))))
    return judged


def _chains(view: RefView) -> list[list[Span]]:
    return [chain for chain in view.chains if len(chain) > 1]


def _is_anaphoric(view: RefView, span: Span) -> bool:
    """A non-first mention of a non-singleton chain of this side."""
    return view.position.get(span, 0) > 0


def _immediate(kv: RefView, rv: RefView, add) -> None:
    for chain in _chains(kv):
        for i in range(1, len(chain)):
            span = chain[i]
            r = rv.chain_of.get(span)
            pos = rv.position.get(span, 0)
            if r is None or pos == 0:
                add((span, _FN))
            elif rv.chains[r][pos - 1] == chain[i - 1]:
                add((span, _TP))
            else:
                add((span, _WL))
    for chain in _chains(rv):
        for span in chain[1:]:
            if not _is_anaphoric(kv, span):
                add((span, _FP))


def _inferred(kv: RefView, rv: RefView, types: Mapping[Span, MentionType], add) -> None:
    # The closest nominal before each response mention in its response chain.
    inferred: dict[Span, Span] = {}
    for chain in _chains(rv):
        last: Span | None = None
        for span in chain:
            if last is not None:
                inferred[span] = last
            if _nominal(types[span]):
                last = span
    judged: set[Span] = set()
    for k, chain in enumerate(kv.chains):
        if len(chain) < 2:
            continue
        if not any(_nominal(types[s]) for s in chain):
            # No nominal: skipped, except the paper's extra rule (a nominal antecedent is wrong).
            for span in chain[1:]:
                judged.add(span)
                if span in inferred:
                    add((span, _WL))
            continue
        seen_nominal = False
        for i, span in enumerate(chain):
            if i > 0:
                judged.add(span)
                if seen_nominal:
                    h = inferred.get(span)
                    if h is None:
                        add((span, _FN))
                    elif kv.chain_of.get(h) == k:
                        add((span, _TP))
                    else:
                        add((span, _WL))
            if _nominal(types[span]):
                seen_nominal = True
    for span in inferred:
        if span not in judged:
            add((span, _FP))


def _anchor(chain: list[Span], types: Mapping[Span, MentionType]) -> Span | None:
    return next((s for s in chain if _nominal(types[s])), None)


def _anchors(kv: RefView, rv: RefView, types: Mapping[Span, MentionType], add_ed, add_em) -> None:
    resp_multi = {i for i, chain in enumerate(rv.chains) if len(chain) > 1}
    key_multi = {i for i, chain in enumerate(kv.chains) if len(chain) > 1}
    for k in sorted(key_multi):
        chain = kv.chains[k]
        anchor = _anchor(chain, types)
        if anchor is None:
            continue
        r = rv.chain_of.get(anchor)
        if r is None or r not in resp_multi:
            add_ed((anchor, _FN))
            continue
        add_ed((anchor, _TP))
        for span in chain:
            add_em((span, anchor, _TP if rv.chain_of.get(span) == r else _FN))
        for span in rv.chains[r]:
            if kv.chain_of.get(span) != k:
                add_em((span, anchor, _FP))
    for r in sorted(resp_multi):
        chain = rv.chains[r]
        anchor = _anchor(chain, types)
        if anchor is not None and kv.chain_of.get(anchor) not in key_multi:
            add_ed((anchor, _FP))

"""The Chen & Ng records as the engine first classified them, one mention at a time: the brute
force the columnar classification (`records.classify_columns`) is checked against.

One pass over the mentions in document order with, per chain, the last mention seen of each type;
each record built as an `ErrorRecord` with its `Mention`s.  Kept verbatim in its logic (only moved
here) so that any difference of the array version shows as a failing test.
"""

from __future__ import annotations

from collections.abc import Mapping

from metrics.errors.chen_ng.records import Category, ErrorRecord, link_fix
from metrics.errors.mention import Mention
from metrics.measures.weights import W4, Weights
from metrics.mentions.chains import ChainView
from metrics.model import Document, MentionType, Span


class _Best:
    """The last mention seen of each type in a growing set of predecessors."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last: list[Span | None] = [None] * len(MentionType)

    def add(self, span: Span, kind: int) -> None:
        self.last[kind] = span

    def closest(self) -> Span | None:
        present = [s for s in self.last if s is not None]
        return max(present) if present else None

    def best(self, kind: int, w: Weights) -> tuple[Span | None, float]:
        """Heaviest predecessor for a mention of type `kind`.  On equal weight the more informative
        one (name, then nominal, then pronoun: a name's antecedent is shown as a name, not "his"),
        then the closest."""
        best_span: Span | None = None
        best_weight = -1.0
        for other, span in enumerate(self.last):  # NAME, NOMINAL, PRONOUN, ZERO: most informative first
            if span is None:
                continue
            weight = w.link(kind, other)
            if weight > best_weight:
                best_span, best_weight = span, weight
        return best_span, best_weight


def classify_views(name: str, key: Document, response: Document, kv: ChainView, rv: ChainView, *,
                   types: Mapping[Span, MentionType], weights: Weights = W4) -> list[ErrorRecord]:
    """`classify_document` with the two sides' chain views given (a `DocPair` keeps them)."""
    words = key.words if key.words else response.words
    pieces = {**(response.pieces or {}), **(key.pieces or {})}

    def mention(span: Span) -> Mention:
        runs = pieces.get(span, (span,))  # a discontinuous mention's words, piece by piece
        return Mention(span, " … ".join(" ".join(words[a:b + 1]) for a, b in runs), MentionType(types[span]))

    key_seen = [_Best() for _ in kv.chains]
    resp_seen = [_Best() for _ in rv.chains]
    shared_seen: dict[tuple[int, int], _Best] = {}
    records: list[ErrorRecord] = []
    for span in sorted(set(kv.chain_of) | set(rv.chain_of)):
        kind = int(types[span])
        k = kv.chain_of.get(span)
        r = rv.chain_of.get(span)
        key_label = kv.labels[k] if k is not None else None
        resp_label = rv.labels[r] if r is not None else None
        record: ErrorRecord | None = None
        has_key_pred = k is not None and kv.position[span] > 0
        has_resp_pred = r is not None and rv.position[span] > 0
        if has_key_pred:
            best_key, best_key_weight = key_seen[k].best(kind, weights)
            best = mention(best_key)
            coref = shared_seen.get((k, r)) if r is not None else None
            if not has_resp_pred:
                record = ErrorRecord(name, Category.FALSE_NEW, mention(span), None, best, key_label, resp_label,
                                     None, link_fix(r is None, best.text, best.span, best.span not in rv.chain_of))
            elif coref is None:
                wrong = resp_seen[r].closest()
                record = ErrorRecord(name, Category.WRONG_LINK, mention(span), mention(wrong), best, key_label,
                                     resp_label, None, link_fix(False, best.text, best.span, best.span not in rv.chain_of))
            else:
                best_resp, best_resp_weight = coref.best(kind, weights)
                if best_resp_weight < best_key_weight:
                    record = ErrorRecord(name, Category.SUBOPTIMAL_LINK, mention(span), mention(best_resp), best,
                                         key_label, resp_label, best_key_weight - best_resp_weight,
                                         link_fix(False, best.text, best.span, best.span not in rv.chain_of))
        elif has_resp_pred:
            wrong = resp_seen[r].closest()
            what = "split it, with the rest of its key chain, out of" if k is not None else "unlink it from"
            record = ErrorRecord(name, Category.FALSE_ANAPHORIC, mention(span), mention(wrong), None, key_label,
                                 resp_label, None, f"{what} response chain {resp_label}")
        elif r is None:
            record = ErrorRecord(name, Category.MISSING_MENTION, mention(span), None, None, key_label, None, None,
                                 "add it to the response (a chain of its own)")
        elif k is None:
            record = ErrorRecord(name, Category.SPURIOUS_MENTION, mention(span), None, None, None, resp_label, None,
                                 "remove it from the response")
        if record is not None:
            records.append(record)
        if k is not None:
            key_seen[k].add(span, kind)
        if r is not None:
            resp_seen[r].add(span, kind)
            if k is not None:
                shared_seen.setdefault((k, r), _Best()).add(span, kind)
    return records

"""Mention matching beyond exact spans, as the CorefUD scorer defines it, done as a pre-alignment.

Why a pre-alignment: every metric here (v8.01's and the linguistic ones) compares spans exactly.
Head and partial matching only decide which response mention stands for which key mention, so a
response mention that matches a key mention is rewritten to that key span and the ordinary exact
scorer does the rest.  Exact matching (the default and the official CoNLL behaviour) is the identity.

The rules mirror the CorefUD scorer (ufal/corefud-scorer, `find_mention_alignment`):
1. Mentions with the same span align first ("head": same span and same head word).
2. The remaining key mentions K and response mentions S get a similarity
   - "partial": |S| / |K| if S lies inside K and contains K's head word, else 0;
   - "head":    |K ∩ S| / |K| if K and S have the same head word, else 0;
   and a one-to-one assignment maximising the total similarity is taken (Kuhn-Munkres over the
   mentions sorted by start then end, as the CorefUD scorer does, so ties resolve as there).
   Pairs with similarity 0 stay unaligned.
Heads come from `metrics.heads.head_of`: dependency trees when the file has them (CoNLL-U), else
CoNLL-2012 parse bits with head rules, else a simple rule.  A response without syntax of its own is
given the key's (its tokens are the key's tokens).  Unlike the CorefUD scorer's default, singletons
are not removed first: this engine keeps singletons as v8.01 does, so they take part in matching
(the CorefUD scorer's `--keep-singletons` behaviour).
"""

from __future__ import annotations

from dataclasses import replace

from metrics.mentions.heads import head_of
from metrics.model import Document, Span

MATCH_MODES = ("exact", "head", "partial")


def _syntax_source(key: Document, response: Document) -> Document:
    """The document whose syntax gives response heads: its own if it has any, else the key's."""
    if response.heads is not None or response.parse is not None:
        return response
    return key


def mention_alignment(key: Document, response: Document, mode: str = "exact") -> dict[Span, Span]:
    """Response span -> the key span it is aligned to, for every non-identical alignment."""
    if mode not in MATCH_MODES:
        raise ValueError(f"unknown mention matching {mode!r}: expected one of {', '.join(MATCH_MODES)}")
    if mode == "exact":
        return {}
    key_spans = sorted(set(key.mentions()))
    resp_spans = sorted(set(response.mentions()))
    if not key_spans or not resp_spans:
        return {}
    key_head = {span: head_of(key, span)[0] for span in key_spans}
    source = _syntax_source(key, response)
    resp_head = {span: head_of(source, span)[0] for span in resp_spans} if mode == "head" else {}
    resp_set = set(resp_spans)
    if mode == "head":
        exact = {k for k in key_spans if k in resp_set and resp_head[k] == key_head[k]}
    else:
        exact = {k for k in key_spans if k in resp_set}
    keys = [k for k in key_spans if k not in exact]
    resps = [s for s in resp_spans if s not in exact]
    if not keys or not resps:
        return {}
    from metrics.runtime.lsap_sparse import positive_pairs, sharing_costs

    if mode == "partial":  # the response inside the key and covering its head: |S| / |K|
        costs = sharing_costs(keys, resps, lambda k: (key_head[k],), _partial_score,
                              column_units=lambda s: range(s[0], s[1] + 1))
    else:  # the same head: |K ∩ S| / |K|
        costs = sharing_costs(keys, resps, lambda k: (key_head[k],), _overlap_score,
                              column_units=lambda s: (resp_head[s],))
    return {resps[j]: keys[i] for i, j in positive_pairs(costs, len(resps))}


def _partial_score(key: Span, response: Span) -> float:
    """Partial match's score of a response that covers the key's head: |S| / |K| when S lies inside K."""
    inside = key[0] <= response[0] and response[1] <= key[1]
    return (response[1] - response[0] + 1) / float(key[1] - key[0] + 1) if inside else 0.0


def _overlap_score(key: Span, response: Span) -> float:
    """Head match's score of a response with the key's head: |K ∩ S| / |K|."""
    overlap = min(key[1], response[1]) - max(key[0], response[0]) + 1
    return overlap / float(key[1] - key[0] + 1) if overlap > 0 else 0.0


def match_mentions(key: Document, response: Document, mode: str = "exact") -> Document:
    """The response with every matched span rewritten to its key span (exact: the response itself).

    Chain and mention order are kept, so the official duplicate handling sees the same order.
    """
    aligned = mention_alignment(key, response, mode)
    if not aligned:
        return response
    chains = [[aligned.get(span, span) for span in chain] for chain in response.chains]
    return replace(response, chains=chains)


def match_corpus(keys: list[Document], responses: list[Document], mode: str = "exact") -> list[Document]:
    """`responses` with each document matched against its key document (paired as `prepare` pairs).

    Names are kept, so the result pairs with `keys` exactly as the input did.  Pairs whose token
    counts differ are left alone: `prepare` reports them as the input error they are.
    """
    if mode not in MATCH_MODES:
        raise ValueError(f"unknown mention matching {mode!r}: expected one of {', '.join(MATCH_MODES)}")
    if mode == "exact":
        return responses
    from metrics.mentions.pairing import pair_documents

    partners, _ = pair_documents(keys, responses)
    matched = {
        id(response): match_mentions(key, response, mode)
        for key, response in zip(keys, partners)
        if response is not None and response.n_tokens == key.n_tokens
    }
    return [matched.get(id(response), response) for response in responses]

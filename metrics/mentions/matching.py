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
    import numpy as np
    from metrics.runtime.lsap import positive_pairs

    ks = np.array([k[0] for k in keys])[:, None]
    ke = np.array([k[1] for k in keys])[:, None]
    kh = np.array([key_head[k] for k in keys])[:, None]
    ss = np.array([s[0] for s in resps])[None, :]
    se = np.array([s[1] for s in resps])[None, :]
    klen = (ke - ks + 1).astype(float)
    if mode == "partial":
        inside = (ks <= ss) & (se <= ke) & (ss <= kh) & (kh <= se)
        similarity = np.where(inside, (se - ss + 1) / klen, 0.0)
    else:
        sh = np.array([resp_head[s] for s in resps])[None, :]
        overlap = np.clip(np.minimum(ke, se) - np.maximum(ks, ss) + 1, 0, None)
        similarity = np.where(kh == sh, overlap / klen, 0.0)
    return {resps[c]: keys[r] for r, c in positive_pairs(similarity)}


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

"""Synthetic key/response corpora for the benchmark, deterministic for a given seed.

Why synthetic data: the peer scorers cannot read the real xrenner responses (scorch's CoNLL reader
crashes on them), so speed is also compared on data every scorer accepts.  The generator mimics the
GUM layer's shape (by default 108 documents, ~98k tokens, ~0.29 mentions per token, ~0.56 chains
per mention, singletons included) and a plausible system response: missed mentions, boundary
errors, invented mentions, wrong links.  It keeps the data clean so every peer can score it: no
span in two chains, no mention crossing a sentence break, no overlapping mentions in one chain.

Writes, under OUT:
    key.conll, response.conll               CoNLL-2012, 12 TAB-separated columns
    scorch/key/DOC.json, scorch/response/DOC.json   scorch's input (one clusters file per document)

Usage: python benchmarks/synthetic.py OUT [--docs 108] [--tokens 98363] [--seed 13]
"""

from __future__ import annotations

import argparse
import json
import os
import random
from dataclasses import dataclass

Span = tuple[int, int]


@dataclass
class SyntheticDoc:
    name: str
    sentence_lengths: list[int]
    key: list[list[Span]]
    response: list[list[Span]]


def _sentences(rng: random.Random, n_tokens: int) -> list[int]:
    lengths: list[int] = []
    left = n_tokens
    while left > 0:
        n = min(left, rng.randint(6, 34))
        lengths.append(n)
        left -= n
    return lengths


def _mentions(rng: random.Random, lengths: list[int], density: float) -> list[Span]:
    """Distinct spans inside sentences; nested and crossing spans occur, as in real data."""
    spans: set[Span] = set()
    start = 0
    for n in lengths:
        want = max(0, round(n * density + rng.uniform(-1, 1)))
        for _ in range(want):
            size = min(n, 1 + int(rng.expovariate(0.7)))
            s = start + rng.randrange(0, n - size + 1)
            spans.add((s, s + size - 1))
        start += n
    return sorted(spans)


def _overlaps(a: Span, b: Span) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def _chains(rng: random.Random, spans: list[Span], p_new: float) -> list[list[Span]]:
    """Assign spans (in text order) to chains: a new chain, or one of the recently active ones.
    A chain never holds two overlapping spans (CoNLL brackets could not say which closes which)."""
    chains: list[list[Span]] = []
    recent: list[int] = []
    for span in spans:
        target = None
        if recent and rng.random() >= p_new:
            c = recent[min(len(recent) - 1, int(rng.expovariate(0.5)))]
            if not any(_overlaps(span, m) for m in chains[c][-3:]):
                target = c
        if target is None:
            chains.append([])
            target = len(chains) - 1
        chains[target].append(span)
        if target in recent:
            recent.remove(target)
        recent.insert(0, target)
        del recent[12:]
    return chains


def _response(rng: random.Random, key: list[list[Span]], lengths: list[int]) -> list[list[Span]]:
    """A system response: 8% of key mentions missed, 6% with a boundary error, 9% invented,
    10% linked to the wrong (recent) chain or left alone."""
    sentence_of: dict[int, Span] = {}
    start = 0
    for n in lengths:
        for t in range(start, start + n):
            sentence_of[t] = (start, start + n - 1)
        start += n
    assigned: list[tuple[Span, int]] = []
    for c, chain in enumerate(key):
        for span in chain:
            r = rng.random()
            if r < 0.08:
                continue
            if r < 0.14:
                lo, hi = sentence_of[span[0]]
                s = min(hi, max(lo, span[0] + rng.choice((-1, 0, 1))))
                e = min(hi, max(s, span[1] + rng.choice((-1, 1))))
                span = (s, e)
            assigned.append((span, c))
    n_chains = len(key)
    all_tokens = len(sentence_of)
    for _ in range(int(0.09 * sum(len(c) for c in key))):
        t = rng.randrange(all_tokens)
        lo, hi = sentence_of[t]
        e = min(hi, t + int(rng.expovariate(1.0)))
        assigned.append(((t, e), n_chains + rng.randrange(max(1, n_chains // 3))))
    assigned.sort()
    chains: dict[int, list[Span]] = {}
    seen: set[Span] = set()
    extra = n_chains * 2
    for span, c in assigned:
        if span in seen:
            continue
        if rng.random() < 0.10:
            c = rng.choice(list(chains)[-8:]) if chains and rng.random() < 0.75 else extra
            extra += 1
        chain = chains.setdefault(c, [])
        if any(_overlaps(span, m) for m in chain):
            chain = chains.setdefault(extra, [])
            extra += 1
        chain.append(span)
        seen.add(span)
    return [sorted(c) for c in chains.values() if c]


def generate(docs: int = 108, tokens: int = 98363, seed: int = 13,
             density: float = 0.30, p_new: float = 0.49) -> list[SyntheticDoc]:
    rng = random.Random(seed)
    out: list[SyntheticDoc] = []
    per_doc = tokens // docs
    for d in range(docs):
        n = per_doc + (tokens - per_doc * docs if d == docs - 1 else 0)
        lengths = _sentences(rng, n)
        key = _chains(rng, _mentions(rng, lengths, density), p_new)
        out.append(SyntheticDoc(f"syn{d:04d}", lengths, key, _response(rng, key, lengths)))
    return out


def conll_text(docs: list[SyntheticDoc], side: str) -> str:
    """CoNLL-2012 text of one side ('key' or 'response'); chain i is label i."""
    lines: list[str] = []
    for doc in docs:
        chains = doc.key if side == "key" else doc.response
        n_tokens = sum(doc.sentence_lengths)
        singles: list[list[str]] = [[] for _ in range(n_tokens)]
        opens: list[list[str]] = [[] for _ in range(n_tokens)]
        closes: list[list[str]] = [[] for _ in range(n_tokens)]
        for label, chain in enumerate(chains):
            for s, e in chain:
                if s == e:
                    singles[s].append(f"({label})")
                else:
                    opens[s].append(f"({label}")
                    closes[e].append(f"{label})")
        lines.append(f"#begin document ({doc.name}); part 000")
        t = 0
        for n in doc.sentence_lengths:
            for i in range(n):
                cell = "|".join(singles[t] + opens[t] + closes[t]) or "-"
                word = f"w{t % 97}"
                lines.append("\t".join((doc.name, "0", str(i), word, "NN", "*", word, "-", "-", "-", "*", cell)))
                t += 1
            lines.append("")
        lines.append("#end document")
    return "\n".join(lines) + "\n"


def scorch_json(chains: list[list[Span]]) -> dict:
    """scorch's input for one document: {"type": "clusters", "clusters": {id: [mention, ...]}}."""
    return {"type": "clusters",
            "clusters": {str(i): [f"{s}-{e}" for s, e in chain] for i, chain in enumerate(chains)}}


def write(out: str, docs: list[SyntheticDoc]) -> dict:
    os.makedirs(out, exist_ok=True)
    for side in ("key", "response"):
        with open(os.path.join(out, f"{side}.conll"), "w", encoding="utf-8") as fh:
            fh.write(conll_text(docs, side))
        folder = os.path.join(out, "scorch", side)
        os.makedirs(folder, exist_ok=True)
        for doc in docs:
            with open(os.path.join(folder, f"{doc.name}.json"), "w", encoding="utf-8") as fh:
                json.dump(scorch_json(doc.key if side == "key" else doc.response), fh)
    return stats(docs)


def stats(docs: list[SyntheticDoc]) -> dict:
    return {
        "documents": len(docs),
        "tokens": sum(sum(d.sentence_lengths) for d in docs),
        "key_mentions": sum(len(c) for d in docs for c in d.key),
        "key_chains": sum(len(d.key) for d in docs),
        "response_mentions": sum(len(c) for d in docs for c in d.response),
        "response_chains": sum(len(d.response) for d in docs),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description="Write a synthetic key/response pair (CoNLL + scorch JSON).")
    ap.add_argument("out")
    ap.add_argument("--docs", type=int, default=108)
    ap.add_argument("--tokens", type=int, default=98363)
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    print(json.dumps(write(args.out, generate(args.docs, args.tokens, args.seed))))


if __name__ == "__main__":
    main()

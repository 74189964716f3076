"""Hypothesis strategies for random key/response corpora, shared by the property tests.

Why these shapes: the metrics are only interesting where documents are awkward, so the generated
documents are short (a few tokens) and crowded: mentions nest and overlap, chains mix singletons
and long chains, responses miss key mentions and invent twinless ones, documents can be empty.
Every mention gets an explicit `MentionType` on both sides (`Document.explicit_types`), so the
linguistically aware metrics see all three types without depending on the typing rules.

Spans in a generated document are distinct unless `duplicates=True`: the official scorer's
handling of a span repeated in two chains depends on chain order (which copy is kept), so any
property about reordering or swapping must be checked on documents without repeats.

Import from a test as `from strategies import ...` (pytest puts tests/ on sys.path, having no
`__init__.py` there); `benchmarks/fuzz_readers.py` inserts tests/ on sys.path itself.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

from hypothesis import strategies as st

from metrics.model import Document, MentionType, Span
from metrics.scoring import ALL_METRICS, APPLICATION
from metrics.weights import Weights

WORDS = ("Ann", "saw", "the", "dog", "she", "it", "in", "Paris", "a", "cat", "he", "ran")


def computed_metrics() -> tuple[str, ...]:
    """Every metric the engine can compute now: Tuggener's application metrics only once
    `metrics/tuggener.py` exists (another helper's module, landing separately)."""
    if importlib.util.find_spec("metrics.tuggener") is None:
        return tuple(m for m in ALL_METRICS if m not in APPLICATION)
    return ALL_METRICS


@dataclass
class Pair:
    """One generated key document and its response document (same name, same words)."""

    key: Document
    response: Document


def make_document(name: str, words: list[str], chains: list[list[Span]], types: dict[Span, MentionType],
                  labels: list[str] | None = None) -> Document:
    """A Document as a reader would produce it, with explicit types for every span it holds."""
    spans = {s for chain in chains for s in chain}
    return Document(
        name=name, words=list(words), chains=[list(c) for c in chains],
        labels=list(labels) if labels is not None else [str(i) for i in range(len(chains))],
        sentence_starts=[0] if words else [], path=f"{name}.conll", line=1,
        token_lines=list(range(2, 2 + len(words))),
        explicit_types={s: types[s] for s in spans},
    )


@st.composite
def span_sets(draw: st.DrawFn, n_tokens: int, max_size: int = 8) -> list[Span]:
    """Distinct spans over n_tokens tokens (nested and overlapping ones come naturally)."""
    spans = st.tuples(st.integers(0, n_tokens - 1), st.integers(0, 3)).map(
        lambda t: (t[0], min(t[0] + t[1], n_tokens - 1)))
    return draw(st.lists(spans, max_size=max_size, unique=True))


@st.composite
def partitions(draw: st.DrawFn, mentions: list[Span], duplicates: bool = False) -> list[list[Span]]:
    """Split mentions into chains (singletons included); with `duplicates`, some spans are repeated
    in the same or another chain, the way real system output sometimes does."""
    if not mentions:
        return []
    owner = draw(st.lists(st.integers(0, len(mentions) - 1), min_size=len(mentions), max_size=len(mentions)))
    chains: dict[int, list[Span]] = {}
    for span, chain in zip(mentions, owner):
        chains.setdefault(chain, []).append(span)
    result = [chains[k] for k in sorted(chains)]
    if duplicates:
        extra = draw(st.lists(st.tuples(st.sampled_from(mentions), st.integers(0, len(result) - 1)), max_size=3))
        for span, chain in extra:
            result[chain].append(span)
    return result


@st.composite
def pairs(draw: st.DrawFn, name: str = "doc0", gold_mentions: bool = False, duplicates: bool = False,
          key_duplicates: bool | None = None, max_tokens: int = 10, max_mentions: int = 8) -> Pair:
    """A key document and a response over the same words.

    gold_mentions: the response holds exactly the key's mentions, in other chains.  Otherwise it
    keeps a random subset of them and adds twinless spans of its own.  duplicates: spans may
    repeat in the response, and in the key too unless key_duplicates is False (a key with a
    repeated span is not a valid key: v8.01 then scores above 1, see tests/test_properties.py).
    """
    if key_duplicates is None:
        key_duplicates = duplicates
    n = draw(st.integers(1, max_tokens))
    words = [WORDS[draw(st.integers(0, len(WORDS) - 1))] for _ in range(n)]
    key_mentions = draw(span_sets(n, max_mentions))
    if gold_mentions:
        response_mentions = list(key_mentions)
        response_mentions = draw(st.permutations(response_mentions))
    else:
        kept = [s for s in key_mentions if draw(st.booleans())]
        extra = [s for s in draw(span_sets(n, 4)) if s not in key_mentions]
        response_mentions = draw(st.permutations(kept + extra))
    spans = sorted(set(key_mentions) | set(response_mentions))
    types = {s: MentionType(draw(st.integers(0, 2))) for s in spans}
    key = make_document(name, words, draw(partitions(key_mentions, key_duplicates)), types)
    response = make_document(name, words, draw(partitions(list(response_mentions), duplicates)), types)
    return Pair(key, response)


@st.composite
def corpora(draw: st.DrawFn, gold_mentions: bool = False, duplicates: bool = False,
            key_duplicates: bool | None = None, max_documents: int = 3) -> list[Pair]:
    """Several documents with distinct names, each with its response."""
    n = draw(st.integers(1, max_documents))
    return [draw(pairs(f"doc{i}", gold_mentions, duplicates, key_duplicates)) for i in range(n)]


def weights(positive: bool = True) -> st.SearchStrategy[Weights]:
    """Weight vectors W = (nam, nom, pro, sing); zero allowed unless `positive`."""
    low = 0.01 if positive else 0.0
    value = st.one_of(st.sampled_from([low, 0.25, 0.5, 1.0]), st.floats(low, 2.0))
    return st.tuples(value, value, value, value).map(lambda t: Weights(*t))

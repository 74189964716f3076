"""Impact by count changes (metrics/errors/delta.py) against rescoring whole documents.

The shapes here are the ones the change-based pricing exists for, and where its shortcuts (per-chain
sums, leaves reduced to the best one per hub) could go wrong: hub chains with many leaves on either
side, leaves whose best partner changes with the hub's size, chains that reach or leave one mention,
new chains, mentions added and removed.  Every record's price and every category's is compared with
the brute force of tests/test_errors_impact.py (score the corpus before and after, whole).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import make_document
from test_errors_impact import full_rescore

from records_road import apply_records, price_category
from metrics.errors.delta import DELTA_METRICS
from metrics.errors.chen_ng.fixes import apply_fixes, edit_chains, fix_of
from metrics.errors.chen_ng import impact
from metrics.errors.chen_ng.impact import Pricer
from metrics.errors.chen_ng.records import Category, classify_corpus
from metrics.model import MentionType
from metrics.corpus.scoring import prepare
from metrics.measures.weights import W4

PRICED = sorted(DELTA_METRICS) + ["conll"]


def _document(name: str, n_tokens: int, chains: list[list[int]]):
    spans = [[(i, i) for i in chain] for chain in chains]
    types = {(i, i): MentionType(i % 3) for i in range(n_tokens)}
    return make_document(name, ["w"] * n_tokens, spans, types)


def _hub_shapes(seed: int, n: int) -> list[tuple[list[list[int]], list[list[int]]]]:
    """Key and response chains (token indices) of hub-and-leaf documents of about n tokens."""
    rng = random.Random(seed)
    tokens = list(range(n))
    singletons = [[i] for i in tokens]
    alternate = [[i for i in tokens if i % 2 == 0]] + [[i] for i in tokens if i % 2]
    pairs = [tokens[i:i + 2] for i in range(0, n, 2)]
    mixed_key = [list(c) for c in _random_partition(rng, tokens, n // 3)]
    mixed_response = [list(c) for c in _random_partition(rng, [i for i in tokens if rng.random() < 0.8], n // 4)]
    big = [tokens[: n // 2]] + [[i] for i in tokens[n // 2:]]
    return [
        (singletons, alternate),          # the case: one response chain over key singletons
        (alternate, singletons),          # the mirror: one key chain, response singletons
        (pairs, alternate),               # leaves of size 2, whose best partner moves with the hub
        (big, pairs[1:] + [[n + 1]]),     # hub key chain, twinless response mention
        (mixed_key, mixed_response),      # both sides random, mentions missing and twinless
    ]


def _random_partition(rng: random.Random, tokens: list[int], parts: int) -> list[list[int]]:
    chains: dict[int, list[int]] = {}
    for i in tokens:
        chains.setdefault(rng.randrange(max(parts, 1)), []).append(i)
    return [chains[k] for k in sorted(chains)]


def random_chains(rng: random.Random, n: int) -> tuple[list[list[int]], list[list[int]]]:
    """Key and response chains of one-token spans drawn at random over n tokens, each span once a
    side: key mentions the response misses, response mentions past the key's (up to 3)."""
    key_chains = _random_partition(rng, list(range(n)), rng.randint(1, n))
    kept = [i for i in range(n) if rng.random() < 0.85] + [n + i for i in range(rng.randint(0, 3))]
    return key_chains, _random_partition(rng, kept, rng.randint(1, max(len(kept) // 2, 1)))


def chains_repeating_spans(rng: random.Random, n: int, most: int = 1) -> tuple[list[list[int]], list[list[int]]]:
    """`random_chains` with a span listed again (1 to `most` times, in its own chain or another)
    in the response, and in the key too three times in ten: the documents no fast path prices."""
    key_chains, response_chains = random_chains(rng, n)
    for chains in (response_chains, key_chains) if rng.random() < 0.3 else (response_chains,):
        for _ in range(rng.randint(1, most) if most > 1 else 1):
            listed = [i for chain in chains for i in chain]
            if not listed:  # a side with no mention has nothing to list again
                break
            span = rng.choice(listed)
            rng.choice(chains).append(span)
    return key_chains, response_chains


def random_pair(seed: int, n: int, n_tokens: int):
    """A one-document key and response of n_tokens tokens with `random_chains` drawn from seed."""
    key_chains, response_chains = random_chains(random.Random(seed), n)
    return [_document("d", n_tokens, key_chains)], [_document("d", n_tokens, response_chains)]


@pytest.mark.parametrize("shape", range(5))
@pytest.mark.parametrize("metric", PRICED)
def test_every_fix_of_a_hub_document_priced_as_by_rescoring(shape: int, metric: str) -> None:
    n = 24
    key_chains, response_chains = _hub_shapes(shape, n)[shape]
    keys = [_document("d", n + 2, key_chains)]
    responses = [_document("d", n + 2, response_chains)]
    prepared = prepare(keys, responses)
    pricer = Pricer(prepared, metric, W4)
    assert pricer._state(0).delta is not None, "a clean document is priced by count changes"
    records = classify_corpus(prepared.pairs, W4)
    assert records
    for record in records:
        fixed = apply_fixes(keys[0], prepared.pairs[0].response, [fix_of(record)])
        assert pricer.price(0, [fix_of(record)]) == pytest.approx(
            full_rescore(keys, responses, 0, fixed, W4, metric), abs=1e-9), record
    for category in Category:
        mine = [r for r in records if r.category is category]
        fixed = apply_records(keys[0], prepared.pairs[0].response, mine)
        assert price_category(pricer, records, category) == pytest.approx(
            full_rescore(keys, responses, 0, fixed, W4, metric), abs=1e-9), category


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(4, 40), st.sampled_from(PRICED), st.data())
def test_random_hub_documents_priced_as_by_rescoring(seed: int, n: int, metric: str, data) -> None:
    keys, responses = random_pair(seed, n, n + 4)
    prepared = prepare(keys, responses)
    records = classify_corpus(prepared.pairs, W4)
    if not records:
        return
    pricer = Pricer(prepared, metric, W4)
    chosen = data.draw(st.lists(st.sampled_from(records), min_size=1, max_size=6, unique=True))
    for record in chosen:
        fixed = apply_fixes(keys[0], prepared.pairs[0].response, [fix_of(record)])
        assert pricer.price(0, [fix_of(record)]) == pytest.approx(
            full_rescore(keys, responses, 0, fixed, W4, metric), abs=1e-9)
    together = sorted(chosen, key=lambda r: r.span)
    fixed = apply_records(keys[0], prepared.pairs[0].response, together)
    assert pricer.price(0, [fix_of(r) for r in together]) == pytest.approx(
        full_rescore(keys, responses, 0, fixed, W4, metric), abs=1e-9)


def test_documents_with_a_repeated_span_and_other_metrics_are_rescored() -> None:
    keys = [_document("d", 6, [[0, 1], [2]])]
    repeated = [_document("d", 6, [[0, 1], [1, 2]])]
    assert Pricer(prepare(keys, repeated), "conll")._state(0).delta is None
    clean = [_document("d", 6, [[0, 1, 2]])]
    assert Pricer(prepare(keys, clean), "conll")._state(0).delta is not None
    assert Pricer(prepare(keys, clean), "blanc")._state(0).delta is None
    assert Pricer(prepare(keys, clean), "lmuc")._state(0).delta is None


def test_a_long_document_with_a_repeated_span_prices_the_fixes_clear_of_it_by_count_changes() -> None:
    keys = [_document("d", 8, [[0, 1], [2], [3, 4, 5]])]
    repeated = [_document("d", 8, [[0, 6], [6, 2], [3, 4], [5]])]  # span 6 twice; chains 0-1 reach it
    pricer = Pricer(prepare(keys, repeated), "conll")
    state = pricer._state(0)
    assert state.delta is None, "a short document is rescored, as it always was"
    impact.PARTIAL_DELTA_TOKENS, before = 0, impact.PARTIAL_DELTA_TOKENS
    try:
        state = Pricer(prepare(keys, repeated), "conll")._state(0)
    finally:
        impact.PARTIAL_DELTA_TOKENS = before
    assert state.delta is not None
    assert state.tainted == (frozenset({0, 1}), frozenset({0, 1}))
    records = classify_corpus(prepare(keys, repeated).pairs, W4)
    clear = [r for r in records if r.span == (5, 5)]  # moves 5 between chains 2 and 3, clear of 6
    near = [r for r in records if r.span != (5, 5)]
    assert clear and near
    assert all(state.by_delta(edit_chains(state.base, [fix_of(r)])) for r in clear)
    assert not any(state.by_delta(edit_chains(state.base, [fix_of(r)])) for r in near)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(6, 40), st.sampled_from(PRICED), st.data())
def test_documents_with_repeated_spans_priced_by_count_changes_where_clean(seed: int, n: int, metric: str,
                                                                           data) -> None:
    """A document listing spans twice (in one chain or two, on either side), its clean fixes
    priced by the delta table (as a long document's are), every price as by rescoring."""
    key_chains, response_chains = chains_repeating_spans(random.Random(seed), n, most=2)
    keys = [_document("d", n + 4, key_chains)]
    responses = [_document("d", n + 4, response_chains)]
    impact.PARTIAL_DELTA_TOKENS, before = 0, impact.PARTIAL_DELTA_TOKENS
    try:
        prepared = prepare(keys, responses)
        records = classify_corpus(prepared.pairs, W4)
        if not records:
            return
        pricer = Pricer(prepared, metric, W4)
        chosen = data.draw(st.lists(st.sampled_from(records), min_size=1, max_size=6, unique=True))
        for record in chosen:
            fixed = apply_fixes(keys[0], prepared.pairs[0].response, [fix_of(record)])
            assert pricer.price(0, [fix_of(record)]) == pytest.approx(
                full_rescore(keys, responses, 0, fixed, W4, metric), abs=1e-9)
        together = sorted(chosen, key=lambda r: r.span)
        fixed = apply_records(keys[0], prepared.pairs[0].response, together)
        assert pricer.price(0, [fix_of(r) for r in together]) == pytest.approx(
            full_rescore(keys, responses, 0, fixed, W4, metric), abs=1e-9)
    finally:
        impact.PARTIAL_DELTA_TOKENS = before

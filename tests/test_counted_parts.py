"""Rescored parts' tables counted from the document's cells (`chen_ng/counted_parts.py`) against
the tables v8.01's alignment gives the same parts, and the prices they give against the prices of
the aligned parts.

The documents list spans twice (in another chain and in the same one, on the response side, where
v8.01 drops a key-matching span met again and keeps a twinless one at every place), and the
edits are any fixes, one or several, so that chains empty, repeated spans move, and new chains
appear.
"""

from __future__ import annotations

import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import corpora
from test_impact_delta import _document, chains_repeating_spans

from records_road import price_all
from metrics.corpus.scoring import prepare
from metrics.errors.chen_ng.counted_parts import key_regular, part_table, part_tables
from metrics.errors.chen_ng.fixes import Fix, FixKind, edit_chains, fix_of, reach
from metrics.errors.chen_ng import rescoring
from metrics.errors.chen_ng.impact import Pricer
from metrics.errors.chen_ng.records import classify_corpus
from metrics.measures.table import build_table
from metrics.measures.weights import W4
from metrics.mentions.alignment import align
from metrics.model import Document

TABLE_FIELDS = ("key_sizes", "response_sizes", "cell_key", "cell_response", "primary", "shared", "key_side",
                "simple_cells", "star_cells", "star_starts")


def _repeating_pair(seed: int, n: int) -> tuple[list[Document], list[Document]]:
    """A document whose response lists spans twice or more (in its own chain or another), the
    key every span once."""
    rng = random.Random(seed)
    key_chains, response_chains = chains_repeating_spans(rng, n, most=3)
    key_chains = [list(dict.fromkeys(chain)) for chain in key_chains]  # the key: each span once ...
    seen: set[int] = set()
    key_chains = [[i for i in chain if not (i in seen or seen.add(i))] for chain in key_chains]  # ... in one chain
    return [_document("d", n + 6, key_chains)], [_document("d", n + 6, response_chains)]


def _fixes(rng: random.Random, n: int, records) -> list[Fix]:
    """One to four fixes: the records' own, and fixes of any kind on any token's span."""
    out = []
    for _ in range(rng.randint(1, 4)):
        if records and rng.random() < 0.5:
            out.append(fix_of(rng.choice(records)))
        else:
            kind = rng.choice(list(FixKind))
            target = (rng.randrange(n + 6),) * 2 if kind is FixKind.LINK else None
            out.append(Fix(kind, (rng.randrange(n + 6),) * 2, target))
    return out


def _aligned_table(pair, keys: list[int], chains: list[list]) -> object:
    key = Document(name="d", words=pair.key.words, chains=[pair.key.chains[k] for k in keys],
                   labels=[str(k) for k in keys])
    response = Document(name="d", words=pair.key.words, chains=[c for c in chains if c],
                        labels=[str(t) for t, c in enumerate(chains) if c])
    return build_table(align(key, response))


def _same_table(counted, aligned) -> None:
    for name in TABLE_FIELDS:
        assert np.array_equal(getattr(counted, name), getattr(aligned, name)), name
    assert len(counted.components) == len(aligned.components)
    for mine, theirs in zip(counted.components, aligned.components):
        assert all(np.array_equal(a, b) for a, b in zip(mine, theirs))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(4, 30))
def test_a_counted_part_is_the_table_of_the_aligned_part(seed: int, n: int) -> None:
    keys, responses = _repeating_pair(seed, n)
    prepared = prepare(keys, responses)
    pricer = Pricer(prepared, "conll", W4)
    state = pricer._state(0)
    counted = state.counted()
    assert counted is not None and key_regular(prepared.pairs[0].key.chains, state.base.key_chain_of)
    records = classify_corpus(prepared.pairs, W4)
    rng = random.Random(seed + 1)
    pair = prepared.pairs[0]
    n_orig = len(pair.response.chains)
    parts, one_by_one = [], []
    for _ in range(12):
        edit = edit_chains(state.base, _fixes(rng, n, records))
        if not edit.touched:
            continue
        key_set, resp_set = reach(edit, state.components(), state.key_chains_of(), state.response_chains_of)
        old_set = [t for t in resp_set if t < n_orig]
        before = part_table(counted, key_set, old_set, pair.response.chains.__getitem__, moved={}, copies={})
        after = part_table(counted, key_set, resp_set, edit.chain, moved=edit.moved, copies=state.base.copies)
        # read from the cells, the edit's moves added: the aligned part's table
        _same_table(before, _aligned_table(pair, key_set, [pair.response.chains[t] for t in old_set]))
        _same_table(after, _aligned_table(pair, key_set, [edit.chain(t) for t in resp_set]))
        parts += [(key_set, old_set, pair.response.chains.__getitem__, frozenset()),
                  (key_set, resp_set, edit.chain, edit.touched)]
        one_by_one += [before, after]
    at_once = part_tables(counted, parts)  # all tabled together, the changed chains walked: each its part's table
    assert len(at_once) == len(one_by_one)
    for together, alone in zip(at_once, one_by_one):
        _same_table(together, alone)
        assert (together.n_key_spans, together.n_response_spans, together.matched) == \
            (alone.n_key_spans, alone.n_response_spans, alone.matched)
        assert all(np.asarray(getattr(together, name)).dtype == np.asarray(getattr(alone, name)).dtype
                   for name in TABLE_FIELDS)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(duplicates=True, key_duplicates=False), st.sampled_from(("conll", "lea", "ceafm")),
       st.sampled_from((0, 5)))
def test_counted_parts_price_every_fix_as_aligned_parts(corpus, metric: str, smallest: int) -> None:
    """Every record's price and every category's, with the rescored parts counted (all of them, or
    those of `smallest` chains or more, scored in one batch with the others aligned), equal to
    the bit those with every part aligned (the rescoring as it was)."""
    keys = [p.key for p in corpus]
    responses = [p.response for p in corpus]
    records = classify_corpus(prepare(keys, responses).pairs, W4)
    aligned = Pricer(prepare(keys, responses), metric, W4)
    aligned._count_parts = False
    expected = price_all(aligned, records, records)
    rescoring.COUNTED_CHAINS, before = smallest, rescoring.COUNTED_CHAINS
    try:
        counted = Pricer(prepare(keys, responses), metric, W4)
        assert price_all(counted, records, records) == expected
    finally:
        rescoring.COUNTED_CHAINS = before

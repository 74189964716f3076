"""The engine against a literal, pair-by-pair reading of the official scorer v8.01.

`literal_v801` below is written the slow, obvious way the reference scorer's documentation and
source describe (mention ids, duplicate removal, link sets): nothing shared with the engine's
contingency-table arithmetic.  Hypothesis feeds both random documents full of the oddities real
system output has (a span in two chains on either side, twinless repeats, nested mentions), and
every count must agree.
"""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

from metrics.model import Document
from metrics.corpus.scoring import prepare_pair


def literal_v801(key: list[list[tuple[int, int]]], response: list[list[tuple[int, int]]]) -> dict[str, list[float]]:
    ids: dict[tuple[int, int], int] = {}
    count = 0
    for chain in key:
        for m in chain:
            ids[m] = count
            count += 1
    mapped: dict[tuple[int, int], int] = {}
    assigned: set[int] = set()
    exact = 0
    resp = [list(c) for c in response]
    for chain in resp:
        remove = []
        for i, m in enumerate(chain):
            if m in mapped:
                remove.append(i)
            elif m in ids and ids[m] not in assigned:
                assigned.add(ids[m])
                mapped[m] = ids[m]
                exact += 1
        for i in reversed(remove):
            del chain[i]
    resp = [c for c in resp if c]
    for chain in resp:
        for m in chain:
            if m not in mapped:
                mapped[m] = count
                count += 1
    K = [[ids[m] for m in c] for c in key]
    R = [[mapped[m] for m in c] for c in resp]
    k_index = {e: i for i, c in enumerate(K) for e in c}

    correct = 0
    for c in R:
        for i in range(len(c)):
            for j in range(i + 1, len(c)):
                if c[i] in k_index and c[j] in k_index and k_index[c[i]] == k_index[c[j]]:
                    correct += 1
                    break
    muc = [correct, sum(len(c) - 1 for c in K if c), correct, sum(len(c) - 1 for c in R)]

    acc_r = acc_p = 0.0
    for c in R:
        for m in c:
            kc = K[k_index[m]] if m in k_index else []
            ci = sum(1 for mr in c if mr in kc)
            acc_p += ci / len(c)
            if kc:
                acc_r += ci / len(kc)
    bcub = [acc_r, sum(map(len, K)), acc_p, sum(map(len, R))]

    def ceaf(entity: bool) -> list[float]:
        if not K or not R:
            total = 0.0
        else:
            sim = np.zeros((len(K), len(R)))
            for i, a in enumerate(K):
                for j, b in enumerate(R):
                    inter = sum(1 for x in a if x in b)
                    sim[i, j] = 2 * inter / (len(a) + len(b)) if entity else inter
            ri, ci = linear_sum_assignment(sim, maximize=True)
            total = float(sim[ri, ci].sum())
        if entity:
            return [total, len(K), total, len(R)]
        return [total, sum(map(len, K)), total, sum(map(len, R))]

    def link_sets(chains: list[list[int]]) -> tuple[set, set]:
        coref, non = set(), set()
        for c in chains:
            for a, b in itertools.combinations(c, 2):
                coref.add((min(a, b), max(a, b)))
        for c1, c2 in itertools.combinations(chains, 2):
            for a in c1:
                for b in c2:
                    non.add((min(a, b), max(a, b)))
        return coref, non

    kc_, kn_ = link_sets(K)
    rc_, rn_ = link_sets(R)
    blanc = [len(kc_ & rc_), len(kc_), len(kc_ & rc_), len(rc_), len(kn_ & rn_), len(kn_), len(kn_ & rn_), len(rn_)]
    mentions = [exact, len(ids), exact, len(mapped)]
    return {"muc": muc, "bcub": bcub, "ceafm": ceaf(False), "ceafe": ceaf(True), "blanc": blanc, "mentions": mentions}


N_TOKENS = 6
spans = st.tuples(st.integers(0, N_TOKENS - 1), st.integers(0, 2)).map(lambda t: (t[0], min(N_TOKENS - 1, t[0] + t[1])))
chains = st.lists(st.lists(spans, min_size=1, max_size=5), max_size=5)


def document(chain_list: list[list[tuple[int, int]]]) -> Document:
    return Document(name="d", words=[f"w{i}" for i in range(N_TOKENS)], chains=chain_list,
                    labels=[str(i) for i in range(len(chain_list))])


@settings(max_examples=400, deadline=None)
@given(key=chains, response=chains)
def test_engine_equals_literal_v801(key, response):
    expected = literal_v801(key, response)
    pair = prepare_pair(document(key), document(response))
    for name, counts in expected.items():
        got = pair.score(name).counts()
        assert np.allclose(got, counts, rtol=0, atol=1e-9), (name, got, counts)


def test_key_duplicate_follows_last_chain():
    # span (0,0) in key chains 0 and 1: v8.01 attributes it to chain 1 for MUC and B3
    key = [[(0, 0), (1, 1)], [(2, 2), (0, 0)]]
    response = [[(0, 0), (1, 1), (2, 2)]]
    expected = literal_v801(key, response)
    pair = prepare_pair(document(key), document(response))
    assert pair.score("muc").counts() == expected["muc"]
    assert np.allclose(pair.score("bcub").counts(), expected["bcub"])


def test_twinless_repeat_links_with_itself_in_blanc():
    key = [[(0, 0), (1, 1)]]
    response = [[(0, 0), (4, 4)], [(1, 1), (4, 4)]]
    expected = literal_v801(key, response)
    pair = prepare_pair(document(key), document(response))
    assert pair.score("blanc").counts() == expected["blanc"]
    assert expected["blanc"][7] == 4  # (0,1) (0,4) (4,1) and the self-pair (4,4)

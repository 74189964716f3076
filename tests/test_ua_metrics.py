"""The UA conventions' metrics against brute forces written from their definitions.

Random documents (markables with shared and duplicated spans, entities, split antecedents, nested
plurals, non-referring markables, bridging links) are clustered by `side_clusters`, then every
metric is computed twice: by the engine (indexes, fast paths, Hungarian assignments) and here by
enumeration (every link, every pair, every permutation).  The split antecedents' alignment is
brute-forced too; a case where two optimal alignments give different credits is skipped (the
engine takes scipy's, as the UA scorer does).
"""

from __future__ import annotations

import itertools
import random

import pytest

from metrics.corpus.ua import Settings, score_corpus
from metrics.measures import ua as coref
from metrics.measures import ua_relations as relations
from metrics.mentions.ua import BridgingLink, Markable, Mention, UADocument
from metrics.mentions.ua_align import align, cluster_index, side_clusters


# --------------------------------------------------------------------------- random documents

def random_markables(rng: random.Random, n_words: int = 14, n: int = 9, tag: str = "") -> list[Markable]:
    plural = ["P1", "P2"]
    plain = ["1", "2", "3", "4", "5"]
    out = []
    for i in range(n):
        first = rng.randrange(n_words)
        last = min(n_words - 1, first + rng.choice((0, 0, 1, 2)))
        roll = rng.random()
        entity = rng.choice(plural) if roll < 0.2 else (f"{i}-Pseudo" if roll < 0.3 else rng.choice(plain))
        element_of = (rng.choice(plural),) if entity in plain and rng.random() < 0.3 else ()
        out.append(Markable(f"m{tag}{i}", entity, ((first, last),), (first, first), False, element_of))
    if rng.random() < 0.3:  # a plural nested in another
        out.append(Markable(f"m{tag}n", "P1", ((0, 0),), (0, 0), False, ("P2",)))
    return out


def random_pair(seed: int):
    rng = random.Random(seed)
    key = random_markables(rng, tag="k")
    response = random_markables(rng, tag="r") if rng.random() < 0.5 else \
        [m for m in key if rng.random() < 0.8] + random_markables(rng, n=3, tag="r")
    return key, response


def sides_of(key: list[Markable], response: list[Markable], keep_split: bool = True, keep_singletons: bool = True):
    k = side_clusters(key, "exact", keep_singletons, keep_split, False)
    r = side_clusters(response, "exact", keep_singletons, keep_split, False)
    return coref.Sides(k.clusters, r.clusters, align(k.clusters, r.clusters, "exact").partner)


# --------------------------------------------------------------------------- brute forces

def where(m, clusters):
    """The last cluster holding m (by equality), or None."""
    found = None
    for i, c in enumerate(clusters):
        if any(m == other for other in c):
            found = i
    return found


def weighted(m, credit):
    """(the item standing for m on the other side, its weight)."""
    if m.is_split and m in credit:
        return credit[m]
    return m, 1.0


def muc_recall(key, response, credit, singletons=False):
    num = den = 0.0
    for c in key:
        if singletons and len(c) == 1:
            den += 1
            g = where(c[0], response)
            num += 1 if g is not None and len(response[g]) == 1 else 0
            continue
        partitions = 0.0
        groups = {where(m, response) for m in c if not m.is_split} - {None}
        partitions += len(groups) + sum(1 for m in c if not m.is_split and where(m, response) is None)
        for m in c:
            if m.is_split:
                if m in credit and where(credit[m][0], response) in groups:
                    partitions += 1 - credit[m][1]
                else:
                    partitions += 1
        num += len(c) - partitions
        den += len(c) - 1
    return num, den


def bcub_recall(key, response, credit):
    num = den = 0.0
    for c in key:
        for g in range(len(response)):
            shared = sum(weighted(m, credit)[1] for m in c
                         if (not m.is_split or m in credit) and where(weighted(m, credit)[0], response) == g)
            num += shared * shared / len(c)
        den += len(c)
    return num, den


def lea_recall(key, response, credit):
    num = den = 0.0
    for c in key:
        if len(c) == 1:
            g = where(c[0], response)
            links, common = 1, (1 if g is not None and len(response[g]) == 1 else 0)
        else:
            links, common = len(c) * (len(c) - 1) / 2, 0.0
            for a, b in itertools.combinations(c, 2):
                (x, wx), (y, wy) = weighted(a, credit), weighted(b, credit)
                gx, gy = where(x, response), where(y, response)
                if gx is not None and gx == gy:
                    common += wx * wy
        num += len(c) * common / links
        den += len(c)
    return num, den


def phi3(k, r, credit_f):
    total = 0.0
    for m in k:
        if m.is_split:
            if m in credit_f and any(credit_f[m][0] == x for x in r):
                total += credit_f[m][1]
        elif any(m == x for x in r):
            total += 1
    return total


def ceaf(key, response, credit_f, entity):
    def phi(k, r):
        return 2 * phi3(k, r, credit_f) / (len(k) + len(r)) if entity else phi3(k, r, credit_f)
    best = 0.0
    small, large = (key, response) if len(key) <= len(response) else (response, key)
    for chosen in itertools.permutations(range(len(large)), len(small)):
        pairs = [(small[i], large[j]) for i, j in enumerate(chosen)]
        value = sum(phi(a, b) if small is key else phi(b, a) for a, b in pairs)
        best = max(best, value)
    size = (lambda side: len(side)) if entity else (lambda side: sum(len(c) for c in side))
    return best, size(response), best, size(key)


def blanc_parts(key, response, credit_f):
    coref_found = noncoref_found = 0.0
    for c in key:
        for i, j in itertools.combinations(range(len(c)), 2):
            x, wx = weighted(c[i], credit_f)
            gx, gy = where(x, response), where(c[j], response)
            if gx is not None and gx == gy:
                coref_found += wx
    for a, b in itertools.combinations(range(len(key)), 2):
        for m in key[a]:
            for n in key[b]:
                (x, wx), (y, wy) = weighted(m, credit_f), weighted(n, credit_f)
                gx, gy = where(x, response), where(y, response)
                if gx is not None and gy is not None and gx != gy:
                    noncoref_found += wx * wy
    links = lambda side: sum(len(c) * (len(c) - 1) / 2 for c in side)  # noqa: E731
    mentions = lambda side: sum(len(c) for c in side)  # noqa: E731
    nk, nr = mentions(key), mentions(response)
    return ((coref_found, links(response), coref_found, links(key)),
            (noncoref_found, nr * (nr - 1) / 2 - links(response), noncoref_found, nk * (nk - 1) / 2 - links(key)))


def f1_of(pn, pd, rn, rd):
    p = pn / pd if pd else 0
    r = rn / rd if rd else 0
    return 2 * p * r / (p + r) if p + r else 0


BRUTE = {
    "muc": lambda k, r, c, inner=False: (*muc_recall(r, k, c[1], inner), *muc_recall(k, r, c[0], inner)),
    "bcub": lambda k, r, c, inner=False: (*bcub_recall(r, k, c[1]), *bcub_recall(k, r, c[0])),
    "lea": lambda k, r, c, inner=False: (*lea_recall(r, k, c[1]), *lea_recall(k, r, c[0])),
    "ceafe": lambda k, r, c, inner=False: ceaf(k, r, c[2], True),
    "ceafm": lambda k, r, c, inner=False: ceaf(k, r, c[2], False),
    "blanc_coref": lambda k, r, c, inner=False: blanc_parts(k, r, c[2])[0],
    "blanc_noncoref": lambda k, r, c, inner=False: blanc_parts(k, r, c[2])[1],
}


def brute_credit(metric, key, response):
    """Every assignment of key to response split antecedents by total F1; None if the best ones
    disagree on the credits."""
    keys = [m for c in key for m in c if m.is_split]
    responses = [m for c in response for m in c if m.is_split]
    if not keys or not responses:
        return ({}, {}, {})
    table = {}
    for i, k in enumerate(keys):
        for j, r in enumerate(responses):
            pn, pd, rn, rd = BRUTE[metric](list(k.members), list(r.members), ({}, {}, {}), True)
            table[i, j] = (rn / rd if rd and rn else 0, pn / pd if pd and pn else 0, f1_of(pn, pd, rn, rd))
    best, credits = -1.0, set()
    small = min(len(keys), len(responses))
    for rows in itertools.permutations(range(len(keys)), small):
        for cols in itertools.permutations(range(len(responses)), small):
            total = round(sum(table[i, j][2] for i, j in zip(rows, cols)), 9)
            credit = frozenset((i, j, table[i, j]) for i, j in zip(rows, cols))
            if total > best:
                best, credits = total, {credit}
            elif total == best:
                credits.add(credit)
    useful = {frozenset(x for x in c if x[2][2] > 0 or x[2][0] > 0 or x[2][1] > 0) for c in credits}
    if len(useful) > 1:
        return None
    chosen = next(iter(useful))
    return ({keys[i]: (responses[j], v[0]) for i, j, v in chosen if v[0] > 0},
            {responses[j]: (keys[i], v[1]) for i, j, v in chosen if v[1] > 0},
            {keys[i]: (responses[j], v[2]) for i, j, v in chosen if v[2] > 0})


# --------------------------------------------------------------------------- the checks

@pytest.mark.parametrize("metric", sorted(coref.KERNELS))
@pytest.mark.parametrize("seed", range(60))
def test_each_metric_equals_its_brute_force(metric, seed):
    key, response = random_pair(seed)
    s = sides_of(key, response)
    credit = brute_credit(metric, s.key, s.response)
    if credit is None:
        pytest.skip("two optimal split-antecedent alignments with different credits")
    counts, _ = coref.document_counts(metric, s)
    assert counts == pytest.approx(BRUTE[metric](s.key, s.response, credit), abs=1e-9)


@pytest.mark.parametrize("seed", range(40))
def test_metrics_without_split_antecedents_equal_their_brute_force(seed):
    key, response = random_pair(seed)
    s = sides_of(key, response, keep_split=False, keep_singletons=seed % 2 == 0)
    for metric in coref.KERNELS:
        counts, split = coref.document_counts(metric, s)
        assert split is None
        assert counts == pytest.approx(BRUTE[metric](s.key, s.response, ({}, {}, {})), abs=1e-9)


def test_a_response_equal_to_its_key_scores_one_everywhere():
    """(Spans listed once: a span in two entities is found in the last only, by every metric.)"""
    for seed in range(20):
        key, _ = random_pair(seed)
        key = list({m.parts: m for m in reversed(key)}.values())[::-1]
        doc = UADocument("d", ["w"] * 14, key, [], [BridgingLink(key[0].id, key[1].id)])
        result = score_corpus([doc], [doc], "k", "r", Settings(keep_singletons=True, keep_split=True,
                                                                metrics=("mentions", "muc", "bcub", "ceafe", "ceafm",
                                                                         "blanc", "lea", "non_referring",
                                                                         *relations.BRIDGING)))
        for name, value in result.micro.items():
            if name == "non_referring" and not any(m.non_referring for m in key):
                continue
            assert (value.recall, value.precision, value.f1) == (1, 1, 1), name


def test_non_referring_by_enumeration():
    rng = random.Random(5)
    for _ in range(50):
        spans = [Mention((rng.randrange(6),)) for _ in range(rng.randrange(6))]
        others = [Mention((rng.randrange(6),)) for _ in range(rng.randrange(6))]
        score = relations.non_referring(spans, others)
        found = [m for m in spans if any(m == o for o in others)]
        spurious = [o for o in others if not any(o == m for m in spans)]
        assert (score.recall_num, score.recall_den) == (len(found), len(spans))
        assert (score.precision_num, score.precision_den) == (len(found), len(found) + len(spurious))


def test_bridging_by_enumeration():
    rng = random.Random(7)
    for _ in range(100):
        mentions = [Mention((i,)) for i in range(6)]
        key_index = {m: rng.randrange(3) for m in mentions if rng.random() < 0.8}
        key = {rng.choice(mentions): rng.choice(mentions) for _ in range(rng.randrange(5))}
        response = {rng.choice(mentions): rng.choice(mentions) for _ in range(rng.randrange(5))}
        scores = relations.bridging(relations.bridging_outcomes(key, response, key_index))
        both = [a for a in key if a in response]
        same_entity = [a for a in both if key[a] == response[a] or (
            key[a] in key_index and response[a] in key_index and key_index[key[a]] == key_index[response[a]])]
        exact = [a for a in both if key[a] == response[a]]
        for name, right in (("bridging_recognition", both), ("bridging_markable", exact),
                            ("bridging_entity", same_entity)):
            s = scores[name]
            assert (s.recall_num, s.recall_den, s.precision_num, s.precision_den) == \
                (len(right), len(key), len(right), len(response)), name


def test_mentions_and_partial_alignment_by_enumeration():
    """Partial matching takes a one-to-one pairing of largest total score (checked over every
    pairing) among mentions that are not equal, and `mentions` counts the aligned ones."""
    rng = random.Random(11)
    for _ in range(40):
        def side(tag):
            out = []
            for i in range(rng.randrange(1, 6)):
                first = rng.randrange(8)
                last = first + rng.randrange(3)
                out.append(Markable(f"{tag}{i}", str(rng.randrange(3)), ((first, last),),
                                    (first + rng.randrange(last - first + 1),) * 2, False))
            return out
        k = side_clusters(side("k"), "partial", True, False, False)
        r = side_clusters(side("r"), "partial", True, False, False)
        alignment = align(k.clusters, r.clusters, "partial")
        keys = [m for m in {m for c in k.clusters for m in c} if m not in {m for c in r.clusters for m in c}]
        responses = [m for m in {m for c in r.clusters for m in c} if m not in set(keys) | {m for c in k.clusters for m in c}]
        from metrics.mentions.ua_align import partial_score
        best = 0.0
        small, large = (keys, responses) if len(keys) <= len(responses) else (responses, keys)
        for chosen in itertools.permutations(large, len(small)):
            pairs = zip(small, chosen) if small is keys else zip(chosen, small)
            best = max(best, sum(partial_score(a, b) for a, b in pairs))
        got = sum(partial_score(a, b) for a, b in alignment.pairs if a != b)
        assert got == pytest.approx(best)
        found = {a for a, _ in alignment.pairs}
        score = relations.mentions(k.clusters, r.clusters, alignment.partner)
        assert score.recall_num == len({m for c in k.clusters for m in c} & found)


def test_cluster_index_keeps_the_last_cluster():
    a, b = Mention((1,)), Mention((2,))
    assert cluster_index([[a], [a, b]]) == {a: 1, b: 1}


def test_mor_equals_the_best_pairing_by_enumeration():
    """MOR pairs overlapping mentions group by group; the best pairing over all mentions at once
    shares as many words (mentions that do not overlap share none)."""
    rng = random.Random(13)
    for _ in range(60):
        def side():
            out = []
            for _ in range(rng.randrange(1, 5)):
                first = rng.randrange(10)
                out.append(Mention(range(first, first + rng.randrange(1, 4))))
            return [out]
        key, response = side(), side()
        keys, responses = key[0], response[0]
        small, large = (keys, responses) if len(keys) <= len(responses) else (responses, keys)
        best = max(sum(len(a & b) for a, b in zip(small, chosen))
                   for chosen in itertools.permutations(large, len(small)))
        score = relations.mor(key, response)
        assert (score.recall_num, score.recall_den) == (best, sum(len(m.words) for m in keys))
        assert (score.precision_num, score.precision_den) == (best, sum(len(m.words) for m in responses))


def test_weighted_non_coreference_links_add_in_the_ua_scorers_order():
    """BLANC's non-coreference count with credits, taken in blocks of rows, equals the plain loop
    the UA scorer runs (cluster by cluster, each product in order, each cluster's sum from 0.0) to
    the last bit."""
    import random

    import numpy as np

    from metrics.measures.ua import _noncoref_weighted

    rng = random.Random(7)
    for _ in range(200):
        sizes = [rng.randint(1, 4) for _ in range(rng.randint(1, 12))]
        n = sum(sizes)
        where = np.array([rng.choice([-1, 0, 1, 2, 3]) for _ in range(n)])
        weights = np.array([rng.choice([1.0, 1 / 3, 0.4, 2 / 7]) for _ in range(n)])
        expected, start = 0, 0
        for size in sizes:
            end = start + size
            terms = [weights[k] * weights[l] for k in range(start, end) if where[k] != -1
                     for l in range(end, n) if where[l] != -1 and where[l] != where[k]]
            if any(where[k] != -1 for k in range(start, end)):  # a found mention: its sum, 0.0 or more
                total = 0.0
                for term in terms:
                    total += term
                expected += float(total)
            start = end
        got = _noncoref_weighted(weights, where, sizes, rows=rng.randint(1, 5))
        assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize("seed", range(4))
def test_best_pairs_are_scipys_ties_included(seed):
    """The split antecedents' alignment takes scipy's pairs: with one split antecedent on a side
    (a row or a column) it is found without scipy, and must be the pair scipy picks among ties."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    rng = random.Random(seed)
    values = [0.0, 0.25, 0.5, 2 / 3, 1.0]
    for _ in range(500):
        n = rng.randint(1, 6)
        line = [rng.choice(values) for _ in range(n)]
        for shape in ((1, n), (n, 1), (rng.randint(2, 4), rng.randint(2, 4))):
            f1 = np.array(line if shape[0] * shape[1] == n else
                          [rng.choice(values) for _ in range(shape[0] * shape[1])], dtype=float).reshape(shape)
            rows, cols = coref.best_pairs(f1)
            expected_rows, expected_cols = linear_sum_assignment(-f1)
            assert rows.tolist() == expected_rows.tolist() and cols.tolist() == expected_cols.tolist()

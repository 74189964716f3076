"""Documents with plural entities, split antecedents kept, counted over columns (`ua_plural`:
`metrics.mentions.ua_plural`, `metrics.measures.ua_plural`) against the same documents clustered
into `Mention`s and `SplitAntecedent`s (`ua_align`, `metrics.measures.ua`, checked against the UA
scorer by benchmarks/check_ua.py): MUC, B3, CEAFe and CEAFm equal to the last bit, on random
documents with nested plural entities, plural entities of equal members (merged), plural entities
of one or many members, spans repeated within and across entities, parts, zeros and non-referring
entities."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.corpus import ua as corpus_ua
from metrics.corpus.ua import Settings, score_corpus
from metrics.measures import ua as coref
from metrics.measures import ua_columns as columnar
from metrics.measures import ua_plural
from metrics.mentions.ua import Markable, MarkableTable, UADocument
from metrics.mentions.ua_align import align, side_clusters
from metrics.mentions.ua_columns import applies, column_sides

WORDS = 14
SPLIT_KERNELS = ("muc", "bcub", "ceafe", "ceafm")


def plural_layer(rng: random.Random, tag: str) -> list[Markable]:
    """Markables of entities 0-6 (some non-referring); an entity's markables may name a later
    entity in ElementOf (so no entity is its own split antecedent), now and then two plural
    entities of the same members."""
    entities = [f"{e}-Pseudo" if rng.random() < 0.1 else str(e) for e in range(7)]
    plural_of = {e: tuple(sorted(rng.sample(range(e + 1, 7), min(6 - e, rng.choice((1, 1, 2))))))
                 for e in range(6) if rng.random() < 0.5}
    if rng.random() < 0.4 and plural_of:  # two plural entities made of the same members
        twin = [p for ps in plural_of.values() for p in ps]
        extra = rng.choice([e for e in range(7) if e not in twin] or [6])
        for e, ps in plural_of.items():
            if extra > e and ps:
                plural_of[e] = tuple(sorted(set(ps) | {extra}))
    out = []
    for i in range(rng.randrange(2, 16)):
        number = rng.randrange(7)
        if rng.random() < 0.1:  # a zero
            position = f"{rng.randrange(WORDS)}.{rng.randrange(2)}"
            out.append(Markable(f"{tag}{i}", entities[number], ((position, position),), None, True))
            continue
        first = rng.randrange(WORDS)
        last = min(WORDS - 1, first + rng.choice((0, 0, 1, 2)))
        parts = ((first, last),)
        if rng.random() < 0.1 and last + 2 < WORDS:
            second = last + rng.choice((1, 2))
            parts = ((first, last), (second, min(WORDS - 1, second + rng.randrange(2))))
        element_of = tuple(entities[p] for p in plural_of.get(number, ())) if rng.random() < 0.7 else ()
        out.append(Markable(f"{tag}{i}", entities[number], parts, (first, first), False, element_of))
    if rng.random() < 0.3 and out:  # a span given again, in its entity or another
        again = rng.choice(out)
        entity = rng.choice((again.entity, "6"))
        out.append(Markable(f"{tag}again", entity, again.parts, again.min_span, again.zero,
                            again.element_of if entity == again.entity else ()))
    return out


def plural_pair(seed: int) -> tuple[list[Markable], list[Markable]]:
    rng = random.Random(seed)
    key = plural_layer(rng, "k")
    roll = rng.random()
    if roll < 0.3:
        response = list(key)  # equal split antecedents
    elif roll < 0.7:
        response = [m for m in key if rng.random() < 0.8] + plural_layer(rng, "r")[:4]
        response = [Markable(m.id, m.entity, m.parts, m.min_span, m.zero, ()) if rng.random() < 0.15 else m
                    for m in response]
    else:
        response = plural_layer(rng, "r")
    return key, response


def _object_counts(key: list[Markable], response: list[Markable], name: str, keep_zeros: bool):
    k = side_clusters(key, "exact", True, True, keep_zeros)
    r = side_clusters(response, "exact", True, True, keep_zeros)
    sides = coref.Sides(k.clusters, r.clusters, align(k.clusters, r.clusters, "exact").partner)
    return coref.document_counts(name, sides)[0]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.booleans())
def test_plural_documents_over_columns_equal_the_mentions_to_the_bit(seed, keep_zeros):
    """Four documents counted at once, each equal to its own count over mentions."""
    documents = [plural_pair(seed * 4 + d) for d in range(4)]
    columns = column_sides([(MarkableTable.of(key), MarkableTable.of(response)) for key, response in documents],
                           keep_singletons=True, keep_split=True, keep_zeros=keep_zeros)
    for name in SPLIT_KERNELS:
        found = columnar.KERNELS[name](columns)
        for d, (key, response) in enumerate(documents):
            expected = _object_counts(key, response, name, keep_zeros)
            assert [float(x) for x in found[d]] == [float(x) for x in expected], (name, d)


def test_the_check_can_fail_credits_left_out_change_the_counts(monkeypatch):
    """Without the split antecedents' credit some counts differ (the test above can fail)."""
    documents = [plural_pair(seed) for seed in range(40)]
    tables = [(MarkableTable.of(key), MarkableTable.of(response)) for key, response in documents]
    monkeypatch.setattr(ua_plural, "credits", lambda name, s: ua_plural.Credits())
    columns = column_sides(tables, keep_singletons=True, keep_split=True, keep_zeros=False)
    differ = {name for name in SPLIT_KERNELS for d, (key, response) in enumerate(documents)
              if [float(x) for x in columnar.KERNELS[name](columns)[d]] !=
              [float(x) for x in _object_counts(key, response, name, False)]}
    assert differ == set(SPLIT_KERNELS)


def test_a_plural_document_is_counted_over_columns_only_for_the_metrics_that_credit_over_columns():
    key, response = (MarkableTable.of(side) for side in plural_pair(5))
    assert key.element_of
    assert applies(key, response, words=WORDS, match="exact", keep_split=True, only_split=False, credits_split=True)
    assert not applies(key, response, words=WORDS, match="exact", keep_split=True, only_split=False)
    assert not applies(key, response, words=WORDS, match="partial", keep_split=True, only_split=False,
                       credits_split=True)
    assert not applies(key, response, words=WORDS, match="exact", keep_split=True, only_split=True,
                       credits_split=True)


@pytest.mark.parametrize("metrics", [("muc", "bcub", "ceafe", "conll"), ("muc", "ceafm", "lea")])
def test_a_plural_corpus_scores_alike_over_columns_and_over_mentions(metrics, monkeypatch):
    """The road's scores, corpus and documents: counted over columns where they apply (the first
    metrics), or all over mentions (the columns turned off)."""
    pairs = [plural_pair(seed) for seed in range(12)]
    keys = [UADocument(f"d{d}", ["w"] * WORDS, key, [], [], path="k") for d, (key, _) in enumerate(pairs)]
    responses = [UADocument(f"d{d}", ["w"] * WORDS, response, [], [], path="r") for d, (_, response) in enumerate(pairs)]
    settings_ = Settings(keep_singletons=True, keep_split=True, metrics=metrics)
    fast = score_corpus(keys, responses, "k", "r", settings_)
    assert all(d.columnar for d in fast.documents) == ("lea" not in metrics)
    monkeypatch.setattr(corpus_ua, "applies", lambda *a, **k: False)
    slow = score_corpus(keys, responses, "k", "r", settings_)
    assert fast.totals == slow.totals
    for name in fast.micro:
        a, b = fast.micro[name], slow.micro[name]
        assert (a.recall, a.precision, a.f1) == (b.recall, b.precision, b.f1), name
    for a, b in zip(fast.documents, slow.documents):
        assert a.counts == b.counts

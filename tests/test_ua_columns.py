"""The UA scores counted over the markables' columns (`metrics.mentions.ua_columns`,
`metrics.measures.ua_columns`) against the same scores over clusters of mentions (`ua_align`,
`metrics.measures.ua`, themselves checked against brute forces in test_ua_metrics.py), and against
those brute forces: equal to the last bit, on random documents with repeated spans, spans in two
entities, parts, zeros and non-referring entities, under every setting the columns apply to."""

from __future__ import annotations

import itertools
import random

import pytest

from metrics.corpus import ua as corpus_ua
from metrics.corpus.ua import Settings, score_corpus
from metrics.measures import ua as coref
from metrics.measures import ua_columns as columnar
from metrics.measures import ua_relations as relations
from metrics.mentions.ua import BridgingLink, Markable, MarkableTable, UADocument
from metrics.mentions.ua_align import align, side_clusters
from metrics.mentions.ua_columns import applies, column_sides
from test_ua_metrics import BRUTE

WORDS = 12


def random_layer(rng: random.Random, tag: str, plural: bool = False, regular: bool = False) -> list[Markable]:
    """Markables over WORDS words: mostly one part, some of two parts, some on zeros (none of
    either when `regular`); entities few (so spans repeat within and across them), some
    non-referring; with `plural`, split antecedents."""
    out = []
    odd = 0.0 if regular else 0.12
    for i in range(rng.randrange(0, 10)):
        roll = rng.random()
        entity = f"{rng.randrange(3)}-Pseudo" if roll < 0.15 else str(rng.randrange(5))
        if rng.random() < odd:  # a zero before word w
            w = rng.randrange(WORDS)
            position = f"{w}.{rng.randrange(2)}"
            out.append(Markable(f"{tag}{i}", entity, ((position, position),), None, True))
            continue
        first = rng.randrange(WORDS)
        last = min(WORDS - 1, first + rng.choice((0, 0, 1, 2)))
        parts = ((first, last),)
        if rng.random() < odd and last + 2 < WORDS:  # two parts, with or without a gap
            second = last + rng.choice((1, 2))
            parts = ((first, last), (second, min(WORDS - 1, second + rng.randrange(2))))
        element_of = ("P",) if plural and rng.random() < 0.2 else ()
        out.append(Markable(f"{tag}{i}", entity, parts, (first, first), False, element_of))
    if rng.random() < 0.3 and out:  # a span given again, in its entity or another
        again = rng.choice(out)
        out.append(Markable(f"{tag}again", rng.choice((again.entity, "4")), again.parts, again.min_span, again.zero))
    return out


def random_pair(seed: int, plural: bool = False, regular: bool = False) -> tuple[list[Markable], list[Markable]]:
    rng = random.Random(seed)
    key = random_layer(rng, "k", plural, regular)
    if rng.random() < 0.5:
        response = [m for m in key if rng.random() < 0.8] + random_layer(rng, "r", plural, regular)[:3]
    else:
        response = random_layer(rng, "r", plural, regular)
    return key, response


SETTINGS = [dict(keep_singletons=singletons, keep_split=split, keep_zeros=zeros)
            for singletons, split, zeros in itertools.product((False, True), repeat=3)]


def object_sides(key: list[Markable], response: list[Markable], keep_singletons: bool, keep_split: bool,
                 keep_zeros: bool) -> coref.Sides:
    k = side_clusters(key, "exact", keep_singletons, keep_split, keep_zeros)
    r = side_clusters(response, "exact", keep_singletons, keep_split, keep_zeros)
    return coref.Sides(k.clusters, r.clusters, align(k.clusters, r.clusters, "exact").partner), k, r


@pytest.mark.parametrize("seed", range(60))
def test_each_kernel_over_columns_equals_it_over_mentions_to_the_bit(seed):
    """Five documents counted at once, each equal to its own count over mentions."""
    documents = [random_pair(seed * 5 + d) for d in range(5)]
    for settings in SETTINGS:
        columns = column_sides([(MarkableTable.of(key), MarkableTable.of(response)) for key, response in documents],
                               **settings)
        found = {name: kernel(columns) for name, kernel in columnar.KERNELS.items()}
        found_mentions, found_non_referring = columnar.mentions(columns), columnar.non_referring(columns)
        for d, (key, response) in enumerate(documents):
            s, k, r = object_sides(key, response, **settings)
            for name in columnar.KERNELS:
                expected, split = coref.document_counts(name, s)
                assert split is None
                counts = found[name][d]
                assert [float(x) for x in counts] == [float(x) for x in expected], (name, settings)
                assert all(type(x) in (int, float) for x in counts), name  # Python numbers, as JSON writes them
                if name in BRUTE:
                    assert counts == pytest.approx(BRUTE[name](s.key, s.response, ({}, {}, {})), abs=1e-9), name
            assert found_mentions[d] == relations.mentions(s.key, s.response, s.partner)
            assert found_non_referring[d] == relations.non_referring(k.non_referring, r.non_referring)


def test_columns_apply_only_without_split_antecedents_to_credit_and_under_exact_matching():
    rng = random.Random(3)
    plural = MarkableTable.of([m for m in random_layer(rng, "k", plural=True)] +
                              [Markable("p", "9", ((0, 0),), None, False, ("P",))])
    plain = MarkableTable.of(random_layer(rng, "r"))
    assert applies(plain, plain, words=WORDS, match="exact", keep_split=True, only_split=False)
    assert applies(plural, plain, words=WORDS, match="exact", keep_split=False, only_split=False)
    assert not applies(plural, plain, words=WORDS, match="exact", keep_split=True, only_split=False)
    assert not applies(plain, plural, words=WORDS, match="exact", keep_split=True, only_split=False)
    assert not applies(plain, plain, words=WORDS, match="exact", keep_split=True, only_split=True)
    assert not applies(plain, plain, words=1 << 20, match="exact", keep_split=False, only_split=False)
    for match in ("partial", "partial-craft", "head"):
        assert not applies(plain, plain, words=WORDS, match=match, keep_split=False, only_split=False)


@pytest.mark.parametrize("seed", range(60))
def test_mor_over_columns_equals_it_over_mentions(seed):
    """Five documents at once, most of markables of one part (overlapping: groups of several key
    and response mentions), some with parts or zeros (not counted over columns: None); half the
    seeds with split antecedents (no mentions of their own: left out)."""
    plural = seed % 2 == 1
    documents = [random_pair(seed * 5 + d, plural=plural, regular=d < 4) for d in range(5)]
    if plural:  # the plural entity "P" that `element_of` names, on both sides
        documents = [([*key, Markable("kP", "P", ((0, 1),), None, False)],
                      [*response, Markable("rP", "P", ((0, 1),), None, False)]) for key, response in documents]
    tables = [(MarkableTable.of(key), MarkableTable.of(response)) for key, response in documents]
    for settings in SETTINGS:
        regular = [not (key.irregular or response.irregular or settings["keep_split"] and plural)
                   for key, response in tables]
        found = columnar.mor(column_sides(tables, **settings), regular)
        for d, (key, response) in enumerate(documents):
            s, _, _ = object_sides(key, response, **settings)
            assert found[d] == (relations.mor(s.key, s.response) if regular[d] else None), settings


def _links(rng: random.Random, markables: list[Markable]) -> list[BridgingLink]:
    """Bridging links between these markables (an anaphor linked twice, a span linked from two
    markables), and now and then one naming a markable that is not there."""
    ids = [m.id for m in markables] + ["absent"]
    return [BridgingLink(rng.choice(ids), rng.choice(ids)) for _ in range(rng.randrange(0, 6))] if markables else []


def _corpus(seed: int, plural: bool, regular: bool = False) -> tuple[list[UADocument], list[UADocument]]:
    rng = random.Random(seed)
    keys, responses = [], []
    for d in range(4):
        key, response = random_pair(seed * 10 + d, plural, regular and d < 3)
        key_links = _links(rng, key)
        response_links = [link for link in key_links if rng.random() < 0.7] + _links(rng, response)
        keys.append(UADocument(f"d{d}", ["w"] * WORDS, key, [], key_links, path="k"))
        responses.append(UADocument(f"d{d}", ["w"] * WORDS, response, [], response_links, path="r"))
    return keys, responses


@pytest.mark.parametrize("seed", range(30))
def test_a_corpus_scores_alike_over_columns_and_over_mentions(seed, monkeypatch):
    """Every metric, corpus and document, every setting: the documents the columns apply to
    counted over columns, or all over mentions (the columns turned off)."""
    metrics = ("mentions", "muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "non_referring", "mor",
               "bridging_recognition", "bridging_markable", "bridging_entity")
    keys, responses = _corpus(seed, plural=seed % 3 == 0, regular=seed % 2 == 0)
    for fields in SETTINGS:
        settings = Settings(metrics=metrics, **fields)
        fast = score_corpus(keys, responses, "k", "r", settings)
        assert any(d.columnar for d in fast.documents) or fields["keep_split"]
        with monkeypatch.context() as patch:
            patch.setattr(corpus_ua, "applies", lambda *a, **k: False)
            slow = score_corpus(keys, responses, "k", "r", settings)
        assert not any(d.columnar for d in slow.documents)
        for name in metrics:
            a, b = fast.micro[name], slow.micro[name]
            assert (a.recall, a.precision, a.f1) == (b.recall, b.precision, b.f1), (name, fields)
        assert fast.totals == slow.totals
        assert fast.warnings == slow.warnings
        for a, b in zip(fast.documents, slow.documents):
            assert a.counts == b.counts
            assert {n: (v.recall, v.precision, v.f1) for n, v in a.scores.items()} == \
                {n: (v.recall, v.precision, v.f1) for n, v in b.scores.items()}

"""Breakdowns (metrics/statistics/breakdown.py) and the singleton policy, against brute force on random corpora."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from strategies import corpora

from metrics.statistics.breakdown import (GENRE_PATTERN, LENGTH_METRICS, OTHER, by_file, genre_of, group_documents,
                               length_breakdown, read_groups, type_breakdown)
from metrics.measures.catalog import ALL_METRICS, with_parts
from metrics.model import InputError, MentionType, without_singletons
from metrics.corpus.scoring import prepare
from metrics.measures.weights import W4

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(corpora(max_documents=5))
def test_group_micro_counts_sum_to_the_corpus_counts(corpus) -> None:
    result = prepare([p.key for p in corpus], [p.response for p in corpus]).score(W4, with_parts(ALL_METRICS))
    groups = group_documents(result, lambda name: "even" if len(name) % 2 else "odd")
    assert sorted(d for g in groups for d in g.documents) == sorted(name for name, _ in result.documents)
    for metric, total in result.micro.items():
        if not hasattr(total, "counts") or not total.counts():
            continue
        summed = [sum(values) for values in zip(*(g.result.micro[metric].counts() for g in groups))]
        assert summed == pytest.approx(total.counts(), abs=1e-9), metric


def _bucket(size: int) -> str:
    return "1" if size == 1 else "2-3" if size <= 3 else "4-9" if size <= 9 else "10+"


@SETTINGS
@given(corpora(max_documents=3))
def test_length_buckets_equal_per_chain_brute_force_and_sum_to_the_corpus(corpus) -> None:
    prepared = prepare([p.key for p in corpus], [p.response for p in corpus])
    buckets = {b.label: b for b in length_breakdown(prepared)}
    expected = {label: {"mentions": [0, 0], "muc": [0, 0], "bcub": [0.0, 0]} for label in buckets}
    for pair in prepared.pairs:
        response_chain = {s: i for i, chain in enumerate(pair.response.chains) for s in chain}
        for chain in pair.key.chains:
            spans = set(chain)
            row = expected[_bucket(len(spans))]
            parts: dict[int, int] = {}
            for s in spans:
                if s in response_chain:
                    parts[response_chain[s]] = parts.get(response_chain[s], 0) + 1
            row["mentions"][0] += sum(parts.values())
            row["mentions"][1] += len(spans)
            # MUC: |K| - p(K), partitions counting each mention the response misses as its own
            row["muc"][0] += len(spans) - (len(parts) + len(spans) - sum(parts.values()))
            row["muc"][1] += len(spans) - 1
            row["bcub"][0] += sum(n * n for n in parts.values()) / len(spans)
            row["bcub"][1] += len(spans)
    total = prepared.score(W4, LENGTH_METRICS).micro
    for metric in ("mentions", "muc", "bcub"):
        for label, bucket in buckets.items():
            got = bucket.recall[metric]
            assert (got.recall_num, got.recall_den) == pytest.approx(tuple(expected[label][metric]), abs=1e-9)
    for metric in LENGTH_METRICS:
        assert sum(b.recall[metric].recall_num for b in buckets.values()) == pytest.approx(total[metric].recall_num)
        assert sum(b.recall[metric].recall_den for b in buckets.values()) == pytest.approx(total[metric].recall_den)


@SETTINGS
@given(corpora(max_documents=3))
def test_type_breakdown_equals_a_naive_count(corpus) -> None:
    prepared = prepare([p.key for p in corpus], [p.response for p in corpus])
    rows = {row.type: row for row in type_breakdown(prepared)}
    naive = {t: [0, 0, 0, 0, 0, 0, 0, 0] for t in MentionType}
    for pair in prepared.pairs:
        types = pair.types
        key = {s: i for i, c in enumerate(pair.key.chains) for s in c}
        response = {s: i for i, c in enumerate(pair.response.chains) for s in c}

        def correct(span) -> bool:
            earlier = [s for s in response if response[s] == response.get(span) and s < span]
            return span in key and span in response and any(key.get(s) == key[span] for s in earlier)

        for s, k in key.items():
            first = min(x for x in key if key[x] == k) == s
            naive[types[s]][0] += s in response
            naive[types[s]][1] += 1
            if not first:
                naive[types[s]][4] += correct(s)
                naive[types[s]][5] += 1
        for s, r in response.items():
            first = min(x for x in response if response[x] == r) == s
            naive[types[s]][2] += s in key
            naive[types[s]][3] += 1
            if not first:
                naive[types[s]][6] += correct(s)
                naive[types[s]][7] += 1
    for t in MentionType:
        if t not in rows:  # a type no mention has (ZERO outside CorefUD) has no row
            assert t is MentionType.ZERO and naive[t] == [0] * 8
            continue
        row = rows[t]
        assert row.detection.counts() + row.linking.counts() == naive[t][:4] + [naive[t][4], naive[t][5], naive[t][6], naive[t][7]]


def test_genre_from_ontonotes_and_gum_names() -> None:
    genre = genre_of(GENRE_PATTERN)
    assert genre("bc/cnn/00/cnn_0001; part 000") == "bc"
    assert genre("(GUM_news_korea); part 000") == "news"
    assert genre("GUM_academic_art") == "academic"
    assert genre("something else") == OTHER
    assert genre_of(r"^(?P<genre>\w+?)-")("web-17") == "web"
    with pytest.raises(ValueError):
        genre_of("(")
    assert by_file("(bc/cnn/00/cnn_0001); part 002") == by_file("(bc/cnn/00/cnn_0001); part 000") == "bc/cnn/00/cnn_0001"


def test_groups_from_a_table(tmp_path) -> None:
    table = tmp_path / "docs.tsv"
    table.write_text("doc\tsplit\tgenre\nGUM_a\ttrain\tnews\nGUM_b\ttest\tbio\n", encoding="utf-8")
    assert read_groups(str(table))("(GUM_a); part 000") == "train"
    assert read_groups(str(table), "genre")("(GUM_b); part 000") == "bio"
    assert read_groups(str(table))("GUM_c") == OTHER
    with pytest.raises(InputError, match="no column 'lang'"):
        read_groups(str(table), "lang")
    plain = tmp_path / "plain.tsv"
    plain.write_text("# comment\nx\tone\n", encoding="utf-8")
    assert read_groups(str(plain))("x") == "one"


@SETTINGS
@given(corpora(max_documents=3))
def test_without_singletons_drops_exactly_the_one_span_chains(corpus) -> None:
    docs = [p.key for p in corpus]
    kept, removed = without_singletons(docs)
    assert removed == sum(1 for d in docs for c in d.chains if len(set(c)) == 1)
    for before, after in zip(docs, kept):
        assert after.chains == [c for c in before.chains if len(set(c)) > 1]
        assert len(after.chain_labels()) == len(after.chains)

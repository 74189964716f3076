"""Tuggener (2014) application metrics: the paper's examples, the running example of Chen & Ng
counted by hand (all five responses), the rules of sections 3.1-3.3, and the engine integration."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from strategies import Pair, corpora, pairs

import metrics
from tuggener_support import breakdown_document, count_document, score_document, totals
from metrics.model import Document, MentionType
from metrics.corpus.scoring import prepare, prepare_pair
from metrics.measures.tuggener import COUNTED, METRICS, AnchorScore, Tally

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "chen-ng"
N, M, P = MentionType.NAME, MentionType.NOMINAL, MentionType.PRONOUN

# (tp, wl, fn, fp) per response, counted by hand from Figure 2 (key chains {a,b,c}, {d..m}, {n,o};
# p, q, r, s, t singletons, skipped; chains without a nominal have no anchor and are skipped).  E.g. response (e) links S_you to Jesus' chain: immediate g is
# wl (its predecessor is "I", not "it"); inferred g..m are wl (nearest nominal "Jesus"); anchor EM
# aligns {a,b,c,g..m} to Jesus (7 fp) and {d,e,f} to Jerusalem (7 fn).
HAND = {
    "a": {"immediate": (7, 0, 5, 0), "inferred": (0, 0, 12, 0), "anchor_ed": (0, 0, 3, 0), "anchor_em": (0, 0, 0, 0)},
    "b": {"immediate": (8, 0, 4, 0), "inferred": (0, 0, 12, 0), "anchor_ed": (0, 0, 3, 0), "anchor_em": (0, 0, 0, 0)},
    "c": {"immediate": (7, 1, 4, 0), "inferred": (7, 0, 5, 0), "anchor_ed": (0, 0, 3, 0), "anchor_em": (0, 0, 0, 0)},
    "d": {"immediate": (7, 1, 4, 0), "inferred": (7, 0, 5, 0), "anchor_ed": (1, 0, 2, 0), "anchor_em": (8, 0, 2, 0)},
    "e": {"immediate": (11, 1, 0, 0), "inferred": (5, 7, 0, 0), "anchor_ed": (3, 0, 0, 0), "anchor_em": (8, 0, 7, 7)},
}


def chen_ng_pair(response: str):
    key = metrics.read_documents(str(SAMPLES / "key.conll"))
    return prepare(key, metrics.read_documents(str(SAMPLES / f"response-{response}.conll"))).pairs[0]


@pytest.mark.parametrize("response", sorted(HAND))
def test_running_example_counts(response: str) -> None:
    got = totals(breakdown_document(chen_ng_pair(response)))
    assert {name: (t.tp, t.wl, t.fn, t.fp) for name, t in got.items()} == HAND[response]


def test_running_example_scores_and_breakdown() -> None:
    pair = chen_ng_pair("e")
    scores = score_document(pair)
    assert list(scores) == list(METRICS)
    assert scores["immediate"].recall == pytest.approx(11 / 12) and scores["immediate"].precision == pytest.approx(11 / 12)
    assert scores["inferred"].recall == pytest.approx(5 / 12)
    em = scores["anchor_em"]
    assert (em.recall, em.precision) == (pytest.approx(8 / 15), pytest.approx(8 / 15))
    assert isinstance(scores["anchor"], AnchorScore)
    assert scores["anchor"].f1 == pytest.approx(2 * 1.0 * (8 / 15) / (1.0 + 8 / 15))
    by_type = breakdown_document(pair)
    # Inferred: the six "you"/"your" after g and g itself are the pronoun wl; b, c, f, o pronoun tp,
    # "the city" the nominal tp.
    assert by_type["inferred"][P] == Tally(4, 7, 0, 0)
    assert by_type["inferred"][M] == Tally(1, 0, 0, 0)
    # ED counts by anchor type: Jesus and Jerusalem are names, "your enemies" a nominal.
    assert by_type["anchor_ed"][N] == Tally(2, 0, 0, 0) and by_type["anchor_ed"][M] == Tally(1, 0, 0, 0)


WORDS = "A B C D E F G H".split()


def doc(chains) -> Document:
    return Document(name="d", words=WORDS, chains=[[(i, i) for i in c] for c in chains],
                    labels=[str(i) for i in range(len(chains))])


def counts(key, response, types) -> dict[str, tuple]:
    spans = {(i, i): t for i, t in enumerate(types)}
    got = totals(count_document(doc(key), doc(response), spans))
    return {name: (t.tp, t.wl, t.fn, t.fp) for name, t in got.items()}


def test_paper_immediate_example() -> None:
    """Section 3.1: key [A-B-C-D], response [A-B-D]: D is not correct (its predecessor is B)."""
    got = counts([[0, 1, 2, 3]], [[0, 1, 3]], [N, P, P, P])
    assert got["immediate"] == (1, 1, 1, 0)  # B tp, D wl, C fn (not in the response)


def test_immediate_false_positives() -> None:
    """Lines 6-8: a non-first response mention that is not in the key, or starts its key chain, or
    is a key singleton, is fp."""
    got = counts([[0, 1], [2], [4, 5]], [[0, 1, 3], [2, 4]], [N, P, N, P, N, P])
    assert got["immediate"] == (1, 0, 1, 2)  # 1 tp; 5 fn; 3 (not in key) and 4 (starts its chain) fp


def test_inferred_rules() -> None:
    # Key: [A(name) B C] and [D E] pronouns only; response links C to B only (no nominal): fn.
    got = counts([[0, 1, 2], [3, 4]], [[0, 1], [2, 3, 4]], [N, P, P, P, P])
    assert got["inferred"] == (1, 0, 1, 0)
    # The extra wl rule: a mention of a nominal-less key chain given a nominal antecedent is wl.
    got = counts([[0, 1], [2, 3]], [[0, 1, 3]], [N, P, P, P])
    assert got["inferred"] == (1, 1, 0, 0)
    # Cataphora: pronouns before the chain's first nominal are not judged (nor is the name that
    # follows them, having no nominal antecedent); a nominal antecedent given to a key-first mention
    # is fp.
    got = counts([[1, 2, 3]], [[0, 1, 2, 3]], [N, P, P, N])
    assert got["inferred"] == (0, 0, 0, 1)


def test_anchor_rules() -> None:
    # A chain without a nominal has no anchor: skipped on both sides.
    got = counts([[0, 1], [2, 3]], [[0, 1], [2, 3]], [N, P, P, P])
    assert got["anchor_ed"] == (1, 0, 0, 0) and got["anchor_em"] == (2, 0, 0, 0)
    got = counts([[0, 1]], [[0, 1], [2, 3]], [N, P, P, P])
    assert got["anchor_ed"] == (1, 0, 0, 0)
    # A response chain anchored on a mention outside every key chain is fp.
    got = counts([[0, 1]], [[0, 1], [2, 3]], [N, P, M, P])
    assert got["anchor_ed"] == (1, 0, 0, 1)
    # An anchor found only in a response singleton is not detected (singletons are skipped).
    got = counts([[0, 1]], [[0], [1]], [N, P])
    assert got["anchor_ed"] == (0, 0, 1, 0) and got["anchor_em"] == (0, 0, 0, 0)
    # The anchor is the first nominal: "B" (nominal) anchors [A(pronoun) B C]; the response chain
    # holding B is aligned and scored mention by mention.
    got = counts([[0, 1, 2]], [[1, 2, 4]], [P, M, P, P, P])
    assert got["anchor_ed"] == (1, 0, 0, 0) and got["anchor_em"] == (2, 0, 1, 1)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs())
def test_breakdown_sums_to_totals_and_perfect_response(pair: Pair) -> None:
    p = prepare_pair(pair.key, pair.response)
    breakdown = breakdown_document(p)
    assert set(breakdown) == set(COUNTED)
    scores = score_document(p)
    for name in COUNTED:
        total = Tally()
        for t in breakdown[name].values():
            total = total + t
        assert total.score() == scores[name]
    perfect = totals(breakdown_document(prepare_pair(pair.key, pair.key)))
    for name, t in perfect.items():
        assert t.wl == t.fn == t.fp == 0, name


def test_score_json_has_the_application_metrics(tmp_path) -> None:
    from workbench.cli import main

    out = tmp_path / "scores.json"
    code = main(["score", str(SAMPLES / "key.conll"), str(SAMPLES / "response-e.conll"), "--format", "json",
                 "--output", str(out)])
    assert code == 0
    data = json.loads(out.read_text())
    for name in METRICS:
        assert name in data["metrics"], name
    assert data["metrics"]["immediate"]["counts"] == [11, 12, 11, 12]
    assert data["metrics"]["anchor"]["f1"] == pytest.approx(2 * (8 / 15) / (1 + 8 / 15))


def test_corpus_breakdown_and_json() -> None:
    pairs_ = [chen_ng_pair("d"), chen_ng_pair("e")]
    from tuggener_support import breakdown_corpus, breakdown_to_json

    corpus = breakdown_corpus(pairs_)
    assert corpus["immediate"][P] == breakdown_document(pairs_[0])["immediate"][P] + breakdown_document(pairs_[1])["immediate"][P]
    as_json = breakdown_to_json(corpus)
    e_inferred = breakdown_document(pairs_[1])["inferred"][P]
    d_inferred = breakdown_document(pairs_[0])["inferred"][P]
    assert as_json["inferred"]["PRONOUN"]["wl"] == e_inferred.wl + d_inferred.wl
    assert set(as_json["anchor_ed"]["NAME"]) == {"tp", "wl", "fn", "fp", "recall", "precision", "f1"}


def test_breakdown_by_pos_and_entity_class() -> None:
    """The paper's Table 3 classes (NOUN, PRP, PRP$ heads) and Table 4 classes (the entity's NE
    class; an entity's pronouns count under it) on response (e)."""
    from tuggener_support import breakdown_corpus

    pair = chen_ng_pair("e")
    pos = breakdown_document(pair, "pos")["immediate"]
    assert pos == {"PRP": Tally(8, 1, 0, 0), "PRP$": Tally(2, 0, 0, 0), "NOUN": Tally(1, 0, 0, 0)}
    entity = breakdown_document(pair, "entity")
    assert entity["anchor_ed"] == {"PERSON": Tally(1, 0, 0, 0), "GPE": Tally(1, 0, 0, 0), "-": Tally(1, 0, 0, 0)}
    # Jesus' chain took S_you: 7 fp for PERSON; Jerusalem's lost them: 7 fn for GPE.
    assert entity["anchor_em"] == {"PERSON": Tally(3, 0, 0, 7), "GPE": Tally(3, 0, 7, 0), "-": Tally(2, 0, 0, 0)}
    assert breakdown_corpus([pair, pair], "pos")["immediate"]["PRP"] == Tally(16, 2, 0, 0)
    with pytest.raises(ValueError):
        breakdown_document(pair, "gender")


@settings(max_examples=150, deadline=None)
@given(corpora(duplicates=True, max_documents=3))
def test_document_scores_are_the_totals_of_the_breakdown(pairs_of_documents):
    """`score_document` counts by outcome alone; the same numbers as summing the breakdown by
    mention type (`scores_from_counts` of `count_views`)."""
    from metrics.corpus.scoring import prepare
    from tuggener_support import count_views, scores_from_counts

    corpus = prepare([p.key for p in pairs_of_documents], [p.response for p in pairs_of_documents])
    for pair in corpus.pairs:
        fast = score_document(pair)
        slow = scores_from_counts(count_views(pair.key_view, pair.response_view, pair.types))
        assert list(fast) == list(slow)
        assert all(repr(fast[m]) == repr(slow[m]) for m in fast)

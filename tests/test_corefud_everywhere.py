"""The CorefUD conventions beyond `score`: errors, compare and the workbench on node mentions.

tests/data/corefud/discontinuous.*.conllu is a case made for these tests: the key's "The man ...
who left" is one discontinuous mention (head "man") of the entity a zero (the empty node 2.1,
the dropped subject of "smiled") also refers to; the response has the contiguous "The man" (head
"man") and the same zero.  By hand: under head match "The man" aligns with the discontinuous
mention (same head, 2 of its 4 nodes), so every link is found (MUC 100); under exact match it
does not, and each entity's response partition has two parts: MUC recall (2-2)/1 + (2-1)/1 over
2 = 1/2, precision the same.  MOR: 5 of the key's 7 words are covered (recall 5/7), all 5 of the
response's (precision 1).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.conventions.corefud import Settings
from corefud_support import score_corpus
from text_reference import marked_mentions, token_units
from metrics.corpus.scoring import prepare_pair
from metrics.formats.corefud import read_corefud
from metrics.measures import corefud as measures
from metrics.mentions.corefud import _assign, match_score, mention_order
from metrics.model import MentionType, NodeMention
from metrics.runtime.lsap import linear_sum_assignment
from workbench.cli import main
from workbench.session import LoadOptions, Session

DATA = Path(__file__).parent / "data" / "corefud"
KEY, RESPONSE = str(DATA / "discontinuous.key.conllu"), str(DATA / "discontinuous.response.conllu")
ZERO_KEY, ZERO_RESPONSE = str(DATA / "key.conllu"), str(DATA / "response.conllu")


def session(match: str = "head", singletons: str = "remove", key: str = KEY, response: str = RESPONSE) -> Session:
    return Session.load(key, [response], LoadOptions(conventions="corefud", match=match, singletons=singletons, cache=False))


def test_hand_derived_scores_through_the_session():
    head = session("head").score(metrics=("muc", "mentions")).micro
    exact = session("exact").score(metrics=("muc",)).micro
    assert (head["muc"].recall, head["muc"].precision) == (1.0, 1.0)
    assert (exact["muc"].recall, exact["muc"].precision) == (0.5, 0.5)
    mor = score_corpus(read_corefud(KEY), read_corefud(RESPONSE), KEY, RESPONSE, Settings("exact")).micro["mor"]
    assert (mor.recall, mor.precision) == (5 / 7, 1.0)


@pytest.mark.parametrize("match", ["head", "partial", "exact"])
@pytest.mark.parametrize("singletons", ["keep", "remove"])
@pytest.mark.parametrize("files", [(KEY, RESPONSE), (ZERO_KEY, ZERO_RESPONSE)])
def test_every_front_end_shows_the_official_numbers(match, singletons, files):
    """The session's scores are corefud-scorer's (`score_corpus`), and the projection onto token
    spans scores the same with the v8.01 formulas, so error prices agree with the scores."""
    s = session(match, singletons, *files)
    official = score_corpus(read_corefud(files[0]), read_corefud(files[1]), *files,
                            Settings(match, singletons == "keep")).micro
    result = s.score(metrics=("muc", "bcub", "ceafe", "ceafm", "lea", "blanc", "conll")).micro
    for name in ("muc", "bcub", "ceafe", "ceafm", "lea", "blanc", "conll"):
        assert (result[name].recall, result[name].precision, result[name].f1) == \
               (official[name].recall, official[name].precision, official[name].f1), name
    for pair in s.corpus.pairs:
        projected = prepare_pair(pair.key, pair.response)  # the same spans, scored by v8.01's formulas
        for name in ("muc", "bcub", "ceafe", "ceafm", "lea"):
            by_spans, exact = projected.score(name), getattr(measures, name)(pair.aligned)
            assert (by_spans.recall, by_spans.precision) == pytest.approx((exact.recall, exact.precision)), name


def test_zeros_are_tokens_of_their_own_type_and_errors_cover_them():
    s = session("exact", "keep")
    pair = s.corpus.pairs[0]
    zero = pair.key.words.index("∅")
    assert pair.types[(zero, zero)] is MentionType.ZERO
    assert (0, 7) in pair.key.pieces and pair.key.pieces[(0, 7)] == ((0, 1), (6, 7))
    records = s.classify()
    assert any(r.mention.type is MentionType.ZERO for r in records)  # the zero now links to a new antecedent
    priced = s.price(records, "muc")
    assert sum(r.impact for r in priced if r.mention.type is MentionType.ZERO) != 0


def test_a_discontinuous_mention_is_drawn_piece_by_piece():
    pair = session("head").corpus.pairs[0]
    marks = marked_mentions(pair.key, pair.response, pair.types, "key")
    units = token_units(pair.key, marks)
    text = " ".join("".join(atom.text for atom in unit) for unit in units)
    assert text.startswith("[The man]Me1 , [she]Pe2 said , [who left]Me1 came .")  # the file's eids
    assert "[∅]Ze1" in text


def test_errors_and_compare_name_the_conventions(capsys):
    assert main(["errors", KEY, RESPONSE, "--match", "exact", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["conventions"], out["match"], out["singletons"], out["zero_match"]) == ("corefud", "exact", "remove", "dependency")
    assert "ZERO" in out["counts"]["corpus"]["false_new"] or "ZERO" in out["counts"]["corpus"]["wrong_link"]
    assert main(["compare", KEY, RESPONSE, RESPONSE]) == 0
    assert capsys.readouterr().out.startswith("conventions corefud, head match, singletons removed")
    assert main(["errors", KEY, RESPONSE, "--conventions", "conll"]) == 0
    assert not capsys.readouterr().out.startswith("conventions")


def test_zero_match_is_refused_under_conll(capsys):
    assert main(["errors", KEY, RESPONSE, "--conventions", "conll", "--zero-match", "linear"]) == 2
    assert "--zero-match applies to --conventions corefud only" in capsys.readouterr().err


# ------------------------------------------------------------------- alignment against brute force

def _mention(nodes: list[int], head_at: int) -> NodeMention:
    ordered = tuple(sorted({(1, n, 0) for n in nodes}))
    return NodeMention(ordered, ordered[head_at % len(ordered)])


mentions = st.lists(st.builds(_mention, st.lists(st.integers(1, 6), min_size=1, max_size=4), st.integers(0, 3)),
                    min_size=0, max_size=4)


def _best_total(keys: list[NodeMention], responses: list[NodeMention], match: str) -> float:
    """The largest total score of any one-to-one pairing, by trying every one."""
    import itertools

    best = 0.0
    for size in range(min(len(keys), len(responses)) + 1):
        for chosen in itertools.permutations(range(len(responses)), size):
            for rows in itertools.combinations(range(len(keys)), size):
                best = max(best, sum(match_score(keys[r], responses[c], match) for r, c in zip(rows, chosen)))
    return best


@settings(max_examples=300, deadline=None)
@given(mentions, mentions, st.sampled_from(["head", "partial"]))
def test_alignment_is_a_best_one_to_one_pairing(keys, responses, match):
    pairs = _assign(keys, responses, lambda k, s: match_score(k, s, match))
    assert len({id(k) for k, _ in pairs}) == len(pairs) == len({id(s) for _, s in pairs})
    assert all(match_score(k, s, match) > 0 for k, s in pairs)
    total = sum(match_score(k, s, match) for k, s in pairs)
    assert total == pytest.approx(_best_total(keys, responses, match))


# ------------------------------------------------------------------- docs/conventions.md's examples

def _text(entities: dict[int, str]) -> str:
    """One sentence `a b c d e`, `c` the root and every other word's parent."""
    lines = ["# newdoc id = x", "# global.Entity = eid-etype-head-other", "# sent_id = 1", "# text = a b c d e"]
    for i, word in enumerate("abcde", 1):
        lines.append("\t".join([str(i), word, "_", "NOUN", "_", "_", "0" if i == 3 else "3", "root" if i == 3 else "dep",
                                 "_", entities.get(i, "_")]))
    return "\n".join(lines) + "\n\n"


EXAMPLES = {
    "blanc": ({1: "Entity=(e1-x-1-)", 2: "Entity=(e2-x-1-)", 3: "Entity=(e3-x-1-)"},
              {1: "Entity=(e1-x-1-)", 2: "Entity=(e1-x-1-)", 3: "Entity=(e3-x-1-)"}),
    "repeated": ({1: "Entity=(e1-x-1-)", 2: "Entity=(e1-x-1-)"},
                 {1: "Entity=(e1-x-1-)(e2-x-1-)", 2: "Entity=(e1-x-1-)", 3: "Entity=(e2-x-1-)"}),
    "singletons": ({1: "Entity=(e1-x-3-", 3: "Entity=e1)", 5: "Entity=(e1-x-1-)"},
                   {2: "Entity=(e2-x-2-", 3: "Entity=e2)(e3-x-1-)", 5: "Entity=(e3-x-1-)"}),
}


def _scores(tmp_path, example: str, conventions: str, singletons: str) -> dict:
    key, response = tmp_path / f"{example}.key.conllu", tmp_path / f"{example}.response.conllu"
    key.write_text(_text(EXAMPLES[example][0]))
    response.write_text(_text(EXAMPLES[example][1]))
    s = Session.load(str(key), [str(response)], LoadOptions(conventions=conventions, singletons=singletons,
                                                            match="head" if conventions == "corefud" else "exact", cache=False))
    micro = s.score(metrics=("muc", "bcub", "blanc")).micro
    return {name: (round(100 * v.recall, 2), round(100 * v.precision, 2), round(100 * v.f1, 2)) for name, v in micro.items()}


def test_the_blanc_example(tmp_path):
    assert _scores(tmp_path, "blanc", "conll", "keep")["blanc"] == (66.67, 100.0, 80.0)
    assert _scores(tmp_path, "blanc", "corefud", "keep")["blanc"] == (33.33, 50.0, 40.0)


def test_the_repeated_span_example(tmp_path):
    conll, corefud = _scores(tmp_path, "repeated", "conll", "keep"), _scores(tmp_path, "repeated", "corefud", "keep")
    assert (conll["muc"][:2], conll["bcub"][:2], conll["blanc"][2]) == ((100, 100), (100, 66.67), 100)
    assert (corefud["muc"][:2], corefud["bcub"][:2], corefud["blanc"][2]) == ((0, 50), (50, 62.5), 0)


def test_the_singletons_example(tmp_path):
    assert _scores(tmp_path, "singletons", "corefud", "remove")["muc"] == (100, 100, 100)
    assert _scores(tmp_path, "singletons", "corefud", "keep")["muc"] == (0, 0, 0)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 2)), min_size=1, max_size=7),
       st.lists(st.tuples(st.integers(0, 6), st.integers(0, 2)), min_size=1, max_size=7),
       st.sampled_from(["head", "partial"]))
def test_corefud_assignment_costs_made_in_place_pair_as_before(keys, responses, match) -> None:
    """CorefUD's one-to-one assignment of unmatched mentions (`mentions.corefud._assign`) with the
    solver's costs negated in place (a book's matrix is 1.8 GB) against the solver given a negated
    copy, as before: the same pairs, ties included (spans of few nodes share heads and overlap)."""
    def mention(start_and_length: tuple[int, int]) -> NodeMention:
        start, length = start_and_length
        nodes = tuple((1, w, 0) for w in range(start + 1, start + length + 2))
        return NodeMention(nodes, nodes[0])

    key_side, response_side = [mention(k) for k in keys], [mention(r) for r in responses]

    def score(k: NodeMention, r: NodeMention) -> float:
        return match_score(k, r, match)

    pairs = _assign(key_side, response_side, score)
    ordered_keys = sorted(key_side, key=mention_order)
    ordered_responses = sorted(response_side, key=mention_order)
    similarity = np.array([[score(k, r) for r in ordered_responses] for k in ordered_keys])
    rows, cols = linear_sum_assignment()(-similarity)
    assert pairs == [(ordered_keys[r], ordered_responses[c]) for r, c in zip(rows, cols) if similarity[r, c] > 0]

"""The ACE-value (metrics/measures/ace.py) against ../shared/docs/ace-value.md and a brute force.

The brute force below is written from the definitions alone: for every one-to-one partial mapping
between key and response entities, sum V(S,K) over mapped pairs and V_FA(S) over unmapped response
entities, and keep the best.  It shares no code with the engine's closed form.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import Pair, make_document, pairs

from metrics.measures.ace import AceOptions
from metrics.formats.readers import read_documents
from metrics.model import Document, MentionType
from metrics.corpus.scoring import prepare

ROOT = Path(__file__).resolve().parent.parent
N, M, P = MentionType.NAME, MentionType.NOMINAL, MentionType.PRONOUN
MTV = {N: 1.0, M: 0.5, P: 0.1}
OPTIONS = [AceOptions(v, w) for v in ("ace07", "ace05") for w in ("mention", "level")]


def worked_example(typed: bool = False) -> tuple[Document, Document]:
    """The doc's example: Mary Smith (0-1), the doctor (5-6), she (9), John (12), him (15), it (17),
    the hospital (20-21), a nurse (25-26)."""
    types = {(0, 1): N, (5, 6): M, (9, 9): P, (12, 12): N, (15, 15): P, (17, 17): P, (20, 21): M, (25, 26): M}
    words = ["w"] * 30
    key = make_document("d", words, [[(0, 1), (5, 6), (9, 9)], [(12, 12), (15, 15)], [(20, 21)]], types)
    response = make_document("d", words, [[(0, 1), (5, 6), (15, 15)], [(12, 12), (17, 17)], [(25, 26)]], types)
    key.explicit_types = types  # the engine types every span of a pair from the key's annotation
    if typed:
        key.entity_types = ["person", "person", "place"]
        response.entity_types = ["person", "organization", "person"]
    return key, response


def ace(key: Document, response: Document, options: AceOptions = AceOptions()):
    return prepare([key], [response], ace=options).score(metrics=["ace"]).micro["ace"]


def test_worked_example_mention_weighting_every_number():
    score = ace(*worked_example())
    assert score.denominator == pytest.approx(3.2)  # 1.6 + 1.1 + 0.5
    assert score.numerator == pytest.approx(1.975)  # 1.425 + 0.925 - 0.375
    assert score.value == pytest.approx(0.6171875)
    assert score.mapped == 2 and score.key_entities == 3 and score.response_entities == 3
    assert score.mapped_value == pytest.approx(1.425 + 0.925)  # V(S1,K1) + V(S2,K2)
    assert score.false_alarm_cost == pytest.approx(0.375)  # S3, a nurse: 0.75 * 0.5
    assert score.miss_cost == pytest.approx(0.5)  # K3, the hospital
    assert score.mapped_cost == pytest.approx(0.175 + 0.175)
    # the scorer's identity: ACE = 1 - (miss + mapped + false alarm) / D
    assert 1 - (score.miss_cost + score.mapped_cost + score.false_alarm_cost) / score.denominator == pytest.approx(score.value)
    assert score.recall == pytest.approx(2.35 / 3.2) and score.precision == pytest.approx(2.35 / (2.7 + 0.375))


def test_worked_example_level_weighting_ace05_and_entity_types():
    level = ace(*worked_example(), AceOptions("ace07", "level"))
    assert level.numerator == pytest.approx(1.3565341, abs=1e-7) and level.denominator == pytest.approx(2.5)
    assert level.value == pytest.approx(0.5426136, abs=1e-7)
    assert ace(*worked_example(), AceOptions("ace05", "mention")).value == pytest.approx(0.6699219, abs=1e-7)
    assert ace(*worked_example(typed=True)).value == pytest.approx(0.4609375)


@pytest.mark.parametrize("response, percent", zip("abcde", (57.58, 57.58, 62.88, 76.14, 81.44)))
def test_chen_ng_running_example(response, percent):
    keys = read_documents(str(ROOT / "samples/chen-ng/key.conll"))
    responses = read_documents(str(ROOT / f"samples/chen-ng/response-{response}.conll"))
    value = prepare(keys, responses).score(metrics=["ace"]).micro["ace"].value
    assert round(100 * value, 2) == percent


def test_undefined_on_an_empty_key_with_a_response_and_one_when_both_are_empty():
    words = ["w"] * 3
    empty = make_document("d", words, [], {})
    some = make_document("d", words, [[(0, 0)]], {(0, 0): N})
    assert ace(empty, some).value is None
    assert ace(empty, empty).value == 1.0
    assert ace(some, empty).value == 0.0


def test_a_response_of_false_alarms_is_negative_and_printed_so():
    words = ["w"] * 6
    key = make_document("d", words, [[(0, 0)]], {(0, 0): P})
    key.explicit_types = {(0, 0): P, (2, 2): N, (3, 3): N, (4, 4): N}
    response = make_document("d", words, [[(2, 2), (3, 3)], [(4, 4)]], {(2, 2): N, (3, 3): N, (4, 4): N})
    score = ace(key, response)
    assert score.value == pytest.approx(-0.75 * 3 / 0.1)


# ------------------------------------------------------------------------------ brute force


def brute_force(key: Document, response: Document, options: AceOptions) -> tuple[float, float]:
    """(N, D) by trying every one-to-one partial mapping, from the definitions.  Mention types are
    the engine's (an input here, not what is tested)."""
    types = prepare([key], [response]).pairs[0].types
    keys = [set(c) for c in key.chains]
    resps = [set(c) for c in response.chains]
    key_spans = set().union(*keys) if keys else set()

    def w(spans) -> float:
        return sum(MTV[types[s]] for s in spans)

    def cost(spans) -> float:
        return w(spans) if options.variant == "ace07" else w(s for s in spans if s not in key_spans)

    def level(spans) -> float:
        return max((MTV[types[s]] for s in spans), default=0.0)

    f = 1.0 if options.variant == "ace07" else 0.75

    def v_key(kk) -> float:
        return w(kk) if options.weighting == "mention" else level(kk)

    def v_pair(kk, ss) -> float:
        if options.weighting == "mention":
            return w(kk & ss) - 0.75 * cost(ss - kk)
        return level(kk) * w(kk & ss) / w(kk) - 0.75 * level(ss) * cost(ss - kk) / w(ss)

    def v_fa(ss) -> float:
        if options.weighting == "mention":
            return -0.75 * f * cost(ss)
        return -0.75 * f * level(ss) * cost(ss) / w(ss)

    forced = {}
    if options.variant == "ace05":  # a key entity alone in its component takes its best candidate
        for i, kk in enumerate(keys):
            candidates = [j for j, ss in enumerate(resps) if kk & ss]
            alone = all(not (ss & other) for j in candidates for o, other in enumerate(keys) if o != i
                        for ss in [resps[j]])
            if candidates and alone:
                forced[i] = max(candidates, key=lambda j: (v_pair(kk, resps[j]) - v_fa(resps[j]), -j))
    best = None
    for mapping in _mappings(len(keys), len(resps)):
        if any(mapping.get(i) != j for i, j in forced.items()):
            continue
        mapped = set(mapping.values())
        n = sum(v_pair(keys[i], resps[j]) for i, j in mapping.items())
        n += sum(v_fa(resps[j]) for j in range(len(resps)) if j not in mapped)
        best = n if best is None else max(best, n)
    return best, sum(v_key(kk) for kk in keys)


def _mappings(n_keys: int, n_resps: int):
    """Every one-to-one partial mapping key index -> response index."""
    for size in range(min(n_keys, n_resps) + 1):
        for chosen in itertools.combinations(range(n_keys), size):
            for targets in itertools.permutations(range(n_resps), size):
                yield dict(zip(chosen, targets))


small_pairs = pairs(max_tokens=8, max_mentions=6)


@settings(max_examples=150, deadline=None)
@given(small_pairs, st.sampled_from(OPTIONS))
def test_closed_form_equals_brute_force(pair: Pair, options: AceOptions):
    score = ace(pair.key, pair.response, options)
    n, d = brute_force(pair.key, pair.response, options)
    assert score.denominator == pytest.approx(d)
    assert score.numerator == pytest.approx(n, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(small_pairs, st.sampled_from(OPTIONS))
def test_perfect_response_scores_one_and_empty_response_zero(pair: Pair, options: AceOptions):
    if not pair.key.chains:
        return
    assert ace(pair.key, pair.key, options).value == pytest.approx(1.0)
    empty = make_document("doc0", pair.key.words, [], {})
    assert ace(pair.key, empty, options).value == 0.0


@settings(max_examples=80, deadline=None)
@given(small_pairs, st.sampled_from(OPTIONS))
def test_a_false_alarm_entity_never_raises_the_value(pair: Pair, options: AceOptions):
    n = len(pair.key.words)
    spare = [(i, i) for i in range(n) if (i, i) not in set(pair.key.mentions()) | set(pair.response.mentions())]
    if not spare or not pair.key.chains:
        return
    types = {**pair.key.explicit_types, **pair.response.explicit_types, spare[0]: N}
    more = make_document("doc0", pair.response.words, pair.response.chains + [[spare[0]]], types)
    pair.key.explicit_types = types  # the new mention's type comes from the key's annotation
    assert ace(pair.key, more, options).value <= ace(pair.key, pair.response, options).value + 1e-12


@settings(max_examples=60, deadline=None)
@given(small_pairs, st.randoms())
def test_invariant_to_the_order_of_chains_and_documents(pair: Pair, rng):
    key_chains, resp_chains = list(pair.key.chains), list(pair.response.chains)
    rng.shuffle(key_chains)
    rng.shuffle(resp_chains)
    types = {**pair.key.explicit_types, **pair.response.explicit_types}
    key2 = make_document("doc0", pair.key.words, key_chains, types)
    resp2 = make_document("doc0", pair.key.words, resp_chains, types)
    assert ace(key2, resp2).numerator == pytest.approx(ace(pair.key, pair.response).numerator)
    other_key = make_document("doc1", pair.key.words, key_chains, types)
    other_resp = make_document("doc1", pair.key.words, [], {})
    one = prepare([pair.key, other_key], [pair.response, other_resp]).score(metrics=["ace"]).micro["ace"]
    two = prepare([other_key, pair.key], [other_resp, pair.response]).score(metrics=["ace"]).micro["ace"]
    assert one.numerator == pytest.approx(two.numerator) and one.denominator == pytest.approx(two.denominator)


def test_cli_json_shape_options_jobs_and_impact(tmp_path):
    """`corefwb score` gives the ACE-value's own JSON shape; the options reach it; `--stream`
    streams it to the same numbers; `errors --impact ace` prices fixes on it."""
    import json

    from cli_support import corefwb_in_process

    key, response = "samples/chen-ng/key.conll", "samples/chen-ng/response-a.conll"

    def corefwb(*args: str) -> str:
        done = corefwb_in_process(*args, cwd=ROOT)  # what the command says, not the process: in this one
        assert done.returncode == 0, done.stderr
        return done.stdout

    ace07 = json.loads(corefwb("score", key, response, "--format", "json"))["metrics"]["ace"]
    assert set(ace07) == {"value", "numerator", "denominator", "misses", "false_alarms", "mapped", "recall", "precision"}
    assert round(100 * ace07["value"], 2) == 57.58
    assert ace07["value"] == ace07["numerator"] / ace07["denominator"]
    level = json.loads(corefwb("score", key, response, "--format", "json", "--ace-weighting", "level",
                               "--ace-variant", "ace05"))["metrics"]["ace"]
    assert level["value"] != ace07["value"]
    streamed = json.loads(corefwb("score", key, response, "--format", "json", "--stream", "--jobs", "2"))["metrics"]["ace"]
    assert streamed == ace07
    errors = json.loads(corefwb("errors", key, response, "--format", "json", "--impact", "ace"))
    assert errors["impact_metric"] == "ace" and all(e["impact_points"] is not None for e in errors["errors"])
    assert sum(errors["category_impact_points"].values()) > 0

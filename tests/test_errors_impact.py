"""Impact: the fast path (rescore only the chain components a fix reaches) equals rescoring the
whole corpus with the fixed response, for every metric, on random corpora and on the samples."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import Pair, computed_metrics, corpora, weights

import metrics
from records_road import apply_records, classify_pair, price_categories, price_category
from metrics.errors.chen_ng.records import Category, classify_corpus, classify_corpus_columns
from metrics.errors.chen_ng.fixes import apply_fixes, fix_of
from metrics.errors.chen_ng.impact import Pricer, parts_of
from metrics.corpus.scoring import prepare
from metrics.measures.weights import W4, Weights
from metrics.model import without_singletons

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
METRICS = computed_metrics()


def value(result, metric: str) -> float:
    return result.micro[metric].f1


def full_rescore(keys, responses, index: int, fixed, w: Weights, metric: str) -> float:
    """Change of the corpus F1 computed the slow, obvious way: score both corpora whole."""
    before = prepare(keys, responses).score(w, parts_of(metric) + ((metric,) if metric == "conll" else ()))
    changed = list(responses)
    position = next(i for i, r in enumerate(responses) if r.name == keys[index].name)
    changed[position] = fixed
    after = prepare(keys, changed).score(w, parts_of(metric) + ((metric,) if metric == "conll" else ()))
    return value(after, metric) - value(before, metric)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), weights(), st.sampled_from(METRICS), st.data())
def test_error_impact_equals_full_rescoring(corpus: list[Pair], w: Weights, metric: str, data) -> None:
    keys = [p.key for p in corpus]
    responses = [p.response for p in corpus]
    prepared = prepare(keys, responses)
    records = classify_corpus(prepared.pairs, w)
    if not records:
        return
    pricer = Pricer(prepared, metric, w)
    for record in data.draw(st.lists(st.sampled_from(records), max_size=4, unique=True)):
        i = pricer.index[record.document]
        priced = pricer.price_records([record])[0].impact
        fixed = apply_fixes(keys[i], prepared.pairs[i].response, [fix_of(record)])
        assert priced == pytest.approx(full_rescore(keys, responses, i, fixed, w, metric), abs=1e-9)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(duplicates=True, key_duplicates=False), st.sampled_from(("conll", "lceafe", "mentions", "lea", "blanc")))
def test_impact_exact_with_repeated_response_spans(corpus: list[Pair], metric: str) -> None:
    """Repeated spans tie chains together (v8.01 keeps one copy, or counts a twinless one twice):
    the reached part must include every chain listing them."""
    keys = [p.key for p in corpus]
    responses = [p.response for p in corpus]
    prepared = prepare(keys, responses)
    pricer = Pricer(prepared, metric, W4)
    for record in classify_corpus(prepared.pairs, W4)[:5]:
        i = pricer.index[record.document]
        fixed = apply_fixes(keys[i], prepared.pairs[i].response, [fix_of(record)])
        assert pricer.price(i, [fix_of(record)]) == pytest.approx(
            full_rescore(keys, responses, i, fixed, W4, metric), abs=1e-9)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), st.sampled_from(list(Category)))
def test_category_impact_applies_all_its_fixes(corpus: list[Pair], category: Category) -> None:
    keys = [p.key for p in corpus]
    responses = [p.response for p in corpus]
    prepared = prepare(keys, responses)
    records = classify_corpus(prepared.pairs, W4)
    pricer = Pricer(prepared, "conll", W4)
    fixed_responses = []
    for pair in prepared.pairs:
        mine = [r for r in records if r.document == pair.name and r.category is category]
        fixed_responses.append(apply_records(pair.key, pair.response, mine))
    before = prepare(keys, responses).score(W4, ("muc", "bcub", "ceafe", "conll")).micro["conll"].f1
    after = prepare(keys, fixed_responses).score(W4, ("muc", "bcub", "ceafe", "conll")).micro["conll"].f1
    assert price_category(pricer, records, category) == pytest.approx(after - before, abs=1e-9)


def test_chen_ng_response_e_impacts() -> None:
    """Response (e): moving S_you (with its wrong link g) to Jerusalem's chain gives the key, so the
    fix of g, of any of its suboptimal links, and of each category, brings CoNLL F1 to 1."""
    key = metrics.read_documents(str(SAMPLES / "chen-ng" / "key.conll"))
    resp = metrics.read_documents(str(SAMPLES / "chen-ng" / "response-e.conll"))
    prepared = prepare(key, resp)
    pricer = Pricer(prepared, "conll")
    base = prepared.score(W4, ("muc", "bcub", "ceafe", "conll")).micro["conll"].f1
    assert pricer.value == pytest.approx(base)
    records = pricer.price_records(classify_pair(prepared.pairs[0]))
    for r in records:
        assert r.impact == pytest.approx(1.0 - base)
    assert price_category(pricer, records, Category.WRONG_LINK) == pytest.approx(1.0 - base)
    assert price_category(pricer, records, Category.FALSE_NEW) == 0.0


def test_lmetric_impact_sees_suboptimal_links() -> None:
    """Response (b): fixing a suboptimal link leaves MUC unchanged (the same links, other
    antecedents) but raises LMUC (Chen & Ng's point)."""
    key = metrics.read_documents(str(SAMPLES / "chen-ng" / "key.conll"))
    resp = metrics.read_documents(str(SAMPLES / "chen-ng" / "response-b.conll"))
    prepared = prepare(key, resp)
    records = classify_pair(prepared.pairs[0])
    c = next(r for r in records if r.category is Category.SUBOPTIMAL_LINK and r.mention.text == "I")
    # c's fix moves {he, I} to Jesus' chain: it also fixes b (false new), so MUC gains too; the
    # suboptimal links of S_you, moved to Jerusalem with "it", raise LMUC more than MUC.
    g = next(r for r in records if r.category is Category.SUBOPTIMAL_LINK and r.span == (21, 21))
    assert Pricer(prepared, "lmuc").price_records([g])[0].impact > Pricer(prepared, "muc").price_records([g])[0].impact
    assert Pricer(prepared, "muc").price_records([c])[0].impact > 0


def test_unknown_metric() -> None:
    with pytest.raises(ValueError):
        parts_of("f1")


def test_conll_parts() -> None:
    assert parts_of("conll") == ("muc", "bcub", "ceafe") and parts_of("lceafe") == ("lceafe",)


def test_empty_corpus() -> None:
    pricer = Pricer(prepare([], []), "conll")
    assert pricer.value == 0.0 and pricer.price_records([]) == []
    assert price_categories(pricer, []) == {c: 0.0 for c in Category}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), st.data())
def test_blanc_impact_counts_links_between_parts(corpus: list[Pair], data) -> None:
    """BLANC is not a sum over chain components: pairs across components are non-coreference links.
    The fast path adds them from mention counts; it must equal rescoring the whole corpus."""
    keys = [p.key for p in corpus]
    responses = [p.response for p in corpus]
    prepared = prepare(keys, responses)
    records = classify_corpus(prepared.pairs, W4)
    if not records:
        return
    pricer = Pricer(prepared, "blanc", W4)
    for record in data.draw(st.lists(st.sampled_from(records), max_size=5, unique=True)):
        i = pricer.index[record.document]
        fixed = apply_fixes(keys[i], prepared.pairs[i].response, [fix_of(record)])
        assert pricer.price(i, [fix_of(record)]) == pytest.approx(
            full_rescore(keys, responses, i, fixed, W4, "blanc"), abs=1e-9)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(duplicates=True, key_duplicates=False), st.sampled_from(("conll", "lmuc", "lea", "blanc")))
def test_fixes_rescored_together_priced_as_each_alone_and_as_by_rescoring(corpus: list[Pair], metric: str) -> None:
    """A document's fixes that count changes cannot price (a repeated span, or a metric the delta
    table lacks) are rescored together by `price_each`: each price the same to the bit as the fix
    rescored alone, and the change of rescoring the whole corpus."""
    keys = [p.key for p in corpus]
    responses = [p.response for p in corpus]
    records = classify_corpus(prepare(keys, responses).pairs, W4)
    together = Pricer(prepare(keys, responses), metric, W4)
    alone = Pricer(prepare(keys, responses), metric, W4)
    for i, pair in enumerate(together.corpus.pairs):
        mine = [r for r in records if r.document == pair.name][:6]
        prices = together.price_each(i, [[fix_of(r)] for r in mine])
        assert prices == [alone.price(i, [fix_of(r)]) for r in mine]
        for record, price in zip(mine[:2], prices):
            fixed = apply_fixes(keys[i], together.corpus.pairs[i].response, [fix_of(record)])
            assert price == pytest.approx(full_rescore(keys, responses, i, fixed, W4, metric), abs=1e-9)



def _check_fix_groups(prepared, singletons_removed: bool = False) -> int:
    """`Pricer.group_by_fix` (on the columns, by the edits' signatures) against the obvious way:
    two errors share a fix when applying each alone (`apply_fixes` of the record's fix) makes the
    same scored response, chains, their order and their labels (with `singletons_removed`, the
    fixed response's singletons removed as the scorer removes them: `without_singletons`); a fix
    whose scored response is the response as it was shares its fix with no other; every row in
    one group, in row order.  Returns how many rows share their group (a check that saw none
    proved little)."""
    columns = classify_corpus_columns(prepared.pairs, W4)
    pricer = Pricer(prepared, "conll", W4, singletons_removed=singletons_removed)
    groups = pricer.group_by_fix(columns)
    made = []
    for row, r in enumerate(columns.records()):
        pair = prepared.pairs[pricer.index[r.document]]
        fixed = apply_fixes(pair.key, pair.response, [fix_of(r)])
        if singletons_removed:
            (fixed,), _ = without_singletons([fixed])
        response = (tuple(map(tuple, fixed.chains)), tuple(fixed.labels))
        unchanged = response == (tuple(map(tuple, pair.response.chains)), tuple(pair.response.labels))
        made.append((r.document, row if unchanged else response))
    assert sorted(row for group in groups for row in group) == list(range(len(columns)))
    assert [group[0] for group in groups] == sorted(group[0] for group in groups)
    assert all(group == sorted(group) for group in groups)
    group_of = {row: n for n, group in enumerate(groups) for row in group}
    for a in range(len(made)):
        for b in range(a + 1, len(made)):
            assert (group_of[a] == group_of[b]) == (made[a] == made[b]), (a, b)
    return sum(len(group) for group in groups if len(group) > 1)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(duplicates=True, max_documents=3))
def test_rows_grouped_by_fix_are_those_whose_fixes_make_the_same_response(corpus: list[Pair]) -> None:
    _check_fix_groups(prepare([p.key for p in corpus], [p.response for p in corpus]))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(duplicates=True, key_duplicates=False, max_documents=3))
def test_rows_grouped_by_fix_with_singletons_removed(corpus: list[Pair]) -> None:
    """Under `--singletons remove` the scored response is the fixed one without its singletons:
    a spurious mention removed and the mention after it split off both leave two singletons, the
    same scored response, so they group (before, grouped by the edit before the rule, they did not)."""
    keys, _ = without_singletons([p.key for p in corpus])
    responses, _ = without_singletons([p.response for p in corpus])
    _check_fix_groups(prepare(keys, responses), singletons_removed=True)


def test_rows_grouped_by_fix_in_the_samples() -> None:
    """Random documents rarely give two errors one fix; Chen & Ng's responses do (response (e):
    a wrong link and its chain's suboptimal links), and the GUM sample's many documents."""
    shared = 0
    for key, response in [("chen-ng/key.conll", f"chen-ng/response-{x}.conll") for x in "abcde"] + \
            [("gum/key.ontogum.conll", "gum/response.ontonotes.conll")]:
        shared += _check_fix_groups(prepare(metrics.read_documents(str(SAMPLES / key)),
                                            metrics.read_documents(str(SAMPLES / response))))
    assert shared > 20, shared


def test_rows_grouped_by_fix_with_singletons_removed_in_the_sample() -> None:
    """The GUM sample (singletons in key and response) prepared as `--singletons remove` does."""
    keys, _ = without_singletons(metrics.read_documents(str(SAMPLES / "gum/key.gum.conll")))
    responses, _ = without_singletons(metrics.read_documents(str(SAMPLES / "gum/response.gum.conll")))
    assert _check_fix_groups(prepare(keys, responses), singletons_removed=True) > 20


def test_fixes_leaving_the_same_chains_where_a_span_is_listed_twice_group() -> None:
    """A response listing b twice, [a b] [c b], against the key [c b x]: linking b to c empties
    the first chain (a is left alone, dropped); splitting a off drops the first chain whole (b is
    left alone, listed elsewhere).  Different moves, the same scored response [c b]: one group
    (the edits' signatures differ, so `Edit.response_key` reads the chains)."""
    from strategies import make_document
    from metrics.model import MentionType

    types = {span: MentionType.NAME for span in [(0, 0), (0, 1), (0, 2), (1, 1)]}
    key = make_document("d", ["Ann"] * 3, [[(1, 1), (0, 0), (0, 1)]], types)
    response = make_document("d", ["Ann"] * 3, [[(0, 2), (0, 1)], [(0, 0), (0, 1)]], types)
    assert _check_fix_groups(prepare([key], [response]), singletons_removed=True) == 2

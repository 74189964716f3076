"""Impacts with singletons removed equal rescoring the fixed response with its singletons removed.

With `--singletons remove` (CorefUD's and the UA scorer's default) key and responses lose their
chains of one distinct span before alignment; an impact is the change of the corpus F1 when the fix
is applied and the response scored again under the same settings, so a chain the fix leaves with
one mention (a missing mention added, a mention split off, the last one left) is dropped too
(`metrics.errors.chen_ng.singletons`).  Before, the pricer scored it: on samples/gum 129 of 218
impacts differed from rescoring.  Every pricing path is checked here against the brute force:
single fixes one by one (`price_records`: counts, edits, rescoring), all at once (`price_all`:
the one pass of arrays, and each category's fixes together), a document that lists a span twice
(rescored), the same past `PARTIAL_DELTA_TOKENS` (a partial table beside rescoring), and the CLI
under `--conventions corefud` and `ua`.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import Pair, computed_metrics, corpora

from records_road import apply_records, price_all
from metrics.corpus.scoring import prepare
from metrics.errors.chen_ng import impact
from metrics.errors.chen_ng.fixes import apply_fixes, fix_of
from metrics.errors.chen_ng.impact import Pricer, parts_of
from metrics.errors.chen_ng.records import Category, classify_corpus
from metrics.measures.weights import W4
from metrics.model import without_singletons
from workbench.cli import main
from workbench.output import impact_points

METRICS = computed_metrics()


def _scored(keys, responses, metric: str) -> float:
    """The corpus F1 of `metric`, the responses' singletons removed first (as the road removes them)."""
    kept, _ = without_singletons(list(responses))
    names = parts_of(metric) + ((metric,) if metric == "conll" else ())
    return prepare(keys, kept).score(W4, names).micro[metric].f1


def _prepared(corpus: list[Pair]):
    keys, _ = without_singletons([p.key for p in corpus])
    responses, _ = without_singletons([p.response for p in corpus])
    return keys, responses, prepare(keys, responses)


def _check_single_fixes(corpus: list[Pair], metric: str) -> None:
    """Each error's price, alone and in one pass with all the others, against rescoring."""
    keys, responses, prepared = _prepared(corpus)
    records = classify_corpus(prepared.pairs, W4)
    if not records:
        return
    before = _scored(keys, responses, metric)
    alone = Pricer(prepared, metric, W4, singletons_removed=True).price_records(records)
    together, _ = price_all(Pricer(prepared, metric, W4, singletons_removed=True), records, records)
    for record, one, other in zip(records, alone, together):
        i = next(n for n, pair in enumerate(prepared.pairs) if pair.name == record.document)
        fixed = apply_fixes(keys[i], prepared.pairs[i].response, [fix_of(record)])
        expected = _scored(keys, [fixed if n == i else r for n, r in enumerate(responses)], metric) - before
        assert one.impact == pytest.approx(expected, abs=1e-9), record
        assert other.impact == pytest.approx(expected, abs=1e-9), record


def _check_categories(corpus: list[Pair], metric: str) -> None:
    """Each category's fixes applied together, then the singletons removed, against its price."""
    keys, responses, prepared = _prepared(corpus)
    records = classify_corpus(prepared.pairs, W4)
    before = _scored(keys, responses, metric)
    _, by_category = price_all(Pricer(prepared, metric, W4, singletons_removed=True), records, records)
    for category in Category:
        fixed = [apply_records(pair.key, pair.response,
                               [r for r in records if r.document == pair.name and r.category is category])
                 for pair in prepared.pairs]
        assert by_category[category] == pytest.approx(_scored(keys, fixed, metric) - before, abs=1e-9), category


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), st.sampled_from(METRICS))
def test_single_fixes_equal_rescoring_without_singletons(corpus: list[Pair], metric: str) -> None:
    _check_single_fixes(corpus, metric)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(duplicates=True, key_duplicates=False), st.sampled_from(METRICS))
def test_single_fixes_where_the_response_lists_a_span_twice(corpus: list[Pair], metric: str) -> None:
    """Rescored documents: a chain left with one span listed elsewhere too is dropped alone."""
    _check_single_fixes(corpus, metric)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(duplicates=True, key_duplicates=False), st.sampled_from(("conll", "lea", "ceafm", "mentions")))
def test_partial_tables_beside_rescoring(corpus: list[Pair], metric: str) -> None:
    """Every document past `PARTIAL_DELTA_TOKENS`: a document that lists a span twice prices the
    fixes clear of it by counts and the others by rescoring."""
    saved = impact.PARTIAL_DELTA_TOKENS
    impact.PARTIAL_DELTA_TOKENS = 0
    try:
        _check_single_fixes(corpus, metric)
        _check_categories(corpus, metric)
    finally:
        impact.PARTIAL_DELTA_TOKENS = saved


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), st.sampled_from(METRICS))
def test_categories_equal_rescoring_without_singletons(corpus: list[Pair], metric: str) -> None:
    _check_categories(corpus, metric)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(duplicates=True, key_duplicates=False))
def test_categories_where_the_response_lists_a_span_twice(corpus: list[Pair]) -> None:
    _check_categories(corpus, "conll")


def test_a_missing_mention_added_alone_changes_nothing() -> None:
    """The plainest case: the fix of a missing mention adds it as a singleton, which is dropped."""
    from strategies import make_document
    from metrics.model import MentionType

    words = ["Ann", "saw", "the", "dog", "she", "it"]
    types = {(i, i): MentionType.NOMINAL for i in range(6)}
    key = make_document("d", words, [[(0, 0), (4, 4)], [(3, 3), (5, 5)]], types)
    response = make_document("d", words, [[(0, 0), (4, 4)]], types)
    prepared = prepare([key], [response])
    records = [r for r in classify_corpus(prepared.pairs, W4) if r.category is Category.MISSING_MENTION]
    assert records
    assert all(r.impact == 0.0 for r in Pricer(prepared, "conll", W4, singletons_removed=True).price_records(records))
    assert all(r.impact != 0.0 for r in Pricer(prepared, "conll", W4).price_records(records))


def _cli_impacts(capsys, key: str, response: str, *argv: str) -> list[dict]:
    status = main(["errors", key, response, "--impact", "conll", "--format", "json", "--jobs", "1", *argv])
    out = capsys.readouterr().out
    assert status == 0
    return json.loads(out)["errors"]


@pytest.mark.parametrize("key, response, argv", [
    ("tests/data/formats/gum2.conllu", "tests/data/crac/gum2.ids.pipeline.conllu", ("--conventions", "corefud")),
    ("tests/data/ua/codi/persuasion.key", "tests/data/ua/codi/persuasion.response", ("--conventions", "ua")),
])
def test_cli_impacts_equal_rescoring_without_singletons(capsys, key, response, argv) -> None:
    """`errors --impact` under CorefUD's and the UA scorer's defaults (singletons removed): each
    listed impact is the span engine's corpus CoNLL F1 with the fix applied and the singletons
    removed, less before (the pairs' token spans; their scores are the official scorer's, equal
    here to the span engine's)."""
    from workbench.cli import build_parser
    from workbench.commands.common import load_options
    from workbench.session import Session

    args = build_parser().parse_args([key, response, *argv])
    session = Session.load(key, [response], load_options(args, args.responses, ua_taken=True))
    assert session.options.singletons == "remove"
    keys = [pair.key for pair in session.corpus.pairs]
    responses = [pair.response for pair in session.corpus.pairs]
    before = _scored(keys, responses, "conll")
    assert before == pytest.approx(session.score(W4, ("muc", "bcub", "ceafe", "conll")).micro["conll"].f1, abs=1e-12)
    listed = _cli_impacts(capsys, key, response, *argv)
    records = session.classify(W4)
    assert len(listed) == len(records) > 5
    index = {pair.name: i for i, pair in enumerate(session.corpus.pairs)}
    exercised = 0  # impacts that rescoring with the singletons kept would get wrong
    for record, error in zip(records, listed):
        i = index[record.document]
        fixed = [apply_fixes(keys[i], responses[i], [fix_of(record)]) if j == i else r for j, r in enumerate(responses)]
        after = _scored(keys, fixed, "conll")
        assert error["impact_points"] == pytest.approx(impact_points(after - before), abs=1e-9), record
        kept = prepare(keys, fixed).score(W4, ("muc", "bcub", "ceafe", "conll")).micro["conll"].f1
        exercised += abs(kept - after) > 1e-9
    assert exercised

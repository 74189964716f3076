"""`--conventions ua` on the engine's one road: what the pipeline gives from the files (the
options mapped to the UA scorer's settings, the documents read, paired and aligned by the UA
convention, a `Scorer.UA` pair per document, the catalogue's computations, documents summed by
`measures.score.total`) equals, to the last bit, `corpus/ua.score_corpus` on the documents read
directly, the function `benchmarks/check_ua.py` holds against the UA scorer itself; under every
matching and every option, split antecedents and the BLANC of their alignments alone included.
(The BLANC of split antecedents' alignments summed over documents is checked against a brute
force, the mean over the parts the whole documents' counts leave, below.)"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from metrics.conventions.options import UA, Options
from metrics.conventions.pipeline import load
from metrics.conventions.ua import BRIDGING, MATCHES, UA_CONVENTIONS, settings_of
from metrics.corpus.ua import PRESETS, Settings, score_corpus
from metrics.formats.ua import read_ua
from metrics.measures.catalog import CONLL, Scorer, resolve

DATA = Path(__file__).parent / "data" / "ua"
CASES = ("bridging", "deixis", "non_referring", "split")
ALL = tuple(metric.name for metric in UA_CONVENTIONS.official)


def options_of(settings: Settings) -> Options:
    return Options(conventions=UA, match=settings.match, keep_singletons=settings.keep_singletons,
                   zero_match="linear" if settings.keep_zeros else "dependency", spans=False,
                   split_antecedents=settings.keep_split, only_split_antecedents=settings.only_split,
                   discourse_deixis=settings.discourse_deixis)


def both(case: str, settings: Settings):
    key, response = str(DATA / f"{case}.key"), str(DATA / f"{case}.response")
    settings = settings.completed()
    expected = score_corpus(read_ua(key), read_ua(response), key, response, settings)
    loaded = load(key, [response], options_of(settings))
    return expected, loaded


SETTINGS = [Settings(match, singletons, split, only, deixis, zeros, ALL)
            for match, singletons, split, only, deixis, zeros in itertools.product(
                MATCHES, (False, True), (False, True), (False, True), (False, True), (False, True))
            if not (split and not singletons)]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: s.describe())
def test_the_road_scores_as_the_ua_sums_do(case, settings):
    expected, loaded = both(case, settings)
    corpus = loaded.corpora[0]
    assert corpus.scorer is Scorer.UA
    result = corpus.score(metrics=ALL)
    assert set(result.micro) == set(expected.micro)
    for name, value in expected.micro.items():
        got = result.micro[name]
        assert (got.recall, got.precision, got.f1) == (value.recall, value.precision, value.f1), name
    assert [name for name, _ in result.documents] == [doc.name for doc in expected.documents]
    for (_, scores), doc in zip(result.documents, expected.documents):
        for name, value in doc.scores.items():
            assert (scores[name].recall, scores[name].precision, scores[name].f1) == \
                (value.recall, value.precision, value.f1), (doc.name, name)
    assert list(loaded.warnings) == expected.warnings


@pytest.mark.parametrize("name", [name for name, preset in PRESETS.items() if isinstance(preset, Settings)])
def test_each_ua_preset_scores_on_the_road_as_the_ua_sums_do(name):
    preset = PRESETS[name]
    assert isinstance(preset, Settings)
    for case in CASES:
        expected, loaded = both(case, preset)
        wanted = [m for m in ALL if m in preset.metrics or m == CONLL.name]
        result = loaded.corpora[0].score(metrics=wanted)
        for metric, value in expected.micro.items():
            assert result.micro[metric].f1 == value.f1, (case, metric)


@pytest.mark.parametrize("name", ["crac18", "craft19", "codicrac22ar", "codicrac22br"])
def test_the_road_counts_over_columns_what_it_is_first_asked_for(name):
    """The road's options carry no metrics, so its documents are counted over columns when the
    catalogue first asks them for a score: no `Mention` is made under exact matching (split
    antecedents kept, where MUC, B3 and CEAFe credit them over columns too), and the counts are
    those over columns (the scores' equality with `score_corpus` is the test above)."""
    preset = PRESETS[name]
    assert isinstance(preset, Settings)
    options = Options(conventions=UA, match=preset.match, keep_singletons=preset.keep_singletons, spans=False,
                      split_antecedents=preset.keep_split, bridging=name == "codicrac22br")
    for case in CASES:
        corpus = load(str(DATA / f"{case}.key"), [str(DATA / f"{case}.response")], options).corpora[0]
        corpus.score(metrics=list(preset.metrics))
        for pair in corpus.pairs:
            document = pair.ua.document
            assert document.columnar and document._objects is None, (case, document.name)
            counted = set(document.counted) - {"bridging"}
            assert counted == {m for m in preset.metrics if m in ("muc", "bcub", "ceafe", "non_referring")}, case


def test_the_ua_metrics_are_the_catalogues_and_apply_under_ua_alone():
    assert resolve(["bridging_entity", "non-referring", "mor", "mention"], Scorer.UA) == \
        ("mentions", "mor", "non_referring", "bridging_entity")
    for metric in BRIDGING:
        with pytest.raises(ValueError, match="unknown metric"):
            resolve([metric.name], Scorer.COREFUD)
    with pytest.raises(ValueError, match="unknown metric 'zero'"):
        resolve(["zero"], Scorer.UA)


def test_without_bridging_asked_its_links_are_not_read_and_warn_nothing():
    key = str(DATA / "bridging.key")
    quiet = load(key, [str(DATA / "bridging.response")],
                 Options(conventions=UA, keep_singletons=False, spans=False, bridging=False))
    assert settings_of(Options(conventions=UA, bridging=False)).metrics == ()
    assert all(not pair.ua.document.key_bridging for pair in quiet.corpora[0].pairs)


def test_a_ua_pair_makes_its_token_spans_when_asked_for_whatever_spans_says():
    key = str(DATA / "split.key")
    for spans in (True, False):
        pair = load(key, [key], Options(conventions=UA, spans=spans)).corpora[0].pairs[0]
        assert pair.ua._token_spans is None  # scoring never asks for them
        assert pair.key.words == pair.ua.document.key.words and pair.ua._token_spans is not None


def test_split_blanc_sums_documents_before_choosing_its_parts():
    """Brute force: BLANC under --only-split-antecedents is the mean, over the parts (coreference,
    non-coreference links) whose summed whole-document counts are not both 0, of the summed split
    counts' recall, precision and F1; a part empty in one document but not in the corpus counts."""
    from metrics.corpus.ua import SplitBlancScore
    from metrics.measures.corefud import CorefudBlancScore
    from metrics.measures.score import Score, total

    empty = Score(0.0, 0.0, 0.0, 0.0)
    first = SplitBlancScore.of(CorefudBlancScore(Score(1.0, 2.0, 1.0, 1.0), empty),
                               CorefudBlancScore(Score(1.0, 4.0, 1.0, 2.0), Score(3.0, 3.0, 1.0, 1.0)))
    second = SplitBlancScore.of(CorefudBlancScore(empty, Score(2.0, 2.0, 2.0, 2.0)),
                                CorefudBlancScore(Score(1.0, 1.0, 1.0, 1.0), Score(1.0, 2.0, 1.0, 4.0)))
    assert first.recall == 0.25 and first.precision == 0.5  # the non-coreference part left out here
    summed = total([first, second])
    coref_r, coref_p = 2 / 5, 2 / 3
    noncoref_r, noncoref_p = 4 / 5, 2 / 5
    f = [2 * p * r / (p + r) for r, p in ((coref_r, coref_p), (noncoref_r, noncoref_p))]
    assert summed.recall == pytest.approx((coref_r + noncoref_r) / 2)
    assert summed.precision == pytest.approx((coref_p + noncoref_p) / 2)
    assert summed.f1 == pytest.approx(sum(f) / 2)

"""Issue 40, one road: the engine runs itself from files to scores under every convention, the
catalogue is the one place a metric is defined, and what the road builds is complete when built."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import metrics
from corefud_support import score_corpus
from metrics.conventions.base import Loaded, applicable
from metrics.conventions.corefud import COREFUD_CONVENTIONS, Settings
from metrics.conventions.options import CONLL_2012, COREFUD, UA, Options
from metrics.conventions.pipeline import load
from metrics.conventions.registry import CONVENTIONS, convention
from metrics.formats.corefud import read_corefud
from metrics.measures import catalog
from metrics.measures.catalog import (BRIDGING_ENTITY, BRIDGING_MARKABLE, BRIDGING_RECOGNITION, CATALOG, CONLL, METRICS, MOR,
                                      MUC, NON_REFERRING, ZERO, Scorer)
from metrics.measures.score import Score, mean, mean_score, ratio, total

ROOT = Path(__file__).resolve().parent.parent
KEY, RESPONSE = str(ROOT / "samples/gum/key.gum.conll"), str(ROOT / "samples/gum/response.gum.conll")
UD_KEY, UD_RESPONSE = str(ROOT / "tests/data/corefud/key.conllu"), str(ROOT / "tests/data/corefud/response.conllu")


def test_the_engine_runs_the_road_by_itself_under_each_convention():
    conll = load(KEY, [RESPONSE], Options(cache=False))
    assert isinstance(conll, Loaded) and len(conll.corpora) == 1
    assert conll.corpora[0].score(metrics=["conll"]).micro["conll"].f1 == \
        metrics.prepare(metrics.read_documents(KEY), metrics.read_documents(RESPONSE)).score(
            metrics=["conll"]).micro["conll"].f1
    corefud = load(UD_KEY, [UD_RESPONSE], Options(conventions=COREFUD, match="head", keep_singletons=False,
                                                  cache=False))
    expected = score_corpus(read_corefud(UD_KEY), read_corefud(UD_RESPONSE), UD_KEY, UD_RESPONSE, Settings())
    got = corefud.corpora[0].score(metrics=[MUC.name, ZERO.name, CONLL.name]).micro
    for name in (MUC.name, ZERO.name, CONLL.name):
        assert (got[name].recall, got[name].precision, got[name].f1) == \
               (expected.micro[name].recall, expected.micro[name].precision, expected.micro[name].f1)


def test_scores_alone_make_no_token_spans_and_equal_those_with_spans():
    """Without `spans` a CorefUD pair is scored from its aligned nodes; its spans are made only
    when asked for, and then equal the spans of a pair built with them (the key's annotations aside)."""
    options = Options(conventions=COREFUD, match="exact", keep_singletons=True, cache=False)
    lazy = load(UD_KEY, [UD_RESPONSE], dataclasses.replace(options, spans=False)).corpora[0]
    eager = load(UD_KEY, [UD_RESPONSE], options).corpora[0]
    assert all("spans" not in vars(pair) for pair in lazy.pairs)  # not made (held once made: DocPair.spans)
    wanted = [m.name for m in COREFUD_CONVENTIONS.official] + [CONLL.name]
    assert repr(lazy.score(metrics=wanted).micro) == repr(eager.score(metrics=wanted).micro)
    assert all("spans" not in vars(pair) for pair in lazy.pairs)  # still none: scores never needed them
    assert [p.key.chains for p in lazy.pairs] == [p.key.chains for p in eager.pairs]
    assert [p.response.chains for p in lazy.pairs] == [p.response.chains for p in eager.pairs]


def test_the_conventions_are_registered_by_name_with_their_scorer_and_metrics():
    assert list(CONVENTIONS) == [CONLL_2012, COREFUD, UA]
    assert convention(UA).scorer is Scorer.UA and MOR in convention(UA).official
    assert convention(COREFUD).scorer is Scorer.COREFUD and convention(CONLL_2012).scorer is Scorer.V801
    assert MOR in convention(COREFUD).official and MOR not in convention(CONLL_2012).official
    assert [m.name for m in convention(COREFUD).official] == ["muc", "bcub", "ceafe", "ceafm", "lea", "blanc",
                                                               "mor", "zero"]
    with pytest.raises(ValueError, match="unknown conventions"):
        convention("ua-someday")


def test_the_catalogue_defines_each_metric_under_each_scorer():
    ua_only = {NON_REFERRING, BRIDGING_RECOGNITION, BRIDGING_MARKABLE, BRIDGING_ENTITY}
    assert set(applicable(Scorer.COREFUD)) == set(CATALOG) - ua_only
    assert set(applicable(Scorer.V801)) == set(CATALOG) - {MOR, ZERO} - ua_only
    assert set(applicable(Scorer.UA)) == set(CATALOG) - {ZERO}
    assert MUC.computation(Scorer.UA) is not MUC.computation(Scorer.COREFUD)
    assert MUC.computation(Scorer.COREFUD) is not MUC.computation(Scorer.V801)
    assert METRICS["lmuc"].computation(Scorer.COREFUD) is METRICS["lmuc"].computation(Scorer.V801)
    assert catalog.resolve(["mor"], Scorer.COREFUD) == ("mor",)
    with pytest.raises(ValueError, match="unknown metric 'mor'"):
        catalog.resolve(["mor"])  # v8.01 has no MOR
    assert ZERO.name not in catalog.ALL_METRICS and catalog.in_order({"zero", "muc"}) == ("muc", "zero")
    assert [m.name for m in CATALOG] == list(METRICS)  # the constants are the catalogue's, in order


def test_a_v801_pair_asked_for_a_corefud_metric_says_so():
    pair = metrics.prepare(metrics.read_documents(KEY), metrics.read_documents(RESPONSE)).pairs[0]
    with pytest.raises(ValueError, match="not aligned under the CorefUD conventions"):
        pair.score(ZERO)


def test_one_division_one_mean_one_sum():
    assert ratio(1, 0) == 0.0 and ratio(1, 4) == 0.25
    assert mean([]) == 0.0 and mean([0.1, 0.2, 0.3]) == (0.1 + 0.2 + 0.3) / 3
    scores = [Score(1, 2, 1, 4), Score(2, 2, 0, 1)]
    assert total(scores) == Score(3, 4, 1, 5) and total([]) is None
    assert mean_score(scores).f1 == (scores[0].f1 + scores[1].f1) / 2


def test_what_the_road_builds_is_frozen():
    loaded = load(KEY, [RESPONSE], Options(cache=False))
    result = loaded.corpora[0].score(metrics=["muc"])
    for value, name in ((loaded, "warnings"), (result, "micro"), (Options(), "match")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, name, None)
    assert loaded.responses[0][0] is not None and loaded.keys[0].name == loaded.corpora[0].pairs[0].name


def test_a_corefud_key_is_read_once_for_both_its_views(monkeypatch, tmp_path):
    """Under CorefUD with token spans the key gives node mentions and token spans from one reading
    of its text (and, with a cache, one entry holding both); the views equal those read apart."""
    from metrics.formats import source
    from metrics.formats.conllu import read_conllu
    from metrics.formats.cache import ReadCache

    reads: list[str] = []
    real = source.read_text
    monkeypatch.setattr(source, "read_text", lambda path: reads.append(path) or real(path))
    options = Options(conventions=COREFUD, cache=False)
    read = COREFUD_CONVENTIONS.read(UD_KEY, True, options, ReadCache(None), 1)
    assert reads == [UD_KEY]
    assert read.documents and read.nodes
    assert [d.chains for d in read.documents] == [d.chains for d in read_conllu(UD_KEY)]
    assert read.nodes == tuple(read_corefud(UD_KEY))
    cache = ReadCache(tmp_path / "cache")
    first = COREFUD_CONVENTIONS.read(UD_KEY, True, options, cache, 1)
    reads.clear()
    again = COREFUD_CONVENTIONS.read(UD_KEY, True, options, ReadCache(tmp_path / "cache"), 1)
    assert reads == [] and again.nodes == first.nodes and again.notes == first.notes
    assert [d.chains for d in again.documents] == [d.chains for d in first.documents]
    assert len([p for p in (tmp_path / "cache").iterdir() if not p.name.endswith(".identity")]) == 1  # (and the
    # key's content hash, remembered: metrics/formats/cache.py)

"""UA documents as token spans (`metrics.corpus.ua_spans`), checked against the markables they
come from, and against the UA scorer's own scores where v8.01's computation over the identity
chains must give the same numbers."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cli_support import corefwb_in_process

from metrics.conventions.options import UA, Options
from metrics.conventions.pipeline import load
from metrics.corpus.scoring import prepare_pair
from metrics.corpus.ua_spans import ZERO_WORD, token_spans
from metrics.formats.ua import read_ua

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "ua"
CODI = (str(DATA / "codi" / "persuasion.key"), str(DATA / "codi" / "persuasion.response"))
EXAMPLES = [(str(DATA / f"{name}.key"), str(DATA / f"{name}.response"))
            for name in ("split", "non_referring", "bridging", "deixis")]


def _words(doc, markable) -> list[str]:
    return [doc.words[w] for w in markable.words if isinstance(w, int)]


@pytest.mark.parametrize("pair", [CODI, *EXAMPLES])
def test_every_markable_and_relation_covers_its_own_words(pair):
    """Brute force: each markable's token span (and pieces) covers exactly the words the file gives
    it; each side's bridging links, plural entities, deixis chains and non-referring markables are
    the file's, one by one."""
    key, response = (read_ua(path)[0] for path in pair)
    made = token_spans(key, response, keep_singletons=True, keep_zeros=False)
    for doc, relations in ((key, made.key_relations), (response, made.response_relations)):
        by_id = {m.id: m for m in doc.identity}
        assert [m.id for m in relations.identity] == [m.id for m in doc.identity if not m.zero]
        for m in relations.identity:
            runs = m.pieces or (m.span,)
            covered = [made.key.words[t] for first, last in runs for t in range(first, last + 1)]
            assert covered == _words(doc, by_id[m.id])
        last_link = {link.anaphor: link for link in doc.bridging}
        assert {(b.anaphor.id, b.anchor.id, b.relation) for b in relations.bridges} == {
            (link.anaphor, link.anchor, link.relation) for link in last_link.values()
            if link.anaphor in by_id and link.anchor in by_id}
        members = {}
        for m in doc.identity:
            for plural in m.element_of:
                members.setdefault(plural, set()).add(m.entity)
        assert {p.entity: set(p.members) for p in relations.plurals} == members
        assert {e: [m.id for m in ms] for e, ms in relations.deixis} == {
            e: [m.id for m in doc.deixis if m.entity == e] for e in dict.fromkeys(m.entity for m in doc.deixis)}
        assert [m.id for m in relations.non_referring] == [m.id for m in doc.identity if m.non_referring]
    # the identity chains: referring entities, in the order first named, labelled by EntityID
    entities = list(dict.fromkeys(m.entity for m in key.identity if not m.non_referring))
    assert made.key.labels == entities
    assert ZERO_WORD not in made.key.words


@pytest.mark.parametrize("pair", [CODI, *EXAMPLES])
@pytest.mark.parametrize("singletons", [True, False])
def test_v801_over_the_identity_chains_equals_the_ua_scorer_without_split_antecedents(pair, singletons):
    """Without split antecedents the UA scorer's coreference metrics are coval's over the identity
    chains: v8.01's computation over the token spans must give the same counts."""
    corpus = load(pair[0], [pair[1]], Options(conventions=UA, keep_singletons=singletons)).corpora[0]
    for pair_ in corpus.pairs:
        v801 = prepare_pair(pair_.key, pair_.response)
        for metric in ("muc", "bcub", "ceafe", "ceafm"):
            ours, theirs = v801.score(metric), pair_.score(metric)
            assert (ours.recall, ours.precision) == pytest.approx((theirs.recall, theirs.precision)), metric


def test_singletons_removed_leave_the_identity_chains_of_two_mentions_or_more():
    key, response = (read_ua(path)[0] for path in CODI)
    made = token_spans(key, response, keep_singletons=False, keep_zeros=False)
    assert made.key.chains and all(len(set(chain)) > 1 for chain in made.key.chains)


def _corefwb(*args: str) -> subprocess.CompletedProcess:
    """`corefwb ARGS` in this process (`cli_support`): these cases are about what it says, not the process."""
    return corefwb_in_process(*args, cwd=ROOT)


def test_compare_under_ua_counts_each_systems_relation_errors_as_errors_does():
    import json

    out = _corefwb("compare", CODI[0], CODI[1], CODI[0], "--conventions", "ua", "--split-antecedents", "keep",
                   "--format", "json", "--metrics", "muc,conll")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    errors = _corefwb("errors", CODI[0], CODI[1], "--conventions", "ua", "--split-antecedents", "keep",
                      "--format", "json")
    assert data["ua_relations"][0]["counts"] == json.loads(errors.stdout)["counts"]
    assert all(n == 0 for counts in data["ua_relations"][1]["counts"].values() for n in counts.values())
    score = _corefwb("score", CODI[0], CODI[1], "--conventions", "ua", "--split-antecedents", "keep", "--format",
                     "json", "--metrics", "muc")
    assert data["conventions"] == "ua" and data["split_antecedents"] == "keep"
    assert data["metrics"]["muc"]["persuasion.response"]["f1"] == json.loads(score.stdout)["metrics"]["muc"]["f1"]
    assert data["metrics"]["muc"]["persuasion.key"]["f1"] == 1.0


def test_conll_alone_under_ua_is_the_mean_of_its_parts():
    import json

    alone = json.loads(_corefwb("score", CODI[0], CODI[1], "--conventions", "ua", "--metrics", "conll", "--format",
                                "json").stdout)["metrics"]
    parts = json.loads(_corefwb("score", CODI[0], CODI[1], "--conventions", "ua", "--metrics", "muc,bcub,ceafe",
                                "--format", "json").stdout)["metrics"]
    assert list(alone) == ["conll"]
    assert alone["conll"]["f1"] == pytest.approx(sum(parts[m]["f1"] for m in ("muc", "bcub", "ceafe")) / 3)


def test_plot_under_ua_draws_the_identity_chains(tmp_path):
    """`plot` takes --conventions ua as compare does (the identity chains as token spans)."""
    for kind in ("errors", "documents"):
        figure = tmp_path / f"{kind}.svg"
        out = _corefwb("plot", kind, CODI[0], CODI[1], CODI[0], "--conventions", "ua", "--output", str(figure))
        assert out.returncode == 0, out.stderr
        assert figure.read_text().lstrip().startswith("<?xml") and "<svg" in figure.read_text()


def test_compare_and_the_workbench_refuse_deixis_and_split_antecedents_alone_in_one_line():
    for option in (("--discourse-deixis",), ("--only-split-antecedents",), ("--preset", "codicrac22dd")):
        out = _corefwb("compare", CODI[0], CODI[1], CODI[0], "--conventions", "ua", *option)
        assert out.returncode == 2 and out.stderr.count("\n") == 1 and "identity chains" in out.stderr, option


def test_kk_errors_under_ua_are_of_the_identity_chains_and_start_from_the_ua_scorers_conll():
    out = _corefwb("errors", CODI[0], CODI[1], "--conventions", "ua", "--taxonomy", "kk", "--format", "json")
    assert out.returncode == 0, out.stderr
    import json

    data = json.loads(out.stdout)
    conll = json.loads(_corefwb("score", CODI[0], CODI[1], "--conventions", "ua", "--metrics", "conll",
                                "--format", "json").stdout)["metrics"]["conll"]["f1"]
    assert data["conventions"] == "ua" and data["errors"]
    assert data["v801_conll_f1"] == conll  # the same fraction, to the last digit

"""The same GUM documents as CoNLL-2012, CoNLL-U and jsonlines: same mentions, same chains, same scores.

"Same scores" holds for every metric that does not look at mention types.  The linguistic metrics
(LMUC...) weight mentions by type, Tuggener's inferred and anchor metrics need the type of an
antecedent, and a type comes from the head word, which comes from whatever
syntax the format carries: a UD tree in CoNLL-U, a PTB parse (Collins head rules) in CoNLL-2012,
POS only in jsonlines.  Those disagree on a few spans ("May 18 , 2015": name by the parse, nominal
by the tree), so the type assignments are compared separately and must agree almost everywhere.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from metrics.formats.readers import read_documents
from metrics.corpus.scoring import prepare
from metrics.formats.writers import write_jsonlines

DATA = Path(__file__).resolve().parent / "data" / "formats"
FORMATS = {"conll": DATA / "gum2.conll", "conllu": DATA / "gum2.conllu", "jsonl": DATA / "gum2.jsonl"}


@pytest.fixture(scope="module")
def keys() -> dict[str, list]:
    return {fmt: read_documents(str(path)) for fmt, path in FORMATS.items()}


def test_three_formats_give_identical_words_sentences_and_chains(keys: dict[str, list]) -> None:
    conll = keys["conll"]
    for fmt in ("conllu", "jsonl"):
        other = keys[fmt]
        assert len(other) == len(conll) == 2
        for a, b in zip(conll, other):
            assert a.words == b.words, fmt
            assert a.sentence_starts == b.sentence_starts, fmt
            assert a.chains == b.chains, fmt
            assert a.pos == b.pos, fmt
            assert a.speakers == b.speakers, fmt


def counts(result) -> dict[str, list[float]]:
    """Every micro score's raw counts (where it has them) and R, P, F1."""
    out = {}
    for name, score in result.micro.items():
        raw = list(score.counts()) if hasattr(score, "counts") else []
        out[name] = raw + [score.recall, score.precision, score.f1]
    return out


TYPE_FREE = ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll", "immediate")


def test_a_response_scores_the_same_against_the_key_in_every_format(keys: dict[str, list], tmp_path: Path) -> None:
    response = read_documents(str(DATA / "gum2.response.conll"))
    results = {fmt: counts(prepare(docs, response).score(metrics=TYPE_FREE)) for fmt, docs in keys.items()}
    assert results["conll"]["muc"][:4] == [66, 111, 66, 109]  # a real comparison, not an empty one
    assert 0 < results["conll"]["conll"][-1] < 1
    assert results["conllu"] == results["conll"]
    assert results["jsonl"] == results["conll"]
    # and the response converted to jsonlines scores the same against the CoNLL-U key
    converted = tmp_path / "response.jsonl"
    with open(converted, "w", encoding="utf-8") as out:
        write_jsonlines(response, out)
    assert counts(prepare(keys["conllu"], read_documents(str(converted))).score(metrics=TYPE_FREE)) == results["conll"]


def test_mention_types_agree_across_formats_but_for_a_few_heads(keys: dict[str, list]) -> None:
    response = read_documents(str(DATA / "gum2.response.conll"))
    types = {fmt: [p.types for p in prepare(docs, response).pairs] for fmt, docs in keys.items()}
    total = sum(len(t) for t in types["conll"])
    for fmt in ("conllu", "jsonl"):
        assert [set(t) for t in types[fmt]] == [set(t) for t in types["conll"]]
        differ = sum(a[s] != b[s] for a, b in zip(types["conll"], types[fmt]) for s in a)
        assert differ <= 0.03 * total, fmt


def test_cross_format_pairing_needs_no_warnings(keys: dict[str, list]) -> None:
    response = read_documents(str(DATA / "gum2.response.conll"))
    corpus = prepare(keys["conllu"], response)
    assert [p.name for p in corpus.pairs] == ["GUM_news_asylum", "GUM_interview_brotherhood"]
    assert not [w for w in corpus.warnings if "missing" in w or "ignored" in w or "differ" in w]


def test_errors_are_the_same_whichever_format_the_key_is_in(capsys: pytest.CaptureFixture[str]) -> None:
    """`corefwb errors`: same categories, mentions, antecedents and fixes (types may differ, see above)."""
    import json

    from metrics.mentions.pairing import document_key
    from workbench.cli import main

    def span(m: dict | None) -> tuple[int, int] | None:
        return None if m is None else (m["start"], m["end"])

    lists = {}
    for fmt, path in FORMATS.items():
        assert main(["errors", str(path), str(DATA / "gum2.response.conll"), "--format", "json"]) == 0
        errors = json.loads(capsys.readouterr().out)["errors"]
        lists[fmt] = [(document_key(e["document"]), e["category"], span(e["mention"]), span(e["antecedent"]),
                       span(e["best_antecedent"]), e["fix"]) for e in errors]
    assert len(lists["conll"]) > 100
    assert lists["conllu"] == lists["conll"]
    assert lists["jsonl"] == lists["conll"]

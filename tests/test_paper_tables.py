"""The papers' tables as tests: score the bundled samples and compare with the printed numbers.

The samples (samples/, see samples/README.md) rebuild the papers' examples as CoNLL files; the
expected numbers (tests/paper_tables.py) are transcribed from the papers as printed.  Each score is
compared to the precision the paper printed it with (half a unit in the last printed digit), or, for
Vilain et al.'s fractions, as exact link counts.  The same files also check the readers: every
sample must parse, and the GUM excerpts must hold the documents, counts and oddities the README
promises.
"""

from __future__ import annotations

import csv
from functools import lru_cache
from pathlib import Path

import pytest

import metrics
from metrics.model import Document, Span
from metrics.measures.weights import W4

from paper_tables import (
    CHEN_NG_TABLE1,
    CHEN_NG_TABLE1_COLUMNS,
    LUO_RESPONSE_C_MUC_LINKS,
    LUO_TABLE1_F,
    LUO_TABLE2_RP,
    VILAIN_EXAMPLES,
    VILAIN_TABLE1,
    fraction,
    printed_tolerance,
)

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
EPS = 1e-9  # floating-point slack on top of the printed tolerance


@lru_cache(maxsize=None)
def _read(path: Path) -> tuple[Document, ...]:
    return tuple(metrics.read_documents(str(path)))


@lru_cache(maxsize=None)
def _prepared(key: Path, response: Path) -> metrics.PreparedCorpus:
    return metrics.prepare(list(_read(key)), list(_read(response)))


def _score(key: Path, response: Path, metric: str) -> metrics.Score:
    """Official (micro) corpus score of one metric for one key/response pair, weights W4.

    Only the metric under test is requested, so that a table's OMetric columns do not depend on
    the LMetric or application-metric code.
    """
    return _prepared(key, response).score(W4, [metric]).micro[metric]


def _assert_printed(value: float, printed: str, scale: float, what: str) -> None:
    tolerance = printed_tolerance(printed)
    assert abs(scale * value - float(printed)) <= tolerance + EPS, (
        f"{what}: computed {scale * value:.4f}, paper prints {printed} (tolerance {tolerance})"
    )


# --- Chen & Ng (2013), Table 1 --------------------------------------------------------------------

@pytest.mark.parametrize("metric", CHEN_NG_TABLE1_COLUMNS)
@pytest.mark.parametrize("response", sorted(CHEN_NG_TABLE1))
def test_chen_ng_table1(response: str, metric: str) -> None:
    score = _score(SAMPLES / "chen-ng" / "key.conll", SAMPLES / "chen-ng" / f"response-{response}.conll", metric)
    r, p, f = CHEN_NG_TABLE1[response][metric]
    what = f"Chen & Ng Table 1, response ({response}), {metric}"
    _assert_printed(score.recall, r, 100, what + " R")
    _assert_printed(score.precision, p, 100, what + " P")
    _assert_printed(score.f1, f, 100, what + " F")


# Chen & Ng (2013), sections 4.2 and 4.3, describe Figure 3 (F-scores of the five responses under
# W1..W5; the figure itself prints no numbers).  Each statement below is quoted and checked.

@lru_cache(maxsize=None)
def _chen_ng_f(response: str, weights: str, metric: str) -> float:
    from metrics.measures.weights import PRESETS

    prepared = _prepared(SAMPLES / "chen-ng" / "key.conll", SAMPLES / "chen-ng" / f"response-{response}.conll")
    return 100 * prepared.score(PRESETS[weights], [metric]).micro[metric].f1


def test_chen_ng_w_sing_statements() -> None:
    f = _chen_ng_f
    # 4.2: "the scores of MUC and LMUC(W1) are almost the same"
    assert all(abs(f(r, "W1", "lmuc") - f(r, "W1", "muc")) < 0.1 for r in "abcde")
    # 4.2: "When we replace W1 with W2 and W3 ... the LMUC scores for responses (a), (b), (c) and (d)
    # decrease"; "the LMUC score for response (e) is higher than the corresponding MUC score"
    for r in "abcd":
        assert f(r, "W1", "lmuc") > f(r, "W2", "lmuc") > f(r, "W3", "lmuc")
    assert f("e", "W2", "lmuc") > f("e", "W2", "muc") and f("e", "W3", "lmuc") > f("e", "W3", "muc")
    # 4.2: "the scores for LB3(W1), LB3(W2) and LB3(W3) are identical"; LCEAFe "returns the same
    # score when it is used in combination with W1, W2 and W3"
    for metric in ("lbcub", "lceafe"):
        for r in "abcde":
            assert f(r, "W1", metric) == pytest.approx(f(r, "W2", metric)) == pytest.approx(f(r, "W3", metric))
    # 4.2: "B3 only gives 0.7% more points to response (e) than response (a)"
    assert f("e", "W4", "bcub") - f("a", "W4", "bcub") == pytest.approx(0.7, abs=0.1)
    # 4.2: "LCEAFm(W1) gives a higher score to response (a) than response (e)"; "LCEAFm(W3) ...
    # response (e) is assigned a higher score ... than response (a)" (also footnote 9)
    assert f("a", "W1", "lceafm") > f("e", "W1", "lceafm")
    assert f("e", "W3", "lceafm") > f("a", "W3", "lceafm")


@pytest.mark.parametrize("metric", ["lmuc", "lbcub", "lceafm", "lceafe"])
def test_chen_ng_informativeness_statements(metric: str) -> None:
    f = _chen_ng_f
    omic = {"lmuc": "muc", "lbcub": "bcub", "lceafm": "ceafm", "lceafe": "ceafe"}[metric]
    # 4.3: "LMetrics(W4) and LMetrics(W5) assign much lower scores to response (a) than the
    # OMetrics"; "the LMetrics(W5) scores are even lower than the LMetrics(W4) scores"
    assert f("a", "W5", metric) < f("a", "W4", metric) < f("a", "W4", omic)
    for w in ("W4", "W5"):
        # 4.3: "the LMetrics scores for response (d) are higher than those for response (c), which
        # in turn are higher than those for response (b)"
        assert f("d", w, metric) > f("c", w, metric) > f("b", w, metric)
    # 4.3: "the performance gaps between responses (b) and (c) and between responses (c) and (d) are
    # larger under LMetrics(W5) than under LMetrics(W4)"
    for lo, hi in (("b", "c"), ("c", "d")):
        assert f(hi, "W5", metric) - f(lo, "W5", metric) > f(hi, "W4", metric) - f(lo, "W4", metric)


def _types_tsv() -> list[dict[str, str]]:
    with open(SAMPLES / "chen-ng" / "types.tsv", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def test_chen_ng_key_chains_match_types_tsv() -> None:
    """The key file holds exactly the 20 mentions a..t of Figure 1 in the chains of Figure 2."""
    (doc,) = _read(SAMPLES / "chen-ng" / "key.conll")
    rows = _types_tsv()
    assert [row["mention"] for row in rows] == [chr(ord("a") + i) for i in range(20)]
    expected: dict[str, set[Span]] = {}
    for row in rows:
        span = (int(row["start"]), int(row["end"]))
        assert " ".join(doc.words[span[0] : span[1] + 1]) == row["text"], row
        expected.setdefault(row["key_chain"], set()).add(span)
    assert sorted(map(sorted, expected.values())) == sorted(map(sorted, doc.chains))
    assert sum(len(chain) - 1 for chain in doc.chains) == 12  # the 12 key links MUC needs


def test_chen_ng_mention_types_derived_from_pos_and_ne() -> None:
    """NAME/NOMINAL/PRONOUN follow from the POS and named-entity columns as types.tsv says."""
    from metrics.mentions.types import assign_types

    (doc,) = _read(SAMPLES / "chen-ng" / "key.conll")
    rows = _types_tsv()
    spans = [(int(row["start"]), int(row["end"])) for row in rows]
    assigned = assign_types(doc, spans)  # span -> (type, rule that decided it)
    got = {row["mention"]: assigned[span][0].name for row, span in zip(rows, spans)}
    expected = {row["mention"]: row["type"] for row in rows}
    assert got == expected
    # and the types the engine weights the LMetrics with are those same types
    (pair,) = _prepared(SAMPLES / "chen-ng" / "key.conll", SAMPLES / "chen-ng" / "response-e.conll").pairs
    assert {row["mention"]: pair.types[span].name for row, span in zip(rows, spans)} == expected


# --- Luo (2005), Tables 1 and 2 -------------------------------------------------------------------

def _luo(response: str, metric: str) -> metrics.Score:
    return _score(SAMPLES / "luo" / "key.conll", SAMPLES / "luo" / f"response-{response}.conll", metric)


@pytest.mark.parametrize(
    "response,metric",
    [(r, m) for r, row in sorted(LUO_TABLE1_F.items()) for m, f in row.items() if f is not None],
)
def test_luo_table1(response: str, metric: str) -> None:
    printed = LUO_TABLE1_F[response][metric]
    assert printed is not None
    _assert_printed(_luo(response, metric).f1, printed, 1, f"Luo Table 1, response ({response}), {metric} F")


def test_luo_table1_muc_undefined_without_system_links() -> None:
    """Luo prints "–" for MUC on response (d): twelve singletons have no link, so MUC precision is
    0/0.  Recall is 0 of the 9 key links; v8.01 reports 0 for 0/0, hence F = 0."""
    muc = _luo("d", "muc")
    assert (muc.recall_num, muc.recall_den) == (0, 9)
    assert (muc.precision_num, muc.precision_den) == (0, 0)
    assert muc.f1 == 0


@pytest.mark.parametrize(
    "response,metric", [(r, m) for r, row in sorted(LUO_TABLE2_RP.items()) for m in row]
)
def test_luo_table2(response: str, metric: str) -> None:
    score = _luo(response, metric)
    r, p = LUO_TABLE2_RP[response][metric]
    _assert_printed(score.recall, r, 1, f"Luo Table 2, response ({response}), {metric} R")
    _assert_printed(score.precision, p, 1, f"Luo Table 2, response ({response}), {metric} P")


def test_luo_response_c_muc_links() -> None:
    muc = _luo("c", "muc")
    recall, precision = (fraction(x) for x in LUO_RESPONSE_C_MUC_LINKS)
    assert (muc.recall_num, muc.recall_den) == recall
    assert (muc.precision_num, muc.precision_den) == precision


# --- Vilain et al. (1995) -------------------------------------------------------------------------

VILAIN = {**VILAIN_TABLE1, **VILAIN_EXAMPLES}


def _classes(links: str) -> list[list[str]]:
    """Equivalence classes generated by links written as in the paper ('A-B B-C')."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            x = parent[x]
        return x

    for link in links.split():
        a, b = link.split("-")
        parent[find(a)] = find(b)
    groups: dict[str, list[str]] = {}
    for x in parent:
        groups.setdefault(find(x), []).append(x)
    return sorted(sorted(g) for g in groups.values())


def _word_chains(doc: Document) -> list[list[str]]:
    return sorted(sorted(doc.words[s] for s, e in chain) for chain in doc.chains)


@pytest.mark.parametrize("example", sorted(VILAIN))
def test_vilain_samples_encode_the_printed_links(example: str) -> None:
    key_links, response_links, _, _ = VILAIN[example]
    (key,) = _read(SAMPLES / "vilain" / f"{example}.key.conll")
    (response,) = _read(SAMPLES / "vilain" / f"{example}.response.conll")
    assert _word_chains(key) == _classes(key_links)
    assert _word_chains(response) == _classes(response_links)


@pytest.mark.parametrize("example", sorted(VILAIN))
def test_vilain_muc(example: str) -> None:
    _, _, recall, precision = VILAIN[example]
    muc = _score(SAMPLES / "vilain" / f"{example}.key.conll", SAMPLES / "vilain" / f"{example}.response.conll", "muc")
    assert (muc.recall_num, muc.recall_den) == fraction(recall), f"Vilain {example} recall"
    assert (muc.precision_num, muc.precision_den) == fraction(precision), f"Vilain {example} precision"


# --- Every sample parses --------------------------------------------------------------------------

SAMPLE_FILES = sorted(p.relative_to(SAMPLES).as_posix() for p in SAMPLES.rglob("*.conll"))


def test_sample_files_found() -> None:
    assert len(SAMPLE_FILES) == 6 + 5 + 14 + 4


@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_sample_parses(name: str) -> None:
    docs = _read(SAMPLES / name)
    assert docs
    for doc in docs:
        assert doc.words and doc.chains
        assert all(0 <= s <= e < doc.n_tokens for chain in doc.chains for s, e in chain)


def _pairs() -> list[tuple[str, str]]:
    pairs = [("chen-ng/key.conll", f"chen-ng/response-{r}.conll") for r in "abcde"]
    pairs += [("luo/key.conll", f"luo/response-{r}.conll") for r in "abcd"]
    pairs += [(f"vilain/{x}.key.conll", f"vilain/{x}.response.conll") for x in sorted(VILAIN)]
    pairs += [("gum/key.gum.conll", "gum/response.gum.conll"), ("gum/key.ontogum.conll", "gum/response.ontonotes.conll")]
    return pairs


@pytest.mark.parametrize("key,response", _pairs())
def test_sample_pairs_align(key: str, response: str) -> None:
    """Key and response of a pair name the same documents with the same words."""
    keys, responses = _read(SAMPLES / key), _read(SAMPLES / response)
    assert [(d.name, d.words) for d in keys] == [(d.name, d.words) for d in responses]


# GUM excerpt: counts from /work/shared/data/gum-open/docs.tsv (columns sents, tokens,
# ontogum_mentions, ontogum_chains, gum_mentions, gum_entities).
GUM_DOCS = {
    "(GUM_bio_moreau); part 000": dict(sents=44, tokens=1016, ontogum=(116, 31), gum=(346, 216)),
    "(GUM_news_korea); part 000": dict(sents=16, tokens=428, ontogum=(49, 12), gum=(107, 58)),
}


@pytest.mark.parametrize("scheme", ["gum", "ontogum"])
def test_gum_key_counts_match_the_corpus(scheme: str) -> None:
    docs = {d.name: d for d in _read(SAMPLES / "gum" / f"key.{scheme}.conll")}
    assert sorted(docs) == sorted(GUM_DOCS)
    for name, expected in GUM_DOCS.items():
        doc = docs[name]
        assert doc.n_tokens == expected["tokens"]
        assert len(doc.sentence_starts) == expected["sents"]
        assert (len(doc.mentions()), len(doc.chains)) == expected[scheme]


def _chains_by_span(doc: Document) -> dict[Span, list[int]]:
    where: dict[Span, list[int]] = {}
    for i, chain in enumerate(doc.chains):
        for span in chain:
            where.setdefault(span, []).append(i)
    return where


def _gum(file: str) -> dict[str, Document]:
    return {d.name: d for d in _read(SAMPLES / "gum" / file)}


def test_gum_sample_holds_the_oddities() -> None:
    """The oddities samples/README.md promises, as the reader sees them."""
    moreau, korea = "(GUM_bio_moreau); part 000", "(GUM_news_korea); part 000"
    key, response = _gum("key.gum.conll"), _gum("response.gum.conll")
    onto_key, onto_response = _gum("key.ontogum.conll"), _gum("response.ontonotes.conll")

    def repeated(doc: Document) -> dict[Span, list[int]]:
        return {s: c for s, c in _chains_by_span(doc).items() if len(c) > 1}

    key_spans = set(key[moreau].mentions())
    assert {s for s in repeated(response[moreau]) if s in key_spans} == {(997, 1010)}
    assert list(repeated(response[korea])) == [(245, 245)]
    assert (245, 245) not in set(key[korea].mentions())
    assert list(repeated(onto_key[moreau])) == [(264, 275)]
    assert (245, 245) in repeated(onto_response[korea])

    def nested_in_one_chain(doc: Document) -> bool:
        return any(
            a != b and b[0] <= a[0] and a[1] <= b[1] for chain in doc.chains for a in chain for b in chain
        )

    assert nested_in_one_chain(key[moreau]) and nested_in_one_chain(response[korea])

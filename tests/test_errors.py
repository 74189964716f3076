"""Error records: the worked examples of docs/errors.md on Chen & Ng's running example, all five
responses, and small hand-made documents for the categories the running example lacks.

Mentions of the running example are named by the paper's letters (samples/chen-ng/types.tsv).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

import metrics
from records_road import classify_document, classify_pair, count_by_document, filter_records
from metrics.errors.chen_ng.records import Category, count_errors, counts_to_json
from metrics.model import Document, MentionType
from metrics.measures.weights import PRESETS, W4, Weights

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "chen-ng"
N, M, P = MentionType.NAME, MentionType.NOMINAL, MentionType.PRONOUN

LETTERS = {(int(r["start"]), int(r["end"])): r["mention"]
           for r in csv.DictReader(open(SAMPLES / "types.tsv"), delimiter="\t")}

# Expected records per response under W4: category -> letters (document order), plus suboptimal
# link costs.  (b) and (e) are the worked examples of docs/errors.md, verbatim; (a), (c), (d)
# follow from the definitions: (a) never links "you" out of S_you, (c) links it to the nominal
# "the city" (so the cost is w_nam - w_nom = 0.25), (d) to the name "Jerusalem" (no cost).
EXPECTED = {
    "a": ({Category.FALSE_NEW: "b e f g o", Category.SUBOPTIMAL_LINK: "c h i j k l m"}, {"c": 0.5, "h": 0.5}),
    "b": ({Category.FALSE_NEW: "b e f o", Category.SUBOPTIMAL_LINK: "c g h i j k l m"}, {"c": 0.5, "g": 0.5}),
    "c": ({Category.FALSE_NEW: "b e f o", Category.SUBOPTIMAL_LINK: "c g h i j k l m"}, {"c": 0.5, "g": 0.25}),
    "d": ({Category.FALSE_NEW: "b e f o", Category.SUBOPTIMAL_LINK: "c"}, {"c": 0.5}),
    "e": ({Category.WRONG_LINK: "g", Category.SUBOPTIMAL_LINK: "h i j k l m"}, {"h": 0.5, "m": 0.5}),
}


def chen_ng_records(response: str, weights: Weights = W4):
    key = metrics.read_documents(str(SAMPLES / "key.conll"))
    resp = metrics.read_documents(str(SAMPLES / f"response-{response}.conll"))
    pair = metrics.prepare(key, resp).pairs[0]
    return classify_pair(pair, weights)


@pytest.mark.parametrize("response", sorted(EXPECTED))
def test_chen_ng_responses(response: str) -> None:
    records = chen_ng_records(response)
    expected, costs = EXPECTED[response]
    got: dict[Category, list[str]] = {}
    for r in records:
        got.setdefault(r.category, []).append(LETTERS[r.span])
    want = {c: sorted(v.split(), key=lambda x: [s for s, l in LETTERS.items() if l == x][0])
            for c, v in expected.items()}
    assert got == want
    by_letter = {LETTERS[r.span]: r for r in records}
    for letter, cost in costs.items():
        assert by_letter[letter].cost == pytest.approx(cost)
    for r in records:
        if r.category is not Category.SUBOPTIMAL_LINK:
            assert r.cost is None


def test_records_are_in_document_order_one_per_mention() -> None:
    records = chen_ng_records("b")
    spans = [r.span for r in records]
    assert spans == sorted(spans) and len(set(spans)) == len(spans)


def test_worked_example_b_fields() -> None:
    """Response (b) links S_you to "it": g's best coreferent predecessor is "it" (f), its best key
    antecedent "Jerusalem" (d); the fix links it to d's chain."""
    by = {LETTERS[r.span]: r for r in chen_ng_records("b")}
    g = by["g"]
    assert (g.mention.text, g.mention.type, g.mention.span) == ("you", P, (21, 21))
    assert LETTERS[g.antecedent.span] == "f" and g.antecedent.text == "it"
    assert LETTERS[g.best_antecedent.span] == "d" and g.best_antecedent.type is N
    assert g.key_chain == "2" and g.response_chain == "4"
    assert "Jerusalem" in g.fix
    # h's best coreferent predecessor is the closest of equal weight (g), not the first (f).
    assert LETTERS[by["h"].antecedent.span] == "g"
    # A false new mention has no response antecedent but a best key antecedent.
    b = by["b"]
    assert b.antecedent is None and LETTERS[b.best_antecedent.span] == "a"
    assert b.to_json()["mention"] == {"start": 10, "end": 10, "text": "he", "type": "PRONOUN"}


def test_worked_example_e_wrong_link() -> None:
    """Response (e) links S_you to Jesus' chain: g's closest response predecessor is "I" (c)."""
    by = {LETTERS[r.span]: r for r in chen_ng_records("e")}
    g = by["g"]
    assert g.category is Category.WRONG_LINK
    assert LETTERS[g.antecedent.span] == "c"
    assert LETTERS[g.best_antecedent.span] == "d"
    assert g.cost is None


def test_uniform_weights_have_no_suboptimal_links() -> None:
    """With equal link weights (W3) every coreferent link is optimal: only false new errors remain."""
    for response in "abcd":
        records = chen_ng_records(response, PRESETS["W3"])
        assert {r.category for r in records} == {Category.FALSE_NEW}
    assert [r.category for r in chen_ng_records("e", PRESETS["W3"])] == [Category.WRONG_LINK]


def test_counts_by_category_and_type() -> None:
    records = chen_ng_records("b")
    counts = count_errors(records)
    assert {t: n for t, n in counts[Category.FALSE_NEW].items() if n or t != MentionType.ZERO} == {N: 0, M: 1, P: 3}
    assert counts[Category.SUBOPTIMAL_LINK] == {N: 0, M: 0, P: 8, MentionType.ZERO: 0}
    assert counts[Category.WRONG_LINK] == {N: 0, M: 0, P: 0, MentionType.ZERO: 0}
    as_json = counts_to_json(counts)
    assert as_json["false_new"] == {"NAME": 0, "NOMINAL": 1, "PRONOUN": 3, "total": 4}
    per_doc = count_by_document(records)
    assert list(per_doc) == ["(chen_ng_2013_figure1); part 000"]
    assert filter_records(records, [Category.FALSE_NEW], [M]) == [r for r in records if LETTERS[r.span] == "e"]


# ------------------------------------------------------------------------------ hand-made documents

WORDS = "Ann met Bob . She said he left it there".split()
TYPES = {(0, 0): N, (2, 2): N, (4, 4): P, (6, 6): P, (8, 8): P, (9, 9): M, (5, 5): M}


def doc(chains, name="d") -> Document:
    return Document(name=name, words=WORDS, chains=[list(c) for c in chains],
                    labels=[str(i + 1) for i in range(len(chains))])


def categories(key_chains, response_chains, weights: Weights = W4) -> dict:
    records = classify_document("d", doc(key_chains), doc(response_chains), TYPES, weights)
    return {r.span: r.category for r in records}


def test_false_anaphoric_key_mention_and_twinless() -> None:
    # Key: Ann-She, Bob-he.  Response links Bob to Ann ("Bob" starts its key chain: false anaphoric).
    got = categories([[(0, 0), (4, 4)], [(2, 2), (6, 6)]], [[(0, 0), (2, 2), (4, 4)], [(6, 6)]])
    assert got == {(2, 2): Category.FALSE_ANAPHORIC, (6, 6): Category.FALSE_NEW}
    # "it" is no key mention; linked to "he" it is false anaphoric, alone it would be spurious.
    got = categories([[(2, 2), (6, 6)]], [[(2, 2), (6, 6), (8, 8)]])
    assert got == {(8, 8): Category.FALSE_ANAPHORIC}
    got = categories([[(2, 2), (6, 6)]], [[(2, 2), (6, 6)], [(8, 8)]])
    assert got == {(8, 8): Category.SPURIOUS_MENTION}


def test_missing_and_absent_anaphoric_mentions() -> None:
    # "Ann" (first of its key chain) absent: missing mention; "he" absent but anaphoric: false new
    # (like "She", present but starting a chain).
    got = categories([[(0, 0), (4, 4)], [(2, 2), (6, 6)]], [[(4, 4)], [(2, 2)]])
    assert got == {(0, 0): Category.MISSING_MENTION, (4, 4): Category.FALSE_NEW, (6, 6): Category.FALSE_NEW}
    records = classify_document("d", doc([[(0, 0), (4, 4)]]), doc([[(4, 4)]]), TYPES)
    assert [r.category for r in records] == [Category.MISSING_MENTION, Category.FALSE_NEW]
    assert records[0].response_chain is None and records[0].key_chain == "1"
    assert records[1].response_chain == "1" and records[1].best_antecedent.text == "Ann"


def test_wrong_link_needs_no_coreferent_predecessor() -> None:
    # "he" linked to "Ann" and "Bob": Bob is in its key chain, so it is no wrong link (and optimal).
    assert categories([[(0, 0)], [(2, 2), (6, 6)]], [[(0, 0), (2, 2), (6, 6)]]) == {(2, 2): Category.FALSE_ANAPHORIC}
    got = categories([[(0, 0), (4, 4)], [(2, 2), (6, 6)]], [[(0, 0), (4, 4), (6, 6)], [(2, 2)]])
    assert got == {(6, 6): Category.WRONG_LINK}


def test_suboptimal_cost_follows_the_weights() -> None:
    # Key: Bob, he, it (pronoun chain after a name); response links "it" to "he" only.
    key = [[(2, 2), (6, 6), (8, 8)]]
    resp = [[(2, 2)], [(6, 6), (8, 8)]]
    records = classify_document("d", doc(key), doc(resp), TYPES, Weights(1.0, 0.5, 0.25, 1.0))
    by = {r.span: r for r in records}
    assert by[(6, 6)].category is Category.FALSE_NEW
    assert by[(8, 8)].category is Category.SUBOPTIMAL_LINK and by[(8, 8)].cost == pytest.approx(0.75)
    # Weights where pronoun links are worth most (legal): linking to "he" is then the best choice.
    records = classify_document("d", doc(key), doc(resp), TYPES, Weights(0.2, 0.5, 1.0, 1.0))
    assert [r.span for r in records] == [(6, 6)]


def test_repeated_spans_count_once() -> None:
    """A span listed twice in the response (v8.01 keeps the first copy) yields one record at most."""
    got = categories([[(0, 0), (4, 4)]], [[(0, 0), (4, 4)], [(4, 4)]])
    assert got == {}
    got = categories([[(0, 0), (4, 4)]], [[(4, 4)], [(0, 0), (4, 4)]])
    assert got == {(4, 4): Category.FALSE_NEW}


def test_best_antecedent_prefers_informative_mentions_on_equal_weight() -> None:
    """Every link of a name weighs w_nam; the name's best antecedent is then the earlier name,
    not the closer pronoun.  Among mentions of one type the closest wins."""
    words = "Ann came . She left . Ann".split()
    types = {(0, 0): N, (3, 3): P, (6, 6): N}
    key = Document(name="d", words=words, chains=[[(0, 0), (3, 3), (6, 6)]], labels=["1"])
    response = Document(name="d", words=words, chains=[[(0, 0), (3, 3)], [(6, 6)]], labels=["1", "2"])
    [record] = classify_document("d", key, response, types)
    assert record.category is Category.FALSE_NEW and record.best_antecedent.span == (0, 0)
    # The pronoun "She" links to "Ann" (w_nam) whichever weights: its best antecedent is Ann.
    response = Document(name="d", words=words, chains=[[(0, 0)], [(3, 3), (6, 6)]], labels=["1", "2"])
    by = {r.span: r for r in classify_document("d", key, response, types)}
    assert by[(3, 3)].best_antecedent.span == (0, 0)
    # The second "Ann", linked to "She", has no error: any link of a name weighs w_nam.
    assert (6, 6) not in by

"""Kummerfeld & Klein's taxonomy as BCA applies it: one small case per error type and per rule,
each answer derived by hand from the rules (docs/errors-kk.md), then the command's contract.

The sentence of every case (one sentence, a parse with Collins heads easy to follow):

    0 John/NNP 1 met/VBD 2 Mary/NNP 3 ./. 4 He/PRP 5 thanked/VBD 6 her/PRP 7 and/CC
    8 the/DT 9 old/JJ 10 dog/NN 11 barked/VBD 12 ./.

"the old dog" (8-10) is an NP headed by "dog"; John and Mary are names, He and her pronouns.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from metrics.corpus.scoring import prepare_pair, score_pair
from metrics.errors.kummerfeld_klein.report import analyse_corpus
from metrics.errors.kummerfeld_klein.syntax import sentence_heads
from metrics.errors.kummerfeld_klein.view import pair_view
from metrics.model import Document
from workbench.cli import main

WORDS = "John met Mary . He thanked her and the old dog barked .".split()
POS = "NNP VBD NNP . PRP VBD PRP CC DT JJ NN VBD .".split()
PARSE = ["(TOP(S(NP*)", "(VP*", "(NP*))", "*", "(S(NP*)", "(VP*", "(NP*)", "*", "(S(NP*", "*", "*)", "(VP*))))",
         "*))"]
JOHN, MARY, HE, HER, DOG, OLD_DOG = (0, 0), (2, 2), (4, 4), (6, 6), (8, 10), (9, 10)


def doc(chains, parse: bool = True, name: str = "d") -> Document:
    return Document(name=name, words=WORDS, chains=[list(c) for c in chains], sentence_starts=[0], pos=POS,
                    parse=PARSE if parse else None)


def kinds(key_chains, response_chains, singletons: bool = True, parse: bool = True) -> Counter:
    report = analyse_corpus([("d", doc(key_chains, parse), doc(response_chains, parse))], singletons)
    return Counter(e.kind for e in report.errors)


# ------------------------------------------------------------------------------ heads as BCA finds them


def test_collins_heads_of_the_sentence() -> None:
    heads = sentence_heads(WORDS, POS, PARSE)
    assert heads[(8, 11)][1] == "dog"  # NP: the rightmost noun
    assert heads[(1, 3)][1] == "met"  # VP: searched from the right for TO, then VBD
    assert heads[(0, 13)][1] == "met"  # S: its VP's head
    assert heads[(10, 11)] == (10, "dog", "NN")  # a word is its own head


def test_np_heads_possessive_and_pp() -> None:
    words, pos = "John 's dog of Paris".split(), "NNP POS NN IN NNP".split()
    bits = ["(NP(NP(NP*", "*)", "*)", "(PP*", "(NP*)))"]
    heads = sentence_heads(words, pos, bits)
    assert heads[(0, 2)][1] == "'s"  # an NP whose last child is tagged POS
    assert heads[(0, 3)][1] == "dog"
    assert heads[(3, 5)][1] == "of"  # PP: from the left
    assert heads[(0, 5)][1] == "dog"  # NP: no noun child, so the first NP child


def test_malformed_parse_falls_back() -> None:
    assert sentence_heads(["a", "b"], ["DT", "NN"], ["(NP*", "*"]) is None
    report = analyse_corpus([("d", doc([[JOHN, HE]], parse=False), doc([[JOHN], [HE]], parse=False))])
    assert not report.parsed and Counter(e.kind for e in report.errors) == Counter({"divided_entity": 1})


# ------------------------------------------------------------------------------ one case per type


def test_span_error_by_trimming_and_by_head() -> None:
    # "old dog" is "the old dog" once "the" is trimmed: one span error, and then nothing is wrong
    assert kinds([[JOHN, HE], [DOG, HER]], [[JOHN, HE], [OLD_DOG, HER]]) == Counter({"span_error": 1})
    # "dog" alone and "the old dog" share the head "dog" (trimming "the" leaves "old dog")
    assert kinds([[JOHN, HE], [(10, 10), HER]], [[JOHN, HE], [DOG, HER]]) == Counter({"span_error": 1})
    # two response mentions with one head: no span error, an extra and a missing mention instead
    found = kinds([[JOHN, HE], [(10, 10), HER]], [[JOHN, HE], [DOG, OLD_DOG, HER]])
    assert found["span_error"] == 0


def test_conflated_and_divided() -> None:
    # her joins John's cluster: split off (conflated) and merged into Mary's (divided); Mary's own
    # merge holds the earliest non-pronoun mention, so it is no error
    found = kinds([[JOHN, HE], [MARY, HER]], [[JOHN, HE, HER], [MARY]])
    assert found == Counter({"conflated_entities": 1, "divided_entity": 1})


def test_extra_mention() -> None:
    assert kinds([[JOHN, HE]], [[JOHN, HE, DOG]]) == Counter({"extra_mention": 1})


def test_extra_entity_and_the_pronoun_rule() -> None:
    assert kinds([[JOHN, HE]], [[JOHN, HE], [MARY, DOG]]) == Counter({"extra_entity": 1})
    # the key mentions of {He, Mary, the old dog} are pronouns only: Mary and the dog are an extra
    # entity, He is split off and merged into John's cluster
    found = kinds([[JOHN, HE]], [[JOHN], [HE, MARY, DOG]])
    assert found == Counter({"extra_entity": 1, "conflated_entities": 1, "divided_entity": 1})
    # with a name among the key mentions the extra ones are extra mentions instead
    assert kinds([[JOHN, HE]], [[JOHN, HE, MARY, DOG]]) == Counter({"extra_mention": 2})


def test_missing_mention_and_missing_entity() -> None:
    assert kinds([[JOHN, HE]], [[JOHN]]) == Counter({"missing_mention": 1})
    assert kinds([[MARY, HER]], []) == Counter({"missing_entity": 1})
    # present mentions that are all pronouns still leave a missing entity; "her", present, is
    # merged into it (not its earliest non-pronoun mention): a divided entity besides
    assert kinds([[MARY, HER, DOG]], [[HER]]) == Counter({"missing_entity": 1, "divided_entity": 1})
    # a name present: two missing mentions instead
    assert kinds([[MARY, HER, DOG]], [[MARY]]) == Counter({"missing_mention": 2})


def test_divided_entity_and_the_earliest_mention() -> None:
    assert kinds([[MARY, HER, DOG]], [[MARY, HER], [DOG]]) == Counter({"divided_entity": 1})
    # a cluster of pronouns only: the part with its first mention stays
    assert kinds([[HE, HER]], [[HE], [HER]]) == Counter({"divided_entity": 1})


def test_option_t_removes_response_singletons_only() -> None:
    # BCA's T: the response's singleton {John} goes, so both mentions are missing: a missing entity
    assert kinds([[JOHN, HE]], [[JOHN]], singletons=False) == Counter({"missing_entity": 1})
    # the key's singletons stay (a missing key singleton is introduced, and no error type takes it)
    report = analyse_corpus([("d", doc([[JOHN, HE], [DOG]]), doc([[JOHN, HE], [MARY]]))], singletons=False)
    assert report.errors == [] and report.reading == {"response_singletons": 1}
    assert report.operations["introduce"] == 1


# ------------------------------------------------------------------------------ reading and scores


def test_reading_keeps_the_first_completed_copy(tmp_path) -> None:
    from metrics.formats.readers import read_documents

    rows = [("John", "(1)"), ("met", "-"), ("Mary", "(2)|(1)"), (".", "-")]
    text = "#begin document (d); part 000\n" + "".join(
        f"d\t0\t{i}\t{w}\tNN\t*\t-\t-\t-\t-\t*\t{c}\n" for i, (w, c) in enumerate(rows)) + "\n#end document\n"
    path = tmp_path / "dup.conll"
    path.write_text(text)
    [document] = read_documents(str(path))
    assert document.repeated == {(2, 2): (1, 0)}  # chain 1 ("2") completes Mary first in that cell
    view = pair_view("d", document, document, True)
    assert view.gold.mentions[(0, 2, 3)] == 1 and view.dropped == {"duplicate": 2}


def test_mention_over_a_sentence_boundary_is_dropped() -> None:
    key = Document(name="d", words=WORDS, chains=[[(2, 4), JOHN]], sentence_starts=[0, 4])
    view = pair_view("d", key, key, True)
    assert view.dropped == {"crossing": 2} and list(view.gold.mentions) == [(0, 0, 1)]


def test_progression_ends_at_the_key_and_equals_corrected_files() -> None:
    key, response = [[JOHN, HE], [MARY, HER]], [[JOHN, HE, HER], [MARY]]
    report = analyse_corpus([("d", doc(key), doc(response))])
    stages = dict(report.progression)
    assert stages["missing_entity"]["conll"] == pytest.approx(1.0)

    def conll(chains) -> float:
        return score_pair(prepare_pair(doc(key), doc(chains)), metrics=("conll",))["conll"].f1

    assert report.baseline["conll"] == pytest.approx(conll(response), abs=1e-12)
    # conflated corrected: her leaves John's cluster alone; divided corrected: her joins Mary
    assert stages["conflated_entities"]["conll"] == pytest.approx(conll([[JOHN, HE], [HER], [MARY]]), abs=1e-12)
    assert stages["divided_entity"]["conll"] == pytest.approx(conll(key), abs=1e-12)


def test_crossing_mentions_of_one_cluster_come_back_as_the_scorer_reads_them() -> None:
    # BCA writes (0 at 8 and 0) at 10 for "the old dog", (0 at 9 and 0) at 11 for "old dog barked";
    # v8.01 pairs the closing at 10 with the latest opening (9): "old dog" and "the old dog barked"
    key, response = [[(8, 10)], [(9, 11)]], [[(8, 10), (9, 11)]]
    report = analyse_corpus([("d", doc(key), doc(response))])

    def conll(k, r) -> float:
        return score_pair(prepare_pair(doc(k), doc(r)), metrics=("conll",))["conll"].f1

    assert report.baseline["conll"] == pytest.approx(conll(key, [[(9, 10), (8, 11)]]), abs=1e-12)
    assert report.baseline["conll"] != pytest.approx(conll(key, response))


# ------------------------------------------------------------------------------ the command


def _files(tmp_path, key_chains, response_chains):
    def write(name, chains):
        cells = ["-"] * len(WORDS)
        for label, chain in enumerate(chains):
            for start, end in chain:
                if start == end:
                    cells[start] = (cells[start] + "|" if cells[start] != "-" else "") + f"({label})"
                else:
                    cells[start] = (cells[start] + "|" if cells[start] != "-" else "") + f"({label}"
                    cells[end] = (cells[end] + "|" if cells[end] != "-" else "") + f"{label})"
        lines = [f"d\t0\t{i}\t{w}\t{p}\t{b}\t-\t-\t-\t-\t*\t{c}" for i, (w, p, b, c) in
                 enumerate(zip(WORDS, POS, PARSE, cells))]
        path = tmp_path / name
        path.write_text("#begin document (d); part 000\n" + "\n".join(lines) + "\n\n#end document\n")
        return str(path)

    return write("key.conll", key_chains), write("response.conll", response_chains)


def test_errors_kk_json_contract(tmp_path, capsys) -> None:
    key, response = _files(tmp_path, [[JOHN, HE], [MARY, HER]], [[JOHN, HE, HER], [MARY]])
    assert main(["errors", key, response, "--taxonomy", "kk", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["taxonomy"] == "kk"
    assert data["counts"]["corpus"]["conflated_entities"] == {"NAME": 0, "NOMINAL": 0, "PRONOUN": 1, "total": 1}
    assert [s["category"] for s in data["progression"]] == ["span_error", "conflated_entities", "extra_mention",
                                                            "extra_entity", "divided_entity", "missing_mention",
                                                            "missing_entity"]
    assert data["progression"][-1]["conll_f1"] == pytest.approx(1.0)  # fractions, as `score`
    assert data["baseline_conll_f1"] == pytest.approx(data["v801_conll_f1"])
    assert main(["score", key, response, "--metrics", "conll", "--format", "json"]) == 0
    scored = json.loads(capsys.readouterr().out)["metrics"]["conll"]["f1"]  # one unit in every JSON: fractions
    assert data["v801_conll_f1"] == scored and data["baseline_conll_f1"] == pytest.approx(scored, abs=1e-12)
    assert {e["category"] for e in data["errors"]} == {"conflated_entities", "divided_entity"}
    assert data["errors"][0]["mentions"][0]["text"] == "her"


def test_errors_kk_text_csv_markdown_and_filters(tmp_path, capsys) -> None:
    key, response = _files(tmp_path, [[JOHN, HE], [MARY, HER]], [[JOHN, HE, HER], [MARY], [DOG, (9, 9)]])
    assert main(["errors", key, response, "--taxonomy", "kk"]) == 0
    out = capsys.readouterr().out
    assert "conflated entities" in out and "CoNLL F1 after" in out and "extra entity" in out
    assert main(["errors", key, response, "--taxonomy", "kk", "--format", "csv"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("error type,NAME,NOMINAL,PRONOUN,total,CoNLL F1 after (points),gain") and len(rows) == 9
    assert main(["errors", key, response, "--taxonomy", "kk", "--format", "markdown"]) == 0
    assert "| conflated entities |" in capsys.readouterr().out
    assert main(["errors", key, response, "--taxonomy", "kk", "--category", "extra-entity", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {e["category"] for e in data["errors"]} == {"extra_entity"}
    assert data["counts"]["corpus"]["conflated_entities"]["total"] == 0


def test_errors_kk_bad_options_are_one_line(tmp_path, capsys) -> None:
    key, response = _files(tmp_path, [[JOHN, HE]], [[JOHN, HE]])
    assert main(["errors", key, response, "--taxonomy", "kk", "--category", "wrong_link"]) == 2
    err = capsys.readouterr().err
    assert "unknown K&K type 'wrong_link'" in err and len(err.strip().splitlines()) == 1
    assert main(["errors", key, response, "--taxonomy", "kk", "--distinct"]) == 2


def test_compare_kk_counts_side_by_side(tmp_path, capsys) -> None:
    key, response = _files(tmp_path, [[JOHN, HE], [MARY, HER]], [[JOHN, HE, HER], [MARY]])
    assert main(["compare", key, response, key, "--taxonomy", "kk", "--bootstrap", "0", "--name", "sys,gold",
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [s["name"] for s in data["kk"]] == ["sys", "gold"]
    assert data["kk"][0]["counts"]["divided_entity"]["total"] == 1
    assert data["kk"][1]["counts"]["divided_entity"]["total"] == 0 and data["kk"][1]["baseline_conll_f1"] == 1.0
    assert main(["compare", key, response, key, "--taxonomy", "kk", "--bootstrap", "0", "--name", "sys,gold"]) == 0
    out = capsys.readouterr().out
    assert "Kummerfeld & Klein errors per system" in out and "sys errors" in out and "gold F1 after" in out


def test_errors_kk_one_document_and_another_metric(tmp_path, capsys) -> None:
    key, response = _files(tmp_path, [[JOHN, HE], [MARY, HER]], [[JOHN, HE, HER], [MARY]])
    assert main(["errors", key, response, "--taxonomy", "kk", "--document", "d", "--impact", "lea",
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["v801_conll_f1"] == pytest.approx(data["baseline_conll_f1"])  # no repeated span here
    assert data["impact_metric"] == "lea" and data["progression"][-1]["lea"] == pytest.approx(1.0)
    assert main(["errors", key, response, "--taxonomy", "kk", "--impact", "lea"]) == 0
    assert "LEA after" in capsys.readouterr().out


# ------------------------------------------------------------------------------ properties (hypothesis)

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from strategies import pairs  # noqa: E402

from metrics.errors.kummerfeld_klein.stages import analyse  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(pair=pairs(duplicates=True, key_duplicates=True), singletons=st.booleans())
def test_every_error_is_about_what_its_type_says(pair, singletons) -> None:
    """On random pairs (repeated spans included): each error's mentions sit where its type says,
    and the operations BCA counts are at least the errors they make."""
    view = pair_view("d", pair.key, pair.response, singletons)
    gold = {m: c for m, c in view.gold.mentions.items()}
    before = dict(view.auto.mentions)
    outcome = analyse(view)
    after = view.auto.mentions
    key_clusters = {c: set(ms) for c, ms in view.gold.clusters.items()}
    for error in outcome.errors:
        part = set(error.part)
        if error.kind == "span_error":
            (m,) = error.part
            assert m in before and m not in gold and error.target in gold and error.target in after
        elif error.kind in ("extra_mention", "extra_entity"):
            assert part and not part & set(gold) and part <= set(after)
            assert error.kind == "extra_mention" or len(part) >= 2
        elif error.kind in ("missing_mention", "missing_entity"):
            assert part <= set(gold)
            missing = {m for m in part if m not in after}
            assert (missing == part and len(part) == 1) if error.kind == "missing_mention" else len(missing) >= 2
        else:  # conflated (a part of a response cluster), divided (a part of a key cluster)
            assert part <= set(gold) and len({gold[m] for m in part}) == 1
            assert part <= set(error.cluster)
            if error.kind == "divided_entity":
                assert set(error.cluster) == key_clusters[gold[next(iter(part))]]
    kinds = [e.kind for e in outcome.errors]
    assert outcome.operations.get("split", 0) >= kinds.count("conflated_entities") + kinds.count("extra_mention")
    assert outcome.operations.get("merge", 0) >= kinds.count("divided_entity") + kinds.count("missing_mention")
    assert outcome.operations["span"] == kinds.count("span_error")


@settings(max_examples=150, deadline=None)
@given(pair=pairs(duplicates=True, key_duplicates=False), singletons=st.booleans())
def test_a_response_equal_to_the_key_has_no_errors(pair, singletons) -> None:
    report = analyse_corpus([("d", pair.key, pair.key)], singletons)
    assert report.errors == []  # with T the response loses the key's singletons: introduced, no error
    if singletons:
        values = [report.baseline["conll"]] + [v["conll"] for _, v in report.progression]
        assert len(set(values)) == 1


def test_the_errors_alone_are_the_reports_errors():
    """`analyse_errors` (the workbench's list: no rescoring along the stages) finds exactly the
    errors `analyse_corpus` reports, with and without the response's singletons."""
    from metrics.errors.kummerfeld_klein.report import analyse_corpus, analyse_errors
    from workbench.session import LoadOptions, Session

    session = Session.load("samples/gum/key.gum.conll", ["samples/gum/response.gum.conll"], LoadOptions())
    pairs = session._kk_pairs(None, 0)
    for singletons in (True, False):
        assert [e.to_json() for e in analyse_errors(pairs, singletons)] == \
            [e.to_json() for e in analyse_corpus(pairs, singletons).errors]
    assert [e.to_json() for e in session.kk_errors()] == [e.to_json() for e in session.kk_report().errors]


def test_crossing_pairs_do_not_depend_on_the_order_mentions_come_in() -> None:
    """`_crossing` takes the mentions in reading order (a quick sort on a book); any order must
    give the same pairs, in the same order, as the literal reading: every ordered pair of
    mentions, the later-starting one running past the end of the other."""
    import random
    from types import SimpleNamespace

    from metrics.errors.kummerfeld_klein.report import _crossing

    rng = random.Random(7)
    starts = [0, 12, 20, 31]
    lengths = [12, 8, 11, 9]
    mentions = set()
    while len(mentions) < 40:
        sentence = rng.randrange(4)
        start = rng.randrange(lengths[sentence])
        mentions.add((sentence, start, rng.randint(start + 1, lengths[sentence])))
    view = SimpleNamespace(syntax=SimpleNamespace(starts=starts))

    def bounds(m):
        return starts[m[0]] + m[1], starts[m[0]] + m[2] - 1

    literal = [(m, o) for m in sorted(mentions, key=lambda m: (bounds(m), m))
               for o in sorted(mentions, key=lambda m: (bounds(m), m))
               if bounds(m)[0] < bounds(o)[0] <= bounds(m)[1] < bounds(o)[1]]
    assert literal  # the draw has crossing mentions
    shuffled = list(mentions)
    rng.shuffle(shuffled)
    assert _crossing(view, dict.fromkeys(sorted(mentions))) == _crossing(view, dict.fromkeys(shuffled)) == literal

"""Hostile input, round six: the newest readers (the CRAC LLM track's JSON form, Universal Anaphora)
given what a careless or hostile producer writes.  Each case as a user meets it: the exit status,
the one line naming the file and line, and never a number the official tool would not give."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.cli import main

DATA = Path(__file__).parent / "data"
GUM2 = str(DATA / "crac" / "gum2.eid.conllu")
UA_KEY = str(DATA / "ua" / "bridging.key")
UA_RESPONSE = str(DATA / "ua" / "bridging.response")


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out = capsys.readouterr()
    return status, out.out, out.err


def error_line(status: int, err: str, wanted: int = 1) -> str:
    lines = [line for line in err.splitlines() if not line.startswith("corefwb: warning")]
    assert status == wanted and len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.fixture(scope="module")
def gold_json(tmp_path_factory) -> list[dict]:
    path = tmp_path_factory.mktemp("crac") / "gold.json"
    assert main(["convert", GUM2, str(path), "--to", "crac-json"]) == 0
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("value", ["missing", None, {}, ""])
def test_a_json_document_without_its_clusters_is_refused_not_scored_as_no_mention(capsys, tmp_path, gold_json, value):
    """text2text-coref's json2conllu stops on a document without `clusters_token_offsets` (a
    KeyError, or a TypeError on null); before, corefwb scored it silently as a document without any
    mention (a blind file given as the output scored 0).  An empty list stays a model that found
    nothing, as the pipeline scores it."""
    documents = [dict(d) for d in gold_json]
    if value == "missing":
        del documents[1]["clusters_token_offsets"]
    else:
        documents[1]["clusters_token_offsets"] = value
    output = tmp_path / "output.json"
    output.write_text(json.dumps(documents, indent=1), encoding="utf-8")
    status, out, err = run(capsys, "score", GUM2, str(output), "--no-cache")
    line = error_line(status, err)
    assert out == "" and f"{output}:" in line and "document 2" in line and "clusters_token_offsets" in line
    second_line = json.dumps(documents, indent=1).split("\n").index(" {", 2) + 1
    assert line.startswith(f"corefwb: error: {output}:{second_line}:")


def test_a_json_document_with_an_empty_list_of_clusters_is_scored(capsys, tmp_path, gold_json):
    documents = [dict(d) for d in gold_json]
    documents[1]["clusters_token_offsets"] = []
    output = tmp_path / "output.json"
    output.write_text(json.dumps(documents), encoding="utf-8")
    status, out, _ = run(capsys, "score", GUM2, str(output), "--no-cache", "--format", "json")
    assert status == 0 and 0 < json.loads(out)["metrics"]["muc"]["recall"] < 1


@pytest.mark.parametrize("named", ["IDENTITY IDENTITY BRIDGING", "IDENTITY BRIDGING BRIDGING"])
@pytest.mark.parametrize("where", ["first line", "inside the document"])
def test_a_global_columns_line_naming_a_layer_twice_is_refused(capsys, tmp_path, named, where):
    """`IDENTITY IDENTITY BRIDGING ...` was read with BRIDGING one column to the right of the
    file's bridging links: every link lost, the bridging scores 0 without a word."""
    text = Path(UA_KEY).read_text(encoding="utf-8")
    lying = text.splitlines()[0].replace("IDENTITY BRIDGING", named)
    if where == "first line":
        text, line = text.replace(text.splitlines()[0], lying), 1
    else:
        text, line = text.replace("# sent_id = 1\n", f"# sent_id = 1\n{lying}\n"), 4
    key = tmp_path / "key.conllua"
    key.write_text(text, encoding="utf-8")
    for command in ("score", "errors"):
        status, out, err = run(capsys, command, str(key), UA_RESPONSE, "--preset", "codicrac22br", "--no-cache")
        assert out == "" and error_line(status, err).startswith(f"corefwb: error: {key}:{line}: global.columns names ")


def test_a_relation_errors_price_is_written_as_every_impact_is(capsys):
    """README: an impact is written with three significant digits, `0` for no change, never
    `-0.000`, on the screen and in `corefwb errors`.  The UA prices were written with two decimals:
    a price of +0.004 points showed `+0.00`, a small loss `-0.00`, and the unchanged recognition
    score of a wrong anchor `+0.00` (checked here on `split`, whose prices under partial credit
    are below a hundredth, and on `bridging`)."""
    from metrics.corpus.ua import Settings, score_corpus
    from metrics.errors.ua.records import find_errors
    from metrics.formats.ua import read_ua
    from workbench.output import points_text
    from workbench.tui.relationerrors import price_names, price_text

    assert [points_text(p) for p in (0.0, -0.0, 0.004123, -0.0031, 30.0, -2.5e-05)] == \
        ["0", "0", "+0.00412", "-0.00310", "+30.00", "-2.50e-05"]
    status, out, _ = run(capsys, "errors", UA_KEY, UA_RESPONSE, "--preset", "codicrac22br", "--no-cache")
    assert status == 0 and "+0.00" not in out and "-0.00" not in out
    wrong_anchor = next(line for line in out.splitlines() if line.startswith("bridging ") and "wrong_anchor" in line)
    assert "Bridging recognition 0," in wrong_anchor  # the anaphor was recognised: no change
    keys, responses = read_ua(UA_KEY), read_ua(UA_RESPONSE)
    result = score_corpus(keys, responses, "k", "r", Settings(keep_singletons=True, metrics=(
        "bridging_recognition", "bridging_markable", "bridging_entity")))
    for error in find_errors(result):
        assert price_text(error).split() == [points_text(p) for p in error.price.values()]
        assert all(f" {points_text(p)}" in price_names(error) for p in error.price.values())


def test_a_non_referring_entity_of_several_markables_is_warned_about_and_explained(capsys, tmp_path):
    """The UA scorer counts only the first markable of a non-referring entity as non-referring; a
    system that gives all its expletives one EntityID (`1-Pseudo`) scores as if it had marked one.
    The number stays the UA scorer's, but it was silent, and the error said the response had no
    markable where it has one."""
    key = DATA / "ua" / "non_referring.key"
    response = tmp_path / "shared.response"
    response.write_text(key.read_text(encoding="utf-8").replace("EntityID=2-Pseudo|MarkableID=m2",
                                                                "EntityID=1-Pseudo|MarkableID=m2"), encoding="utf-8")
    status, out, err = run(capsys, "score", str(key), str(response), "--metrics", "non_referring", "--format", "csv",
                           "--no-cache")
    assert status == 0 and out.splitlines()[1] == "\"(corpus, micro)\",non_referring,0.5,1.0,0.6666666666666666,"
    (warning,) = err.splitlines()
    assert warning.startswith(f"corefwb: warning: {response}: 1 non-referring entity") and "line 8" in warning
    status, out, err = run(capsys, "errors", str(key), str(response), "--no-cache")
    (row,) = [line for line in out.splitlines() if "marked_referring" in line and "'there'" in line]
    assert "no markable there" not in row and "1-Pseudo" in row
    assert run(capsys, "score", str(key), str(key), "--no-cache")[2] == ""  # one markable per entity: no word


def test_an_anaphor_with_two_bridging_links_is_warned_about(capsys, tmp_path):
    """The UA scorer keeps the last link of an anaphor (a dict by MarkableID), and so do we; the
    first was dropped without a word."""
    text = Path(UA_KEY).read_text(encoding="utf-8")
    key = tmp_path / "twice.key"
    key.write_text(text.replace("(MarkableID=roof|Rel=part-of|MentionAnchor=house",
                                "(MarkableID=door|Rel=part-of|MentionAnchor=it"), encoding="utf-8")
    status, out, err = run(capsys, "score", str(key), UA_RESPONSE, "--preset", "codicrac22br", "--format", "csv",
                           "--no-cache")
    assert status == 0 and "\"(corpus, micro)\",bridging_markable,1.0,0.5," in out  # door -> it, the last link, kept
    (warning,) = err.splitlines()
    assert warning.startswith(f"corefwb: warning: {key}: 1 anaphor(s) with more than one bridging link") \
        and "line 13" in warning
    assert run(capsys, "score", UA_KEY, UA_RESPONSE, "--preset", "codicrac22br", "--no-cache")[2] == ""

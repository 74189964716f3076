"""K&K's errors of one text in three formats (small13): a CoNLL-2012 file with its parse gives BCA's
(heads from the trees); its jsonlines twin and its CoNLL-U twin (`corefwb convert`, which now
keeps the POS tags as XPOS) carry the same syntax (words and tags, no tree) and so give the same
errors, by our head rule over the tags; and every report without a parse says what its heads came
from, the warning once for the key (docs/errors-kk.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from metrics.formats.readers import read_documents
from workbench.cli import main

ROOT = Path(__file__).resolve().parent.parent
KEY, RESPONSE = ROOT / "samples/gum/key.gum.conll", ROOT / "samples/gum/response.gum.conll"
FALLBACK = "no parse BCA can read in some sentences"


@pytest.fixture(scope="module")
def twins(tmp_path_factory) -> dict[str, tuple[str, str]]:
    folder = tmp_path_factory.mktemp("twins")
    made = {"conll": (str(KEY), str(RESPONSE))}
    for fmt in ("jsonl", "conllu"):
        paths = []
        for side, source in (("key", KEY), ("response", RESPONSE)):
            target = folder / f"{side}.{fmt}"
            assert main(["convert", str(source), str(target)]) == 0
            paths.append(str(target))
        made[fmt] = (paths[0], paths[1])
    return made


def kk(capsys, key: str, response: str) -> tuple[dict, str]:
    capsys.readouterr()
    assert main(["errors", key, response, "--taxonomy", "kk", "--conventions", "conll", "--format", "json",
                 "--no-cache"]) == 0
    out, err = capsys.readouterr()
    return json.loads(out), err


def spans(report: dict) -> list[tuple]:
    """Each error's document, kind and mentions' spans, and its target's span (types left out: they
    follow named entities, which only the jsonlines twin carries)."""
    return sorted((e["document"], e["category"], tuple((m["start"], m["end"]) for m in e["mentions"]),
                   None if e.get("target") is None else (e["target"]["start"], e["target"]["end"]))
                  for e in report["errors"])


def test_the_conllu_twin_keeps_the_tags(twins) -> None:
    original = read_documents(str(KEY))
    written = read_documents(twins["conllu"][0])
    assert [d.pos for d in written] == [d.pos for d in original]
    blank = {"-": "_"}  # CoNLL-2012's placeholder is CoNLL-U's `_`
    assert [d.lemmas for d in written] == [[blank.get(x, x) for x in d.lemmas] for d in original]


def test_twins_with_the_same_syntax_give_the_same_errors(twins, capsys) -> None:
    parsed, said = kk(capsys, *twins["conll"])
    assert parsed["heads"] == "parse" and "heads_without_parse" not in parsed and FALLBACK not in said
    by_tags = {}
    for fmt in ("jsonl", "conllu"):
        report, said = kk(capsys, *twins[fmt])
        assert report["heads_without_parse"] == ["our head rule over the POS tags (no tree)"]
        assert said.count(FALLBACK) == 1 and twins[fmt][0] in said and "POS tags" in said
        by_tags[fmt] = report
    assert spans(by_tags["jsonl"]) == spans(by_tags["conllu"])
    assert by_tags["jsonl"]["operations"] == by_tags["conllu"]["operations"]
    assert spans(parsed) != spans(by_tags["jsonl"])  # the parse's heads are not the rule's


def test_without_tags_the_report_says_the_words_alone(tmp_path, capsys) -> None:
    rows = ["#begin document (d); part 000"]
    for i, (word, cell) in enumerate([("John", "(0)"), ("saw", "-"), ("the", "(1"), ("man", "1)"), ("he", "(0)")]):
        rows.append(f"d 0 {i} {word} - - - - - - * {cell}")
    path = tmp_path / "plain.conll"
    path.write_text("\n".join(rows + ["", "#end document", ""]), encoding="utf-8")
    report, said = kk(capsys, str(path), str(path))
    assert report["heads_without_parse"] == ["our head rule over the words alone (no tree, no POS tags)"]
    assert said.count(FALLBACK) == 1


def test_a_conllu_file_with_trees_says_its_heads_come_from_them_without_a_warning(capsys) -> None:
    key = str(ROOT / "tests/data/formats/gum2.conllu")
    capsys.readouterr()
    assert main(["errors", key, key, "--taxonomy", "kk", "--format", "json", "--no-cache"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["heads_without_parse"] == ["the dependency trees"]
    assert FALLBACK not in err  # an annotation of syntax, not our guess: the report says it, no warning

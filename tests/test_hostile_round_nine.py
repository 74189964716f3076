"""Hostile input, third round of the readers' newest paths (review9): what a broken file made of
the CoNLL-U, CoNLL-2012 and jsonlines samples got that was not one clear line.  Each case as a user
meets it: the exit status and the one line naming the file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import corefwb_in_process

ROOT = Path(__file__).resolve().parent.parent
GUM2 = ROOT / "tests" / "data" / "formats" / "gum2.conllu"


def corefwb(*args: str):
    return corefwb_in_process(*args, env={"NO_COLOR": "1", "COREFWB_NO_CACHE": "1"})


def error_line(run) -> str:
    lines = [line for line in run.stderr.splitlines() if not line.startswith("corefwb: warning")]
    assert run.returncode == 1 and len(lines) == 1 and "Traceback" not in run.stderr, run.stderr
    return lines[0]


def test_a_word_at_another_place_says_where_not_that_the_words_differ(tmp_path):
    """A CoNLL-U response whose word keeps its form but not its place (the last word of a sentence
    numbered past a gap) was refused as "word '.' where the key has '.'"."""
    lines = GUM2.read_text(encoding="utf-8").split("\n")
    assert lines[86].startswith("34\t.\t") and lines[87] == ""
    lines[86] = "35" + lines[86][2:]
    response = tmp_path / "response.conllu"
    response.write_text("\n".join(lines), encoding="utf-8")
    assert error_line(corefwb("score", str(GUM2), str(response))) == (
        f"corefwb: error: {response}:87: word '.' is word 35 of sentence 3 where the key's is word 34 of "
        f"sentence 3 ({GUM2}:87)")


@pytest.mark.parametrize("command", [["score"], ["errors", "--impact", "conll"]])
def test_a_lost_blank_line_between_sentences_is_refused_not_read_as_one_node_twice(tmp_path, command):
    """Two sentences without the blank line between them were one sentence with every ID twice:
    words 1, 2... of the second were the nodes of the first's, their mentions merged with those
    (the key against itself scored 100, corefud-scorer's MOR 98.18).  Refused at the first ID
    met again, in the key and in the response alike, by both CoNLL-U readers (`score` reads nodes,
    `errors` tokens)."""
    lines = GUM2.read_text(encoding="utf-8").split("\n")
    blank = lines.index("", 30)  # the blank line after the first sentence
    del lines[blank]
    joined = tmp_path / "joined.conllu"
    joined.write_text("\n".join(lines), encoding="utf-8")
    again = next(i for i in range(blank, len(lines)) if lines[i].startswith("1\t")) + 1
    said = f"{joined}:{again}: word ID 1 follows 8: IDs of a sentence must increase: is the blank line that " \
           f"ends a sentence missing?"
    for key in (joined, GUM2):
        assert error_line(corefwb(*command, str(key), str(joined))) == f"corefwb: error: {said}"


def _conll(names: list[str]) -> str:
    """A CoNLL-2012 file of these documents, each `John saw him` with John and him one chain."""
    rows = [("John", "(0)"), ("saw", "-"), ("him", "(0)")]
    return "".join(f"#begin document ({name}); part 000\n"
                   + "".join(f"{name}\t0\t{i}\t{word}\tX\t*\t-\t-\t-\t-\t*\t{cell}\n" for i, (word, cell) in enumerate(rows))
                   + "\n#end document\n" for name in names)


@pytest.mark.parametrize("stream", [[], ["--stream"]])
def test_key_documents_missing_from_the_response_are_one_warning(tmp_path, stream):
    """A response lacking many of the key's documents gave one warning line per document (6,667
    lines for a third of 20,000 documents); now one line, the first five named, as the response's
    documents the key lacks are.  One missing document keeps its own line."""
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(_conll([f"d{i}" for i in range(8)]), encoding="utf-8")
    response.write_text(_conll(["d1", "d6"]), encoding="utf-8")
    run = corefwb("score", str(key), str(response), *stream)
    assert run.returncode == 0 and "Traceback" not in run.stderr
    assert run.stderr.splitlines() == [
        f"corefwb: warning: {response}: 6 documents of the key are missing from the response, each scored against an "
        f"empty response: '(d0); part 000', '(d2); part 000', '(d3); part 000', '(d4); part 000', '(d5); part 000' ..."]
    response.write_text(_conll([f"d{i}" for i in range(7)]), encoding="utf-8")
    assert corefwb("score", str(key), str(response), *stream).stderr.splitlines() == [
        f"corefwb: warning: {response}: document '(d7); part 000' of the key is missing from the response: scored "
        f"against an empty response"]


def test_a_per_sentence_field_with_a_sentence_too_few_says_so(tmp_path):
    """A jsonlines record whose `sentences` gained an empty sentence (or whose `pos` lost one) was
    refused as "field 'pos' has 29 items for 523 tokens": the field's sentences were counted as
    its tokens."""
    record = {"doc_key": "d_0", "sentences": [["John", "saw", "him"], [], ["."]], "pos": [["N", "V", "P"], ["."]],
              "clusters": [[[0, 0], [2, 2]]]}
    response = tmp_path / "response.jsonl"
    response.write_text(json.dumps(record) + "\n", encoding="utf-8")
    line = error_line(corefwb("score", str(response), str(response)))
    assert line == f"corefwb: error: {response}:1: field 'pos' has 2 sentences where 'sentences' has 3"

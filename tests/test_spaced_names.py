"""A document's name with white space at an end (`"doc_key": "doc1 "`): names pair exactly, so it
does not pair with the key's `doc1` (nor `(doc1); part 000`), and one warning names the two together
instead of a "missing" and an "ignored" warning that hid the slip (docs/formats.md); a response none
of whose names pairs is refused, saying so.  The same in memory and streamed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from metrics.conventions.options import Options
from metrics.conventions.pipeline import load, stream
from metrics.corpus.scoring import prepare
from metrics.formats.readers import read_documents
from metrics.mentions.pairing import spaced_twins
from metrics.model import InputError

WORDS = [["John", "saw", "him", "."]]


def jsonl(path: Path, names: list[str]) -> str:
    path.write_text("".join(json.dumps({"doc_key": name, "sentences": WORDS, "clusters": [[[0, 0], [2, 2]]]}) + "\n"
                            for name in names), encoding="utf-8")
    return str(path)


def conll(path: Path, names: list[str]) -> str:
    rows = [("John", "(0)"), ("saw", "-"), ("him", "(0)"), (".", "-")]
    path.write_text("".join(f"#begin document {name}; part 000\n"
                            + "".join(f"d 0 {i} {word} - * - - - - * {cell}\n" for i, (word, cell) in enumerate(rows))
                            + "\n#end document\n" for name in names), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("key_names, response_names, write_key, write_response, twin", [
    (["doc1", "doc2"], ["doc1 ", "doc2"], jsonl, jsonl, ("doc1", "doc1 ")),
    (["doc1 ", "doc2"], ["doc1", "doc2"], jsonl, jsonl, ("doc1 ", "doc1")),
    (["(doc1)", "(doc2)"], ["doc1 ", "doc2"], conll, jsonl, ("(doc1); part 000", "doc1 ")),
    (["(doc1 )", "(doc2)"], ["(doc1)", "(doc2)"], conll, conll, ("(doc1 ); part 000", "(doc1); part 000")),
])
@pytest.mark.parametrize("streamed", [False, True])
def test_a_name_spaced_at_an_end_is_named_with_its_twin(tmp_path, key_names, response_names, write_key,
                                                         write_response, twin, streamed):
    key = write_key(tmp_path / f"key.{write_key.__name__}", key_names)
    response = write_response(tmp_path / f"response.{write_response.__name__}", response_names)
    if streamed:
        result = stream(key, response, Options(), metrics=["muc"], jobs=1)
        if result is None:  # jsonlines is read whole
            return
        warnings, scores = result[1], result[0]
    else:
        corpus = prepare(read_documents(key), read_documents(response))
        warnings, scores = corpus.warnings, corpus.score(metrics=["muc"])
    assert len(warnings) == 1, warnings
    assert f"{twin[1]!r} with the key's {twin[0]!r}" in warnings[0] and "white space at an end" in warnings[0]
    per_document = dict(scores.documents)
    assert per_document[twin[0]]["muc"].recall == 0  # unpaired: scored against an empty response
    assert per_document[[n for n in per_document if n != twin[0]][0]]["muc"].f1 == 1


def test_no_name_in_common_but_for_white_space_is_refused_saying_so(tmp_path):
    key = jsonl(tmp_path / "key.jsonl", ["a", "b"])
    response = jsonl(tmp_path / "response.jsonl", ["a ", " b"])
    with pytest.raises(InputError) as info:
        load(key, [response], Options())
    assert "no document in common" in info.value.message and "white space at an end" in info.value.message
    assert "'a ' with the key's 'a'" in info.value.message


class _Doc:
    def __init__(self, name: str) -> None:
        self.name = name


def test_twins_are_what_trimming_pairs_and_nothing_else():
    """Against the brute force: every (missing, unused) pair equal once trimmed, each side once."""
    missing = [_Doc(n) for n in ["a", "b", "c ", "(d); part 000", "e"]]
    unused = [_Doc(n) for n in ["a ", " b", "c", "d ", "f", "a  "]]
    twins = [(k.name, r.name) for k, r in spaced_twins(missing, unused)]
    assert twins == [("a", "a "), ("b", " b"), ("c ", "c"), ("(d); part 000", "d ")]

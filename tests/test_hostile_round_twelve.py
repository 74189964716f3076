"""Hostile input, a sixth round (hostile12): `convert`'s written files, the key cache, UA exports,
the LLM track's text and system jsonlines.  What was a file that does not read back, a word
silently changed, a traceback or an error without its line.  Each case as a user meets it: the
exit status and the one line it says, or the file read back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_hostile_round_nine import corefwb, error_line  # (the command in process, its one error line)

from metrics.formats.readers import read_documents

def _key(tmp_path: Path, name: str, words: list[str]) -> Path:
    path = tmp_path / "key.jsonl"
    path.write_text(json.dumps({"doc_key": name, "sentences": [words],
                                "clusters": [[[0, 0], [2, 2]]]}) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("target", ["conll", "conllu"])
@pytest.mark.parametrize("name", ["d\n1", "d\r1", "(d\r\n1); part 0"])
def test_a_document_name_with_a_line_break_is_refused_not_written(tmp_path, target, name):
    """A jsonlines doc_key holding a line break was written into `#begin document` / `# newdoc id`,
    and the file did not read back ("bad coreference item '1'")."""
    key = _key(tmp_path, name, ["John", "met", "Mary", "."])
    out = tmp_path / f"out.{target}"
    line = error_line(corefwb("convert", str(key), str(out)))
    assert line == (f"corefwb: error: {key}: cannot be written as {target}: document {name!r}: its name holds a "
                    f"line break; a {'CoNLL-2012' if target == 'conll' else 'CoNLL-U'} header line cannot carry it")
    assert not out.exists()


@pytest.mark.parametrize("name", ["(a b); part 0", "(a\tb); part 0", "a\tb", "(a); part 1 2", "a\x0bb"])
def test_whitespace_in_a_name_does_not_shift_the_conll_columns(tmp_path, name):
    """A doc_key with whitespace inside its id or part (`(a b); part 0`) was written into columns 1
    and 2 as it is: every column after it moved, and the words read back were the token numbers."""
    words = ["John", "met", "Mary", "."]
    key = _key(tmp_path, name, words)
    out = tmp_path / "out.conll"
    assert corefwb("convert", str(key), str(out)).returncode == 0
    documents = read_documents(str(out))
    assert documents[0].words == words and documents[0].chains == [[(0, 0), (2, 2)]]
    assert all(len(line.split()) == 12 for line in out.read_text(encoding="utf-8").split("\n")
               if line and not line.startswith("#"))


def test_a_word_with_a_carriage_return_cannot_be_a_conllu_form(tmp_path):
    """Our readers end a line at a lone CR as at LF: a form holding one was written and read back
    as two lines."""
    key = _key(tmp_path, "d1", ["John", "a\rb", "met", "Mary", "."])
    line = error_line(corefwb("convert", str(key), str(tmp_path / "out.conllu")))
    assert line == f"corefwb: error: {key}: cannot be written as conllu: document 'd1': token 1 'a\\rb' cannot be a CoNLL-U form"

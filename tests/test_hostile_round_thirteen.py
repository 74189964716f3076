"""Hostile input, a seventh round (hostile13): the CoNLL-U byte reader beside the line reader, UA's
newest warnings, the crac-text reader's last document, options with bad input, and the workbench
opened on each.  Each case as a user meets it: the exit status and the one line it says, or the
warning that keeps a score from being silently other than the official scorer's."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_hostile_round_nine import corefwb, error_line

ROOT = Path(__file__).resolve().parent.parent
UA_DATA = ROOT / "tests" / "data" / "ua"
SHORT_HEADER = "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY"


# ----------------------------------------------------------------------- UA: a layer the header hides

def _deixis_response(tmp_path: Path, where: str) -> Path:
    """The deixis example's response (all 15 columns on every line) with a header naming no
    DISCOURSE_DEIXIS placed where the first check did not look."""
    full, rest = (UA_DATA / "deixis.response").read_text(encoding="utf-8").split("\n", 1)
    lines = rest.split("\n")
    first_word = next(i for i, line in enumerate(lines) if line and not line.startswith("#"))
    if where == "after a long comment":  # the first word line past the first 8 KB
        text = "\n".join([SHORT_HEADER, *lines[:first_word], "# meta::summary = " + "x" * 9000, *lines[first_word:]])
    elif where == "as a second declaration":  # the UA scorer reads column 13 whatever the last header says
        text = "\n".join([full, SHORT_HEADER, *lines])
    else:  # "after the first document's start"
        text = "\n".join([lines[0], SHORT_HEADER, *lines[1:]])
    path = tmp_path / "response.conllua"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("where", ["after a long comment", "as a second declaration",
                                   "after the first document's start"])
def test_a_header_hiding_the_deixis_column_is_said_wherever_it_stands(tmp_path, where):
    """We read no DISCOURSE_DEIXIS layer and scored 0; the UA scorer reads column 13 and scores
    66.67 MUC F1.  The warning looked only at the first 8 KB and only at a header on the first
    line, so each of these scored 0 in silence."""
    response = _deixis_response(tmp_path, where)
    if where == "as a second declaration":  # the same with CRLF line ends (each read as one line end)
        response.write_bytes(response.read_bytes().replace(b"\n", b"\r\n"))
    run = corefwb("score", str(UA_DATA / "deixis.key"), str(response), "--discourse-deixis")
    assert run.returncode == 0, run.stderr
    assert "DISCOURSE_DEIXIS nowhere (the UA scorer reads column 13)" in run.stderr, run.stderr


# ----------------------------------------------------------------------- CoNLL-U: one file, one refusal

def test_a_key_with_two_faults_is_refused_by_every_command_at_the_same_one(tmp_path):
    """A blank line lost into a sentence, inside a mention: the first half's HEAD 4 names a word
    now in the next sentence, and the mention crosses the boundary.  `score` reads the key's nodes
    alone and said the crossing (line 9); `errors` and `compare` read its token spans first, whose
    reader has no crossing rule, and said the HEAD (line 7): one file, two refusals."""
    lines = (ROOT / "tests" / "data" / "corefud" / "key.conllu").read_text(encoding="utf-8").split("\n")
    lines.insert(next(i for i, line in enumerate(lines) if line.startswith("4\tdog")), "")
    key = tmp_path / "key.conllu"
    key.write_text("\n".join(lines), encoding="utf-8")
    response = str(ROOT / "tests" / "data" / "corefud" / "response.conllu")
    said = {command: error_line(corefwb(command, str(key), response, *([response] if command == "compare" else [])))
            for command in ("score", "errors", "compare")}
    assert said == dict.fromkeys(said, f"corefwb: error: {key}:9: mention e2) opened at line 7 crosses a sentence "
                                       "boundary"), said


# ----------------------------------------------------------------------- options with odd input

def test_stream_on_a_crac_output_says_what_works():
    """`--stream` with a CRAC LLM-track output said the key and the response "are CoNLL-U" and
    sent the user to `--conventions conll`, which refuses a crac-text response: a dead end."""
    crac = ROOT / "tests" / "data" / "crac"
    run = corefwb("score", str(crac / "gum2.eid.conllu"), str(crac / "gum2.eid.llm.txt"), "--stream")
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.strip() == ("corefwb: usage error: --stream is not available for a CRAC LLM-track output (laid "
                                  "onto its whole key): score it without --stream")


def test_a_crac_output_given_as_the_key_is_told_to_come_second():
    """Key and response swapped: the message sent the user to `--conventions corefud`, under which
    the same command is refused again (the crac-text key read as CoNLL-U: "10 columns, found 1")."""
    crac = ROOT / "tests" / "data" / "crac"
    output = crac / "gum2.eid.llm.txt"
    line = error_line(corefwb("score", str(output), str(crac / "gum2.eid.conllu")))
    assert line == (f"corefwb: error: {output}: crac-text (the CRAC LLM track's format) is a response, read onto "
                    "its CoNLL-U key under --conventions corefud (the key first, then this file)")

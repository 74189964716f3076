"""Hostile input, a seventh round (hostile13): the CoNLL-U byte reader beside the line reader, UA's
newest warnings, the crac-text reader's last document, options with bad input, and the workbench
opened on each.  Each case as a user meets it: the exit status and the one line it says, or the
warning that keeps a score from being silently other than the official scorer's."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_hostile_round_nine import corefwb

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
    run = corefwb("score", str(UA_DATA / "deixis.key"), str(response), "--discourse-deixis")
    assert run.returncode == 0, run.stderr
    assert "DISCOURSE_DEIXIS nowhere (the UA scorer reads column 13)" in run.stderr, run.stderr

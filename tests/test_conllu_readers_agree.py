"""A broken CoNLL-U file is refused in the same words by every view (agree11).

Two readers read CoNLL-U: the token-span one (`metrics.formats.conllu`: CoNLL-2012's conventions,
and the key's text and mention types under CorefUD's) and the node one (`metrics.formats.corefud`:
corefud-scorer's mentions).  `corefwb score` under CorefUD reads the key with the node reader
alone; `errors`, `compare` and the workbench read it with both, the span reader first.  Before,
each reader said a fault its own way ("malformed Entity value" against "Entity value ... does
not parse", "9 columns where CoNLL-U has 10" against "expected 10 TAB-separated CoNLL-U columns,
found 9"...), so the same file got one message from `score` and another from the workbench; and
the node reader never looked at HEAD, so `score` scored a key whose HEAD names no word, which
`errors`, `compare`, the workbench and corefud-scorer itself (udapi) all refuse.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from app_support import pilot_test
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)

from metrics.formats.conllu import parse_conllu
from metrics.formats.corefud import parse_corefud
from metrics.model import InputError
from workbench.cli import build_parser, main
from workbench.commands.common import load_options
from workbench.tui.app import Workbench

KEY = "tests/data/corefud/key.conllu"
HEADER = ["# newdoc id = d", "# global.Entity = eid-etype-head-other", "# sent_id = 1"]


def row(ident: object, form: str, misc: str = "_", head: str = "0") -> str:
    return f"{ident}\t{form}\t_\tNOUN\t_\t_\t{head}\tdep\t_\t{misc}"


FAULTS = {
    "an Entity value with junk after its chunks": [row(1, "x", "Entity=(e5-x-1-)junk")],
    "an Entity value of no chunk": [row(1, "x", "Entity=_")],
    "a closing with nothing open": [row(1, "x", "Entity=e5)")],
    "a mention never closed": [row(1, "x", "Entity=(e5-x-1-"), row(2, "y", head="1")],
    "a HEAD that is no number": [row(1, "x", head="x")],
    "a HEAD past the sentence": [row(1, "x", head="7")],
    "a bad HEAD after a `_` one": [row(1, "x", head="_"), row(2, "y", head="x")],
    "nine columns": ["1\tx\tx\tNOUN\t_\t_\t0\tdep\t_"],
    "an ID that is no node": ["a\tx\tx\tNOUN\t_\t_\t0\tdep\t_\t_"],
    "a global.Entity without eid": ["# newdoc id = d", "# global.Entity = etype-head", row(1, "x")],
    "a later part before the first": [row(1, "x", "Entity=(e1[2/2]-x-1-)")],
    "a part past the parts": [row(1, "x", "Entity=(e1[3/2]-x-1-)")],
    "a discontinuous mention without its last part": [row(1, "x", "Entity=(e1[1/2]-x-1-)"), row(2, "y", head="1")],
}


def refusal(reader, lines: list[str]) -> tuple[int | None, str]:
    with pytest.raises(InputError) as caught:
        reader("f.conllu", [*lines, ""], [])
    return caught.value.line, caught.value.message


@pytest.mark.parametrize("fault", FAULTS)
def test_both_readers_refuse_a_fault_on_the_same_line_in_the_same_words(fault):
    body = FAULTS[fault]
    lines = body if body[0].startswith("# newdoc") else HEADER + body
    assert refusal(parse_conllu, lines) == refusal(parse_corefud, lines)


def test_an_empty_entity_value_is_no_mention_in_both_readers():
    """udapi reads `Entity=` (empty) as no annotation; the node reader refused it."""
    lines = [*HEADER, row(1, "x", "Entity="), ""]
    assert parse_conllu("f", lines, [])[0].chains == []
    assert not parse_corefud("f", lines, [])[0].entities


def broken_key(tmp_path: Path) -> str:
    """The CorefUD test key with a HEAD naming no word of its sentence (udapi: "HEAD is out of range")."""
    text = Path(KEY).read_text(encoding="utf-8").replace("1\tMary\t_\tPROPN\t_\t_\t2\t", "1\tMary\t_\tPROPN\t_\t_\t9\t", 1)
    path = tmp_path / "key.conllu"
    path.write_text(text, encoding="utf-8")
    return str(path)


def cli_refusal(capsys, *args: str) -> str:
    capsys.readouterr()
    assert main(list(args)) == 1
    return capsys.readouterr().err.strip()


def test_score_refuses_the_key_errors_and_compare_refuse(tmp_path, capsys):
    key = broken_key(tmp_path)
    said = {command: cli_refusal(capsys, *command.split(), key, KEY, *([KEY] if command == "compare" else []))
            for command in ("score", "errors", "compare", "errors --taxonomy kk")}
    assert len(set(said.values())) == 1, said
    assert f"{key}:5: HEAD 9 is not a word of this sentence" in said["score"]


@pilot_test
async def test_the_workbench_says_what_score_says(tmp_path, capsys):
    """As `corefwb KEY RESPONSE` opens it (the conventions chosen from the files: CorefUD's)."""
    key = broken_key(tmp_path)
    said = cli_refusal(capsys, "score", key, KEY)
    args = build_parser().parse_args([key, KEY])
    app = Workbench(key, [KEY], load_options(argparse.Namespace(**vars(args)), [KEY], ua_taken=True))
    async with app.run_test(size=(160, 40)) as pilot:
        for _ in range(200):
            await pilot.pause(0.02)
            if app.load_failed:
                break
        assert app.load_failed
        assert said.removeprefix("corefwb: ") == str(app.query_one("#status").render()).strip()

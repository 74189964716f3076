"""`corefwb score` on CoNLL-2012 files loads only the code a score runs: every command line pays
its imports, and the UA convention's code, the error analyses and the writers of CSV and files
are about 30 ms of a run that reads none of them (issue 42: `score` within 3x the floor)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KEY, RESPONSE = ROOT / "samples" / "luo" / "key.conll", ROOT / "samples" / "luo" / "response-a.conll"

NOT_FOR_A_SCORE = ("metrics.corpus.ua", "metrics.measures.ua", "metrics.mentions.ua_align", "metrics.errors",
                   "csv", "tempfile")
"""Modules (and their submodules) a CoNLL-2012 `score` writing JSON to stdout never needs."""

_RUN = """
import contextlib, io, json, sys
from workbench.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    status = main(["score", sys.argv[1], sys.argv[2], "--format", "json", "--jobs", "1", "--no-cache"])
json.loads(out.getvalue())
print(json.dumps([status, sorted(sys.modules)]))
"""


def test_a_conll_score_loads_no_ua_no_errors_no_file_writer():
    done = subprocess.run([sys.executable, "-c", _RUN, str(KEY), str(RESPONSE)], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    status, loaded = json.loads(done.stdout.splitlines()[-1])
    assert status == 0
    assert "metrics.corpus.scoring" in loaded  # the check sees what the run loaded
    needless = [name for name in loaded if any(name == m or name.startswith(m + ".") for m in NOT_FOR_A_SCORE)]
    assert not needless, f"a score loaded {needless}"


def test_the_preset_option_still_knows_its_names(capsys):
    from workbench.cli import build_subparser

    parser = build_subparser("score")
    assert parser.parse_args([str(KEY), str(RESPONSE), "--preset", "crac23"]).preset == "crac23"
    try:
        parser.parse_args([str(KEY), str(RESPONSE), "--preset", "nope"])
    except SystemExit as exit_:
        assert exit_.code == 2
    assert "invalid choice: 'nope' (choose from 'crac18'" in capsys.readouterr().err
    assert "{crac18,craft19," in parser.format_usage()

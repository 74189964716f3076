"""Issue 36 (the workbench as a newcomer sees it, round two): each reproduction, fixed."""

from __future__ import annotations

from pathlib import Path

from workbench.cli import main
from workbench.session import LoadOptions, Session

ROOT = Path(__file__).resolve().parent.parent
KEY, RESPONSE = str(ROOT / "samples/gum/key.gum.conll"), str(ROOT / "samples/gum/response.gum.conll")

BROKEN_KEY = """#begin document (d); part 000
d\t0\t0\tA\t-\t-\t-\t-\t-\t-\t*\t(1)|(2)
d\t0\t1\tb\t-\t-\t-\t-\t-\t-\t*\t(1)
d\t0\t2\tc\t-\t-\t-\t-\t-\t-\t*\t(2)

#end document
"""


def _files(tmp_path: Path) -> tuple[str, str]:
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(BROKEN_KEY)
    response.write_text(BROKEN_KEY.replace("(1)|(2)", "(1)").replace("(2)\n\n", "(3)\n\n"))
    return str(key), str(response)


def test_compare_says_each_key_warning_once(tmp_path, capsys):
    key, response = _files(tmp_path)
    main(["compare", key, response, response, "--bootstrap", "0"])
    err = capsys.readouterr().err
    assert err.count("KEY document") == 1


def test_the_keys_warnings_come_first(tmp_path):
    key, response = _files(tmp_path)
    session = Session.load(key, [response], LoadOptions(cache=False, singletons="remove"))
    assert len(session.warnings) >= 2 and "KEY document" in session.warnings[0]
    assert not any("KEY document" in w for w in session.warnings[1:])


def test_score_ci_names_the_interval_as_it_prints_it(capsys):
    main(["score", KEY, RESPONSE, "--ci", "--bootstrap", "50"])
    out = capsys.readouterr().out
    assert "[low, high]: the 95% percentile bootstrap interval" in out and "± half" not in out
    assert "[" in out.splitlines()[2]


def test_score_markdown_is_paper_ready(capsys):
    main(["score", KEY, RESPONSE, "--format", "markdown"])
    out = capsys.readouterr().out
    assert "| corpus | CoNLL | 65.38 | 63.18 | 64.24 |" in out
    assert "0.68" not in out and "| corpus | Mentions | 84.55 | 81.84 | 83.17 |" in out


def test_errors_help_never_breaks_a_category_name(capsys):
    try:
        main(["errors", "--help"])
    except SystemExit:
        pass
    out = capsys.readouterr().out
    for name in ("false_new", "wrong_link", "suboptimal_link", "false_anaphoric", "missing_mention", "spurious_mention"):
        assert name in out.replace("\n", " "), name

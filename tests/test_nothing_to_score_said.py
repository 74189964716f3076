"""A score with nothing to count in either file (0/0: zero anaphora on a dataset without zeros)
is printed 0.00, as corefud-scorer prints it, and said to be that: the CRAC report's
`--metric zero` table gave a copy of the key 0.00, marked best, with no word why."""

from __future__ import annotations

from test_crac import make_run

from metrics.measures.score import Score
from workbench.cli import main
from workbench.output import nothing_to_score


def test_nothing_to_score_is_both_denominators_zero():
    assert nothing_to_score(Score(0, 0, 0, 0))
    assert not nothing_to_score(Score(0, 3, 0, 0)) and not nothing_to_score(Score(0, 0, 0, 2))
    assert not nothing_to_score(Score(1, 2, 1, 2)) and not nothing_to_score(0.5)


def test_the_crac_report_says_which_datasets_have_nothing_for_its_metric(tmp_path, capsys):
    systems = make_run(tmp_path, {"en_a": 3, "de_b": 2}, noises=(0.3,))
    for form in ("text", "markdown", "latex"):
        assert main(["crac", str(tmp_path / "key"), *systems, "--metric", "zero", "--variant", "head",
                     "--format", form, "--bootstrap", "0"]) == 0
        out = capsys.readouterr().out
        assert "de_b, en_a: no zero-anaphora F1 to count in the key or any system (0/0)" in out, form
        assert main(["crac", str(tmp_path / "key"), *systems, "--variant", "head", "--format", form,
                     "--bootstrap", "0"]) == 0
        assert "to count in the key" not in capsys.readouterr().out, form


def test_score_under_corefud_says_a_metric_had_nothing_to_count(tmp_path, capsys):
    systems = make_run(tmp_path, {"en_a": 3}, noises=(0.3,))
    key, response = tmp_path / "key" / "en_a-corefud-dev.conllu", f"{systems[0]}/en_a-corefud-dev.conllu"
    for form in ("text", "markdown"):
        assert main(["score", str(key), response, "--format", form]) == 0
        out = capsys.readouterr().out
        assert "zero anaphora: nothing to count in the key or the response (0/0)" in out, form
        assert main(["score", str(key), response, "--format", form, "--metrics", "muc,bcub"]) == 0
        assert "nothing to count" not in capsys.readouterr().out, form

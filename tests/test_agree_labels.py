"""Labels that say what a number is, once (agree11): `compare` without intervals said
"corpus micro-averaged; corpus scores micro-averaged (official)"."""

from __future__ import annotations

from workbench.cli import main

SAMPLE = ("samples/gum/key.gum.conll", "samples/gum/response.gum.conll", "samples/gum/response.gum.conll")


def test_compare_without_intervals_says_micro_averaged_once(capsys, monkeypatch):
    monkeypatch.chdir(__file__.rsplit("/tests/", 1)[0])
    assert main(["compare", "--bootstrap", "0", "--metrics", "muc", *SAMPLE]) == 0
    title = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("F1 (%)"))
    assert title == "F1 (%), 2 documents, corpus micro-averaged"
    assert main(["compare", "--metrics", "muc", *SAMPLE]) == 0
    title = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("F1 (%)"))
    assert title.count("micro-averaged") == 1 and "bootstrap interval" in title


def test_markdown_says_how_to_read_the_ace_value_as_text_does(capsys, monkeypatch):
    monkeypatch.chdir(__file__.rsplit("/tests/", 1)[0])
    for form in ("text", "markdown"):
        assert main(["score", "--metrics", "muc,ace", "--format", form, *SAMPLE[:2]]) == 0
        assert "ACE-value: F1 column is the value" in capsys.readouterr().out, form

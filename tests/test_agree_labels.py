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


def test_score_with_intervals_names_its_weights_and_the_ace_value_as_the_plain_table_does(capsys, monkeypatch):
    """`score --ci` (and `--group-by`) printed the LMetrics with no weights and the ACE-value in
    the F1 column with no note, where `score` without them says both."""
    monkeypatch.chdir(__file__.rsplit("/tests/", 1)[0])
    for extra in (["--ci", "--bootstrap", "50"], ["--group-by", "file"]):
        for form in ("text", "markdown"):
            assert main(["score", "--metrics", "lmuc,ace", "--weights", "W2", "--format", form, *extra,
                         *SAMPLE[:2]]) == 0
            out = capsys.readouterr().out
            assert "weights nam=1 nom=1 pro=1 sing=0.5" in out, (extra, form)
            assert "ACE-value: F1 column is the value" in out, (extra, form)


def test_score_markdown_names_its_weights_as_text_does(capsys, monkeypatch):
    monkeypatch.chdir(__file__.rsplit("/tests/", 1)[0])
    for form in ("text", "markdown"):
        assert main(["score", "--metrics", "lmuc", "--weights", "W2", "--format", form, *SAMPLE[:2]]) == 0
        assert "weights nam=1 nom=1 pro=1 sing=0.5" in capsys.readouterr().out, form


def test_compare_says_how_to_read_the_ace_value(capsys, monkeypatch):
    """Its tables head every column "F1 (%)" and the differences "F1 points": the ACE-value's are
    its value, as `score` says under its table."""
    monkeypatch.chdir(__file__.rsplit("/tests/", 1)[0])
    for form in ("text", "markdown"):
        assert main(["compare", "--metrics", "muc,ace", "--bootstrap", "50", "--format", form, *SAMPLE]) == 0
        assert "ACE-value: F1 column is the value" in capsys.readouterr().out, form
        assert main(["compare", "--metrics", "muc", "--bootstrap", "50", "--format", form, *SAMPLE]) == 0
        assert "ACE-value" not in capsys.readouterr().out, form


def test_the_workbench_markdown_export_says_how_to_read_the_ace_value():
    """Its scores table heads the column F1 as `score --format markdown` does, and said nothing."""
    from metrics.measures.ace import AceScore
    from metrics.measures.score import Score
    from workbench.error_rows import render_report

    ace = AceScore(3.0, 10.0, 1.0, 1.0, 1.0, 5.0, 8.0, 2, 3, 2)
    text = render_report("corpus", (1, 0.75, 0.5, 1), {"muc": Score(1, 2, 1, 2), "ace": ace}, None, "markdown")
    assert "| ACE-value | 50.00 | 55.56 | 30.00 |" in text
    assert "ACE-value: F1 column is the value" in text
    without = render_report("corpus", (1, 0.75, 0.5, 1), {"muc": Score(1, 2, 1, 2)}, None, "markdown")
    assert "ACE-value" not in without


def test_v801s_conventions_with_another_match_or_without_singletons_say_so(capsys, monkeypatch):
    """`--match head` gave MUC 64.34 on the sample where v8.01 gives 56.84, and no output said
    the match was not v8.01's (JSON had no field for it); `--singletons remove` said it only on
    stderr.  Their defaults' outputs say nothing more, as before."""
    import json

    monkeypatch.chdir(__file__.rsplit("/tests/", 1)[0])
    cases = [(["--match", "head"], "head match, singletons kept", {"match": "head", "singletons": "keep"}),
             (["--singletons", "remove"], "exact match, singletons removed",
              {"match": "exact", "singletons": "remove"})]
    for extra, said, fields in cases:
        for command in (["score"], ["score", "--ci", "--bootstrap", "20"], ["errors", "--limit", "1"]):
            for form in ("text", "markdown"):
                assert main([*command, "--format", form, *extra, *SAMPLE[:2]]) == 0
                assert f"conventions conll, {said}" in capsys.readouterr().out, (command, form)
            assert main([*command, "--format", "json", *extra, *SAMPLE[:2]]) == 0
            out = json.loads(capsys.readouterr().out)
            assert {k: out.get(k) for k in fields} == fields and out["conventions"] == "conll", command
        assert main(["compare", "--bootstrap", "20", *extra, *SAMPLE]) == 0
        assert f"conventions conll, {said}" in capsys.readouterr().out
    for command in (["score"], ["errors", "--limit", "1"]):
        assert main([*command, *SAMPLE[:2]]) == 0
        assert "conventions conll" not in capsys.readouterr().out
        assert main([*command, "--format", "json", *SAMPLE[:2]]) == 0
        assert "conventions" not in json.loads(capsys.readouterr().out)


def test_errors_markdown_names_its_weights_and_what_it_lists_as_text_does(capsys, monkeypatch):
    """Its costs and LMetric impacts depend on the weights, which only the text said, and a
    `--limit` cut its list without a word (the text says "listing 2 of 251 errors")."""
    monkeypatch.chdir(__file__.rsplit("/tests/", 1)[0])
    for form in ("text", "markdown"):
        assert main(["errors", "--impact", "lmuc", "--weights", "W2", "--limit", "2", "--format", form,
                     *SAMPLE[:2]]) == 0
        out = capsys.readouterr().out
        assert "errors in 2 document(s); link weights nam=1 nom=1 pro=1 sing=0.5" in out, form
        assert "listing 2 of " in out, form


def test_per_doc_help_says_what_corefuds_text_gives(capsys, tmp_path):
    """`--per-doc`'s help promised 'one document x metric table of F1' in text; under corefud the
    text gives a row per document and metric, with recall and precision, as its corpus rows."""
    from test_crac import make_run

    systems = make_run(tmp_path, {"en_a": 2}, noises=(0.3,))
    key, response = tmp_path / "key" / "en_a-corefud-dev.conllu", f"{systems[0]}/en_a-corefud-dev.conllu"
    assert main(["score", str(key), response, "--per-doc", "--metrics", "muc"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert ["document", "metric", "recall", "precision", "F1"] in rows
    assert [row[:2] for row in rows if row[:1] == ["en_a-0"]] == [["en_a-0", "MUC"]]
    try:
        main(["score", "--help"])
    except SystemExit:
        pass
    assert "under --conventions corefud a row per document and metric" in " ".join(capsys.readouterr().out.split())

"""`--conventions ua` on the command line: detection, options, presets, exit statuses, and error
prices checked against scoring the corpus again with the error fixed."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from metrics.corpus.ua import PRESETS, Settings, score_corpus
from metrics.errors.ua.records import find_errors
from metrics.formats.ua import read_ua
from metrics.mentions.ua import BridgingLink
from workbench.cli import main

DATA = Path(__file__).parent / "data" / "ua"
KEY, RESPONSE = str(DATA / "bridging.key"), str(DATA / "bridging.response")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_a_ua_key_is_scored_under_ua_by_default(capsys):
    status, out, _ = run(capsys, "score", KEY, RESPONSE, "--format", "json")
    result = json.loads(out)
    assert status == 0 and result["conventions"] == "ua" and result["match"] == "exact"
    assert list(result["metrics"])[:3] == ["mentions", "muc", "bcub"]
    assert result["documents"] == 1 and result["per_document"][0]["document"] == "bridging"


def test_a_preset_sets_what_the_ua_scorer_sets(capsys):
    status, out, _ = run(capsys, "score", KEY, RESPONSE, "--preset", "codicrac22ar", "--format", "json")
    result = json.loads(out)
    assert status == 0 and result["preset"] == "codicrac22ar"
    assert (result["singletons"], result["split_antecedents"]) == ("keep", "keep")
    assert list(result["metrics"]) == ["muc", "bcub", "ceafe", "conll"]


@pytest.mark.parametrize("argv, words", [
    (("--preset", "codicrac22ar", "--match", "partial"), "drop --match"),
    (("--conventions", "conll", "--split-antecedents", "keep"), "applies to --conventions ua only"),
    (("--zero-match", "dependency"), "by position only"),
    (("--split-antecedents", "keep", "--singletons", "remove"), "singletons kept"),
    (("--only-split-antecedents", "--split-antecedents", "remove"), "drop --split-antecedents remove"),
    (("--discourse-deixis", "--split-antecedents", "remove"), "drop --split-antecedents remove"),
    (("--metrics", "muc,nonsense"), "unknown UA metric"),
    (("--ci",), "not available with --conventions ua"),
    (("--preset", "crac22"), "--preset crac22 is under --conventions corefud, and the key is a UA file"),
])
def test_usage_errors_exit_2(capsys, argv, words):
    status, out, err = run(capsys, "score", KEY, RESPONSE, *argv)
    assert status == 2 and not out and words in err


@pytest.mark.parametrize("command", [("score",), ("errors",), ("compare", RESPONSE)])
def test_crac_zeros_under_ua_is_a_usage_error(capsys, command):
    """--crac-zeros is for a CRAC LLM-track output under corefud: under ua it was silently ignored."""
    status, out, err = run(capsys, command[0], KEY, RESPONSE, *command[1:], "--crac-zeros", "gold")
    assert status == 2 and not out and "--crac-zeros applies to" in err


def test_plot_takes_a_ua_pair(capsys, tmp_path):
    status, _, err = run(capsys, "plot", "documents", KEY, RESPONSE, RESPONSE, "--output", str(tmp_path / "x.svg"))
    assert status == 0, err
    assert (tmp_path / "x.svg").stat().st_size > 0


def test_a_ua_file_under_conll_conventions_is_refused_with_a_pointer(capsys):
    status, _, err = run(capsys, "score", KEY, RESPONSE, "--conventions", "conll")
    assert status == 1 and "--conventions ua" in err


def test_bad_ua_input_is_one_located_line_exit_1(capsys, tmp_path):
    bad = tmp_path / "bad.CONLLUA"
    lines = Path(RESPONSE).read_text(encoding="utf-8").splitlines()
    lines[3] = lines[3].replace("(EntityID=1|MarkableID=house|Min=2", "(EntityID=1|Min=2")
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, err = run(capsys, "score", KEY, str(bad))
    assert status == 1 and not out
    assert err.count("\n") == 1 and f"{bad}:4:" in err and "MarkableID" in err


def test_documents_must_have_the_same_words(capsys, tmp_path):
    other = tmp_path / "other.CONLLUA"
    other.write_text(Path(RESPONSE).read_text(encoding="utf-8").replace(" house ", " barn  "), encoding="utf-8")
    status, _, err = run(capsys, "score", KEY, str(other))
    assert status == 1 and "'barn' where the key has 'house'" in err


def test_errors_in_json_and_csv(capsys):
    status, out, _ = run(capsys, "errors", KEY, RESPONSE, "--conventions", "ua", "--format", "json")
    result = json.loads(out)
    assert status == 0 and result["counts"]["bridging"] == {"missed": 1, "spurious": 1, "wrong_anchor": 1, "wrong_relation": 0}
    status, out, _ = run(capsys, "errors", KEY, RESPONSE, "--conventions", "ua", "--format", "csv", "--type", "missed")
    rows = out.strip().splitlines()
    assert status == 0 and rows[0].startswith("document,relation,type") and len(rows) == 1 + 3
    status, _, err = run(capsys, "errors", KEY, RESPONSE, "--conventions", "ua", "--category", "nonsense")
    assert status == 2 and "split_antecedents" in err


def _rescored(keys, responses, settings, metric: str) -> float:
    return score_corpus(keys, responses, "k", "r", settings).micro[metric].f1


def test_bridging_prices_are_the_score_of_the_corpus_fixed():
    keys, responses = read_ua(KEY), read_ua(RESPONSE)
    settings = PRESETS["codicrac22br"]
    assert isinstance(settings, Settings)
    result = score_corpus(keys, responses, KEY, RESPONSE, settings)
    errors = {e.kind: e for e in find_errors(result)}
    doc = responses[0]
    fixes = {
        "missed": [*doc.bridging, BridgingLink("roof", "house")],
        "spurious": [b for b in doc.bridging if b.anaphor != "garden"],
        "wrong_anchor": [BridgingLink("door", "house") if b.anaphor == "door" else b for b in doc.bridging],
    }
    for kind, links in fixes.items():
        fixed = [replace(doc, bridging=links)]
        for metric, price in errors[kind].price.items():
            gain = (_rescored(keys, fixed, settings, metric) - result.micro[metric].f1) * 100
            assert price == pytest.approx(gain), (kind, metric)


def test_non_referring_and_split_antecedent_prices_are_the_score_of_the_corpus_fixed():
    for example, settings, fix in (
        ("non_referring", Settings(metrics=("non_referring",)),
         lambda doc: [replace(m, entity="9-Pseudo") if m.id == "m2" else m for m in doc.identity]),
        ("split", Settings(keep_singletons=True, keep_split=True, metrics=("muc", "bcub", "ceafe", "lea")),
         lambda doc: [replace(m, element_of=("3",)) if m.id == "m1" else m for m in doc.identity]),
    ):
        keys, responses = read_ua(str(DATA / f"{example}.key")), read_ua(str(DATA / f"{example}.response"))
        result = score_corpus(keys, responses, "k", "r", settings)
        (error,) = find_errors(result)
        fixed = [replace(responses[0], identity=fix(responses[0]))]
        for metric, price in error.price.items():
            gain = (_rescored(keys, fixed, settings, metric) - result.micro[metric].f1) * 100
            assert price == pytest.approx(gain), (example, metric)
        assert any(v > 0 for v in error.price.values())


def test_the_size_guards_hold_under_ua(capsys):
    from metrics.formats import source

    try:
        status, _, err = run(capsys, "score", KEY, RESPONSE, "--max-input-size", "1K")
        assert status == 1 and "--max-input-size" in err
        status, _, err = run(capsys, "score", KEY, RESPONSE, "--max-document-tokens", "5")
        assert status == 1 and f"{KEY}:2:" in err and "--max-document-tokens" in err
    finally:  # the bounds are the process's: later tests read under the defaults
        source.set_max_input_size(source.DEFAULT_MAX_INPUT_SIZE)
        source.set_max_document_tokens(source.DEFAULT_MAX_DOCUMENT_TOKENS)


def test_score_loads_no_ui_and_no_other_command():
    """`corefwb score` on UA files imports what scoring needs: not textual, rich or the terminal UI,
    not the modules of `compare`, `crac` or `plot`, and scipy only when a metric needs an
    assignment (MUC and B3 without split antecedents do not)."""
    import subprocess
    import sys

    probe = ("import sys; from workbench.cli import main; main(['score', %r, %r, '--metrics', 'muc,bcub']); "
             "print(sorted({m for m in sys.modules if m.split('.')[0] in ('textual', 'rich', 'scipy', 'matplotlib') "
             "or m.startswith('workbench.tui') "
             "or m in ('workbench.commands.compare', 'workbench.commands.crac', 'workbench.commands.plot')}))")
    done = subprocess.run([sys.executable, "-c", probe % (KEY, RESPONSE)], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout


def test_errors_summary_says_split_antecedents_are_not_scored_when_removed(capsys):
    """Removed (the default), split antecedents are not looked for: the summary says so instead of
    zeros that read as a response that got them right; kept, it counts them."""
    status, out, _ = run(capsys, "errors", KEY, RESPONSE)
    assert status == 0 and "split_antecedents: not scored (removed)" in out.splitlines()[1]
    status, out, _ = run(capsys, "errors", KEY, RESPONSE, "--split-antecedents", "keep")
    assert status == 0 and "split_antecedents: missing " in out.splitlines()[1]


def _two_documents(tmp_path: Path) -> tuple[str, str]:
    """The bridging and non-referring examples as one corpus of two documents (key, response)."""
    paths = []
    for side in ("key", "response"):
        texts = [(DATA / f"{example}.{side}").read_text(encoding="utf-8") for example in ("bridging", "non_referring")]
        second = texts[1].split("\n", 1)[1]  # its own global.columns line dropped
        path = tmp_path / f"two.{side}"
        path.write_text(texts[0].rstrip("\n") + "\n\n" + second, encoding="utf-8")
        paths.append(str(path))
    return paths[0], paths[1]


@pytest.mark.parametrize("document", ["bridging", "non_referring"])
def test_errors_of_one_document_are_the_corpus_errors_of_that_document(capsys, tmp_path, document):
    """--document under ua lists that document's errors, counted alone, priced on the whole
    corpus (the same prices as without it), in JSON, CSV and text."""
    key, response = _two_documents(tmp_path)
    common = ("errors", key, response, "--conventions", "ua")
    status, out, err = run(capsys, *common, "--format", "json")
    assert status == 0, err
    every = json.loads(out)["errors"]
    assert {e["document"] for e in every} == {"bridging", "non_referring"}
    status, out, err = run(capsys, *common, "--format", "json", "--document", document)
    assert status == 0, err
    chosen = json.loads(out)
    expected = [e for e in every if e["document"] == document]
    assert chosen["errors"] == expected and expected
    counted = sum(n for kinds in chosen["counts"].values() for n in kinds.values())
    assert counted == len(expected)
    status, out, _ = run(capsys, *common, "--format", "csv", "--document", document)
    rows = out.strip().splitlines()[1:]
    assert status == 0 and rows and all(row.startswith(f"{document},") for row in rows)
    status, out, _ = run(capsys, *common, "--document", document)
    listed = out.splitlines()[4:]
    assert status == 0 and len(listed) == len(expected) and all(line.startswith(document) for line in listed)


def test_errors_of_an_unknown_document_is_a_usage_error(capsys, tmp_path):
    key, response = _two_documents(tmp_path)
    status, out, err = run(capsys, "errors", key, response, "--conventions", "ua", "--document", "nowhere")
    assert status == 2 and not out and "no document 'nowhere'" in err


@pytest.mark.parametrize("argv, words", [
    (("--distinct",), "has a fix of its own"),
])
def test_errors_options_without_meaning_under_ua_are_refused_not_ignored(capsys, argv, words):
    status, out, err = run(capsys, "errors", KEY, RESPONSE, "--conventions", "ua", *argv)
    assert status == 2 and not out and words in err and err.count("\n") == 1


def test_errors_sorted_by_impact_under_ua_put_the_largest_price_first(capsys, tmp_path):
    key, response = _two_documents(tmp_path)
    common = ("errors", key, response, "--conventions", "ua", "--format", "json")
    status, out, _ = run(capsys, *common)
    every = json.loads(out)["errors"]
    status, out, _ = run(capsys, *common, "--sort", "impact")
    ranked = json.loads(out)["errors"]
    gains = [max(e["price"].values()) for e in ranked]
    assert status == 0 and sorted(map(json.dumps, ranked)) == sorted(map(json.dumps, every))
    assert gains == sorted(gains, reverse=True) and gains[0] > gains[-1]


def test_score_options_no_ua_score_reads_are_warned_about_and_change_nothing(capsys):
    plain = run(capsys, "score", KEY, RESPONSE, "--conventions", "ua", "--format", "json")
    status, out, err = run(capsys, "score", KEY, RESPONSE, "--conventions", "ua", "--format", "json",
                           "--weights", "W1", "--ace-variant", "ace05")
    assert status == 0 and out == plain[1] and not plain[2]
    warned = err.splitlines()
    assert len(warned) == 2 and "--weights" in warned[0] and "--ace-variant" in warned[1]
    assert all("no score under --conventions ua reads it" in line for line in warned)


def test_score_reads_the_columns_it_scores_and_errors_reads_them_all(capsys, tmp_path):
    """A damaged DISCOURSE_DEIXIS cell: `score` of the identity chains does not read that column
    (its scores are those of the undamaged file); `errors` reads every column and refuses it at
    its line; `score --discourse-deixis` reads it and refuses it too."""
    lines = Path(RESPONSE).read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.strip() and not line.startswith("#"))
    cells = lines[at].split()
    cells[12] = "(EntityID=1-DD"  # no MarkableID
    damaged = tmp_path / "damaged.CONLLUA"
    damaged.write_text("".join(lines[:at] + ["  ".join(cells) + "\n"] + lines[at + 1:]), encoding="utf-8")
    _, whole, _ = run(capsys, "score", KEY, RESPONSE, "--format", "json", "--no-cache")
    status, out, _ = run(capsys, "score", KEY, str(damaged), "--format", "json", "--no-cache")
    assert status == 0 and json.loads(out)["metrics"] == json.loads(whole)["metrics"]
    for argv in (("errors", KEY, str(damaged)), ("score", KEY, str(damaged), "--discourse-deixis")):
        status, out, err = run(capsys, *argv, "--no-cache")
        assert status == 1 and not out and f"{damaged}:{at + 1}" in err and "needs a MarkableID" in err

"""`corefwb plot` and the chart data (workbench/charts.py): Chen & Ng's Figure 3 from their samples
equals their Table 1, figures are reproducible byte for byte, and matplotlib stays optional."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from paper_tables import CHEN_NG_TABLE1, printed_tolerance

from workbench.charts import SWEEP_PANELS, document_scores, error_counts, sweep
from workbench.cli import main
from workbench.session import Session
from metrics.measures.weights import W4

ROOT = Path(__file__).resolve().parent.parent
CHEN = ROOT / "samples" / "chen-ng"
LETTERS = "abcde"
RESPONSES = [str(CHEN / f"response-{x}.conll") for x in LETTERS]
KEY = str(CHEN / "key.conll")


def run(capsys, *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exit:
        code = exit.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_sweep_of_the_five_responses_is_table_1() -> None:
    data = sweep(Session.load(KEY, RESPONSES), list(LETTERS))
    assert [name for name, _ in data.weights] == ["W1", "W2", "W3", "W4", "W5"]
    for i, letter in enumerate(LETTERS):
        row = CHEN_NG_TABLE1[letter]
        for lmetric, ometric in SWEEP_PANELS:
            printed = row[lmetric][2]
            assert data.lines[lmetric]["W4"][i] == pytest.approx(float(printed), abs=printed_tolerance(printed))
            printed = row[ometric][2]
            assert data.official[lmetric][i] == pytest.approx(float(printed), abs=printed_tolerance(printed))


def test_the_users_weights_are_one_more_line() -> None:
    from metrics.measures.weights import Weights

    data = sweep(Session.load(KEY, RESPONSES[:2]), ["a", "b"], [("yours", Weights(1, 1, 0, 1))])
    assert [name for name, _ in data.weights][-1] == "yours" and len(data.lines["lmuc"]["yours"]) == 2


def test_error_and_document_data_are_the_engines() -> None:
    session = Session.load(KEY, RESPONSES[:2])
    counts = error_counts(session, ["a", "b"], W4)
    for system in range(2):
        records = session.classify(W4, None, system)
        assert sum(n for row in counts.counts[system].values() for n in row.values()) == len(records)
    scores = document_scores(session, ["a", "b"], W4)
    assert scores.f1[0] == [100 * session.score(W4, ["conll"], 0).micro["conll"].f1]


@pytest.mark.parametrize("kind", ["sweep", "errors", "documents", "stages"])
def test_figures_in_every_format_and_the_same_bytes_twice(capsys, tmp_path, kind) -> None:
    magic = {"svg": b"<?xml", "png": b"\x89PNG", "pdf": b"%PDF"}
    for fmt, start in magic.items():
        out = tmp_path / f"{kind}.{fmt}"
        assert run(capsys, "plot", kind, KEY, *RESPONSES[:2], "--output", str(out))[0] == 0
        assert out.read_bytes().startswith(start)
    again = tmp_path / "again.svg"
    run(capsys, "plot", kind, KEY, *RESPONSES[:2], "--output", str(again))
    svg = (tmp_path / f"{kind}.svg").read_bytes()
    assert svg == again.read_bytes() and b"<dc:date>" not in svg


def test_without_matplotlib_it_says_how_to_install(capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    code, out, err = run(capsys, "plot", "sweep", KEY, RESPONSES[0], "--output", str(tmp_path / "f.svg"))
    assert code == 2 and out == "" and err.count("\n") == 1 and "pip install 'coref-workbench[plot]'" in err
    assert not (tmp_path / "f.svg").exists()


def test_a_figure_needs_a_known_extension(capsys, tmp_path) -> None:
    code, _, err = run(capsys, "plot", "sweep", KEY, RESPONSES[0], "--output", str(tmp_path / "f.jpg"))
    assert code == 2 and "--output" in err


def test_the_stages_figure_is_the_k_and_k_progression() -> None:
    from workbench.charts import kk_stages

    session = Session.load(KEY, RESPONSES[:2])
    data = kk_stages(session, ["a", "b"])
    report = session.kk_report(system=1)
    assert data.f1[1] == [100 * report.baseline["conll"]] + [100 * v["conll"] for _, v in report.progression]
    assert data.stages[0] == "none" and len(data.stages) == 8

"""What a newcomer found silent or unlabelled (newcomer4's leftovers), each said: a metric with
nothing to count in the workbench's scores panel (1), `--clusters-field` without a jsonlines input
(2), a fifth weight without zeros (3), a CorefUD preset on CoNLL-2012 files (4), the charts' count
ticks, status line and stages title (5), the compare lists' metric (6)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from app_support import screen_text, settle, workbench_terminal  # noqa: F401  (autouse: colour, root as cwd)

from metrics.measures.score import Score
from workbench.cli import main
from workbench.output import ZERO_OVER_ZERO
from workbench.tui.rows import ScoreLine

ROOT = Path(__file__).resolve().parent.parent


def _gum_conllu_pair(directory: Path) -> tuple[str, str]:
    """The GUM excerpt's CoNLL-U key and xrenner's response written as CoNLL-U on it: no zeros."""
    key = str(ROOT / "tests/data/formats/gum2.conllu")
    response = directory / "response.conllu"
    assert main(["convert", str(ROOT / "tests/data/formats/gum2.response.conll"), str(response), "--key", key]) == 0
    return key, str(response)


def test_the_scores_panel_says_zero_anaphora_had_nothing_to_count(tmp_path):
    """Item 1: `Zero anaph. 0.00 0.00 0.00` had no word that there was nothing to count; the line
    under the table now says it, in `score`'s words, at both widths."""
    from workbench.session import LoadOptions
    from workbench.tui.app import Workbench

    key, response = _gum_conllu_pair(tmp_path)

    async def body(size: tuple[int, int]) -> str:
        app = Workbench(key, [response], LoadOptions(cache=False, conventions="corefud"))
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            note = app.query_one("#score-note")
            assert note.display and "Zero anaph." in app.query_one("#scores").get_row("zero")[0].plain
            return str(note.render())

    for size in ((100, 30), (200, 50)):
        said = asyncio.run(body(size))
        assert said == f"Zero anaph.: nothing to count in the key or the response {ZERO_OVER_ZERO}", size


def test_the_note_is_said_where_score_says_it_only(tmp_path):
    """Under CoNLL's conventions `score` says no 0/0 (its 0.00 is no corefud-scorer's), nor does
    the panel: the hostile pair's Anchor EM has nothing to count, and no line says so."""
    from app_support import hostile_pair
    from workbench.tui.app import Workbench

    async def body() -> bool:
        app = Workbench(*hostile_pair(tmp_path))
        async with app.run_test(size=(120, 30)) as pilot:
            await settle(app, pilot)
            assert app.result.micro["anchor_em"].recall_den == app.result.micro["anchor_em"].precision_den == 0
            return app.query_one("#score-note").display

    assert not asyncio.run(body())


def test_the_note_names_what_had_nothing_in_each_scope():
    """A row whose document alone had nothing (the corpus has zeros elsewhere) says so; a row with
    something to count is never named; the shown scope alone counts below 130 columns."""
    from workbench.tui.scores import ScoresPanel

    empty, some = Score(0, 0, 0, 0), Score(1, 2, 1, 3)
    lines = [ScoreLine("muc", "MUC", some, some), ScoreLine("zero", "Zero anaph.", empty, some),
             ScoreLine("mor", "MOR", empty, empty)]
    panel = ScoresPanel()
    assert panel.nothing_counted(lines) == ["Zero anaph. (this document)", "MOR"]
    panel.scope = "corpus"
    assert panel.nothing_counted(lines) == ["MOR"]
    panel.scope = "document"
    assert panel.nothing_counted(lines) == ["Zero anaph.", "MOR"]
    assert panel.nothing_counted(lines[:1]) == []


def test_clusters_field_without_a_jsonlines_input_is_a_usage_error(tmp_path, capsys):
    """Item 2: `--clusters-field foo` on CoNLL-2012 or CoNLL-U inputs did nothing and said nothing;
    it is refused (exit 2, one line naming each input's format), as `--zero-match` outside CorefUD."""
    conll, conllu = str(ROOT / "tests/data/formats/gum2.conll"), str(ROOT / "tests/data/formats/gum2.conllu")
    for key, response in ((conll, conll), (conllu, conllu), (conll, conllu)):
        assert main(["score", key, response, "--clusters-field", "foo"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--clusters-field foo: applies to jsonlines inputs only" in err, err
        assert f"{key} is {key.rsplit('.', 1)[1]}" in err and f"{response} is {response.rsplit('.', 1)[1]}" in err
    assert main(["errors", conll, conll, "--clusters-field", "foo", "--response-format", "conllu"]) == 2
    assert "is conllu" in capsys.readouterr().err  # a format given is the one said


def test_clusters_field_passes_where_an_input_is_jsonlines_or_cannot_be_told(tmp_path, capsys):
    """A jsonlines response on a CoNLL key takes the field (renamed here: read by it, scored as
    with `clusters`); the default field and standard input are never refused."""
    conll, jsonl = ROOT / "tests/data/formats/gum2.conll", ROOT / "tests/data/formats/gum2.jsonl"
    renamed = tmp_path / "renamed.jsonl"
    renamed.write_text(jsonl.read_text(encoding="utf-8").replace('"clusters"', '"foo"'), encoding="utf-8")
    assert main(["score", str(conll), str(jsonl), "--format", "json", "--no-cache"]) == 0
    plain = capsys.readouterr().out
    assert main(["score", str(conll), str(renamed), "--clusters-field", "foo", "--format", "json", "--no-cache"]) == 0
    assert capsys.readouterr().out.replace(str(renamed), str(jsonl)) == plain
    assert main(["score", str(conll), str(conll), "--clusters-field", "clusters"]) == 0
    capsys.readouterr()
    from workbench.session import check_clusters_field

    check_clusters_field("foo", str(conll), "auto", ["-"], "auto")  # standard input: told only by reading it


def test_a_fifth_weight_is_refused_without_zeros_and_said_where_they_are(tmp_path, capsys):
    """Item 3: `--weights 1,0.75,0.5,1,0.2` under CoNLL's conventions was taken and dropped from
    the header; CoNLL-2012 has no zeros to weigh, so it is refused (exit 2, one line), and under
    CorefUD's the header says the zero's weight (it read as if zeros weighed w_pro)."""
    from metrics.measures.weights import Weights

    conll = str(ROOT / "tests/data/formats/gum2.conll")
    for command, responses in (("score", [conll]), ("errors", [conll]), ("compare", [conll, conll])):
        assert main([command, conll, *responses, "--weights", "1,0.75,0.5,1,0.2"]) == 2, command
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--weights: a fifth number weighs zeros" in err, err
    assert main(["score", conll, conll, "--weights", "1,0.75,0.5,1", "--metrics", "lmuc"]) == 0
    assert "weights nam=1 nom=0.75 pro=0.5 sing=1\n" in capsys.readouterr().out
    key, response = _gum_conllu_pair(tmp_path)
    capsys.readouterr()
    assert main(["score", key, response, "--weights", "1,0.75,0.5,1,0.2", "--metrics", "lmuc"]) == 0
    assert "; weights nam=1 nom=0.75 pro=0.5 sing=1 zero=0.2 (percentages)" in capsys.readouterr().out
    assert Weights(1, 0.5, 0.25, 1, 0).describe() == "nam=1 nom=0.5 pro=0.25 sing=1 zero=0"
    assert Weights(1, 0.5, 0.25, 1).describe() == "nam=1 nom=0.5 pro=0.25 sing=1"


def test_a_corefud_preset_on_conll_files_names_its_choice_of_conllu(tmp_path, capsys):
    """Item 4: `--preset crac22` on CoNLL-2012 files said `expected 10 TAB-separated CoNLL-U
    columns, found 12`, not that the preset chose CoNLL-U; now a usage error names it (exit 2)."""
    conll, conllu = str(ROOT / "tests/data/formats/gum2.conll"), str(ROOT / "tests/data/formats/gum2.conllu")
    for key, response, named in ((conll, conll, conll), (conllu, conll, conll), (conll, conllu, conll)):
        for preset in ("crac22", "crac23"):
            assert main(["score", key, response, "--preset", preset]) == 2
            err = capsys.readouterr().err
            assert err.count("\n") == 1, err
            assert f"--preset {preset} is under --conventions corefud, which reads CoNLL-U, and {named} is conll" in err
    assert main(["compare", conllu, conllu, conll, "--preset", "crac22"]) == 2
    assert f"and {conll} is conll" in capsys.readouterr().err
    key, response = _gum_conllu_pair(tmp_path)
    capsys.readouterr()
    assert main(["score", key, response, "--preset", "crac22", "--metrics", "muc"]) == 0  # CoNLL-U: as before
    assert main(["score", conll, conll, "--preset", "conll12"]) == 0  # a preset under CoNLL's conventions


def test_count_ticks_are_whole_and_the_fewest_steps_of_1_2_5():
    """Item 5: the Documents histogram's count axis had ticks 0.17, 0.33 (plotext's own); a count
    axis's ticks are whole numbers, from 0, the smallest step of 1, 2 or 5 x 10^k giving at most
    `MOST_TICKS` steps (brute force over every step of that form)."""
    from workbench.tui.charts import MOST_TICKS, whole_ticks

    steps = sorted(f * 10 ** k for f in (1, 2, 5) for k in range(6))
    for top in range(0, 20001):
        ticks = whole_ticks(top)
        step = next(s for s in steps if top <= MOST_TICKS * s)
        assert ticks == list(range(0, top + 1, step)), top
        assert all(isinstance(t, int) for t in ticks) and len(ticks) - 1 <= MOST_TICKS


def test_the_charts_line_says_what_each_tab_covers_and_the_stages_title_its_scope():
    """Item 5: `errors of this document (d: corpus)` stood under the Sweep and Documents tabs, which
    always cover the corpus; the K&K stages title did not say whether it was the document's."""
    from app_support import SAMPLE_KEY, SAMPLE_RESPONSE
    from workbench.session import LoadOptions
    from workbench.tui.app import Workbench
    from workbench.tui.charts import ChartsScreen

    async def body() -> None:
        app = Workbench(SAMPLE_KEY, [SAMPLE_RESPONSE], LoadOptions(cache=False))
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(app, pilot)
            await pilot.press("f8")
            screen = app.screen
            assert isinstance(screen, ChartsScreen)
            for _ in range(400):
                await pilot.pause(0.05)
                if screen.sweep_data is not None and screen.stage_data is not None:
                    break

            async def line(tab: str) -> str:
                screen.query_one("#charts").active = tab
                await pilot.pause()
                return str(screen.query_one("#charts-status").render())

            assert (await line("tab-sweep")).startswith("scores of the corpus; ")
            assert (await line("tab-documents")).startswith("every document of the corpus; ")
            assert (await line("tab-errors")).startswith("errors of this document (d: corpus); ")
            assert (await line("tab-stages")).startswith("K&K stages of this document (d: corpus); ")
            await pilot.pause(0.2)
            assert "CoNLL F1 of this document (BCA's reading)" in "\n".join(screen_text(app))
            await pilot.press("d")
            for _ in range(400):
                await pilot.pause(0.05)
                if screen.stage_data is not None and screen.stage_data.document is None:
                    break
            assert (await line("tab-stages")).startswith("K&K stages of the corpus (d: this document); ")
            await pilot.pause(0.2)
            assert "CoNLL F1 of the corpus (BCA's reading)" in "\n".join(screen_text(app))
            assert (await line("tab-sweep")).startswith("scores of the corpus; ")

    asyncio.run(body())


def test_compare_lists_name_their_score(tmp_path):
    """Item 6: compare mode's documents list showed `sysA sysB ΔF`, and a CRAC run's datasets list
    `sysA sysB`, without naming the metric: the documents' title names CoNLL F1, and so does the
    datasets' header where it fits (two systems at 100 and 200 columns; three at 100: `CoNLL`)."""
    from test_crac import make_run

    from metrics.formats.datasets import pair
    from metrics.measures.weights import W4
    from metrics.statistics.crac import score_layout
    from workbench.session import LoadOptions
    from workbench.tui.app import Workbench
    from workbench.tui.datasets import SHOWN, DatasetRun
    from workbench.tui.documents import DocumentList

    async def titles(systems: int, size: tuple[int, int]) -> tuple[str, str]:
        folder = tmp_path / f"{systems}-{size[0]}"
        folder.mkdir()
        layout = pair(str(folder / "key"), make_run(folder, {"aa_one": 2, "bb_two": 1}, noises=(0.3, 0.6, 0.5)[:systems]))
        options = LoadOptions(conventions="corefud", match="head", singletons="remove")
        run = DatasetRun(layout, ["A", "B", "C"][:systems], options.corefud)
        run.results = score_layout(run.layout, None, {SHOWN: run.settings}, 1)
        key, responses = run.files(0)
        app = Workbench(key, responses, options, weights=W4, run=run)
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            if size[0] < 130:
                await pilot.press("f6")
                await pilot.pause()
            header = str(app.query_one("#datasets").columns["name"].label)
            return str(app.query_one(DocumentList).border_title), header

    for size in ((100, 30), (200, 50)):
        documents, datasets = asyncio.run(titles(2, size))
        assert documents.startswith("documents (2/2), CoNLL F1, by "), (size, documents)
        assert datasets == " datasets (1/2) CoNLL F1", (size, datasets)
    documents, datasets = asyncio.run(titles(3, (100, 30)))
    assert datasets == " datasets (1/2) CoNLL"  # the name cell's 21 columns: the metric's label alone

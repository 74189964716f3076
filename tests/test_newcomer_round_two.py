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


def test_the_help_says_how_to_close_it_at_the_top():
    import asyncio

    from app_support import screen_text
    from workbench.tui.app import Workbench

    async def body():
        app = Workbench(KEY, RESPONSE, LoadOptions(cache=False))
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("f1")
            await pilot.pause()
            top = "\n".join(screen_text(app)[:4])
            assert "esc, F1 or q closes it" in top

    asyncio.run(body())


def test_i_sorts_the_errors_from_the_text_and_the_palette_has_it():
    import asyncio

    from workbench.tui.app import Workbench
    from workbench.tui.errorlist import ErrorPanel
    from workbench.tui.palette import system_commands
    from workbench.tui.text import DocumentText

    async def body():
        app = Workbench(KEY, RESPONSE, LoadOptions(cache=False))
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert isinstance(app.focused, DocumentText)
            await pilot.press("i")
            assert app.query_one(ErrorPanel).by_impact
            assert any("impact" in command.title for command in system_commands(app))

    asyncio.run(body())


def test_keys_never_go_into_a_hidden_widget():
    """At 100x30: F3, F8, Esc, n, n, then F6 shows every document with an empty filter (the
    keys went into the hidden filter box once); and a filter set is said in the status line."""
    import asyncio

    from app_support import screen_text, settle
    from workbench.tui.app import Workbench

    async def body():
        app = Workbench(KEY, RESPONSE, LoadOptions(cache=False))
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(app, pilot)
            for key in ("f3", "f8", "escape", "n", "n", "f6"):
                await pilot.press(key)
                await pilot.pause()
            screen = "\n".join(screen_text(app))
            assert "documents (2/2)" in screen and app.query_one("#doc-filter").value == ""
            await pilot.press("slash", "k", "o")
            await pilot.pause()
            assert "filter: 1/2 documents (F6)" in screen_text(app)[0]

    asyncio.run(body())


def test_the_counter_follows_the_order_that_ctrl_down_follows():
    import asyncio

    from app_support import screen_text, settle
    from workbench.tui.app import Workbench

    async def body():
        app = Workbench(KEY, RESPONSE, LoadOptions(cache=False))
        async with app.run_test(size=(200, 50)) as pilot:
            await settle(app, pilot)
            first = screen_text(app)[0]
            assert "GUM_news_korea  (1/2 by conll," in first  # it opens on the list's top (issue 44)
            await pilot.press("ctrl+down")
            await pilot.pause()
            assert "GUM_bio_moreau  (2/2 by conll," in screen_text(app)[0]

    asyncio.run(body())


def test_at_100_columns_the_scores_take_40_and_d_switches_their_scope():
    import asyncio

    from app_support import settle
    from workbench.output import percent
    from workbench.tui.app import Workbench
    from workbench.tui.scores import ScoresPanel
    from workbench.tui.text import DocumentText

    async def body():
        app = Workbench(KEY, RESPONSE, LoadOptions(cache=False))
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(app, pilot)
            panel = app.query_one(ScoresPanel)
            assert panel.size.width + 2 <= 40 and panel.scope == "corpus"
            assert app.query_one(DocumentText).size.width >= 50
            conll = next(row for row in panel._shown if row[0].startswith("CoNLL"))
            assert conll[1].strip() == percent(app.result.micro['conll'].f1)  # F1 first, as `corefwb score` prints it
            await pilot.press("d")
            await pilot.pause()
            assert panel.scope == "document" and "document (d: corpus)" in str(panel.border_title)
        app = Workbench(KEY, RESPONSE, LoadOptions(cache=False))
        async with app.run_test(size=(200, 50)) as pilot:
            await settle(app, pilot)
            assert app.query_one(ScoresPanel).scope is None

    asyncio.run(body())


def test_markers_of_a_shared_point_are_set_side_by_side():
    from workbench.tui.charts import spread_shared_points

    xs = spread_shared_points([[60.0, 50.0], [60.0, 51.0], [60.0, 50.0], [61.0, 52.0]])
    assert len({round(x[0], 6) for x in xs[:3]}) == 3 and xs[3][0] == 1.0   # three share system 1's 60.0
    assert xs[1][1] == 2.0 and xs[0][1] != xs[2][1]                          # two share system 2's 50.0
    assert abs(sum(x[0] for x in xs[:3]) / 3 - 1.0) < 1e-12                  # centred on the system


def test_at_100_columns_no_header_is_cut_and_the_status_keeps_its_end():
    import asyncio

    from app_support import screen_text, settle
    from workbench.tui.app import Workbench

    async def body():
        app = Workbench(KEY, RESPONSE, LoadOptions(cache=False))
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(app, pilot)
            lines = screen_text(app)
            header = next(line for line in lines if " cat " in line and "mention" in line)
            assert "…" not in header.split("│")[1]
            assert lines[0].rstrip().endswith("warnings (F5)")

    asyncio.run(body())


def test_the_delta_column_is_headed_only_once_the_weights_change():
    import asyncio

    from app_support import screen_text, settle
    from workbench.tui.app import Workbench

    async def body():
        app = Workbench(KEY, RESPONSE, LoadOptions(cache=False))
        async with app.run_test(size=(200, 50)) as pilot:
            await settle(app, pilot)
            assert "ΔF" not in "\n".join(screen_text(app)[:4])
            app.query_one("#preset-W1").press()
            await settle(app, pilot)
            assert "ΔF" in "\n".join(screen_text(app)[:4])

    asyncio.run(body())


def test_the_workbench_counts_follow_the_error_filters():
    import asyncio

    from app_support import settle
    from workbench.tui.app import Workbench
    from workbench.tui.errorlist import ErrorPanel

    async def body():
        app = Workbench(KEY, RESPONSE, LoadOptions(cache=False))
        async with app.run_test(size=(200, 50)) as pilot:
            await settle(app, pilot)
            panel = app.query_one(ErrorPanel)
            before = str(app.query_one("#error-counts").render())
            app.query_one("#error-category").value = "wrong_link"
            await pilot.pause()
            after = str(app.query_one("#error-counts").render())
            assert before != after
            rows = {line.split()[0]: line.split()[1:] for line in after.splitlines()[1:] if line.strip()}
            assert all(n == "0" for c, ns in rows.items() if c != "WL" for n in ns)
            assert sum(int(n) for n in rows["WL"]) == len(panel.shown)

    asyncio.run(body())

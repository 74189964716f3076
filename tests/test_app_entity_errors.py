"""The workbench's K&K list (`t`): per-entity errors, their mentions bracketed, the stages chart."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager

from app_support import SAMPLE_KEY, SAMPLE_RESPONSE, settle, workbench_terminal  # noqa: F401
from workbench.output import shown_document
from workbench.session import LoadOptions


@asynccontextmanager
async def entity_list(responses, size=(120, 40)):
    """The workbench on the sample (or several responses: compare mode), loaded and scored, with
    `t` pressed and the K&K analysis of the systems shown arrived: (app, pilot)."""
    from workbench.tui.app import Workbench

    app = Workbench(SAMPLE_KEY, responses, LoadOptions(cache=False))
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("t")
        for _ in range(200):
            await pilot.pause(0.05)
            if all(s in app.entity_errors for s in ([app.baseline, app.system] if app.comparing else [app.system])):
                await pilot.pause()
                break
        else:
            raise AssertionError("the K&K analysis did not arrive")
        yield app, pilot


def test_t_switches_the_list_and_n_brackets_an_entity_error() -> None:
    from workbench.tui.entityerrors import EntityErrorPanel
    from workbench.tui.errorlist import ErrorPanel
    from workbench.tui.navigation import shown
    from workbench.tui.text import DocumentText

    async def body():
        async with entity_list(SAMPLE_RESPONSE, (100, 30)) as (app, pilot):
            entity, per_mention = app.query_one(EntityErrorPanel), app.query_one(ErrorPanel)
            assert shown(entity) and not shown(per_mention)
            name = app.corpus.pairs[app.doc_index].name
            expected = [e for e in app.session.kk_report().errors if e.document == name]
            assert list(entity.rows) == expected and entity.border_title == f"entity errors ({len(expected)})"
            await pilot.press("n")
            await pilot.pause()
            selection = app.query_one(DocumentText)._selection
            first = expected[0]
            assert selection.mention == first.span and selection.role_of_span(first.mentions[0].span) == "error"
            # into the list and back: the hidden list never holds the focus
            entity.query_one("#kk-errors").focus()
            await pilot.press("t")
            await pilot.pause()
            assert shown(per_mention) and not shown(entity)
            assert app.focused is not None and shown(app.focused)

    asyncio.run(body())


def test_compare_mode_counts_both_systems_and_the_chart_has_the_stages() -> None:
    from workbench.tui.charts import ChartsScreen
    from workbench.tui.entityerrors import EntityErrorPanel

    async def body():
        async with entity_list([SAMPLE_RESPONSE, SAMPLE_KEY], (120, 40)) as (app, pilot):
            panel = app.query_one(EntityErrorPanel)
            assert [label for label, _ in panel._counts] == [app.labels()[app.baseline], app.labels()[app.system]]
            name = app.corpus.pairs[app.doc_index].name
            assert list(panel._counts[0][1]) == [e for e in app.entity_errors[app.baseline] if e.document == name]
            await pilot.press("f8")
            screen = app.screen
            assert isinstance(screen, ChartsScreen)
            for _ in range(200):
                await pilot.pause(0.05)
                if screen.stage_data is not None:
                    break
            data = screen.stage_data
            assert data.stages[0] == "none" and len(data.stages) == 8
            report = app.session.kk_report([name], system=0)  # the document's, as the chart's scope says
            assert data.f1[0] == [100 * report.baseline["conll"]] + [100 * v["conll"] for _, v in report.progression]
            assert data.f1[1][-1] == 100.0 or abs(data.f1[1][-1] - 100.0) < 1e-9

    asyncio.run(body())


def test_export_in_the_entity_list_writes_entity_errors(tmp_path) -> None:
    import json

    async def body():
        async with entity_list(SAMPLE_RESPONSE, (120, 40)) as (app, pilot):
            written = app.write_export("document", "json", str(tmp_path / "doc.json"))
            data = json.loads(open(written).read())
            name = app.corpus.pairs[app.doc_index].name
            assert data["taxonomy"] == "kk" and {e["document"] for e in data["errors"]} == {name}
            assert data["progression"][-1]["category"] == "missing_entity"
            written = app.write_export("corpus", "csv", str(tmp_path / "corpus.csv"))
            assert open(written).read().startswith("error type,")
            written = app.write_export("document", "markdown", str(tmp_path / "doc.md"))
            title = open(written).read().splitlines()[0]  # read by people: the name on screen
            assert title == f"## Kummerfeld & Klein errors: {shown_document(name)}"

    asyncio.run(body())


def test_i_and_c_leave_the_hidden_per_mention_list_alone() -> None:
    from workbench.tui.errorlist import ErrorPanel

    async def body():
        async with entity_list([SAMPLE_RESPONSE, SAMPLE_KEY], (120, 40)) as (app, pilot):
            panel = app.query_one(ErrorPanel)
            before = (panel.by_impact, panel.change_filter())
            await pilot.press("i", "c")
            await pilot.pause()
            assert (panel.by_impact, panel.change_filter()) == before

    asyncio.run(body())

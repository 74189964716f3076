"""`t` back to the UA relations' list (issue 42): the list it shows is not set again.

On the UA book `t` back to the relations' list took 0.3-1.4 s: its 12,759 rows were set again,
their counts counted again and the text's tokens indexed again each time; and the rows, set while
the list was still hidden (its table without a width), were never entered: the list came back
empty under its count.  Now the rows stay when they are of the same document and systems, and a
list filled while hidden is filled again once it has a width."""

from __future__ import annotations

from app_support import pilot_test, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)

from workbench.session import LoadOptions
from workbench.tui import relationerrors
from workbench.tui.app import Workbench
from workbench.tui.relationerrors import RelationErrorPanel
from workbench.tui.text import DocumentText

KEY = "tests/data/ua/codi/persuasion.key"
RESPONSE = "tests/data/ua/codi/persuasion.response"
OPTIONS = LoadOptions(conventions="ua", singletons="keep", split_antecedents=True)


@pilot_test
async def test_t_back_to_the_relations_list_keeps_its_rows_and_n_goes_on_from_its_cursor(monkeypatch):
    app = Workbench(KEY, [RESPONSE], OPTIONS)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        panel = app.query_one(RelationErrorPanel)
        rows, cells = panel.rows, panel.table._data
        await pilot.press("n")
        await pilot.press("n")
        await pilot.pause()
        second = app.query_one(DocumentText)._selection.mention
        set_again, indexed = [], []
        monkeypatch.setattr(RelationErrorPanel, "refill", lambda self: set_again.append(self))
        tokens = relationerrors.Tokens
        monkeypatch.setattr(relationerrors, "Tokens", lambda *args: indexed.append(args) or tokens(*args))
        for _ in range(3):  # per mention, K&K, the relations again
            await pilot.press("t")
            await settle(app, pilot)
        assert app.taxonomy == "ua" and panel.display
        assert not set_again and not indexed
        assert panel.rows is rows and panel.table._data is cells and panel.table.row_count == len(rows)
        await pilot.press("n")  # the cursor's row first (the selection was cleared), as after `set_rows`
        await pilot.pause()
        assert app.query_one(DocumentText)._selection.mention == second
        await pilot.press("n")
        await pilot.pause()
        assert panel.table.cursor_row == 2 and app.query_one(DocumentText)._selection.mention not in (None, second)


def test_the_text_s_tokens_are_indexed_once_per_pair(monkeypatch):
    from workbench.session import Session

    pair = Session.load(KEY, [RESPONSE], OPTIONS).corpora[0].pairs[0]
    made = []
    tokens = relationerrors.Tokens
    monkeypatch.setattr(relationerrors, "Tokens", lambda *args: made.append(args) or tokens(*args))
    first = relationerrors.token_index(pair)
    assert relationerrors.token_index(pair) is first and len(made) == 1
    document = pair.ua.document
    assert first == tokens(document.key, document.response, False).index


@pilot_test
async def test_a_list_filled_while_hidden_shows_its_rows_once_shown():
    """K&K's list is set again at each `t` to it, while it is still hidden: its rows are entered
    once it has its width (they were not: the second time it showed none under its count)."""
    from workbench.tui.entityerrors import EntityErrorPanel

    app = Workbench(KEY, [RESPONSE], OPTIONS)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        panel = app.query_one(EntityErrorPanel)
        for turn in range(2):
            for _ in range(2 if turn == 0 else 3):  # to K&K (per mention first), then once round
                await pilot.press("t")
                await settle(app, pilot)
            assert app.taxonomy == "kk" and panel.rows
            assert panel.table.row_count == len(panel.rows), turn

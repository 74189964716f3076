"""Compare mode (`corefwb KEY RESP_A RESP_B ...`) as a user drives it, and its snapshots.

The bundled GUM excerpt has the two xrenner responses (GUM mode and OntoNotes mode); Chen & Ng's
five responses test a switch among more than two.  Every number on screen is checked against the
engine computed here independently, and the view-models against brute forces."""

from __future__ import annotations

import pytest
from app_support import pilot_test, screen_text, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)
from hypothesis import given
from hypothesis import strategies as st

from metrics.measures.catalog import ALL_METRICS
from metrics.statistics.significance import Method, compare
from workbench.comparison import CHANGE_MARKS, Change, change_of, compare_records, most_different
from workbench.tui.app import Workbench
from workbench.tui.documents import DocumentList
from workbench.tui.errorlist import ErrorPanel
from workbench.tui.documentrows import select_documents
from text_reference import marked_mentions
from workbench.output import signed_points
from workbench.tui.rows import percent
from workbench.tui.text import DocumentText

KEY = "samples/gum/key.gum.conll"
GUM, ONTO = "samples/gum/response.gum.conll", "samples/gum/response.ontonotes.conll"
CHEN = "samples/chen-ng/key.conll"
CHEN_RESPONSES = [f"samples/chen-ng/response-{x}.conll" for x in "abcde"]
SMALL, LARGE = (100, 30), (200, 50)


def gum_pair() -> Workbench:
    return Workbench(KEY, [GUM, ONTO])


# ------------------------------------------------------------------------------ view-models

@given(st.dictionaries(st.text("abcdefgh", min_size=1, max_size=3), st.floats(-100, 100), max_size=40))
def test_most_different_are_the_largest_tenth_of_changes(deltas):
    marked = most_different(deltas)
    moved = {n: abs(d) for n, d in deltas.items() if abs(d) >= 0.005}
    if not moved:
        assert marked == set()
        return
    expected_count = min(len(moved), max(1, -(-len(deltas) // 10)))
    assert len(marked) == expected_count
    assert marked <= set(moved)
    smallest_marked = min(moved[n] for n in marked)
    assert all(moved[n] <= smallest_marked for n in set(moved) - marked)


def test_marked_mentions_in_compare_mode_label_key_baseline_and_compared():
    from metrics.formats.readers import read_documents

    key = read_documents(CHEN)[0]
    a = read_documents(CHEN_RESPONSES[0])[0]
    b = read_documents(CHEN_RESPONSES[1])[0]
    span = key.chains[0][0]
    marks = {m.span: m for m in marked_mentions(key, a, {}, "both", other=b, changes={span: "fixed"})}
    ids = lambda doc, s: next((lab for lab, c in zip(doc.chain_labels(), doc.chains) if s in c), "-")  # noqa: E731
    for s, mark in marks.items():
        expected = "/".join(ids(doc, s) for doc in (key, a, b))
        assert mark.label[1:].rstrip("+!~") == expected
    assert marks[span].label.endswith(CHANGE_MARKS["fixed"]) and marks[span].change == "fixed"
    pair = {m.span: m.label[1:] for m in marked_mentions(key, a, {}, "response", other=b)}
    assert all(label == f"{ids(a, s)}/{ids(b, s)}" for s, label in pair.items())


# ------------------------------------------------------------------------------ the workbench

@pilot_test
async def test_compare_mode_shows_both_systems_everywhere():
    app = gum_pair()
    async with app.run_test(size=LARGE) as pilot:
        await settle(app, pilot)
        session = app.session
        assert (app.baseline, app.system) == (0, 1)
        a, b = session.score(app.weights, None, 0), session.score(app.weights, None, 1)
        # documents: sorted by the change of CoNLL F1, largest loss first, the largest changes marked
        documents = app.query_one(DocumentList)
        deltas = {name: 100 * (sb["conll"].f1 - sa["conll"].f1)
                  for (name, sa), (_, sb) in zip(a.documents, b.documents)}
        order = [row.name for row in select_documents(documents.rows, "", documents.sort_key)]
        assert order == sorted(deltas, key=lambda n: (deltas[n], list(deltas).index(n)))
        assert {row.name for row in documents.rows if row.marked} == most_different(deltas)
        assert all(row.delta == pytest.approx(deltas[row.name]) for row in documents.rows)
        # scores: every system's corpus F1, the difference and its interval (the bootstrap's)
        expected = compare([a, b], ALL_METRICS, Method())
        table = app.query_one("#scores")
        for metric in ALL_METRICS:
            row = [str(cell) for cell in table.get_row(metric)]
            assert row[1].strip() == percent(a.micro[metric].f1).strip() and row[2].strip() == percent(b.micro[metric].f1).strip()
            # as `corefwb compare` writes them (2 decimals): the panel has the room at this size
            assert row[3].strip() == signed_points(100 * (b.micro[metric].f1 - a.micro[metric].f1), 2)
            interval = expected.differences[0][metric].interval
            assert row[4].strip() == f"[{signed_points(100 * interval.low, 2)},{signed_points(100 * interval.high, 2)}]"
        # text: key/A/B chain ids, and the changed mentions tinted
        name = session.corpora[0].pairs[app.doc_index].name
        changes = {(c.span): c.kind for c in app.document_changes(name)}
        atoms = [atom for line in app.query_one(DocumentText)._layout.lines for atom in line if atom.role == "close"]
        assert atoms and all(atom.text.count("/") >= 2 for atom in atoms if "," not in atom.text)
        for atom in atoms:
            kind = changes.get(atom.span)
            assert atom.change == (kind if kind != "same" else None)
        assert {atom.change for atom in atoms} >= {"fixed", "introduced"}
        # errors: every mention with an error under A or B, with both categories
        records_a = [r for r in session.classify(app.weights, [name], 0)]
        records_b = [r for r in session.classify(app.weights, [name], 1)]
        panel = app.query_one(ErrorPanel)
        assert [(c.a and c.a.category, c.b and c.b.category) for c in panel.rows] == [
            (ra and ra.category, rb and rb.category) for ra, rb in compare_records(records_a, records_b)]
        text = "\n".join(screen_text(app))
        assert "ΔF = ontonotes - gum" in text and "text: both · key/gum/ontonotes" in text


@pilot_test
async def test_the_change_filter_lists_fixed_introduced_or_changed_errors():
    app = gum_pair()
    async with app.run_test(size=LARGE) as pilot:
        await settle(app, pilot)
        panel = app.query_one(ErrorPanel)
        every = list(panel.rows)
        seen = {}
        for kind in ("fixed", "introduced", "changed", "same"):
            await pilot.press("c")
            await pilot.pause()
            assert panel.change_filter() == kind
            assert panel.shown == [c for c in every if c.kind == kind]
            seen[kind] = len(panel.shown)
        await pilot.press("c")
        await pilot.pause()
        assert panel.change_filter() is None and len(panel.shown) == len(every)
        assert seen["fixed"] and seen["introduced"] and sum(seen.values()) == len(every)
        app.show_changes("fixed")  # the palette's entry
        await pilot.pause()
        assert all(c.kind == "fixed" and c.a is not None and c.b is None for c in panel.shown)
        text = "\n".join(screen_text(app))
        assert " fix " in text and "fixed  new" in text


@pilot_test
async def test_f9_swaps_two_systems_from_memory():
    app = gum_pair()
    async with app.run_test(size=LARGE) as pilot:
        await settle(app, pilot)
        before = {row.name: row.delta for row in app.query_one(DocumentList).rows}

        def types_drawn() -> dict:
            return {atom.span: atom.type for line in app.query_one(DocumentText)._layout.lines
                    for atom in line if atom.role == "close"}

        drawn = types_drawn()
        await pilot.press("f9")
        await pilot.pause()
        assert types_drawn() == drawn  # a span only one system has keeps its type whichever is the baseline
        # both systems were scored and classified: the swap redraws without computing them again
        assert (app.baseline, app.system) == (1, 0)
        after = {row.name: row.delta for row in app.query_one(DocumentList).rows}
        assert all(after[n] == pytest.approx(-before[n]) for n in before)
        await settle(app, pilot)
        assert "ΔF = gum - ontonotes" in "\n".join(screen_text(app))
        assert all(c.kind != "fixed" or c.b is None for c in app.query_one(ErrorPanel).rows)


@pytest.mark.parametrize("size", [SMALL, LARGE])
@pilot_test
async def test_the_documents_list_writes_delta_f_as_compare_and_the_scores_panel_do(size):
    """ΔF with two decimals (-32.07, not -32.1) at 100x30 (the list shown by F6) and 200x50, as
    `corefwb compare` and the scores panel write it: the list's column had one cell fewer."""
    app = gum_pair()
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        if size == SMALL:
            await pilot.press("f6")
            await pilot.pause()
        documents = app.query_one(DocumentList)
        table = documents.query_one("#documents")
        cells = [str(table.get_row(str(row.index))[-1]) for row in documents.rows]
        assert cells == [signed_points(row.delta, 2).rjust(7) for row in documents.rows]
        assert any(abs(row.delta) >= 10 for row in documents.rows)  # the two-digit case that lost a decimal


@pilot_test
async def test_f9_compares_the_next_system_with_the_baseline():
    app = Workbench(CHEN, CHEN_RESPONSES)
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        compared = [app.system]
        for _ in range(4):
            await pilot.press("f9")
            await settle(app, pilot)
            compared.append(app.system)
            assert app.baseline == 0
            b = app.session.score(app.weights, ["conll"], app.system).micro["conll"].f1
            assert app.result.micro["conll"].f1 == b
        assert compared == [1, 2, 3, 4, 1]


@pilot_test
async def test_one_response_is_not_compare_mode():
    app = Workbench(KEY, [GUM])
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        await pilot.press("f9")
        await pilot.press("c")
        await settle(app, pilot)
        assert not app.comparing and app.system == 0
        assert not app.query_one("#error-change").display
        text = "\n".join(screen_text(app))
        assert "f9 Switch" not in text and "ΔF =" not in text


def test_change_reads_as_the_shown_record():
    from metrics.errors.chen_ng.records import Category, ErrorRecord, Mention
    from metrics.model import MentionType

    def record(category):
        return ErrorRecord("d", category, Mention((1, 2), "w", MentionType.NAME), None, None, None, None, None, "")

    a, b = record(Category.MISSING_MENTION), record(Category.FALSE_NEW)
    assert Change(a, None).kind == "fixed" and Change(a, None).category is Category.MISSING_MENTION
    assert Change(None, b).kind == "introduced" and Change(a, b).kind == "changed" == change_of(a, b)
    assert Change(a, b).category is Category.FALSE_NEW and Change(a, a).kind == "same"


# ------------------------------------------------------------------------------ snapshots

def _settled(keys: tuple[str, ...] = ()):
    async def run(pilot) -> None:
        await settle(pilot.app, pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot.app, pilot)
        pilot.app.clear_notifications()
        await pilot.pause()

    return run


def test_snapshot_compare_mode(snap_compare):
    assert snap_compare(gum_pair(), terminal_size=LARGE, run_before=_settled())


def test_snapshot_compare_mode_small_no_color(snap_compare, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(gum_pair(), terminal_size=SMALL, run_before=_settled(("c",)))


def test_snapshot_compare_mode_swapped_light(snap_compare):
    async def run(pilot) -> None:
        pilot.app.theme = "corefwb-light"
        await _settled(("f9",))(pilot)

    assert snap_compare(gum_pair(), terminal_size=LARGE, run_before=run)


@pytest.mark.parametrize("no_color", [False, True])
def test_snapshot_compare_mode_documents_scatter(snap_compare, monkeypatch, no_color):
    """The charts' documents tab in compare mode: the compared system against the baseline (the
    points are `o`, the diagonal `.`: readable without colour)."""
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    async def run(pilot) -> None:
        await settle(pilot.app, pilot)
        await pilot.press("f8")
        for _ in range(200):
            await pilot.pause(0.05)
            if getattr(pilot.app.screen, "document_data", None) is not None:
                break
        pilot.app.screen.query_one("#charts").active = "tab-documents"
        pilot.app.clear_notifications()
        await pilot.pause(0.2)

    assert snap_compare(gum_pair(), terminal_size=LARGE, run_before=run)

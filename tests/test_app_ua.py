"""The workbench under --conventions ua, on a CODI-CRAC 2022 dialogue and a response derived from
it (tests/data/ua/codi): the relations in the text and chains views, their keys, their errors."""

from __future__ import annotations

from app_support import chain_text, laid_text, pilot_test, screen_text, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)

from workbench.session import LoadOptions
from workbench.tui.app import Workbench
from workbench.tui.chains import ChainRow
from workbench.tui.relationerrors import RelationErrorPanel
from workbench.tui.text import DocumentText
from workbench.tui.views import ChainLines

KEY = "tests/data/ua/codi/persuasion.key"
RESPONSE = "tests/data/ua/codi/persuasion.response"
OPTIONS = LoadOptions(conventions="ua", singletons="keep", split_antecedents=True)


def dialogue(*responses: str) -> Workbench:
    return Workbench(KEY, list(responses or [RESPONSE]), OPTIONS)


def after(*keys: str):
    async def run(pilot) -> None:
        await settle(pilot.app, pilot)
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        await settle(pilot.app, pilot)

    return run


def test_snapshot_100x30(snap_compare):
    assert snap_compare(dialogue(), terminal_size=(100, 30), run_before=after())


def test_snapshot_200x50(snap_compare):
    assert snap_compare(dialogue(), terminal_size=(200, 50), run_before=after())


def test_snapshot_chains_with_relations(snap_compare):
    assert snap_compare(dialogue(), terminal_size=(160, 48), run_before=after("f3"))


def test_snapshot_an_error_selected(snap_compare):
    assert snap_compare(dialogue(), terminal_size=(160, 48), run_before=after("n", "n", "n"))


def _text(app) -> str:
    return "\n".join(screen_text(app))


@pilot_test
async def test_each_relation_is_drawn_and_its_key_hides_it():
    app = dialogue()
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        text = app.query_one(DocumentText)
        drawn = laid_text(text)
        # the key's expletive "it", non-referring in the key only; a bridging anaphor; a plural
        # entity's split antecedents (key and response differ); a discourse-deixis markable
        for glyph in ("[it]¬key", "→6:undersp-rel/30:undersp-rel", "[them]P9/9⊃6+8/", "]D1"):
            assert glyph in drawn, glyph
        assert "b → bridging" in str(text.border_subtitle)
        for key, glyph in (("b", "→"), ("a", "⊃"), ("x", "]D"), ("r", "¬")):
            await pilot.press(key)
            await pilot.pause()
            drawn = laid_text(text)
            assert glyph not in drawn, key
            assert f"{key}" in str(text.border_subtitle)
        assert str(text.border_subtitle).count("off") == 4
        await pilot.press("b")
        await pilot.pause()
        assert "→" in laid_text(text)


@pilot_test
async def test_chains_view_lists_deixis_chains_non_referring_and_split_antecedents():
    app = dialogue()
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("f3")
        await pilot.pause()
        keys = chain_text(app.query_one("#key-chains", ChainLines))
        assert "KD1" in keys and "discourse deixis" in keys
        assert "K¬" in keys and "non-referring markables" in keys
        assert "⊃ split antecedents K6 K8" in keys
        assert "→ K" in keys  # a bridging anaphor's line names its anchor's entity
        await pilot.press("x")
        await pilot.pause()
        assert "KD1" not in chain_text(app.query_one("#key-chains", ChainLines))


@pilot_test
async def test_relation_errors_listed_first_with_prices_and_t_cycles_the_lists():
    from workbench.session import Session

    expected = Session.load(KEY, [RESPONSE], OPTIONS).ua_errors(0)
    app = dialogue()
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        panel = app.query_one(RelationErrorPanel)
        assert panel.display and panel.rows == expected and len(expected) == 17
        assert "relation errors (17)" in _text(app)
        await pilot.press("n")
        await pilot.pause()
        text = app.query_one(DocumentText)
        assert text._selection.mention == (4, 4)  # the first error: the key's expletive "it"
        assert "non-referring in the key" in str(text.border_subtitle)
        order = []
        for _ in range(3):
            await pilot.press("t")
            await settle(app, pilot)
            order.append(app.taxonomy)
        assert order == ["chen-ng", "kk", "ua"]


@pilot_test
async def test_compare_mode_counts_the_relation_errors_per_system():
    app = dialogue(RESPONSE, KEY)  # the key as the compared system: no errors
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        counts = str(app.query_one("#ua-counts").render())
        assert counts.splitlines() == ["errors: A/B", "BR MISS 1/0  SPUR 2/0", "BR ANCH 2/0  REL  1/0",
                                       "NR REF  5/0  NREF 5/0", "SA MISS 0/0  XTRA 0/0", "SA MEMB 1/0"]


def test_chain_rows_without_relations_are_unchanged():
    row = ChainRow("key", "1", [], [], 0)
    assert row.note == "" and row.notes is None


def _example_spans(name: str):
    from metrics.corpus.ua_spans import token_spans
    from metrics.formats.ua import read_ua

    key, response = (read_ua(f"tests/data/ua/{name}.{side}")[0] for side in ("key", "response"))
    return token_spans(key, response, keep_singletons=True, keep_zeros=False)


def test_overlay_of_the_worked_examples_says_each_side_and_hides_what_is_off():
    """The docs' examples (docs/ua.md), drawn: labels per side in "both", one side otherwise."""
    from workbench.tui.relations import RELATIONS, overlay

    every = frozenset(RELATIONS)
    split = _example_spans("split")  # Mary met John. They left. She smiled.  They: {1, 2} / {2}
    they = split.key_relations.entity_spans("3")[0]
    assert overlay(split, "both", every).endings[they] == "⊃1+2/2"
    assert overlay(split, "key", every).endings[they] == "⊃1+2"
    assert overlay(split, "response", every).endings[they] == "⊃2"
    assert they not in overlay(split, "both", every - {"split"}).endings
    bridging = _example_spans("bridging")
    ends = overlay(bridging, "both", every).endings
    by_word = {bridging.key.words[span[1]]: ending for span, ending in ends.items()}
    # the door: to the house in the key, to "it" (the house's entity) in the response: one entity
    # and relation, shown once; the roof: the key's alone; the garden: the response's alone
    assert by_word == {"door": "→1:part-of", "roof": "→1:part-of/-", "garden": "→-/1:other"}
    non_referring = _example_spans("non_referring")  # It rains. Is there hope?  there: key only
    labels = {non_referring.key.words[m.span[0]]: m.label for m in overlay(non_referring, "both", every).marks}
    assert labels == {"It": "¬", "there": "¬key"}
    deixis = _example_spans("deixis")
    labels = [m.label for m in overlay(deixis, "both", every).marks]
    assert labels.count("D1") == 2 and "D1/-" in labels  # the clause is the key's alone


def test_legends_fit_longest_first_and_say_off():
    from workbench.tui.relations import legends
    from workbench.tui.text import DocumentText

    shown = frozenset({"bridging", "split", "deixis"})
    all_legends = legends(shown)
    assert [len(x) for x in all_legends] == sorted((len(x) for x in all_legends), reverse=True)
    assert "r ¬ off" in all_legends[1] and "r-" in all_legends[-1]
    for room in (10, 30, 60, 200):
        legend = DocumentText.legend(False, "ua", room, shown)
        assert len(legend) <= room or legend == all_legends[-1]


def test_export_of_the_relation_list_writes_what_errors_writes(tmp_path):
    import asyncio
    import json
    from pathlib import Path

    from cli_support import corefwb_in_process

    target = tmp_path / "relations.json"

    async def body() -> None:
        app = dialogue()
        async with app.run_test(size=(160, 48)) as pilot:
            await settle(app, pilot)
            app.export("corpus", "json", str(target))
            await settle(app, pilot)
            for _ in range(100):
                if target.exists():
                    break
                await pilot.pause(0.05)

    asyncio.run(body())
    cli = corefwb_in_process("errors", KEY, RESPONSE, "--conventions", "ua", "--split-antecedents", "keep",
                             "--format", "json", cwd=Path.cwd())
    assert json.loads(target.read_text(encoding="utf-8")) == json.loads(cli.stdout)


@pilot_test
async def test_scores_panel_lists_the_ua_scores_the_errors_are_priced_on():
    """The relation errors are priced on non_referring and the three bridging scores: the panel
    shows them (and MOR), with the values `corefwb score` prints, document and corpus."""
    from workbench.session import Session
    from workbench.tui.rows import percent

    expected = Session.load(KEY, [RESPONSE], OPTIONS).ua_result(0)
    app = dialogue()
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        lines = _text(app).replace("│", "\n").splitlines()
        for name, label in (("non_referring", "Non-referr."), ("bridging_recognition", "Br. recogn."),
                            ("bridging_markable", "Br. markable"), ("bridging_entity", "Br. entity"), ("mor", "MOR")):
            corpus = expected.micro[name]
            shown = [line for line in lines if line.strip().startswith(label + " ")]  # a 12-cell label, then " 61.01"
            assert shown, label
            assert shown[0].split()[-3:] == [percent(v).strip() for v in (corpus.recall, corpus.precision, corpus.f1)]


@pilot_test
async def test_compare_mode_compares_what_corefwb_compare_compares():
    """Compare mode's panel lists the metrics `corefwb compare` compares, each with its interval:
    the UA convention's scores, the UA scorer's own among them (none waits on `…`)."""
    from metrics.conventions.registry import convention
    from workbench.tui.scores import ScoresPanel

    app = dialogue(RESPONSE, KEY)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        panel = app.query_one(ScoresPanel)
        assert sorted(panel._shown_metrics) == sorted(metric.name for metric in convention("ua").scores)
        assert all(row[-1] not in ("", "…") for row in panel._shown)


@pilot_test
async def test_counts_say_split_antecedents_are_not_scored_when_removed():
    """Removed (the UA scorer's default), split antecedents are not looked for: the counts box
    says so rather than `SA MISS 0`, which read as none missed while the text shows `⊃` labels
    that differ between key and response."""
    app = Workbench(KEY, [RESPONSE], LoadOptions(conventions="ua", singletons="keep"))
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        counts = str(app.query_one("#ua-counts").render()).splitlines()
        assert counts[-1] == "SA not scored (removed)" and not any(line.startswith("SA MISS") for line in counts)
    app = dialogue()  # kept: counted
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert "SA MEMB 1" in str(app.query_one("#ua-counts").render())


@pilot_test
async def test_help_does_not_say_v801_scores_a_ua_file():
    """The help's first words said every score is v8.01's; under ua they are the UA scorer's."""
    import io

    from rich.console import Console

    app = dialogue()
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("f1")
        console = Console(width=200, file=io.StringIO())
        console.print(app.screen._help_table())
        shown = " ".join(console.file.getvalue().split())
        assert "official scorer does (v8.01, corefud-scorer, the UA scorer)" in shown
        assert "scored as the CoNLL scorer v8.01 does" not in shown


@pilot_test
async def test_status_line_names_the_ua_conventions_and_fits_100_columns():
    """CorefUD's status line says `corefud head`; under ua it said nothing, so nothing on screen
    told which scorer's numbers these are.  At 100 columns the token count gives way first."""
    app = dialogue()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        status = str(app.query_one("#status").render())
        assert "  ua exact  " in status and "corpus CoNLL F1" in status and len(status.rstrip()) < 100


def _words_of(where: str) -> set[int]:
    """The tokens of a message's `first-last 'words'` (1-based word numbers; no zeros here)."""
    numbers = where.split(" ", 1)[0].split("-")
    return set(range(int(numbers[0]) - 1, int(numbers[-1])))


@pilot_test
async def test_a_selected_relation_error_emphasises_whole_markables_and_what_they_link_to():
    """Every word of the error's markable is emphasised (not only its first), and a bridging
    error's anchors too: the key's as the best, the response's as its antecedent; a split
    antecedent error's members likewise."""
    import re

    app = dialogue()
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        panel = app.query_one(RelationErrorPanel)
        text = app.query_one(DocumentText)
        seen = set()
        for row in panel.rows:
            app.on_relation_error_panel_picked(RelationErrorPanel.Picked(panel, row, jump=False))
            await pilot.pause()
            roles: dict[str, set[int]] = {}
            for token, role in text._selection.emphasis.items():
                roles.setdefault(role, set()).add(token)
            assert roles["error"] == _words_of(row.mention), row
            assert text._selection.mention == (min(roles["error"]), max(roles["error"]))
            if row.kind == "wrong_anchor":
                response_anchor, key_anchor = re.findall(r"(\d+(?:-\d+)? '[^']*')", row.explanation)[:2]
                assert roles["antecedent"] == _words_of(response_anchor)
                assert roles["best"] == _words_of(key_anchor)
            if row.kind == "missed":
                assert roles["best"] and "antecedent" not in roles
            if row.kind == "wrong_members":
                assert roles["best"] and roles["antecedent"]
            if row.relation == "non_referring":
                assert set(roles) == {"error"}
            seen.add(row.kind)
            if len(roles["error"]) > 1:
                seen.add("several words")
        assert {"wrong_anchor", "missed", "wrong_members", "several words"} <= seen


def test_a_label_wider_than_the_line_breaks_between_its_parts_never_inside_a_number():
    """A plural entity with many split antecedents (a derived response's) makes a label wider than
    the text at 100 columns: it wraps after a separator, every member's id whole on one line."""
    import re

    from rich.cells import cell_len

    from metrics.model import Document, MentionType
    from text_reference import token_units
    from workbench.tui.rows import LABEL_BREAKS, Marked, wrap_units

    members = [str(90000 + 7 * i) if i % 3 else f"{i}-Pseudo" for i in range(30)]
    label = "P71/71⊃68+24/" + "+".join(members)
    words = "they said so".split()
    doc = Document("d", words, [[(0, 0)]], sentence_starts=[0])
    for width in (20, 37, 56, 97):
        layout = wrap_units(token_units(doc, [Marked((0, 0), MentionType.PRONOUN, label)]), [0], width)
        assert all(sum(cell_len(atom.text) for atom in line) <= width for line in layout.lines)
        pieces = [atom.text for line in layout.lines for atom in line if atom.role == "close"]
        assert "".join(pieces) == "]" + label and len(pieces) > 1
        assert all(piece[-1] in LABEL_BREAKS for piece in pieces[:-1]), pieces
        whole = {item for piece in pieces for item in re.split(r"[\]/,+⊃→:]", piece)}
        assert set(members) <= whole  # no member's id cut in two


@pilot_test
async def test_chains_view_has_a_legend_of_the_relation_glyphs_that_fits_and_follows_the_keys():
    """The chains view's borders say what →, ⊃, D and ¬ are (as the text's does), the longest
    legend that fits each column, and `off` / `-` for a relation hidden."""
    from rich.cells import cell_len

    for size, expected in (((100, 30), ("b → bridging  a ⊃ split", "x D deixis  r ¬ non-ref")),
                           ((200, 50), ("b → bridging  a ⊃ split antecedents", "x D discourse deixis  r ¬ non-referring"))):
        app = dialogue()
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            await pilot.press("f3")
            await settle(app, pilot)
            columns = [app.query_one(f"#{side}-chains", ChainLines) for side in ("key", "response")]
            assert tuple(str(c.border_subtitle) for c in columns) == expected, size
            assert all(cell_len(str(c.border_subtitle)) <= c.outer_size.width - 6 for c in columns)
            await pilot.press("x")
            await settle(app, pilot)
            assert "x D off" in str(columns[1].border_subtitle) or "x-" in str(columns[1].border_subtitle)


@pilot_test
async def test_a_long_load_error_is_whole_below_and_the_status_line_points_to_it(tmp_path):
    """A bad UA file under a long path: the message is longer than the status line at 100
    columns; the line names the file and line and points below, where the whole message wraps."""
    from pathlib import Path

    from textual.widgets import ContentSwitcher, Static

    folder = tmp_path / ("a_rather_long_directory_name_" * 3) / "down"
    folder.mkdir(parents=True)
    bad = folder / "derived_response.CONLLUA"
    lines = Path(RESPONSE).read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines) if "MarkableID=" in line and "(EntityID=" in line)
    lines[number] = lines[number].replace("MarkableID=", "Markable=", 1)
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    app = Workbench(KEY, [str(bad)], OPTIONS)
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        status = str(app.query_one("#status").render())
        assert app.load_failed and len(status) <= 100
        assert status.startswith(f"error: derived_response.CONLLUA:{number + 1}:") and status.endswith("(whole: below)")
        assert app.query_one(ContentSwitcher).current == "warnings"
        said = " ".join(str(app.query_one("#warnings-text", Static).render()).split())
        assert str(bad) in said
        assert "needs a MarkableID" in said


@pilot_test
async def test_an_explanation_cut_on_the_border_is_said_whole_in_one_toast():
    """At 100 columns the border cuts a relation error's explanation and prices (short labels
    there): a toast says it whole, the next error's replacing it (n through the list stacked
    toasts over half the screen)."""
    from workbench.tui.relationerrors import said_of

    app = dialogue()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        panel = app.query_one(RelationErrorPanel)
        text = app.query_one(DocumentText)
        row = next(r for r in panel.rows if r.kind == "wrong_anchor")
        whole = said_of(row)
        assert "Br. recogn. 0, Br. markable +" in whole and whole.startswith(row.explanation)
        for _ in range(2):
            app.on_relation_error_panel_picked(RelationErrorPanel.Picked(panel, row, jump=False))
            await pilot.pause()
            assert str(text.border_subtitle).endswith("…") and whole.startswith(str(text.border_subtitle)[:-1])
            assert [str(n.message) for n in app._notifications] == [whole]
        for _ in range(5):
            await pilot.press("n")
            await pilot.pause()
        assert len(app._notifications) <= 1


@pilot_test
async def test_with_zeros_kept_a_relation_error_is_at_its_token_not_its_word_number(tmp_path):
    """--zero-match linear makes each zero a token: a markable after one is a token further on
    than its word number, where the emphasis and n / p must find it."""
    from pathlib import Path

    paths = []
    for side in ("key", "response"):
        lines = Path(f"tests/data/ua/non_referring.{side}").read_text(encoding="utf-8").splitlines()
        at = next(i for i, line in enumerate(lines) if line.startswith("4 "))
        lines.insert(at, "3.1 ∅  _  _  _  _  _  _  _  _  (EntityID=4|MarkableID=z1)  _  _  _")
        path = tmp_path / f"zeros.{side}"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(path))
    app = Workbench(paths[0], [paths[1]], LoadOptions(conventions="ua", zero_match="linear"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        assert app.corpus.pairs[0].key.words[3] == "∅"
        panel = app.query_one(RelationErrorPanel)
        (row,) = panel.rows  # "there", word 5 (1-based), token 5 (0-based) after the zero
        assert row.mention.startswith("5 ") and panel.row_span(row) == (5, 5)
        await pilot.press("n")
        await pilot.pause()
        assert app.query_one(DocumentText)._selection.emphasis == {5: "error"}

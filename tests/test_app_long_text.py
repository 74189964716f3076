"""A long document's text (issue 42): laid out on demand, line for line the whole text's layout.

The text view knows at once where each line starts (from the tokens' widths) and builds a block of
lines when one of them is drawn (`textlayout`).  Checked against the layout of the whole text at
once (tests/text_reference.py's `token_units` + `rows.wrap_units`, the brute force), on every document of the sample,
in every mode, at widths where units are cut into pieces, with small blocks so that many block
edges are crossed; and in the app, a jump far down draws the lines the whole layout has there."""

from __future__ import annotations

import pytest
from app_support import pilot_test, settle
from text_reference import marked_mentions, overlaid, token_units

from metrics.model import Document, MentionType
from workbench.tui import textlayout
from workbench.tui.app import SAMPLE_KEY, SAMPLE_RESPONSE, Workbench
from workbench.tui.rows import MODES, wrap_units
from workbench.tui.text import DocumentText
from workbench.tui.textlayout import LazyLayout, text_marks


def atoms(lines) -> list[list[tuple]]:
    return [[(a.text, a.role, a.type, a.span, a.token, a.change) for a in line] for line in lines]


def eager(key: Document, response: Document, types, mode: str, width: int, overlay=None, **compared):
    marks = marked_mentions(key, response, types, mode, **compared)
    if overlay is not None:
        marks = overlaid(overlay, marks)
    return wrap_units(token_units(key, marks), key.sentence_starts or [0], width)


def assert_same_layout(key: Document, response: Document, types, mode: str, width: int, overlay=None,
                       **compared) -> None:
    whole = eager(key, response, types, mode, width, overlay, **compared)
    drawn = {"relation_marks": overlay.marks, "endings": overlay.endings} if overlay is not None else {}
    lazy = LazyLayout(text_marks(key, response, types, mode, **drawn, **compared), key.sentence_starts or [0], width)
    assert lazy.line_count == len(whole.lines)
    assert lazy.token_line == whole.token_line
    assert atoms(lazy.lines) == atoms(whole.lines)


@pytest.fixture
def small_blocks(monkeypatch):
    monkeypatch.setattr(textlayout, "BLOCK_LINES", 3)
    monkeypatch.setattr(textlayout, "BLOCKS_KEPT", 2)


def sample_pairs():
    from workbench.session import LoadOptions, Session

    return Session.load(SAMPLE_KEY, [SAMPLE_RESPONSE], LoadOptions()).corpora[0].pairs


@pytest.mark.parametrize("width", [8, 13, 40, 97])
def test_the_layout_on_demand_is_the_whole_layout(small_blocks, width):
    for pair in sample_pairs():
        for mode in MODES:
            assert_same_layout(pair.key, pair.response, pair.types, mode, width)


def test_compare_mode_labels_and_changes_widen_the_same_tokens(small_blocks):
    pairs = sample_pairs()
    pair = pairs[0]
    other = Document("other", pair.key.words, [chain[::-1] for chain in pair.response.chains[::-1]],
                     sentence_starts=pair.key.sentence_starts)
    spans = [span for chain in pair.key.chains for span in chain]
    changes = {span: ("fixed", "introduced", "changed", "same")[i % 4] for i, span in enumerate(spans[::3])}
    for mode in MODES:
        assert_same_layout(pair.key, pair.response, pair.types, mode, 31, other=other, changes=changes)


@pytest.mark.parametrize("singletons", ["keep", "remove"])
def test_the_ua_relations_lay_out_as_the_whole(small_blocks, singletons):
    """Under --conventions ua (the CODI-CRAC dialogue of tests/data/ua/codi), with every set of
    relations shown: their markables' brackets and labels, and the label endings, each where
    text_reference's `overlaid` puts it (on the chain's mention of its span, on the first markable there, or
    in a bracket of its own when no chain shows the span: a singleton removed)."""
    from workbench.session import LoadOptions, Session
    from workbench.tui.relations import NR, RELATIONS, overlay

    options = LoadOptions(conventions="ua", singletons=singletons, split_antecedents=True)
    pair = Session.load("tests/data/ua/codi/persuasion.key", ["tests/data/ua/codi/persuasion.response"],
                        options).corpora[0].pairs[0]
    spans = pair.ua.token_spans
    own_brackets = 0
    for shown in [frozenset(RELATIONS), *(frozenset({r}) for r in RELATIONS), frozenset({"bridging", "split", NR})]:
        for mode in MODES:
            drawn = overlay(spans, mode, shown)
            if mode == "both" and shown == frozenset(RELATIONS):
                assert drawn.marks and drawn.endings
            chained = {m.span for m in marked_mentions(pair.key, pair.response, pair.types, mode)}
            own_brackets += sum(span not in chained and span not in {m.span for m in drawn.marks}
                                for span in drawn.endings)
            for width in (8, 23, 97):
                assert_same_layout(pair.key, pair.response, pair.types, mode, width, drawn)
    if singletons == "remove":
        assert own_brackets  # the third place an ending goes is laid out too


def test_an_overlay_on_odd_spans_lays_out_as_the_whole(small_blocks):
    """Endings on a chain's mention, on the first of two markables of one span (not a chain's),
    in a bracket of their own, past the text; a discontinuous markable; wide glyphs."""
    from workbench.tui.relations import Overlay
    from workbench.tui.rows import Marked

    words = ["That", "was", "it", ",", "and", "they", "left", "the", "door", "open", "."] * 5
    key = Document("ua", words, [[(0, 0), (5, 5)], [(7, 8), (30, 31)]], sentence_starts=[0, 11, 22, 33, 44])
    response = Document("ua", words, [[(5, 5), (16, 16)], [(7, 8)]], sentence_starts=key.sentence_starts)
    drawn = Overlay((Marked((2, 2), None, "¬"), Marked((12, 14), None, "D1/-"), Marked((12, 14), None, "¬key"),
                     Marked((22, 26), None, "D2", pieces=((22, 23), (25, 26))), Marked((60, 61), None, "¬")),
                    {(7, 8): "→2:part-of/-", (12, 14): "⊃1+2", (40, 42): "→1", (5, 5): "⊃3+5/3", (90, 91): "→9",
                     (22, 26): "→日本"})
    for mode in MODES:
        for width in (8, 11, 17, 40, 200):
            assert_same_layout(key, response, {}, mode, width, drawn)


def test_repaired_mentions_lay_out_as_the_whole(small_blocks):
    """A CRAC LLM-track output's repaired mentions (tests/data/crac/gum2.repaired.txt): their
    mark (`*`) widens their tokens as it lengthens their labels."""
    from workbench.session import LoadOptions, Session
    from workbench.tui.rows import REPAIRED

    options = LoadOptions(conventions="corefud", match="head", singletons="remove")
    pair = Session.load("tests/data/formats/gum2.conllu", ["tests/data/crac/gum2.repaired.txt"],
                        options).corpora[0].pairs[0]
    assert pair.response.repaired
    changes = dict.fromkeys(pair.response.repaired, REPAIRED)
    for mode in MODES:
        for width in (8, 19, 41, 97):
            assert_same_layout(pair.key, pair.response, pair.types, mode, width, changes=changes)


def test_odd_texts_lay_out_as_the_whole(small_blocks):
    """No sentence breaks, a span in two chains, nested spans of one length crossing, a span
    past the text, a discontinuous mention, control characters and wide characters in words."""
    words = ["Ab", "\x1b[31mred", "日本語", "c", "the", "longest-word-of-all-of-them-here", "e", "f", "g", "h"] * 6
    chains = [[(0, 1), (3, 4), (3, 4)], [(3, 4), (4, 5)], [(5, 6), (58, 70)], [(8, 9), (12, 15)], [(9, 10)]]
    key = Document("odd", words, chains, sentence_starts=[0])
    response = Document("odd", words, [[(0, 1), (4, 5)], [(20, 30)], [(2, 2), (7, 7)]], sentence_starts=[0],
                        pieces={(20, 30): ((20, 21), (29, 30))})
    types = {(0, 1): MentionType.NAME, (4, 5): MentionType.PRONOUN}
    for mode in MODES:
        for width in (8, 12, 30, 200):
            assert_same_layout(key, response, types, mode, width)
    empty = Document("empty", [], [], sentence_starts=[0])
    lazy = LazyLayout(text_marks(empty, empty, {}, "both"), [0], 40)
    assert lazy.line_count == 1 and lazy.lines[0] == [] and lazy.token_line == []


@pilot_test
async def test_a_jump_far_down_draws_the_whole_layouts_lines(monkeypatch):
    from metrics.measures.weights import W4
    from workbench.session import LoadOptions
    from workbench.tui.opening import open_inputs

    monkeypatch.setattr(textlayout, "BLOCK_LINES", 4)
    # opened as `corefwb` opens it: the text is shown before the view has a size
    opening = open_inputs(SAMPLE_KEY, [SAMPLE_RESPONSE], LoadOptions(), weights=W4, shown=[0], processes=2)
    app = Workbench(SAMPLE_KEY, SAMPLE_RESPONSE, opening=opening)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        view = app.query_one(DocumentText)
        pair = app.corpus.pairs[app.doc_index]
        whole = eager(pair.key, pair.response, pair.types, "both", view._layout.width)
        assert view.virtual_size.height == len(whole.lines)
        # wrapped to the width the scrollbar leaves (it came after the first layout), no end hidden
        assert view.show_vertical_scrollbar and view._layout.width == view.scrollable_content_region.width
        view.scroll_to(0, len(whole.lines), animate=False, immediate=True)  # the last screen
        await pilot.pause()
        far = int(view.scroll_y)
        assert far > 0
        for y in (0, 5):
            assert view.render_line(y).text.rstrip() == "".join(a.text for a in whole.lines[far + y]).rstrip()
        view.mode = "key"
        await pilot.pause()
        assert atoms(view._layout.lines) == atoms(eager(pair.key, pair.response, pair.types, "key",
                                                       view._layout.width).lines)


@pilot_test
async def test_a_long_error_list_is_priced_from_its_top(monkeypatch):
    """The pricing of a long list posts its first rows' impacts first (the rest unpriced, the
    document not yet settled), then the whole list priced, each impact the one-go pricing's."""
    from workbench.tui import impacts as impacts_module
    from workbench.tui import workers as workers_module
    from workbench.tui.messages import ImpactsReady

    posted: list[ImpactsReady] = []

    def noted(*args, **kwargs) -> ImpactsReady:
        posted.append(ImpactsReady(*args, **kwargs))
        return posted[-1]

    monkeypatch.setattr(impacts_module, "FIRST_PRICED", 5)
    monkeypatch.setattr(impacts_module, "PRICED_TOGETHER", 3)
    monkeypatch.setattr(workers_module, "ImpactsReady", noted)
    app = Workbench(SAMPLE_KEY, SAMPLE_RESPONSE)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        name = app.corpus.pairs[app.doc_index].name
        partial = [m for m in posted if m.partial and name in m.errors]
        whole = [m for m in posted if not m.partial and name in m.errors]
        assert partial and whole and len(app.errors[name]) > 10
        first = partial[0].errors[name]
        assert all(r.impact is not None for r in first[:5]) and all(r.impact is None for r in first[5:])
        expected = app.session.price(app.errors[name], "conll", app.weights)
        assert [r.impact for r in app.errors[name]] == [r.impact for r in expected]
        assert app.settled_weights == app.weights


@pilot_test
async def test_a_text_longer_than_the_view_is_wrapped_once_at_the_width_the_scrollbar_leaves(monkeypatch):
    """The first layout already leaves the scrollbar's cells: the scrollbar showing a frame later
    wraps nothing again (on a book, the first screen's lines moved a second after it was drawn)."""
    from metrics.measures.weights import W4
    from workbench.session import LoadOptions
    from workbench.tui.opening import open_inputs

    laid_out: list[tuple[object, int]] = []
    relayout = DocumentText._relayout

    def noted(view):
        relayout(view)
        if view._layout is not None:
            laid_out.append((view._marks.base.name, view._layout.width))

    monkeypatch.setattr(DocumentText, "_relayout", noted)
    opening = open_inputs(SAMPLE_KEY, [SAMPLE_RESPONSE], LoadOptions(), weights=W4, shown=[0], processes=2)
    app = Workbench(SAMPLE_KEY, SAMPLE_RESPONSE, opening=opening)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        view = app.query_one(DocumentText)
        assert view.show_vertical_scrollbar and view._layout.width == view.scrollable_content_region.width
        shown = app.corpus.pairs[app.doc_index].name
        assert [width for name, width in laid_out if name == shown] == [view._layout.width]

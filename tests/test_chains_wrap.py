"""The chains view (F3) wraps what is longer than its column (issue 42): a chain's partners and a
long mention read whole at 100x30, continued under their start, never cut with an ellipsis; and
the view scrolls by items (a chain's header or one of its mentions), wrapping only those drawn, so
a book's chains stay virtual."""

from __future__ import annotations

from app_support import SAMPLE_KEY, SAMPLE_RESPONSE, chain_text, pilot_test, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)
from hypothesis import example, given
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.text import Text

from workbench.tui.app import Workbench
from workbench.tui.views import ChainLines, wrap_offsets

WORDS = st.text(alphabet="abcé日 -,.", min_size=0, max_size=80)


@given(plain=WORDS, width=st.integers(min_value=1, max_value=60), indent=st.integers(min_value=0, max_value=6))
@example(plain="日 日", width=1, indent=0)  # a wide character wider than the line, then another word
def test_wrapped_pieces_fit_and_keep_every_character(plain, width, indent):
    offsets = wrap_offsets(plain, width, indent)
    pieces = [part.plain for part in Text(plain).divide(offsets)]
    assert "".join(pieces) == plain  # nothing lost: a break keeps its spaces with the piece before
    if cell_len(plain) <= width:
        assert offsets == []
    shown_indent = min(indent, max(width - 8, 0))
    for number, piece in enumerate(pieces):
        room = width - (shown_indent if number else 0)
        # a piece fits its room, but a single wide character on a one-cell line
        assert cell_len(piece.rstrip()) <= max(room, 2 if piece.strip() else 0)
        assert piece.strip() or number == 0 or not piece  # no piece of spaces alone after the first


def test_a_break_falls_before_a_word_not_inside_it():
    plain = "   N the novel insights of eye tracking 219-239"
    pieces = [part.plain.rstrip() for part in Text(plain).divide(wrap_offsets(plain, 24, 5))]
    assert pieces == ["   N the novel insights", "of eye tracking", "219-239"]


@pilot_test
async def test_chains_at_100_columns_wrap_instead_of_cutting():
    app = Workbench(SAMPLE_KEY, SAMPLE_RESPONSE)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("f3")
        await pilot.pause()
        for column in app.query(ChainLines):
            width = column.scrollable_content_region.width
            assert width < 40
            longest = max(cell_len(line) for line in chain_text(column).splitlines())
            assert longest > width  # the document has items wider than the column
            lines = [strip.text for strip in column.screen_lines()]
            assert lines and not any("…" in line for line in lines)
            assert all(cell_len(line) <= width for line in lines)
            # the last item can be scrolled to, and is drawn whole at the bottom
            column.scroll_end(animate=False, immediate=True)
            await pilot.pause()
            last = column.chain_lines(len(column._rows) - 1)[-1].plain.split()
            shown = " ".join(strip.text for strip in column.screen_lines()).split()
            assert shown[-len(last):] == last


def test_the_chains_holding_a_span_are_the_chain_ids():
    """The chains view finds a span's partners in the text view's arrays (`holding_chains`): the
    same chains, in the same order, as the dictionary of every span (`rows.chain_ids`), and the
    same number of distinct mentions per chain."""
    from metrics.model import Document
    from workbench.session import LoadOptions, Session
    from workbench.tui.chains import holding_chains
    from workbench.tui.rows import chain_ids, distinct_mentions

    pairs = Session.load(SAMPLE_KEY, [SAMPLE_RESPONSE], LoadOptions()).corpora[0].pairs
    twice = Document("twice", ["a", "b", "c"], [[(0, 0), (1, 2), (0, 0)], [(1, 2)], [(0, 5)]], labels=["7", "3", "9"])
    for doc in [twice] + [side for pair in pairs for side in (pair.key, pair.response)]:
        holding, ids = holding_chains(doc), chain_ids(doc)
        for span in {span for chain in doc.chains for span in chain} | {(0, 0), (2, 1)}:
            assert holding(span) == ids.get(span, []), (doc.name, span)
        listed = [0] * len(doc.chains)  # the chains listing each span, counted per chain
        for held in doc.chains_listing().values():
            for index in held:
                listed[index] += 1
        assert distinct_mentions(doc) == listed
    assert holding_chains(twice)((1, 2)) == ["7", "3"] and holding_chains(twice)((0, 5)) == ["9"]

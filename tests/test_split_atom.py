"""A unit wider than a line is cut into pieces (`rows._split_atom`) the same as by measuring each
piece again at every character (the brute force below, the function as it was: quadratic, 1.8 s
of a UA book's first layout), for any text: wide and zero-width characters, the joiners with which
a text's width is not the sum of its characters', label separators, any width."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from workbench.tui.rows import JOINING, LABEL_BREAKS, Atom, _split_atom


def split_by_measuring(atom: Atom, width: int) -> list[str]:
    pieces, current = [], ""
    for char in atom.text:
        while current and cell_len(current + char) > width:
            cut = (max(current.rfind(mark) for mark in LABEL_BREAKS) + 1 if atom.role == "close" else 0) or len(current)
            pieces.append(current[:cut])
            current = current[cut:]
        current += char
    pieces.append(current)
    return pieces


CHARACTERS = st.sampled_from(["a", "7", "]", " ", "中", "\u0301", "\u200b", "👍", "❤", *JOINING, *LABEL_BREAKS])


@settings(max_examples=400, deadline=None)
@given(st.lists(CHARACTERS, max_size=60).map("".join), st.integers(1, 12), st.sampled_from(["close", "word"]))
def test_pieces_are_those_of_measuring_each_piece_again(text, width, role):
    atom = Atom(text, role, None, (0, 0), 0, None)
    pieces = _split_atom(atom, width)
    assert [piece.text for piece in pieces] == split_by_measuring(atom, width)
    assert all(piece.role == role for piece in pieces)


def test_a_long_label_is_cut_after_its_separators():
    atom = Atom("]P12/c0d3_1⊃c0d3_4+c0d3_9/c0d3_7", "close", None, (0, 0), 0, None)
    assert [piece.text for piece in _split_atom(atom, 10)] == split_by_measuring(atom, 10) == \
        ["]P12/", "c0d3_1⊃", "c0d3_4+", "c0d3_9/", "c0d3_7"]

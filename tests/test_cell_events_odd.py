"""The byte-level reading of CoNLL-2012 coreference cells (`brackets._cell_events`) against
`parse_cell` on each cell alone, for cells of odd but valid shapes and for bad ones.

Why: `_cell_events` reads cells of short digit labels from the bytes and hands every other cell to
`parse_cell`; a cell the byte path misreads (a label with leading zeros, one too long for it, digits
that are not ASCII) would give a wrong chain silently, with no error to show it."""

from __future__ import annotations

import numpy as np
import pytest

from metrics.formats.brackets import _cell_events, _label_texts, parse_cell

ODD_CELLS = ["(01)", "(1)|(01)", "(001|1)", "(0)", "(000000000)", "(999999999)", "(9999999999)",
             "(123456789012345678901234567890)", "(\u0661)", "(\uff11)|1)", "(\u00b9)", "(1+2)", "(1+2)|(3",
             "(12)|(7)|3)", "(a)|(1)", "(-1)", "(1+)", "4)|(4"]
BAD_CELLS = ["(1)||(2)", "|(1)", "(1)|", "|", "()", "(", ")", "(1) ", "(1)\u00a0", "((1)", "(1))", "-", "(1)|-"]


def _brute(cells: list[str]) -> tuple[list[tuple[int, str, int]], dict[int, tuple[str, str]]]:
    """Each cell's events as (cell, label text, kind), and its bad cells, read with `parse_cell` alone."""
    events, bad = [], {}
    for i, cell in enumerate(cells):
        parsed = parse_cell(cell)
        if isinstance(parsed, str):
            bad[i] = (parsed, cell)
            continue
        events += [(i, label, kind) for kind, label in zip(*parsed)]
    return events, bad


@pytest.mark.parametrize("order", [1, -1])
def test_cell_events_equal_parse_cell(order: int) -> None:
    cells = (ODD_CELLS + BAD_CELLS)[::order]
    data = np.frombuffer("".join(cells).encode(), dtype=np.uint8)
    lengths = np.array([len(cell.encode()) for cell in cells])
    ends = np.cumsum(lengths)
    events = _cell_events(data, ends - lengths, ends)
    labels = _label_texts(events.label, events.other)
    got = [(int(c), label, int(k)) for c, label, k in zip(events.cell, labels, events.kind)]
    expected_events, expected_bad = _brute(cells)
    assert got == expected_events
    assert events.bad == expected_bad
    assert len(expected_bad) == len(BAD_CELLS)

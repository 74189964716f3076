"""`Layout.of` scans a buffer a block at a time (`layout._scanned`): its lines and fields are
checked here against a plain walk over the buffer's lines (`re` over each line's bytes), with
blocks as small as one byte, so that fields, separators and line ends fall across every block
boundary."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.formats.layout import BLOCK_BYTES, Layout

_FIELD = re.compile(rb"[^\t\n\x0b\x0c\r ]+")
"""A field: a run of bytes other than ASCII whitespace (`layout`'s module docstring)."""


def walked(buffer: bytes) -> dict[str, list]:
    """The layout's arrays as a walk over the lines finds them."""
    out: dict[str, list] = {"line_starts": [], "counts": [], "offsets": [], "field_starts": [],
                            "field_ends": [], "hashed": []}
    start = 0
    lines = buffer.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()  # the empty piece after a final line end is not a line
    for line in lines:
        fields = list(_FIELD.finditer(line))
        out["line_starts"].append(start)
        out["offsets"].append(len(out["field_starts"]))
        out["counts"].append(len(fields))
        out["field_starts"] += [start + f.start() for f in fields]
        out["field_ends"] += [start + f.end() for f in fields]
        out["hashed"].append(line[:1] == b"#")
        start += len(line) + 1
    return out


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=60) | st.lists(st.sampled_from([b"a", b"bc", b" ", b"\t", b"\n", b"#", b"\r", b"\x0b",
                                                          b"\xc2\xa0", b"-"]), max_size=40).map(b"".join),
       st.sampled_from([1, 2, 3, 5, 8, 64, BLOCK_BYTES]))
def test_blocks_find_what_a_walk_over_lines_finds(buffer: bytes, block: int) -> None:
    layout = Layout.of(buffer, block=block)
    found = {name: getattr(layout, name).tolist() for name in walked(b"")}
    assert found == walked(buffer)
    assert layout.field_starts.dtype == layout.field_ends.dtype == layout.line_starts.dtype


def test_a_file_s_layout_is_the_same_in_any_blocks() -> None:
    buffer = b"#begin document (a); part 000\nd 0 0 The DT (1\n\nd 0 1 cat  NN\t1)\n#end document\n" * 50
    whole = Layout.of(buffer, block=len(buffer))
    for block in (1, 7, 100, 1000):
        layout = Layout.of(buffer, block=block)
        for name in ("line_starts", "counts", "offsets", "field_starts", "field_ends", "hashed"):
            assert getattr(layout, name).tolist() == getattr(whole, name).tolist(), (block, name)
    assert whole.field_starts.tolist() == walked(buffer)["field_starts"]

"""Checking a file's bytes as UTF-8 (`source._check_utf8`, which decodes only the lines holding a
byte past ASCII) against decoding all of it a piece at a time (the check it was, kept here): the
same outcome, and for bytes that are not UTF-8 the same located error (line, column, reason)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.formats import source
from metrics.model import InputError

_PIECES = st.sampled_from([b"a", b"abc\t", b"\n", b"\n\n", b"\xc3\xa9", b"\xe2\x80\x99", b"\xf0\x9f\x98\x80",
                           b"\xc3", b"\xe2\x80", b"\x80", b"\xff", b"\xed\xa0\x80", b"\xc0\xaf", b" " * 9])


def check_whole(path: str, data: bytes) -> None:
    """The check as it was: every byte decoded, a piece at a time, each cut after a line end."""
    start = len(data) if data.isascii() else 0
    while start < len(data):
        end = data.find(b"\n", start + source._CHUNK)
        end = len(data) if end < 0 else end + 1
        try:
            str(data[start:end], "utf-8")
        except UnicodeDecodeError as exc:
            exc.start += start
            raise source.not_utf8(path, data, exc) from None
        start = end


def outcome(check, data: bytes):
    try:
        check("in.conll", data)
    except InputError as exc:
        return exc.line, str(exc)
    return None


@pytest.mark.parametrize("chunk, gap", [(1 << 20, 1 << 12), (8, 4), (1, 1), (16, 64)])
def test_lines_past_ascii_checked_alone_fail_where_the_whole_text_fails(monkeypatch, chunk: int, gap: int) -> None:
    """With pieces and gaps of the real sizes and of a few bytes (so that runs and pieces split)."""
    monkeypatch.setattr(source, "_CHUNK", chunk)
    monkeypatch.setattr(source, "_GAP", gap)

    @settings(max_examples=300, deadline=None)
    @given(st.lists(_PIECES, max_size=40).map(b"".join))
    def same(data: bytes) -> None:
        assert outcome(source._check_utf8, data) == outcome(check_whole, data)

    same()


def test_a_bad_byte_far_from_others_is_found() -> None:
    """Runs of lines past ASCII far apart are checked each (the second holds the error)."""
    data = b"caf\xc3\xa9\n" + b"plain line\n" * 2000 + b"bad \xff here\n"
    with pytest.raises(InputError) as info:
        source._check_utf8("in.conll", data)
    assert info.value.line == 2002 and "column 5" in str(info.value)

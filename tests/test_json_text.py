"""The fast indented JSON writer gives `json.dumps(value, indent=1)` to the byte."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.json_text import dumps

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
                     st.text(), st.sampled_from(["\u2028", "\x1b[31m", '"\\', "é", "\ud800"]))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.lists(inner, max_size=3).map(tuple),
    st.dictionaries(st.text(max_size=5), inner, max_size=4)), max_leaves=30)


@settings(max_examples=500, deadline=None)
@given(_VALUES)
def test_same_bytes_as_json_dumps(value: object) -> None:
    assert dumps(value) == json.dumps(value, indent=1)


def test_other_keys_and_objects_go_to_json_dumps() -> None:
    value = {"a": {1: 2.5, None: [True]}}
    assert dumps(value) == json.dumps(value, indent=1)


@settings(max_examples=200, deadline=None)
@given(_VALUES, st.integers(0, 3))
def test_a_value_written_deeper_is_its_text_indented(value: object, depth: int) -> None:
    assert dumps(value, depth) == json.dumps(value, indent=1).replace("\n", "\n" + " " * depth)


@settings(max_examples=200, deadline=None)
@given(_VALUES, st.floats(allow_nan=True, allow_infinity=True), st.integers(0, 2))
def test_written_pieces_and_numpy_floats(value: object, number: float, depth: int) -> None:
    """A `Written` piece stands for the value it writes, beside numpy's floats (written as floats)
    and beside values only `json.dumps` writes (a non-string key: the piece is read back first)."""
    import numpy as np

    from workbench.json_text import Written

    piece = Written(dumps(value, depth + 1))
    for report, plain in [({"a": np.float64(number), "b": piece}, {"a": number, "b": value}),
                          ({"a": [piece, np.float64(number)], 1: None}, {"a": [value, number], 1: None})]:
        assert dumps(report, depth) == json.dumps(plain, indent=1).replace("\n", "\n" + " " * depth)

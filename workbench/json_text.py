"""`json.dumps(value, indent=1)`, byte for byte, at the speed of the C encoder's parts.

Why: every JSON report is indented (people read and diff them), and the standard library
indents only in its pure-Python encoder, which took a tenth of a whole `corefwb score` run and
more of `corefwb errors` (tens of thousands of records).  The pieces that cost (strings, floats)
are still the standard library's own C functions; only the walk over dicts and lists is here, and
a test checks the bytes against `json.dumps` on generated values.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring_ascii as _string

_INFINITY = float("inf")


def dumps(value: object, depth: int = 0) -> str:
    """`json.dumps(value, indent=1)`: dicts with string keys, lists and tuples, strings, ints,
    floats (numpy's too), booleans and None, and `Written` pieces; anything else goes to
    `json.dumps` itself (the `Written` pieces read back first).  With `depth`, the text
    as it stands `depth` levels down in a larger document: each line after the first indented by
    `depth` more spaces (a report written in pieces, one entry at a time)."""
    out: list[str] = []
    try:
        _write(value, out, "\n" + " " * depth)
    except _Unsupported:
        text = json.dumps(_read_back(value), indent=1)
        return text.replace("\n", "\n" + " " * depth) if depth else text
    return "".join(out)


def _read_back(value: object) -> object:
    """`value` with each `Written` piece as the values it writes (for `json.dumps`, which would
    write the piece as a string)."""
    if type(value) is Written:
        return json.loads(value)
    if type(value) is dict:
        return {key: _read_back(item) for key, item in value.items()}
    if type(value) in (list, tuple):
        return [_read_back(item) for item in value]
    return value


class Written(str):
    """JSON text already written where it stands, `depth` levels down (what `dumps(value, depth)`
    gives): `dumps` puts it in as it is.  Why: a report's fifty thousand error records are written
    column by column (`workbench/error_rows.py`), not walked one dict at a time."""


def scalar(value: str | int | float | bool | None) -> str:
    """The JSON text of one scalar, as `dumps` writes it."""
    write = _SCALARS.get(type(value))
    return write(value) if write is not None else dumps(value)


string = _string
"""The JSON text of a string, as `dumps` writes it (the standard library's C function: for whole
columns of strings, `map(string, texts)`)."""


class _Unsupported(Exception):
    """A value the fast walk does not know (a non-string key, an object with a default...)."""


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == _INFINITY:
        return "Infinity"
    if value == -_INFINITY:
        return "-Infinity"
    return float.__repr__(value)


def _write(value: object, out: list[str], newline: str) -> None:
    kind = type(value)
    if kind is str:
        out.append(_string(value))
    elif kind is Written:
        out.append(value)
    elif kind is float:
        out.append(_float(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif kind is int:
        out.append(int.__repr__(value))
    elif isinstance(value, float):  # numpy's float64: json.dumps writes it as a float
        out.append(_float(value))
    elif kind is dict:
        if not value:
            out.append("{}")
            return
        inner = newline + " "
        between = "," + inner
        flat = _flat(value)
        if flat is not None:  # scalars only (an error record's mention, a score): one join
            out.append("{" + inner + between.join(flat) + newline + "}")
            return
        out.append("{" + inner)
        first = True
        for key, item in value.items():
            if type(key) is not str:
                raise _Unsupported
            if not first:
                out.append(between)
            first = False
            write = _SCALARS.get(type(item))
            if write is not None:  # a scalar among nested values (a score's recall beside its counts)
                out.append(_string(key) + ": " + write(item))
            else:
                out.append(_string(key) + ": ")
                _write(item, out, inner)
        out.append(newline + "}")
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = newline + " "
        between = "," + inner
        flat = _flat_list(value)
        if flat is not None:  # scalars only (a score's counts): one join
            out.append("[" + inner + between.join(flat) + newline + "]")
            return
        out.append("[" + inner)
        for i, item in enumerate(value):
            if i:
                out.append(between)
            _write(item, out, inner)
        out.append(newline + "]")
    else:
        raise _Unsupported


_SCALARS = {str: _string, float: _float, int: int.__repr__, bool: lambda v: "true" if v else "false",
            type(None): lambda v: "null"}


def _flat(value: dict) -> list[str] | None:
    """`"key": value` of each item when every key is a string and every value a scalar (most of
    the dicts in a report: written in one join instead of a call per item); None otherwise."""
    items = []
    for key, item in value.items():
        write = _SCALARS.get(type(item))
        if write is None or type(key) is not str:
            return None
        items.append(_string(key) + ": " + write(item))
    return items


def _flat_list(value: list | tuple) -> list[str] | None:
    """Each item's text when every item is a scalar (a score's counts), else None."""
    items = []
    for item in value:
        write = _SCALARS.get(type(item))
        if write is None:
            return None
        items.append(write(item))
    return items

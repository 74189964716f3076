"""The engine never changes a document it was given in place: after `score`, the error records,
`--impact`, Kummerfeld & Klein's analysis and the workbench's pricing, every document of a
session (as read, and as prepared for its pairs) equals a deep copy taken before, its chains, its
other fields and the arrays it holds (`Document.mention_arrays`) alike.

Why it matters: the workbench keeps one session for all its views, and a document read from the
cache of read files shares its file's arrays with every other document of the file; a change made
in place by one analysis would be a silent wrong number in the next.  Both roads are checked: the
documents a reader made (the first load, which fills the cache) and those loaded from the cache.
The response lists spans twice (a key-matching span in two chains, a twinless one in two), so
that the rescoring of such documents and v8.01's rule for them run too.
"""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path

import numpy as np
import pytest

from records_road import price_all
from metrics.measures.weights import W4
from metrics.model import Document
from workbench.session import LoadOptions, Session

ROOT = Path(__file__).resolve().parent.parent
KEY = ROOT / "samples" / "gum" / "key.gum.conll"
RESPONSE = ROOT / "samples" / "gum" / "response.gum.conll"


def _response_listing_spans_twice(folder: Path) -> Path:
    """The sample response with 'January' (a key mention) in a second chain and 'Jeanne' of the
    second sentence (no key mention alone) in two new chains."""
    lines = RESPONSE.read_text().splitlines()
    assert lines[13].endswith("\t(3)") and lines[4].endswith("\t(0")
    lines[13] += "|(7)"
    lines[4] += "|(900)|(901)"
    path = folder / "response.conll"
    path.write_text("\n".join(lines) + "\n")
    return path


def _documents(session: Session) -> list[Document]:
    """Every document the session holds: the key and response as read, each pair's as prepared."""
    held = list(session.keys) + [doc for docs in session.responses for doc in docs if doc is not None]
    return held + [doc for pair in session.corpus.pairs for doc in (pair.key, pair.response)]


def _plain(value: object, seen: dict[int, object]) -> object:
    """`value` as nested tuples of plain values (arrays as their dtype, shape and bytes), so that
    equal contents compare equal and any change of one item shows."""
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, (str, bytes, int, float, bool, type(None))):
        return value
    if id(value) in seen:  # (shared among documents: compared once, where first met)
        return ("seen",)
    seen[id(value)] = value
    if isinstance(value, dict):
        return ("dict", tuple((_plain(k, seen), _plain(v, seen)) for k, v in value.items()))
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a NamedTuple: its fields by name
        return ("named", type(value).__name__,
                tuple((name, _plain(getattr(value, name), seen)) for name in value._fields if name != "stored"))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_plain(item, seen) for item in value))
    if hasattr(value, "__dict__"):
        return ("object", type(value).__name__, _plain(vars(value), seen))
    return ("other", repr(value))


def _state(document: Document) -> tuple:
    """Every field of the document (made now where it was not yet) and its arrays, as plain values.
    The arrays' `stored` columns are compared through the fields made from them: what they hold
    made (not made yet) differs between a document that was read from and its copy."""
    fields = {f.name: getattr(document, f.name) for f in dataclasses.fields(Document)}
    return _plain(fields, {})


def _run_everything(session: Session) -> None:
    """What `score`, `errors`, `errors --impact conll`, `errors --taxonomy kk` and the workbench ask
    the engine, in one process."""
    session.score(W4)
    columns = session.error_columns(W4)
    assert len(columns.records()) > 0
    records = session.classify(W4)
    pricer = session.pricer("conll", W4)
    price_all(pricer, records, records, processes=1)  # --distinct, --sort impact
    session.pricer("lea", W4).price_columns(columns, columns, processes=1)  # --impact
    session.price(records[:40], "conll", W4)
    session.price(records[:40], "lea", W4)
    session.kk_errors()  # (first: once a report is made, the list is taken from it)
    session.kk_report()
    session.score(W4)


@pytest.mark.parametrize("road", ["reader", "cache"])
def test_no_analysis_changes_a_document_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, road: str) -> None:
    monkeypatch.setenv("COREFWB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("COREFWB_NO_CACHE", raising=False)
    response = _response_listing_spans_twice(tmp_path)
    first = Session.load(str(KEY), [str(response)], LoadOptions(cache=True))
    session = first if road == "reader" else Session.load(str(KEY), [str(response)], LoadOptions(cache=True))
    warnings = " ".join(session.warnings)
    assert "repeated key-matching spans removed" in warnings and "match no key span are kept twice" in warnings
    documents = _documents(session)
    cached = [doc.mention_arrays is not None for doc in session.keys + session.responses[0]]
    assert all(cached)  # the arrays the engine reads instead of the chains are there to be kept intact
    before = copy.deepcopy(documents)
    entries = {path: path.read_bytes() for path in (tmp_path / "cache").rglob("*") if path.is_file()}
    _run_everything(session)
    assert {path: path.read_bytes() for path in (tmp_path / "cache").rglob("*") if path.is_file()} == entries
    for now, then in zip(documents, before):
        assert now == then
        assert _state(now) == _state(then), now.name

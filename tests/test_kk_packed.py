"""The K&K errors as arrays (`workbench.tui.kkpacked`): what the analysing child hands the app.

Each error made back from the arrays must equal the one packed, field for field, and the counts
and spans read from the arrays must equal those of the errors themselves."""

from __future__ import annotations

import pickle

from app_support import SAMPLE_KEY, SAMPLE_RESPONSE
from metrics.errors.kummerfeld_klein.report import count_kk
from metrics.model import MentionType
from workbench.session import LoadOptions, Session
from workbench.tui.kkpacked import PackedKKErrors


def _errors():
    session = Session.load(SAMPLE_KEY, [SAMPLE_RESPONSE], LoadOptions(cache=False))
    return session, session.kk_errors(0)


def test_every_error_made_from_the_arrays_equals_the_one_packed() -> None:
    _, errors = _errors()
    assert len(errors) > 100 and any(e.target is not None for e in errors)  # span errors, with targets
    assert any(len(e.mentions) > 1 for e in errors) and any(e.key_chains and e.response_chains for e in errors)
    packed = pickle.loads(pickle.dumps(PackedKKErrors(errors), protocol=pickle.HIGHEST_PROTOCOL))
    assert len(packed) == len(errors)
    assert list(packed) == errors
    assert [e.to_json() for e in packed] == [e.to_json() for e in errors]  # plain ints and strings, not numpy's
    assert packed[-1] == errors[-1] and packed[3:6] == errors[3:6]


def test_one_documents_errors_their_counts_and_spans() -> None:
    session, errors = _errors()
    packed = PackedKKErrors(errors)
    names = session.document_names()
    assert len({e.document for e in errors}) > 1
    for name in [*names, "no such document"]:
        own = [e for e in errors if e.document == name]
        view = packed.of_document(name)
        assert list(view) == own
        assert view.counts() == count_kk(own)
        assert view.spans() == [e.span for e in own]
        assert all(type(start) is int for start, _ in view.spans())


def test_no_errors_at_all() -> None:
    packed = PackedKKErrors([])
    view = packed.of_document("any")
    assert len(packed) == 0 and list(view) == [] and view.spans() == []
    assert view.counts() == count_kk([]) and set(view.counts()["span_error"]) == set(MentionType)

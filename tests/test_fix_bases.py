"""`fixes.fix_bases` (chain views of many documents at once, `chains.document_chains`) against
`FixBase` made document by document (`key_view`, `response_view`): every field equal, dictionaries
in the same order, on random documents that list spans twice on either side and on a file's
documents as read (their arrays laid: the whole file, a few of them out of order)."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from hypothesis import HealthCheck, given, settings
from strategies import corpora

from metrics.errors.chen_ng.fixes import FixBase, fix_bases
from metrics.formats.readers import read_documents
from metrics.mentions.chains import laid_chains
from metrics.model import Document

ROOT = Path(__file__).resolve().parent.parent


class _Pair(NamedTuple):
    key: Document
    response: Document


def _fields(base: FixBase) -> tuple:
    return (list(base.key_chain_of.items()), base.key_members, base.chains, base.labels, base.used_labels,
            list(base.chain_of.items()), base.clean, base.key, base.response)


def _assert_same(pairs: list) -> None:
    assert [_fields(base) for base in fix_bases(pairs)] == [_fields(FixBase(p.key, p.response)) for p in pairs]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(duplicates=True, key_duplicates=True, max_documents=4))
def test_bases_made_at_once_are_those_made_one_by_one(corpus) -> None:
    _assert_same(list(corpus))


def test_bases_of_documents_as_read() -> None:
    keys = read_documents(str(ROOT / "samples" / "gum" / "key.gum.conll"))
    responses = read_documents(str(ROOT / "samples" / "gum" / "response.gum.conll"))
    assert laid_chains(keys) is not None and laid_chains(responses) is not None  # the arrays' road
    pairs = [_Pair(k, r) for k, r in zip(keys, responses)]
    assert len(pairs) >= 2
    _assert_same(pairs)
    _assert_same([pairs[1], pairs[0]])
    _assert_same([pairs[1]])
    _assert_same([])

"""The mention types of pairs aligned together from the cache of read files (`laid._typed_from_arrays`:
the key ids' types read from the arrays the cache keeps the key's typed mentions in, only the
response's spans the key lacks typed) are `types.types_together`'s, dict for dict and type for
type; where the arrays do not describe the pairs (another dict of types, none, or one of other
spans), none are read.  (A document is not changed in place once read: the arrays are known to
describe its dict by the dict's identity.)"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from hypothesis import given, settings

from metrics.corpus.scoring import prepare
from metrics.formats.packed import pack, unpack
from metrics.formats.readers import read_documents
from metrics.measures.laid import _typed_from_arrays
from metrics.mentions.types import prepare_types, types_together
from metrics.model import Document
from strategies import corpora

ROOT = Path(__file__).resolve().parent.parent
KEY, RESPONSE = ROOT / "samples" / "gum" / "key.gum.conll", ROOT / "samples" / "gum" / "response.gum.conll"


def cached(documents: list[Document], typed: bool) -> list[Document]:
    """The documents as the cache gives them back (a key's mentions typed ahead)."""
    if typed:
        prepare_types(documents)
    return unpack(pack(documents))


def same_as_one_by_one(pairs) -> None:
    found = _typed_from_arrays(pairs)
    assert found is not None
    typed, kinds = types_together([pair.key for pair in pairs], [pair.alignment.spans for pair in pairs])
    assert [list(make().items()) for make in found[0]] == [list(d.items()) for d in typed]
    assert found[1].dtype == kinds.dtype and found[1].tolist() == kinds.tolist()


def test_a_real_corpus() -> None:
    keys = cached(read_documents(str(KEY)), typed=True)
    responses = cached(read_documents(str(RESPONSE), syntax=False), typed=False)
    pairs = prepare(keys, responses).pairs
    assert len(pairs) > 1 and any(len(p.alignment.spans) > p.alignment.n_key_ids for p in pairs)
    same_as_one_by_one(pairs)


@settings(max_examples=80, deadline=None)
@given(corpora(duplicates=True, max_documents=5))
def test_generated_corpora(generated) -> None:
    keys = cached([p.key for p in generated], typed=True)
    responses = cached([p.response for p in generated], typed=False)
    pairs = prepare(keys, responses).pairs
    if len(pairs) > 1:
        same_as_one_by_one(pairs)


def test_pairs_the_arrays_do_not_describe() -> None:
    keys = cached(read_documents(str(KEY)), typed=True)
    responses = cached(read_documents(str(RESPONSE), syntax=False), typed=False)
    retyped = [dataclasses.replace(keys[0], rule_types=dict(keys[0].rule_types)), *keys[1:]]
    untyped = cached(read_documents(str(KEY)), typed=False)
    fewer = [dataclasses.replace(keys[0], rule_types=dict(list(keys[0].rule_types.items())[1:])), *keys[1:]]
    for changed in (retyped, untyped, fewer):
        assert _typed_from_arrays(prepare(changed, responses).pairs) is None


def test_spans_typed_from_the_files_tokens_as_from_the_documents() -> None:
    """`types_arrays.types_on_road` reading the file's tokens as the cache keeps them (words, tags,
    lemmas, the parse's heads laid end to end) types any spans within the documents as it types
    them from the documents' own lists, for all the documents or some, in any order."""
    import numpy as np

    from metrics.mentions import types_arrays

    documents = cached(read_documents(str(KEY)), typed=True)
    read = [dataclasses.replace(doc, mention_arrays=None) for doc in read_documents(str(KEY))]  # the lists alone
    prepare_types(read)
    rng = np.random.default_rng(3)
    spans = []
    for doc in documents:
        starts = rng.integers(0, len(doc.words), 300)
        spans.append([(int(s), int(min(s + rng.integers(0, 6), len(doc.words) - 1))) for s in starts])
    for order in ([0, 1], [1], [1, 0]):
        chosen = [documents[i] for i in order]
        heads = [types_arrays.road(doc) for doc in chosen]
        assert types_arrays._file_tokens(chosen, heads) is not None
        bounds = np.array([bound for i in order for span in spans[i] for bound in span], dtype=np.int64)
        counts = [len(spans[i]) for i in order]
        from_file = types_arrays.types_on_road(chosen, bounds, counts, heads)
        alone = [read[i] for i in order]
        assert types_arrays._file_tokens(alone, [types_arrays.road(doc) for doc in alone]) is None
        assert from_file == types_arrays.types_on_road(alone, bounds, counts, [types_arrays.road(doc) for doc in alone])
    relemmatised = [dataclasses.replace(documents[0], lemmas=None), documents[1]]
    assert types_arrays._file_tokens(relemmatised, [types_arrays.road(doc) for doc in relemmatised]) is None

"""`build_tables` (every document's contingency table computed at once) gives each document the
arrays `build_table` gives it alone: the same values, dtypes and components, on random corpora
with repeated spans (a key span in two key chains: irregular cells) and on crossing chains (CEAF
components for the solver)."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.measures.table import build_table
from metrics.measures.table_block import RESPONSE_IDS, TableBlock, build_tables, laid_block
from metrics.mentions.alignment import align, align_all
from strategies import corpora


def same(found, expected) -> None:
    for f in fields(expected):
        if f.name.startswith("_") or f.name == "laid_in":
            continue
        a, b = getattr(found, f.name), getattr(expected, f.name)
        if isinstance(b, np.ndarray):
            assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b), f.name
        elif f.name == "components":
            assert len(a) == len(b)
            for x, y in zip(a, b):
                assert all(p.dtype == q.dtype and np.array_equal(p, q) for p, q in zip(x, y))
        else:
            assert type(a) is type(b) and a == b, f.name


@settings(max_examples=150, deadline=None)
@given(corpora(duplicates=True, max_documents=8))
def test_tables_of_many_documents_are_each_documents_own(pairs):
    alignments = [align(p.key, p.response) for p in pairs]
    for found, alignment in zip(build_tables(alignments), alignments):
        same(found, build_table(alignment))


@settings(max_examples=80, deadline=None)
@given(corpora(duplicates=True, max_documents=8))
def test_tables_of_documents_aligned_from_the_cache_are_each_documents_own(pairs):
    """Alignments `align_all` made at once from cached documents: `build_tables` reads their chains
    from the arrays they hold (`laid_alignments`), not from their lists; the same tables."""
    from metrics.formats.packed import pack, unpack

    keys, responses = unpack(pack([p.key for p in pairs])), unpack(pack([p.response for p in pairs]))
    alignments = align_all(keys, responses)
    for found, alignment in zip(build_tables(alignments), alignments):
        same(found, build_table(alignment))


@settings(max_examples=60, deadline=None)
@given(corpora(max_documents=8))
def test_without_repeated_spans(pairs):
    alignments = [align(p.key, p.response) for p in pairs]
    for found, alignment in zip(build_tables(alignments), alignments):
        same(found, build_table(alignment))


@settings(max_examples=80, deadline=None)
@given(corpora(duplicates=True, max_documents=8))
def test_type_counts_of_many_documents_are_each_documents_own(pairs):
    """The mention-type counts of tables laid end to end, counted at once from the pairs' types,
    are each document's `chain_types` stacked (and the ids' types each document's `id_types`)."""
    from metrics.corpus.scoring import prepare
    from metrics.measures.laid import laid_end_to_end

    corpus = prepare([p.key for p in pairs], [p.response for p in pairs])
    found = laid_end_to_end([pair.table for pair in corpus.pairs], pairs=corpus.pairs)
    expected = laid_end_to_end([pair.table for pair in corpus.pairs], [pair.chain_types for pair in corpus.pairs])
    for name in ("key", "cells", "parts"):
        a, b = getattr(found.chain_types(), name), getattr(expected.chain_types(), name)
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b), name
    ids = np.concatenate([pair.id_types for pair in corpus.pairs]) if corpus.pairs else np.zeros(0, np.int64)
    assert np.array_equal(found.id_types(), ids)


@settings(max_examples=120, deadline=None)
@given(corpora(duplicates=True, max_documents=8), st.data())
def test_tables_laid_end_to_end_as_built_are_the_tables_joined(pairs, data):
    """The arrays `build_tables` keeps for all its documents (`TableBlock`) are each document's
    own joined (`TableBlock.of`), for all of them and for any share of them in order (a process's)."""
    alignments = [align(p.key, p.response) for p in pairs]
    tables = build_tables(alignments)
    share = sorted(data.draw(st.sets(st.integers(0, max(len(tables) - 1, 0)), max_size=len(tables))
                             if tables else st.just(set())))
    for chosen in (list(range(len(tables))), share):
        found = laid_block([tables[i] for i in chosen])
        expected = TableBlock.of([tables[i] for i in chosen])
        assert found.n_docs == expected.n_docs == len(chosen)
        for name, (values, doc) in expected.arrays.items():
            got_values, got_doc = found.arrays[name]
            assert got_values.dtype == values.dtype and np.array_equal(got_values, values), name
            assert got_doc.dtype == doc.dtype and np.array_equal(got_doc, doc), name
        for name, counts in expected.counts.items():
            assert np.array_equal(found.counts[name], counts), name
        if RESPONSE_IDS in found.arrays:  # kept by `build_tables`: the response chains' ids laid end to end
            values, doc = found.arrays[RESPONSE_IDS]
            chains = [(d, chain) for d, i in enumerate(chosen) for chain in alignments[i].response_chains]
            assert values.tolist() == [i for _, chain in chains for i in chain]
            assert doc.tolist() == [d for d, chain in chains for _ in chain]

"""The table metrics computed for many documents at once (`metrics.measures.batch`) equal, to the
bit, each document's own computation (`Metric.compute`): on random corpora with nested,
overlapping and repeated spans, singletons and empty documents, and on real documents cut small."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.corpus.scoring import prepare
from metrics.measures.laid import laid_end_to_end
from metrics.measures.tuggener import count_documents
from metrics.measures.catalog import CATALOG, Family
from metrics.measures.weights import W4, Weights
from strategies import corpora, weights as weight_vectors

BATCHED = [metric for metric in CATALOG if metric.batch is not None]


def bits(score) -> str:
    """A score's counts with their types (an int count stays an int), written out exactly."""
    return repr([(type(c).__name__, c) for c in score.counts()] + [score.recall, score.precision, score.f1])


def check(pairs_of_documents, weights: Weights = W4) -> int:
    """Compare every batched metric with the per-document computation; how many documents the
    batch of a table metric left to it."""
    corpus = prepare([p.key for p in pairs_of_documents], [p.response for p in pairs_of_documents])
    tables = laid_end_to_end([pair.table for pair in corpus.pairs], [pair.chain_types for pair in corpus.pairs],
                             corpus.pairs, tally=count_documents)
    left = 0
    for metric in BATCHED:
        assert metric.batch is not None
        for pair, found in zip(corpus.pairs, metric.batch(tables, weights).scores()):
            if found is None:
                assert metric.family is not Family.APPLICATION  # Tuggener's: every document counted at once
                left += 1
                continue
            expected = metric.compute(pair, weights)
            assert type(found) is type(expected), metric.name
            assert bits(found) == bits(expected), (metric.name, pair.name)
    return left


@settings(max_examples=120, deadline=None)
@given(corpora(max_documents=8), weight_vectors(positive=False))
def test_batch_equals_each_document(pairs_of_documents, weights):
    check(pairs_of_documents, weights)


@settings(max_examples=80, deadline=None)
@given(corpora(duplicates=True, max_documents=6))
def test_batch_equals_each_document_with_repeated_spans(pairs_of_documents):
    check(pairs_of_documents)


@settings(max_examples=30, deadline=None)
@given(st.lists(corpora(max_documents=8), min_size=1, max_size=3))
def test_batch_over_long_documents(groups):
    """Documents of many cells (sums of eight terms and more: numpy's pairwise summation)."""
    from strategies import Pair, make_document

    joined = []
    for number, group in enumerate(groups):
        words, key_chains, response_chains, types = [], [], [], {}
        for pair in group:
            shift = len(words)
            words += pair.key.words
            for chains, out in ((pair.key.chains, key_chains), (pair.response.chains, response_chains)):
                out += [[(a + shift, b + shift) for a, b in chain] for chain in chains]
            types.update({(a + shift, b + shift): t for (a, b), t in {**pair.key.explicit_types,
                                                                       **pair.response.explicit_types}.items()})
        joined.append(Pair(make_document(f"long{number}", words, key_chains, types),
                           make_document(f"long{number}", words, response_chains, types)))
    check(joined)


def test_documents_of_many_cells_beside_small_ones():
    """Sums of eight terms and more (numpy sums those in pairs), fractions that round differently
    in another order: chains of 1 to 4 mentions split across response chains of other sizes."""
    from strategies import Pair, make_document
    from metrics.model import MentionType

    pairs = []
    for n_chains in (1, 3, 7, 8, 9, 20, 130):
        words = ["w"] * (10 * n_chains)
        key, response = [], []
        for c in range(n_chains):
            size = 1 + c % 4
            chain = [(10 * c + i, 10 * c + i) for i in range(size)]
            key.append(chain)
            cut = 1 + c % size if size > 1 else 1
            response += [chain[:cut], chain[cut:] + [(10 * c + 9, 10 * c + 9)]] if c % 3 else [chain]
        response = [chain for chain in response if chain]
        types = {s: MentionType(i % 3) for i, s in enumerate(sorted({s for ch in key + response for s in ch}))}
        pairs.append(Pair(make_document(f"d{n_chains}", words, key, types),
                          make_document(f"d{n_chains}", words, response, types)))
    assert check(pairs) == 0


def test_solver_components_are_batched_and_a_repeated_span_left_to_each_document():
    """The CEAFs of documents whose components need the solver are batched too (each component's
    total added to the document's sum in turn, as `best_alignment` adds it), equal to the bit;
    only BLANC leaves the document with a twinless span twice to itself."""
    from strategies import Pair, make_document
    from metrics.model import MentionType

    words = ["w"] * 12
    spans = [(i, i) for i in range(12)]
    types = {s: MentionType(i % 3) for i, s in enumerate(spans)}
    # two key chains crossing two response chains: a component with two chains on each side
    key = make_document("d", words, [[spans[0], spans[1]], [spans[2], spans[3]]], types)
    response = make_document("d", words, [[spans[0], spans[2]], [spans[1], spans[3]], [spans[4], spans[4]]], types)
    # three key chains crossing three response chains (the solver's), beside a pair matched whole
    key3 = make_document("t", words, [[spans[0], spans[1], spans[2]], [spans[3], spans[4]], [spans[5], spans[6], spans[7]],
                                      [spans[10], spans[11]]], types)
    response3 = make_document("t", words, [[spans[0], spans[3], spans[5]], [spans[1], spans[4], spans[6]],
                                           [spans[2], spans[7], spans[8]], [spans[10], spans[11]]], types)
    other = make_document("e", words, [[spans[0]]], types)
    corpus = prepare([key, key3, other], [response, response3, other])
    assert [len(pair.table.component_places()) for pair in corpus.pairs] == [1, 1, 0]
    assert min(corpus.pairs[1].table.component_places()[0][3:]) == 3
    tables = laid_end_to_end([pair.table for pair in corpus.pairs], [pair.chain_types for pair in corpus.pairs],
                             corpus.pairs, tally=count_documents)
    for metric in CATALOG:
        if metric.name in ("ceafm", "ceafe", "lceafm", "lceafe"):
            assert None not in metric.batch(tables, W4).scores(), metric.name
    left = check([Pair(key, response), Pair(key3, response3), Pair(other, other)])
    assert left == 1  # BLANC of the first (a twinless span twice); the ACE-value's matchings are unique here


def test_ace_value_of_a_component_without_a_unique_matching_is_the_solvers():
    """A component whose best ACE matching is not unique (two key chains of the same gain with
    each of two response chains) is matched by the solver, and one with a unique matching without
    it: both documents' ACE-values batched, equal to the bit."""
    from strategies import Pair, make_document
    from metrics.model import MentionType

    words = ["w"] * 8
    spans = [(i, i) for i in range(8)]
    types = {s: MentionType.NAME for s in spans}
    key = make_document("tie", words, [[spans[0], spans[1]], [spans[2], spans[3]]], types)
    response = make_document("tie", words, [[spans[0], spans[2]], [spans[1], spans[3]]], types)
    clear_key = make_document("clear", words, [[spans[0], spans[1], spans[2]], [spans[3], spans[4]]], types)
    clear_response = make_document("clear", words, [[spans[0], spans[1], spans[3]], [spans[2], spans[4]]], types)
    pairs = [Pair(key, response), Pair(clear_key, clear_response)]
    corpus = prepare([p.key for p in pairs], [p.response for p in pairs])
    tables = laid_end_to_end([pair.table for pair in corpus.pairs], [pair.chain_types for pair in corpus.pairs],
                             corpus.pairs, tally=count_documents)
    assert [len(pair.table.component_places()) for pair in corpus.pairs] == [1, 1]
    ace = next(metric for metric in CATALOG if metric.name == "ace")
    assert [score is None for score in ace.batch(tables, W4).scores()] == [False, False]
    assert check(pairs) == 0


@settings(max_examples=40, deadline=None)
@given(corpora(duplicates=True, max_documents=6), weight_vectors(), weight_vectors())
def test_corpus_scores_are_each_document_scored_alone(pairs_of_documents, first, second):
    """`PreparedCorpus.score` (batched) against each document scored on its own, under one W
    then another (a weight edit: no LMetric kept from the first W may be given for the second)."""
    keys, responses = [p.key for p in pairs_of_documents], [p.response for p in pairs_of_documents]
    corpus = prepare(keys, responses)
    for weights in (first, second):
        scored = corpus.score(weights)
        alone = prepare(keys, responses)
        for (name, scores), pair in zip(scored.documents, alone.pairs):
            for metric, score in scores.items():
                expected = pair.score(metric, weights)
                assert bits(score) == bits(expected) and type(score) is type(expected), (metric, name)


@settings(max_examples=40, deadline=None)
@given(corpora(duplicates=True, max_documents=6))
def test_each_pair_holds_the_ids_types_typed_at_once(pairs_of_documents):
    """`Tables.id_types` hands each pair its share (Tuggener's metrics read it): the same types
    the pair finds alone, span by span."""
    keys, responses = [p.key for p in pairs_of_documents], [p.response for p in pairs_of_documents]
    together = prepare(keys, responses)
    tables = laid_end_to_end([pair.table for pair in together.pairs], None, together.pairs)
    kinds = tables.id_types()
    held = [pair.id_types.tolist() for pair in together.pairs]
    alone = [pair.id_types.tolist() for pair in prepare(keys, responses).pairs]
    assert held == alone
    assert sum(held, []) == kinds.tolist()

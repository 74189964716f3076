"""Documents' scores held as columns (`metrics.measures.columns`) give, to the bit, what the score
objects give: each row is the object, a column's total is `score.total` of the objects, its
mean is `score.mean_score` of them, and a corpus scored in columns (`PreparedCorpus.score`)
aggregates as the objects aggregate (`corpus.scoring.aggregate` over plain lists)."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from metrics.corpus.scoring import aggregate, prepare
from metrics.measures.ace import AceScore
from metrics.measures.columns import Column, DocumentScores
from metrics.measures.score import AnchorScore, BlancScore, MeanScore, Score, mean_score, total
from strategies import corpora, weights as weight_vectors

COUNT = st.one_of(st.integers(0, 9), st.floats(0, 9, allow_nan=False),
                  st.sampled_from([0.0, 1 / 3, 1e-7, 2.5e16, 2.0 ** 53]))
SCORES = st.builds(Score, COUNT, COUNT, COUNT, COUNT)
SIGNED = st.one_of(COUNT, st.floats(-9, 0, allow_nan=False))
KINDS = {
    "score": SCORES,
    "blanc": st.builds(BlancScore, SCORES, SCORES),
    "anchor": st.builds(AnchorScore, SCORES, SCORES),
    "mean": st.builds(MeanScore, st.floats(0, 1), st.floats(0, 1), st.floats(0, 1)),
    "ace": st.builds(AceScore, SIGNED, COUNT, COUNT, COUNT, COUNT, SIGNED, COUNT, st.integers(0, 5),
                     st.integers(0, 5), st.integers(0, 5)),
}


def bits(value) -> str:
    """Every number of a score with its type, written exactly."""
    if isinstance(value, (Score, BlancScore, AnchorScore, AceScore)):
        numbers = value.counts()
    else:
        numbers = []
    return repr([(type(n).__name__, n) for n in numbers] + [value.recall, value.precision, value.f1])


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(KINDS)).flatmap(lambda kind: st.lists(KINDS[kind], min_size=1, max_size=40)))
def test_a_column_is_its_scores(scores):
    column = Column.of(scores)
    assert column.objects is None
    assert [bits(row) for row in column.rows()] == [bits(score) for score in scores]
    assert bits(column.row(len(scores) - 1)) == bits(scores[-1])
    if not isinstance(scores[0], MeanScore):
        assert bits(column.total()) == bits(total(scores))
    assert repr(column.mean()) == repr(mean_score(scores))
    recall, precision, f1 = column.values()
    assert repr((recall, precision, f1)) == repr(([s.recall for s in scores], [s.precision for s in scores],
                                                  [s.f1 for s in scores]))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(SCORES, KINDS["blanc"]), min_size=1, max_size=10), st.data())
def test_filling_joining_and_taking(scores, data):
    """Missing rows filled (with scores of another kind: the column keeps objects), columns of
    pieces joined, rows taken in another order."""
    column = Column.of([Score(0.0, 0.0, 0.0, 0.0)] * len(scores))
    column.missing = list(range(len(scores)))
    column.fill(scores)
    assert [bits(row) for row in column.rows()] == [bits(score) for score in scores]
    cut = data.draw(st.integers(0, len(scores)))
    joined = Column.joined([Column.of(scores[:cut]), Column.of(scores[cut:])]) if 0 < cut < len(scores) else column
    order = data.draw(st.permutations(range(len(scores))))
    assert [bits(row) for row in joined.taken(order).rows()] == [bits(scores[i]) for i in order]


def test_a_list_given_twice_is_filled_once_per_field():
    common = [1.0, 2.0]
    column = Column(Score, [common, [3.0, 3.0], common, [4.0, 4.0]], missing=[1])
    column.fill([Score(1.0, 3.0, 2.5, 4.0)])
    assert column.row(1) == Score(1.0, 3.0, 2.5, 4.0) and column.row(0) == Score(1.0, 3.0, 1.0, 4.0)


def test_filling_with_too_few_or_too_many_scores_is_refused():
    """A row left unfilled would read as a score of zeros: the count of scores must match."""
    import pytest

    for given in ([Score(1.0, 2.0, 1.0, 2.0)], [Score(1.0, 2.0, 1.0, 2.0)] * 3):
        column = Column(Score, [[0.0, 0.0] for _ in range(4)], missing=[0, 1])
        with pytest.raises(ValueError):
            column.fill(given)
        assert column.missing == [0, 1]


def test_scoring_again_keeps_one_set_of_columns_per_pair():
    """Each scoring leaves its columns with the pairs; one that gives again every metric of an
    earlier one (or under other weights, its weighted ones) lets the earlier go, so a session
    scoring again and again does not hold every result it ever had."""
    from metrics.measures import catalog
    from metrics.measures.weights import W4
    from strategies import make_document
    from metrics.model import MentionType

    def document(name: str, chains: list) -> object:
        return make_document(name, ["x", "y", "z"], chains, {s: MentionType.NOMINAL for c in chains for s in c})

    corpus = prepare([document(f"d{i}", [[(0, 0), (1, 1)]]) for i in range(3)],
                     [document(f"d{i}", [[(0, 0), (2, 2)]]) for i in range(3)])
    first = corpus.score(W4)
    for _ in range(4):
        again = corpus.score(W4)
    corpus.score(W4, metrics=["muc"])
    assert repr(again.micro) == repr(first.micro)
    pair = corpus.pairs[0]
    assert len(pair._rows) == 2  # everything once, and MUC's own
    other = W4._replace(nam=2 * W4.nam)
    corpus.score(other, metrics=["lmuc"])
    assert len(pair._rows) == 3 and pair.has(catalog.METRICS["lmuc"], other)
    assert all(pair.has(catalog.METRICS[name], W4) or catalog.METRICS[name].weighted for name in first.metrics)
    assert repr(corpus.score(W4).micro) == repr(first.micro)


@settings(max_examples=40, deadline=None)
@given(corpora(duplicates=True, max_documents=8), weight_vectors(positive=False))
def test_corpus_in_columns_aggregates_as_its_objects(pairs, weights):
    corpus = prepare([p.key for p in pairs], [p.response for p in pairs])
    result = corpus.score(weights)
    documents = list(result.documents)
    again = aggregate(documents, weights, result.metrics)
    assert repr(result.micro) == repr(again.micro) and repr(result.macro) == repr(again.macro)
    assert result.documents == documents
    if isinstance(result.documents, DocumentScores):
        assert [result.documents[i] for i in range(len(documents))] == documents
        assert result.documents[-1:] == documents[-1:]


MEAN_PART = st.one_of(st.builds(MeanScore, st.floats(), st.floats(), st.floats()),
                      st.builds(MeanScore, st.sampled_from([0.0, -0.0, 1 / 3]), st.just(-0.0), st.integers(0, 3)))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.lists(st.lists(MEAN_PART, min_size=n, max_size=n), min_size=1,
                                                     max_size=6)))
def test_a_combined_metric_is_each_documents_mean_of_its_parts(rows):
    """CoNLL's column (the mean of its parts' columns, at once where they hold floats) is each
    document's `mean_score` of its parts: -0.0, NaN, infinities and ints among them."""
    from metrics.corpus.together import _mean_column

    parts = [Column.of([row[i] for row in rows]) for i in range(len(rows[0]))]
    found = _mean_column(parts).rows()
    expected = [mean_score(list(row)) for row in rows]
    assert [tuple(map(repr, (s.recall, s.precision, s.f1))) for s in found] == \
        [tuple(map(repr, (s.recall, s.precision, s.f1))) for s in expected]


WHOLE = st.one_of(st.integers(-2 ** 63, 2 ** 63 - 1), st.integers(-9, 9), st.integers(2 ** 63, 2 ** 70))
FLOAT = st.one_of(st.floats(), st.sampled_from([0.0, -0.0, 1 / 3, 0.1, 2.0 ** 53, 1e308]))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 30).flatmap(lambda n: st.lists(st.one_of(st.lists(WHOLE, min_size=n, max_size=n),
                                                                st.lists(FLOAT, min_size=n, max_size=n),
                                                                st.lists(st.one_of(WHOLE, FLOAT), min_size=n,
                                                                         max_size=n)),
                                                      min_size=4, max_size=4)))
@example([[2 ** 62, 2 ** 62, -2 ** 63], [2 ** 63 - 1] * 3, [0.1, 0.2, 0.3], [1e308, 1e308, -1e308]])
@example([[-2 ** 63, -1], [3, 4], [-0.0, -0.0], [float("nan"), 1.0]])
def test_fields_of_one_kind_are_read_as_arrays_to_the_bit(fields):
    """A field of floats only or of ints only is read as an array (`Column.field_array`): its
    total is the objects' left fold (-0.0, NaN, infinities, ints near and beyond 64 bits), its
    values are the properties', its JSON numbers are the ordinary writer's."""
    from workbench.json_text import dumps
    from workbench.score_rows import document_entries
    from workbench.output import score_json

    scores = [Score(*numbers) for numbers in zip(*fields)]
    column = Column(Score, [list(field) for field in fields])
    assert bits(column.total()) == bits(total(scores))
    assert repr(column.values()) == repr(([s.recall for s in scores], [s.precision for s in scores],
                                          [s.f1 for s in scores]))
    documents = DocumentScores([f"d{i}" for i in range(len(scores))], {"m": column})
    ordinary = ",".join(dumps({"document": f"d{i}", "metrics": {"m": score_json(s)}}, 1) for i, s in enumerate(scores))
    pieces = document_entries(documents, 1, ",")
    assert pieces is None or "".join(pieces) == ordinary


def as_arrays(column: Column) -> Column:
    """The column with each field of one kind as the array that stands for it: float64 for Python
    floats, int64 for Python ints of 64 bits (as the batched metrics give their fields)."""
    import numpy as np

    fields = []
    for field in column.fields:
        kinds = set(map(type, field))
        if kinds == {float}:
            fields.append(np.array(field, dtype=np.float64))
        elif kinds == {int} and all(-2 ** 63 <= n < 2 ** 63 for n in field):
            fields.append(np.array(field, dtype=np.int64))
        else:
            fields.append(list(field))
    return Column(column.kind, fields)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(sorted(KINDS)).flatmap(lambda kind: st.lists(KINDS[kind], min_size=1, max_size=12)),
       st.data())
def test_fields_held_as_arrays_are_the_lists_they_stand_for(scores, data):
    """Every reading of a column whose fields are arrays (rows, one row, the total, values and
    mean, rows taken, columns joined with arrays of another kind or lists, rows filled with
    numbers an array cannot stand for, the column pickled, its JSON entries) is the reading of
    the same column held as lists: the same numbers, of the same Python kinds."""
    import pickle

    from workbench.json_text import dumps
    from workbench.output import score_json
    from workbench.score_rows import document_entries

    kind, n = type(scores[0]), len(scores)
    listed = Column.of(scores)
    column = as_arrays(listed)
    assert [bits(row) for row in column.rows()] == [bits(score) for score in scores]
    index = data.draw(st.integers(0, n - 1))
    assert bits(column.row(index)) == bits(scores[index])
    if kind is not MeanScore:
        assert bits(column.total()) == bits(listed.total())
    assert repr(column.values()) == repr(listed.values()) and repr(column.mean()) == repr(listed.mean())
    order = data.draw(st.permutations(range(n)))
    assert [bits(row) for row in column.taken(order).rows()] == [bits(scores[i]) for i in order]
    cut = data.draw(st.integers(0, n))
    for second in (as_arrays, lambda c: c):
        joined = Column.joined([as_arrays(Column.of(scores[:cut])), second(Column.of(scores[cut:]))]) \
            if 0 < cut < n else column
        assert [bits(row) for row in joined.rows()] == [bits(score) for score in scores]
    names = [f"d{i}" for i in range(n)]
    ordinary = ",".join(dumps({"document": name, "metrics": {"m": score_json(score)}}, 1)
                        for name, score in zip(names, scores))
    pieces = document_entries(DocumentScores(names, {"m": column}), 1, ",")
    assert pieces is None or "".join(pieces) == ordinary
    named = {Score: "score", BlancScore: "blanc", AnchorScore: "anchor", MeanScore: "mean", AceScore: "ace"}
    others = data.draw(st.lists(KINDS[named[kind]], min_size=n, max_size=n))
    missing = sorted(data.draw(st.sets(st.integers(0, n - 1))))
    column.missing = list(missing)
    column.fill([others[i] for i in missing])
    expected = [others[i] if i in missing else scores[i] for i in range(n)]
    assert [bits(row) for row in column.rows()] == [bits(score) for score in expected]
    assert [bits(row) for row in pickle.loads(pickle.dumps(column)).rows()] == [bits(score) for score in expected]

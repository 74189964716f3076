"""A JSON score report's per-document entries written column by column (`workbench.score_rows`)
are the bytes the ordinary writer gives each entry (`json_text.dumps` of `output.document_json`)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.corpus.scoring import prepare
from metrics.measures.score import BlancScore, MeanScore, Score
from strategies import corpora
from workbench.json_text import dumps
from workbench.output import document_json
from workbench.score_rows import _coded, document_entries


SEPARATOR = ",\n  "


def ordinary(documents, depth: int) -> str:
    """The entries as the ordinary writer writes them: `document_json`, the one per-document shape."""
    return SEPARATOR.join(dumps(document_json(name, scores), depth) for name, scores in documents)


def written(documents, depth: int) -> str | None:
    """The entries as `document_entries` writes them, joined (None: the ordinary writer's)."""
    pieces = document_entries(documents, depth, SEPARATOR)
    return None if pieces is None else "".join(pieces)


@settings(max_examples=60, deadline=None)
@given(corpora(duplicates=True, max_documents=6), st.integers(0, 3))
def test_every_metric_of_random_corpora(pairs, depth):
    corpus = prepare([p.key for p in pairs], [p.response for p in pairs])
    documents = corpus.score().documents
    assert written(documents, depth) == ordinary(documents, depth)


COUNT = st.one_of(st.integers(0, 9), st.floats(0, 9, allow_nan=False), st.sampled_from([0.0, 1 / 3, 1e-7, 2.5e16]))
SCORES = st.builds(Score, COUNT, COUNT, COUNT, COUNT)
ROW = st.tuples(SCORES, st.builds(BlancScore, SCORES, SCORES),
                st.builds(MeanScore, st.floats(0, 1), st.floats(0, 1), st.floats(0, 1)),
                st.text(max_size=4))


@settings(max_examples=150, deadline=None)
@given(st.lists(ROW, min_size=1, max_size=12))
def test_odd_counts_names_and_values(rows):
    documents = [(f"{name}{{}}\\\"{i}", {"a": a, "b": b, "c": c}) for i, (a, b, c, name) in enumerate(rows)]
    assert written(documents, 2) == ordinary(documents, 2)


def test_documents_of_other_shapes_go_to_the_ordinary_writer():
    one = Score(1.0, 2.0, 1.0, 2.0)
    assert written([("a", {"muc": one}), ("b", {"bcub": one})], 2) is None
    assert written([], 2) is None
    nan = [("a", {"m": MeanScore(float("nan"), 0.5, 0.0)}), ("b", {"m": MeanScore(0.5, 0.5, 0.5)})]
    assert written(nan, 2) == ordinary(nan, 2)


def test_a_count_that_is_not_a_number_over_a_zero_denominator():
    """NaN / 0 is 0 (finite values), but the NaN count itself is written as JSON writes it."""
    from metrics.measures.score import AnchorScore

    nan = float("nan")
    for score in (Score(nan, 0, nan, 0), BlancScore(Score(nan, 0, 1.0, 2.0), Score(1, 2, 1, 2)),
                  AnchorScore(Score(nan, 0, nan, 0), Score(1, 2, 1, 2))):
        documents = [("a", {"m": score}), ("b", {"m": score})]
        assert written(documents, 0) == ordinary(documents, 0)


def test_ace_values_undefined_negative_and_zero():
    """The ACE-value's own shape: an undefined value (null), a negative mapped value (credited
    as 0), zero denominators, and whole and fractional sums side by side."""
    from metrics.measures.ace import AceScore

    scores = [AceScore(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, 0, 0),
              AceScore(-1.5, 0.0, 0.0, 0.0, 1.5, -0.0, 0.0, 0, 2, 0),
              AceScore(2.25, 3.0, 0.75, 0.5, 0.25, -0.5, 1 / 3, 3, 4, 2),
              AceScore(1.0, 7.0, 0.1, 0.2, 0.0, 0.7, 0.7, 5, 5, 5)]
    documents = [(f"d{i}", {"ace": score}) for i, score in enumerate(scores)]
    assert written(documents, 2) == ordinary(documents, 2)


def test_control_characters_are_found_as_the_expression_finds_them():
    """`emit`'s scan for control characters (by bytes for ASCII text) finds what `_ANY_CONTROL`
    finds, every character below U+0200 alone, between ASCII letters and beside a non-ASCII one."""
    from workbench.output import _ANY_CONTROL, _has_control

    for code in range(0x200):
        for text in (chr(code), f"ab{chr(code)}cd", f"\u00e9{chr(code)}", "\n  {\"document\": 1}" + chr(code)):
            assert _has_control(text) == (_ANY_CONTROL.search(text) is not None), code


def number_texts(values) -> list[str]:
    """Each number as the per-document writer writes it: `_coded`'s text of each distinct number,
    looked up by each value's code (no product path asks for the texts alone)."""
    written, codes = _coded(values, numeric=True)
    return [written[code] for code in codes.tolist()]


NUMBER = st.one_of(st.floats(), st.integers(-2 ** 70, 2 ** 70),
                   st.sampled_from([0.0, -0.0, 1.0, 1, True, 0.5, 1e16, None, float("nan"), float("-inf")]))


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.lists(st.floats(), max_size=40), st.lists(st.integers(-2 ** 63, 2 ** 63 - 1), max_size=40),
                 st.lists(NUMBER, max_size=40)))
def test_numbers_are_written_as_json_writes_each(values):
    """Floats told apart by their bits (-0.0 beside 0.0, NaN and the infinities as JSON writes
    them), ints by value, mixed kinds, None (null) and ints beyond 64 bits by their repr."""
    assert number_texts(values) == [dumps(value) for value in values]


def test_many_distinct_numbers_sharing_places():
    """More distinct numbers than the table tells apart without a collision: those sorted apart
    are written as the others."""
    import random

    rng = random.Random(7)
    values = [rng.random() for _ in range(5000)] * 2 + [-0.0, 0.0] * 100
    rng.shuffle(values)
    assert number_texts(values) == [dumps(value) for value in values]
    whole = [rng.randrange(-2 ** 63, 2 ** 63) for _ in range(3000)]
    assert number_texts(whole) == [dumps(value) for value in whole]


def test_entries_written_in_several_blocks(monkeypatch):
    """Blocks of documents join as one text: the separator between blocks, none before the first."""
    import workbench.score_rows as score_rows

    one, two = Score(1.0, 2.0, 1.0, 2.0), Score(0.0, 3.0, -0.0, 1.0)
    documents = [(f"d{i}", {"muc": one if i % 3 else two, "m": MeanScore(0.5, float(i), 0.25)}) for i in range(7)]
    monkeypatch.setattr(score_rows, "_BLOCK_CHARS", 1)
    assert written(documents, 2) == ordinary(documents, 2)
    assert len(list(document_entries(documents, 2, SEPARATOR))) == 7  # one entry a piece


def test_documents_without_metrics_and_names_with_braces():
    """No place to fill: every entry is the same rest (the pieces' braces written as they are)."""
    documents = [("a{}", {}), ("b}", {}), ("{c", {})]
    assert written(documents, 2) == ordinary(documents, 2)


def test_rows_sharing_a_hash_are_told_apart(monkeypatch):
    """Each metric's rows of numbers are grouped by a hash, checked place by place: with a hash
    that gives every row the same value (and so every number the same place in the table of
    distinct numbers) the rows are told apart by their bytes, and the text is the same."""
    import numpy as np

    import workbench.score_rows as score_rows

    one, two = Score(1.0, 2.0, 1.0, 2.0), Score(0.0, 3.0, -0.0, 1.0)
    documents = [(f"d{i}", {"muc": [one, two, Score(i, 2, 1, 2.0)][i % 3],
                            "blanc": BlancScore(one if i % 2 else two, Score(float(i), 4, 0, 1)),
                            "m": MeanScore(0.5, float(i % 4), -0.0 if i % 5 else 0.0)}) for i in range(40)]
    expected = ordinary(documents, 2)
    assert written(documents, 2) == expected
    monkeypatch.setattr(score_rows, "_MIX", np.uint64(0))
    assert written(documents, 2) == expected

"""The CoNLL-2012 reader numbers the key's POS and parse columns from the file's bytes
(`conll_numbered.numbered_fields`) and finds the parse's heads from the numbers (`heads_parse.laid_coded`
by way of `conll_numbered.heads_input`): checked against splitting the fields into strings and numbering
them (`Numbering`), and against `laid_dependencies` of the lists, documents without POS tags or
without a parse among them; the lemmas typing reads where asked (`layout.FieldTexts`) against
the fields' strings and the documents' lemma lists."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pathlib import Path

from metrics.formats import conll, conll_numbered
from metrics.formats.layout import FieldTexts, Layout
from metrics.mentions.heads_parse import Numbering, laid_coded, laid_dependencies
from metrics.mentions.types_arrays import _stored_tokens

ROOT = Path(__file__).resolve().parent.parent

FIELD = st.text(alphabet="(*)NPVSé字-X", min_size=1, max_size=40)


def _by_strings(layout: Layout, fields: np.ndarray) -> tuple[list[str], list[int]]:
    """The brute force: every field made a string, numbered in the order first met."""
    numbering = Numbering()
    codes = [numbering[text] for text in layout.strings(fields)]
    return list(numbering), codes


def _check(texts: list[str], separator: str) -> None:
    layout = Layout.of(separator.join(texts).encode())
    fields = np.arange(len(layout.field_starts))
    distinct, codes = conll_numbered.numbered_fields(layout, fields)
    assert (distinct, codes.tolist()) == _by_strings(layout, fields)


@settings(max_examples=200, deadline=None)
@given(st.lists(FIELD, min_size=1, max_size=60), st.sampled_from(["\n", "\t", " \t", "\n\n"]))
def test_fields_numbered_from_bytes_as_their_strings_are(texts: list[str], separator: str) -> None:
    _check(texts, separator)


@settings(max_examples=50, deadline=None)
@given(st.lists(FIELD, min_size=1, max_size=60))
def test_pairs_that_mix_alike_are_told_apart(texts: list[str]) -> None:
    """Every pair mixed to one number: the sort of the pairs themselves numbers them."""
    saved = conll_numbered._MIX
    conll_numbered._MIX = np.zeros(2, dtype=np.uint64)
    try:
        _check(texts, "\n")
    finally:
        conll_numbered._MIX = saved


def test_long_and_last_fields_are_read_as_text() -> None:
    """Fields past 16 bytes take the text road; fields within 16 bytes of the buffer's end are read
    from a padded copy of its end."""
    _check(["(TOP(S(NP(NP(NP(NP*", "*", "(TOP(S(NP(NP(NP(NP*", "*)", "é*", "*)"], "\n")
    _check(["a"], "\n")


def test_long_fields_stay_apart_from_short_fields_of_the_same_number() -> None:
    """A long field is numbered among the long texts (0, 1, ...) and marked as text in its pair's
    second number: a short field whose bytes read as that small number (a control byte, which a
    field may hold) stays apart from it."""
    _check(["x" * 17, "y" * 17, "\x01", "\x02", "z" * 17], "\n")


BITS = ["(TOP(S(NP*", "(NP*", "*", "*)", "*))", "(VP*", "(PP(NP*)", "*)))", "(X*)"]
TAGS = ["DT", "NN", "VBD", "X", "-", "IN", "PRP"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.lists(st.tuples(st.sampled_from(BITS), st.sampled_from(TAGS)), min_size=1, max_size=12),
                          st.booleans(), st.booleans()), min_size=1, max_size=6))
def test_heads_from_numbered_columns_equal_the_lists_road(documents: list) -> None:
    """Documents with or without a parse, with or without POS tags: the heads, the trees, the
    tags' numbers and the numbering equal `laid_dependencies` of the documents' lists."""
    sizes = [len(tokens) for tokens, _, _ in documents]
    parsed = np.array([has_parse for _, has_parse, _ in documents])
    tagged = np.array([has_tags for _, _, has_tags in documents])
    parse_column = [bit if has_parse else "-" for tokens, has_parse, _ in documents for bit, _ in tokens]
    pos_column = [tag if has_tags else "-" for tokens, _, has_tags in documents for _, tag in tokens]
    coded = {}
    for name, column, informative in (("parse", parse_column, parsed), ("pos", pos_column, tagged)):
        numbering = Numbering()
        codes = np.array([numbering[value] for value in column], dtype=np.int64)
        coded[name] = list(numbering), codes, informative
    got = laid_coded(np.array(sizes, dtype=np.int64)[parsed], *conll_numbered.heads_input(coded, sizes))
    kept = [d for d, (_, has_parse, _) in enumerate(documents) if has_parse]
    expected = laid_dependencies([[bit for bit, _ in documents[d][0]] for d in kept],
                                 [[tag for _, tag in documents[d][0]] if documents[d][2] else None for d in kept])
    assert got.heads.tolist() == expected.heads.tolist()
    assert got.sizes.tolist() == expected.sizes.tolist()
    assert got.trees.tolist() == expected.trees.tolist()
    assert got.tag_ids.tolist() == expected.tag_ids.tolist()
    assert got.tag_numbers == expected.tag_numbers


@settings(max_examples=100, deadline=None)
@given(st.lists(FIELD, min_size=1, max_size=40), st.data())
def test_field_texts_taken_where_asked_are_the_fields_strings(texts: list[str], data: st.DataObject) -> None:
    layout = Layout.of("\n".join(texts).encode())
    fields = np.arange(len(layout.field_starts))
    taken = FieldTexts(layout.data, layout.field_starts[fields], layout.field_ends[fields])
    indices = data.draw(st.lists(st.integers(0, len(fields) - 1), max_size=20))
    strings = layout.strings(fields)
    assert taken.take(indices) == [strings[i] for i in indices]
    assert [taken[i] for i in range(len(taken))] == strings


def test_a_read_key_s_lemmas_for_typing_are_its_documents_lemmas() -> None:
    """The reader hands typing the lemmas as the file's fields (`Columns.lemmas`): the same texts
    as the documents' lemma lists, token for token."""
    path = ROOT / "samples" / "gum" / "key.gum.conll"
    documents = conll.parse_conll(str(path), path.read_bytes())
    stored = _stored_tokens(documents[0])
    assert stored is not None and isinstance(stored[0].lemmas, FieldTexts)
    flat = [lemma for doc in documents for lemma in doc.lemmas]
    assert stored[0].lemmas.take(list(range(len(flat)))) == flat


@given(st.lists(FIELD, min_size=1, max_size=40))
def test_field_texts_of_joined_texts_are_those_texts(texts: list[str]) -> None:
    joined = FieldTexts.joined("\n".join(texts), np.array([len(text.encode()) for text in texts]))
    assert joined.take(list(range(len(texts)))) == texts == [joined[i] for i in range(len(texts))]

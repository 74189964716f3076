"""The parse column's heads (`heads_parse.parse_dependencies`, all documents at once as arrays)
against the walk over one document's tokens (tests/reference_heads.py): equal on real trees and on
random bracketings, malformed ones included, each document alone and many together."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.formats.readers import read_documents
from metrics.mentions.heads_parse import parse_dependencies
from reference_heads import dependencies_from_parse

DATA = Path(__file__).parent / "data" / "formats"
LABELS = ["NP", "NP-SBJ", "VP", "S", "PP", "SBAR", "WHNP", "ADJP", "QP", "NML", "X", "FRAG", "UCP", "ADVP",
          "WHADVP", "SQ", "NX", "PRN", "INTJ", "CONJP", "SINV", "NAC", "RRC"]
TAGS = ["NN", "NNP", "DT", "PRP", "POS", "IN", "VBD", "JJ", "CD", ",", "CC", "RB", "X", "NP", "VP", "TO", "WRB",
        "QP", "$", "JJS"]
"""Tags and labels that several rules rank differently (a tag may be a label's name: "NP")."""


def test_real_trees_give_the_same_heads() -> None:
    documents = read_documents(str(DATA / "gum2.conll"))
    assert any(doc.parse for doc in documents)
    together = parse_dependencies([doc.parse for doc in documents], [doc.pos for doc in documents])
    for doc, found in zip(documents, together):
        expected = dependencies_from_parse(doc.parse, doc.pos)
        assert expected is not None and any(h >= 0 for h in expected)  # a test that reads trees
        assert found == expected
        assert doc.parse_heads == expected  # the reader found them, for all documents at once
        assert parse_dependencies([doc.parse], [doc.pos]) == [expected]
        assert parse_dependencies([doc.parse], [None]) == [dependencies_from_parse(doc.parse, None)]


@st.composite
def bracketings(draw: st.DrawFn) -> tuple[list[str], list[str] | None]:
    """Parse bits of random trees: each token opens 0-3 labelled brackets and closes 0-3 (so
    brackets left open, closed too often, and the occasional bit that is no pattern at all)."""
    n = draw(st.integers(0, 30))
    bits = []
    for _ in range(n):
        opened = "".join(f"({draw(st.sampled_from(LABELS))}" for _ in range(draw(st.integers(0, 3))))
        bit = opened + "*" + ")" * draw(st.integers(0, 3))
        if draw(st.integers(0, 40)) == 0:
            bit = draw(st.sampled_from(["**", "(NP", "x*", "*)x", "(*", "((NP*", "(NP=2(S-1*"]))
        bits.append(bit)
    pos = draw(st.one_of(st.none(), st.lists(st.sampled_from(TAGS), min_size=n, max_size=n)))
    return bits, pos


@st.composite
def balanced_trees(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """Well-formed forests: every bracket opened is closed, at a random later token."""
    n = draw(st.integers(1, 40))
    opens = [draw(st.integers(0, 2)) for _ in range(n)]
    closes = [0] * n
    depth = 0
    for t in range(n):
        depth += opens[t]
        closing = depth if t == n - 1 else draw(st.integers(0, depth))
        closes[t] = closing
        depth -= closing
    bits = ["".join(f"({draw(st.sampled_from(LABELS))}" for _ in range(opens[t])) + "*" + ")" * closes[t]
            for t in range(n)]
    return bits, [draw(st.sampled_from(TAGS)) for _ in range(n)]


@settings(max_examples=300, deadline=None)
@given(bracketings())
def test_random_bracketings_give_the_same_heads(column: tuple[list[str], list[str] | None]) -> None:
    parse, pos = column
    assert parse_dependencies([parse], [pos]) == [dependencies_from_parse(parse, pos)]


@settings(max_examples=300, deadline=None)
@given(balanced_trees())
def test_random_trees_give_the_same_heads(column: tuple[list[str], list[str]]) -> None:
    parse, pos = column
    expected = dependencies_from_parse(parse, pos)
    assert expected is not None
    assert parse_dependencies([parse], [pos]) == [expected]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(balanced_trees(), bracketings()), max_size=6))
def test_many_documents_at_once_give_each_document_s_heads(columns: list[tuple[list[str], list[str] | None]]) -> None:
    """Documents laid end to end, trees and malformed columns and empty ones mixed: each gets
    what it gets alone (a malformed neighbour, or a tree left open before it, changes nothing)."""
    found = parse_dependencies([parse for parse, _ in columns], [pos for _, pos in columns])
    assert found == [dependencies_from_parse(parse, pos) for parse, pos in columns]

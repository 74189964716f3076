"""Writers: CoNLL-2012 and jsonlines round trips give identical Documents and identical scores."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pytest

from metrics.formats.conll import parse_conll
from metrics.formats.jsonlines import parse_jsonlines
from metrics.model import Document
from metrics.formats.readers import read_documents
from metrics.corpus.scoring import prepare
from metrics.formats.writers import write_conll, write_jsonlines

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "formats"
CONLL_FILES = [DATA / "gum2.conll", DATA / "gum2.response.conll", *sorted((ROOT / "samples").rglob("*.conll"))]


def content(doc: Document) -> dict:
    """Everything a Document says about the text, without where it was read from."""
    fields = dataclasses.asdict(dataclasses.replace(doc, mention_arrays=None))  # (derived, not read)
    for where in ("path", "line", "token_lines", "mention_arrays"):
        fields.pop(where)
    return fields


def conll_round_trip(docs: list[Document]) -> list[Document]:
    out = io.StringIO()
    write_conll(docs, out)
    return parse_conll("written.conll", out.getvalue().encode())


def jsonl_round_trip(docs: list[Document]) -> list[Document]:
    out = io.StringIO()
    write_jsonlines(docs, out)
    return parse_jsonlines("written.jsonl", out.getvalue().splitlines())


@pytest.mark.parametrize("path", CONLL_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_conll_read_write_read_is_identical(path: Path) -> None:
    docs = read_documents(str(path))
    assert [content(d) for d in conll_round_trip(docs)] == [content(d) for d in docs]


def test_conll_round_trip_scores_identically() -> None:
    key = read_documents(str(DATA / "gum2.conll"))
    response = read_documents(str(DATA / "gum2.response.conll"))
    before = prepare(key, response).score()
    after = prepare(conll_round_trip(key), conll_round_trip(response)).score()
    assert {n: (s.recall, s.precision, s.f1) for n, s in after.micro.items()} == \
        {n: (s.recall, s.precision, s.f1) for n, s in before.micro.items()}


@pytest.mark.parametrize("source", ["gum2.jsonl", "gum2.conllu", "gum2.conll"])
def test_jsonlines_round_trip_is_identical(source: str) -> None:
    docs = read_documents(str(DATA / source))
    once = jsonl_round_trip(docs)
    for a, b in zip(docs, once):
        assert (a.name, a.words, a.sentence_starts, a.chains, a.pos, a.speakers) == \
            (b.name, b.words, b.sentence_starts, b.chains, b.pos, b.speakers)
    assert [content(d) for d in jsonl_round_trip(once)] == [content(d) for d in once]


def test_conllu_documents_written_as_conll_keep_words_and_chains() -> None:
    docs = read_documents(str(DATA / "gum2.conllu"))
    back = conll_round_trip(docs)
    assert [(d.name, d.words, d.sentence_starts, d.chains, d.labels, d.pos, d.speakers) for d in back] == \
        [(d.name, d.words, d.sentence_starts, d.chains, d.labels, d.pos, d.speakers) for d in docs]


def make(chains: list[list[tuple[int, int]]], n: int = 6) -> Document:
    return Document(name="(t); part 000", words=[f"w{i}" for i in range(n)], chains=chains,
                    labels=[str(i) for i in range(len(chains))], sentence_starts=[0])


def test_nested_same_chain_mentions_survive() -> None:
    doc = make([[(2, 3), (0, 5), (0, 3), (4, 5), (5, 5)], [(0, 5)]])
    [back] = conll_round_trip([doc])
    assert sorted(back.chains[0]) == sorted(doc.chains[0])
    assert back.chains[1] == [(0, 5)]


def test_crossing_mentions_of_one_chain_cannot_be_written() -> None:
    with pytest.raises(ValueError, match="crossing"):
        write_conll([make([[(0, 2), (1, 4)]])], io.StringIO())


def test_tokens_with_whitespace_cannot_be_written() -> None:
    doc = Document(name="d", words=["New York", "x"], chains=[])
    with pytest.raises(ValueError, match="whitespace"):
        write_conll([doc], io.StringIO())


def test_jsonlines_writer_can_name_the_cluster_field() -> None:
    out = io.StringIO()
    write_jsonlines([make([[(0, 1)]])], out, clusters_field="predicted_clusters")
    [doc] = parse_jsonlines("x.jsonl", out.getvalue().splitlines(), "predicted_clusters")
    assert doc.chains == [[(0, 1)]]

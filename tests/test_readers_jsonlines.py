"""The jsonlines reader: documents, optional annotations, the cluster field choice, located errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from metrics.model import Document, InputError
from metrics.formats.readers import read_documents


def read_jsonlines(path: str, clusters_field: str = "clusters") -> list[Document]:
    """A jsonlines file as `corefwb` reads one given as such (`--key-format jsonl`)."""
    return read_documents(path, "jsonl", clusters_field=clusters_field)


def write(tmp_path: Path, objects: list[object], name: str = "f.jsonl") -> str:
    path = tmp_path / name
    path.write_text("\n".join(o if isinstance(o, str) else json.dumps(o) for o in objects) + "\n", encoding="utf-8")
    return str(path)


DOC = {
    "doc_key": "bc/cctv/00/cctv_0000_0",
    "sentences": [["John", "saw", "Mary"], ["He", "waved"]],
    "clusters": [[[0, 0], [3, 3]], [[2, 2]]],
    "predicted_clusters": [[[0, 0], [2, 2], [3, 3]]],
}


def test_document_words_sentences_and_chains(tmp_path: Path) -> None:
    [doc] = read_jsonlines(write(tmp_path, [DOC]))
    assert doc.name == "bc/cctv/00/cctv_0000_0"
    assert doc.words == ["John", "saw", "Mary", "He", "waved"]
    assert doc.sentence_starts == [0, 3]
    assert doc.chains == [[(0, 0), (3, 3)], [(2, 2)]]
    assert doc.labels == ["0", "1"]
    assert doc.line == 1 and doc.token_lines == [1] * 5
    assert doc.pos is None and doc.speakers is None and doc.named_entities is None


def test_empty_clusters_are_dropped_keeping_file_indices_as_labels(tmp_path: Path) -> None:
    [doc] = read_jsonlines(write(tmp_path, [dict(DOC, clusters=[[], [[0, 0]], [], [[1, 2]]])]))
    assert doc.chains == [[(0, 0)], [(1, 2)]]
    assert doc.labels == ["1", "3"]


def test_predicted_clusters_selectable(tmp_path: Path) -> None:
    path = write(tmp_path, [DOC])
    [doc] = read_documents(path, "jsonl", clusters_field="predicted_clusters")
    assert doc.chains == [[(0, 0), (2, 2), (3, 3)]]


def test_optional_annotations_per_sentence_or_flat(tmp_path: Path) -> None:
    per_sentence = dict(DOC, pos=[["NNP", "VBD", "NNP"], ["PRP", "VBD"]],
                        speakers=[["a", "a", "a"], ["b", "b"]], ner=[[[0, 0, "PERSON"], [2, 2, "PERSON"]], []])
    flat = dict(DOC, doc_key="flat", pos=["NNP", "VBD", "NNP", "PRP", "VBD"],
                speakers=["a", "a", "a", "b", "b"], ner=[[0, 0, "PERSON"], [2, 2, "PERSON"]])
    tags = dict(DOC, doc_key="tags", ner=[["B-PER", "O", "B-PER"], ["O", "O"]])
    plain = dict(DOC, doc_key="plain", ner=["PER", "PER", "O", "O", "ORG"])
    docs = read_jsonlines(write(tmp_path, [per_sentence, flat, tags, plain]))
    assert docs[0].pos == docs[1].pos == ["NNP", "VBD", "NNP", "PRP", "VBD"]
    assert docs[0].speakers == docs[1].speakers == ["a", "a", "a", "b", "b"]
    assert docs[0].named_entities == docs[1].named_entities == [(0, 0, "PERSON"), (2, 2, "PERSON")]
    assert docs[2].named_entities == [(0, 0, "PER"), (2, 2, "PER")]
    assert docs[3].named_entities == [(0, 1, "PER"), (4, 4, "ORG")]


def test_blank_lines_are_skipped_and_lines_counted(tmp_path: Path) -> None:
    path = write(tmp_path, ["", DOC, "   ", dict(DOC, doc_key="b")])
    docs = read_jsonlines(path)
    assert [(d.name, d.line) for d in docs] == [("bc/cctv/00/cctv_0000_0", 2), ("b", 4)]


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ('{"doc_key": "a", ', "invalid JSON"),
        ([1, 2], "JSON object"),
        ({"sentences": [["a"]], "clusters": []}, "'doc_key'"),
        ({"doc_key": "a", "clusters": []}, "'sentences'"),
        ({"doc_key": "a", "sentences": [["a", 3]], "clusters": []}, "'sentences'[0][1]"),
        ({"doc_key": "a", "sentences": [["a"]]}, "'clusters' is missing"),
        ({"doc_key": "a", "sentences": [["a"]], "clusters": [[[0, 1]]]}, "outside the document's 1 tokens"),
        ({"doc_key": "a", "sentences": [["a", "b"]], "clusters": [[[1, 0]]]}, "span [1, 0] ends before it starts"),
        ({"doc_key": "a", "sentences": [["a"]], "clusters": [[[0]]]}, "'clusters'[0][0]"),
        ({"doc_key": "a", "sentences": [["a"]], "clusters": [[[True, 0]]]}, "is not [start, end]"),
        ({"doc_key": "a", "sentences": [["a"]], "clusters": [], "pos": ["NN", "NN"]}, "'pos' has 2 items"),
        ({"doc_key": "a", "sentences": [["a"]], "clusters": [], "ner": [[0, 3, "X"]]}, "'ner'"),
        ({"doc_key": "a", "sentences": [["a", "b"]], "clusters": [], "speakers": [["x"]]}, "'speakers'[0]"),
    ],
)
def test_malformed_lines_are_located(tmp_path: Path, obj: object, message: str) -> None:
    path = write(tmp_path, [DOC, obj])
    with pytest.raises(InputError) as info:
        read_jsonlines(path)
    assert (info.value.path, info.value.line) == (path, 2)
    assert message in info.value.message


def test_missing_predicted_clusters_names_the_fields_present(tmp_path: Path) -> None:
    path = write(tmp_path, [{"doc_key": "a", "sentences": [["a"]], "clusters": []}])
    with pytest.raises(InputError, match="'predicted_clusters' is missing .*clusters"):
        read_jsonlines(path, "predicted_clusters")


def test_duplicate_doc_key_names_both_lines(tmp_path: Path) -> None:
    path = write(tmp_path, [DOC, DOC])
    with pytest.raises(InputError, match="appears twice .also on line 1") as info:
        read_jsonlines(path)
    assert info.value.line == 2


def test_empty_file_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "e.jsonl"
    path.write_text("\n", encoding="utf-8")
    with pytest.raises(InputError, match="no documents"):
        read_jsonlines(str(path))


def test_json_message_reads_as_one_phrase(tmp_path: Path) -> None:
    path = tmp_path / "cut.jsonl"
    path.write_text('{"doc_key": "a", "sentences": [["x"]], "clusters": []}\n{"doc_key": "b\n')
    with pytest.raises(InputError) as info:
        read_jsonlines(str(path))
    assert info.value.line == 2
    assert info.value.message == "invalid JSON: Unterminated string starting at column 13"

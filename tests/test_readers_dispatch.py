"""Format detection (extension, content, override), gzip, cross-format pairing names, token alignment."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest

from metrics.model import Document, InputError
from metrics.formats.readers import detect_format, read_documents
from metrics.mentions.pairing import check_tokens_align, document_key

DATA = Path(__file__).resolve().parent / "data" / "formats"


def copy(tmp_path: Path, source: str, name: str, gz: bool = False) -> str:
    target = tmp_path / name
    if gz:
        with open(DATA / source, "rb") as src, gzip.open(target, "wb") as dst:
            shutil.copyfileobj(src, dst)
    else:
        shutil.copy(DATA / source, target)
    return str(target)


@pytest.mark.parametrize(
    ("source", "name", "gz", "fmt"),
    [
        ("gum2.conll", "k.conll", False, "conll"),
        ("gum2.conll", "k.conll.gz", True, "conll"),
        ("gum2.conllu", "k.conllu", False, "conllu"),
        ("gum2.conllu", "k.conllu.gz", True, "conllu"),
        ("gum2.jsonl", "k.jsonl", False, "jsonl"),
        ("gum2.jsonl", "k.jsonlines.gz", True, "jsonl"),
        ("gum2.jsonl", "k.json", False, "jsonl"),
        ("gum2.conllu", "k.txt", False, "conllu"),       # no telling extension: content decides
        ("gum2.conll", "k", False, "conll"),
        ("gum2.conll", "dev.english.v4_gold_conll", False, "conll"),
        ("gum2.jsonl", "k.dat.gz", True, "jsonl"),
    ],
)
def test_detection_by_extension_and_content(tmp_path: Path, source: str, name: str, gz: bool, fmt: str) -> None:
    path = copy(tmp_path, source, name, gz)
    assert detect_format(path) == fmt
    docs = read_documents(path)
    assert [d.n_tokens for d in docs] == [373, 523]


def test_content_wins_over_a_misleading_extension_with_a_warning(tmp_path: Path) -> None:
    path = copy(tmp_path, "gum2.conllu", "k.conll")
    warnings: list[str] = []
    docs = read_documents(path, warnings=warnings)
    assert docs[0].name == "GUM_news_asylum"
    assert warnings and "reading it as conllu" in warnings[0]


def test_explicit_format_overrides_detection(tmp_path: Path) -> None:
    path = copy(tmp_path, "gum2.conllu", "k.jsonl")
    assert read_documents(path, "conllu")[0].name == "GUM_news_asylum"
    assert read_documents(path, "auto")[0].name == "GUM_news_asylum"
    with pytest.raises(InputError) as info:
        read_documents(path, "conll")
    assert info.value.path == path
    with pytest.raises(ValueError, match="unknown format"):
        read_documents(path, "xml")


def test_undetectable_file_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("hello world\n", encoding="utf-8")
    with pytest.raises(InputError, match="cannot tell the format"):
        read_documents(str(path))


def test_missing_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot open"):
        read_documents(str(tmp_path / "nothing.conll"))


def test_missing_file_without_an_extension_says_it_cannot_be_opened(tmp_path: Path) -> None:
    """No extension to go by and no content to look at: the file's absence is what is wrong, not
    its format (a mistyped name read as "cannot tell the format" sends the user to --key-format)."""
    with pytest.raises(InputError, match="cannot open: No such file or directory"):
        read_documents(str(tmp_path / "nothing"))


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("(GUM_news_asylum); part 000", "GUM_news_asylum"),
        ("GUM_news_asylum", "GUM_news_asylum"),
        ("GUM_news_asylum_0", "GUM_news_asylum"),
        ("(bc/cctv/00/cctv_0001); part 002", "bc/cctv/00/cctv_0001_2"),
        ("bc/cctv/00/cctv_0001_2", "bc/cctv/00/cctv_0001_2"),
        ("(145_middlemarch_brat); part 0", "145_middlemarch_brat"),
    ],
)
def test_document_key_pairs_names_across_formats(name: str, key: str) -> None:
    assert document_key(name) == key


def doc(words: list[str], path: str) -> Document:
    return Document(name="d", words=words, chains=[], path=path, line=1, token_lines=list(range(2, 2 + len(words))))


def test_token_alignment_check() -> None:
    key = doc(["(", "a", "b", ")", "``"], "key.conll")
    assert check_tokens_align(key, doc(["-LRB-", "a", "b", "-RRB-", '"'], "r.jsonl")) == []
    [warning] = check_tokens_align(key, doc(["(", "a", "c", ")", "x"], "r.jsonl"))
    assert warning.startswith("r.jsonl:4: ") and "2 of 5 words differ" in warning and "key.conll:4" in warning
    with pytest.raises(InputError) as info:
        check_tokens_align(key, doc(["a"], "r.jsonl"))
    assert info.value.path == "r.jsonl" and "key.conll" in info.value.message and "1 tokens" in info.value.message


@pytest.mark.parametrize(
    ("name", "text", "line"),
    [
        ("bad.conllu", "# newdoc id = d\n1\tx\tx\tNOUN\t_\t_\t0\troot\t_\tEntity=e1)\n\n", 2),
        ("bad.jsonl", '{"doc_key": "d", "sentences": [["x"]], "clusters": [[[0, 0]]]}\n{"doc_key": \n', 2),
        ("bad2.jsonl", '{"doc_key": "d", "sentences": [["x"]], "clusters": [[[0, 5]]]}\n', 1),
    ],
)
def test_cli_reports_malformed_inputs_in_one_located_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          name: str, text: str, line: int) -> None:
    from workbench.cli import main

    bad = tmp_path / name
    bad.write_text(text, encoding="utf-8")
    key = copy(tmp_path, "gum2.conll", "key.conll")
    assert main(["score", key, str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"corefwb: error: {bad}:{line}: ")


def test_detection_reads_only_the_head_of_a_file(tmp_path: Path) -> None:
    """`read_head` gives about the first 64 KiB of the content, gunzipped (a 6 MB input is not read
    or decompressed whole to tell its format), and b"" for a damaged gzip: the reader then says
    what is wrong, with its location."""
    from metrics.formats.source import read_head

    text = (DATA / "gum2.conll").read_bytes() * 200  # well over the head's size
    plain, packed = tmp_path / "big.conll", tmp_path / "big.conll.gz"
    plain.write_bytes(text)
    packed.write_bytes(gzip.compress(text))
    assert read_head(str(plain)) == text[:65536] and read_head(str(packed)) == text[:65536]
    assert read_head(str(packed), 100) == text[:100]
    assert detect_format(str(packed)) == "conll"
    damaged = tmp_path / "damaged.conll.gz"
    damaged.write_bytes(b"\x1f\x8b" + b"\x00" * 40)
    assert read_head(str(damaged)) == b""
    assert read_head(str(tmp_path / "absent.conll")) == b""
    with pytest.raises(InputError):
        read_documents(str(damaged))

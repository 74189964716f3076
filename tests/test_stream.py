"""Streaming (`--stream`) scores equal the in-memory scores, document for document."""

from __future__ import annotations

from pathlib import Path

import pytest

from metrics.formats.readers import read_documents
from metrics.corpus.scoring import prepare
from metrics.conventions.options import Options
from metrics.conventions.pipeline import stream
from metrics.corpus.stream import index_conll
from metrics.model import InputError

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
METRICS = ["mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll", "lmuc", "lbcub", "lceafm", "lceafe"]


@pytest.mark.parametrize("key, response", [("gum/key.gum.conll", "gum/response.gum.conll"),
                                           ("gum/key.ontogum.conll", "gum/response.ontonotes.conll")])
@pytest.mark.parametrize("jobs", [1, 2])
def test_streaming_equals_in_memory(key, response, jobs):
    k, r = str(SAMPLES / key), str(SAMPLES / response)
    whole = prepare(read_documents(k), read_documents(r)).score(metrics=METRICS)
    streamed, _ = stream(k, r, Options(), metrics=METRICS, jobs=jobs)
    assert [name for name, _ in streamed.documents] == [name for name, _ in whole.documents]
    for (_, a), (_, b) in zip(streamed.documents, whole.documents):
        assert {m: s.f1 for m, s in a.items()} == {m: s.f1 for m, s in b.items()}
    assert {m: s.f1 for m, s in streamed.micro.items()} == {m: s.f1 for m, s in whole.micro.items()}


def test_index_reports_located_errors(tmp_path):
    doc = "#begin document (a); part 000\nx 0 0 w - - - - - - * -\n#end document\n"
    path = tmp_path / "twice.conll"
    path.write_text(doc + doc)
    with pytest.raises(InputError) as info:
        index_conll(str(path))
    assert info.value.line == 4
    broken = tmp_path / "broken.conll"
    broken.write_text(doc + doc.replace("(a)", "(b)").replace(" -\n#end", " 1)\n#end"))
    with pytest.raises(InputError) as info:
        stream(str(broken), str(broken), Options(), metrics=["muc"], jobs=2)
    assert info.value.line == 5


def test_binary_junk_is_reported_as_not_utf8(tmp_path):
    """Random bytes hold CRs too; the index must not call them old-Mac line ends."""
    junk = tmp_path / "junk.conll"
    junk.write_bytes(b"#begin document (a); part 000\n\xff\xfe\r\x80 x\n#end document\n")
    with pytest.raises(InputError) as info:
        index_conll(str(junk))
    assert info.value.line == 2 and "not UTF-8" in info.value.message


def test_the_convention_decides_what_streams(tmp_path):
    """Streaming is the road's: the convention says which files it can take a document at a time
    (CoNLL-2012 files, uncompressed, exact matching, singletons kept); for others `stream` gives
    None and the files are read whole."""
    import gzip

    k, r = str(SAMPLES / "gum/key.gum.conll"), str(SAMPLES / "gum/response.gum.conll")
    assert stream(k, r, Options(), metrics=["muc"]) is not None
    assert stream(k, r, Options(match="head"), metrics=["muc"]) is None
    assert stream(k, r, Options(keep_singletons=False), metrics=["muc"]) is None
    assert stream(k, r, Options(conventions="corefud"), metrics=["muc"]) is None
    packed = tmp_path / "response.conll.gz"
    packed.write_bytes(gzip.compress(Path(r).read_bytes()))
    assert stream(k, str(packed), Options(), metrics=["muc"]) is None


def test_streamed_warnings_are_the_whole_readings(tmp_path):
    """A key document the response lacks and a response document the key lacks: the same
    warnings, in the same order, as the whole-file road's pairing gives."""
    doc = "#begin document ({name}); part 000\nx 0 0 w - - - - - - * (1)\n#end document\n"
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(doc.format(name="a") + doc.format(name="b"))
    response.write_text(doc.format(name="a") + doc.format(name="c"))
    whole = prepare(read_documents(str(key)), read_documents(str(response)))
    streamed = stream(str(key), str(response), Options(), metrics=["muc"], jobs=2)
    assert streamed is not None
    assert streamed[1] == whole.warnings and len(whole.warnings) == 2


def _odd_document(name: str, oddities: bool) -> str:
    """A document that, with `oddities`, holds each condition a reader warns of once per file:
    a `#` comment line, a token line of one field, and text after its `#end document`."""
    lines = [f"#begin document ({name}); part 000", "x 0 0 w - - - - - - * (1)"]
    if oddities:
        lines += ["# a comment", "(1)"]
    lines += ["y 0 1 w - - - - - - * (1)", "#end document"]
    return "\n".join(lines + (["text between documents"] if oddities else [])) + "\n"


@pytest.mark.parametrize("jobs", [1, 2])
def test_streamed_reading_warnings_once_per_file(tmp_path, jobs):
    """Each document's reading says its own "first such line"; streamed, the files' warnings are
    still said once per file, at their first lines, in the order the whole files' road says them
    (the response's documents in another order than the key's, so read in an order that is not
    its lines', and text before its first document)."""
    from metrics.conventions.pipeline import load

    names = ["a", "b", "c", "d"]
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text("".join(_odd_document(name, name in "bd") for name in names))
    response.write_text("text before\n" + "".join(_odd_document(name, name in "bd") for name in reversed(names)))
    whole = load(str(key), [str(response)], Options()).warnings
    streamed = stream(str(key), str(response), Options(), metrics=["muc"], jobs=jobs)
    assert streamed is not None
    assert streamed[1] == list(whole)
    assert sum("first such line" in note for note in whole) == 6  # three kinds in each file
    assert f"{response}:1: text outside" in whole[3]


def _document(name: str, closed: bool, comment: bool, bracket: str) -> str:
    """A document with or without its `#end document`, a `#` comment line, and `bracket` as its
    second token's coreference cell (`(2` never closed, `3)` never opened)."""
    lines = [f"#begin document ({name}); part 000", "x 0 0 w - - - - - - * (1)"]
    lines += ["# a comment"] * comment + [f"y 0 1 w - - - - - - * {bracket}", ""]
    return "\n".join(lines + ["#end document"] * closed) + "\n"


@pytest.mark.parametrize("closed", [(False, True), (True, False), (False, False)])
@pytest.mark.parametrize("bracket", ["(1)", "(2", "3)"])
@pytest.mark.parametrize("comment", [False, True])
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_document_left_open_is_told_as_the_whole_reading_tells_it(tmp_path, closed, bracket, comment, jobs):
    """A document without its `#end document`, the last or followed by another, with a warning
    or a broken mention in it: streamed, the file (key or response) is refused at the line and
    with the message of the whole file's reading (a document followed by another was refused at
    the slice's last line, "has no #end document", where the whole reading meets the next
    `#begin document` first)."""
    from metrics.conventions.pipeline import load

    broken, good = tmp_path / "broken.conll", tmp_path / "good.conll"
    broken.write_text("".join(_document(name, shut, comment, bracket) for name, shut in zip("ab", closed)))
    good.write_text("".join(_document(name, True, False, "(1)") for name in "ab"))
    for key, response in ((broken, good), (good, broken)):
        with pytest.raises(InputError) as whole:
            load(str(key), [str(response)], Options())
        with pytest.raises(InputError) as streamed:
            stream(str(key), str(response), Options(), metrics=["muc"], jobs=jobs)
        said = (streamed.value.path, streamed.value.line, streamed.value.message)
        assert said == (whole.value.path, whole.value.line, whole.value.message) and said[0] == str(broken)

"""Streaming (`--stream`) scores equal the in-memory scores, document for document."""

from __future__ import annotations

from pathlib import Path

import pytest

from metrics.formats.readers import read_documents
from metrics.corpus.scoring import prepare
from metrics.corpus.stream import index_conll, score_files
from metrics.model import InputError

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
METRICS = ["mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll", "lmuc", "lbcub", "lceafm", "lceafe"]


@pytest.mark.parametrize("key, response", [("gum/key.gum.conll", "gum/response.gum.conll"),
                                           ("gum/key.ontogum.conll", "gum/response.ontonotes.conll")])
@pytest.mark.parametrize("jobs", [1, 2])
def test_streaming_equals_in_memory(key, response, jobs):
    k, r = str(SAMPLES / key), str(SAMPLES / response)
    whole = prepare(read_documents(k), read_documents(r)).score(metrics=METRICS)
    streamed, _ = score_files(k, r, metrics=METRICS, jobs=jobs)
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
        score_files(str(broken), str(broken), metrics=["muc"], jobs=2)
    assert info.value.line == 5


def test_binary_junk_is_reported_as_not_utf8(tmp_path):
    """Random bytes hold CRs too; the index must not call them old-Mac line ends."""
    junk = tmp_path / "junk.conll"
    junk.write_bytes(b"#begin document (a); part 000\n\xff\xfe\r\x80 x\n#end document\n")
    with pytest.raises(InputError) as info:
        index_conll(str(junk))
    assert info.value.line == 2 and "not UTF-8" in info.value.message

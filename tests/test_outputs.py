"""Responses as today's systems write them (metrics.formats.outputs), mapped onto the key's words by
characters (metrics.mentions.characters), and `corefwb convert`.

The files here are written by hand, with their offsets counted by hand, so that a reader and a
writer sharing a mistake cannot hide it; each format has an off-by-one trap: the same chains with
the other end convention must not score as the twin.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from metrics.formats.readers import read_documents
from metrics.formats.writers import output_record, write_conll, write_conllu, write_jsonlines, write_outputs
from metrics.mentions.characters import key_words, to_key_words
from metrics.model import Document, InputError
from workbench.cli import main
from workbench.session import LoadOptions, Session

KEY = """#begin document (one); part 000
one\t0\t0\tJohn\t-\t-\t-\t-\t-\t-\t*\t(1)
one\t0\t1\tmet\t-\t-\t-\t-\t-\t-\t*\t-
one\t0\t2\tMary\t-\t-\t-\t-\t-\t-\t*\t(2)
one\t0\t3\t.\t-\t-\t-\t-\t-\t-\t*\t-

one\t0\t0\tHe\t-\t-\t-\t-\t-\t-\t*\t(1)
one\t0\t1\tliked\t-\t-\t-\t-\t-\t-\t*\t-
one\t0\t2\ther\t-\t-\t-\t-\t-\t-\t*\t(2)
one\t0\t3\t.\t-\t-\t-\t-\t-\t-\t*\t-

#end document
#begin document (two); part 000
two\t0\t0\tThe\t-\t-\t-\t-\t-\t-\t*\t(3
two\t0\t1\tbig\t-\t-\t-\t-\t-\t-\t*\t-
two\t0\t2\tdog\t-\t-\t-\t-\t-\t-\t*\t3)
two\t0\t3\tbarked\t-\t-\t-\t-\t-\t-\t*\t-
two\t0\t4\t.\t-\t-\t-\t-\t-\t-\t*\t-

two\t0\t0\tIt\t-\t-\t-\t-\t-\t-\t*\t(3)
two\t0\t1\tran\t-\t-\t-\t-\t-\t-\t*\t-
two\t0\t2\t.\t-\t-\t-\t-\t-\t-\t*\t-

#end document
"""
# The response: John/He right, Mary/her split, the dog chain with "big dog" for "The big dog".
TWIN = {"(one); part 000": [[(0, 0), (4, 4)], [(2, 2)], [(6, 6)]], "(two); part 000": [[(1, 2), (5, 5)]]}

HAND_MADE = {
    # [start, end) word offsets
    "wl": ['{"document_id": "one_0", "cased_words": ["John", "met", "Mary", ".", "He", "liked", "her", "."], '
           '"sent_id": [0, 0, 0, 0, 1, 1, 1, 1], "span_clusters": [[[0, 1], [4, 5]], [[2, 3]], [[6, 7]]]}',
           '{"document_id": "two_0", "cased_words": ["The", "big", "dog", "barked", ".", "It", "ran", "."], '
           '"sent_id": [0, 0, 0, 0, 0, 1, 1, 1], "span_clusters": [[[1, 3], [5, 6]]]}'],
    # [start, end] word offsets, no names: paired by place
    "maverick": ['{"tokens": [["John", "met", "Mary", "."], ["He", "liked", "her", "."]], '
                 '"clusters_token_offsets": [[[0, 0], [4, 4]], [[2, 2]], [[6, 6]]]}',
                 '{"tokens": [["The", "big", "dog", "barked", "."], ["It", "ran", "."]], '
                 '"clusters_token_offsets": [[[1, 2], [5, 5]]]}'],
    # [start, end) characters: "John met Mary. He liked her." J=0 He=15 her=24; "The big dog barked. It ran." big=4 It=20
    "text": ['{"doc_key": "one_0", "text": "John met Mary. He liked her.", '
             '"clusters_char_offsets": [[[0, 4], [15, 17]], [[9, 13]], [[24, 27]]]}',
             '{"doc_key": "two_0", "text": "The big dog barked. It ran.", '
             '"clusters_char_offsets": [[[4, 11], [20, 22]]]}'],
    # subtokens: [CLS] Jo ##hn met Mary . [SEP] = 0..6, [CLS] He lik ##ed her . [SEP] = 7..13
    "hoi": ['{"doc_key": "one_0", "sentences": [["[CLS]", "Jo", "##hn", "met", "Mary", ".", "[SEP]"], '
            '["[CLS]", "He", "lik", "##ed", "her", ".", "[SEP]"]], '
            '"subtoken_map": [0, 0, 0, 1, 2, 3, 3, 3, 4, 5, 5, 6, 7, 7], "sentence_map": [0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1], '
            '"clusters": [[[1, 2], [8, 8]], [[4, 4]], [[11, 11]]]}',
            '{"doc_key": "two_0", "sentences": [["[CLS]", "The", "big", "dog", "bar", "##ked", ".", "[SEP]", "[CLS]", "It", '
            '"ran", ".", "[SEP]"]], "subtoken_map": [0, 0, 1, 2, 3, 3, 4, 4, 4, 5, 6, 7, 7], '
            '"clusters": [[[2, 3], [9, 9]]]}'],
}
# The same chains with the other end convention (the classic off-by-one).
TRAPS = {
    "wl": ['{"document_id": "one_0", "cased_words": ["John", "met", "Mary", ".", "He", "liked", "her", "."], '
           '"span_clusters": [[[0, 0], [4, 4]]]}'],
    "maverick": ['{"tokens": ["John", "met", "Mary", ".", "He", "liked", "her", "."], '
                 '"clusters_token_offsets": [[[0, 1], [4, 5]], [[2, 3]], [[6, 7]]]}'],
    "text": ['{"doc_key": "one_0", "text": "John met Mary. He liked her.", '
             '"clusters_char_offsets": [[[0, 3], [15, 16]], [[9, 12]], [[24, 26]]]}'],
    "hoi": ['{"doc_key": "one_0", "sentences": [["[CLS]", "Jo", "##hn", "met", "[SEP]"]], '
            '"subtoken_map": [0, 0, 0, 1, 1], "clusters": [[[1, 1]]]}'],
}


@pytest.fixture()
def key(tmp_path) -> str:
    path = tmp_path / "key.conll"
    path.write_text(KEY)
    return str(path)


def _write(tmp_path: Path, name: str, lines: list[str]) -> str:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _chains(session: Session) -> dict[str, list[list[tuple[int, int]]]]:
    return {pair.name: [sorted(c) for c in pair.response.chains] for pair in session.corpora[0].pairs}


@pytest.mark.parametrize("kind", list(HAND_MADE))
def test_each_format_scores_as_its_conll_twin_without_a_flag(tmp_path, key, kind):
    response = _write(tmp_path, f"{kind}.jsonl", HAND_MADE[kind])
    session = Session.load(key, [response], LoadOptions(cache=False))
    assert _chains(session) == {name: [sorted(c) for c in chains] for name, chains in TWIN.items()}
    assert session.corpora[0].characters.to_json() == {"mentions": 6, "snapped": 0, "lost": 0}
    twin = tmp_path / "twin.conll"
    with open(twin, "w") as out:
        write_conll([Document(name, [], chains) for name, chains in TWIN.items()] and
                    [Document(pair.name, pair.key.words, TWIN[pair.name], sentence_starts=pair.key.sentence_starts)
                     for pair in session.corpora[0].pairs], out)
    expected = Session.load(key, [str(twin)], LoadOptions(cache=False)).score().micro
    got = session.score().micro
    for metric, value in expected.items():
        assert got[metric].f1 == pytest.approx(value.f1, abs=1e-12), metric


@pytest.mark.parametrize("kind", list(TRAPS))
def test_the_other_end_convention_never_passes_for_the_twin(tmp_path, key, kind):
    """Read with the wrong convention, a file either fails with a located error or does not give
    the twin's chains (text: its mentions end inside a key word, and are counted as snapped)."""
    response = _write(tmp_path, f"{kind}.jsonl", TRAPS[kind])
    try:
        session = Session.load(key, [response], LoadOptions(cache=False))
    except InputError as error:
        assert f"{kind}.jsonl:1:" in str(error)
        return
    one = _chains(session)["(one); part 000"]
    if kind == "text":
        assert session.corpora[0].characters.snapped == 4
    else:
        assert one != [sorted(c) for c in TWIN["(one); part 000"]]


def test_offsets_outside_the_document_or_inside_a_word_are_located_errors(tmp_path):
    wl = _write(tmp_path, "wl.jsonl", ['{"document_id": "a", "cased_words": ["x", "y"], "span_clusters": [[[1, 3]]]}'])
    with pytest.raises(InputError, match=r"wl.jsonl:1: .*\[1, 3\) is outside the document's 2 words \(ends are exclusive\)"):
        read_documents(wl)
    empty = _write(tmp_path, "empty.jsonl", ['{"document_id": "a", "cased_words": ["x", "y"], "span_clusters": [[[1, 1]]]}'])
    with pytest.raises(InputError, match=r"empty.jsonl:1: .*\[1, 1\) is empty or ends before it starts \(ends are exclusive\)"):
        read_documents(empty)
    hoi = _write(tmp_path, "hoi.jsonl", [HAND_MADE["hoi"][0].replace('[[1, 2], [8, 8]]', '[[0, 2]]')])
    with pytest.raises(InputError, match=r"subtoken 0 \('\[CLS\]'\) is no word"):
        read_documents(hoi)
    text = _write(tmp_path, "text.jsonl", ['{"text": "a b", "clusters_char_offsets": [[[1, 2]]]}'])
    with pytest.raises(InputError, match="covers only whitespace"):
        read_documents(text)
    forced = _write(tmp_path, "forced.jsonl", HAND_MADE["wl"][:1])
    with pytest.raises(InputError, match="a wl record where --response-format text was asked for"):
        read_documents(forced, "text")


def test_speaker_placeholders_are_no_words(tmp_path):
    record = json.loads(HAND_MADE["hoi"][0])
    record["sentences"][0][1:1] = ["[SPL]", "mr", "smith", "[SPL]"]
    record["subtoken_map"][1:1] = [0, 0, 0, 0]
    record["sentence_map"][1:1] = [0, 0, 0, 0]
    record["clusters"] = [[[5, 6], [12, 12]]]
    doc = read_documents(_write(tmp_path, "hoi.jsonl", [json.dumps(record)]))[0]
    assert doc.words[:2] == ["John", "met"] and doc.chains == [[(0, 0), (4, 4)]]


def test_text_that_differs_is_aligned_and_what_is_lost_is_said(tmp_path, key):
    """An LLM's rewrite: curly quotes, no spaces, a word respelled, a word added: the mentions on
    text the key has survive (one snapped: it ends inside a key word); the one on added text is
    lost and named in a warning."""
    text = "JOHN met Mary.He liked  hers. Yesterday"
    #       0    5   9    14 17    23   28 30
    response = _write(tmp_path, "llm.jsonl", [json.dumps(
        {"doc_key": "one_0", "text": text,
         "clusters_char_offsets": [[[0, 4], [14, 16]], [[9, 11], [30, 39]], [[24, 28]]]})])
    session = Session.load(key, [response], LoadOptions(cache=False))
    chains = _chains(session)["(one); part 000"]
    assert chains == [[(0, 0), (4, 4)], [(2, 2)], [(6, 6)]]
    assert session.corpora[0].characters.to_json() == {"mentions": 5, "snapped": 2, "lost": 1}
    assert any("'Yesterday' (its words 8-8, chain 1): not in the key's text" in w for w in session.warnings)


def test_convert_writes_every_target_and_reading_back_is_the_identity(tmp_path, key, capsys):
    response = _write(tmp_path, "text.jsonl", HAND_MADE["text"])
    for target in ("conll", "conllu", "jsonl", "hoi", "wl", "maverick", "text"):
        out = tmp_path / f"out.{target}"
        assert main(["convert", response, str(out), "--to", target, "--key", key]) == 0
        session = Session.load(key, [str(out)], LoadOptions(cache=False, conventions="conll"))
        assert _chains(session) == {n: [sorted(c) for c in chains] for n, chains in TWIN.items()}, target
    assert main(["convert", response, response, "--to", "text"]) == 1
    assert "onto an input" in capsys.readouterr().err


def test_an_output_named_gz_is_gzipped(tmp_path, capsys):
    """`convert IN OUT.conll.gz` (its format found under the .gz) and `score --output X.json.gz`
    write gzip, the same bytes every run, holding what the plain name gets."""
    import gzip

    key = tmp_path / "key.conll"
    key.write_text(KEY)
    key = str(key)
    for args, name in ((["convert", key], "out.conll"), (["score", key, key, "--format", "json", "--output"], "s.json")):
        plain, packed = tmp_path / name, tmp_path / (name + ".gz")
        assert main([*args, str(plain)]) == 0 and main([*args, str(packed)]) == 0
        first = packed.read_bytes()
        assert gzip.decompress(first) == plain.read_bytes()
        assert main([*args, str(packed)]) == 0 and packed.read_bytes() == first
    capsys.readouterr()


words = st.lists(st.sampled_from(["a", "bb", "C", "dé", "x-y", "'s", "“q”", "."]), min_size=1, max_size=14)


@st.composite
def documents(draw) -> Document:
    ws = draw(words)
    starts = sorted({0} | set(draw(st.lists(st.integers(0, len(ws) - 1), max_size=3))))
    ends = {s - 1 for s in starts[1:]} | {len(ws) - 1}
    sentence = [max(s for s in starts if s <= t) for t in range(len(ws))]
    spans = set()
    for _ in range(draw(st.integers(0, 6))):
        a = draw(st.integers(0, len(ws) - 1))
        b = draw(st.integers(a, min(len(ws) - 1, min(e for e in ends if e >= a))))
        if not any(a < c <= b < d or c < a <= d < b for c, d in spans):  # crossing: no bracket format has it
            spans.add((a, b))
    spans = sorted(spans)
    chains, i = [], 0
    while i < len(spans):
        size = draw(st.integers(1, 3))
        chains.append(spans[i:i + size])
        i += size
    assert all(sentence[a] == sentence[b] for c in chains for a, b in c)
    return Document("(d); part 000", ws, chains, sentence_starts=starts)


@settings(max_examples=60, deadline=None)
@given(documents())
def test_every_writer_then_its_reader_gives_back_the_chains(tmp_path_factory, doc):
    import io

    directory = tmp_path_factory.mktemp("roundtrip")
    for target in ("conll", "conllu", "jsonl", "hoi", "wl", "maverick", "text"):
        out = io.StringIO()
        {"conll": lambda: write_conll([doc], out), "conllu": lambda: write_conllu([doc], out),
         "jsonl": lambda: write_jsonlines([doc], out)}.get(target, lambda: write_outputs([doc], out, target))()
        path = directory / f"d.{target}"
        path.write_text(out.getvalue())
        back = read_documents(str(path), {"hoi": "jsonl", "wl": "jsonl", "maverick": "jsonl", "text": "jsonl"}.get(target, target))
        if back[0].own_words:
            mapped, report = to_key_words(doc, back[0])
            assert report.lost == 0 and report.snapped == 0
            back = [mapped]
        assert sorted(map(sorted, back[0].chains)) == sorted(map(sorted, doc.chains)), target
        assert back[0].words == doc.words or target in ("hoi", "text", "wl", "maverick")


def test_a_record_without_a_name_pairs_by_place():
    keys = [Document("(a); part 000", ["x"], []), Document("(b); part 000", ["y"], [])]
    responses = [Document("#2", ["y"], [[(0, 0)]], own_words=True), Document("#1", ["x"], [], own_words=True)]
    mapped, report, _ = key_words(keys, responses)
    assert [d.words for d in mapped] == [["y"], ["x"]] and report.mentions == 1
    assert output_record(keys[0], "maverick")["tokens"] == [["x"]]


junk = st.recursive(st.none() | st.booleans() | st.integers(-3, 40) | st.text(max_size=4),
                    lambda inner: st.lists(inner, max_size=4), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([("subtoken_map", "sentences", "clusters", "sentence_map"),
                        ("cased_words", "span_clusters", "sent_id", "document_id"),
                        ("tokens", "clusters_token_offsets", "doc_key", "document_id"),
                        ("text", "clusters_char_offsets", "doc_key", "document_id")]),
       st.lists(junk, min_size=4, max_size=4), st.booleans())
def test_hostile_records_give_located_errors_never_a_crash(tmp_path_factory, fields, values, text_ok):
    record = dict(zip(fields, values))
    if text_ok and fields[0] == "text":
        record["text"] = "ab cd"
    path = tmp_path_factory.mktemp("hostile") / "r.jsonl"
    path.write_text(json.dumps(record) + "\n")
    try:
        read_documents(str(path))
    except InputError as error:
        assert str(error).startswith(f"{path}:1:")

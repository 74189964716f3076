"""Documents packed as columns for the cache of read files (metrics/formats/packed.py): unpacked,
they equal what was read field for field (derived fields included) and keep their types; a value
a codec cannot pack is kept as it is; an entry of the cache's older layout is refused as stale."""

from __future__ import annotations

import copy
import pickle
from dataclasses import fields, replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.formats.cache import ReadCache
from metrics.formats import packed as packed_module
from metrics.formats.packed import PackedDocuments, pack, unpack
from metrics.formats.readers import read_documents
from metrics.mentions.chains import joined_view, laid_chains
from metrics.mentions.types import prepare_types
from metrics.model import Document, MentionType

ROOT = Path(__file__).resolve().parent.parent
FILES = [ROOT / "samples" / "gum" / "key.gum.conll", ROOT / "samples" / "gum" / "response.gum.conll",
         ROOT / "tests" / "data" / "formats" / "gum2.conllu", ROOT / "tests" / "data" / "formats" / "gum2.jsonl",
         ROOT / "tests" / "data" / "corefud" / "discontinuous.key.conllu",
         ROOT / "tests" / "data" / "tricky" / "empty_both.key.conll"]


def same(back: list[Document], documents: list[Document]) -> None:
    """Every field equal, compared ones and derived ones alike, with the same types inside."""
    assert len(back) == len(documents)
    for rebuilt, read in zip(back, documents):
        for f in fields(Document):
            if f.name == "mention_arrays":  # made when unpacking (a document read from its file has none)
                continue
            got, want = getattr(rebuilt, f.name), getattr(read, f.name)
            assert got == want, f.name
            assert shapes(got) == shapes(want), f.name


def shapes(value: object) -> object:
    """The types of a value all the way down (a tuple where a list was would compare unequal later)."""
    if isinstance(value, (list, tuple)):
        return type(value), [shapes(v) for v in value]
    if isinstance(value, dict):
        return dict, [(shapes(k), shapes(v)) for k, v in value.items()]
    return type(value)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_read_documents_come_back_equal(path) -> None:
    documents = read_documents(str(path))
    same(unpack(pickle.loads(pickle.dumps(pack(documents)))), documents)


def test_documents_typed_ahead_come_back_with_their_types_and_heads() -> None:
    documents = read_documents(str(FILES[0]))
    prepare_types(documents)
    assert all(d.rule_types for d in documents) and any(d.parse_heads for d in documents)
    packed = pack(documents)
    assert {"words", "pos", "parse", "chains", "token_lines", "rule_types", "parse_heads"} <= set(packed.columns)
    back = unpack(pickle.loads(pickle.dumps(packed)))
    same(back, documents)
    kinds = {type(kind) for doc in back for kind, _ in doc.rule_types.values()}
    assert kinds == {MentionType}


def test_values_no_codec_takes_are_kept_as_they_are() -> None:
    """A word holding a line end (jsonlines can), a number that is not an int, a tuple for a list,
    a span of three numbers, a number past 64 bits: each sends its field to the rest, whole."""
    (doc,) = read_documents(str(FILES[0]))[:1]
    odd = [replace(doc, words=["a\nb"] + doc.words[1:]),
           replace(doc, name="second", token_lines=[1.5] + doc.token_lines[1:], heads=[2 ** 70] * doc.n_tokens),
           replace(doc, name="third", sentence_starts=tuple(doc.sentence_starts), chains=[[(0, 0, 0)]]),
           replace(doc, name="fourth", labels=None, pos=None, chains=[], rule_types={(0, 0): (1, "rule")}),
           replace(doc, name="empty", words=[], chains=[[]], token_lines=[], sentence_starts=[], rule_types={})]
    packed = pack(odd)
    for name in ("words", "token_lines", "heads", "sentence_starts", "chains", "rule_types"):
        assert name in packed.kept, name
    same(unpack(pickle.loads(pickle.dumps(packed))), odd)
    same(unpack(pack(odd[3:])), odd[3:])  # the same fields, fitting, as columns
    assert "rule_types" not in pack([odd[4]]).kept


def test_no_documents() -> None:
    assert unpack(pack([])) == []


@pytest.mark.parametrize("value", ["documents", PackedDocuments(1, {}, ("name",), [("x",)]),
                                   PackedDocuments(2, {}, tuple(f.name for f in fields(Document)), [()])])
def test_anything_else_is_refused(value) -> None:
    with pytest.raises(TypeError):
        unpack(value)


def test_an_entry_of_the_older_layout_is_stale_not_damaged(tmp_path) -> None:
    """The first layout pickled the documents themselves: such an entry is removed quietly and the
    file read again (the code version in the key keeps them apart too; this is the last guard)."""
    from metrics.formats import cache as cache_module

    path = str(FILES[0])
    cache = ReadCache(tmp_path / "c")
    documents = read_documents(path, cache=cache)
    (entry,) = [p for p in (tmp_path / "c").iterdir() if not p.name.endswith(".identity")]
    payload = pickle.dumps((documents, []), protocol=5)
    import hashlib
    entry.write_bytes(b"corefwb-cache 1\n" + len(payload).to_bytes(8, "big")
                      + hashlib.blake2b(payload, digest_size=32).digest() + payload)
    assert cache_module._MAGIC != b"corefwb-cache 1\n"
    again = read_documents(path, cache=cache)
    assert again == documents and cache.warnings == []
    assert unpack(cache.load(entry.name)[0]) == documents  # stored anew in the present layout


_TEXT = st.text(alphabet=st.sampled_from(["a", "É", "\n", "\0", " ", "(", "1", "\ud800"]), max_size=3)
_SPAN = st.tuples(st.integers(0, 5), st.integers(0, 5))


_OPTIONAL_TEXTS = st.one_of(st.none(), st.lists(_TEXT, max_size=6))
_OPTIONAL_HEADS = st.one_of(st.none(), st.lists(st.integers(-1, 6), max_size=6))
_OPTIONAL_LINES = st.one_of(st.none(), st.lists(st.integers(-1, 2 ** 33), max_size=6))
_OPTIONAL_RULE_TYPES = st.one_of(st.none(), st.dictionaries(_SPAN, st.tuples(st.sampled_from(list(MentionType)), _TEXT),
                                                             max_size=3))
_OPTIONAL_ENTITIES = st.one_of(st.none(), st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), _TEXT), max_size=2))
"""Each optional field's strategy built once: built at each draw, each was validated again at
every draw.  The same draws either way."""


@st.composite
def documents(draw: st.DrawFn) -> Document:
    """A document with any of the packed fields present or not, strings with line ends and lone
    surrogates among them, numbers past 32 bits, spans typed or not."""
    words = draw(st.lists(_TEXT, max_size=6))
    return Document(
        name=draw(_TEXT), words=words, chains=draw(st.lists(st.lists(_SPAN, max_size=3), max_size=3)),
        labels=draw(st.lists(_TEXT, max_size=3)), sentence_starts=draw(st.lists(st.integers(0, 2 ** 40), max_size=3)),
        path=draw(_TEXT), line=draw(st.integers(0, 9)), token_lines=draw(_OPTIONAL_LINES),
        pos=draw(_OPTIONAL_TEXTS), parse=draw(_OPTIONAL_TEXTS), heads=draw(_OPTIONAL_HEADS),
        parse_heads=draw(_OPTIONAL_HEADS), rule_types=draw(_OPTIONAL_RULE_TYPES),
        named_entities=draw(_OPTIONAL_ENTITIES))


@settings(max_examples=300, deadline=None)
@given(st.lists(documents(), max_size=4))
def test_any_documents_come_back_equal(generated) -> None:
    same(unpack(pickle.loads(pickle.dumps(pack(generated), protocol=5))), generated)


def walked(docs: list[Document]) -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    """What `laid_chains` gives, by walking the chain lists."""
    spans = [span for doc in docs for chain in doc.chains for span in chain]
    return ([s for s, _ in spans], [e for _, e in spans], [len(chain) for doc in docs for chain in doc.chains],
            [sum(map(len, doc.chains)) for doc in docs], [len(doc.chains) for doc in docs])


@settings(max_examples=100, deadline=None)
@given(st.lists(documents(), min_size=1, max_size=4), st.data())
def test_unpacked_chains_as_arrays_are_the_lists(generated, data) -> None:
    """Any of the unpacked documents, in any order, laid end to end from the cache's arrays: the
    very values of their chain lists (a chain column that cannot be packed gives no arrays)."""
    back = unpack(pickle.loads(pickle.dumps(pack(generated), protocol=5)))
    chosen = data.draw(st.lists(st.sampled_from(back), min_size=1, max_size=5))
    laid = laid_chains(chosen)
    if "chains" not in pack(generated).columns:
        assert laid is None
        return
    assert [values.tolist() for values in laid] == list(walked(chosen))
    assert all(values.dtype == np.int64 for values in laid)


def test_chains_as_arrays_only_while_the_document_holds_their_lists() -> None:
    documents = read_documents(str(FILES[0]))
    assert laid_chains([replace(documents[0], mention_arrays=None)]) is None  # no arrays held
    back = unpack(pack(documents))
    assert [values.tolist() for values in laid_chains(back)] == list(walked(back))
    changed = [replace(back[0], chains=[list(chain) for chain in back[0].chains])] + back[1:]
    assert laid_chains(changed) is None  # other lists, even of equal spans: not described
    other = unpack(pack(documents))
    assert laid_chains([back[0], other[1]]) is None  # two entries' arrays are not laid together
    for keep_last in (True, False):
        offsets = np.arange(len(back), dtype=np.int64) * 10 ** 6
        via_arrays, via_lists = joined_view(back, offsets, keep_last), joined_view(documents, offsets, keep_last)
        assert via_arrays.codes.tolist() == via_lists.codes.tolist()
        assert via_arrays.member_chain.tolist() == via_lists.member_chain.tolist()


def test_the_arrays_laid_from_the_cache_cannot_be_written() -> None:
    """`laid_chains` hands out the entry's own arrays (a whole file in order: no copy), which every
    later reader of those documents reads again (alignment keeps the chains' sizes): a write into
    them must fail, not change the next analysis's chains."""
    documents = read_documents(str(FILES[0]))
    prepare_types(documents)
    back = unpack(pack(documents))
    arrays = back[0].mention_arrays[0]
    assert arrays.typed is not None
    for held in (*arrays[:5], *arrays.typed[:4], *laid_chains(back)[:3]):
        with pytest.raises(ValueError):
            held[:1] = 0


def test_a_field_is_made_when_first_read_and_kept() -> None:
    """A document from the cache makes a field when first read (a cached `score` reads its chains,
    typed mentions and token lines as arrays only), made once: the same object at each reading,
    equal to the field read from the file, and a copy or a pickle of it is equal too."""
    documents = read_documents(str(FILES[0]))
    prepare_types(documents)
    back = unpack(pack(documents))
    assert not {"chains", "rule_types", "token_lines", "labels"} & set(vars(back[1]))
    assert laid_chains(back) is not None  # read as arrays: the lists not made
    assert not {"chains"} & set(vars(back[1]))
    assert back[1].token_lines == documents[1].token_lines and back[1].token_lines is back[1].token_lines
    assert "token_lines" in vars(back[0])  # made for every document of the file at once, and given to each
    assert copy.copy(back[0]) == documents[0] and pickle.loads(pickle.dumps(back[1])) == documents[1]
    assert not hasattr(back[0], "no_such_field") and not hasattr(back[0], "_no_such")
    for field in ("pos", "rule_types", "parse_heads"):
        with pytest.raises(AttributeError):
            getattr(Document, field)  # no class attribute a document not holding the field would read


@settings(max_examples=60, deadline=None)
@given(st.lists(documents(), min_size=1, max_size=6), st.data())
def test_chains_made_alone_then_all_at_once_are_made_once(generated, data) -> None:
    """Some documents' chains made alone, then (past the bound) the whole file's at once: each
    document's chains are the first made, and the arrays still describe every document."""
    if "chains" not in pack(generated).columns:
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(packed_module, "ALONE", data.draw(st.integers(0, 3)))
        back = unpack(pack(generated))
        order = data.draw(st.permutations(range(len(back))))
        first = {d: back[d].chains for d in order}
    assert all(back[d].chains is first[d] and back[d].chains == generated[d].chains for d in order)
    assert [values.tolist() for values in laid_chains(back)] == list(walked(back))


def test_a_column_of_another_shape_is_refused() -> None:
    """Fields are made when first read, so an entry's columns are checked whole when it is loaded:
    a column for more or fewer documents, or with codes past its strings, is a damaged entry."""
    packed = pack(read_documents(str(FILES[0])))
    lengths, text, count, codes = packed.columns["words"]
    for words in ((lengths[:-1], text, count, codes), (lengths, text, count, codes[:-1]),
                  (lengths, text, count - 1, codes)):
        with pytest.raises(TypeError):
            unpack(replace(packed, columns={**packed.columns, "words": words}))
    per_document, per_chain, first, last = packed.columns["chains"]
    with pytest.raises(TypeError):
        unpack(replace(packed, columns={**packed.columns, "chains": (per_document, per_chain, first, last[:-1])}))


def test_only_documents_made_later_carry_the_attribute_hook() -> None:
    """A document made whole keeps Python's quick attribute reads: the hook that makes a field when
    first read belongs to the documents made later alone, which still compare equal to documents
    made whole."""
    assert "__getattr__" not in vars(Document) and not hasattr(Document, "__getattr__")
    whole = Document(name="d", words=["a", "b"], chains=[[(0, 0), (1, 1)]], labels=["1"])
    later = unpack(pack([whole]))[0]
    assert type(later) is not Document and hasattr(type(later), "__getattr__")
    assert later == whole and whole == later


def test_a_document_made_later_is_unhashable_as_a_document_is() -> None:
    """Both are mutable and compare by value: neither may be a set member or a dict key (a hash
    taken before a field is made would not be the one after)."""
    whole = Document(name="d", words=["a"], chains=[[(0, 0)]], labels=["1"])
    for document in (whole, unpack(pack([whole]))[0]):
        with pytest.raises(TypeError):
            hash(document)

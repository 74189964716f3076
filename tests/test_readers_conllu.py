"""The CorefUD CoNLL-U reader: Entity= brackets, documents, tokens, heads, POS, and located errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from metrics.formats.conll import parse_conll, read_conll
from metrics.formats.conllu import read_conllu
from metrics.model import InputError

DATA = Path(__file__).resolve().parent / "data" / "formats"


def row(i: str, form: str, misc: str = "_", head: str = "0", upos: str = "NOUN", xpos: str = "_", feats: str = "_") -> str:
    return "\t".join([i, form, form.lower(), upos, xpos, feats, head, "dep", "_", misc])


def write(tmp_path: Path, lines: list[str], name: str = "f.conllu") -> str:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


HEADER = ["# newdoc id = d1", "# global.Entity = eid-etype-head-other"]


def test_nested_single_and_multiword_mentions(tmp_path: Path) -> None:
    lines = HEADER + [
        "# sent_id = 1",
        row("1", "The", "Entity=(e1-person-2", head="2"),
        row("2", "man", "Entity=e1)", head="3"),
        row("3", "saw", "_"),
        row("4", "him", "Entity=(e2-person-1)", head="3"),
        "",
        row("1", "He", "Entity=(e1-person-1)(e3-person-1)", head="2"),
        row("2", "left", "_"),
        "",
    ]
    [doc] = read_conllu(write(tmp_path, lines))
    assert doc.name == "d1"
    assert doc.words == ["The", "man", "saw", "him", "He", "left"]
    assert doc.sentence_starts == [0, 4]
    assert doc.chains == [[(0, 1), (4, 4)], [(3, 3)], [(4, 4)]]
    assert doc.labels == ["e1", "e2", "e3"]
    assert doc.heads == [1, 2, -1, 2, 5, -1]


def test_same_entity_nested_mentions_close_innermost_first(tmp_path: Path) -> None:
    lines = HEADER + [
        row("1", "the", "Entity=(e1-person-2"),
        row("2", "man", "_"),
        row("3", "who", "Entity=(e1-person-1)"),
        row("4", "left", "Entity=e1)"),
        "",
    ]
    [doc] = read_conllu(write(tmp_path, lines))
    assert doc.chains == [[(2, 2), (0, 3)]]


def test_order_mirrors_the_conll_reader(tmp_path: Path) -> None:
    """Chains by first label (one-word mentions, then openings), mentions by completion: as CoNLL."""
    conllu = HEADER + [
        row("1", "a", "Entity=(e2-x-1(e1-x-1)"),
        row("2", "b", "Entity=(e3-x-1"),
        row("3", "c", "Entity=e3)e2)"),
        row("4", "d", "Entity=(e3-x-1)(e1-x-1)"),
        "",
    ]
    conll = ["#begin document d1"] + [
        f"d1\t0\t{i}\t{w}\t{cell}" for i, (w, cell) in enumerate(zip("abcd", ["(2|(1)", "(3", "3)|2)", "(3)|(1)"]))
    ] + ["#end document"]
    [u] = read_conllu(write(tmp_path, conllu))
    [c] = parse_conll("x.conll", "\n".join(conll).encode())
    assert u.chains == c.chains == [[(0, 0), (3, 3)], [(0, 2)], [(1, 2), (3, 3)]]


def test_discontinuous_mention_is_first_to_last_word_with_one_warning(tmp_path: Path) -> None:
    lines = HEADER + [
        row("1", "a", "Entity=(e1[1/2]-x-1"),
        row("2", "b", "Entity=e1[1/2])"),
        row("3", "c", "_"),
        row("4", "d", "Entity=(e1[2/2]-x-1)"),
        row("5", "e", "Entity=(e2[1/2]-x-1)"),
        row("6", "f", "Entity=(e2[2/2]-x-1)"),
        "",
    ]
    warnings: list[str] = []
    [doc] = read_conllu(write(tmp_path, lines), warnings)
    assert doc.chains == [[(0, 3)], [(4, 5)]]
    assert len(warnings) == 1 and "discontinuous" in warnings[0] and ":3:" in warnings[0]


def test_newdoc_boundaries_and_global_entity_order(tmp_path: Path) -> None:
    lines = [
        "# newdoc id = first",
        "# global.Entity = GRP-etype-infstat",
        row("1", "x", "Entity=(7-person-new)"),
        "",
        "# newdoc id = second",
        "# global.Entity = etype-eid",
        row("1", "y", "Entity=(place-9)"),
        "",
    ]
    docs = read_conllu(write(tmp_path, lines))
    assert [d.name for d in docs] == ["first", "second"]
    assert [d.labels for d in docs] == [["7"], ["9"]]
    assert [d.chains for d in docs] == [[[(0, 0)]], [[(0, 0)]]]
    assert docs[1].token_lines == [7]


def test_documents_without_id_are_named_by_position(tmp_path: Path) -> None:
    lines = [row("1", "x", "Entity=(e1)"), "", row("1", "y", "Entity=(e1)"), ""]
    [doc] = read_conllu(write(tmp_path, lines, "story.conllu"))
    assert doc.name == "document 1"
    assert doc.chains == [[(0, 0), (1, 1)]]
    two = ["# newdoc", row("1", "x"), "", "# newdoc", row("1", "y"), ""]
    assert [d.name for d in read_conllu(write(tmp_path, two, "two.conllu"))] == ["document 1", "document 2"]


def test_multiword_tokens_and_empty_nodes_are_not_tokens(tmp_path: Path) -> None:
    lines = HEADER + [
        "1-2\tdon't\t_\t_\t_\t_\t_\t_\t_\t_",
        row("1", "do", "Entity=(e1-x-1", upos="AUX", head="3"),
        row("2", "n't", "_", upos="PART", head="3"),
        row("3", "go", "Entity=e1)", upos="VERB"),
        "3.1\tgo\tgo\tVERB\t_\t_\t_\t_\t3:conj\tEntity=(e2-x-1",
        row("4", "now", "Entity=e2)", upos="ADV", head="3"),
        "4.1\tit\tit\tPRON\t_\t_\t_\t_\t3:obj\tEntity=(e3-x-1)",
        "",
    ]
    warnings: list[str] = []
    [doc] = read_conllu(write(tmp_path, lines), warnings)
    assert doc.words == ["do", "n't", "go", "now"]
    # an opening on an empty node starts at the next word; a zero (empty node only) is dropped,
    # and with it its entity, which had no other mention
    assert doc.chains == [[(0, 2)], [(3, 3)]]
    assert doc.labels == ["e1", "e2"]
    assert doc.heads == [2, 2, -1, 2]
    assert any("empty nodes" in w for w in warnings)


def test_pos_from_ptb_xpos_or_mapped_upos(tmp_path: Path) -> None:
    ptb = HEADER + [row("1", "Kim", xpos="NNP", upos="PROPN"), row("2", "runs", xpos="VBZ", upos="VERB"), ""]
    other = HEADER + [
        row("1", "Kim", xpos="Np", upos="PROPN"),
        row("2", "dogs", xpos="Nc", upos="NOUN", feats="Number=Plur"),
        row("3", "she", xpos="Pp", upos="PRON"),
        row("4", "her", xpos="Ps", upos="PRON", feats="Poss=Yes"),
        "",
    ]
    assert read_conllu(write(tmp_path, ptb, "a.conllu"))[0].pos == ["NNP", "VBZ"]
    assert read_conllu(write(tmp_path, other, "b.conllu"))[0].pos == ["NNP", "NNS", "PRP", "PRP$"]


def test_speakers_from_sentence_comments(tmp_path: Path) -> None:
    lines = HEADER + ["# speaker = Ann", row("1", "hi"), "", row("1", "yo"), ""]
    [doc] = read_conllu(write(tmp_path, lines))
    assert doc.speakers == ["Ann", "-"]


def test_named_entities_from_proper_noun_headed_mentions(tmp_path: Path) -> None:
    lines = HEADER + [
        row("1", "Kim", "Entity=(e1-person-1)", upos="PROPN", xpos="NNP", head="2"),
        row("2", "saw", upos="VERB", xpos="VBD"),
        row("3", "a", "Entity=(e2-animal-2", upos="DET", xpos="DT", head="4"),
        row("4", "dog", "Entity=e2)", upos="NOUN", xpos="NN", head="2"),
        "",
    ]
    [doc] = read_conllu(write(tmp_path, lines))
    assert doc.named_entities == [(0, 0, "PERSON")]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("1\tx\tx\tNOUN\t_\t_\t0\tdep\t_", "expected 10"),
        (row("1", "x", "Entity=e5)"), "closes but no mention"),
        (row("1", "x", "Entity=(e5-x-1"), "never closed"),
        (row("1", "x", "Entity=(e5-x-1)junk"), "does not parse"),
        (row("1", "x", head="x"), "HEAD"),
        (row("0", "x"), "word ID 0: word IDs count from 1"),  # (2 after 0 is a gap: read, as udapi reads it)
        (row("1", "x", head="7"), "not a word of this sentence"),
        ("a\tx\tx\tNOUN\t_\t_\t0\tdep\t_\t_", "ID 'a'"),
        (row("1", "x", "Entity=(e1[2/2]-x-1)"), "before its part 1"),
        (row("1", "x", "Entity=(e1-x-1)|Entity=(e2-x-1)"), "Entity= is given twice"),
    ],
)
def test_malformed_input_is_located(tmp_path: Path, line: str, message: str) -> None:
    path = write(tmp_path, HEADER + [line, ""])
    with pytest.raises(InputError) as info:
        read_conllu(path)
    assert info.value.path == path
    assert info.value.line in (3, 4)
    assert message in info.value.message


def test_gum_excerpt_equals_its_conll_version() -> None:
    """Two GUM documents: same words, sentences, POS, speakers and chains (in the same order)."""
    conllu = read_conllu(str(DATA / "gum2.conllu"))
    conll = read_conll(str(DATA / "gum2.conll"))
    assert [d.name for d in conllu] == ["GUM_news_asylum", "GUM_interview_brotherhood"]
    for u, c in zip(conllu, conll):
        assert u.words == c.words
        assert u.sentence_starts == c.sentence_starts
        assert u.chains == c.chains
        assert u.pos == c.pos
        assert u.speakers == c.speakers
        assert u.heads is not None and len(u.heads) == u.n_tokens
    # NEs derived from proper-noun heads and etypes: GUM's CoNLL-2012 NE column but for one span
    # whose head the UD tree puts elsewhere
    assert sum(len(set(u.named_entities) ^ set(c.named_entities)) for u, c in zip(conllu, conll)) == 1
    assert {label for d in conllu for _, _, label in d.named_entities} >= {"PERSON", "GPE", "ORG"}
    # GUM's own counts (docs.tsv): 102 mentions / 64 entities and 178 / 105
    assert [(len(d.mentions()), len(d.chains)) for d in conllu] == [(102, 64), (178, 105)]


def test_head_pointing_into_the_next_sentence_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + [row("1", "x", head="2"), "", row("1", "y"), ""])
    with pytest.raises(InputError, match="HEAD 2 is not a word of this sentence") as info:
        read_conllu(path)
    assert info.value.line == 3


def test_discontinuity_warning_comes_once_per_file(tmp_path: Path) -> None:
    one = [row("1", "a", "Entity=(e1[1/2]-x-1)"), row("2", "b"), row("3", "c", "Entity=(e1[2/2]-x-1)"), ""]
    lines = ["# newdoc id = a", *HEADER[1:], *one, "# newdoc id = b", *one]
    warnings: list[str] = []
    docs = read_conllu(write(tmp_path, lines), warnings)
    assert [d.chains for d in docs] == [[[(0, 2)]], [[(0, 2)]]]
    assert len(warnings) == 1

"""The CRAC 2025 LLM track's inline format: read as its pipeline reads it, written as it writes it.

The pipeline is text2text-coref (`clean`, `text2conllu`, `conllu2text`) with corefud-scorer.  Its
outputs on two GUM documents (tests/data/crac, see the README there) are the expected values: our
reader must build the documents the CoNLL-U reader reads from the pipeline's CoNLL-U, our writer
must write what `conllu2text` wrote.  The realignment is checked against a brute force of its
recurrence, the common-treelet climb against the lowest common ancestor, and each repair rule of
docs/formats.md against its example.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from metrics.formats.corefud import read_corefud
from metrics.formats.crac_key import read_key
from metrics.formats.crac_text import read_crac
from metrics.formats.crac_writer import write_json, write_text
from metrics.formats.source import read_lines
from metrics.mentions.movehead import common_treelet_root
from metrics.mentions.realign import align_words
from workbench.cli import main

DATA = Path(__file__).resolve().parent / "data"
GUM2 = str(DATA / "formats" / "gum2.conllu")
CRAC = DATA / "crac"


def run(capsys, *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exit:
        code = int(exit.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def clusters(line: str) -> tuple[list[str], set[frozenset]]:
    """A line's words and its mentions grouped by id, the ids' names forgotten."""
    stacks: dict[str, list[int]] = {}
    spans: dict[str, list[tuple[int, int]]] = {}
    words = []
    for index, token in enumerate(line.split(" ")):
        word, _, marks = token.partition("|")
        words.append(word)
        for mark in marks.split(",") if marks else []:
            eid = mark.strip("[]")
            if mark.startswith("[") and mark.endswith("]"):
                spans.setdefault(eid, []).append((index, index))
            elif mark.startswith("["):
                stacks.setdefault(eid, []).append(index)
            else:
                spans.setdefault(eid, []).append((stacks[eid].pop(), index))
    return words, {frozenset(v) for v in spans.values()}


# ------------------------------------------------------------------ against the pipeline's outputs

@pytest.mark.parametrize("name", ["ids", "llm1", "llm2", "llm3"])
def test_reader_builds_the_documents_of_the_pipelines_conllu(name):
    keys = read_corefud(GUM2)
    ours, report = read_crac(str(CRAC / f"gum2.{name}.txt"), "crac-text", GUM2, keys)
    theirs = read_corefud(str(CRAC / f"gum2.{name}.pipeline.conllu"))
    assert [d.name for d in ours] == [d.name for d in theirs]
    for a, b in zip(ours, theirs):
        assert a.forms == b.forms
        assert a.entities == b.entities, a.name


def test_the_llm_like_outputs_were_repaired_and_said_so():
    keys = read_corefud(GUM2)
    _, report = read_crac(str(CRAC / "gum2.llm1.txt"), "crac-text", GUM2, keys)
    counts = report.to_json()
    assert counts["alignment"]["inserted"] > 0 and counts["alignment"]["deleted"] > 0
    assert counts["repairs"]["lost_mentions"] > 0 and counts["repairs"]["brackets_closed"] > 0
    assert any("is never closed" in w for w in report.warnings())


def test_writer_equals_conllu2text_byte_for_byte_with_the_keys_ids():
    text = write_text(read_corefud(GUM2), read_key(GUM2, read_lines(GUM2)))
    assert text == (CRAC / "gum2.ids.txt").read_text(encoding="utf-8")


def test_writer_equals_conllu2text_up_to_id_names_with_sequential_ids_and_zeros():
    text = write_text(read_corefud(GUM2), read_key(GUM2, read_lines(GUM2)), sequential_ids=True, zero_mentions=True)
    theirs = (CRAC / "gum2.seq_zero.txt").read_text(encoding="utf-8")
    assert [clusters(x) for x in text.split("\n")] == [clusters(x) for x in theirs.split("\n")]
    first = text.split("\n")[0]
    ids = [m.strip("[]") for t in first.split(" ") if "|" in t for m in t.split("|")[1].split(",") if m.startswith("[")]
    assert list(dict.fromkeys(ids)) == [f"e{k}" for k in range(1, len(set(ids)) + 1)]  # numbered by first appearance


def test_the_written_gold_reads_back_to_the_keys_mentions(tmp_path):
    keys = read_corefud(GUM2)
    skeleton = read_key(GUM2, read_lines(GUM2))
    for fmt, text in (("crac-text", write_text(keys, skeleton, sequential_ids=True)),
                      ("crac-json", write_json(keys, skeleton))):
        path = tmp_path / f"gold.{fmt}"
        path.write_text(text, encoding="utf-8")
        docs, report = read_crac(str(path), fmt, GUM2, keys)
        assert report.to_json()["repairs"]["lost_mentions"] == 0
        for doc, key in zip(docs, keys):
            ours = {frozenset(m.nodes) for _, ms in doc.entities for m in ms}
            theirs = {frozenset(n for n in m.nodes if not n[2]) for _, ms in key.entities for m in ms if not m.zero}
            assert ours <= theirs and len(ours) > 0.95 * len(theirs)


# ------------------------------------------------------------------ the realignment, by brute force

def reference_alignment(output: list[str], gold: list[str]) -> list[str]:
    """The recurrence and the walk back, cell by cell (the rules of docs/formats.md)."""
    words = [t.split("|")[0] for t in output]
    m, n = len(words), len(gold)
    table = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(m + 1):
        table[i][0] = i
    for j in range(n + 1):
        table[0][j] = j
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if words[i - 1].startswith("##"):
                table[i][j] = table[i - 1][j]
            elif words[i - 1] == gold[j - 1]:
                table[i][j] = table[i - 1][j - 1]
            else:
                table[i][j] = 1 + min(table[i - 1][j], table[i][j - 1], table[i - 1][j - 1])
    out, i, j = [], m, n
    while i and j:
        if words[i - 1].startswith("##"):
            out.append(output[i - 1])
            i -= 1
        elif words[i - 1] == gold[j - 1]:
            out.append(output[i - 1])
            i, j = i - 1, j - 1
        elif table[i][j] == table[i - 1][j - 1] + 1:
            out.append(gold[j - 1])
            i, j = i - 1, j - 1
        elif table[i][j] == table[i - 1][j] + 1:
            i -= 1
        else:
            out.append(gold[j - 1])
            j -= 1
    out.extend(reversed(gold[:j]))
    return out[::-1]


def test_realignment_equals_the_brute_force_on_random_outputs():
    rng = random.Random(43)
    vocabulary = ["a", "b", "c", "d", "##", "##x", "a|[e1", "b|e1]", "c|[e2]"]
    for _ in range(3000):
        gold = [rng.choice("abcd") for _ in range(rng.randint(0, 9))]
        output = [rng.choice(vocabulary) for _ in range(rng.randint(0, 11))]
        assert align_words(output, gold).tokens == reference_alignment(output, gold), (output, gold)


def test_a_long_document_realigns_exactly():
    rng = random.Random(1)
    gold = [rng.choice("abcdefgh") for _ in range(400)]
    output = [w if rng.random() > 0.1 else rng.choice(["x", "##", w + w]) for w in gold if rng.random() > 0.05]
    assert align_words(output, gold).tokens == reference_alignment(output, gold)


# ------------------------------------------------------------------ MoveHead's climb

def test_common_treelet_root_of_two_nodes_of_equal_depth_is_their_lowest_common_ancestor():
    rng = random.Random(5)
    checked = 0
    for _ in range(2000):
        size = rng.randint(2, 12)
        parent = {(1, k, 0): (1, rng.randrange(0, k), 0) for k in range(1, size + 1)}

        def ancestors(node):
            chain = [node]
            while node in parent:
                node = parent[node]
                chain.append(node)
            return chain
        a, b = rng.sample(sorted(parent), 2)
        if len(ancestors(a)) != len(ancestors(b)):
            continue
        checked += 1
        lca = next(x for x in ancestors(a) if x in set(ancestors(b)))
        assert common_treelet_root([a, b], parent) == lca
    assert checked > 100


def test_common_treelet_root_keeps_udapis_climbing_order():
    # 3 climbs 2, 1 while 4 reaches the root first: udapi then walks down 4's path and answers 4
    parent = {(1, 1, 0): (1, 0, 0), (1, 2, 0): (1, 1, 0), (1, 3, 0): (1, 2, 0), (1, 4, 0): (1, 0, 0)}
    assert common_treelet_root([(1, 3, 0), (1, 4, 0)], parent) == (1, 4, 0)
    assert common_treelet_root([(1, 2, 0), (1, 3, 0)], parent) == (1, 2, 0)


# ------------------------------------------------------------------ each repair rule (docs/formats.md)

KEY = """# newdoc id = doc1
# global.Entity = eid-etype-head-other
# sent_id = 1
1	The	_	DET	_	_	2	det	2:det	_
2	dog	_	NOUN	_	_	3	nsubj	3:nsubj	_
3	barked	_	VERB	_	_	0	root	0:root	_
4	.	_	PUNCT	_	_	3	punct	3:punct	_

# sent_id = 2
1	It	_	PRON	_	_	2	nsubj	2:nsubj	_
2	ran	_	VERB	_	_	0	root	0:root	_
3	home	_	NOUN	_	_	2	obj	2:obj	_
4	.	_	PUNCT	_	_	2	punct	2:punct	_

"""


def mentions_of(tmp_path, line: str) -> tuple[list[tuple[str, tuple, tuple]], dict, list[str]]:
    key = tmp_path / "key.conllu"
    key.write_text(KEY, encoding="utf-8")
    out = tmp_path / "out.txt"
    out.write_text(line + "\n", encoding="utf-8")
    docs, report = read_crac(str(out), "crac-text", str(key), read_corefud(str(key)))
    found = [(eid, m.nodes, m.head) for eid, ms in docs[0].entities for m in ms]
    return found, {**report.to_json()["alignment"], **report.to_json()["repairs"]}, report.warnings()


RULES = [
    # matched words keep their marks; the head is MoveHead's on the key's tree (the key writes heads)
    ("The|[e1 dog|e1] barked . It|[e1] ran home .",
     [("e1", ((1, 1, 0), (1, 2, 0)), (1, 2, 0)), ("e1", ((2, 1, 0),), (2, 1, 0))], {"mentions": 2}),
    # a replaced word becomes the key's word without marks: the close left alone becomes [e1]
    ("A|[e1 dog|e1] barked . It ran home .", [("e1", ((1, 2, 0),), (1, 2, 0))], {"replaced": 1, "brackets_closed": 1}),
    # an extra word is deleted with its marks; a missing word is inserted bare
    ("The big|[e7] dog|[e2] barked It|[e2] ran home .",
     [("e2", ((1, 2, 0),), (1, 2, 0)), ("e2", ((2, 1, 0),), (2, 1, 0))], {"deleted": 1, "inserted": 1, "brackets_dropped": 1}),
    # a close with no open becomes a one-word mention
    ("The dog|e1] barked . It|[e1] ran home .",
     [("e1", ((1, 2, 0),), (1, 2, 0)), ("e1", ((2, 1, 0),), (2, 1, 0))], {"brackets_closed": 1}),
    # brackets pair within a key sentence: an open never closed there is lost
    ("The|[e1 dog barked . It|e1] ran home .", [("e1", ((2, 1, 0),), (2, 1, 0))], {"lost_mentions": 1, "brackets_closed": 1}),
    # only eN ids count (the key's own d1.2 are dropped); `[e1.2` is read as `[e1`
    ("The|[d1.2 dog|d1.2] barked . It|[e1.2 ran|e1] home .",
     [("e1", ((2, 1, 0), (2, 2, 0)), (2, 2, 0))], {"unknown_ids": 2, "brackets_dropped": 2, "ids_cut": 1}),
    # a token with two | loses its marks
    ("The|x|[e1 dog|e1] barked . It ran home .", [("e1", ((1, 2, 0),), (1, 2, 0))], {"brackets_closed": 1}),
    # a ## is an empty node after the word before it (a zero when it heads a mention); one before
    # the document's first word or after its last is dropped
    ("## The dog barked ##|[e3] . It|[e3] ran home . ##|[e4]",
     [("e3", ((1, 3, 1),), (1, 3, 1)), ("e3", ((2, 1, 0),), (2, 1, 0))], {"zeros_dropped": 2, "brackets_dropped": 1}),
    # a ## opening a sentence belongs to the one before: a mention from it into the sentence
    # crosses a boundary (the pipeline writes a file its scorer refuses); lost, and said
    ("The dog|[e1] barked . ##|[e5 It|e5] ran|[e1] home .",
     [("e1", ((1, 2, 0),), (1, 2, 0)), ("e1", ((2, 2, 0),), (2, 2, 0))], {"lost_mentions": 1}),
]


@pytest.mark.parametrize("line, expected, counts", RULES)
def test_repair_rule(tmp_path, line, expected, counts):
    found, report, warnings = mentions_of(tmp_path, line)
    assert sorted(found) == sorted(expected)
    for name, value in counts.items():
        assert report[name] == value, name
    repaired = sum(report[k] for k in ("brackets_dropped", "brackets_closed", "lost_mentions", "ids_cut"))
    assert len([w for w in warnings if "document 'doc1'" in w]) == repaired


def test_each_rule_is_in_the_docs():
    docs = (Path(__file__).resolve().parent.parent / "docs" / "formats.md").read_text(encoding="utf-8")
    for line, _, _ in RULES:
        assert line in docs, line


# ------------------------------------------------------------------ the commands

def test_score_prints_the_repairs_and_gives_them_in_json(capsys):
    output = str(CRAC / "gum2.llm1.txt")
    code, out, err = run(capsys, "score", GUM2, output)
    assert code == 0
    assert out.startswith("realigned onto the key's words as the CRAC LLM pipeline does: ")
    assert "conventions corefud, head match" in out.splitlines()[1]
    assert "is never closed in its sentence" in err and "gum2.llm1.txt:" in err
    code, out, _ = run(capsys, "score", GUM2, output, "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["conventions"] == "corefud"
    assert set(data["alignment"]) >= {"inserted", "deleted", "replaced", "zeros_dropped"}
    assert set(data["repairs"]) >= {"brackets_dropped", "brackets_closed", "unknown_ids", "lost_mentions"}


def test_the_keys_ids_trap_is_said_in_plain_words(capsys):
    code, out, err = run(capsys, "score", GUM2, str(CRAC / "gum2.ids.txt"), "--format", "json")
    assert code == 0 and json.loads(out)["metrics"]["muc"]["f1"] == 0
    assert "everything scores 0" in err and "--sequential-ids" in err


def test_the_zeros_trap_is_said_in_plain_words(capsys, tmp_path):
    no_zeros = tmp_path / "gold.txt"
    code, _, _ = run(capsys, "convert", GUM2, str(no_zeros), "--to", "crac-text", "--sequential-ids")
    assert code == 0
    code, _, err = run(capsys, "score", GUM2, str(no_zeros))
    assert code == 0 and "every zero is lost" in err


def test_convert_writes_what_conllu2text_writes(capsys, tmp_path):
    out = tmp_path / "gold.txt"
    code, _, _ = run(capsys, "convert", GUM2, str(out), "--to", "crac-text")
    assert code == 0 and out.read_text(encoding="utf-8") == (CRAC / "gum2.ids.txt").read_text(encoding="utf-8")
    code, _, err = run(capsys, "convert", GUM2, str(tmp_path / "x.conll"), "--to", "conll", "--blind")
    assert code == 2 and "--blind applies to --to crac-text and crac-json only" in err


@pytest.mark.parametrize("content, message", [
    ("# newdoc id = x\n1\tA\t_\t_\t_\t_\t0\troot\t_\t_\n", ":1: not the inline format"),
    ("The|[e1 dog|e1] barked .\n", ":1: 1 documents (one per line) where the key"),
    ("a b c\nd e f\ng h i\n", ":3: 3 documents (one per line) where the key"),
])
def test_bad_input_is_a_located_one_line_error(capsys, tmp_path, content, message):
    path = tmp_path / "out.txt"
    path.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "score", GUM2, str(path), "--response-format", "crac-text")
    assert code == 1 and out == "" and message in err and len(err.strip().splitlines()) == 1


def test_a_ten_megabyte_line_is_a_located_error(capsys, tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("word|[e1 " * 1_200_000 + "\nThe\n", encoding="utf-8")
    code, out, err = run(capsys, "score", GUM2, str(path))
    assert code == 1 and out == "" and len(err.strip().splitlines()) == 1
    assert "out.txt:1: 1200000 words where the key's document" in err


@pytest.mark.parametrize("name", ["eid.seq_zero", "eid.llm"])
def test_with_a_key_that_writes_heads_the_heads_are_movehead_s_and_ids_follow_the_file(name):
    key = str(CRAC / "gum2.eid.conllu")
    ours, _ = read_crac(str(CRAC / f"gum2.{name}.txt"), "crac-text", key, read_corefud(key))
    theirs = read_corefud(str(CRAC / f"gum2.{name}.pipeline.conllu"))
    moved = 0
    for a, b in zip(ours, theirs):
        assert {(e, m) for e, ms in a.entities for m in ms} == {(e, m) for e, ms in b.entities for m in ms}
        moved += sum(m.head != m.nodes[0] for _, ms in a.entities for m in ms)
    assert moved > 20  # MoveHead chose another head than the first word for many mentions
    # udapi reads the pipeline's file as one: an id's entity comes where the file first meets it
    first_seen = [e for e, _ in ours[0].entities]
    later = [e for e, _ in ours[1].entities]
    assert [e for e in later if e in first_seen] == [e for e in first_seen if e in later]
    assert later[:len([e for e in later if e in first_seen])] == [e for e in later if e in first_seen]


def test_the_json_form_reads_as_json2conllu_reads_it_and_is_written_as_conllu2json_writes_it():
    key = str(CRAC / "gum2.eid.conllu")
    keys = read_corefud(key)
    ours, _ = read_crac(str(CRAC / "gum2.eid.json"), "crac-json", key, keys)
    theirs = read_corefud(str(CRAC / "gum2.eid.json.pipeline.conllu"))
    for a, b in zip(ours, theirs):
        assert {(e, m) for e, ms in a.entities for m in ms} == {(e, m) for e, ms in b.entities for m in ms}
    written = json.loads(write_json(keys, read_key(key, read_lines(key)), zero_mentions=True))
    given = json.loads((CRAC / "gum2.eid.json").read_text(encoding="utf-8"))
    for a, b in zip(written, given):
        assert a["tokens"] == b["tokens"]
        assert sorted(map(sorted, a["clusters_token_offsets"])) == sorted(map(sorted, b["clusters_token_offsets"]))


def test_an_alignment_too_large_to_hold_is_refused_before_it_is_made():
    with pytest.raises(ValueError, match="too far apart to realign"):
        align_words(["x"] * 15000, ["a"] * 15000)


def test_one_unknown_id_is_said_in_the_singular(capsys, tmp_path):
    """A mark whose id is not eN is counted in words that agree with the count ("1 mark uses an id")."""
    gold = tmp_path / "gold.txt"
    assert run(capsys, "convert", GUM2, str(gold), "--to", "crac-text", "--sequential-ids")[0] == 0
    text = gold.read_text(encoding="utf-8")
    assert "Monday|[e4]" in text
    one_unknown = tmp_path / "one.txt"
    one_unknown.write_text(text.replace("Monday|[e4]", "Monday|[x4]", 1), encoding="utf-8")
    code, _, err = run(capsys, "score", GUM2, str(one_unknown))
    assert code == 0 and "1 mark uses an id that is not eN" in err, err

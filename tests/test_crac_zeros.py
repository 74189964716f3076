"""The CRAC LLM track's zeros: an output scored as the pipeline scores it with and without `-z`
(`--crac-zeros free|gold`), and a key whose zeros are mentions scored without them.

The expected values are the pipeline's own outputs (text2text-coref's `clean [-z]` then
`text2conllu [-z]`, tests/data/crac/README.md): our reader must build the documents the CoNLL-U
reader reads from the pipeline's CoNLL-U.  `zeros.conllu` is a key written for these tests, whose
empty nodes are zero mentions, one of them away from its parent (so `-z` moves it) and two after
one word (so the move renumbers the other).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from metrics.formats.corefud import read_corefud
from metrics.formats.crac_key import read_key
from metrics.formats.crac_text import read_crac
from metrics.formats.crac_zeros import gold_nodes
from metrics.formats.source import read_lines
from metrics.mentions.realign import align_words, repair_brackets
from metrics.model import InputError
from workbench.cli import main

DATA = Path(__file__).resolve().parent / "data"
GUM2 = str(DATA / "formats" / "gum2.conllu")
CRAC = DATA / "crac"
ZEROS = str(CRAC / "zeros.conllu")
VARIANTS = (("head", "remove"), ("partial", "remove"), ("exact", "remove"), ("head", "keep"))


def run(capsys, *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exit:
        code = int(exit.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def mentions(documents) -> list[set]:
    return [{(e, m) for e, ms in d.entities for m in ms} for d in documents]


@pytest.mark.parametrize("key, output, fmt, zeros, pipeline", [
    (ZEROS, "zeros.seq_zero.txt", "crac-text", "free", "zeros.seq_zero.pipeline.conllu"),
    (ZEROS, "zeros.seq.txt", "crac-text", "free", "zeros.seq.pipeline.conllu"),
    (ZEROS, "zeros.seq_zero.txt", "crac-text", "gold", "zeros.seq_zero.gold.pipeline.conllu"),
    (ZEROS, "zeros.seq.txt", "crac-text", "gold", "zeros.seq.gold.pipeline.conllu"),
    (ZEROS, "zeros.json", "crac-json", "gold", "zeros.json.gold.pipeline.conllu"),
    (GUM2, "gum2.llm1.txt", "crac-text", "gold", "gum2.llm1.gold.pipeline.conllu"),
    (str(CRAC / "gum2.eid.conllu"), "gum2.eid.llm.txt", "crac-text", "gold", "gum2.eid.llm.gold.pipeline.conllu"),
])
def test_each_zero_mode_builds_the_documents_of_the_pipelines_conllu(key, output, fmt, zeros, pipeline):
    ours, report = read_crac(str(CRAC / output), fmt, key, read_corefud(key), zeros)
    theirs = read_corefud(str(CRAC / pipeline))
    assert [d.name for d in ours] == [d.name for d in theirs]
    assert mentions(ours) == mentions(theirs)  # nodes, heads and the heads' DEPS
    assert report.to_json()["alignment"].get("zeros", "free") == zeros


def test_gold_zeros_move_empty_nodes_as_text2conllu_z_does():
    key = read_key(ZEROS, read_lines(ZEROS))
    one, two = gold_nodes(key[0], ZEROS, 1), gold_nodes(key[1], ZEROS, 1)
    # 1.1 (subject of word 2) moves after word 2; 5.1 (subject of word 5) stays
    assert [n for n in one.nodes if n[2]] == [(2, 2, 1), (3, 5, 1)] and one.moved == 1
    # 2.1 (of word 7) moves to 7.1, and removing it renumbers 2.2 (of word 2) to 2.1
    assert [n for n in two.nodes if n[2]] == [(1, 2, 1), (1, 7, 1)] and two.moved == 1
    # fans' dependency on the old 2.2 follows it to its new id 2.1
    assert two.deps[(1, 6, 0)] == (((1, 2, 1), "nsubj"), ((1, 7, 0), "nsubj"))


def test_gold_zeros_with_an_empty_node_after_an_unmoved_empty_parent_is_a_located_error(tmp_path):
    lines = (CRAC / "zeros.conllu").read_text(encoding="utf-8").split("\n")
    # sentence 3's 5.1 stays after its parent 5; a new empty node 6.1 whose parent is 5.1 would
    # be numbered 5.1 + 0.1 = 5.199999999999999 by udapi, which CoNLL-U cannot hold
    at = lines.index(next(line for line in lines if line.startswith("6\t.\t")))
    lines.insert(at + 1, "6.1\t_\t_\tPRON\tPRP\t_\t_\t_\t5.1:obj\t_")
    path = tmp_path / "key.conllu"
    path.write_text("\n".join(lines), encoding="utf-8")
    key = read_key(str(path), read_lines(str(path)))
    with pytest.raises(InputError, match="cannot hold"):
        gold_nodes(key[0], str(path), key[0].line)


def reference_gold_alignment(output: list[str], gold: list[str]) -> list[str]:
    """`clean -z`'s recurrence and walk back, cell by cell: every token a word, `##` included."""
    words = [t.split("|")[0] for t in output]
    m, n = len(words), len(gold)
    table = [[i if j == 0 else j if i == 0 else 0 for j in range(n + 1)] for i in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if words[i - 1] == gold[j - 1]:
                table[i][j] = table[i - 1][j - 1]
            else:
                table[i][j] = 1 + min(table[i - 1][j], table[i][j - 1], table[i - 1][j - 1])
    out, i, j = [], m, n
    while i and j:
        if words[i - 1] == gold[j - 1]:
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


def test_gold_zero_realignment_equals_the_brute_force_on_random_outputs():
    rng = random.Random(44)
    vocabulary = ["a", "b", "_", "##", "##x", "a|[e1", "b|e1]", "##|[e2]", "_|[e3]"]
    for _ in range(3000):
        gold = [rng.choice(["a", "b", "c", "_"]) for _ in range(rng.randint(0, 9))]
        output = [rng.choice(vocabulary) for _ in range(rng.randint(0, 11))]
        aligned = align_words(output, gold, zeros_free=False)
        assert aligned.tokens == reference_gold_alignment(output, gold), (output, gold)
        assert not aligned.zeros_dropped and len(aligned.tokens) == len(gold)
        assert repair_brackets(aligned.tokens, [len(gold)] if gold else [], zeros_free=False).kept_tokens == len(gold)


# ------------------------------------------------------------------ a key whose zeros are mentions

def scores(capsys, *args: str) -> tuple[dict, str]:
    code, out, err = run(capsys, "score", *args, "--format", "json", "--no-cache")
    assert code == 0, err
    return json.loads(out), err


@pytest.mark.parametrize("match, singletons", VARIANTS)
def test_gold_written_without_zeros_scores_as_the_pipeline_and_says_the_zeros_are_lost(capsys, match, singletons):
    variant = ("--match", match, "--singletons", singletons)
    ours, err = scores(capsys, ZEROS, str(CRAC / "zeros.seq.txt"), *variant)
    theirs, _ = scores(capsys, ZEROS, str(CRAC / "zeros.seq.pipeline.conllu"), *variant)
    assert ours["metrics"] == theirs["metrics"]
    assert ours["metrics"]["zero"]["f1"] == 0 and ours["metrics"]["muc"]["f1"] < 1  # the zeros' links are gone
    assert "the key has 3 zero mentions" in err and "every zero is lost" in err
    written, err = scores(capsys, ZEROS, str(CRAC / "zeros.seq_zero.txt"), *variant)
    assert written["metrics"]["muc"]["f1"] == written["metrics"]["zero"]["f1"] == 1
    assert "every zero is lost" not in err


def test_gold_zeros_say_how_they_lose_marks(capsys):
    ours, err = scores(capsys, ZEROS, str(CRAC / "zeros.seq_zero.txt"), "--crac-zeros", "gold")
    theirs, _ = scores(capsys, ZEROS, str(CRAC / "zeros.seq_zero.gold.pipeline.conllu"))
    assert ours["metrics"] == theirs["metrics"]
    assert ours["alignment"]["zeros"] == "gold" and ours["alignment"]["zeros_moved"] == 2
    assert "a ## token is aligned against the key empty node's form, which it never equals: 3 marks" in err
    assert "zeros.seq_zero.txt:2: document 'zeros_two': text2conllu -z moved 1 empty nodes" in err


def test_crac_zeros_is_refused_where_it_means_nothing(capsys):
    conll = str(DATA / "formats" / "gum2.conll")
    code, out, err = run(capsys, "score", conll, conll, "--crac-zeros", "gold")
    assert code == 2 and out == "" and "--crac-zeros applies to" in err
    code, _, err = run(capsys, "score", ZEROS, str(CRAC / "zeros.seq.txt"), "--crac-zeros", "none")
    assert code == 2 and "--crac-zeros" in err


def test_crac_zeros_gold_on_a_response_that_is_no_crac_output_is_warned_about(capsys):
    """Under corefud with a CoNLL-U response, `--crac-zeros gold` changes nothing: said, not silent
    (the scores are those without it)."""
    plain, err = scores(capsys, ZEROS, ZEROS)
    assert "--crac-zeros" not in err
    gold, err = scores(capsys, ZEROS, ZEROS, "--crac-zeros", "gold")
    assert gold["metrics"] == plain["metrics"]
    assert "--crac-zeros gold has no effect: this response is not a CRAC LLM-track output" in err


# ------------------------------------------------------------------ the banded table, by brute force

@pytest.mark.parametrize("seed", range(6))
def test_the_banded_realignment_equals_the_brute_force_on_long_far_outputs(seed):
    """Outputs far enough from the key that the band must widen (its first width is 64), with
    runs of words inserted or dropped, and `##` tokens, in both zero modes."""
    from test_crac_text import reference_alignment

    rng = random.Random(seed)
    gold = [rng.choice("abcdefgh_") for _ in range(rng.randint(300, 700))]
    output: list[str] = []
    for word in gold:
        r = rng.random()
        if r < 0.15:
            output.append(rng.choice(["x", "y", word + "|[e1]", "##", "##|[e2]"]))
        elif r < 0.25:
            continue
        elif r < 0.27:
            output.extend(rng.choice("abz") for _ in range(rng.randint(5, 60)))
        else:
            output.append(word if rng.random() > 0.1 else word + "|e1]")
    if seed % 2:
        output = output[:len(output) // 2]  # cut short: the band starts wide
    assert align_words(output, gold).tokens == reference_alignment(output, gold)
    assert align_words(output, gold, zeros_free=False).tokens == reference_gold_alignment(output, gold)

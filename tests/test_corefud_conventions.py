"""The CorefUD conventions (`--conventions corefud`): corefud-scorer's alignment and metrics.

The numbers of the small case in tests/data/corefud were derived by hand (below, per test); the
cross-check runs the v8.01 engine and this one on the same clean text, where the two conventions
agree by definition; the refusals are the located errors the CorefUD reader owes.  Agreement with
corefud-scorer itself is measured by benchmarks/check_corefud.py (its suite, and GUM).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from metrics.conventions.corefud import Settings
from corefud_support import score_corpus
from metrics.formats.corefud import parse_corefud, read_corefud
from metrics.model import InputError
from workbench.cli import main

DATA = Path(__file__).parent / "data" / "corefud"
KEY, RESPONSE = str(DATA / "key.conllu"), str(DATA / "response.conllu")


def scores(settings: Settings) -> dict:
    result = score_corpus(read_corefud(KEY), read_corefud(RESPONSE), KEY, RESPONSE, settings)
    return {name: (s.recall, s.precision, s.f1) for name, s in result.micro.items()}


def test_the_reader_sees_zeros_heads_and_order():
    (doc,) = read_corefud(KEY)
    assert [eid for eid, _ in doc.entities] == ["e1", "e2"]
    mary, zero = doc.entities[0][1]
    assert zero.nodes == ((2, 1, 1),) and zero.zero and zero.deps == (((2, 1, 0), "nsubj"),)
    old_dog = doc.entities[1][1][1]
    assert old_dog.nodes == ((2, 2, 0), (2, 3, 0), (2, 4, 0)) and old_dog.head == (2, 4, 0)  # head index 3


def test_head_match_aligns_dog_with_the_old_dog():
    # "dog" has the head of "the old dog": aligned (score 1/3), so the chains are the key's.
    got = scores(Settings("head"))
    for name in ("muc", "bcub", "ceafe", "ceafm", "lea", "blanc", "zero", "conll"):
        assert got[name] == (1.0, 1.0, 1.0), name
    # MOR counts words: key 1 + 1 + 2 + 3 = 7, response 1 + 1 + 2 + 1 = 5, shared 5
    assert got["mor"] == pytest.approx((5 / 7, 1.0, 2 * (5 / 7) / (1 + 5 / 7)), abs=1e-15)


def test_exact_match_leaves_dog_unaligned():
    got = scores(Settings("exact"))
    assert got["muc"] == (0.5, 0.5, 0.5)                 # e1's link found, e2's not
    assert got["bcub"] == (2.5 / 4, 2.5 / 4, 2.5 / 4)    # (2^2/2 + 1^2/2) / 4
    assert got["ceafe"] == (0.75, 0.75, 0.75)            # (1 + 2*1/4) / 2
    assert got["ceafm"] == (0.75, 0.75, 0.75)            # 3 of 4 mentions
    assert got["lea"] == (0.5, 0.5, 0.5)                 # e1: 2 * 1/1, e2: 2 * 0/1, of 4
    assert got["blanc"] == (0.5, 0.5, 0.5)               # 1 of 2 links; 2 of 4 non-links
    assert got["zero"] == (1.0, 1.0, 1.0)                # the zero follows Mary in both


def test_singletons_are_removed_before_alignment():
    # "dog" split off into e9 leaves the response's e2 with "a dog" alone: with singletons removed
    # both go before alignment, and the response keeps e1's two mentions; kept, all four count
    text = Path(RESPONSE).read_text().replace("Entity=(e2-animal-1-)", "Entity=(e9-animal-1-)")
    (doc,) = parse_corefud("r", text.split("\n"))
    keys = read_corefud(KEY)
    removed = score_corpus(keys, [doc], KEY, "r", Settings("head"))
    kept = score_corpus(keys, [doc], KEY, "r", Settings("head", keep_singletons=True))
    assert removed.micro["ceafm"].precision_den == 2 and kept.micro["ceafm"].precision_den == 4


def test_the_cli_names_the_settings_and_writes_json(capsys):
    assert main(["score", KEY, RESPONSE, "--format", "json", "--match", "exact"]) == 0
    out = capsys.readouterr().out
    assert '"conventions": "corefud"' in out and '"match": "exact"' in out and '"singletons": "remove"' in out
    assert main(["score", KEY, RESPONSE]) == 0
    assert capsys.readouterr().out.startswith("conventions corefud, head match, singletons removed")


def test_conll_conventions_on_request(capsys):
    assert main(["score", KEY, RESPONSE, "--conventions", "conll", "--metrics", "muc"]) == 0
    assert "conventions corefud" not in capsys.readouterr().out
    assert main(["score", KEY, RESPONSE, "--conventions", "conll", "--zero-match", "linear"]) == 2


def test_agrees_with_the_v801_engine_on_clean_text():
    """Exact match, singletons kept, no zeros, no repeated spans: both conventions define the same
    MUC, B3, CEAF and LEA, computed here by two separate implementations."""
    from metrics import prepare, read_documents

    source = Path(__file__).parent / "data" / "formats" / "gum2.conllu"
    lines = source.read_text().split("\n")
    dropped = 0
    for i, line in enumerate(lines):  # drop every third one-word mention: a system's misses
        cols = line.split("\t")
        if len(cols) == 10 and re.search(r"Entity=\([^()|]*\)", cols[9]) and "." not in cols[0]:
            dropped += 1
            if dropped % 3 == 0:
                misc = re.sub(r"(?<=Entity=)\([^()|]*\)", "", cols[9], count=1)
                cols[9] = re.sub(r"Entity=(\||$)", "", misc) or "_"
                lines[i] = "\t".join(cols).rstrip("|")
    for i, line in enumerate(lines):  # a bridge to an entity whose one mention went is refused, as udapi refuses it
        cols = line.split("\t")
        if len(cols) == 10 and "Bridge=" in cols[9]:
            cols[9] = "|".join(item for item in cols[9].split("|") if not item.startswith("Bridge=")) or "_"
            lines[i] = "\t".join(cols)
    keys, responses = parse_corefud("k", source.read_text().split("\n")), parse_corefud("r", lines)
    ours = score_corpus(keys, responses, "k", "r", Settings("exact", keep_singletons=True, zero_match="linear"))
    tmp = source.parent / "gum2.conllu"  # the v8.01 engine reads the same text from files
    v801 = prepare(read_documents(str(tmp)), _documents_of(lines)).score(metrics=("muc", "bcub", "ceafe", "ceafm", "lea"))
    for name in ("muc", "bcub", "ceafe", "ceafm", "lea"):
        assert ours.micro[name].f1 == pytest.approx(v801.micro[name].f1, abs=1e-12), name
    assert ours.micro["muc"].recall < 1


def _documents_of(lines: list[str]):
    from metrics.formats.conllu import parse_conllu

    return parse_conllu("r", lines, [])


@pytest.mark.parametrize("bad, message", [
    ("Entity=(e1-person-1-)", None),
    ("Entity=(e1-person-7-)", "head index 7 outside the one-node mention"),
    ("Entity=(e1-person-x-)", "is not a number"),
    ("Entity=((e1", "does not parse"),
    ("Entity=(e1[2/2]-person-1-)", "before its part 1"),
    ("Entity=(e1[1/2]-person-1-)", "lacks its last part"),
    ("Entity=(e1-person-1-", "never closed"),
    ("Entity=(e1-person-1-)|Entity=(e2-person-1-)", "Entity= is given twice"),
])
def test_bad_entity_values_are_refused_with_their_line(bad, message):
    text = Path(KEY).read_text().replace("Entity=(e1-person-1-)", bad, 1)
    if message is None:
        parse_corefud("k", text.split("\n"))
        return
    with pytest.raises(InputError) as caught:
        parse_corefud("k", text.split("\n"))
    assert message in caught.value.message and caught.value.line is not None


@pytest.mark.parametrize("deps, message", [("1:nsubj", None), ("1nsubj", "does not parse"), ("9.3:nsubj", "does not have")])
def test_bad_deps_of_a_zero_are_refused(deps, message):
    text = Path(KEY).read_text().replace("\t1:nsubj\tEntity=(e1", f"\t{deps}\tEntity=(e1")
    if message is None:
        parse_corefud("k", text.split("\n"))
        return
    with pytest.raises(InputError, match=message):
        parse_corefud("k", text.split("\n"))


def test_a_global_entity_without_eid_is_refused():
    text = Path(KEY).read_text().replace("eid-etype-head-other", "etype-head-other")
    with pytest.raises(InputError, match="names no eid"):
        parse_corefud("k", text.split("\n"))


def test_a_zero_without_dependencies_cannot_be_aligned_by_them():
    text = Path(RESPONSE).read_text().replace("\t1:nsubj\tEntity=(e1", "\t_\tEntity=(e1")
    (doc,) = parse_corefud("r", text.split("\n"))
    with pytest.raises(InputError, match="--zero-match linear"):
        score_corpus(read_corefud(KEY), [doc], KEY, "r", Settings("head"))
    assert score_corpus(read_corefud(KEY), [doc], KEY, "r", Settings("head", zero_match="linear")).micro["zero"].f1 == 1.0

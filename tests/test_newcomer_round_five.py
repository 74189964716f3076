"""A newcomer's fifth look (the CLI's views checked against each other and against the official
scorers): each reproduction, fixed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.formats.conllu import parse_conllu, sentence_ids
from metrics.formats.readers import read_documents
from workbench.cli import main

ROOT = Path(__file__).resolve().parent.parent
FORMATS = ROOT / "tests/data/formats"
CONLLU_KEY, CONLL_RESPONSE = str(FORMATS / "gum2.conllu"), str(FORMATS / "gum2.response.conll")
KEY, RESPONSE = str(ROOT / "samples/gum/key.gum.conll"), str(ROOT / "samples/gum/response.gum.conll")


def trees(path: str) -> list[tuple[str | None, str | None, tuple[str, ...]]]:
    """What corefud-scorer's `check_data_alignment` compares, tree by tree, in file order: the
    document a tree starts (None for the others), its sent_id and its words' forms.  Written
    apart from the reader under test: udapi's rules, read off the lines (a tree without a sent_id
    named after the last one's bundle, else numbered by the file's bundles so far)."""
    out, newdoc, sent_id, forms = [], None, None, []
    bundle, bundles = "", 0
    for line in [*Path(path).read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if forms:
                joins = sent_id is not None and sent_id.split("/")[0] == bundle
                bundles += not joins
                bundle = bundle if sent_id is None else sent_id.split("/")[0]
                out.append((newdoc, sent_id if sent_id is not None else bundle or str(bundles), tuple(forms)))
                newdoc, sent_id, forms = None, None, []
        elif line.startswith("# newdoc id ="):
            newdoc = line.partition("=")[2].strip()
        elif line.startswith("# sent_id"):
            sent_id = line.partition("=")[2].strip()
        elif not line.startswith("#") and line.split("\t")[0].isdigit():
            forms.append(line.split("\t")[1])
    return out


def reversed_documents(path: str, out: Path) -> str:
    """A CoNLL-2012 file with its documents in the opposite order (a system's own order)."""
    text = Path(path).read_text(encoding="utf-8")
    parts = ["#begin" + part for part in text.split("#begin")[1:]]
    out.write_text("".join(reversed(parts)), encoding="utf-8")
    return str(out)


def test_convert_to_conllu_on_a_conllu_key_follows_its_trees(tmp_path, capsys):
    """`corefwb convert RESP OUT.conllu --key KEY.conllu`, docs/formats.md's example "for
    corefud-scorer": that scorer refused its output (`Sent IDs in key and sys are not aligned`,
    and `Newdoc labels` for a response in its own document order), as it pairs trees in file
    order by document name and sent_id.  The output now carries the key's, in the key's order,
    and scores as the response it was made from."""
    response = reversed_documents(CONLL_RESPONSE, tmp_path / "reversed.conll")
    out = tmp_path / "out.conllu"
    assert main(["convert", response, str(out), "--key", CONLLU_KEY]) == 0
    assert trees(str(out)) == trees(CONLLU_KEY)
    scores = []
    for system in (response, str(out)):
        main(["score", CONLLU_KEY, system, "--conventions", "conll", "--format", "json", "--no-cache"])
        scores.append(json.loads(capsys.readouterr().out)["metrics"])
    assert scores[0] == scores[1]


def test_convert_to_conllu_on_a_conllu_key_without_sent_ids_gives_udapis_ids(tmp_path):
    """A CoNLL-U key whose sentences have no sent_id: udapi numbers them over the whole file (the
    second document's first tree is 16 in gum2), and the response's were numbered from 1 in each
    document: corefud-scorer refused it (`Sent IDs in key and sys are not aligned: key=<16, ...>,
    sys=<1, ...>`).  They now carry udapi's numbers."""
    key = tmp_path / "key.conllu"
    key.write_text("".join(line for line in Path(CONLLU_KEY).read_text(encoding="utf-8").splitlines(keepends=True)
                           if not line.startswith("# sent_id")), encoding="utf-8")
    out = tmp_path / "out.conllu"
    assert main(["convert", CONLL_RESPONSE, str(out), "--key", str(key)]) == 0
    assert [tree[1] for tree in trees(str(key))] == [str(k + 1) for k in range(len(trees(str(key))))]
    assert trees(str(out)) == trees(str(key))


def test_convert_to_conllu_without_a_conllu_key_numbers_the_sentences(tmp_path):
    """Without a CoNLL-U key there are no sent_ids to follow: the response's own order, its
    sentences numbered from 1 in each document, as before."""
    response = reversed_documents(CONLL_RESPONSE, tmp_path / "reversed.conll")
    out = tmp_path / "out.conllu"
    assert main(["convert", response, str(out)]) == 0
    listed = trees(str(out))
    assert [tree[0] for tree in listed if tree[0]] == [doc.name for doc in read_documents(response)]
    starts = [k for k, tree in enumerate(listed) if tree[0]] + [len(listed)]
    for a, b in zip(starts, starts[1:]):
        assert [tree[1] for tree in listed[a:b]] == [str(k + 1) for k in range(b - a)]


def test_convert_to_conllu_names_each_entity_once_in_the_file(tmp_path, capsys):
    """Every document's entities were written `e1`, `e2`... afresh under one `eid` declaration,
    whose ids name one entity in the whole file: udapi (corefud-scorer) and our reader split each
    id met in two documents with a warning per id (14,260 on gum-open, 13,518 in a CRAC run's
    workbench).  The ids now run on across documents; the chains read back as they were."""
    out = tmp_path / "out.conllu"
    assert main(["convert", CONLL_RESPONSE, str(out), "--key", CONLLU_KEY]) == 0
    capsys.readouterr()
    documents_of: dict[str, set[str]] = {}
    name = ""
    for line in out.read_text(encoding="utf-8").splitlines():
        if line.startswith("# newdoc id ="):
            name = line.partition("=")[2].strip()
        for eid in re.findall(r"\(?(e\d+)", line.split("\t")[-1]) if "Entity=" in line else ():
            documents_of.setdefault(eid, set()).add(name)
    assert len(documents_of) > 2 and all(len(names) == 1 for names in documents_of.values())
    assert main(["score", CONLLU_KEY, str(out), "--no-cache"]) == 0
    assert "spans two documents" not in capsys.readouterr().err
    written = {doc.name: sorted(doc.chains) for doc in read_documents(str(out))}
    given = {doc.name.split("(")[1].split(")")[0]: sorted(doc.chains) for doc in read_documents(CONLL_RESPONSE)}
    assert written == given


@settings(deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.lists(st.one_of(st.none(), st.from_regex(r"[a-z0-9-]{1,6}", fullmatch=True)),
                                                  min_size=1, max_size=4)), min_size=1, max_size=4))
def test_sentence_ids_are_one_per_sentence_of_the_reader(layout):
    """`sentence_ids` names the documents as the CoNLL-U reader names them and gives as many ids
    as it finds sentences in each, each the id its comments give, an id-less one udapi's number
    while no id came before it (the file is built from the ids it must find)."""
    lines, expected, last, bundles = [], [], None, 0
    for number, (named, ids) in enumerate(layout):
        lines.append(f"# newdoc id = d{number}" if named or number else "# a comment")
        for k, sent_id in enumerate(ids):
            if sent_id is not None:
                lines.append(f"# sent_id = {sent_id}")
            lines += [f"1\tw{k}\t_\t_\t_\t_\t0\troot\t_\t_", f"2\tx{k}\t_\t_\t_\t_\t1\tdep\t_\t_", ""]
        # an id-less sentence: udapi's number (its bundles so far; these ids hold no `/`: a bundle
        # each unless one repeats the last) while no id came before it in the file, else None
        numbered = []
        for sent_id in ids:
            bundles += sent_id is None or sent_id != last
            numbered.append(sent_id if sent_id is not None else None if last is not None else str(bundles))
            last = sent_id if sent_id is not None else last
        expected.append(numbered)
    found = sentence_ids(lines)
    assert list(found.values()) == expected
    documents = parse_conllu("made.conllu", lines)
    assert list(found) == [doc.name for doc in documents]
    assert [len(doc.sentence_starts) for doc in documents] == [len(ids) for ids in expected]


@pytest.mark.parametrize(("options", "said"), [
    (["--seed", "5"], "--seed: the seed of --ci's resamples; add --ci"),
    (["--confidence", "0.9"], "--confidence: the level of --ci's intervals; add --ci"),
    (["--genre-regex", "x"], "--genre-regex: finds the groups of --group-by genre in document names; add --group-by genre"),
    (["--group-by", "length", "--genre-regex", "x"],
     "--genre-regex: finds the groups of --group-by genre in document names; add --group-by genre"),
    (["--group-by", "genre", "--groups", str(ROOT / "README.md"), "--genre-regex", "x"],
     "--genre-regex: the --groups table gives the groups instead; give one of them"),
])
def test_an_option_with_nothing_to_act_on_is_refused(options, said, capsys):
    """`score --seed 5` and `--confidence 0.9` without `--ci`, and `--genre-regex` without `--group-by
    genre` (or beside the `--groups` table that replaces it), were ignored without a word, the
    output as without them, where `--bootstrap` without `--ci` and `--groups` without `--group-by
    genre` were refused."""
    assert main(["score", KEY, RESPONSE, *options]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"corefwb: usage error: {said}"


def test_score_offers_no_test_as_it_has_no_difference_to_test(capsys):
    """`score --ci --test ar --trials 50` ran no test (one system: intervals, no p-value) yet its
    JSON named approximate randomization and 50 trials as its method.  `--test` and `--trials`
    are `compare`'s; the options `score` keeps still act with `--ci`."""
    with pytest.raises(SystemExit) as exited:
        main(["score", KEY, RESPONSE, "--ci", "--test", "ar"])
    assert exited.value.code == 2
    assert "--test" not in capsys.readouterr().out
    assert main(["score", KEY, RESPONSE, "--ci", "--seed", "3", "--confidence", "0.9", "--bootstrap", "40",
                 "--metrics", "conll", "--format", "json", "--no-cache"]) == 0
    method = json.loads(capsys.readouterr().out)["method"]
    assert (method["seed"], method["confidence"], method["resamples"]) == (3, 0.9, 40)
    assert "test" not in method and method["interval"] == "percentile bootstrap"  # it ran no test: it says what ran
    assert main(["compare", KEY, RESPONSE, RESPONSE, "--test", "ar", "--trials", "30", "--metrics", "conll",
                 "--format", "json", "--no-cache"]) == 0
    assert json.loads(capsys.readouterr().out)["method"]["trials"] == 30


def test_a_breakdown_cell_with_nothing_to_count_is_said(capsys):
    """`--group-by length`: MUC's recall of chains of one mention is 0/0 (a singleton has no link
    to find), printed 0.00 beside B3's 79.32 without a word, as if the system found none of their
    links.  The table's title now names every such cell; a table without one says nothing more."""
    assert main(["score", KEY, RESPONSE, "--group-by", "length", "--metrics", "conll", "--no-cache"]) == 0
    lines = capsys.readouterr().out.splitlines()
    title = next(line for line in lines if line.startswith("recall by key chain length"))
    assert title.endswith("; nothing to count (0/0), printed 0.00: MUC R at length 1")
    single = next(line for line in lines[lines.index(title) + 2:] if line.split()[1] == "1")
    assert single.split()[5] == "0.00"
    main(["score", KEY, RESPONSE, "--group-by", "type", "--metrics", "conll", "--no-cache"])
    title = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("mention detection"))
    assert title == "mention detection and linking by mention type (not official metrics)"


def test_kk_with_document_says_its_v801_score_is_the_documents(capsys):
    """`errors --taxonomy kk --document D` analyses D alone, and the header set BCA's starting
    score beside "corefwb score on the files as given: 50.19", D's score, which `corefwb score`
    on the files never prints (it gives the corpus's).  It now says whose score it is."""
    main(["errors", KEY, RESPONSE, "--taxonomy", "kk", "--no-cache"])
    whole = capsys.readouterr().out.splitlines()[2]
    main(["errors", KEY, RESPONSE, "--taxonomy", "kk", "--document", "GUM_news_korea", "--no-cache"])
    part = capsys.readouterr().out.splitlines()[2]
    main(["score", KEY, RESPONSE, "--metrics", "conll", "--format", "json", "--per-doc", "--no-cache"])
    scored = json.loads(capsys.readouterr().out)
    document = next(d for d in scored["per_document"] if "GUM_news_korea" in d["document"])
    assert whole.endswith(f"(corefwb score on the files as given: {100 * scored['metrics']['conll']['f1']:.2f})")
    assert part.endswith(f"(corefwb score on the files as given, of these documents: "
                         f"{100 * document['metrics']['conll']['f1']:.2f})")


def test_a_crac_datasets_p_value_is_compares_on_its_files(tmp_path, capsys):
    """The CRAC report drew every dataset's resamples from one generator in dataset order, so a
    dataset's p-value (and its `*`) depended on the sizes of the datasets before it: gum-open split
    in two gave the second half p = 0.029 where `corefwb compare` on its files, same seed, gives
    0.045 (and 0.056 against 0.051).  Each dataset now draws as `compare` does; the macro-average
    keeps its one stratified stream."""
    from test_crac import make_run

    systems = make_run(tmp_path, {"aa_one": 12, "bb_two": 15, "cc_three": 9})
    main(["crac", str(tmp_path / "key"), *systems, "--format", "json", "--no-cache", "--bootstrap", "300",
          "--variant", "head"])
    report = json.loads(capsys.readouterr().out)
    datasets = report["systems"][1]["datasets"]
    assert [d["name"] for d in datasets] == ["aa_one", "bb_two", "cc_three"]
    for dataset in datasets:
        name = f"{dataset['name']}-corefud-dev.conllu"
        main(["compare", str(tmp_path / "key" / name), *[str(Path(s) / name) for s in systems], "--metrics", "conll",
              "--bootstrap", "300", "--format", "json", "--no-cache"])
        compared = json.loads(capsys.readouterr().out)["differences"]["conll"]
        assert dataset["p_values"]["head"] == next(iter(compared.values()))["p_value"], dataset["name"]


def test_convert_to_conllu_says_when_the_key_has_a_document_the_response_lacks(tmp_path, capsys):
    """corefud-scorer refuses a response without every key document (`Newdoc labels ... not
    aligned`): the converted file was written without a word.  Now a warning names them."""
    text = Path(CONLL_RESPONSE).read_text(encoding="utf-8")
    first = tmp_path / "first.conll"
    first.write_text("#begin" + text.split("#begin")[1], encoding="utf-8")
    assert main(["convert", str(first), str(tmp_path / "out.conllu"), "--key", CONLLU_KEY]) == 0
    said = capsys.readouterr().err
    assert "1 key document(s) not in the response (GUM_interview_brotherhood)" in said
    assert main(["score", CONLLU_KEY, str(tmp_path / "out.conllu"), "--no-cache"]) == 1  # as said
    assert "no document 'GUM_interview_brotherhood'" in capsys.readouterr().err
    assert main(["convert", CONLL_RESPONSE, str(tmp_path / "all.conllu"), "--key", CONLLU_KEY]) == 0
    assert "not in the response" not in capsys.readouterr().err

"""Hostile input, round three (issue 45), items 5-11: the other defects of the new readers,
`convert`, the cache and `crac` folders.  Each case as a user meets it: the CLI's exit status and
its one-line message (or warning)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import corefwb_in_process

from metrics.formats.readers import read_documents
from metrics.formats.writers import output_record

ROOT = Path(__file__).resolve().parent.parent
ONE = [("John", "(0)"), ("met", "-"), ("Mary", "(1)"), (".", "-"), None, ("He", "(0)"), ("liked", "-"), ("her", "(1)"), (".", "-")]


def corefwb(*args: str) -> subprocess.CompletedProcess:
    """In this process (`cli_support`): these cases are about what the command says and returns;
    the cache's cases below (`cached_run`) keep real processes."""
    return corefwb_in_process(*args, env={"NO_COLOR": "1", "COREFWB_NO_CACHE": "1"})


def error_line(result: subprocess.CompletedProcess, status: int = 1) -> str:
    """The one line of an input (1) or usage (2) error; warnings may precede it, never a traceback."""
    lines = [line for line in result.stderr.splitlines() if not line.startswith("corefwb: warning")]
    assert result.returncode == status and len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


def warnings_of(result: subprocess.CompletedProcess) -> list[str]:
    assert "Traceback" not in result.stderr, result.stderr
    return [line for line in result.stderr.splitlines() if line.startswith("corefwb: warning")]


def conll_key(path: Path, names: tuple[str, ...] = ("one",)) -> Path:
    """`John met Mary . He liked her .` (John, He; Mary, her) as each named document."""
    lines = []
    for name in names:
        lines.append(f"#begin document ({name}); part 000")
        index = 0
        for row in ONE:
            if row is None:
                lines.append("")
                index = 0
                continue
            lines.append("\t".join([name, "0", str(index), row[0], "-", "-", "-", "-", "-", "-", "*", row[1]]))
            index += 1
        lines += ["", "#end document"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_records(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def hoi_record(key: Path, drop: tuple[str, ...] = ("doc_key",)) -> dict:
    record = output_record(read_documents(str(key))[0], "hoi")
    for field in drop:
        record.pop(field, None)
    return record


# ----------------------------------------------------------------------- 5. a hoi record without doc_key

@pytest.mark.parametrize("records", [1, 2])
def test_hoi_records_without_a_name_pair_by_their_place(tmp_path, records):
    key = conll_key(tmp_path / "k.conll", ("one", "two")[:records])
    response = write_records(tmp_path / "h.jsonl", [hoi_record(key)] * records)
    assert [d.name for d in read_documents(str(response))] == [f"#{n}" for n in range(1, records + 1)]
    result = corefwb("score", str(key), str(response), "--metrics", "muc", "--format", "json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["metrics"]["muc"]["f1"] == 1.0


# ----------------------------------------------------------------------- 6. CoNLL-U converted

TWO_SENTENCES = ROOT / "tests" / "data" / "hostile" / "two_sentences.conllu"


def test_conllu_to_conll_numbers_the_chains(tmp_path):
    """v8.01 reads digits only: CorefUD's entity IDs (`e1`) become chain numbers."""
    out = tmp_path / "o.conll"
    result = corefwb("convert", str(TWO_SENTENCES), str(out))
    assert result.returncode == 0, result.stderr
    coref = [line.split("\t")[-1] for line in out.read_text(encoding="utf-8").splitlines() if "\t" in line]
    assert coref == ["(0)", "-", "(1)", "-", "(0)", "-", "(1)", "-"]
    assert "zeros" in " ".join(warnings_of(result))  # the zero has no token span in CoNLL-2012: said


def test_conllu_to_conllu_keeps_the_zeros(tmp_path):
    out = tmp_path / "o.conllu"
    result = corefwb("convert", str(TWO_SENTENCES), str(out))
    assert result.returncode == 0 and warnings_of(result) == []
    assert out.read_bytes() == TWO_SENTENCES.read_bytes()
    scores = corefwb("score", str(TWO_SENTENCES), str(out), "--metrics", "zero", "--format", "json")
    assert json.loads(scores.stdout)["metrics"]["zero"]["f1"] == 1.0
    bad = tmp_path / "bad.conllu"
    bad.write_text(TWO_SENTENCES.read_text(encoding="utf-8").replace("(e2-person-1-)", "(e2-person-x-)", 1), encoding="utf-8")
    assert "head index 'x'" in error_line(corefwb("convert", str(bad), str(tmp_path / "b.conllu")))
    assert not (tmp_path / "b.conllu").exists()


# ----------------------------------------------------------------------- 7. a read-only output file (and 10: `newdir/`)

@pytest.mark.parametrize("command", [["convert", str(TWO_SENTENCES)], ["score", str(TWO_SENTENCES), str(TWO_SENTENCES), "--output"]])
def test_a_read_only_output_is_refused_not_replaced(tmp_path, command):
    target = tmp_path / "out.conll"
    target.write_text("mine\n", encoding="utf-8")
    target.chmod(0o444)
    line = error_line(corefwb(*command, str(target)))
    assert line == f"corefwb: error: {target}: cannot write: the file is read-only"
    assert target.read_text(encoding="utf-8") == "mine\n" and not target.stat().st_mode & 0o222
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.conll"]  # no temporary left behind


def test_an_output_naming_a_missing_folder_says_so(tmp_path):
    line = error_line(corefwb("convert", str(TWO_SENTENCES), f"{tmp_path}/newdir/", "--to", "conll"))
    assert line == f"corefwb: error: {tmp_path}/newdir/: cannot write: this names a folder that does not exist; give a file name"


# ----------------------------------------------------------------------- 8. the cache

def cached_run(cache: Path, *args: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("COREFWB_")}
    return subprocess.run([sys.executable, "-m", "workbench.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**environment, "XDG_CACHE_HOME": str(cache), "PYTHONPATH": str(ROOT)}, timeout=120)


def _entries(cache: Path) -> list[Path]:
    return sorted(p for p in (cache / "corefwb").iterdir() if not p.name.startswith("."))


def _entry_holding(payload: bytes, name: str) -> bytes:
    """A sound entry (magic, length, checksum for its name) over any pickle: what an unexpected
    object looks like."""
    from metrics.formats import cache

    return cache._MAGIC + len(payload).to_bytes(8, "big") + cache._checksum(name, payload) + payload


@pytest.mark.parametrize("value", ["hello", [1, 2, 3], ([1], ["x"])])
def test_a_sound_entry_with_an_unexpected_pickle_is_rebuilt(tmp_path, value):
    import pickle

    key = conll_key(tmp_path / "k.conll")
    good = cached_run(tmp_path, "score", str(key), str(key), "--format", "json")
    for entry in _entries(tmp_path):  # the key's and the response's (read with other options)
        entry.write_bytes(_entry_holding(pickle.dumps(value), entry.name))
    again = cached_run(tmp_path, "score", str(key), str(key), "--format", "json")
    assert again.returncode == 0 and again.stdout == good.stdout
    assert sorted(warnings_of(again)) == [f"corefwb: warning: cache entry {entry} cannot be read: removed, and the input "
                                          "read again" for entry in _entries(tmp_path)]


def test_an_entry_replaced_by_a_fifo_is_not_opened(tmp_path):
    key = conll_key(tmp_path / "k.conll")
    good = cached_run(tmp_path, "score", str(key), str(key), "--format", "json")
    for entry in _entries(tmp_path):
        entry.unlink()
        os.mkfifo(entry)
    again = cached_run(tmp_path, "score", str(key), str(key), "--format", "json")  # a hang would time out
    assert again.returncode == 0 and again.stdout == good.stdout


def test_stale_temporaries_are_removed_and_counted(tmp_path):
    from metrics.formats.cache import STALE_SECONDS, ReadCache

    key = conll_key(tmp_path / "k.conll")
    folder = tmp_path / "corefwb"
    folder.mkdir(mode=0o700)
    stale, fresh = folder / ".tmp-killed00", folder / ".tmp-writing0"  # named as mkstemp names them
    for path in (stale, fresh):
        path.write_bytes(b"x" * 1000)
    old = os.stat(stale).st_mtime - STALE_SECONDS - 60
    os.utime(stale, (old, old))
    assert cached_run(tmp_path, "score", str(key), str(key)).returncode == 0
    assert not stale.exists() and fresh.exists()  # another writer's may still be under way
    # the bound counts temporaries: three entries of about 1,650 bytes fit in 5,000, not with 2,000 more
    folder = tmp_path / "bounded"
    cache = ReadCache(folder, max_bytes=5000)
    for n, name in enumerate(("a" * 40, "b" * 40)):  # named as entries are
        cache.store(name, "x" * 1600)
        os.utime(folder / name, (1_000_000 + n, 1_000_000 + n))
    (folder / ".tmp-writing0").write_bytes(b"x" * 2000)
    cache.store("c" * 40, "x" * 1600)
    assert sorted(p.name for p in folder.iterdir()) == [".tmp-writing0", "c" * 40]


# ----------------------------------------------------------------------- 9. crac folders

def test_crac_skips_hidden_files_and_says_which_links_lead_nowhere(tmp_path):
    keys, system = tmp_path / "keys", tmp_path / "system"
    keys.mkdir()
    system.mkdir()
    for folder in (keys, system):
        (folder / "en_one-corefud-dev.conllu").write_bytes(TWO_SENTENCES.read_bytes())
        (folder / "._en_one-corefud-dev.conllu").write_bytes(b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X")  # AppleDouble
    (keys / "de_gone-corefud-dev.conllu").symlink_to(tmp_path / "nowhere.conllu")
    (system / "fr_loop-corefud-dev.conllu").symlink_to(system / "fr_loop-corefud-dev.conllu")
    result = corefwb("crac", str(keys), str(system), "--format", "json")
    assert result.returncode == 0, result.stderr
    assert "en_one" in result.stdout and "._en_one" not in result.stdout
    assert warnings_of(result) == [
        f"corefwb: warning: {keys}/de_gone-corefud-dev.conllu: a link that leads nowhere: not read",
        f"corefwb: warning: {system}/fr_loop-corefud-dev.conllu: a link that loops: not read"]


# ----------------------------------------------------------------------- 10. unclear messages

@pytest.mark.parametrize("record, message", [
    ({"tokens": ["a"]}, "field 'clusters_token_offsets' is missing (a maverick record: it has 'tokens')"),
    ({"doc_key": "one_0", "clusters_char_offsets": []}, "field 'text' is missing (a text record: it has 'clusters_char_offsets')"),
    ({"document_id": "one_0", "cased_words": ["a"]}, "field 'span_clusters' is missing (a wl record: it has 'cased_words')"),
    ({"doc_key": "one_0", "sentences": [["[CLS]", "John", "met", "[SEP]"]], "clusters": []},
     "field 'subtoken_map' is missing (a hoi record: its sentences hold special subtokens ([CLS], <s> ...))"),
    ({"doc_key": "one_0", "sentences": [["John", "met"]], "sentence_map": [0, 0], "clusters": []},
     "field 'subtoken_map' is missing (a hoi record: it has a sentence_map)"),
])
def test_a_system_record_missing_a_field_names_its_own_format(tmp_path, record, message):
    key = conll_key(tmp_path / "k.conll")
    response = write_records(tmp_path / "r.jsonl", [record])
    assert error_line(corefwb("score", str(key), str(response))) == f"corefwb: error: {response}:1: {message}"


def test_a_negative_head_index_is_named(tmp_path):
    path = tmp_path / "neg.conllu"
    path.write_text(TWO_SENTENCES.read_text(encoding="utf-8").replace("(e2-person-1-)", "(e2-person--1)", 1), encoding="utf-8")
    assert error_line(corefwb("score", str(path), str(path))) == (
        f"corefwb: error: {path}:7: head index is empty in '(e2-person--1)' (fields eid-etype-head-other): a '-' too many, "
        "or a negative index? Heads count from 1")


# ----------------------------------------------------------------------- 11. accepted silently before

def _hoi(key: Path, **changes) -> dict:
    return {**hoi_record(key, drop=()), **changes}


SUBTOKEN_MAP = [0, 0, 0, 1, 2, 2, 3, 3, 3, 4, 5, 5, 6, 7, 7]
SENTENCE_MAP = [0] * 8 + [1] * 7


@pytest.mark.parametrize("changes, message", [
    ({"sentence_map": SENTENCE_MAP[:2] + [1] + SENTENCE_MAP[3:]},  # "##n" in another sentence than "Joh"
     "field 'sentence_map': subtoken 2 puts word 0 in sentence 1, its first subtoken in sentence 0: a word is in one sentence"),
    ({"sentence_map": [1] * 8 + [0] * 7}, "field 'sentence_map': subtoken 9 has sentence 0 after sentence 1: sentence numbers never decrease"),
    ({"subtoken_map": SUBTOKEN_MAP[:9] + [9, 5, 5, 6, 7, 7]},  # "He" is word 9, then "liked" word 5
     "field 'subtoken_map': subtoken 10 has word 5 after word 9: word numbers never decrease"),
    ({"subtoken_map": [-1] + SUBTOKEN_MAP[1:]}, "field 'subtoken_map': subtoken 0 has a negative word number"),
])
def test_an_inconsistent_hoi_record_is_refused(tmp_path, changes, message):
    key = conll_key(tmp_path / "k.conll")
    response = write_records(tmp_path / "h.jsonl", [_hoi(key, doc_key="one_0", **changes)])
    assert error_line(corefwb("score", str(key), str(response))) == f"corefwb: error: {response}:1: {message}"


def test_a_wl_sent_id_of_the_wrong_length_is_refused(tmp_path):
    key = conll_key(tmp_path / "k.conll")
    record = output_record(read_documents(str(key))[0], "wl")
    response = write_records(tmp_path / "w.jsonl", [{**record, "sent_id": [0, 0, 0, 0, 1, 1, 1]}])
    assert error_line(corefwb("score", str(key), str(response))) == (
        f"corefwb: error: {response}:1: field 'sent_id' must hold one sentence number per word (8)")


def test_a_json_field_given_twice_is_refused(tmp_path):
    key = conll_key(tmp_path / "k.conll")
    response = tmp_path / "twice.jsonl"
    response.write_text('{"doc_key": "one_0", "sentences": [["John", "met", "Mary", "."], ["He", "liked", "her", "."]], '
                        '"clusters": [[[0, 0], [4, 4]]], "clusters": [[[2, 2], [6, 6]]]}\n', encoding="utf-8")
    assert error_line(corefwb("score", str(key), str(response))) == (
        f"corefwb: error: {response}:1: field 'clusters' is given twice (JSON would keep the last silently)")


def _conllu_variant(tmp_path: Path, old: str, new: str) -> Path:
    text = TWO_SENTENCES.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "variant.conllu"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize("old, new, line, message", [
    ("\n2.1\t", "\n9.1\t", 14, "empty node 9.1 follows word 2 (an empty node N.k follows word N): read as corefud-scorer "
                               "reads it, placed by its ID"),
    ("\n1\tJohn", "\n1-9\tJohnmet\t_\t_\t_\t_\t_\t_\t_\t_\n1\tJohn", 5,
     "range 1-9 names words its sentence does not have (its last word is 4): ignored, as corefud-scorer ignores it"),
    ("\t2:nsubj\tEntity=(e1-person-1-)\n3\ther", "\t2.1:nsubj\tEntity=(e1-person-1-)\n3\ther", 14,
     "DEPS '2.1:nsubj' names its own node: read as corefud-scorer reads it"),
])
def test_odd_node_ids_that_corefud_scorer_accepts_are_warned_about(tmp_path, old, new, line, message):
    path = _conllu_variant(tmp_path, old, new)
    result = corefwb("score", str(TWO_SENTENCES), str(path), "--metrics", "muc")
    assert result.returncode == 0, result.stderr
    assert warnings_of(result) == [f"corefwb: warning: {path}:{line}: {message} (first such line)"]


@pytest.mark.parametrize("attribute", ["SplitAnte=e7<e2", "Bridge=e7<e2:part"])
def test_split_antecedents_and_bridges_to_undefined_entities_are_refused(tmp_path, attribute):
    """udapi refuses them too ("referenced in SplitAnte or Bridge, but not defined with Entity")."""
    path = _conllu_variant(tmp_path, "Entity=(e2-person-1-)\n4", f"Entity=(e2-person-1-)|{attribute}\n4")
    name = attribute.split("=")[0]
    assert error_line(corefwb("score", str(TWO_SENTENCES), str(path), "--metrics", "muc")) == (
        f"corefwb: error: {path}:7: {name} names entity e7, which no Entity= annotation has (corefud-scorer refuses it too)")
    defined = _conllu_variant(tmp_path, "Entity=(e2-person-1-)\n4", f"Entity=(e2-person-1-)|{attribute.replace('e7', 'e1')}\n4")
    assert corefwb("score", str(TWO_SENTENCES), str(defined), "--metrics", "muc").returncode == 0


def test_a_forced_hoi_format_on_another_record_names_the_missing_field(tmp_path):
    """Found by the extended fuzzer: `--response-format hoi` on our own jsonlines was a KeyError."""
    key = conll_key(tmp_path / "k.conll")
    response = write_records(tmp_path / "own.jsonl", [{"doc_key": "one_0", "sentences": [["John"]], "clusters": []}])
    assert error_line(corefwb("score", str(key), str(response), "--response-format", "hoi")) == (
        f"corefwb: error: {response}:1: field 'subtoken_map' is missing")

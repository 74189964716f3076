"""Hostile input, a fifth round (hostile11): what options out of range, a groups table, streamed
files and broken inputs got that was a traceback, a silent wrong grouping or an error without its
line.  Each case as a user meets it: the exit status and the one line it says."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_hostile_round_nine import corefwb, error_line  # (the command in process, its one error line)


def _row(word: str, cell: str, i: int = 0) -> str:
    return f"d\t0\t{i}\t{word}\tX\t*\t-\t-\t-\t-\t*\t{cell}\n"


def _conll(name: str = "(d); part 000") -> str:
    return f"#begin document {name}\n" + _row("John", "(0)") + _row("saw", "-", 1) + _row("him", "(0)", 2) \
        + "\n#end document\n"


@pytest.fixture
def pair(tmp_path):
    """A key and a response of two documents (`(a); part 000`, `(b); part 000`)."""
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(_conll("(a); part 000") + _conll("(b); part 000"), encoding="utf-8")
    response.write_text(_conll("(a); part 000") + _conll("(b); part 000").replace("(0)", "(1)", 1), encoding="utf-8")
    return key, response


@pytest.mark.parametrize("command", [["score", "--ci"], ["compare", "RESPONSE"]])
def test_a_negative_seed_is_a_usage_error_not_a_traceback(pair, command):
    """`--seed -1` reached numpy's generator, which takes no negative seed: a ValueError traceback
    (exit 1) after the scoring was done."""
    key, response = pair
    args = [command[0], str(key), str(response)] + [str(response) if a == "RESPONSE" else a for a in command[1:]]
    run = corefwb(*args, "--seed", "-1")
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert run.stderr.splitlines()[-1] == \
        "corefwb: usage error: --bootstrap/--confidence/--trials/--seed: seed must be 0 or more, not -1"
    assert corefwb(*args, "--seed", "0").returncode == 0


def _grouped(pair, table, text: str, command: str = "score", *extra: str):
    """`corefwb COMMAND KEY RESPONSE [EXTRA] --group-by genre --groups TABLE`, TABLE holding `text`."""
    key, response = pair
    table.write_text(text, encoding="utf-8")
    return corefwb(command, str(key), str(response), *extra, "--group-by", "genre", "--groups", str(table))


def test_a_groups_table_listing_a_document_twice_is_refused_at_the_second_line(pair, tmp_path):
    """The last row's group was taken without a word: a table listing `(a)` under two groups (or a
    CoNLL file given for the table, its name on every token line) grouped silently."""
    table = tmp_path / "groups.tsv"
    run = _grouped(pair, table, "doc\tgroup\n# a comment\n(a); part 000\tnews\n(b); part 000\tbio\n"
                                "(a); part 000\tbio\n")
    assert error_line(run) == f"corefwb: error: {table}:5: document '(a); part 000' is listed twice (also on line 3)"
    key = pair[0]
    run = corefwb("score", str(key), str(pair[1]), "--group-by", "genre", "--groups", str(key))
    assert error_line(run) == f"corefwb: error: {key}:3: document 'd' is listed twice (also on line 2)"


def test_a_groups_row_too_short_is_named_at_its_line(pair, tmp_path):
    table = tmp_path / "groups.tsv"
    run = _grouped(pair, table, "(a); part 000\tnews\n\n(b); part 000\n")
    assert error_line(run) == f"corefwb: error: {table}:3: a row has 1 columns, fewer than 2: '(b); part 000'"


def test_a_groups_table_naming_no_document_of_the_key_says_so(pair, tmp_path):
    """Every document fell into (other) without a word: the wrong table, or names in another form."""
    table = tmp_path / "groups.tsv"
    for command in (["score"], ["compare", str(pair[1])]):
        run = _grouped(pair, table, "doc\tgroup\n(c); part 000\tnews\n", *command)
        assert run.returncode == 0
        assert f"corefwb: warning: {table}: the table lists no document of the key: every one is in (other)" \
            in run.stderr.splitlines()
    run = _grouped(pair, table, "doc\tgroup\nb\tbio\n")  # one document listed by its short name
    assert run.returncode == 0 and "lists no document" not in run.stderr


def test_a_gzip_file_named_conll_streams_as_it_reads_whole(pair, tmp_path):
    """Gzip is told by its bytes, whatever the name; `--stream` told it by the name alone, indexed
    the compressed bytes and refused them as "NUL byte in text" (a truncated one too, where the
    whole reading says the gzip stream is truncated).  Now it is read whole, as a `.gz` is, and
    says so."""
    import gzip

    key, response = pair
    packed = tmp_path / "packed.conll"
    packed.write_bytes(gzip.compress(response.read_bytes()))
    whole = corefwb("score", str(key), str(packed), "--format", "json")
    streamed = corefwb("score", str(key), str(packed), "--format", "json", "--stream")
    assert streamed.returncode == 0 and streamed.stdout == whole.stdout, streamed.stderr
    assert "reading these inputs whole instead" in streamed.stderr
    packed.write_bytes(gzip.compress(response.read_bytes())[:40])
    said = error_line(corefwb("score", str(key), str(packed), "--format", "json"))
    assert error_line(corefwb("score", str(packed), str(response), "--stream")) == said
    assert said == f"corefwb: error: {packed}: cannot read: the gzip stream is truncated"


@pytest.mark.parametrize("spoil, said", [
    (lambda text: text.encode("utf-16"), ":1: not UTF-8 text (invalid start byte at column 1)"),
    (lambda text: b"h\xffim".join(text.encode().rsplit(b"him", 1)),
     ":10: not UTF-8 text (invalid start byte at column 8)"),
])
def test_streamed_and_whole_readings_say_the_same_of_bytes_that_are_not_utf8(pair, tmp_path, spoil, said):
    """UTF-16 was "NUL byte in text" under `--stream` (the index looked for NUL first), and a
    document's bad byte was named without its column; the whole reading names both."""
    key, response = pair
    spoilt = tmp_path / "spoilt.conll"
    spoilt.write_bytes(spoil(key.read_text(encoding="utf-8")))
    for args in (["score", str(spoilt), str(response)], ["score", str(response), str(spoilt)]):
        assert error_line(corefwb(*args)) == f"corefwb: error: {spoilt}{said}"
        assert error_line(corefwb(*args, "--stream")) == f"corefwb: error: {spoilt}{said}"


def test_a_lone_cr_under_stream_says_to_score_without_stream(pair, tmp_path):
    key, response = pair
    odd = tmp_path / "odd.conll"
    odd.write_bytes(key.read_bytes().replace(b"\n", b"\r"))
    assert error_line(corefwb("score", str(odd), str(response), "--stream")) == (
        f"corefwb: error: {odd}:1: a lone CR (classic Mac OS line end) inside a line: convert the line ends to LF, "
        f"or score without --stream")


@pytest.mark.parametrize("command", [["score"], ["errors"]])
def test_a_conllu_document_of_another_length_is_named_where_it_ends(tmp_path, command):
    """Under the CorefUD conventions a response (or key) cut at a sentence's end was "document 'd1'
    has 4 words, the key's 8" with no line; now the response's line where the two part (its last
    word, or its first extra one) and the key's."""
    key = Path(__file__).parent / "data" / "hostile" / "two_sentences.conllu"
    cut = tmp_path / "cut.conllu"
    cut.write_text("".join(key.read_text(encoding="utf-8").splitlines(keepends=True)[:9]), encoding="utf-8")
    assert error_line(corefwb(*command, str(key), str(cut))) == \
        f"corefwb: error: {cut}:8: document 'd1' has 4 words, the key's 8 ({key}:12)"
    assert error_line(corefwb(*command, str(cut), str(key))) == \
        f"corefwb: error: {key}:12: document 'd1' has 8 words, the key's 4 ({cut}:8)"


@pytest.mark.parametrize("command", [["score"], ["score", "--ci"], ["compare", "RESPONSE"]])
def test_an_output_onto_the_groups_table_is_refused(pair, tmp_path, command):
    """`--output` refused the key and the responses but not the `--groups` table, which the run
    reads too: the table was replaced by the scores."""
    key, response = pair
    table = tmp_path / "groups.tsv"
    table.write_text("doc\tgroup\na\tnews\nb\tbio\n", encoding="utf-8")
    before = table.read_bytes()
    extra = [str(response) if a == "RESPONSE" else a for a in command[1:]]
    run = corefwb(command[0], str(key), str(response), *extra, "--group-by", "genre", "--groups", str(table),
                  "--output", str(table))
    assert error_line(run) == f"corefwb: error: {table}: refusing to write the output onto an input file ({table})"
    assert table.read_bytes() == before


@pytest.mark.parametrize("options, said", [
    (["--groups", "TABLE"], "--groups: the table gives the groups of --group-by genre; add --group-by genre"),
    (["--groups", "TABLE", "--group-by", "file"], "--groups: the table gives the groups of --group-by genre; "
                                                  "add --group-by genre"),
    (["--groups-column", "group"], "--groups-column: names a column of the --groups table; give --groups TSV"),
])
@pytest.mark.parametrize("command", [["score"], ["compare", "RESPONSE"]])
def test_a_groups_table_without_group_by_genre_is_a_usage_error(pair, tmp_path, command, options, said):
    """The table was never read: the scores came without their groups, and nothing said why."""
    key, response = pair
    table = tmp_path / "groups.tsv"
    table.write_text("doc\tgroup\na\tnews\n", encoding="utf-8")
    args = [str(response) if a == "RESPONSE" else a for a in command[1:]] + \
        [str(table) if a == "TABLE" else a for a in options]
    run = corefwb(command[0], str(key), str(response), *args)
    assert run.returncode == 2 and run.stdout == "" and run.stderr.splitlines() == [f"corefwb: usage error: {said}"]


@pytest.mark.parametrize("conventions", ["corefud", "conll"])
def test_a_global_entity_declared_again_with_other_fields_is_warned_about(tmp_path, conventions):
    """A second document declaring `etype-eid-head-other` reads here by its own declaration, and in
    corefud-scorer by the file's last (udapi keeps one per file: the first document's IDs become
    types, and its MUC F1 on this pair is 92.31, ours 100): the two differed without a word."""
    import re

    from metrics.formats.conllu import ENTITY_REDECLARED
    from metrics.formats.source import FIRST_SUCH_LINE

    text = (Path(__file__).parent / "data" / "hostile" / "two_sentences.conllu").read_text(encoding="utf-8")
    second = re.sub(r"\((e\d)-person-", r"(person-\1-", text.replace("# newdoc id = d1", "# newdoc id = d2")
                    .replace("eid-etype-head-other", "etype-eid-head-other"))
    key, response = tmp_path / "key.conllu", tmp_path / "response.conllu"
    key.write_text(text + text.replace("# newdoc id = d1", "# newdoc id = d2"), encoding="utf-8")
    response.write_text(text + second, encoding="utf-8")
    run = corefwb("score", str(key), str(response), "--conventions", conventions, "--metrics", "muc")
    assert run.returncode == 0, run.stderr
    assert f"corefwb: warning: {response}:19: {ENTITY_REDECLARED} {FIRST_SUCH_LINE}" in run.stderr.splitlines()
    assert "declared again" not in corefwb("score", str(key), str(key), "--conventions", conventions).stderr


@pytest.mark.parametrize("target", ["out.conll", "out.txt"])
def test_convert_names_its_own_option_for_a_format_it_cannot_tell(tmp_path, target):
    """`convert` sent the user to --key-format/--response-format, options it does not take (its
    own is --from); the scoring commands keep theirs."""
    junk = tmp_path / "junk.dat"
    junk.write_text("hello\n", encoding="utf-8")
    extra = ["--to", "crac-text"] if target.endswith(".txt") else []
    assert error_line(corefwb("convert", str(junk), str(tmp_path / target), *extra)) == \
        f"corefwb: error: {junk}: cannot tell the format (conll, conllu, jsonl, crac-text or crac-json): name it with --from"
    assert error_line(corefwb("score", str(junk), str(junk))) == \
        f"corefwb: error: {junk}: cannot tell the format (conll, conllu, jsonl, crac-text or crac-json): name it with " \
        f"--key-format/--response-format"
    assert not (tmp_path / target).exists()


def test_a_broken_response_document_the_key_lacks_is_refused_under_stream_too(pair, tmp_path):
    """`--stream` read only the response documents a key took: one the key lacks, with a mention
    never closed, passed (exit 0) where the whole reading refuses the file (exit 1); and a sound
    one's reading warnings were not said."""
    key, response = pair
    extra = tmp_path / "extra.conll"
    extra.write_text(response.read_text(encoding="utf-8") + "#begin document (x); part 000\n" + _row("w", "(5")
                     + "\n#end document\n", encoding="utf-8")
    said = error_line(corefwb("score", str(key), str(extra)))
    assert said == f"corefwb: error: {extra}:16: mention (5 opened on line 14 is never closed in document " \
                   f"'(x); part 000'"
    assert error_line(corefwb("score", str(key), str(extra), "--stream")) == said
    extra.write_text(response.read_text(encoding="utf-8") + "#begin document (x); part 000\n(5)\n\n#end document\n",
                     encoding="utf-8")
    whole = corefwb("score", str(key), str(extra), "--format", "json")
    streamed = corefwb("score", str(key), str(extra), "--format", "json", "--stream")
    assert whole.returncode == streamed.returncode == 0
    assert (streamed.stdout, streamed.stderr) == (whole.stdout, whole.stderr)
    assert f"{extra}:14: a token line with one field" in whole.stderr


@pytest.mark.parametrize("command", [["score"], ["errors"]])
def test_a_ua_file_under_corefud_says_it_is_a_ua_file(command):
    """`--conventions corefud` on a UA file said "expected 10 TAB-separated CoNLL-U columns, found
    1" at its first word; `--conventions conll` said what it is and which conventions read it."""
    ua = Path(__file__).parent / "data" / "ua"
    said = ("a Universal Anaphora file (global.columns with IDENTITY): score it under --conventions ua")
    for conventions in ("corefud", "conll"):
        assert error_line(corefwb(*command, str(ua / "bridging.key"), str(ua / "bridging.response"),
                                  "--conventions", conventions)) == f"corefwb: error: {ua / 'bridging.key'}: {said}"
    key = Path(__file__).parent / "data" / "hostile" / "two_sentences.conllu"
    assert error_line(corefwb(*command, str(key), str(ua / "bridging.response"), "--conventions", "corefud")) == \
        f"corefwb: error: {ua / 'bridging.response'}: {said}"


@pytest.mark.parametrize("marker", ["#begin document", "#begin  document (d); part 000"])
def test_a_file_whose_only_begin_line_is_malformed_is_named_at_it_under_stream_too(tmp_path, marker):
    """The whole reading names the malformed marker's line; `--stream` found no document and said
    "no '#begin document' found" of the whole file."""
    odd = tmp_path / "odd.conll"
    odd.write_text(marker + "\n" + _row("John", "(0)") + "\n#end document\n", encoding="utf-8")
    said = error_line(corefwb("score", str(odd), str(odd)))
    assert said.startswith(f"corefwb: error: {odd}:1: malformed '#begin document NAME' line ")
    assert error_line(corefwb("score", str(odd), str(odd), "--stream")) == said


@pytest.mark.parametrize(("options", "said"), [
    (["--ci", "--bootstrap", "0"], "--bootstrap/--confidence/--trials/--seed: resamples must be between 1 and 10,000,000"),
    (["--bootstrap", "50"], "--bootstrap: resamples for --ci's intervals; add --ci"),
])
def test_score_takes_its_bootstrap_as_given_or_refuses_it(pair, options, said):
    """`score --ci --bootstrap 0` took 1,000 resamples (0 read as "not given"), and `--bootstrap N`
    without `--ci` was ignored: each without a word (found by hostile11, mended by the lead)."""
    key, response = pair
    run = corefwb("score", str(key), str(response), *options)
    assert run.returncode == 2 and run.stderr.splitlines()[-1] == f"corefwb: usage error: {said}", run.stderr
    run = corefwb("score", str(key), str(response), "--ci", "--bootstrap", "7", "--metrics", "muc")
    assert run.returncode == 0 and "(7 resamples" in run.stdout, run.stdout


@pytest.mark.parametrize(("key_cells", "response_cells", "said"), [
    (("(0)", "(0)"), ("(0)|(0)", "(0)"), "0-0 listed again in chain 0: the second listing dropped"),
    (("(0)|(0)", "(0)"), ("(0)", "(0)"), "has spans listed twice in a chain, so every score is ill-defined"),
    (("(0)|(0)", "(0)"), ("(0)", "(0)"), "0-0 twice in chain 0"),
    (("-", "(0)"), ("(5)|(5)", "(5)"), "kept twice, as v8.01 does: 0-0 twice in chain 5"),
    (("(0)|(1)", "(0)"), ("(0)", "(0)"), "has spans in more than one chain, so every score is ill-defined"
                                          " (v8.01's treatment is mirrored): 0-0 in chains 0, 1"),
])
def test_a_span_listed_twice_in_one_chain_is_told_as_such(tmp_path, key_cells, response_cells, said):
    """A span one chain lists twice was told as in two chains: "in chains 0, 0", "dropped from
    chain 0 (kept in 0)" (found by hostile11, mended by the lead)."""
    def doc(cells):
        return "#begin document (d); part 000\n" + _row("John", cells[0]) + _row("saw", "-", 1) \
            + _row("him", cells[1], 2) + "\n#end document\n"
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(doc(key_cells), encoding="utf-8")
    response.write_text(doc(response_cells), encoding="utf-8")
    run = corefwb("score", str(key), str(response), "--metrics", "muc")
    assert run.returncode == 0 and said in run.stderr and "chains 0, 0" not in run.stderr, run.stderr

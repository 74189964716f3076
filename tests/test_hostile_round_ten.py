"""Hostile input, review9's leftovers and a fourth round (hostile10): what a broken file got that
was a silent wrong number or an error at the wrong line.  Each case as a user meets it: the exit
status, the one line naming the file and line, and the number scored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_hostile_round_nine import corefwb, error_line  # (the command in process, its one error line)

from metrics.formats.conll import ONE_FIELD
from metrics.formats.conllu import ENTITY_ON_A_RANGE, NEWDOC_INSIDE_A_SENTENCE, read_conllu


def _row(word: str, cell: str, i: int = 0) -> str:
    return f"d\t0\t{i}\t{word}\tX\t*\t-\t-\t-\t-\t*\t{cell}\n"


def test_a_line_of_one_field_is_read_as_v8_01_reads_it_with_a_warning(tmp_path):
    """A token line holding only `(0)`, in key and response alike, was a token without its
    mention: 2 key mentions scored where v8.01 (its cell is a line's last TAB-separated field)
    scores 3, and nothing said.  Now its field is its cell, with a warning naming the line."""
    text = ("#begin document (d); part 000\n" + _row("John", "(0)") + _row("saw", "-", 1) + "(0)\n"
            + _row("him", "(0)", 3) + "\n#end document\n")
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(text, encoding="utf-8")
    response.write_text(text.replace("(0)\n", "(1)\n", 1).replace("\t(0)\n", "\t(1)\n", 1), encoding="utf-8")
    run = corefwb("score", str(key), str(response), "--format", "json")
    assert run.returncode == 0, run.stderr
    mentions = json.loads(run.stdout)["metrics"]["mentions"]["counts"]
    assert mentions[:2] == [3.0, 3.0]  # (recall's numerator and denominator)
    assert run.stderr.splitlines() == [f"corefwb: warning: {key}:4: {ONE_FIELD}", f"corefwb: warning: {response}:4: {ONE_FIELD}"]
    muc = json.loads(run.stdout)["metrics"]["muc"]
    assert muc["recall"] == 0.5  # John and him moved to chain 1, the lone line's mention kept in 0


def test_a_word_alone_on_its_line_is_a_bad_cell_at_that_line(tmp_path):
    """The field read as the cell, a word is a bad coreference item (as `w (0) John` is), not a
    token silently without a cell."""
    key = tmp_path / "key.conll"
    key.write_text("#begin document (d); part 000\n" + _row("John", "(0)") + "saw\n\n#end document\n", encoding="utf-8")
    assert error_line(corefwb("score", str(key), str(key))) == \
        f"corefwb: error: {key}:3: bad coreference item 'saw' in cell 'saw'"


@pytest.mark.parametrize("marker, at, said", [
    ("#begin  document (d); part 000", 1, "malformed '#begin document NAME' line '#begin  document (d); part 000': "),
    ("#begin document\t(d); part 000", 1, "malformed '#begin document NAME' line '#begin document\\t(d); part 000': "),
    (" #begin document (d); part 000", 1, "malformed '#begin document NAME' line ' #begin document (d); part 000': "),
    ("#end  document", 4, "malformed '#end document' line '#end  document': "),
])
@pytest.mark.parametrize("command", [["score"], ["errors"]])
def test_a_document_marker_with_two_spaces_is_named_at_its_own_line(tmp_path, marker, at, said, command):
    """`#begin  document` (or ` #begin document`) was text outside any document, and the error
    came at the `#end document` line that followed ("#end document without #begin document");
    `#end  document` was a comment and the error came at the next document or the file's end."""
    said += (f"{said.split(chr(39))[1]!r} starts its line, one space between the words"
             + " and before the name" * ("begin" in said))
    lines = ["#begin document (d); part 000", _row("John", "(0)").rstrip("\n"), _row("him", "(0)", 1).rstrip("\n"),
             "#end document", "#begin document (e); part 000", _row("John", "-").rstrip("\n"), "#end document"]
    lines[at - 1] = marker
    key = tmp_path / "key.conll"
    key.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert error_line(corefwb(*command, str(key), str(key))) == f"corefwb: error: {key}:{at}: {said}"


GUM2 = Path(__file__).resolve().parent / "data" / "formats" / "gum2.conllu"


def _with_a_gap(text: str) -> str:
    """gum2's second sentence with word ID 4 left out: words 4, 5, 6 numbered 5, 6, 7 (their HEAD
    and DEPS too), so the tree is the same tree."""
    def bump(number: str) -> str:
        return str(int(number) + 1) if int(number) >= 4 else number
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("1\tMonday\t"))
    while lines[at]:
        cols = lines[at].split("\t")
        cols[0], cols[6] = bump(cols[0]), bump(cols[6])
        cols[8] = "|".join(f"{bump(dep.split(':', 1)[0])}:{dep.split(':', 1)[1]}" for dep in cols[8].split("|"))
        lines[at] = "\t".join(cols)
        at += 1
    return "\n".join(lines)


def test_a_gap_in_word_ids_is_read_by_both_conllu_readers(tmp_path):
    """Word IDs 1, 2, 3, 5, 6, 7: the node reader (`score`) placed each word by its ID, as udapi
    does for corefud-scorer (which scores the file against itself 100), and the token reader
    (`errors`) refused it ("word ID 5 follows 3").  Both read it now, the token reader's heads
    found by ID, the same as the file numbered without the gap."""
    gapped = tmp_path / "gapped.conllu"
    gapped.write_text(_with_a_gap(GUM2.read_text(encoding="utf-8")), encoding="utf-8")
    for plain, gap in zip(read_conllu(str(GUM2)), read_conllu(str(gapped))):
        assert (gap.words, gap.heads, gap.chains, gap.pos) == (plain.words, plain.heads, plain.chains, plain.pos)
    for command in (["score"], ["errors"], ["errors", "--impact", "conll"], ["errors", "--taxonomy", "kk"]):
        run = corefwb(*command, str(gapped), str(gapped), "--format", "json")
        assert run.returncode == 0 and run.stderr == "", (command, run.stderr)
    # against the key without the gap, every command says the same: a word at another place
    for command in (["score"], ["errors"]):
        assert error_line(corefwb(*command, str(GUM2), str(gapped))).startswith(
            f"corefwb: error: {gapped}:43: word '18' is word 5 of sentence 2 where the key's is word 4")


def test_a_head_of_00_is_the_root_not_the_sentence_before_s_last_word(tmp_path):
    """HEAD `00` is the number 0: the token reader took it as word -1 of its sentence, the last
    word of the sentence before (a dependency across sentences, read silently)."""
    text = GUM2.read_text(encoding="utf-8").replace("1\tMonday\tMonday\tPROPN\tNNP\tNumber=Sing\t0\t",
                                                    "1\tMonday\tMonday\tPROPN\tNNP\tNumber=Sing\t00\t", 1)
    assert "\t00\t" in text
    changed = tmp_path / "changed.conllu"
    changed.write_text(text, encoding="utf-8")
    assert [d.heads for d in read_conllu(str(changed))] == [d.heads for d in read_conllu(str(GUM2))]


def test_a_word_id_of_0_says_ids_count_from_1(tmp_path):
    text = GUM2.read_text(encoding="utf-8").replace("1\tMonday\t", "0\tMonday\t", 1)
    changed = tmp_path / "changed.conllu"
    changed.write_text(text, encoding="utf-8")
    line = text.split("\n").index(next(l for l in text.split("\n") if l.startswith("0\tMonday"))) + 1
    for command in ("score", "errors"):
        assert error_line(corefwb(command, str(changed), str(changed))) == \
            f"corefwb: error: {changed}:{line}: word ID 0: word IDs count from 1"


def _documents_with_a_word_changed(count: int, changed: bool) -> str:
    return "".join(f"#begin document (d{i}); part 000\n" + _row("John", "(0)") + _row("saw" if not changed else "sees", "-", 1)
                   + _row("him", "(0)", 2) + "\n#end document\n" for i in range(count))


@pytest.mark.parametrize("every", [False, True])
def test_warnings_come_a_few_of_a_kind_with_a_count_of_the_rest(tmp_path, every):
    """A response with a word changed in each of 40 documents gave 40 lines on stderr (20,019 on
    a tiny corpus); now the first five and one line counting the rest, `--warnings all` every one."""
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(_documents_with_a_word_changed(40, False), encoding="utf-8")
    response.write_text(_documents_with_a_word_changed(40, True) + "#begin document lone\n#end document\n",
                        encoding="utf-8")
    run = corefwb("score", str(key), str(response), *(["--warnings", "all"] if every else []))
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    changed = [line for line in lines if "words differ" in line and "more warnings" not in line]
    assert len(changed) == (40 if every else 5) and changed[0].startswith(f"corefwb: warning: {response}:3: document '(d0)")
    more = [line for line in lines if "more warnings" in line]
    assert more == ([] if every else [f"corefwb: warning: {response}: 35 more warnings like the 5 above (1 of 3 words "
                                      f"differ from the key's...): --warnings all shows every one"])
    assert any("lone" in line for line in lines)  # another kind, shown
    assert len(lines) == (41 if every else 7)


def test_kinds_leave_out_documents_quoted_words_and_numbers():
    from workbench.warning_kinds import summarised, warning_kind
    said = [f"k.conll:{i}: document 'd{i}': 1 of {i} words differ from the key's (first: token 1 'x{i}', key"
            for i in range(7)]
    assert {warning_kind(w) for w in said} == {("k.conll", "_ of _ words differ from the key's")}
    assert warning_kind("k.conll: document \"it's\" of the key is missing from the response") == \
        ("k.conll", "document _ of the key is missing from the response")
    assert warning_kind("system a has no file for dataset b: counted as 0") == ("", "system a has no file for dataset b")
    # a word of the CRAC LLM track's text, and an entity's number: left out too
    assert warning_kind("o.txt:1: document 'd', word 56 'spokes:man': [e14 is never closed in its sentence") == \
        warning_kind("o.txt:1: document 'd', word 5 'a': [e1 is never closed in its sentence") == \
        ("o.txt", "[e_ is never closed in its sentence")
    assert summarised(said[:6]) == said[:6]  # one more is shown, not counted
    assert summarised(said) == [*said[:5], "k.conll: 2 more warnings like the 5 above (1 of 4 words differ from the "
                                           "key's...): --warnings all shows every one"]
    assert summarised(said, every=True) == said
    assert summarised([said[0], said[1], said[0]], every=True) == said[:2]  # (`score --stream`: key and response alike)


@pytest.mark.parametrize("every", [False, True])
def test_the_warnings_view_shows_them_as_stderr_does(tmp_path, monkeypatch, every):
    from app_support import pilot_test, settle
    from textual.widgets import Static

    from workbench.session import LoadOptions
    from workbench.tui.app import Workbench

    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "none")
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(_documents_with_a_word_changed(40, False), encoding="utf-8")
    response.write_text(_documents_with_a_word_changed(40, True), encoding="utf-8")

    @pilot_test
    async def body():
        app = Workbench(str(key), str(response), LoadOptions(cache=False, every_warning=every))
        async with app.run_test(size=(160, 50)) as pilot:
            await settle(app, pilot)
            assert len(app.session.warnings) == 40
            shown = " ".join(str(app.query_one("#warnings-text", Static).render()).split())
            assert shown.count("words differ from the key's (first") == (40 if every else 5)
            assert ("35 more warnings like the 5 above" in shown) is not every
            assert app.query_one("#warnings").border_title == "warnings (40)"

    body()


def test_an_entity_on_a_multiword_token_s_line_is_said_to_be_ignored(tmp_path):
    """`3-4 ... Entity=(99-x-1)` on a range line: both CoNLL-U readers skip the line, as udapi does
    for corefud-scorer (which scores the file against its key 100), but without a word; the
    mention a user wrote there was lost silently."""
    lines = GUM2.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("3\tMay\t"))
    lines.insert(at, "3-4\tMay18\t_\t_\t_\t_\t_\t_\t_\tEntity=(99-x-1)")
    response = tmp_path / "response.conllu"
    response.write_text("\n".join(lines), encoding="utf-8")
    for command in ("score", "errors"):
        run = corefwb(command, str(GUM2), str(response))
        assert run.returncode == 0 and run.stderr.splitlines() == [
            f"corefwb: warning: {response}:{at + 1}: {ENTITY_ON_A_RANGE} (first such line)"], run.stderr


@pytest.mark.parametrize("blank", ["  ", "\t"])
def test_a_blank_line_of_spaces_ends_a_sentence_for_both_conllu_readers(tmp_path, blank):
    """A line of spaces or a TAB between sentences: the node reader (`score`) and udapi read it as
    the blank line, the token reader (`errors` on the key) refused it ("expected 10 TAB-separated
    CoNLL-U columns, found 1")."""
    lines = GUM2.read_text(encoding="utf-8").split("\n")
    lines[lines.index("", 30)] = blank
    spaced = tmp_path / "spaced.conllu"
    spaced.write_text("\n".join(lines), encoding="utf-8")
    assert [d.sentence_starts for d in read_conllu(str(spaced))] == [d.sentence_starts for d in read_conllu(str(GUM2))]
    for command in ("score", "errors"):
        run = corefwb(command, str(spaced), str(spaced))
        assert run.returncode == 0 and run.stderr == "", run.stderr


@pytest.mark.parametrize("command", ["score", "errors"])
def test_a_newdoc_inside_a_sentence_is_named_at_its_line(tmp_path, command):
    """`# newdoc id = x` between two words of a sentence: `score` failed at line 60 ("Bridge names
    entity 2, which no Entity= annotation has"), `errors` at line 41 ("HEAD 4 is not a word of this
    sentence"); now both at the comment's line, saying what is wrong."""
    lines = GUM2.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("3\tMay\t"))
    lines.insert(at, "# newdoc id = mid")
    broken = tmp_path / "broken.conllu"
    broken.write_text("\n".join(lines), encoding="utf-8")
    assert error_line(corefwb(command, str(broken), str(broken))) == \
        f"corefwb: error: {broken}:{at + 1}: {NEWDOC_INSIDE_A_SENTENCE}"


NEWDOC_LINES = [  # (a comment line, the name it gives udapi, or None: no document starts there)
    ("# newdoc id = GUM_a", "GUM_a"), ("# newdoc id=b", "b"), ("# newdoc   id =  c  ", "c"), ("# newdoc", ""),
    ("# newdocument x", None), ("#newdoc id = d", None), ("# newdoc d", None), ("# newdoc id =", None),
]


@pytest.mark.parametrize("line, name", NEWDOC_LINES)
def test_every_conllu_reader_starts_a_document_where_udapi_does(line, name) -> None:
    """One rule for `# newdoc`, udapi's (corefud-scorer's reader): the token reader, the node
    reader and the CRAC key reader each start a second document at the line exactly when udapi
    does (the node reader took `# newdocument` for one, the token reader `# newdoc d`)."""
    from metrics.formats.conllu import newdoc, parse_conllu
    from metrics.formats.corefud import parse_corefud
    from metrics.formats.crac_key import read_key

    sentence = ["1\tA\ta\tNOUN\tNN\t_\t0\troot\t0:root\tEntity=(e1)", "2\tb\tb\tVERB\tVB\t_\t1\tdep\t1:dep\t_", ""]
    lines = ["# newdoc id = first", "# global.Entity = eid-etype-head-other", *sentence, line, *sentence]
    assert newdoc(line) == name
    expected = 1 if name is None else 2
    assert len(parse_conllu("f.conllu", lines)) == expected
    assert len(parse_corefud("f.conllu", lines)) == expected
    assert len(read_key("f.conllu", lines)) == expected

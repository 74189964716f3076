"""Hostile input, a sixth round (hostile12): `convert`'s written files, the key cache, UA exports,
the LLM track's text and system jsonlines.  What was a file that does not read back, a word
silently changed, a traceback or an error without its line.  Each case as a user meets it: the
exit status and the one line it says, or the file read back."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from unittest import mock

import pytest
from test_hostile_round_nine import corefwb, error_line  # (the command in process, its one error line)

from metrics.formats.readers import read_documents
from workbench.output import emit

ROOT = Path(__file__).resolve().parent.parent

HOSTILE_WORDS = ["John", "\x1b]0;x\x07", "met", "\x9b31m", "Mary", "."]
"""Words holding control characters: ESC and BEL (C0) and CSI (C1), none of them whitespace."""


def _key(tmp_path: Path, name: str = "d1", words: list[str] | None = None) -> Path:
    path = tmp_path / "key.jsonl"
    path.write_text(json.dumps({"doc_key": name, "sentences": [words or HOSTILE_WORDS],
                                "clusters": [[[0, 0], [2, 2]]]}) + "\n", encoding="utf-8")
    return path


# ----------------------------------------------------------------------- convert writes data verbatim

@pytest.mark.parametrize("target", ["conll", "conllu", "jsonl", "wl", "text"])
def test_convert_writes_control_characters_in_words_as_they_are(tmp_path, target):
    """`convert` sent its file through the terminal guard (`visible`): ESC became `␛` and CSI the
    four characters `\\x9b`, so the converted words were other words, and a jsonlines target was
    not JSON at all (`\\x9b` is no JSON escape: "invalid JSON: Invalid \\escape")."""
    key = _key(tmp_path)
    out = tmp_path / f"out.{target}"
    run = corefwb("convert", str(key), str(out), "--to", target)
    assert run.returncode == 0, run.stderr
    if target in ("jsonl", "wl", "text"):
        json.loads(out.read_text(encoding="utf-8"))
    words = read_documents(str(out), {"wl": "jsonl", "text": "jsonl"}.get(target, target))[0].words
    assert (" ".join(words) if target == "text" else words) == \
        (" ".join(HOSTILE_WORDS) if target == "text" else HOSTILE_WORDS)


def test_convert_to_a_pipe_is_verbatim_and_to_a_terminal_visible(tmp_path):
    """Standard output that is no terminal (a pipe into the official scorer) gets the file as it
    is; a terminal still never gets an escape sequence."""
    key = _key(tmp_path)
    piped = corefwb("convert", str(key), "-", "--to", "jsonl")
    assert json.loads(piped.stdout)["sentences"] == [HOSTILE_WORDS]
    terminal = _Terminal()
    with mock.patch.object(sys, "stdout", terminal):
        emit(piped.stdout, None, inputs=[], data=True)
    assert "\x9b" not in terminal.getvalue() and "\\x9b31m" in terminal.getvalue()


class _Terminal(io.StringIO):
    """Standard output as a terminal."""

    def isatty(self) -> bool:
        return True


def test_a_conllu_copy_keeps_its_bytes(tmp_path):
    """CoNLL-U to CoNLL-U is a checked copy: a form with ESC came out with `␛` instead."""
    source = tmp_path / "in.conllu"
    source.write_text("# global.Entity = eid-etype-head-other\n# newdoc id = d\n# sent_id = 1\n# text = a \x1b b\n"
                      "1\ta\t_\t_\t_\t_\t0\troot\t_\tEntity=(e1--1)\n2\t\x1b\t_\t_\t_\t_\t1\tdep\t_\t_\n"
                      "3\tb\t_\t_\t_\t_\t1\tdep\t_\tEntity=(e1--1)\n\n", encoding="utf-8")
    out = tmp_path / "out.conllu"
    assert corefwb("convert", str(source), str(out)).returncode == 0
    assert out.read_bytes() == source.read_bytes()


@pytest.mark.parametrize("target", ["conll", "conllu"])
@pytest.mark.parametrize("name", ["d\n1", "d\r1", "(d\r\n1); part 0"])
def test_a_document_name_with_a_line_break_is_refused_not_written(tmp_path, target, name):
    """A jsonlines doc_key holding a line break was written into `#begin document` / `# newdoc id`,
    and the file did not read back ("bad coreference item '1'")."""
    key = _key(tmp_path, name, ["John", "met", "Mary", "."])
    out = tmp_path / f"out.{target}"
    line = error_line(corefwb("convert", str(key), str(out)))
    assert line == (f"corefwb: error: {key}: cannot be written as {target}: document {name!r}: its name holds a "
                    f"line break; a {'CoNLL-2012' if target == 'conll' else 'CoNLL-U'} header line cannot carry it")
    assert not out.exists()


@pytest.mark.parametrize("name", ["(a b); part 0", "(a\tb); part 0", "a\tb", "(a); part 1 2", "a\x0bb"])
def test_whitespace_in_a_name_does_not_shift_the_conll_columns(tmp_path, name):
    """A doc_key with whitespace inside its id or part (`(a b); part 0`) was written into columns 1
    and 2 as it is: every column after it moved, and the words read back were the token numbers."""
    words = ["John", "met", "Mary", "."]
    key = _key(tmp_path, name, words)
    out = tmp_path / "out.conll"
    assert corefwb("convert", str(key), str(out)).returncode == 0
    documents = read_documents(str(out))
    assert documents[0].words == words and documents[0].chains == [[(0, 0), (2, 2)]]
    assert all(len(line.split()) == 12 for line in out.read_text(encoding="utf-8").split("\n")
               if line and not line.startswith("#"))


def test_a_word_with_a_carriage_return_cannot_be_a_conllu_form(tmp_path):
    """Our readers end a line at a lone CR as at LF: a form holding one was written and read back
    as two lines."""
    key = _key(tmp_path, "d1", ["John", "a\rb", "met", "Mary", "."])
    line = error_line(corefwb("convert", str(key), str(tmp_path / "out.conllu")))
    assert line == f"corefwb: error: {key}: cannot be written as conllu: document 'd1': token 1 'a\\rb' cannot be a CoNLL-U form"


@pytest.mark.parametrize("target", ["conll", "conllu"])
@pytest.mark.parametrize("name, word, said", [
    ("d\ud800", "a", "its name holds a lone surrogate"),
    ("d", "a\udc80b", "token 1 'a\\udc80b' holds a lone surrogate"),
])
def test_a_lone_surrogate_is_refused_where_utf8_cannot_carry_it(tmp_path, target, name, word, said):
    """A jsonlines `\\ud800` escape reads as a lone surrogate, which UTF-8 cannot encode: it was
    written as the six characters `\\ud800`, another word (or a name the key no longer pairs with)."""
    key = tmp_path / "key.jsonl"
    key.write_text(json.dumps({"doc_key": name, "sentences": [["John", word, "met"]], "clusters": [[[0, 0], [2, 2]]]})
                   + "\n", encoding="utf-8")
    out = tmp_path / f"out.{target}"
    line = error_line(corefwb("convert", str(key), str(out)))
    assert line == (f"corefwb: error: {key}: cannot be written as {target}: document {name!r}: {said}, which a "
                    f"{'CoNLL-2012' if target == 'conll' else 'CoNLL-U'} file (UTF-8) cannot carry")


@pytest.mark.parametrize("target", ["jsonl", "wl", "text"])
def test_json_targets_carry_a_lone_surrogate_as_its_escape(tmp_path, target):
    key = tmp_path / "key.jsonl"
    key.write_text(json.dumps({"doc_key": "d\ud800", "sentences": [["John", "a\udc80b", "met"]],
                               "clusters": [[[0, 0], [2, 2]]]}) + "\n", encoding="utf-8")
    out = tmp_path / f"out.{target}"
    assert corefwb("convert", str(key), str(out), "--to", target).returncode == 0
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record.get("doc_key", record.get("document_id")) == "d\ud800"


# ----------------------------------------------------------------------- the LLM track's lines

CRAC_KEY = ROOT / "tests" / "data" / "formats" / "gum2.conllu"
CRAC_OUTPUT = ROOT / "tests" / "data" / "crac" / "gum2.llm1.txt"


@pytest.mark.parametrize("lines, said", [
    (lambda a, b: [b, a], ["{out}:1: document 'GUM_news_asylum': only 11.3% of its 373 words stand in this line: the "
                           "output of another document? Lines pair with the key's documents by position",
                           "{out}:2: document 'GUM_interview_brotherhood': only 8.0% of its 523 words stand in this "
                           "line: the output of another document? Lines pair with the key's documents by position"]),
    (lambda a, b: [a, a], ["{out}:2: document 'GUM_interview_brotherhood': its line repeats line 1 word for word: lines "
                           "pair with the key's documents by position (only 8.0% of this document's words stand in it)"]),
    (lambda a, b: ["", b], ["{out}:1: document 'GUM_news_asylum': its line is empty (no answer): scored as an output "
                            "without mentions"]),
    (lambda a, b: [a, "", "", ""], ["{out}:2: document 'GUM_interview_brotherhood': its line is empty (no answer): "
                                    "scored as an output without mentions"]),
])
def test_a_line_that_is_not_its_documents_output_is_said_in_plain_words(tmp_path, lines, said):
    """Two documents' lines swapped, one repeated over the next, an empty answer: each was scored
    against the key's document in its place (as the pipeline scores it) and said only as hundreds
    of dropped marks, or, for the empty answer, not at all.  The last document's empty answer (blank
    lines after it) was refused as a missing document, where any other document's was scored."""
    first, second = CRAC_OUTPUT.read_text(encoding="utf-8").split("\n")[:2]
    out = tmp_path / "out.txt"
    out.write_text("\n".join(lines(first, second)) + "\n", encoding="utf-8")
    run = corefwb("score", str(CRAC_KEY), str(out), "--response-format", "crac-text")
    assert run.returncode == 0, run.stderr
    told = [line.removeprefix("corefwb: warning: ") for line in run.stderr.splitlines()]
    assert [line for line in told if "stand in" in line or "line is empty" in line] == \
        [line.format(out=out) for line in said]


def test_the_model_s_own_output_draws_no_such_warning():
    run = corefwb("score", str(CRAC_KEY), str(CRAC_OUTPUT))
    assert run.returncode == 0 and "stand in" not in run.stderr and "line is empty" not in run.stderr


@pytest.mark.parametrize("text, said", [
    ("[" * 100_000 + "]" * 100_000, "not JSON: nested too deeply"),
    ('[{"tokens": ["a"], "clusters_token_offsets": [[[0, ' + "9" * 5000 + "]]]}]",
     "not JSON: a number of 5,000 digits (at most 4,300 are read)"),
])
def test_a_crac_json_output_python_cannot_decode_is_one_line(tmp_path, text, said):
    """The JSON form caught only malformed JSON: nesting past Python's recursion and an integer
    past its digit limit escaped as RecursionError and ValueError tracebacks."""
    out = tmp_path / "out.json"
    out.write_text(text, encoding="utf-8")
    line = error_line(corefwb("score", str(CRAC_KEY), str(out), "--response-format", "crac-json"))
    assert line == f"corefwb: error: {out}: {said}"


def test_a_number_too_long_says_so_without_python_s_advice(tmp_path):
    """jsonlines said `use sys.set_int_max_str_digits() to increase the limit`, advice for a
    programmer that no user of the command can follow."""
    key = tmp_path / "key.jsonl"
    key.write_text('{"doc_key": "d", "sentences": [["a"]], "clusters": [[[0, ' + "9" * 5000 + "]]]}\n", encoding="utf-8")
    line = error_line(corefwb("score", str(key), str(key)))
    assert line == f"corefwb: error: {key}:1: invalid JSON: a number of 5,000 digits (at most 4,300 are read)"


# ----------------------------------------------------------------------- UA exports

UA_SPLIT = ROOT / "tests" / "data" / "ua" / "split.key"


@pytest.mark.parametrize("command", [["score"], ["errors"], ["score", "--discourse-deixis"]])
def test_a_markable_part_naming_another_entity_is_refused(tmp_path, command):
    """An export that reuses a MarkableID under another EntityID made one discontinuous markable,
    and (as the UA scorer does) put it whole in the last part's entity: Mary joined She's entity
    2 without a word, a score of something nobody annotated."""
    text = UA_SPLIT.read_text(encoding="utf-8").replace("(EntityID=1|MarkableID=m4|", "(EntityID=2|MarkableID=m1|")
    if "--discourse-deixis" in command:  # the same in the DISCOURSE_DEIXIS layer
        lines = [line.split() for line in text.split("\n")]
        text = "\n".join("   ".join(cells[:12] + [cells[10].replace("EntityID=", "EntityID=x"), cells[13]])
                         if len(cells) > 12 and cells[0] != "#" else " ".join(cells) for cells in lines)
    response = tmp_path / "response.conllua"
    response.write_text(text, encoding="utf-8")
    layer = "DISCOURSE_DEIXIS" if "--discourse-deixis" in command else "IDENTITY"
    entity = "x" if "--discourse-deixis" in command else ""
    line = error_line(corefwb(command[0], str(UA_SPLIT), str(response), *command[1:]))
    assert line == (f"corefwb: error: {response}:11: {layer}: markable m1 is opened again with EntityID={entity}2, its "
                    f"earlier part (line 4) with EntityID={entity}1: the UA scorer would put the whole markable in "
                    f"{entity}2")


def test_a_markable_part_naming_the_same_entity_is_one_discontinuous_markable(tmp_path):
    text = UA_SPLIT.read_text(encoding="utf-8").replace("(EntityID=1|MarkableID=m4|", "(EntityID=1|MarkableID=m1|")
    response = tmp_path / "response.conllua"
    response.write_text(text, encoding="utf-8")
    assert corefwb("score", str(UA_SPLIT), str(response)).returncode == 0


@pytest.mark.parametrize("name, options, scored", [("deixis", ["--discourse-deixis"], "Mentions"),
                                                   ("bridging", ["--metrics", "bridging"], "Bridging recognition")])
def test_a_header_that_names_no_scored_column_says_what_the_ua_scorer_reads(tmp_path, name, options, scored):
    """A response whose global.columns stops at IDENTITY but whose lines hold all 15 columns: we
    read no DISCOURSE_DEIXIS or BRIDGING layer and scored 0, the UA scorer reads columns 12-13
    (66.67 and 50.00 here), and nothing said so."""
    key = ROOT / "tests" / "data" / "ua" / f"{name}.key"
    text = (key.parent / f"{name}.response").read_text(encoding="utf-8").split("\n", 1)[1]
    response = tmp_path / "response.conllua"
    response.write_text("# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY\n" + text,
                        encoding="utf-8")
    run = corefwb("score", str(key), str(response), *options)
    assert run.returncode == 0 and f"corpus    {scored}" in run.stdout
    column = "DISCOURSE_DEIXIS nowhere (the UA scorer reads column 13)" if name == "deixis" else \
        "BRIDGING nowhere (the UA scorer reads column 12)"
    assert column in run.stderr and f"{response}: global.columns places " in run.stderr
    short = tmp_path / "short.conllua"  # lines that stop at IDENTITY: the UA scorer could read no such column
    short.write_text("\n".join(" ".join(line.split()[:11]) if line and not line.startswith("#") else line
                               for line in response.read_text(encoding="utf-8").split("\n")), encoding="utf-8")
    assert "nowhere" not in corefwb("score", str(key), str(short), *options).stderr


# ----------------------------------------------------------------------- a CRAC run's folders

def test_a_fifo_named_as_a_dataset_is_said_not_read(tmp_path):
    """A FIFO named `fr_x-corefud-dev.conllu` in the key folder (or a system's) was left out
    without a word, as a dangling link is not: one dataset fewer in the macro-average, unsaid."""
    import os

    gold, system = tmp_path / "gold", tmp_path / "system"
    gold.mkdir(), system.mkdir()
    for folder in (gold, system):
        (folder / "en_gum-corefud-dev.conllu").write_bytes((ROOT / "tests" / "data" / "formats" / "gum2.conllu").read_bytes())
    os.mkfifo(gold / "fr_x-corefud-dev.conllu")
    os.mkfifo(system / "en_gum-corefud-test.conllu")
    (gold / "de_x-corefud-dev.conllu").mkdir()  # a folder is no dataset: nothing to say
    run = corefwb("crac", str(gold), str(system))
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines() == [
        f"corefwb: warning: {gold / 'fr_x-corefud-dev.conllu'}: not a regular file (a FIFO): not read",
        f"corefwb: warning: {system / 'en_gum-corefud-test.conllu'}: not a regular file (a FIFO): not read"]


@pytest.mark.parametrize("target", ["conll", "conllu", "jsonl"])
def test_convert_of_a_ua_file_says_convert_does_not_read_it(tmp_path, target):
    """`convert` passed on the readers' advice, "score it under --conventions ua", which convert has
    no such option for and which converts nothing."""
    line = error_line(corefwb("convert", str(UA_SPLIT), str(tmp_path / f"out.{target}")))
    assert line == (f"corefwb: error: {UA_SPLIT}: a Universal Anaphora file (global.columns with IDENTITY): convert "
                    f"does not read UA files (its relations have no place in the other formats)")


@pytest.mark.parametrize("command", [["score", "--metrics", "bridging"], ["errors"]])
def test_a_mention_bridged_to_itself_is_said_and_scored_as_the_ua_scorer_scores_it(tmp_path, command):
    """`MentionAnchor=door` on door's own link (an export that copied the anaphor's id): the UA
    scorer scores a link from a mention to itself, and so did we, in silence.  Refusing the file
    (as this round first did) refused outputs the UA scorer scores (benchmarks/check_ua.py's
    perturbed responses make such links): the link is scored as given, and said once per file."""
    key = ROOT / "tests" / "data" / "ua" / "bridging.key"
    response = tmp_path / "response.conllua"
    response.write_text(key.read_text(encoding="utf-8").replace("MentionAnchor=house|EntityAnchor=1  _  _\n5",
                                                                 "MentionAnchor=door|EntityAnchor=2  _  _\n5"),
                        encoding="utf-8")
    assert response.read_text(encoding="utf-8") != key.read_text(encoding="utf-8")
    run = corefwb(command[0], str(key), str(response), *command[1:])
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    said = [line for line in run.stderr.splitlines() if "to itself" in line]
    assert said == [f"corefwb: warning: {response}: 1 bridging link(s) from a markable to itself (MentionAnchor its "
                    f"own MarkableID); the UA scorer scores each as given, and so do we (first: line 7, markable door)"]
    same = corefwb(command[0], str(key), str(key), *command[1:])
    assert "to itself" not in same.stderr and same.stdout != run.stdout  # (the link is scored: a wrong one)


# ----------------------------------------------------------------------- system outputs in their own words

def test_a_text_in_another_unicode_normal_form_is_the_same_text(tmp_path):
    """A model's text written decomposed (NFD: `e` and U+0302 U+0301 for `ế`) against a key written
    precomposed (NFC): 49.4% of its characters paired, the document was taken for another text and
    every mention was lost."""
    import unicodedata

    words = "Tiếng Việt là ngôn ngữ của người Việt . Người Việt nói tiếng Việt .".split()
    key = tmp_path / "key.jsonl"
    key.write_text(json.dumps({"doc_key": "v", "sentences": [words], "clusters": [[[4, 5], [9, 9]], [[7, 7], [10, 11]]]},
                              ensure_ascii=False) + "\n", encoding="utf-8")
    decomposed = [unicodedata.normalize("NFD", word) for word in words]
    starts = [sum(len(w) + 1 for w in decomposed[:i]) for i in range(len(decomposed))]

    def span(first: int, last: int) -> list[int]:
        return [starts[first], starts[last] + len(decomposed[last])]

    response = tmp_path / "response.jsonl"
    response.write_text(json.dumps({"doc_key": "v", "text": " ".join(decomposed), "clusters_char_offsets":
                                    [[span(4, 5), span(9, 9)], [span(7, 7), span(10, 11)]]}, ensure_ascii=False) + "\n",
                        encoding="utf-8")
    run = corefwb("score", str(key), str(response), "--format", "json")
    assert run.returncode == 0 and run.stderr == "", run.stderr
    result = json.loads(run.stdout)
    assert result["alignment"] == {"mentions": 4, "snapped": 0, "lost": 0} and result["metrics"]["muc"]["f1"] == 1.0


def test_a_line_repeated_for_a_key_holding_its_text_twice_is_no_other_text(tmp_path):
    text = CRAC_KEY.read_text(encoding="utf-8")
    first = text[:text.index("# newdoc id = GUM_interview_brotherhood")]
    key = tmp_path / "key.conllu"
    key.write_text(first + first[first.index("# newdoc"):].replace("GUM_news_asylum", "GUM_news_asylum_again"),
                   encoding="utf-8")
    line = CRAC_OUTPUT.read_text(encoding="utf-8").split("\n")[0]
    out = tmp_path / "out.txt"
    out.write_text(f"{line}\n{line}\n", encoding="utf-8")
    run = corefwb("score", str(key), str(out), "--response-format", "crac-text")
    assert run.returncode == 0 and "repeats line" not in run.stderr and "stand in" not in run.stderr, run.stderr


# ----------------------------------------------------------------------- empty file names

@pytest.mark.parametrize("command", [["score"], ["errors"], ["compare"]])
def test_an_empty_output_name_is_a_usage_error(tmp_path, monkeypatch, command):
    """`--output ""` named no file: the atomic write made its temporary file in the working
    directory's parent and then failed as ": cannot write"."""
    monkeypatch.chdir(tmp_path)
    key = str(ROOT / "samples" / "gum" / "key.gum.conll")
    run = corefwb(*command, key, key, "--output", "")
    assert run.returncode == 2 and "--output: an empty file name" in run.stderr and "Traceback" not in run.stderr
    assert list(tmp_path.parent.glob(".*tmp*")) == [] and list(tmp_path.iterdir()) == []


def test_an_empty_input_name_is_named_as_such():
    """An empty key name was said as ": cannot open", a message with no file in it."""
    key = str(ROOT / "samples" / "gum" / "key.gum.conll")
    assert error_line(corefwb("score", "", key)) == "corefwb: error: '': cannot open: No such file or directory"

"""Unit tests of the workbench view-models and export (no terminal needed)."""

from __future__ import annotations

import json
import os
from types import SimpleNamespace

import pytest
from rich.cells import cell_len
from text_reference import marked_mentions, token_units

from metrics.errors.chen_ng.records import Category, ErrorRecord, Mention, count_errors
from metrics.model import Document, MentionType
from metrics.measures.score import Score
from metrics.corpus.scoring import CorpusResult
from workbench.error_rows import render_report
from workbench.output import error_json, write_atomic
from workbench.tui.chains import chain_rows
from workbench.tui.documentrows import document_rows, select_documents
from workbench.tui.rows import (
    Selection,
    display_text,
    filter_errors,
    short_name,
    type_explanation,
    wrap_units,
)

N, M, P = MentionType.NAME, MentionType.NOMINAL, MentionType.PRONOUN


def doc(words: str, chains, starts=(0,)) -> Document:
    return Document("d", words.split(), [list(map(tuple, chain)) for chain in chains], sentence_starts=list(starts))


def line_text(atoms) -> str:
    return "".join(atom.text for atom in atoms)


def test_nested_mentions_bracket_outermost_first_and_label_both_sides():
    key = doc("Byron 's mother came", [[(0, 0)], [(0, 2)]])
    response = doc("Byron 's mother came", [[(0, 2)], [(3, 3)]])
    types = {(0, 0): N, (0, 2): M, (3, 3): P}
    layout = wrap_units(token_units(key, marked_mentions(key, response, types, "both")), [0], 80)
    # no labels in these documents: a chain's id is its 0-based index, as for jsonlines clusters
    assert line_text(layout.lines[0]) == "[[Byron]N0/- 's mother]M1/0 [came]P-/1"
    layout = wrap_units(token_units(key, marked_mentions(key, response, types, "key")), [0], 80)
    assert line_text(layout.lines[0]) == "[[Byron]N0 's mother]M1 came"


def test_span_in_two_chains_shows_both_ids():
    key = doc("it rains", [[(0, 0)], [(0, 0)]])
    marks = marked_mentions(key, key, {(0, 0): P}, "key")
    assert [m.label for m in marks] == ["P0,1"]
    labelled = Document(name="d", words=["it", "rains"], chains=[[(0, 0)], [(0, 0)]], labels=["7", "12"])
    assert [m.label for m in marked_mentions(labelled, labelled, {(0, 0): P}, "key")] == ["P7,12"]


def test_wrap_respects_width_sentences_and_token_lines():
    words = " ".join(f"w{i}" for i in range(30))
    d = doc(words, [[(0, 1)]], starts=(0, 20))
    layout = wrap_units(token_units(d, marked_mentions(d, d, {}, "key")), d.sentence_starts, 20)
    assert all(sum(cell_len(a.text) for a in line) <= 20 for line in layout.lines)
    assert layout.token_line[20] > layout.token_line[19]  # a sentence starts a line
    assert line_text(layout.lines[layout.token_line[20]]).startswith("w20")
    assert layout.token_line == sorted(layout.token_line)


def test_overlong_token_is_split_not_overflowing():
    d = doc("x" * 250 + " end", [])
    layout = wrap_units(token_units(d, []), [0], 40)
    assert all(sum(cell_len(a.text) for a in line) <= 40 for line in layout.lines)
    assert "".join(line_text(l) for l in layout.lines).replace(" ", "") == "x" * 250 + "end"


def test_double_width_characters_count_as_two_cells():
    d = doc("日本語 日本語 日本語", [])
    layout = wrap_units(token_units(d, []), [0], 10)
    assert [line_text(l) for l in layout.lines] == ["日本語", "日本語", "日本語"]


def test_display_text_makes_controls_visible():
    assert display_text("\x1b[31mred\x07") == "\u241b[31mred\u2407"
    assert display_text("a\x9bb") == "a\\x9bb"
    assert display_text("[bold]x[/]") == "[bold]x[/]"


def test_chain_rows_mark_divided_and_conflated_chains():
    key = doc("a b c d", [[(0, 0), (1, 1)], [(2, 2), (3, 3)]])
    response = doc("a b c d", [[(0, 0)], [(1, 1), (2, 2), (3, 3)]])
    key_rows, response_rows = chain_rows(key, response, {})
    assert key_rows[0].partners == ["0", "1"]  # key chain 0 divided over R0 and R1
    assert response_rows[1].partners == ["0", "1"]  # response chain 1 conflates K0 and K1
    assert key_rows[1].partners == ["1"] and key_rows[1].unmatched == 0


FN, WL, SUB = Category.FALSE_NEW, Category.WRONG_LINK, Category.SUBOPTIMAL_LINK


def row(category: Category, kind: MentionType, start: int, impact: float | None = None) -> ErrorRecord:
    return ErrorRecord("d", category, Mention((start, start), "w", kind), None, None, None, None, None, "", impact)


def test_filter_sort_and_count_errors():
    rows = [row(FN, P, 5, 0.01), row(WL, N, 1, 0.03), row(FN, N, 3, 0.02)]
    assert [r.mention.span[0] for r in filter_errors(rows, FN, None, False)] == [5, 3]
    assert [r.mention.span[0] for r in filter_errors(rows, None, N, False)] == [1, 3]
    assert [r.mention.span[0] for r in filter_errors(rows, None, None, True)] == [1, 3, 5]
    unfiltered = filter_errors(rows, None, None, False)
    assert unfiltered == rows and unfiltered is not rows  # a copy: sorting it leaves the rows alone
    counts = count_errors(rows)
    Z = MentionType.ZERO
    assert counts[FN] == {N: 1, M: 0, P: 1, Z: 0} and counts[WL] == {N: 1, M: 0, P: 0, Z: 0}
    assert counts[Category.MISSING_MENTION] == {N: 0, M: 0, P: 0, Z: 0}


def test_selection_emphasises_mention_and_antecedents():
    record = ErrorRecord("d", SUB, Mention((4, 4), "you", P), Mention((2, 2), "it", P), Mention((0, 1), "the city", M),
                         "3", "5", 0.25, "link it", 0.5)
    assert record.category.short == "SUB"
    selection = Selection.of(record)
    assert selection.emphasis == {0: "best", 1: "best", 2: "antecedent", 4: "error"}
    assert selection.role_of_span((2, 2)) == "antecedent"


def score(f1: float) -> SimpleNamespace:
    return SimpleNamespace(recall=f1, precision=f1, f1=f1)


def test_documents_sorted_worst_first_and_filtered():
    documents = [("(a); part 000", {"conll": score(0.7)}), ("(b); part 000", {"conll": score(0.4)})]
    rows = document_rows(["(a); part 000", "(b); part 000"], documents, {"(a); part 000": [row(FN, N, 0)]})
    assert [short_name(r.name) for r in select_documents(rows, "", "conll")] == ["b", "a"]
    assert [short_name(r.name) for r in select_documents(rows, "", "errors")] == ["a", "b"]
    assert [short_name(r.name) for r in select_documents(rows, "A)", "conll")] == ["a"]
    assert short_name("(x); part 002") == "x_2"


def test_update_keeps_weight_independent_metrics():
    def sc(x: int) -> Score:
        return Score(x, 10, x, 10)

    base = CorpusResult(1, ("muc", "lmuc"), {"muc": sc(5), "lmuc": sc(1)}, {}, [("d", {"muc": sc(5), "lmuc": sc(1)})])
    newer = CorpusResult(2, ("lmuc",), {"lmuc": sc(9)}, {}, [("d", {"lmuc": sc(9)})])
    merged = base.updated(newer)
    assert merged.weights == 2 and merged.metrics == ("muc", "lmuc")
    assert merged.micro["muc"].f1 == 0.5 and merged.micro["lmuc"].f1 == 0.9
    assert merged.documents[0][1]["lmuc"].f1 == 0.9 and merged.documents[0][1]["muc"].f1 == 0.5


@pytest.mark.parametrize("fmt", ["json", "csv", "markdown"])
def test_report_formats_and_markdown_escaping(fmt, tmp_path):
    rows = [ErrorRecord("d", FN, Mention((0, 0), "[b]|x`", P), None, None, "1", None, None, "add it", 0.01)]
    text = render_report("d", (1, 0.75, 0.5, 1), {"muc": Score(1, 2, 1, 2)}, rows, fmt)
    path = tmp_path / f"out.{fmt}"
    write_atomic(str(path), text)
    assert path.read_text(encoding="utf-8") == text
    if fmt == "json":
        assert json.loads(text)["errors"][0] == error_json(rows[0])  # the one JSON shape of an error
        assert json.loads(text)["errors"][0]["impact_points"] == 1.0  # points, as on screen
    if fmt == "markdown":
        assert "\\[b\\]\\|x\\`" in text
    assert os.listdir(tmp_path) == [path.name]


def test_write_atomic_keeps_old_file_on_failure(tmp_path):
    path = tmp_path / "report.json"
    path.write_text("old", encoding="utf-8")

    with pytest.raises(TypeError):
        write_atomic(str(path), 42)  # type: ignore[arg-type]
    assert path.read_text(encoding="utf-8") == "old"
    assert os.listdir(tmp_path) == ["report.json"]


def test_type_explanation_names_rule_head_and_tag() -> None:
    doc = Document(name="d", words=["the", "city", "of", "[bold]Paris"], chains=[],
                   pos=["DT", "NN", "IN", "NNP"])
    typed = {(0, 3): (MentionType.NOMINAL, "pos"), (3, 3): (MentionType.NAME, "pos")}
    city = Mention((0, 3), "the city of [bold]Paris", MentionType.NOMINAL)
    assert type_explanation(doc, typed, city) == 'NOMINAL by rule pos, rule head "city"/NN: "the city of [bold]Paris"'
    paris = Mention((3, 3), "[bold]Paris", MentionType.NAME)
    assert type_explanation(doc, typed, paris) == 'NAME by rule pos, rule head "[bold]Paris"/NNP: "[bold]Paris"'
    long = Mention((9, 9), "x" * 50, MentionType.PRONOUN)  # beyond the tokens, untyped
    assert type_explanation(doc, typed, long) == f'PRONOUN "{"x" * 40}…"'
    # in a border of 40 cells: the words shortened, the rule and the head never cut
    narrow = type_explanation(doc, typed, city, width=40)
    assert narrow == 'NOMINAL by rule pos, rule head "city"/NN: "t…"' or len(narrow) <= 40
    assert narrow.startswith('NOMINAL by rule pos, rule head "city"/NN') and cell_len(narrow) <= 40


def test_chain_relations_say_equal_only_for_the_same_mentions():
    """Issue 17: "= K4" appeared on R4 and R6, each holding only part of K4."""
    from workbench.tui.chains import chain_rows

    words = [f"w{i}" for i in range(10)]
    key = Document(name="d", words=words, chains=[[(0, 0), (2, 2), (4, 4), (6, 6)], [(8, 8), (9, 9)]])
    response = Document(name="d", words=words, chains=[[(0, 0), (2, 2)], [(4, 4), (6, 6), (7, 7)], [(8, 8), (9, 9)]])
    key_rows, response_rows = chain_rows(key, response, {})
    # chains are numbered by their labels in the file (here none: a jsonlines-like 0-based index)
    assert [(r.partners, r.relation) for r in response_rows] == [(["0"], "part of"), (["0"], "overlaps"), (["1"], "=")]
    assert [(r.partners, r.relation) for r in key_rows] == [(["0", "1"], ""), (["2"], "=")]
    wider = Document(name="d", words=words, chains=[[(0, 0), (2, 2), (4, 4), (6, 6), (7, 7)]])
    assert chain_rows(key, wider, {})[0][0].relation == "part of"
    assert chain_rows(key, wider, {})[1][0].relation == "holds all of"


def test_display_words_are_each_word_made_visible():
    """The words of a document made safe in one call are the words made safe one by one, also
    when a word holds control characters, is empty, or holds the separator itself."""
    from workbench.tui.rows import WORD_SEPARATOR, display_text, display_words

    for words in ([], ["a"], ["", "b", ""], ["\x1b[31mred", "tab\there", "\x9b", "plain"],
                  ["x" + WORD_SEPARATOR + "y", "z"], [WORD_SEPARATOR]):
        assert display_words(words) == [display_text(word) for word in words]


def test_the_status_line_is_fitted_by_its_cuts_then_by_the_documents_name():
    from workbench.tui.rows import fit_status

    line = "GUM_academic_exposure  (1/108 by conll)  filter: 1/108 documents (F6)  corpus CoNLL F1 49.16  37 warnings (F5)"
    cuts = [("", ""), ("  corpus CoNLL F1 ", "  CoNLL F1 "), (" documents (F6)", " (F6)")]
    assert fit_status(line, 200, "GUM_academic_exposure", cuts) == line
    fitted = fit_status(line, 100, "GUM_academic_exposure", cuts)
    assert fitted == "GUM_academic_exposure  (1/108 by conll)  filter: 1/108 (F6)  CoNLL F1 49.16  37 warnings (F5)"
    narrow = fit_status(line, 80, "GUM_academic_exposure", cuts)
    assert cell_len(narrow) == 80 and narrow.endswith("37 warnings (F5)") and narrow.startswith("GUM_aca…  (1/108")

"""UA input the UA scorer reads wrongly, or reads in a defined but surprising way: refused with the
file, the line and what is wrong, or read as it reads it with a warning (docs/ua.md, the format).

Each shape was run through the UA scorer 2.0 (the benchmark's repaired copy): an extra `)` after a
one-word markable becomes part of its last attribute (`ElementOf=3)`: a plural entity no one has,
so the split antecedent is silently lost; `Min=4)`: a crash under partial matching); a Min past the
document names no word; an ElementOf naming no entity of the document is ignored; a Min outside
its markable's words leaves partial matching only the exact match.  A Unicode space inside a cell
splits it, for the UA scorer too: the error names the column the space is in.
"""

from __future__ import annotations

import pytest

from metrics.conventions.options import UA, Options
from metrics.conventions.pipeline import load
from metrics.formats.ua import read_ua
from metrics.model import InputError

HEAD = "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS REFERENCE NOM_SEM\n"


def row(n: str, form: str, identity: str = "_", bridging: str = "_", deixis: str = "_") -> str:
    return f"{n}  {form}  _  _  _  _  _  _  _  _  {identity}  {bridging}  {deixis}  _\n"


def document(m1: str = "(EntityID=1|MarkableID=m1|Min=1|ElementOf=3)", m3: str = "(EntityID=3|MarkableID=m3|Min=5)",
             deixis: str = "(EntityID=1-DD|MarkableID=d1|Min=4)") -> str:
    """Mary met John. They left. She smiled: Mary and John the split antecedents of They."""
    return (HEAD + "# newdoc id = d\n# sent_id = 1\n" + row("1", "Mary", m1) + row("2", "met")
            + row("3", "John", "(EntityID=2|MarkableID=m2|Min=3|ElementOf=3)") + row("4", ".", deixis=deixis)
            + "\n# sent_id = 2\n" + row("5", "They", m3) + row("6", "left", deixis="(EntityID=1-DD|MarkableID=d2)")
            + row("7", ".") + "\n# sent_id = 3\n" + row("8", "She", "(EntityID=1|MarkableID=m4|Min=8)")
            + row("9", "smiled") + row("10", "."))


def write(tmp_path, text: str, name: str = "doc.CONLLUA") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("text, line, words", [
    # the UA scorer reads ElementOf as "3)": the split antecedent lost without a word
    (document(m1="(EntityID=1|MarkableID=m1|Min=1|ElementOf=3))"), 4, "IDENTITY: (EntityID=1|MarkableID=m1|Min=1|"
                                                                        "ElementOf=3)) has a ')' too many"),
    # the UA scorer reads Min as "4)", and crashes under partial matching
    (document(deixis="(EntityID=1-DD|MarkableID=d1|Min=4))"), 7, "DISCOURSE_DEIXIS: (EntityID=1-DD|MarkableID=d1|"
                                                                  "Min=4)) has a ')' too many"),
    (document(m3="(EntityID=3|MarkableID=m3|Min=40)"), 10, "IDENTITY: Min=40 of markable m3 lies past the document's "
                                                          "last word (10)"),
    (document(m3="(EntityID=3|MarkableID=m3|Min=5,11)"), 10, "Min=5,11 of markable m3 lies past"),
])
def test_shapes_the_ua_scorer_misreads_are_refused_at_their_line(tmp_path, text, line, words):
    path = write(tmp_path, text)
    with pytest.raises(InputError) as caught:
        read_ua(path)
    assert (caught.value.path, caught.value.line) == (path, line)
    assert words in caught.value.message


@pytest.mark.parametrize("space", ["\u00a0", "\u2003", "\u3000"])
@pytest.mark.parametrize("cell, column", [
    ("(EntityID=2|MarkableID=m2{}|Min=3|ElementOf=3)", "IDENTITY"),
    ("(EntityID=2|MarkableID=m2|Min=3|{}ElementOf=3)", "IDENTITY"),
])
def test_a_unicode_space_inside_a_cell_is_named_in_its_own_column(tmp_path, space, cell, column):
    """Before: the second half of the split IDENTITY cell was reported under BRIDGING."""
    broken = cell.format(space)
    path = write(tmp_path, document().replace("(EntityID=2|MarkableID=m2|Min=3|ElementOf=3)", broken))
    with pytest.raises(InputError) as caught:
        read_ua(path)
    assert caught.value.line == 6
    assert caught.value.message.startswith(f"{column}: {broken!r} holds a Unicode space (U+{ord(space):04X})")


def test_a_unicode_space_in_the_bridging_cell_is_named_there(tmp_path):
    text = document().replace(row("5", "They", "(EntityID=3|MarkableID=m3|Min=5)"),
                              row("5", "They", "(EntityID=3|MarkableID=m3|Min=5)",
                                  "(MarkableID=m3|Rel=poss|\u00a0MentionAnchor=m1)"))
    with pytest.raises(InputError) as caught:
        read_ua(write(tmp_path, text))
    assert caught.value.line == 10 and caught.value.message.startswith("BRIDGING: ")


def test_a_unicode_space_at_a_cells_edge_splits_nothing(tmp_path):
    """Only a space inside a cell moves the cells after it: at an edge it is a separator, read as such."""
    text = document().replace("(EntityID=2|MarkableID=m2|Min=3|ElementOf=3)", "(EntityID=2|MarkableID=m2|Min=3|ElementOf=3)\u00a0")
    (doc,) = read_ua(write(tmp_path, text))
    assert [m.id for m in doc.identity] == ["m1", "m2", "m3", "m4"]


def warnings_of(key: str, match: str = "exact", split_antecedents: bool = True) -> list[str]:
    options = Options(conventions=UA, match=match, keep_singletons=True, split_antecedents=split_antecedents,
                      spans=False)
    return list(load(key, [key], options).warnings)


@pytest.mark.parametrize("element_of", ["x", "9", "", "3,"])
def test_an_element_of_naming_no_entity_is_ignored_with_a_warning(tmp_path, element_of):
    key = write(tmp_path, document(m1=f"(EntityID=1|MarkableID=m1|Min=1|ElementOf={element_of})"))
    (warning,) = warnings_of(key)
    assert warning.startswith(f"{key}: 1 ElementOf attribute(s) name a plural entity the document does not have")
    assert warning.endswith(f"(first: line 4, ElementOf={element_of})")
    assert warnings_of(key, split_antecedents=False) == []  # not scored: nothing ignored
    assert warnings_of(write(tmp_path, document(), "fine.CONLLUA")) == []


def test_an_element_of_naming_an_entity_by_any_name_is_read(tmp_path):
    """Entity ids are names (the released files have ElementOf=7-DD): not a number list is no error."""
    text = document(m1="(EntityID=1|MarkableID=m1|Min=1|ElementOf=x)", m3="(EntityID=x|MarkableID=m3|Min=5)")
    key = write(tmp_path, text.replace("ElementOf=3)", "ElementOf=x)"))
    assert warnings_of(key) == []
    (doc,) = read_ua(key)
    assert {m.id: m.element_of for m in doc.identity}["m2"] == ("x",)


def test_a_min_outside_its_markable_is_read_and_warned_of_where_matching_reads_it(tmp_path):
    key = write(tmp_path, document(m3="(EntityID=3|MarkableID=m3|Min=8)"))
    for match in ("partial", "head"):
        (warning,) = warnings_of(key, match)
        assert warning == (f"{key}: 1 markable(s) have a Min outside their own words; --match {match} can match them "
                           f"only exactly, as the UA scorer does (first: line 10, markable m3)")
    assert warnings_of(key, "exact") == [] and warnings_of(key, "partial-craft") == []


@pytest.mark.parametrize("text, words", [
    (document(m1="(EntityID=1|MarkableID=m1|Min=1|ElementOf=3))"), ":4: IDENTITY: "),
    (document(m3="(EntityID=3|MarkableID=m3|Min=40)"), ":10: IDENTITY: Min=40"),
    (document().replace("MarkableID=m2|", "MarkableID=m2\u00a0|"), ":6: IDENTITY: "),
])
def test_the_command_line_says_it_in_one_line_with_exit_status_1(tmp_path, capsys, text, words):
    from workbench.cli import main

    key = write(tmp_path, text)
    fine = write(tmp_path, document(), "fine.CONLLUA")
    for command in (["score", key, fine], ["errors", fine, key, "--conventions", "ua"]):
        assert main(command) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("corefwb: error: ") and f"{key}{words}" in err


def test_annotation_columns_moved_by_global_columns_are_read_where_named_and_warned_of(tmp_path):
    """The UA scorer reads IDENTITY, BRIDGING and DISCOURSE_DEIXIS at columns 11-13 whatever the
    header says; we read where the header names them (as the file's producer meant), and say so."""
    moved_head = HEAD.replace("MISC IDENTITY", "IDENTITY MISC")
    moved = "".join(line if line.startswith("#") or not line.strip() else
                    _swap_cells(line, 9, 10) for line in document().splitlines(keepends=True))
    key = write(tmp_path, moved.replace(HEAD, moved_head))
    (warning,) = warnings_of(key)
    assert warning == (f"{key}: global.columns places IDENTITY in column 10 (the UA scorer reads column 11); "
                       f"we read the columns it names, so the UA scorer's score of this file can differ")
    assert [m.id for m in read_ua(key)[0].identity] == ["m1", "m2", "m3", "m4"]


def _swap_cells(line: str, first: int, second: int) -> str:
    cells = line.split()
    cells[first], cells[second] = cells[second], cells[first]
    return "  ".join(cells) + "\n"

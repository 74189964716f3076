"""The CorefUD byte reader (`metrics.formats.corefud_bytes`) against the line reader it stands in for.

On generated CoNLL-U (multiword tokens, empty nodes, discontinuous mentions, mentions across
sentences, comments, a BOM, CRLF, faults written in) the byte reader either declines the file
(None: `read_corefud` then reads it line by line) or gives the line reader's documents, line
numbers and warnings; it never gives documents for a file the line reader refuses; and it
declines no file written without a fault or an oddity (the comparison is not vacuous).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrics.formats import corefud
from metrics.formats.corefud import parse_corefud, read_corefud
from metrics.formats.corefud_bytes import nodes_of_bytes
from metrics.formats.source import read_lines
from metrics.model import InputError

FIELDS = ["eid-etype-head-other", "GRP-etype-infstat", "etype-eid", "eid-head"]


@dataclass
class Written:
    """A generated file: its lines, and whether anything odd or wrong was written into it."""

    lines: list[str] = field(default_factory=list)
    odd: bool = False


def _row(ident: str, form: str, head: str, deps: str, misc: str) -> str:
    return "\t".join([ident, form, form.lower(), "NOUN", "NN", "_", head, "dep", deps, misc or "_"])


@st.composite
def conllu(draw) -> Written:
    out = Written()
    fields = draw(st.sampled_from(FIELDS))
    open_across: list[str] = []
    next_entity = [0]
    for number in range(draw(st.integers(1, 3))):
        if number or draw(st.booleans()):
            name = draw(st.sampled_from(["", f"d{number}", "d0"]))
            out.odd |= name == "d0" and number > 0  # (a name given twice)
            out.lines.append(f"# newdoc id = {name}" if name else "# newdoc")
        if number == 0 or draw(st.integers(0, 4)) == 0:
            declared = fields if number == 0 or draw(st.booleans()) else draw(st.sampled_from(FIELDS))
            out.odd |= declared != fields
            out.lines.append(f"# global.Entity = {declared}")
        for sentence in range(draw(st.integers(0, 3))):
            out.lines += draw(st.lists(st.sampled_from(["# sent_id = x", "# text = a newdoc word", "# speaker = A"]),
                                       max_size=2))
            _sentence(draw, out, fields.split("-"), open_across, next_entity)
            out.lines.append("")
    return out


def _sentence(draw, out: Written, fields: list[str], open_across: list[str], counter: list[int]) -> None:
    n_words = draw(st.integers(1, 6))
    empties = {k: draw(st.integers(0, 2)) if draw(st.integers(0, 3)) == 0 else 0 for k in range(0, n_words + 1)}
    nodes = [f"0.{j}" for j in range(1, empties[0] + 1)]
    for k in range(1, n_words + 1):
        nodes.append(str(k))
        nodes += [f"{k}.{j}" for j in range(1, empties[k] + 1)]
    opening: dict[int, list[str]] = {}
    closing: dict[int, list[str]] = {}
    for _ in range(draw(st.integers(0, 6))):
        start = draw(st.integers(0, len(nodes) - 1))
        end = draw(st.integers(start, min(len(nodes) - 1, start + 3)))
        eid = f"e{draw(st.integers(1, 4))}" if draw(st.booleans()) else f"e{counter[0] + 10}"
        counter[0] += 1
        head = draw(st.integers(1, end - start + (2 if draw(st.integers(0, 9)) == 0 else 1)))
        out.odd |= "head" in fields and head > end - start + 1
        def attrs(entity: str) -> list[str]:
            return [{"eid": entity, "GRP": entity, "etype": "person", "head": str(head)}.get(name, "new")
                    for name in fields]

        if draw(st.integers(0, 5)) == 0 and end > start + 1:  # discontinuous: two parts, of a node each
            head, eid = min(head, 2), f"e{counter[0] + 100}"  # (two of one entity at once are refused)
            opening.setdefault(start, []).append("(" + "-".join(attrs(f"{eid}[1/2]")) + ")")
            opening.setdefault(end, []).append("(" + "-".join(attrs(f"{eid}[2/2]")) + ")")
            continue
        if start == end:
            opening.setdefault(start, []).append("(" + "-".join(attrs(eid)) + ")")
        else:
            opening.setdefault(start, []).append("(" + "-".join(attrs(eid)))
            closing.setdefault(end, []).append(eid + ")")
    if open_across:  # a mention opened in the sentence before closes here: refused
        closing.setdefault(0, []).append(open_across.pop() + ")")
        out.odd = True
    if draw(st.integers(0, 12)) == 0:
        open_across.append(f"e{counter[0] + 50}")
        out.odd = True  # (crosses into the next sentence, or is never closed)
        opening.setdefault(len(nodes) - 1, []).append(f"({open_across[-1]}-x")
    ranges = {k for k in range(1, n_words) if draw(st.integers(0, 5)) == 0}
    for at, ident in enumerate(nodes):
        word = "." not in ident
        if word and int(ident) in ranges:
            out.lines.append(_row(f"{ident}-{int(ident) + 1}", "xy", "_", "_", "_"))
        entity = "".join(closing.get(at, [])) + "".join(opening.get(at, []))  # (as udapi writes them)
        misc = [item for item in [draw(st.sampled_from(["", "SpaceAfter=No", "MSeg=a-b"])),
                                  f"Entity={entity}" if entity else ""] if item]
        if draw(st.integers(0, 40)) == 0:
            misc.append(draw(st.sampled_from(["SplitAnte=e1<e2", "Bridge=e3<e1:part"])))
            out.odd = True  # (may name an entity without mentions)
        head = str(draw(st.integers(0, n_words))) if word else "_"
        if word and draw(st.integers(0, 5)) == 0:
            head = "_"
        deps = draw(st.sampled_from(["_", "0:root", f"{draw(st.integers(1, n_words))}:dep"]))
        if not word and draw(st.booleans()):
            deps = f"{ident.split('.')[0] or 1}:dep" if ident.split(".")[0] != "0" else "0:root"
        out.lines.append(_row(ident, "W" + ident, head, deps, "|".join(misc)))


FAULTS = [
    lambda line: line.replace("\t", " ", 1),  # nine columns
    lambda line: "x" + line,  # an ID that is no node
    lambda line: line.replace("\t0\t", "\t99\t", 1),  # a HEAD past the sentence
    lambda line: "",  # a sentence cut in two
    lambda line: line + "|Entity=(e9-x",  # Entity= twice, or a mention never closed
    lambda line: line.replace("Entity=", "Entity=e7)"),  # closing nothing
    lambda line: line.replace("\t_\t", "\t\t", 1),  # an empty column
    lambda line: "  ",  # a line of spaces
]


def _written(tmp_path, lines: list[str], bom: bool, crlf: bool) -> str:
    text = ("\r\n" if crlf else "\n").join(lines) + "\n"
    path = tmp_path / "f.conllu"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return str(path)


def _line_reader(path: str) -> tuple[object, list[str]]:
    warnings: list[str] = []
    try:
        return parse_corefud(path, read_lines(path), warnings), warnings
    except InputError as error:
        return (error.line, error.message), warnings


def _agree(path: str) -> bool:
    """Whether the byte reader read the file (False: declined), asserting it read it alike."""
    expected, expected_warnings = _line_reader(path)
    warnings: list[str] = []
    documents = nodes_of_bytes(path, warnings)
    if documents is None:
        return False
    assert isinstance(expected, list), f"the byte reader read a file the line reader refuses: {expected}"
    assert documents == expected
    assert [d.line_of for d in documents] == [d.line_of for d in expected]
    assert [d.etypes for d in documents] == [d.etypes for d in expected]
    assert warnings == expected_warnings
    return True


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(conllu(), st.booleans(), st.booleans(), st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 7)),
                                                          max_size=2).filter(lambda f: len(f) < 2 or f[0][0] % 3))
def test_the_byte_reader_reads_as_the_line_reader(tmp_path_factory, written, bom, crlf, faults):
    lines = list(written.lines)
    for at, fault in faults:
        if lines:
            lines[at % len(lines)] = FAULTS[fault](lines[at % len(lines)])
    path = _written(tmp_path_factory.mktemp("bytes"), lines, bom, crlf)
    read = _agree(path)
    if not written.odd and not faults and any(not line.startswith("#") and line for line in lines):
        assert read, "declined a file written without a fault"


def test_a_file_the_byte_reader_reads_is_not_read_line_by_line(tmp_path, monkeypatch):
    """`read_corefud` takes the byte reader's documents (the line reader is not asked)."""
    path = _written(tmp_path, ["# newdoc id = d", "# global.Entity = eid-etype-head-other",
                               _row("1", "A", "0", "0:root", "Entity=(e1-person-1-)"), ""], False, False)
    monkeypatch.setattr(corefud, "parse_corefud", lambda *args: pytest.fail("read line by line"))
    [document] = read_corefud(path)
    assert document.entities[0][0] == "e1"


def test_the_corefud_test_files_read_alike():
    from pathlib import Path

    for path in sorted(Path("tests/data").rglob("*.conllu")):
        assert _agree(str(path)), path


@pytest.mark.parametrize("head", ["9" * 5000, "\u00b2"])
def test_a_head_index_int_refuses_is_a_located_error(tmp_path, head):
    """A head index of 5,000 digits, or a digit `int` does not read, was a ValueError's traceback
    (benchmarks/fuzz_readers.py found it); both readers refuse it at its line."""
    path = _written(tmp_path, ["# global.Entity = eid-etype-head-other", "# newdoc id = d",
                               _row("1", "A", "0", "_", f"Entity=(e1-person-{head}-)"), ""], False, False)
    with pytest.raises(InputError) as caught:
        read_corefud(path)
    assert caught.value.line == 3

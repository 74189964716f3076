"""The UA reader works over arrays (`metrics.formats.ua_lines`): it must read every file exactly as
the line-by-line reader (`tests/ua_reference_reader.py`) reads it: the same documents, words, word
lines, sentence starts, zeros and markables, or the same error at the same line."""

from __future__ import annotations

import random

import pytest

from metrics.formats.ua import read_ua
from metrics.formats.ua_lines import UNICODE_SPACES, index_lines
from metrics.model import InputError
from ua_reference_reader import read_ua as read_line_by_line

HEAD = "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS REFERENCE NOM_SEM"


def _outcome(path: str, read) -> object:
    try:
        docs = read(path)
    except InputError as error:
        return ("error", error.path, error.line, error.message)
    return [(d.name, d.words, d.identity, d.deixis, d.bridging, d.path, d.line, d.word_lines, d.sentence_starts,
             d.zeros) for d in docs]


def _same(tmp_path, text: str | bytes, name: str = "f.CONLLUA") -> object:
    path = tmp_path / name
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    mine, reference = _outcome(str(path), read_ua), _outcome(str(path), read_line_by_line)
    assert mine == reference
    return mine


def test_unicode_spaces_are_every_space_str_split_knows():
    every = "".join(chr(c) for c in range(128, 0x110000) if chr(c).isspace())
    assert every == UNICODE_SPACES


def test_cells_are_what_str_split_makes():
    text = "a\tb\x0bc\x0cd\x1ce\x1df\x1eg\x1fh i\xa0j\u3000k\u2009l\x01m\x1bn\x7fo é\u2028p \n\n  \n q  r\nlast"
    data = text.encode("utf-8")
    index = index_lines(data)
    lines = text.split("\n")
    assert index.lines == len(lines)
    for i, line in enumerate(lines):
        assert [index.cell(i, c) for c in range(index.cells_in(i))] == line.split()


def row(n: str, form: str, identity: str = "_", bridging: str = "_", deixis: str = "_", gap: str = "  ") -> str:
    return gap.join([n, form, "_", "_", "_", "_", "_", "_", "_", "_", identity, bridging, deixis, "_"])


PIECES = ["(", ")", "|", "=", "m1)", "(EntityID=9|MarkableID=q", "(EntityID=9|MarkableID=q)", "ElementOf=3",
          "Min=0", "Min=2,3", "_", " ", "\t", "\xa0", "\u3000", "1.1", "#", "# newdoc id = d", "\n", "\r\n",
          "# global.columns = ID FORM IDENTITY", "x\x0by", "é"]


def _document(rng: random.Random, name: str, regular: bool = False) -> list[str]:
    """A document's lines; `regular`: of the kind read at once (`whole_layer`): markables named
    once, none on a zero, closed by plain brackets, some cells opening two or closing two."""
    lines = [f"# newdoc id = {name}", "# sent_id = 1"]
    word, open_ids, deixis_open, made = 1, [], False, 0
    for _ in range(rng.randrange(1, 25)):
        roll = rng.random()
        if roll < 0.1:
            lines += ["", "# sent_id = x"]
            continue
        zero = roll < 0.18
        number = f"{word - 1}.{rng.randrange(1, 3)}" if zero else str(word)
        word += not zero
        identity = bridging = deixis = "_"
        pick = rng.random() * (0.25 if zero else 1)  # a zero holds one-word markables only
        ident = f"{'z' if zero else 'm'}{rng.randrange(9)}"
        if regular:
            made += 1
            ident = f"m{made}"
            pick = 1 if zero else pick
        if regular and pick < 0.1:
            identity = (f"(EntityID={rng.randrange(4)}|MarkableID={ident}|Min={rng.choice([str(word - 1), '1,2'])})"
                        f"(EntityID=7|MarkableID={ident}b|SemType=x|EntityID={rng.randrange(4)}")
            open_ids.append(ident + "b")
        elif regular and pick > 0.9 and len(open_ids) > 1:
            identity = "))"
            del open_ids[-2:]
        elif pick < 0.25:
            identity = f"(EntityID={rng.randrange(4)}{rng.choice(['', '-Pseudo'])}|MarkableID={ident}|Min={max(word - 1, 1)})"
        elif pick < 0.4:
            identity = f"(EntityID={rng.randrange(4)}|MarkableID={ident}|ElementOf={rng.randrange(4, 6)}"
            open_ids.append(ident)
        elif pick < 0.55 and open_ids:
            closed = open_ids.pop()
            identity = ")" if regular else rng.choice([")", f"{closed})"])
        if rng.random() < 0.15:
            bridging = f"(MarkableID=m{rng.randrange(9)}|Rel=poss|MentionAnchor=m{rng.randrange(9)})"
        if rng.random() < 0.1 and not zero:
            deixis = ")" if deixis_open else rng.choice([f"(EntityID=1-DD|MarkableID=dd{made}x)",
                                                         f"(EntityID=1-DD|MarkableID=dd{made}y"])
            deixis_open = deixis.endswith("y")
        lines.append(row(number, rng.choice(["a", "b", "é", "Ωx"]), identity, bridging, deixis,
                         gap=rng.choice(["  ", "\t", " \t ", "     "])))
    lines += [row(str(word), "end", ")", "_", ")" if deixis_open and not i else "_") for i, _ in enumerate(open_ids)]
    if deixis_open and not open_ids:
        lines.append(row(str(word), "end", "_", "_", ")"))
    return lines


@pytest.mark.parametrize("seed", range(8))
def test_damaged_files_read_as_the_line_by_line_reader_reads_them(tmp_path, seed):
    rng = random.Random(seed)
    for trial in range(120):
        regular = seed % 2 == 1
        lines = [HEAD] + [line for d in range(rng.randrange(1, 4)) for line in _document(rng, f"d{d}", regular)]
        for _ in range(rng.randrange(0, 2 if regular else 4)):
            i = rng.randrange(len(lines))
            roll = rng.random()
            if roll < 0.25:
                del lines[i]
            elif roll < 0.4:
                lines.insert(i, lines[i])
            else:
                at = rng.randrange(len(lines[i]) + 1)
                lines[i] = lines[i][:at] + rng.choice(PIECES) + lines[i][at + rng.randrange(3):]
        text = "\n".join(lines) + rng.choice(["", "\n", "\n\n", "\r\n"])
        if rng.random() < 0.1:
            text = "\ufeff" + text
        _same(tmp_path, text, f"t{trial}.CONLLUA")


@pytest.mark.parametrize("text", [
    "", "\n", HEAD, HEAD + "\n", HEAD + "\n1 a _ _ _ _ _ _ _ _ _ _ _\n",
    HEAD + "\n# newdoc id = d\n\x00\n", HEAD + "\n# newdoc id = d\n1 a _ _ _ _ _ _ _ _ _\n",
    HEAD + "\n# newdoc id = d\n1 a _ _ _ _ _ _ _ _\n2 b _ _ _ _ _ _ _ _ _\n",
    "  # global.columns = ID IDENTITY\n  # newdoc id = d\n1 (EntityID=1|MarkableID=m)\n1.1\n",
    HEAD + "\n# newdoc id = d\n" + row("1", "a") + "\n# global.columns = ID FORM IDENTITY\n1 b (EntityID=1|MarkableID=m)\n",
    HEAD + "\n# newdoc id = d\n" + row("1" * 40 + ".1", "a") + "\n" + row("2", "b") + "\n",
    HEAD + "\r\n# newdoc id = d\r\n" + row("1", "a") + "\r" + row("2", "b") + "\r\n",
])
def test_edge_files_read_as_the_line_by_line_reader_reads_them(tmp_path, text):
    _same(tmp_path, text)


def test_bytes_that_are_not_utf8_are_refused_as_before(tmp_path):
    outcome = _same(tmp_path, (HEAD + "\n# newdoc id = d\n").encode() + b"1 \xff _\n")
    assert outcome[0] == "error" and outcome[2] == 3


def test_unicode_spaces_found_from_their_first_bytes_as_the_pattern_finds_them():
    """`_unicode_spaces` tries the pattern only where a Unicode space's first byte occurs (or, in a
    text full of such bytes, everywhere): the same places as the pattern run over every byte."""
    import random

    from metrics.formats.ua_lines import _UNICODE_SPACE, _unicode_spaces

    rng = random.Random(7)
    alphabet = ["a", " ", "é", "€", "中", "、", "\u2010", "\n", *UNICODE_SPACES]
    for size in [0, 1, 5, 40, 400] * 20 + [9000, 9000]:
        data = "".join(rng.choice(alphabet) for _ in range(size)).encode("utf-8")
        assert _unicode_spaces(data) == [(m.start(), m.end()) for m in _UNICODE_SPACE.finditer(data)]

"""`convert --to crac-text` of a key whose words hold the inline format's markup (`|`, `##`,
brackets, commas, whitespace): read back, the output gives the key's words and mentions, or the
convert is refused in one line naming the word (written bare, `|` shifted the words read back)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_support import corefwb_in_process

MARKUP_WORDS = ["|", "a|b", "|[e1]", "b|", "##", "##x", "#", "#x#", "[e1", "e1]", "[e1]", "[", "]", ",", "a,b",
                "[e1,e1]", "x|[e9", "a b", "a\u00a0b", "\u3000", "a\u2028b", "a\x85b", "a\x1cb", "e1", "_", "#|#"]
"""Words holding each character the reader gives a meaning to: `|` (marks follow), `##` (an
empty-node slot), `[`, `]` and `,` (inside marks), and whitespace of every kind `str.split` and
`str.splitlines` cut at; and some that look like marks but hold no `|`."""

WRITTEN_WITH_MARKS = {"#", "#x#", "[e1", "e1]", "[e1]", "[", "]", ",", "a,b", "[e1,e1]", "e1", "_"}
"""Those read back as written, marks and all; the others hold `|`, a space (whose marks the reader
drops), another whitespace (which splits the line) or a leading `##` (an empty-node slot)."""
WRITTEN_BARE = WRITTEN_WITH_MARKS | {"|", "b|", "a|b", "a b", "#|#"}
"""Without marks a word with `|` or a space is written as `conllu2text` writes it (GUM holds `|`):
read back as the key's word; refused are those whose own text reads as a mark (`|[e1]`, `x|[e9`)."""


def _key(path: Path, word: str, marked: bool) -> int:
    """A key with `word` twice, inside mentions when `marked` (e2 starts at the first, the second
    a mention of e1), else outside every mention; returns the line of `word`'s first row."""
    words = ["Mary", word, "saw", word, "."]
    if marked:
        entities = ["Entity=(e1-person-1-)", "Entity=(e2-thing-1-", "Entity=e2)", "Entity=(e1-person-1-)", "_"]
    else:
        entities = ["Entity=(e1-person-1-)", "_", "Entity=(e1-person-1-)", "_", "Entity=(e3-thing-1-)"]
    rows = [f"{i}\t{w}\t_\tX\t_\t_\t{0 if i == 1 else 1}\t{'root' if i == 1 else 'dep'}\t"
            f"{0 if i == 1 else 1}:{'root' if i == 1 else 'dep'}\t{e}"
            for i, (w, e) in enumerate(zip(words, entities), 1)]
    head = ["# newdoc id = d1", "# global.Entity = eid-etype-head-other", "# sent_id = 1", "# text = x"]
    path.write_text("\n".join(head + rows) + "\n\n", encoding="utf-8")
    return len(head) + 2


@pytest.mark.parametrize("marked", [True, False])
@pytest.mark.parametrize("word", MARKUP_WORDS)
def test_a_markup_word_is_read_back_as_written_or_refused_by_name(tmp_path, word, marked) -> None:
    key, out = tmp_path / "key.conllu", tmp_path / "out.txt"
    line = _key(key, word, marked)
    writable = WRITTEN_WITH_MARKS if marked else WRITTEN_BARE
    converted = corefwb_in_process("convert", str(key), str(out), "--to", "crac-text")
    code, err = converted.returncode, converted.stderr
    if code != 0:
        assert word not in writable, err
        assert code == 1 and len(err.splitlines()) == 1 and "Traceback" not in err
        assert err.startswith(f"corefwb: error: {key}:{line}: ") and repr(word) in err
        return
    assert word in writable
    (written,) = out.read_text(encoding="utf-8").splitlines()
    assert len(written.split()) == 5  # no word split, none joined
    scored = corefwb_in_process("score", str(key), str(out), "--response-format", "crac-text", "--metrics",
                                "mentions,muc", "--singletons", "keep", "--match", "exact", "--format", "json")
    assert scored.returncode == 0
    result, err = json.loads(scored.stdout), scored.stderr
    alignment, repairs = result.get("alignment", {}), result.get("repairs", {})
    assert alignment.get("inserted", 0) == alignment.get("deleted", 0) == 0  # the key's words, in place
    assert repairs.get("lost_mentions", 0) == 0 and repairs.get("brackets_closed", 0) == 0
    scores = result["metrics"]
    assert scores["mentions"]["f1"] == scores["muc"]["f1"] == 1.0
    assert scores["mentions"]["counts"][1] == 3  # every mention of the key, and no other
    if marked:  # read back as written: no word replaced, nothing repaired
        assert err == "" and [token.split("|")[0] for token in written.split()] == ["Mary", word, "saw", word, "."]

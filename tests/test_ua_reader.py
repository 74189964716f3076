"""The Universal Anaphora reader: what it makes of a file, and the located errors it refuses with."""

from __future__ import annotations

import pytest

from metrics.formats.ua import is_ua_head, read_ua
from metrics.model import InputError

HEAD = "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS REFERENCE NOM_SEM\n"


def row(n: str, form: str, identity: str = "_", bridging: str = "_", deixis: str = "_") -> str:
    return f"{n}  {form}  _  _  _  _  _  _  _  _  {identity}  {bridging}  {deixis}  _\n"


def write(tmp_path, body: str, head: str = HEAD) -> str:
    path = tmp_path / "doc.CONLLUA"
    path.write_text(head + body, encoding="utf-8")
    return str(path)


DOC = ("# newdoc id = d1\n# sent_id = 1\n"
       + row("1", "Mary", "(EntityID=1|MarkableID=m1|Min=1|SemType=do|ElementOf=3)")
       + row("2", "and", "_")
       + row("3", "John", "(EntityID=2|MarkableID=m2|Min=3|ElementOf=3)")
       + row("4", "left", "_", "_", "(EntityID=1-DD|MarkableID=dd1|Min=4")
       + row("5", ".", "_", "_", ")")
       + "\n# sent_id = 2\n"
       + row("6", "They", "(EntityID=3|MarkableID=m3|Min=6)", "(MarkableID=m5|Rel=poss|MentionAnchor=m3)")
       + row("6.1", "PRO", "(EntityID=1|MarkableID=z1)")
       + row("7", "said", "_")
       + row("8", "it", "(EntityID=4-Pseudo|MarkableID=m4|Min=8)")
       + row("9", "the", "(EntityID=5|MarkableID=m5|Min=10", "(MarkableID=m5|Rel=poss|MentionAnchor=m1)")
       + row("10", "car", ")")
       + row("11", "that", "_", "_", "(EntityID=1-DD|MarkableID=dd2)"))


def test_a_ua_file_is_read_layer_by_layer(tmp_path):
    (doc,) = read_ua(write(tmp_path, DOC))
    assert doc.name == "d1" and len(doc.words) == 11 and doc.sentence_starts == [0, 5]
    by_id = {m.id: m for m in doc.identity}
    assert [m.id for m in doc.identity] == ["m1", "m2", "m3", "z1", "m4", "m5"]
    assert by_id["m1"].element_of == ("3",) and by_id["m1"].min_span == (0, 0)
    assert by_id["m5"].parts == ((8, 9),) and by_id["m5"].min_span == (9, 9)
    assert by_id["z1"].zero and by_id["z1"].words == ("6.0",) and doc.zeros == {"6.0": "PRO"}
    assert by_id["m4"].non_referring and not by_id["m3"].non_referring
    assert [(b.anaphor, b.anchor, b.relation) for b in doc.bridging] == [("m5", "m3", "poss"), ("m5", "m1", "poss")]
    assert [(m.id, m.entity, m.parts) for m in doc.deixis] == [("dd1", "1-DD", ((3, 4),)), ("dd2", "1-DD", ((10, 10),))]


def test_named_closers_and_discontinuous_markables(tmp_path):
    body = ("# newdoc id = d\n"
            + row("1", "a", "(EntityID=1|MarkableID=m1(EntityID=2|MarkableID=m2")
            + row("2", "b", "m1)")
            + row("3", "c", "m2)")
            + row("4", "d", "(EntityID=3|MarkableID=m3)")
            + row("5", "e", "(EntityID=3|MarkableID=m3)"))
    (doc,) = read_ua(write(tmp_path, body))
    parts = {m.id: m.parts for m in doc.identity}
    assert parts == {"m1": ((0, 1),), "m2": ((0, 2),), "m3": ((3, 3), (4, 4))}
    assert [m.words for m in doc.identity if m.id == "m3"] == [(3, 4)]


def test_detection_by_global_columns():
    assert is_ua_head(HEAD + "# newdoc id = x\n")
    assert not is_ua_head("# newdoc id = x\n1\ta\n")
    assert not is_ua_head("# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC\n")


def test_a_file_without_global_columns_is_not_read_as_ua(tmp_path):
    path = write(tmp_path, "# newdoc id = d\n" + row("1", "a"), head="")
    with pytest.raises(InputError) as caught:
        read_ua(path)
    assert caught.value.line == 2 and "not a Universal Anaphora file" in caught.value.message


@pytest.mark.parametrize("body, line, words", [
    (row("1", "a", "(EntityID=1|MarkableID=m1)"), 2, "before any"),
    ("# newdoc id = d\n" + row("1", "a", ")"), 3, "no markable open"),
    ("# newdoc id = d\n" + row("1", "a", "m9)"), 3, "not open"),
    ("# newdoc id = d\n" + row("1", "a", "(EntityID=1|MarkableID=m1"), 3, "never closed"),
    ("# newdoc id = d\n" + row("1", "a", "(EntityID=1)"), 3, "MarkableID"),
    ("# newdoc id = d\n" + row("1", "a", "(EntityID=1|MarkableID=m1|oops)"), 3, "no '='"),
    ("# newdoc id = d\n" + row("1", "a", "(EntityID=1|MarkableID=m1|Min=x)"), 3, "Min=x"),
    ("# newdoc id = d\n" + row("1", "a") + row("1.1", "z", "(EntityID=1|MarkableID=m1"), 4, "zero"),
    ("# newdoc id = d\n" + row("1", "a", "_", "(MarkableID=m1|Rel=poss)"), 3, "MentionAnchor"),
    ("# newdoc id = d\n" + row("1", "a") + "# newdoc id = d\n" + row("1", "b"), 4, "again"),
    ("# newdoc id = d\n1  a  _  _  _\n", 3, "IDENTITY"),
    ("# newdoc id = d\n" + row("1", "a", "(EntityID=1|MarkableID=m1|ElementOf=2)")
     + row("2", "b", "(EntityID=2|MarkableID=m2|ElementOf=1)"), 3, "split antecedent of itself"),
])
def test_bad_input_is_refused_at_its_line(tmp_path, body, line, words):
    path = write(tmp_path, body)
    with pytest.raises(InputError) as caught:
        read_ua(path)
    assert caught.value.path == path and caught.value.line == line
    assert words in caught.value.message


def test_damaged_files_give_located_errors_or_documents(tmp_path):
    """Any line of a real-looking file cut, doubled or mangled: a document list or an InputError
    naming the file and a line, never another exception (the CLI would show a traceback)."""
    import random

    from metrics.corpus.ua import METRICS, Settings, score_corpus

    lines = (HEAD + DOC).splitlines(keepends=True)
    rng = random.Random(3)
    pieces = ["(", ")", "|", "=", "m1)", "(EntityID=9|MarkableID=q", "ElementOf=3", "Min=0", "_", " ", "1.1"]
    for trial in range(300):
        damaged = list(lines)
        i = rng.randrange(len(damaged))
        roll = rng.random()
        if roll < 0.3:
            del damaged[i]
        elif roll < 0.5:
            damaged.insert(i, damaged[i])
        else:
            text = damaged[i]
            at = rng.randrange(len(text) + 1)
            damaged[i] = text[:at] + rng.choice(pieces) + text[at + rng.randrange(3):]
        path = tmp_path / f"t{trial}.CONLLUA"
        path.write_text("".join(damaged), encoding="utf-8")
        try:
            documents = read_ua(str(path))
        except InputError as error:
            assert error.path == str(path) and error.line is not None
            continue
        settings = [Settings(keep_singletons=True, keep_split=True, keep_zeros=True, metrics=METRICS),
                    Settings(match="partial-craft", keep_zeros=True, metrics=METRICS),
                    Settings(match="partial", discourse_deixis=True, metrics=METRICS)]
        for setting in settings:  # what reads must score, against itself and against the original
            score_corpus(documents, documents, "k", "r", setting)
            original = read_ua(write(tmp_path, DOC))
            if [len(d.words) for d in original] == [len(d.words) for d in documents] and \
                    [d.name for d in original] == [d.name for d in documents]:
                score_corpus(original, documents, "k", "r", setting, check_words=False)


def test_the_readers_markables_equal_those_made_field_by_field(tmp_path):
    """`Markable.made` (the reader's constructor) sets every field `Markable(...)` sets: a field
    added to the dataclass and not to `made` fails here."""
    from dataclasses import fields

    from metrics.mentions.ua import Markable

    (doc,) = read_ua(write(tmp_path, DOC))
    names = {f.name for f in fields(Markable)}
    for m in doc.identity + doc.deixis:
        again = Markable(m.id, m.entity, m.parts, m.min_span, m.zero, m.element_of, m.line, m.attribute_text)
        assert set(vars(m)) == names and vars(m) == vars(again) and m == again


def test_zeros_are_numbered_from_the_word_they_precede(tmp_path):
    body = ("# newdoc id = d\n" + row("0.1", "z", "(EntityID=1|MarkableID=z0)") + row("1", "a")
            + row("1.1", "y") + row("1.2", "x", "(EntityID=1|MarkableID=z1)") + "\n"
            + row("1.3", "w") + row("2", "b", "(EntityID=1|MarkableID=m1|Min=002)")
            + "# newdoc id = e\n" + row("0.1", "v") + row("1", "c"))
    first, second = read_ua(write(tmp_path, body))
    assert first.zeros == {"0.0": "z", "1.0": "y", "1.1": "x", "1.2": "w"} and second.zeros == {"0.0": "v"}
    assert [(m.id, m.words) for m in first.identity] == [("z0", ("0.0",)), ("z1", ("1.1",)), ("m1", (1,))]
    assert first.identity[-1].min_span == (1, 1) and first.words == ["a", "b"] and first.sentence_starts == []
    assert first.word_lines == [4, 9] and second.sentence_starts == [] and second.word_lines == [12]


def test_a_ua_file_read_through_the_cache_is_the_same_and_comes_from_its_entry(tmp_path, monkeypatch):
    from metrics.formats import ua
    from metrics.formats.cache import ReadCache

    path = write(tmp_path, DOC)
    cache = ReadCache(tmp_path / "cache")
    first = read_ua(path, cache)
    assert ua.ua_in_cache(path, cache) and not ua.ua_in_cache(path, None)
    monkeypatch.setattr(ua, "_read", lambda _path: pytest.fail("read again instead of loaded"))
    again = read_ua(path, ReadCache(tmp_path / "cache"))
    assert again == first
    for old, new in zip(first, again):
        assert (old.words, old.word_lines, old.sentence_starts, old.zeros) == \
               (new.words, new.word_lines, new.sentence_starts, new.zeros)


def test_a_changed_ua_file_is_read_again_not_taken_from_the_cache(tmp_path):
    from metrics.formats.cache import ReadCache

    path = write(tmp_path, DOC)
    cache = ReadCache(tmp_path / "cache")
    read_ua(path, cache)
    changed = write(tmp_path, DOC.replace("Mary", "Anna"))
    (doc,) = read_ua(changed, ReadCache(tmp_path / "cache"))
    assert doc.words[0] == "Anna"


def test_only_the_layers_asked_for_are_read(tmp_path):
    path = write(tmp_path, DOC)
    (whole,) = read_ua(path)
    (identity,) = read_ua(path, layers=("identity",))
    (deixis,) = read_ua(path, layers=("deixis", "bridging"))
    assert identity.identity == whole.identity and not identity.deixis and not identity.bridging
    assert deixis.deixis == whole.deixis and deixis.bridging == whole.bridging and not deixis.identity
    assert identity.words == deixis.words == whole.words
    broken = write(tmp_path, DOC.replace("(EntityID=1-DD|MarkableID=dd2)", "(EntityID=1-DD"))
    assert read_ua(broken, layers=("identity",))[0].identity == whole.identity  # the broken column is not read
    with pytest.raises(InputError):
        read_ua(broken)


@pytest.mark.parametrize("preset", ["crac18", "craft19", "codicrac22ar", "codicrac22dd", "codicrac22br"])
def test_the_layers_a_preset_reads_give_the_scores_of_the_whole_file(tmp_path, preset):
    from metrics.corpus.ua import PRESETS, layers_read, score_corpus

    settings = PRESETS[preset]
    key = write(tmp_path, DOC)
    response = tmp_path / "response.CONLLUA"
    response.write_text(HEAD + DOC.replace("(EntityID=2|MarkableID=m2|Min=3|ElementOf=3)", "_")
                        .replace("MentionAnchor=m3", "MentionAnchor=m4"), encoding="utf-8")
    whole = score_corpus(read_ua(key), read_ua(str(response)), key, str(response), settings)
    layers = layers_read(settings)
    assert layers == (("deixis",) if preset == "codicrac22dd" else ("identity", "bridging") if preset == "codicrac22br"
                      else ("identity",))
    read = score_corpus(read_ua(key, layers=layers), read_ua(str(response), layers=layers), key, str(response),
                        settings)
    assert read.micro == whole.micro and read.warnings == whole.warnings

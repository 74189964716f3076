"""The UA relations' errors look a mention's entity up from the layer's columns (ids, entities),
no `Markable` made (`records._entity_of`, `_uncounted_non_referring`); here each lookup is
compared, item for item and in order, with the object path it replaced (over `doc.layer`'s
markables), on the tests/data/ua files and on Hypothesis-made documents where one mention's words
carry several markables (referring and not, of several entities), under both layers and with
singletons kept or not.  The bridging errors' prices, now worked out once per kind of outcome, are
checked against the corpus rescored in tests/test_ua_prices_brute.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.corpus.ua import ScoredDocument, Settings, score_corpus
from metrics.errors.ua.records import _entity_of, _uncounted_non_referring, find_errors
from metrics.formats.ua import read_ua
from metrics.mentions.ua import Markable, Mention, UADocument

DATA = Path(__file__).resolve().parent / "data" / "ua"
FILES = [(DATA / f"{name}.key", DATA / f"{name}.response") for name in ("split", "non_referring", "bridging", "deixis")]
FILES.append((DATA / "codi" / "persuasion.key", DATA / "codi" / "persuasion.response"))
SETTINGS = [Settings(discourse_deixis=deixis, keep_singletons=singletons)
            for deixis in (False, True) for singletons in (True, False)]


def reference_entity_of(doc: UADocument, side, deixis: bool) -> dict[Mention, str]:
    """The object path: every markable of the layer made, the referring ones' entities."""
    return {side.mention_of[markable.id]: markable.entity for markable in doc.layer(deixis)
            if not markable.non_referring}


def reference_uncounted(doc: ScoredDocument, deixis: bool) -> dict[Mention, str]:
    mention_of = doc.response_side.mention_of
    entities: dict[Mention, str] = {}
    for markable in doc.response.layer(deixis):
        if markable.non_referring and markable.id in mention_of:
            entities.setdefault(mention_of[markable.id], markable.entity)
    return entities


def assert_same_lookups(keys: list[UADocument], responses: list[UADocument]) -> None:
    for chosen in SETTINGS:
        result = score_corpus(keys, responses, "k", "r", chosen)
        deixis = chosen.discourse_deixis
        for doc in result.documents:
            for side_doc, side in ((doc.key, doc.key_side), (doc.response, doc.response_side)):
                made, expected = _entity_of(side_doc, side, deixis), reference_entity_of(side_doc, side, deixis)
                assert list(made.items()) == list(expected.items())
            assert list(_uncounted_non_referring(doc, deixis).items()) == list(reference_uncounted(doc, deixis).items())
        find_errors(result)  # and the errors found with them


@pytest.mark.parametrize("pair", FILES, ids=lambda pair: pair[0].name)
def test_the_ua_files_look_entities_up_as_the_objects_did(pair):
    assert_same_lookups(read_ua(str(pair[0])), read_ua(str(pair[1])))


WORDS = 8


@st.composite
def documents(draw: st.DrawFn, tag: str) -> UADocument:
    """A document of `WORDS` words whose few spans each carry one or more markables, referring
    (of entities 0-2) or not (`-Pseudo`), in both layers."""
    spans = [(first, draw(st.integers(first, min(first + 2, WORDS - 1)))) for first in range(0, WORDS, 2)]
    layers = []
    for layer, suffixes in (("identity", ("", "", "-Pseudo")), ("deixis", ("-DD", "-Pseudo"))):
        made = []
        for i in range(draw(st.integers(0, 9))):
            entity = f"{draw(st.integers(0, 2))}{draw(st.sampled_from(suffixes))}"
            made.append(Markable(f"{tag}{layer[0]}{i}", entity, (draw(st.sampled_from(spans)),), None, False))
        layers.append(made)
    return UADocument("d", [f"w{w}" for w in range(WORDS)], layers[0], layers[1], [], path=tag, line=1,
                      word_lines=list(range(WORDS)), sentence_starts=[0])


@settings(max_examples=150, deadline=None)
@given(documents("k"), documents("r"))
def test_made_documents_look_entities_up_as_the_objects_did(key, response):
    assert_same_lookups([key], [response])

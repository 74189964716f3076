"""Each UA relation error's price against a brute force: the error fixed in the response as a file
edit would fix it (a bridging link added, removed or re-anchored by MarkableID; a markable's
EntityID made `-Pseudo` or a non-referring markable taken out), the corpus scored again from those
documents, and the change of every score the price names compared.  On a real CODI-CRAC dialogue
(tests/data/ua/codi) under three settings; the rescoring goes through `score_corpus`, none of the
pricing's own arithmetic (`_after`, the bridging outcomes edited in place)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from metrics.corpus.ua import Settings, score_corpus
from metrics.errors.ua.records import find_errors
from metrics.formats.ua import read_ua
from metrics.mentions.ua import BridgingLink, UADocument

CODI = Path(__file__).parent / "data" / "ua" / "codi"
SCORED = ("muc", "bcub", "ceafe", "conll", "non_referring", "bridging_recognition", "bridging_markable",
          "bridging_entity")


def _by_words(doc: UADocument) -> dict[tuple, list]:
    out: dict[tuple, list] = {}
    for m in doc.identity:
        out.setdefault(m.words, []).append(m)
    return out


def fixed_response(error, key: UADocument, response: UADocument) -> UADocument | None:
    """The response document with this error fixed by editing its annotation, or None where no
    edit of the relation alone fixes it (an anchor or anaphor markable the response lacks)."""
    key_ids, response_ids = {m.id: m for m in key.identity}, {m.id: m for m in response.identity}
    response_words = _by_words(response)
    if error.relation == "bridging":
        mine = [b for b in response.bridging if b.anaphor in response_ids and response_ids[b.anaphor].words == error.words]
        kept = [b for b in response.bridging if b not in mine]
        if error.kind == "spurious":
            return replace(response, bridging=kept)
        link = next(b for b in key.bridging if b.anaphor in key_ids and key_ids[b.anaphor].words == error.words)
        anchor = key_ids[link.anchor].words
        if anchor not in response_words or error.words not in response_words:
            return None
        return replace(response, bridging=[*kept, BridgingLink(response_words[error.words][0].id,
                                                               response_words[anchor][0].id, link.relation)])
    assert error.relation == "non_referring"
    if error.kind == "marked_non_referring":
        return replace(response, identity=[m for m in response.identity
                                           if not (m.words == error.words and m.non_referring)])
    there = response_words.get(error.words)
    if there:  # its first markable there, made an entity of its own that is non-referring
        return replace(response, identity=[replace(m, entity="fixed-Pseudo") if m is there[0] else m
                                           for m in response.identity])
    markable = next(m for m in key.identity if m.words == error.words and m.non_referring)
    return replace(response, identity=[*response.identity, replace(markable, id="fixed", entity="fixed-Pseudo")])


@pytest.mark.parametrize("settings", [Settings(metrics=SCORED), Settings(keep_singletons=True, metrics=SCORED),
                                      Settings(keep_singletons=True, match="partial", metrics=SCORED)],
                         ids=["default", "singletons", "partial"])
def test_every_relation_errors_price_is_the_corpus_rescored_with_it_fixed(settings):
    keys, responses = read_ua(str(CODI / "persuasion.key")), read_ua(str(CODI / "persuasion.response"))
    before = score_corpus(keys, responses, "k", "r", settings)
    errors = find_errors(before)
    checked = 0
    for error in errors:
        if error.kind == "wrong_relation":  # not scored: priced 0 on each score
            assert set(error.price.values()) == {0.0}
            continue
        index = next(i for i, d in enumerate(responses) if d.name == error.document)
        fixed = fixed_response(error, keys[index], responses[index])
        if fixed is None:
            continue
        after = score_corpus(keys, [*responses[:index], fixed, *responses[index + 1:]], "k", "r", settings)
        assert error.price, error
        for metric, price in error.price.items():
            gain = (after.micro[metric].f1 - before.micro[metric].f1) * 100
            assert price == pytest.approx(gain, abs=1e-9), (error.kind, error.mention, metric)
        checked += 1
    kinds = {e.kind for e in errors}
    assert checked >= 10 and {"missed", "spurious", "marked_referring", "marked_non_referring"} <= kinds

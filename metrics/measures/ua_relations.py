"""The UA scorer's scores beyond coreference chains: non-referring markables, bridging, and
mention identification (`mentions`, `mor`).

- `non_referring`: a key non-referring markable is found when the response has a non-referring
  markable of the same words.  Recall over the key's, precision over the response's.
- `bridging` (Yu & Poesio's three scores, as the UA scorer has them): over anaphors, the markables
  a bridging link starts from (the same words on both sides count as one anaphor):
  - recognition: the response has a link from the key's anaphor, whatever its anchor;
  - markable level: ... and its anchor is the key's anchor (the same words);
  - entity level: ... or an anchor of the key anchor's entity (both anchors in one key cluster).
  A recognised anaphor with a wrong anchor costs both a recall and a precision point.
- `mentions` (the UA scorer's `mention`, which crashes in UA format): a key mention is found when
  it is aligned to a response mention (equal, or partially under partial or head matching); split
  antecedents are not mentions here.
- `mor` (CRAC 2022's mention overlap ratio): the words shared by the best one-to-one pairing of
  overlapping key and response mentions, over all key words (recall) or response words.

Each returns the four counts as `Score`s, summed over documents as the UA scorer sums them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metrics.measures.catalog import BRIDGING_ENTITY, BRIDGING_MARKABLE, BRIDGING_RECOGNITION
from metrics.measures.score import Score
from metrics.mentions.ua import AnyMention, Mention, position_order
from metrics.runtime.lsap import linear_sum_assignment


def non_referring(key: list[Mention], response: list[Mention]) -> Score:
    found = sum(1 for m in key if m in response)
    spurious = sum(1 for m in response if m not in key)
    return Score(found, len(key), found, found + spurious)


@dataclass(frozen=True)
class BridgingOutcome:
    """What became of one anaphor: `kind` is correct, wrong_anchor (another entity), same_entity
    (another anchor of the key anchor's entity: right at entity level only), missed or spurious."""

    anaphor: Mention
    key_anchor: Mention | None
    response_anchor: Mention | None
    kind: str


def bridging_outcomes(key: dict[Mention, Mention], response: dict[Mention, Mention],
                      key_index: dict[AnyMention, int]) -> list[BridgingOutcome]:
    """Each key anaphor (in the key's order), then each response anaphor the key lacks."""
    out = []
    for anaphor, anchor in key.items():
        if anaphor not in response:
            out.append(BridgingOutcome(anaphor, anchor, None, "missed"))
            continue
        given = response[anaphor]
        if given == anchor:
            kind = "correct"
        elif anchor in key_index and given in key_index and key_index[anchor] == key_index[given]:
            kind = "same_entity"
        else:
            kind = "wrong_anchor"
        out.append(BridgingOutcome(anaphor, anchor, given, kind))
    out += [BridgingOutcome(anaphor, None, anchor, "spurious") for anaphor, anchor in response.items()
            if anaphor not in key]
    return out


BRIDGING = (BRIDGING_RECOGNITION.name, BRIDGING_MARKABLE.name, BRIDGING_ENTITY.name)


def bridging(outcomes: list[BridgingOutcome]) -> dict[str, Score]:
    """The three bridging scores of a document's outcomes."""
    kinds = [o.kind for o in outcomes]
    recognised = sum(1 for k in kinds if k not in ("missed", "spurious"))
    correct = kinds.count("correct")
    entity = correct + kinds.count("same_entity")
    missed, spurious = kinds.count("missed"), kinds.count("spurious")
    return {
        BRIDGING_RECOGNITION.name: Score(recognised, recognised + missed, recognised, recognised + spurious),
        BRIDGING_MARKABLE.name: Score(correct, recognised + missed, correct, recognised + spurious),
        BRIDGING_ENTITY.name: Score(entity, recognised + missed, entity, recognised + spurious),
    }


def mentions(key: list[list[AnyMention]], response: list[list[AnyMention]], partner: dict) -> Score:
    key_set = {m for c in key for m in c if not m.is_split}
    response_set = {m for c in response for m in c if not m.is_split}
    found_key = sum(1 for m in key_set if m in response_set or m in partner)
    found_response = sum(1 for m in response_set if m in key_set or m in partner)
    return Score(found_key, len(key_set), found_response, len(response_set))


def mor(key: list[list[AnyMention]], response: list[list[AnyMention]]) -> Score:
    """Overlapping mentions grouped left to right; in each group, the pairing of largest overlap
    (a key and a response mention alone in their group simply share their words)."""
    items = [(m, True) for c in key for m in c if not m.is_split] + \
            [(m, False) for c in response for m in c if not m.is_split]
    items.sort(key=lambda item: item[0].order())
    counts = [0, 0, 0, 0]  # pn, pd, rn, rd: whole numbers, summed exactly in any order
    group: list[tuple[Mention, bool]] = []
    bound = None
    ended: list[tuple[Mention, bool] | None] = [*items, None]  # None closes the last group
    for item in ended:
        if item is not None and (bound is None or position_order(item[0].words[0]) <= bound):
            group.append(item)
            last = position_order(item[0].words[-1])
            bound = last if bound is None else max(bound, last)
            continue
        _mor_group([m for m, is_key in group if is_key], [m for m, is_key in group if not is_key], counts)
        if item is not None:
            group, bound = [item], position_order(item[0].words[-1])
    pn, pd, rn, rd = (float(c) for c in counts)
    return Score(rn, rd, pn, pd)


def _mor_group(keys: list[Mention], responses: list[Mention], counts: list[int]) -> None:
    counts[3] += sum(len(k.words) for k in keys)
    counts[1] += sum(len(r.words) for r in responses)
    if not keys or not responses:
        return
    if len(keys) == 1 and len(responses) == 1:
        shared = len(keys[0] & responses[0])
    else:
        overlap = np.array([[len(k & r) for r in responses] for k in keys], dtype=float)
        rows, cols = linear_sum_assignment()(overlap, True)
        shared = int(overlap[rows, cols].sum())
    counts[0] += shared
    counts[2] += shared

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

from collections import Counter
from dataclasses import dataclass

import numpy as np

from metrics.measures.catalog import BRIDGING_ENTITY, BRIDGING_MARKABLE, BRIDGING_RECOGNITION
from metrics.measures.score import Score
from metrics.mentions.ua import AnyMention, Mention, position_order
from metrics.runtime.lsap import linear_sum_assignment


def non_referring(key: list[Mention], response: list[Mention]) -> Score:
    return NonReferring.of(key, response).score()


@dataclass(frozen=True)
class NonReferring:
    """A document's non-referring markables as counts (a markable listed twice counts twice, as
    in the lists): the score, and the score after one response markable is added or removed,
    each without going over the lists again (the relations' errors price thousands of such fixes
    on a book: a pass per fix was quadratic)."""

    in_key: Counter[Mention]
    in_response: Counter[Mention]
    key_total: int
    """Key markables, with repeats (the recall's denominator: summed once, not at each fix)."""
    found: int
    """Key markables (with repeats) whose words the response has."""
    spurious: int
    """Response markables (with repeats) whose words the key lacks."""

    @classmethod
    def of(cls, key: list[Mention], response: list[Mention]) -> "NonReferring":
        in_key, in_response = Counter(key), Counter(response)
        found = sum(n for m, n in in_key.items() if m in in_response)
        spurious = sum(n for m, n in in_response.items() if m not in in_key)
        return cls(in_key, in_response, sum(in_key.values()), found, spurious)

    def score(self, found: int | None = None, spurious: int | None = None) -> Score:
        """Recall over the key's markables, precision over the response's (these counts, or the
        document's own)."""
        found = self.found if found is None else found
        spurious = self.spurious if spurious is None else spurious
        return Score(found, self.key_total, found, found + spurious)

    def with_response(self, m: Mention) -> Score:
        """The score were `m` one more response markable."""
        if m in self.in_response:
            return self.score(spurious=self.spurious + (0 if m in self.in_key else 1))
        return self.score(self.found + self.in_key[m], self.spurious + (0 if m in self.in_key else 1))

    def without_response(self, m: Mention) -> Score:
        """The score were every response markable of `m`'s words gone."""
        if m not in self.in_response:
            return self.score()
        if m in self.in_key:
            return self.score(found=self.found - self.in_key[m])
        return self.score(spurious=self.spurious - self.in_response[m])


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
    return bridging_of_kinds(Counter(o.kind for o in outcomes))


def bridging_of_kinds(kinds: Counter[str]) -> dict[str, Score]:
    """The three bridging scores of outcomes counted by kind (a fix changes one kind's count:
    priced without going over the outcomes again)."""
    recognised = sum(n for k, n in kinds.items() if k not in ("missed", "spurious"))
    correct = kinds["correct"]
    entity = correct + kinds["same_entity"]
    missed, spurious = kinds["missed"], kinds["spurious"]
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

"""The ACE-value (NIST's "EDR value"): a cost-based entity score, 1 for a perfect response.

Definitions: ../shared/docs/ace-value.md, after the survey by Shi, Huang and Liu (formulas 11-22),
which restates the NIST ACE scorer.  Mentions carry a value by type (MTV: NAME 1.0, NOMINAL 0.5,
PRONOUN 0.1), W(X) is the summed MTV of a set of mentions, and W_FA = 0.75 prices false alarms.
For one document, with key entities K and response entities S (chains, singletons included):

- mention weighting (the default): V(K) = W(K); a mapped pair scores
  V(S,K) = EV(S,K) W(S ∩ K) - W_FA cost(S \\ K); an unmapped response entity (false alarm) scores
  V_FA(S) = -W_FA f cost(S); an unmapped key entity (miss) scores nothing.
- level weighting: an entity's level L is its highest MTV; V(K) = L(K),
  V(S,K) = EV L(K) W(S ∩ K) / W(K) - W_FA L(S) cost(S \\ K) / W(S), V_FA(S) = -W_FA f L(S) cost(S) / W(S).
- ace07: cost(X) = W(X) and f = 1 (every uncredited response mention costs).  ace05: cost counts only
  spurious mentions (spans of no key mention) and f = W_FA, and a key entity alone in its connected
  component of the candidate graph is mapped to its best candidate even at a loss.
- EV(S,K) = 0.5 when both entities carry an entity type and the types differ, else 1.

The mapping is one-to-one and maximises N = Σ V_FA(S) + Σ over mapped pairs of the gain
G = V(S,K) - V_FA(S), which is >= 0 under ace07: the same assignment machinery as CEAF, over the
same contingency table.  ACE = N / D with D = Σ V(K); corpus: numerators and denominators summed.
"""

from __future__ import annotations

from operator import attrgetter
from dataclasses import dataclass, fields
from itertools import chain as chained
from typing import NamedTuple

import numpy as np

from metrics.measures.score import ratio
from metrics.measures.table import Table

MTV = np.array([1.0, 0.5, 0.1, 0.1])
"""Mention value by type: NAME, NOMINAL, PRONOUN, and ZERO as a pronoun (the ACE scorer knew no zeros)."""
W_FA = 0.75
TYPE_ERROR_VALUE = 0.5
VARIANTS = ("ace07", "ace05")
WEIGHTINGS = ("mention", "level")


class AceOptions(NamedTuple):
    """Which ACE-value: the scorer's year and the weighting of entities."""

    variant: str = "ace07"
    weighting: str = "mention"

    def check(self) -> "AceOptions":
        if self.variant not in VARIANTS:
            raise ValueError(f"unknown ACE variant {self.variant!r}; choose from {', '.join(VARIANTS)}")
        if self.weighting not in WEIGHTINGS:
            raise ValueError(f"unknown ACE weighting {self.weighting!r}; choose from {', '.join(WEIGHTINGS)}")
        return self


@dataclass(frozen=True)
class AceScore:
    """The ACE-value's sums for a document or a corpus (added to micro-average).

    `value` is N / D: 1 for a perfect response, 0 for an empty one, negative when false alarms
    outweigh what was found; None for an empty key with a non-empty response (undefined).
    """

    numerator: float
    denominator: float
    miss_cost: float
    mapped_cost: float
    false_alarm_cost: float
    mapped_value: float
    """C: the summed V(S,K) of mapped pairs."""
    mapped_key_value: float
    """The summed V(K) of mapped key entities."""
    key_entities: int
    response_entities: int
    mapped: int

    @property
    def value(self) -> float | None:
        if self.denominator:
            return self.numerator / self.denominator
        return 1.0 if self.numerator == 0 else None

    @property
    def recall(self) -> float:
        """Value-based recall, as the ACE scorer prints it: max(C, 0) / D."""
        return ratio(max(self.mapped_value, 0.0), self.denominator)

    @property
    def precision(self) -> float:
        """Value-based precision: max(C, 0) / (V of the mapped key entities + false-alarm cost)."""
        return ratio(max(self.mapped_value, 0.0), self.mapped_key_value + self.false_alarm_cost)

    @property
    def f1(self) -> float:
        """The headline number tables, averages and sorting use: the ACE-value itself, and 0 where
        it is undefined (x / 0 = 0, as everywhere in the engine; JSON says null there)."""
        if isinstance(self.denominator, np.ndarray):  # resamples (metrics.statistics.significance)
            den = self.denominator
            value = ratio(self.numerator, den)
            return np.where(den != 0, value, np.where(self.numerator == 0, 1.0, 0.0))
        value = self.value
        return 0.0 if value is None else value

    def __add__(self, other: "AceScore") -> "AceScore":
        mine, theirs = self.counts(), other.counts()
        return AceScore(*(a + b for a, b in zip(mine, theirs)))

    def counts(self) -> list[float]:
        return list(_ACE_FIELDS(self))

    def to_json(self) -> dict:
        return {
            "value": self.value, "numerator": self.numerator, "denominator": self.denominator,
            "misses": {"entities": self.key_entities - self.mapped, "cost": self.miss_cost},
            "false_alarms": {"entities": self.response_entities - self.mapped, "cost": self.false_alarm_cost},
            "mapped": {"entities": self.mapped, "cost": self.mapped_cost, "value": self.mapped_value},
            "recall": self.recall, "precision": self.precision,
        }


_ACE_FIELDS = attrgetter(*(f.name for f in fields(AceScore)))
"""Every sum of an `AceScore`, in its fields' order (a corpus adds 20,000 documents' scores)."""


def ace_document(table: Table, id_types: np.ndarray, n_key_ids: int, response_ids: list[list[int]], *,
                 key_entity_types: list[str | None] | None, response_entity_types: list[str | None] | None,
                 options: AceOptions = AceOptions()) -> AceScore:
    """The ACE-value's sums for one document.

    `id_types`: the mention type of each mention id; ids below `n_key_ids` are key spans.
    `response_ids`: each response chain's ids (as `Alignment.response_chains`).  The entity-type
    lists give each key / response chain's type (None: untyped, or no types at all).
    """
    from metrics.measures.formulas import best_cells

    mtv = MTV[id_types] if len(id_types) else np.zeros(0)
    n_key, n_resp = table.n_key_chains, table.n_response_chains
    w_key = np.bincount(table.key_owner, weights=mtv[table.key_ids], minlength=n_key)
    owner = np.repeat(np.arange(n_resp), [len(c) for c in response_ids]).astype(np.int64)
    flat = np.fromiter(chained.from_iterable(response_ids), dtype=np.int64, count=len(owner))
    w_resp = np.bincount(owner, weights=mtv[flat], minlength=n_resp)
    costly = mtv[flat] if options.variant == "ace07" else np.where(flat < n_key_ids, 0.0, mtv[flat])
    cost_resp = np.bincount(owner, weights=costly, minlength=n_resp)
    w_common = np.bincount(table.member_cell, weights=mtv[table.member_id], minlength=len(table.cell_key))
    k, r = table.cell_key, table.cell_response
    # the uncredited part of S in pair (K, S): S \ K, whose common part costs nothing under ace05
    common_cost = w_common if options.variant == "ace07" else np.zeros(len(k))
    ev = _entity_values(k, r, key_entity_types, response_entity_types)
    fa = 1.0 if options.variant == "ace07" else W_FA
    if options.weighting == "mention":
        v_key = w_key
        v_pair = ev * w_common - W_FA * (cost_resp[r] - common_cost)
        v_fa = -W_FA * fa * cost_resp
    else:
        level_key = _levels(table.key_owner, mtv[table.key_ids], n_key)
        level_resp = _levels(owner, mtv[flat], n_resp)
        v_key = level_key
        v_pair = (ev * level_key[k] * ratio(w_common, w_key[k])
                  - W_FA * level_resp[r] * ratio(cost_resp[r] - common_cost, w_resp[r]))
        v_fa = -W_FA * fa * level_resp * ratio(cost_resp, w_resp)
    gain = v_pair - v_fa[r]
    chosen = np.array([c for group in best_cells(table, np.maximum(gain, 0.0)) for c in group], dtype=np.int64)
    chosen = chosen[gain[chosen] > 0]
    if options.variant == "ace05":
        chosen = _with_lone_keys(table, gain, chosen)
    mapped_key = np.zeros(n_key, dtype=bool)
    mapped_key[k[chosen]] = True
    mapped_resp = np.zeros(n_resp, dtype=bool)
    mapped_resp[r[chosen]] = True
    numerator = float(v_fa.sum() + gain[chosen].sum())
    return AceScore(
        numerator=numerator, denominator=float(v_key.sum()),
        miss_cost=float(v_key[~mapped_key].sum()),
        mapped_cost=float((v_key[k[chosen]] - v_pair[chosen]).sum()),
        false_alarm_cost=float(-v_fa[~mapped_resp].sum()),
        mapped_value=float(v_pair[chosen].sum()), mapped_key_value=float(v_key[k[chosen]].sum()),
        key_entities=int(np.count_nonzero(table.key_sizes)), response_entities=n_resp, mapped=len(chosen),
    )


def _levels(owner: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    """The highest mention value of each entity."""
    out = np.zeros(n)
    np.maximum.at(out, owner, values)
    return out


def _entity_values(k: np.ndarray, r: np.ndarray, key_types: list[str | None] | None,
                   response_types: list[str | None] | None) -> np.ndarray:
    """EV(S, K) of each cell: 0.5 where both entities are typed and the types differ (the types
    numbered once per chain, then compared for all cells at once)."""
    ev = np.ones(len(k))
    if key_types is None or response_types is None or not len(k):
        return ev
    number: dict[str, int] = {}
    key_number = np.array([-1 if t is None else number.setdefault(t, len(number)) for t in key_types], dtype=np.int64)
    response_number = np.array([-1 if t is None else number.setdefault(t, len(number)) for t in response_types],
                               dtype=np.int64)
    a, b = key_number[k], response_number[r]
    ev[(a >= 0) & (b >= 0) & (a != b)] = TYPE_ERROR_VALUE
    return ev


def _with_lone_keys(table: Table, gain: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """ace05's matcher: a key entity alone in its connected component (every candidate of it is
    a candidate of no other key entity) is mapped to its best candidate even at a loss."""
    k, r = table.cell_key, table.cell_response
    cells_of_resp = np.bincount(r, minlength=table.n_response_chains)
    out = set(chosen.tolist())
    mapped = set(k[chosen].tolist())
    for key in range(table.n_key_chains):
        if key in mapped:
            continue
        cells = np.nonzero(k == key)[0]
        if len(cells) and (cells_of_resp[r[cells]] == 1).all():
            out.add(int(cells[np.argmax(gain[cells])]))
    return np.array(sorted(out), dtype=np.int64)

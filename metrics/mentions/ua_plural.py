"""A document's plural entities over columns: each one's split antecedents as one more mention (a
number), with what the metrics need to credit it as the UA scorer does, and no `Mention` made.

Why: under `--split-antecedents keep` most documents of CODI-CRAC have a plural entity; clustered
into `Mention`s and `SplitAntecedent`s (`ua_align.side_clusters`), they took most of the scoring
time.  Over columns (`metrics.mentions.ua_columns`) a split antecedent is one more mention number
of its cluster, equal on both sides when its member sets are equal (as `SplitAntecedent`s are).

What decides the last digit, and how it is kept (`ua_align` makes each cluster a set, and a split
antecedent's members a set): a set's iteration order depends only on its elements' hashes and the
order they were added.  A `Mention` hashes as the frozenset of its positions, a member as the
tuple of those, a `SplitAntecedent` as the frozenset of its members: so sets of plain frozensets
of the same positions, built in the same order, iterate as the object path's sets do.  They are
made here only for the clusters that hold a split antecedent and for their members (a few per
document), giving the order in which the metrics add a split antecedent's credit (a float).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

from metrics.mentions.ua import MarkableTable

SPLIT_BIT = 1 << 40
"""Set, beside `ua_columns._OTHER`, in the number of a split antecedent (a document's own)."""


class Member(int):
    """A mention number as the metrics' kernels read a mention (`metrics.measures.ua`: not a split
    antecedent), for a split antecedent's members."""

    __slots__ = ()
    is_split = False


@dataclass(frozen=True)
class PluralCluster:
    """One cluster holding a split antecedent, on one side of one document."""

    entity: str
    """Its entity (the first one's, when clusters with equal split antecedents were merged)."""
    split: int
    """The split antecedent's number (its document's, `in_document` makes it the corpus's)."""
    order: tuple[int, ...]
    """The cluster's mention numbers (the split antecedent's too) in the order the UA scorer's set
    of them yields: the order its metrics add them in."""
    members: tuple[tuple[Member, ...], ...]
    """The member clusters (mention numbers, as the file lists each member's markables), in the
    order the split antecedent's set of them yields."""
    kept: dict = field(default_factory=dict, compare=False, repr=False)
    """What the metrics make of it once for every metric (`metrics.measures.ua_plural`)."""


@dataclass(frozen=True)
class PluralSide:
    """A document side's plural clusters, in cluster order, and the entities merged into an
    earlier one (their split antecedents were equal)."""

    clusters: tuple[PluralCluster, ...]
    merged: dict[str, str]


def _positions(table: MarkableTable, row: int) -> frozenset:
    """The positions a markable covers (as its `Mention` holds them: its hash is theirs)."""
    parts = table.irregular.get(row)
    if parts is None:
        return frozenset(range(int(table.starts[row]), int(table.ends[row]) + 1))
    if isinstance(parts[0][0], str):
        return frozenset((parts[0][0],))
    return frozenset(w for first, last in parts for w in range(int(first), int(last) + 1))


def plural_side(table: MarkableTable, codes: np.ndarray, zeros: np.ndarray, *, keep_zeros: bool,
                split_numbers: dict, split_base: int, positions_of: dict[int, frozenset]) -> PluralSide:
    """The plural clusters of one side (`table`, its mention numbers `codes`, `zeros`), as
    `ua_align.side_clusters` makes them with split antecedents and singletons kept: a split
    antecedent is numbered `split_base | n`, n its member sets' place in `split_numbers` (the
    document's, shared by key and response: equal member sets, one number).  `positions_of`:
    mention number -> its positions, made once for both sides."""
    rows_of: dict[str, list[int]] = {}
    for row, entity in enumerate(table.entities):
        rows_of.setdefault(entity, []).append(row)
    members: dict[str, list[str]] = {}
    for row in sorted(table.element_of):
        for plural in table.element_of[row]:
            members.setdefault(plural, []).append(table.entities[row])
    code_list, zero_list = codes.tolist(), zeros.tolist()
    frozen: dict[int, frozenset] = {}
    number_of: dict[object, int] = {}
    """A mention's positions, or a split antecedent's frozenset of members -> its number."""

    def positions(row: int) -> frozenset:
        found = frozen.get(row)
        if found is None:
            code = code_list[row]
            found = positions_of.get(code)
            if found is None:
                found = positions_of[code] = _positions(table, row)
            frozen[row] = found
            number_of[found] = code
        return found

    member_of: dict[str, tuple[tuple, tuple[Member, ...]]] = {}
    """A member entity -> its markables' positions and numbers, in file order (made once)."""

    def member(entity: str) -> tuple[tuple, tuple[Member, ...]]:
        found = member_of.get(entity)
        if found is None:
            rows = rows_of[entity]
            found = member_of[entity] = (tuple(map(positions, rows)), tuple(map(Member, map(code_list.__getitem__, rows))))
        return found

    held: list[tuple[str, set, int, set, dict]] = []
    """Each plural cluster: its entity, its set (as the UA scorer's), its split antecedent's number,
    its members' set and their numbers."""
    merged: dict[str, str] = {}
    for entity, rows in rows_of.items():
        if not members.get(entity) or entity.endswith("-Pseudo"):
            continue
        found: set = set()
        numbers: dict[tuple, tuple[Member, ...]] = {}
        waiting = deque([entity])
        while waiting:  # breadth first, as `ua_align._split_antecedent`
            current = waiting.popleft()
            if members.get(current):
                waiting.extend(members[current])
            else:
                member_positions, member_numbers = member(current)
                found.add(member_positions)
                numbers[member_positions] = member_numbers
        split = frozenset(found)  # hashes as the `SplitAntecedent`, equal when it is
        number = split_base | split_numbers.setdefault(frozenset(numbers.values()), len(split_numbers))
        number_of[split] = number
        listed = [positions(row) for row in rows if keep_zeros or not zero_list[row]] + [split]
        into = next((cluster for cluster in held if split in cluster[1]), None)
        if into is not None:  # equal split antecedents: one cluster, as `_merge_equal_plurals`
            into[1].update(listed)
            merged[entity] = into[0]
            continue
        held.append((entity, set(listed), number, found, numbers))
    clusters = tuple(PluralCluster(entity, number, tuple(number_of[item] for item in items),
                                   tuple(numbers[member_positions] for member_positions in found))
                     for entity, items, number, found, numbers in held)
    return PluralSide(clusters, merged)

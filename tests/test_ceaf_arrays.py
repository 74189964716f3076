"""CEAF-e's change of many single fixes at once (metrics/errors/ceaf_arrays.py) against `delta`'s
change of one fix at a time, to the bit, and against rescoring the corpus.

`ceaf_arrays.change_rows` computes, for a clean document, the changes of the kinds it knows (a
chain's size changed with no cell moved; a key chain's mentions moved from one chain, or none, to
another, or a new one) and hands every other change to `delta`.  Its rows must be the floats
`delta.changes` gives, not close ones: prices are compared to the last digit.  Every fix of every
kind on every token is priced, so that the paths it takes (stars, certified matchings, a cell
emptied that parts its component, a key chain with no cell) are all exercised; the test checks
that each was.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_errors_impact import full_rescore
from test_impact_delta import _document, _hub_shapes, _random_partition, random_pair

from metrics.corpus.scoring import prepare
from metrics.errors import ceaf_arrays, ceaf_columns
from metrics.errors.best_matching import MARGIN, certified
from metrics.errors.chen_ng.fixes import Fix, FixKind, apply_fixes, single_fix_counts
from metrics.errors.chen_ng.impact import Pricer
from metrics.errors.delta import changes
from metrics.measures.catalog import CEAFE
from metrics.measures.weights import W4


def _fixes(n: int, rng: random.Random, links: int) -> list[Fix]:
    """Every add, remove and split of a one-token span of n + 3 tokens, and `links` links."""
    spans = [(i, i) for i in range(n + 3)]
    out = [Fix(kind, span, None) for span in spans for kind in (FixKind.ADD, FixKind.REMOVE, FixKind.SPLIT)]
    out += [Fix(FixKind.LINK, rng.choice(spans), rng.choice(spans)) for _ in range(links)]
    return out


def _table_and_changes(keys, responses, fixes: list[Fix]):
    state = Pricer(prepare(keys, responses), "conll", W4)._state(0)
    assert state.clean
    many = {}
    for fix in fixes:
        counts = single_fix_counts(state.base, fix, state.delta.row_cells)
        if counts is not None:
            many.setdefault(counts, fix)
    return state.delta, list(many), list(many.values())


def _paths(table, many: list, monkeypatch) -> tuple[Counter, list[list[float]], set[int]]:
    """The rows `change_rows` gives, which changes it left to `delta`, and the paths it took."""
    paths: Counter = Counter()
    segment_max, sorted_sums, star_moves = ceaf_arrays._segment_max, ceaf_arrays._sorted_sums, ceaf_arrays._star_moves
    reseat, release, next_leaves = ceaf_columns.reseat, ceaf_columns.release, ceaf_columns.next_leaves_left_out

    def spied_next_leaves(arrays, metric, changed, other):
        settled, brought = next_leaves(arrays, metric, changed, other)
        paths["next leaf left out"] += int((settled & brought).sum())
        return settled, brought

    def spied_release(arrays, k0, judged, size, cap):
        good, t_star, weight = release(arrays, k0, judged, size, cap)
        paths["released, to a free column"] += int((good & (t_star >= 0)).sum())
        paths["released, to none"] += int((good & (k0 >= 0) & (t_star < 0)).sum())
        return good, t_star, weight

    def spied_reseat(arrays, column, top, second, taken):
        good, k2, weight = reseat(arrays, column, top, second, taken)
        paths["reseated, k2"] += int((good & (k2 >= 0)).sum())
        paths["reseated, none"] += int((good & (k2 < 0)).sum())
        return good, k2, weight

    def spied_max(owner, values, n):
        paths["star"] += n
        return segment_max(owner, values, n)

    def spied_sums(fix, row, term, apart, n):
        paths["summed"] += n
        return sorted_sums(fix, row, term, apart, n)

    def spied_star_moves(arrays, metric, moves, totals):
        paths["star move"] += moves.shape[1]
        return star_moves(arrays, metric, moves, totals)

    monkeypatch.setattr(ceaf_arrays, "_segment_max", spied_max)
    monkeypatch.setattr(ceaf_arrays, "_sorted_sums", spied_sums)
    monkeypatch.setattr(ceaf_arrays, "_star_moves", spied_star_moves)
    for module in (ceaf_arrays, ceaf_columns):  # a size change's one-step moves in the one, a move's in the other
        monkeypatch.setattr(module, "reseat", spied_reseat)
        monkeypatch.setattr(module, "release", spied_release)
        monkeypatch.setattr(module, "next_leaves_left_out", spied_next_leaves)
    left: set[int] = set()
    at = {counts: i for i, counts in enumerate(many)}

    def one(counts):
        left.add(at[counts])
        return changes(table, counts, (CEAFE.name,))[CEAFE.name].counts()

    rows = ceaf_arrays.change_rows(table, many, CEAFE.name, one).tolist()
    monkeypatch.undo()
    n_cols = len(table.col_cells)
    for i, counts in enumerate(many):
        if i not in left:
            kind = ceaf_arrays.kind_of(counts, n_cols)
            if kind[0] == ceaf_arrays.SIZE:
                paths["size"] += 1
            else:
                paths["move from a chain" if kind[2] >= 0 else "move from none"] += 1
                paths["move to a new chain" if kind[4] >= n_cols else "move to a chain"] += 1
                if not table.row_cells[kind[1]]:
                    paths["key chain with no cell"] += 1
                if _parts_after(table, counts) == 2:
                    paths["parted"] += 1
    return paths, rows, left


def _parts_after(table, counts) -> int:
    """How many components with a cell the chains a change touches are in after it (a plain
    search over every cell: the brute force of the bridge test)."""
    cells = {(k, t): n for t, column in enumerate(table.col_cells) for k, n in column.items()}
    for cell, d in counts[0]:
        cells[cell] = cells.get(cell, 0) + d
    edges = [cell for cell, n in cells.items() if n > 0]
    near: dict[tuple[str, int], set] = {}
    for k, t in edges:
        near.setdefault(("key", k), set()).add(("response", t))
        near.setdefault(("response", t), set()).add(("key", k))
    seeds = [("key", k) for (k, _), _ in counts[0]] + [("response", t) for t, _ in counts[1]]
    seen: set = set()
    parts = 0
    for seed in seeds:
        if seed in seen or seed not in near:
            continue
        parts += 1
        todo = [seed]
        seen.add(seed)
        while todo:
            for other in near[todo.pop()]:
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
    return parts


def _documents():
    """Random documents (`test_impact_delta.random_chains`) and the hub-and-leaf shapes."""
    for seed in range(24):
        n = 10 + seed % 4 * 8
        yield (*random_pair(seed, n, n + 6), n)
    for shape in range(5):
        key_chains, response_chains = _hub_shapes(shape, 20)[shape]
        yield [_document("d", 22, key_chains)], [_document("d", 22, response_chains)], 20


def test_every_change_as_delta_gives_it_and_every_path_taken(monkeypatch) -> None:
    """Each change's row is `delta.changes`'s, float for float, on documents where every path of
    `change_rows` is taken (each counted here: none may be missing)."""
    taken: Counter = Counter()
    decided = 0
    for keys, responses, n in _documents():
        table, many, _ = _table_and_changes(keys, responses, _fixes(n, random.Random(n), 4 * n))
        paths, rows, left = _paths(table, many, monkeypatch)
        taken += paths
        decided += len(many) - len(left)
        for counts, row in zip(many, rows):
            assert row == [float(x) for x in changes(table, counts, (CEAFE.name,))[CEAFE.name].counts()], counts
    for path in ("size", "move from a chain", "move from none", "move to a new chain", "move to a chain", "star move",
                 "key chain with no cell", "star", "summed", "parted", "reseated, k2", "reseated, none",
                 "released, to a free column", "released, to none", "next leaf left out"):
        assert taken[path] > 0, (path, taken)
    assert decided > 250, decided  # of about 1,000 distinct changes


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(4, 40))
def test_any_change_of_a_random_document_as_delta_gives_it(seed: int, n: int) -> None:
    keys, responses = random_pair(seed, n, n + 6)
    table, many, _ = _table_and_changes(keys, responses, _fixes(n, random.Random(seed), 2 * n))
    rows = ceaf_arrays.change_rows(table, many, CEAFE.name,
                                   lambda counts: changes(table, counts, (CEAFE.name,))[CEAFE.name].counts())
    for counts, row in zip(many, rows.tolist()):
        assert row == [float(x) for x in changes(table, counts, (CEAFE.name,))[CEAFE.name].counts()], counts


@pytest.mark.parametrize("seed", [2, 3, 10, 15])
def test_fixes_priced_by_the_arrays_as_by_rescoring(seed: int, monkeypatch) -> None:
    """Fixes whose CEAF-e change the arrays give, priced with CoNLL and CEAF-e by `price_each` (as
    `--impact` prices them) and by scoring the corpus before and after, whole."""
    keys, responses, n = list(_documents())[seed]
    table, many, fixes = _table_and_changes(keys, responses, _fixes(n, random.Random(n), 4 * n))
    _, _, left = _paths(table, many, monkeypatch)
    chosen = [fix for i, fix in enumerate(fixes) if i not in left][:25]
    assert len(chosen) >= 20
    prepared = prepare(keys, responses)
    for metric in ("conll", CEAFE.name):
        prices = Pricer(prepared, metric, W4).price_each(0, [[fix] for fix in chosen])
        for fix, price in zip(chosen, prices):
            fixed = apply_fixes(keys[0], prepared.pairs[0].response, [fix])
            assert price == pytest.approx(full_rescore(keys, responses, 0, fixed, W4, metric), abs=1e-9), fix


SHARP = [  # (seed of the links, tokens, key chains, response chains): drawn at random, kept
    # because a wrong turn of the arrays shows here and nowhere in the documents above
    # b on a's side of the cell a link empties: the two sides are one component again
    (49, 14, [[1, 5, 7, 13], [10], [2, 9], [0, 11], [3, 4], [6, 8, 12]],
     [[7], [5], [9], [0], [3, 4, 8, 10, 11, 12], [1, 6]]),
    # a changed column's two best cells tie: the solver decides
    (20, 56, [[55], [8, 48], [36], [54], [11], [27, 32, 39], [4, 12, 38], [47], [13], [0], [7, 45], [20, 37, 40],
              [19, 33], [50, 51], [35, 53], [1, 41, 44], [49], [42], [43], [5, 14, 21], [24, 25], [31], [9, 10, 18],
              [26], [17], [15], [30], [29], [6, 34, 52], [16], [46], [3, 22, 28], [2, 23]],
     [[17, 34, 37, 55], [0, 5, 14, 24, 33, 46, 47], [9, 12, 19, 30], [1, 2, 3, 4, 20, 26, 51], [8, 22, 25, 29, 36, 41],
      [27, 39], [11, 23, 38, 43], [15, 16, 44, 49], [10], [28, 48], [13, 21, 31], [32, 40], [45]]),
    # a chain's size changed: its best key chain now is another chain's partner
    (183, 16, [[1, 4, 5, 7, 8, 10, 11], [2, 3, 12], [0, 6, 9, 13, 14, 15]],
     [[2, 5, 8, 9, 17], [7, 11], [0, 4, 10, 12, 13, 16], [3, 6, 15], [1]]),
    # a link takes b's partner from it: b's key chain before is left out
    (3, 25, [[6, 22], [5, 23], [1, 17, 19], [24], [11], [10, 18], [8], [2], [16, 21], [3, 7, 12, 15], [20],
             [0, 9, 13, 14], [4]],
     [[2], [15, 21, 22, 25, 27], [6], [0, 16], [3, 19, 20], [1, 8, 26], [23, 24], [10], [5, 11, 12, 17]]),
    # one key chain over two response chains, one of them grown by a mention the key lacks
    (15, 23, [list(range(23))], [[1, 2, 6, 8, 12, 14, 18], [0, 3, 4, 5, 9, 15, 16, 19, 20, 21]]),
    # a link lets go a key chain with a positive dual, whose other columns hold partners: each
    # one's cap is its partner's slack, not its weight (ceaf_columns.release)
    (17, 24, [[10, 11], [4, 12, 23], [1, 2, 3, 9, 16, 18], [0, 13, 15, 22], [7, 17], [5, 6, 8, 14, 19, 20, 21]],
     [[1, 6, 11, 19, 22], [10, 13, 15, 25], [3, 18, 21, 24], [2, 9], [4, 12, 17], [5, 8, 23]]),
    # a key chain that is a leaf of a response chain changes: that chain's next leaf comes in
    (1070, 30, [[0, 2, 8, 16, 22, 25, 28], [5, 6, 9, 15, 21, 23], [4, 12], [1, 7, 11, 14, 17, 27],
                [10, 13, 18, 19, 24, 29], [3, 20, 26]],
     [[21], [8, 17, 24], [14], [7, 23, 27, 30], [0, 32], [3, 4, 10, 18, 26], [5, 11, 22], [2, 28, 29], [6], [31],
      [1, 9, 13, 25]]),
]


def _every_row_as_delta_gives_it(seed: int, n: int, key_chains, response_chains) -> None:
    """Every fix of a one-document pair of n tokens (`_fixes`, 6n links drawn from seed): its row
    from `change_rows` is `delta.changes`'s, float for float."""
    keys, responses = [_document("d", n + 6, key_chains)], [_document("d", n + 6, response_chains)]
    table, many, _ = _table_and_changes(keys, responses, _fixes(n, random.Random(seed), 6 * n))
    rows = ceaf_arrays.change_rows(table, many, CEAFE.name,
                                   lambda counts: changes(table, counts, (CEAFE.name,))[CEAFE.name].counts())
    for counts, row in zip(many, rows.tolist()):
        assert row == [float(x) for x in changes(table, counts, (CEAFE.name,))[CEAFE.name].counts()], counts


@pytest.mark.parametrize("seed, n, key_chains, response_chains", SHARP)
def test_documents_where_a_wrong_turn_shows(seed: int, n: int, key_chains, response_chains) -> None:
    _every_row_as_delta_gives_it(seed, n, key_chains, response_chains)


def _hubs_both_sides(seed: int, n: int) -> tuple[list[list[int]], list[list[int]]]:
    """Key and response chains of two to four mentions over n tokens, a tenth of the mentions
    missed and a few twinless: most chains are hubs, so a fix's column takes another column's
    partner (`reseat`) or lets go a key chain with a positive dual (`release`) often."""
    rng = random.Random(seed)
    key_chains = _random_partition(rng, list(range(n)), max(1, n // rng.choice([2, 3, 4])))
    kept = [i for i in range(n) if rng.random() < 0.9] + [n + i for i in range(rng.randint(0, 2))]
    return key_chains, _random_partition(rng, kept, max(1, len(kept) // rng.choice([2, 3, 4])))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 100_000), st.integers(8, 40))
def test_columns_moved_on_and_key_chains_released_as_delta_gives_them(seed: int, n: int) -> None:
    """Documents of hubs on both sides, where the one-step augmenting paths and the released key
    chains of `ceaf_columns` are settled: every row `delta.changes`'s, float for float."""
    key_chains, response_chains = _hubs_both_sides(seed, n)
    _every_row_as_delta_gives_it(seed, n, key_chains, response_chains)


def test_a_next_leaf_within_the_duals_slack_of_the_first_goes_to_the_search() -> None:
    """Key chain k: 2 mentions in a (its first leaf column, with 56 twinless mentions), 3 in L2
    (its next, with 88), 1 in h with another key chain's 2.  k's dual before is a's weight less
    the duals' slack (1e-3), so a mention linked into a leaves k's slack in a above 0 but brings
    L2 in (`next_leaves_left_out`) with k's slack there above 0 too: L2 now beats a.  Settled
    without that test, the change priced k on a (-0.00096 against -0.00064)."""
    a, l2, h, other = [0, 1], [2, 3, 4], [5], [6, 7]
    twinless_a, twinless_l2 = list(range(8, 64)), list(range(64, 152))
    key_chains = [a + l2 + h, other]
    response_chains = [a + twinless_a, l2 + twinless_l2, h + other, [152]]
    keys, responses = [_document("d", 156, key_chains)], [_document("d", 156, response_chains)]
    fixes = [Fix(FixKind.LINK, (153, 153), (0, 0)), Fix(FixKind.LINK, (152, 152), (0, 0))]
    fixes += [Fix(kind, (i, i), None) for i in [0, 1, 2, 8, 9] for kind in (FixKind.ADD, FixKind.REMOVE, FixKind.SPLIT)]
    table, many, _ = _table_and_changes(keys, responses, fixes)
    assert (((), ((0, 1),), 0, 1)) in many  # the mention no chain held, linked into a
    rows = ceaf_arrays.change_rows(table, many, CEAFE.name,
                                   lambda counts: changes(table, counts, (CEAFE.name,))[CEAFE.name].counts())
    for counts, row in zip(many, rows.tolist()):
        assert row == [float(x) for x in changes(table, counts, (CEAFE.name,))[CEAFE.name].counts()], counts


def test_a_large_component_is_laid_out_in_batches_with_the_same_rows(monkeypatch) -> None:
    """A response chain holding one mention of each of many key chains (a system that merged
    them) makes one component of them all, and every fix on it reaches all of them: laid out at
    once, its changes' terms were (changes x key chains) floats, gigabytes on a book.  Batched
    (`TERMS_AT_ONCE`), no call lays out more than that (or one change's own), and every row is
    the float it was."""
    n = 30
    key_chains = [[3 * c, 3 * c + 1, 3 * c + 2] for c in range(n)]
    response_chains = [[3 * c for c in range(n)]] + [[3 * c + 1, 3 * c + 2] for c in range(n)]
    keys, responses = [_document("d", 3 * n + 3, key_chains)], [_document("d", 3 * n + 3, response_chains)]
    table, many, _ = _table_and_changes(keys, responses, _fixes(3 * n, random.Random(0), 40))
    laid: list[int] = []
    sorted_sums = ceaf_arrays._sorted_sums

    def spied_sums(fix, row, term, apart, n_changes):
        widest = max(Counter(fix.tolist()).values(), default=0)
        laid.append(n_changes * widest)
        return sorted_sums(fix, row, term, apart, n_changes)

    def rows(budget: int) -> list[list[float]]:
        monkeypatch.setattr(ceaf_arrays, "TERMS_AT_ONCE", budget, raising=False)
        monkeypatch.setattr(ceaf_arrays, "_sorted_sums", spied_sums)
        laid.clear()
        out = ceaf_arrays.change_rows(table, many, CEAFE.name,
                                      lambda counts: changes(table, counts, (CEAFE.name,))[CEAFE.name].counts())
        return out.tolist()

    whole = rows(10 ** 9)
    assert laid and max(laid) > 4 * n  # the component is laid out for many changes at once
    batched = rows(4 * n)
    assert max(laid) <= 4 * n  # one change's component is n key chains
    assert batched == whole


def _merged_or_split(rng: random.Random, n: int, split: bool, noise: bool = True
                     ) -> tuple[list[list[int]], list[list[int]]]:
    """A system that merged n key chains of one to three mentions into one response chain (with
    `noise`, a few mentions left out, in chains of their own, or twinless), or, `split`, the
    mirror: one key chain of them all over n response chains."""
    chains, token = [], 0
    for _ in range(n):
        size = rng.choice((1, 2, 2, 3))
        chains.append(list(range(token, token + size)))
        token += size
    merged: list[int] = []
    others: list[list[int]] = []
    for i in range(token):
        roll = rng.random() if noise else 0.0
        if roll < 0.85:
            merged.append(i)
        elif roll < 0.95:
            others.append([i])
    merged += [token + j for j in range(rng.randrange(3) if noise else 0)]  # twinless mentions
    if split:
        return [sorted(merged)] + others, chains
    return chains, [merged] + others


def _shape_changes(seed: int, n: int, split: bool, noise: bool = True):
    rng = random.Random(seed)
    key_chains, response_chains = _merged_or_split(rng, n, split, noise)
    n_tokens = max(i for chain in key_chains + response_chains for i in chain) + 4
    keys, responses = [_document("d", n_tokens, key_chains)], [_document("d", n_tokens, response_chains)]
    return _table_and_changes(keys, responses, _fixes(n_tokens - 3, rng, 3 * n))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(2, 60), st.booleans(), st.booleans())
def test_changes_of_a_merged_or_split_chain_as_delta_gives_them(seed: int, n: int, split: bool, noise: bool) -> None:
    """The shapes where one column (merged) or one key chain (split) has every cell: a column is
    judged from its best cells per size (`ceaf_columns`), a matching summed from its matched key
    chains alone, a star's best from its best two edges."""
    table, many, _ = _shape_changes(seed, n, split, noise)
    rows = ceaf_arrays.change_rows(table, many, CEAFE.name,
                                   lambda counts: changes(table, counts, (CEAFE.name,))[CEAFE.name].counts())
    for counts, row in zip(many, rows.tolist()):
        assert row == [float(x) for x in changes(table, counts, (CEAFE.name,))[CEAFE.name].counts()], counts


def test_a_fix_on_a_merged_chain_costs_what_its_matching_does(monkeypatch) -> None:
    """Every fix on a response chain that merged 400 key chains reaches all of them, but the
    matching before and after holds a few key chains: what a fix lays out for its sum is that
    few, not its component (quadratic pricing before: every fix laid out 400), and every
    column is ranked once per size, not once per fix; most changes are decided here."""
    table, many, _ = _shape_changes(7, 400, False, noise=False)
    widths: list[int] = []
    ranked: list[int] = []
    sorted_sums, column_tops = ceaf_arrays._sorted_sums, ceaf_arrays.column_tops

    def spied_sums(fix, row, term, apart, n_changes):
        widths.append(max(Counter(fix.tolist()).values(), default=0))
        return sorted_sums(fix, row, term, apart, n_changes)

    def spied_tops(arrays, cols, sizes):
        ranked.append(len(set(zip(cols.tolist(), sizes.tolist()))))
        return column_tops(arrays, cols, sizes)

    monkeypatch.setattr(ceaf_arrays, "_sorted_sums", spied_sums)
    monkeypatch.setattr(ceaf_arrays, "column_tops", spied_tops)
    left: list = []

    def one(counts):
        left.append(counts)
        return changes(table, counts, (CEAFE.name,))[CEAFE.name].counts()

    ceaf_arrays.change_rows(table, many, CEAFE.name, one)
    assert len(many) > 400 and len(left) < len(many) / 4, (len(left), len(many))
    assert widths and max(widths) <= 6, widths
    assert sum(ranked) < len(many) / 4, (sum(ranked), len(many))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(2, 40), st.sampled_from(["random", "merged", "split"]))
def test_stars_certified_at_once_as_their_edges_prove(seed: int, n: int, shape: str) -> None:
    """`TableArrays._certify_stars`, against each star's edges in Python: a star on one key chain
    is certified when its best edge beats the second by 2 MARGIN (or is alone), matched to it
    with the dual halfway between the two (0 alone), a proof `best_matching.certified` accepts;
    a star on one response chain matches its first best leaf, dual 0."""
    if shape == "random":
        keys, responses = random_pair(seed, n, n + 6)
        table = _table_and_changes(keys, responses, [])[0]
    else:
        table = _shape_changes(seed, n, shape == "split")[0]
    _check_stars(table)  # a document may hold no star (noise joins the shapes' chains to others)


@pytest.mark.parametrize("split", [False, True])
def test_a_pure_merged_or_split_chain_is_one_star_certified(split: bool) -> None:
    """The star check above is not vacuous: each pure shape is a star it checks."""
    assert _check_stars(_shape_changes(7, 40, split, noise=False)[0]) == 1


def _check_stars(table) -> int:
    """Checks each star of the table's components as the test above says; how many it checked."""
    arrays = table.arrays()
    components = np.unique(arrays.root_row[np.diff(arrays.row_ptr) > 0])
    arrays.certify(components, CEAFE.name)
    checked = 0
    for c in components.tolist():
        members = arrays.members_of(c)
        edges = {(k, t): 2.0 * n / (table.key_sizes[k] + table.col_sizes[t])
                 for k in members for t, n in table.row_cells[k].items()}
        if len(members) == 1:
            (k,) = members
            ranked = sorted(edges.values(), reverse=True) + [-np.inf]
            assert arrays.certified[c] == (len(edges) == 1 or ranked[0] - ranked[1] >= 2 * MARGIN)
            checked += 1
            if not arrays.certified[c]:
                continue
            (best,) = [cell for cell, w in edges.items() if w == ranked[0]]
            assert arrays.dual[k] == (0.0 if len(edges) == 1 else (ranked[0] + ranked[1]) / 2)
            assert certified(list(edges), edges, {k: arrays.dual[k]}) == {k: ranked[0]}
        elif len({t for _, t in edges}) == 1:
            (t,) = {t for _, t in edges}
            leaf = table.leaves(CEAFE.name).col_leaves(t, table.col_sizes[t])[0]
            assert arrays.certified[c] and all(arrays.dual[k] == 0.0 for k in members)
            checked += 1
            best = (leaf, t)
        else:
            continue
        k, t = best
        assert (arrays.partner_of_row[k], arrays.partner_of_col[t], arrays.weight[k]) == (t, k, edges[best])
    return checked


def test_a_change_is_decided_alike_on_a_fresh_table_and_a_certified_one() -> None:
    """The columns a change judges are judged by their key chains' duals, found when a
    component is first certified: judged before (duals still 0), a size change was sent to the
    search on a fresh table and decided on a certified one (384 of the corpus's changes)."""
    for keys, responses, n in _documents():
        fresh, many, _ = _table_and_changes(keys, responses, _fixes(n, random.Random(n), 4 * n))
        certified_first, _, _ = _table_and_changes(keys, responses, [])
        arrays = certified_first.arrays()
        arrays.certify(np.unique(arrays.root_row[np.diff(arrays.row_ptr) > 0]), CEAFE.name)
        left: list[list] = [[], []]
        for table, sent in zip((fresh, certified_first), left):
            ceaf_arrays.change_rows(table, many, CEAFE.name,
                                    lambda counts, table=table, sent=sent: sent.append(counts)
                                    or changes(table, counts, (CEAFE.name,))[CEAFE.name].counts())
        assert left[0] == left[1]

"""The best matching of one connected component of CEAF's overlap graph, as a fix's change needs it.

Why its own module: metrics.errors.delta re-solves, for every fix, the components the fix reaches,
and most of them leave no real choice.  The figures are compared with the solver's to the last
bit, so every shortcut here gives a total only when the best matching is unique (then it is the
solver's), summed as the solver's total is summed: its pairs' weights in key-chain order (a pair
the solver adds with weight 0 changes no float).  Anything else goes to the solver
(`metrics.measures.assignment.sparse_assignment`), exactly as before.

The shortcuts, cheapest first: a component of at most two edges or a star (`at_most_one_choice`);
every chain of the smaller side with its own strictly best partner (`no_choice`); and a dual
certificate (`certified`): a fix changes a few chains of a component the engine has already
solved, and the key chains' dual values of that solution (`row_duals`) usually still prove which
matching is best after the change.  Given any u >= 0 on the key chains, v_t = max(0, max_k w_kt -
u_k) on the response chains is a feasible dual; if each response chain's best k is clear (by
MARGIN) and no two chains share it, those edges M are the only tight ones, every chain with a
positive dual is in M, and M is optimal with every other matching at least MARGIN worse: the
solver, whose rounding is far below MARGIN, finds M.  (Duals: a chain's matched edge w = u + v,
any edge w <= u + v, a chain left out has 0; Kuhn 1955.)
Where the duals before a change fail (two response chains want one key chain, or a key chain with
a positive dual is left out), `repaired` moves a few key chains' duals and `certified` judges again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from metrics.measures.assignment import sparse_assignment

Cell = tuple[int, int]
"""(key chain, response chain): an edge of the overlap graph."""

MARGIN = 1e-9
"""How much better the certified matching must be than any other: far above the solver's rounding
(CEAF's weights are at most the mentions of a chain), far below any real difference of CEAF-e's
weights (2n / (|K| + |R|), differences of at least 1 / (|K| + |R|)^2)."""


def at_most_one_choice(edges: dict[Cell, float]) -> float | int | None:
    """The best matching's total when the edges are two or fewer, or a star (every edge on one
    chain), as `metrics.errors.delta` sums its components (`sum` starts from the integer 0,
    components in the order of their first edge: the sum's rounding is part of the figures); None
    otherwise.  Most fixes reach no more."""
    if len(edges) <= 2:
        if not edges:
            return 0
        cells = list(edges)
        if len(cells) == 1:
            return 0 + edges[cells[0]]
        (k1, t1), (k2, t2) = cells
        if k1 == k2 or t1 == t2:
            return 0 + max(edges.values())
        return 0 + edges[cells[0]] + edges[cells[1]]
    rows = {k for k, _ in edges}
    if len(rows) == 1 or len({t for _, t in edges}) == 1:
        return 0 + max(edges.values())
    return None


def best_total(cells: list[Cell], edges: dict[Cell, float],
               row_duals: Callable[[Iterable[int]], Mapping[int, float]] | None = None) -> float:
    """The best matching's total over one component's cells, as the solver sums it.  With
    `row_duals` (the key chains' dual values of the component before a change), a certified
    matching spares the solver."""
    row_set = {k for k, _ in cells}
    col_set = {t for _, t in cells}
    if len(row_set) == 1 or len(col_set) == 1:
        return max(edges[cell] for cell in cells)
    unique = no_choice(cells, edges, len(row_set) <= len(col_set))
    if unique is None and row_duals is not None:
        duals = row_duals(row_set)
        unique = certified(cells, edges, duals)
        if unique is None:
            unique = repaired(cells, edges, {k: duals.get(k, 0.0) for k in row_set})
    if unique is not None:
        return sum(unique[k] for k in sorted(unique))
    # only the solver needs the chains in order (the shortcuts above read sets)
    rows, cols = sorted(row_set), sorted(col_set)
    at_row = {k: i for i, k in enumerate(rows)}
    at_col = {t: j for j, t in enumerate(cols)}
    weights = {(at_row[k], at_col[t]): edges[(k, t)] for k, t in cells}
    return sum(weights.get(pair, 0.0) for pair in sparse_assignment(len(rows), len(cols), weights))


def no_choice(cells: list[Cell], edges: dict[Cell, float], by_row: bool) -> dict[int, float] | None:
    """The best matching of a component when it leaves no real choice: each chain of the smaller
    side (key chains when `by_row`) has one strictly best edge and no two of them share a partner.
    Every chain of that side then gets its best, which no other matching reaches, so this is the
    solver's unique optimum: the weight of each assigned key chain, by key chain.  None otherwise
    (a tie, or two chains wanting one partner)."""
    best: dict[int, tuple[float, int, int]] = {}  # chain -> (weight, partner, key chain)
    tied: set[int] = set()
    for k, t in cells:
        w = edges[(k, t)]
        chain, partner = (k, t) if by_row else (t, k)
        known = best.get(chain)
        if known is None or w > known[0]:
            best[chain] = (w, partner, k)
            tied.discard(chain)
        elif w == known[0]:
            tied.add(chain)
    if tied:
        return None
    partners = {partner for _, partner, _ in best.values()}
    if len(partners) != len(best):
        return None
    return {k: w for w, _, k in best.values()}


def certified(cells: list[Cell], edges: dict[Cell, float], row_duals: Mapping[int, float]) -> dict[int, float] | None:
    """The unique best matching's weight of each matched key chain, when the key chains' duals
    (absent: 0) prove it (the module's docstring); None when they do not (the solver decides)."""
    best: dict[int, list] = {}  # response chain -> [best w - u, its key chain, second best w - u]
    for k, t in cells:
        slack = edges[(k, t)] - row_duals.get(k, 0.0)
        known = best.get(t)
        if known is None:
            best[t] = [slack, k, float("-inf")]
        elif slack > known[0]:
            known[2], known[0], known[1] = known[0], slack, k
        elif slack > known[2]:
            known[2] = slack
    matched: dict[int, float] = {}
    for t, (top, k, second) in best.items():
        if top <= -MARGIN:
            continue  # t's dual is 0 and every edge of t slack: t is left out
        if top < MARGIN:
            return None  # t's dual is 0 with an edge (nearly) tight: undecided
        if top - second < MARGIN:
            return None  # two key chains (nearly) tie for t
        if k in matched:
            return None  # two response chains want one key chain
        matched[k] = edges[(k, t)]
    for k, _ in cells:
        u = row_duals.get(k, 0.0)
        if u < 0.0 or (u != 0.0 and k not in matched):
            return None  # a key chain with a positive dual must be matched
    return matched


REPAIRS = 3
"""Rounds of mending the duals before a change (`repaired`) before the solver decides."""


def repaired(cells: list[Cell], edges: dict[Cell, float], duals: dict[int, float]) -> dict[int, float] | None:
    """`certified` with duals mended where the ones before a change fail in a way moving a few
    key chains' duals fixes (`duals`, every key chain of the cells, is changed in place); None when
    REPAIRS rounds do not make them certify (the solver decides).

    Why: a fix often makes two response chains want the key chain that one of them had, or leaves
    unmatched a key chain whose dual is positive; the solver then ran on a component that still
    has a unique best.  Any duals u >= 0 prove what they prove (the module's docstring), so each
    round only proposes, and `certified` judges.  Where response chains want one key chain, the
    one that leads most (best slack minus second) keeps it and the others are sent to their second
    key chain: by raising the wanted chain's dual past their leads (below the keeper's lead and
    slack), or else by lowering each one's second key chain's dual (halfway between its lead and
    the dual, which stays positive).  A key chain with a positive dual that no response chain
    wants drops to 0."""
    for _ in range(REPAIRS):
        best: dict[int, list] = {}  # response chain -> [best w - u, its key chain, second best w - u, its key chain]
        for k, t in cells:
            slack = edges[(k, t)] - duals[k]
            known = best.get(t)
            if known is None:
                best[t] = [slack, k, float("-inf"), None]
            elif slack > known[0]:
                known[2], known[3], known[0], known[1] = known[0], known[1], slack, k
            elif slack > known[2]:
                known[2], known[3] = slack, k
        wanted: dict[int, list[tuple[float, float, int | None]]] = {}  # key chain -> (lead, slack, second) of each chain wanting it
        for top, k, second, runner_up in best.values():
            if top <= -MARGIN:
                continue
            if top < MARGIN or top - second < MARGIN:
                return None  # a tie the duals cannot break by moving one key chain's dual
            wanted.setdefault(k, []).append((top - second, top, runner_up))
        for k, bids in wanted.items():
            if len(bids) > 1:
                bids.sort(key=lambda bid: bid[0])
                keeper_lead, keeper_slack, _ = bids[-1]
                low, high = bids[-2][0], min(keeper_lead, keeper_slack)
                if high - low >= 4 * MARGIN:
                    duals[k] += (low + high) / 2
                    continue
                for lead, _, runner_up in bids[:-1]:
                    if runner_up is None or duals[runner_up] - lead < 4 * MARGIN:
                        return None
                    duals[runner_up] -= (lead + duals[runner_up]) / 2
        for k in duals:
            if duals[k] > 0.0 and k not in wanted:
                duals[k] = 0.0
        found = certified(cells, edges, duals)
        if found is not None:
            return found
    return None


SLACKS = (1e-3, 1e-6, 4 * MARGIN)
"""The slack `matching_duals` asks of every edge left out of the matching, largest first: the more
slack, the larger the changes the duals still certify."""


def matching_duals(cells: list[Cell], edges: dict[Cell, float]) -> dict[int, float] | None:
    """The key chains' dual values of a component's best matching M that leave every other edge
    slack (by the first of SLACKS that can be had) and every response chain of M a positive dual,
    or None when none can (a tie: the solver decides whatever changes).

    The duals are the largest solution of difference constraints over M (a key chain's u and a
    response chain's v at least 0, u + v >= w + slack on each edge not in M, = w on M's, v >= slack
    on M's response chains, 0 for a chain left out), shortest distances from a zero node found by
    Bellman-Ford: constraints that cannot all hold make a negative cycle."""
    rows = sorted({k for k, _ in cells})
    cols = sorted({t for _, t in cells})
    at_row = {k: i for i, k in enumerate(rows)}
    at_col = {t: j for j, t in enumerate(cols)}
    weights = {(at_row[k], at_col[t]): edges[(k, t)] for k, t in cells}
    pairs = {(r, c) for r, c in sparse_assignment(len(rows), len(cols), weights) if (r, c) in weights}
    # nodes: 0 the zero node, 1 + r a key chain's u, 1 + len(rows) + c minus a response chain's v
    n_rows = len(rows)
    matched_rows = {r for r, _ in pairs}
    matched_cols = {c for _, c in pairs}
    for slack in SLACKS:
        arcs: list[tuple[int, int, float]] = []  # (a, b, c): p_b <= p_a + c
        for r in range(n_rows):
            arcs.append((1 + r, 0, 0.0))  # u >= 0
            if r not in matched_rows:
                arcs.append((0, 1 + r, 0.0))  # u <= 0
        for c in range(len(cols)):
            if c in matched_cols:
                arcs.append((0, 1 + n_rows + c, -slack))  # v >= slack
            else:
                arcs.append((0, 1 + n_rows + c, 0.0))  # v >= 0
                arcs.append((1 + n_rows + c, 0, 0.0))  # v <= 0
        for (r, c), w in weights.items():
            if (r, c) in pairs:
                arcs.append((1 + r, 1 + n_rows + c, -w))  # u + v >= w
                arcs.append((1 + n_rows + c, 1 + r, w))  # u + v <= w
            else:
                arcs.append((1 + r, 1 + n_rows + c, -(w + slack)))  # u + v >= w + slack
        distance = _shortest(1 + n_rows + len(cols), arcs)
        if distance is not None:
            return {k: distance[1 + r] for r, k in enumerate(rows)}
    return None


def _shortest(n_nodes: int, arcs: list[tuple[int, int, float]]) -> list[float] | None:
    """Shortest distances from node 0 (Bellman-Ford), or None if they do not settle in n passes
    (a negative cycle: the constraints cannot all hold)."""
    distance = [float("inf")] * n_nodes
    distance[0] = 0.0
    for _ in range(n_nodes + 1):
        changed = False
        for a, b, c in arcs:
            through = distance[a] + c
            if through < distance[b]:
                distance[b] = through
                changed = True
        if not changed:
            return distance if distance[0] == 0.0 else None
    return None

"""The walk over a CoNLL parse column, one document and one token at a time, with Collins's rules
applied to each constituent's children as a tuple (`_head_child`): what the product did before it
took the trees of all documents at once as arrays (`heads_parse.parse_dependencies`), kept as the
brute force the tests check it against (`test_parse_heads.py`).
"""

from __future__ import annotations

from functools import lru_cache

from metrics.mentions.heads_parse import _NP_LIKE, _NP_RULES, _RULES, _parse_bit


@lru_cache(maxsize=65536)
def _head_child(base: str, children: tuple[str, ...]) -> int:
    """Index of the head child of a constituent, by Collins's rules; labels are base labels.

    Memoised: a treebank repeats a few thousand (label, children) patterns (NP -> DT NN ...), so
    most constituents of a document cost a dictionary look-up.
    """
    n = len(children)
    if base in _NP_LIKE:
        if children[-1] == "POS":
            return n - 1
        for direction, categories in _NP_RULES:
            order = range(n) if direction == "left" else range(n - 1, -1, -1)
            if not categories:
                return order[0]
            # Collins NP: the first child, in direction, of ANY of the categories.
            for i in order:
                if children[i] in categories:
                    return i
        return n - 1
    rules = _RULES.get(base, [("left", ())])
    for direction, categories in rules:
        order = range(n) if direction == "left" else range(n - 1, -1, -1)
        if not categories:
            return order[0]
        # Other rules: for each category in priority order, the first child (in direction) of it.
        for category in categories:
            for i in order:
                if children[i] == category:
                    return i
    return 0 if rules[-1][0] == "left" else n - 1


def dependencies_from_parse(parse: list[str], pos: list[str] | None) -> list[int] | None:
    """Token -> head token (-1 for the head of a tree), by head percolation over the trees of the
    CoNLL parse bits, in one pass.  None when the column is malformed (then another source is used).

    Each open constituent is a frame (base label, child labels, child head tokens); when it
    closes, its head child is chosen, the other children's heads attach to it, and the frame
    becomes a child of the enclosing one.
    """
    heads = [-1] * len(parse)
    tags = pos if pos is not None else ["X"] * len(parse)
    stack: list[tuple[str, list[str], list[int]]] = []
    for token, bit in enumerate(parse):
        parsed = _parse_bit(bit)
        if parsed is None:
            return None
        opened, n_close = parsed
        for base in opened:
            stack.append((base, [], []))
        if stack:
            stack[-1][1].append(tags[token])
            stack[-1][2].append(token)
        for _ in range(n_close):
            if not stack:
                return None
            base, child_labels, child_heads = stack.pop()
            h = child_heads[_head_child(base, tuple(child_labels))]
            for child in child_heads:
                if child != h:
                    heads[child] = h
            if stack:
                stack[-1][1].append(base)
                stack[-1][2].append(h)
    if stack:
        return None
    return heads

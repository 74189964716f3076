"""The walk over a CoNLL parse column that `heads._dependencies_from_parse` was before it read each
distinct bit once and took the plain `*` bits in a step of their own, kept as the brute force the
tests check it against (`test_parse_heads.py`).
"""

from __future__ import annotations

from metrics.mentions.heads import _head_child, _parse_bit


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

"""A mention's head as udapi's `corefud.MoveHead` block chooses it on a dependency tree.

Why: the CRAC 2025 LLM track's pipeline (text2text-coref's `text2conllu`) builds each mention of a
model's output on the key's tree and lets MoveHead choose its head; corefud-scorer's head match
then compares those heads.  To give the pipeline's numbers without udapi, the same choice is made
here, step by step as MoveHead makes it (udapi 0.5.2, read for the rules):

1. A one-node mention keeps its head.
2. The *basic heads* are the mention's nodes whose basic parent is outside the mention (an empty
   node has no basic parent, so it is always one).  One: it is the head.
3. Of those, the ones none of whose enhanced parents is inside the mention; if none, the ones
   not all of whose enhanced parents are inside; if still none, the mention keeps its head.  One:
   it is the head.
4. Each empty node among them stands for its first non-empty enhanced parent.  If the lowest
   node governing all of them (`common_treelet_root`, with udapi's own climbing order) is one
   of the candidates, it is the head.
5. Else the mention keeps its head if that is a candidate, else the first candidate.

Nodes are `metrics.model.Node` tuples; a sentence's root is `(s, 0, 0)`, an empty node has a
non-zero third field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from metrics.model import Node


@dataclass(frozen=True)
class Tree:
    """What MoveHead reads of a document's trees.

    `parent` is each word's basic parent (its sentence's root for HEAD 0); empty nodes and roots
    have none.  `eparents` is each node's enhanced parents as MoveHead takes them: its DEPS
    parents, or its basic parent when DEPS is `_`.  `deps_parents` is each empty node's DEPS
    parents, in the file's order.
    """

    parent: Mapping[Node, Node]
    eparents: Mapping[Node, Sequence[Node]]
    deps_parents: Mapping[Node, Sequence[Node]]


def is_empty(node: Node) -> bool:
    return node[2] != 0


def common_treelet_root(nodes: Sequence[Node], parent: Mapping[Node, Node]) -> Node:
    """The root of the smallest subtree holding `nodes`, found as udapi finds it: every node
    climbs one step in turn (a queue), a climber meeting a node already reached merges into it,
    and the last climber (or the sentence's root, once a climber reaches it) is walked back down
    along the recorded steps to the first node known to be inside.  Its order of climbing is
    kept on purpose: with three or more nodes it can differ from the lowest common ancestor."""
    reached: dict[Node, Node | bool] = {node: True for node in nodes}
    queue = list(nodes)
    top: Node | None = None
    while len(queue) > 1:
        node = queue.pop(0)
        up = parent.get(node)
        if up is None:
            top = node
        elif reached.get(up, False):
            reached[up] = True
        else:
            reached[up] = node
            queue.append(up)
    top = top if top is not None else queue[0]
    step = reached[top]
    while step is not True:
        assert not isinstance(step, bool)
        top = step
        step = reached[top]
    return top


def move_head(nodes: Sequence[Node], head: Node, tree: Tree) -> Node:
    """The head MoveHead gives a mention of these nodes (in text order) whose head is `head`."""
    if len(nodes) < 2:
        return head
    inside = set(nodes)
    basic = [n for n in nodes if parent_outside(n, inside, tree)]
    if len(basic) == 1:
        return basic[0]
    candidates = [n for n in basic if not any(p in inside for p in tree.eparents.get(n, ()))]
    if not candidates:
        candidates = [n for n in basic if not all(p in inside for p in tree.eparents.get(n, ()))]
        if not candidates:
            return head
    if len(candidates) == 1:
        return candidates[0]
    words = [n for n in candidates if not is_empty(n)]
    empties = [n for n in candidates if is_empty(n)]
    if empties:
        for empty in empties:
            above = [p for p in tree.deps_parents.get(empty, ()) if not is_empty(p)]
            if above and above[0] not in words:
                words.append(above[0])
        words.sort()
    if words:
        top = common_treelet_root(words, tree.parent)
        if top in candidates:
            return top
    return head if head in candidates else candidates[0]


def parent_outside(node: Node, inside: set[Node], tree: Tree) -> bool:
    """Is the node a basic head of the mention: no basic parent, or one outside it?"""
    up = tree.parent.get(node)
    return up is None or up not in inside

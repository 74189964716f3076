"""The key's own empty nodes as the CRAC LLM pipeline keeps them with `-z` (text2text-coref's
`clean -z` then `text2conllu -z`, read for the rules; our own code).

Why a mode of its own: with `-z` the pipeline does not make empty nodes from the output's `##`
tokens.  `clean -z` aligns the output against the key's words *and* empty nodes (each empty node
as its form, in the file's order; a `##` token costs like any word), so the cleaned line has one
token per key node.  `text2conllu -z` then keeps the key's empty nodes, moves each next to its
enhanced parent (as udapi's `create_empty_child` numbers a new one: the parent's ord plus 0.1,
past the empty nodes already there, or the ord of an empty parent plus 0.1; the old one removed,
which renumbers the empty nodes after it down by 0.1), and lays the cleaned tokens on the nodes *by position in that new order*.  Where a
move reorders the nodes, the tokens' marks land on the neighbouring nodes: the pipeline's numbers
come from that, so ours do too.

`GoldNodes` holds the nodes in that order with the ids the written CoNLL-U gives them, the tree
MoveHead reads, and each node's DEPS as written.  A key the pipeline cannot handle (an empty node
without an enhanced parent; a move that writes an id CoNLL-U cannot hold, as 17.200000000000003
for a node put after the empty node 17.1) is a located error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from metrics.formats.crac_key import Deps, KeyDocument
from metrics.formats.crac_writer import key_tree, single_parent
from metrics.mentions.movehead import Tree
from metrics.model import InputError, Node

_EMPTY_ORD = re.compile(r"^([0-9]+)\.([1-9])$")


@dataclass
class GoldNodes:
    """A key document's nodes as `text2conllu -z` orders and numbers them."""

    nodes: list[Node]
    """Words and empty nodes in the written file's order, with its ids."""
    tree: Tree
    """What MoveHead reads: basic parents, enhanced parents, the empty nodes' DEPS parents."""
    deps: dict[Node, Deps]
    """Each node's DEPS as written: sorted, each once; a word's dependencies on a moved empty node gone."""
    forms: list[str]
    """Each node's form (udapi's), in that order."""
    moved: int
    """Empty nodes moved next to their parents."""
    shifted: int
    """Positions whose node the moves changed: the cleaned tokens there land on another node."""


def gold_nodes(key: KeyDocument, path: str, line: int) -> GoldNodes:
    """The key's nodes after `text2conllu -z` moved its empty nodes (see the module's text)."""
    tree = key_tree(key)
    parents = single_parent(key, tree)
    ord_of: dict[Node, float] = {e: float(f"{e[1]}.{e[2]}") for e in key.empties}
    live: dict[int, list[Node]] = {}
    for empty in key.empties:
        live.setdefault(empty[0], []).append(empty)
    moved: set[Node] = set()
    for empty in key.empties:
        parent = next(iter(parents.get(empty, ())), None)
        where = f"document {key.name!r}, empty node {empty[1]}.{empty[2]} of sentence {empty[0]}"
        if parent is None:
            raise InputError(path, line, f"{where} has no enhanced parent: text2conllu -z stops on it")
        siblings = live[empty[0]]
        base = ord_of[parent] if parent[2] else parent[1]  # an empty parent: where it stands now
        if int(ord_of[empty]) == base:
            continue
        old = ord_of[empty]
        if base == 0:  # the root makes the new node at 0.1, plus 0.1 for each one already there
            new = 0.1
            for other in siblings:
                if int(ord_of[other]) == 0:
                    new += 0.1
        else:
            new = base + 0.1
            for other in sorted(siblings, key=ord_of.__getitem__):
                if ord_of[other] > new:
                    break
                if ord_of[other] == new:
                    if new == base + 0.9:
                        raise InputError(path, line, f"{where}: a tenth empty node after one word (x.10): not handled")
                    new = round(new + 0.1, 1)
        ord_of[empty] = new
        moved.add(empty)
        for other in siblings:  # removing the old node renumbers those in (old, old + 1), the new one included
            if old < ord_of[other] < old + 1:
                ord_of[other] = round(ord_of[other] - 0.1, 1)
    renamed: dict[Node, Node] = {}
    for empty in key.empties:
        written = _EMPTY_ORD.match(str(ord_of[empty]))
        if not written:
            raise InputError(path, line, f"document {key.name!r}: text2conllu -z numbers empty node "
                                         f"{empty[1]}.{empty[2]} of sentence {empty[0]} {ord_of[empty]}, which CoNLL-U "
                                         f"cannot hold")
        renamed[empty] = (empty[0], int(written.group(1)), int(written.group(2)))
    if len(set(renamed.values())) != len(renamed):
        raise InputError(path, line, f"document {key.name!r}: text2conllu -z gives two empty nodes one id")
    order = {node: float(node[1]) for node in key.words}
    order.update(ord_of)
    nodes = sorted([*key.words, *key.empties], key=lambda n: (n[0], order[n]))
    forms = dict(zip(key.words, key.forms)) | key.empty_forms
    return GoldNodes([renamed.get(n, n) for n in nodes], *_tree_and_deps(key, tree, parents, renamed, moved),
                     [forms[n] for n in nodes], len(moved), sum(a != b for a, b in zip(nodes, sorted(nodes))))


def _tree_and_deps(key: KeyDocument, tree: Tree, parents: dict[Node, list[Node]], renamed: dict[Node, Node],
                   moved: set[Node]) -> tuple[Tree, dict[Node, Deps]]:
    """MoveHead's tree and the written DEPS in the new ids: an empty node keeps the dependencies
    SingleParent left it (the moved one's copied to its new node); a word loses those on a moved
    empty node (udapi removes the old node from every DEPS)."""
    def name(node: Node) -> Node:
        return renamed.get(node, node)

    eparents: dict[Node, tuple[Node, ...]] = {}
    deps_parents: dict[Node, tuple[Node, ...]] = {}
    written: dict[Node, Deps] = {}
    for node in key.words:
        deps = key.deps.get(node)
        if deps is None:
            eparents[node] = (key.parent[node],)
            written[node] = ()
            continue
        kept = [(name(p), r) for p, r in deps if p not in moved]
        eparents[node] = tuple(p for p, _ in kept)
        written[node] = tuple(sorted(set(kept)))
    for empty in key.empties:
        keep = set(parents.get(empty, ()))
        kept = [(name(p), r) for p, r in key.deps.get(empty) or () if p in keep]
        eparents[name(empty)] = deps_parents[name(empty)] = tuple(p for p, _ in kept)
        written[name(empty)] = tuple(sorted(set(kept)))
    return Tree(tree.parent, eparents, deps_parents), written

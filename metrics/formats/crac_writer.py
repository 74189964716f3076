"""A CoNLL-U key written in the CRAC LLM track's inline format, as text2text-coref's `conllu2text`
writes it (read for the rules; our own code), or in its JSON form.

Why exactly its way: a model is trained and prompted on what `conllu2text` writes, and the gold
written this way is the first check of the whole pipeline (it must score 100).  What it does:

- Each key mention's head is udapi's MoveHead's (`metrics.mentions.movehead`) on the key's tree,
  its empty nodes included.  A discontinuous mention is cut to the part that holds its head.
- With zeros (`zero_mentions`), each empty node moves next to its first enhanced parent (after
  udapi's SingleParent kept the highest one), after the empty nodes already there, and is written
  `##` plus its form (`##` alone for `_`).  A mention that the move makes discontinuous is cut as
  above.  Without zeros, empty nodes are not written, nor any mark that only they carry.
- A word's marks are `[ID` (a mention starts), `ID]` (ends), `[ID]` (both), sorted as strings.
- IDs are the key's as udapi names them (GUM's document-level `GRP` ids become `d1.2`), or with
  `sequential_ids` e1, e2 ... per document.  text2text-coref numbers them in the order of a Python
  set, which changes from run to run; here they are numbered by first appearance (an entity's
  first word; on one word, the longer mention first), the same every time.
"""

from __future__ import annotations

import json

from metrics.formats.crac_key import KeyDocument
from metrics.mentions.movehead import Tree, common_treelet_root, move_head
from metrics.mentions.realign import gives_marks
from metrics.model import InputError, Node, NodeDocument


def write_text(keys: list[NodeDocument], skeleton: list[KeyDocument], blind: bool = False,
               sequential_ids: bool = False, zero_mentions: bool = False, *, path: str = "") -> str:
    """The inline format, one line per document.  A word the format cannot hold (`unwritable`) is
    refused with its line in the key (`path`): written, it was read back as other words or marks."""
    lines = []
    for number, (key, doc) in enumerate(zip(keys, skeleton), 1):
        nodes, marks = _marks(key, doc, number, sequential_ids, zero_mentions)
        words = []
        forms, lines_of = dict(zip(doc.words, doc.forms)), dict(zip(doc.words, doc.word_lines))
        for node, word in zip(nodes, _tokens(doc, nodes)):
            marked = bool(marks.get(node)) and not blind
            form = doc.empty_forms[node] if node[2] else forms[node]
            why = unwritable(form, marked, empty_node=bool(node[2]))
            if why is not None:
                kind = "empty node" if node[2] else "word"
                raise InputError(path, lines_of.get(node), f"document {doc.name!r}: the {kind} {form!r} {why}; "
                                                           f"crac-text has no escape")
            words.append(f"{word}|{','.join(sorted(marks[node]))}" if marked else word)
        lines.append(" ".join(words) + "\n")
    return "".join(lines)


def write_json(keys: list[NodeDocument], skeleton: list[KeyDocument], blind: bool = False,
               zero_mentions: bool = False) -> str:
    """The JSON form: `doc_id`, `tokens`, and unless blind `clusters_token_offsets` (inclusive
    offsets into `tokens`, one list per entity, a discontinuous mention cut as in the text form)
    with `clusters_text_mentions`.  A mention whose first or last node is not written (an empty
    node, without zeros) is left out."""
    out = []
    for number, (key, doc) in enumerate(zip(keys, skeleton), 1):
        layout = _Layout(key, doc, number, zero_mentions)
        index = {node: i for i, node in enumerate(layout.written)}
        tokens = _tokens(doc, layout.written)
        record: dict = {"doc_id": key.name, "tokens": tokens}
        if not blind:
            clusters: dict[str, list[tuple[int, int]]] = {}
            for m, name in enumerate(layout.names):
                layout.cut(m)
                first, last = layout.nodes[m][0], layout.nodes[m][-1]
                spans = clusters.setdefault(name, [])
                if first in index and last in index:
                    spans.append((index[first], index[last]))
            kept = [spans for spans in clusters.values() if spans]
            record["clusters_token_offsets"] = [[list(s) for s in spans] for spans in kept]
            record["clusters_text_mentions"] = [[" ".join(tokens[a:b + 1]) for a, b in spans] for spans in kept]
        out.append(record)
    return json.dumps(out, ensure_ascii=False, indent=1) + "\n"


def unwritable(form: str, marked: bool, empty_node: bool = False) -> str | None:
    """Why a key form cannot be written in the inline text without changing what is read back, or
    None.  The reader splits a line at whitespace (a space `conllu2text` writes `_`), cuts a
    token's marks at its first `|`, compares the rest with the key's form cut at its first
    whitespace (a word that differs is replaced, its marks dropped), and takes a token starting
    with `##` for an empty-node slot.  So a word with `|` or a space is written as `conllu2text`
    writes it while it has no marks (GUM has `|`: read back as the key's word, with the
    pipeline's warnings), and refused when it has some, or when its own text would be read as a
    mark (`x|[e1]`).  `marked`: the word is written with marks.  An empty node's form (after its
    `##`) may be `_`: nothing."""
    if empty_node and form == "_":
        return None
    if not form:
        return "is empty"
    if len(form.replace(" ", "_").split()) != 1:
        return "holds whitespace that splits a line"
    if form.startswith("##") and not empty_node:
        return "starts with '##', which marks an empty-node slot"
    if marked and ("|" in form or " " in form):
        return "holds '|' or a space and has marks, which reading it back would drop"
    if not marked and gives_marks(form.replace(" ", "_")):
        return "would be read back as a mention's mark"
    return None


def _tokens(doc: KeyDocument, nodes: list[Node]) -> list[str]:
    """Words as written (a space in a form becomes `_`); an empty node as `##` and its form."""
    forms = dict(zip(doc.words, doc.forms))
    out = []
    for node in nodes:
        if node[2]:
            form = doc.empty_forms[node].replace(" ", "_")
            out.append("##" + (form if form != "_" else ""))
        else:
            out.append(forms[node].replace(" ", "_"))
    return out


class _Layout:
    """A document's written nodes in order with udapi's ords, and its mentions (node lists, by
    index, each entity's name beside it) as the writer cuts them."""

    def __init__(self, key: NodeDocument, doc: KeyDocument, number: int, zero_mentions: bool) -> None:
        tree = key_tree(doc)
        if zero_mentions:
            self.ordered, self.ord_of = _moved(doc, tree)
        else:
            self.ordered = sorted([*doc.words, *doc.empties])
            self.ord_of = {n: float(f"{n[1]}.{n[2]}") if n[2] else float(n[1]) for n in self.ordered}
        self.written = self.ordered if zero_mentions else [n for n in self.ordered if not n[2]]
        self.rank = {node: i for i, node in enumerate(self.ordered)}
        self.sentence_nodes: dict[int, list[Node]] = {}
        for node in self.ordered:
            self.sentence_nodes.setdefault(node[0], []).append(node)
        self.names: list[str] = []
        self.nodes: list[list[Node]] = []
        self.heads: list[Node] = []
        for eid, mentions in key.entities:
            for mention in mentions:
                self.names.append(f"d{number}.{eid}" if doc.document_ids else eid)
                self.nodes.append(sorted(mention.nodes, key=self.rank.__getitem__))
                self.heads.append(move_head(mention.nodes, mention.head, tree))

    def cut(self, index: int) -> bool:
        """Cut a mention whose nodes are not one run (in its sentence's order) to the nodes whose
        ords lie within the run holding its head, as udapi's span strings do; True if cut."""
        nodes = self.nodes[index]
        runs: list[list[Node]] = [[nodes[0]]]
        for previous, node in zip(nodes, nodes[1:]):
            if self.rank[node] == self.rank[previous] + 1 and node[0] == previous[0]:
                runs[-1].append(node)
            else:
                runs.append([node])
        if len(runs) == 1:
            return False
        run = next(r for r in runs if self.heads[index] in r)
        low, high = self.ord_of[run[0]], self.ord_of[run[-1]]
        self.nodes[index] = [n for n in self.sentence_nodes[run[0][0]] if low <= self.ord_of[n] <= high]
        return True


def _moved(doc: KeyDocument, tree: Tree) -> tuple[list[Node], dict[Node, float]]:
    """The document's nodes in order once each empty node has moved next to its parent, as
    udapi's ords place them (floats: the parent's plus 0.1 for itself and for each empty node
    already after a word parent; ties keep the order of the sentence's list of empty nodes)."""
    parents = single_parent(doc, tree)
    ord_of: dict[Node, float] = {node: float(node[1]) for node in doc.words}
    ord_of.update({(s, 0, 0): 0.0 for s in {n[0] for n in doc.words}})
    listed: dict[int, list[Node]] = {}
    for empty in doc.empties:
        ord_of[empty] = float(f"{empty[1]}.{empty[2]}")
        listed.setdefault(empty[0], []).append(empty)
    for empty in doc.empties:
        parent = parents.get(empty)
        if not parent:
            continue
        up = ord_of[parent[0]]
        if int(ord_of[empty]) == up:
            continue
        moved = up + 0.1
        for other in listed[empty[0]]:
            if int(ord_of[other]) == up:
                moved += 0.1
        ord_of[empty] = moved
        listed[empty[0]].sort(key=ord_of.__getitem__)
    out: list[Node] = []
    sentences = sorted({n[0] for n in [*doc.words, *doc.empties]})
    words_of: dict[int, list[Node]] = {}
    for node in doc.words:
        words_of.setdefault(node[0], []).append(node)
    for sentence in sentences:
        out.extend(sorted([*words_of.get(sentence, []), *listed.get(sentence, [])], key=ord_of.__getitem__))
    return out, ord_of


def _marks(key: NodeDocument, doc: KeyDocument, number: int, sequential_ids: bool, zero_mentions: bool
           ) -> tuple[list[Node], dict[Node, list[str]]]:
    """Each written node's marks, found as `conllu2text` finds them: visiting the nodes in order,
    a mention met for the first time is cut (`_Layout.cut`) before its marks are decided, so a
    cut that reaches back puts no mark on the nodes already visited."""
    layout = _Layout(key, doc, number, zero_mentions)
    holding: dict[Node, list[int]] = {}
    for m, nodes in enumerate(layout.nodes):
        for node in nodes:
            holding.setdefault(node, []).append(m)
    names: dict[str, str] = {}
    marks: dict[Node, list[str]] = {}
    for node in layout.written:
        here = sorted(holding.get(node, ()), key=lambda m: (layout.rank[layout.nodes[m][0]], -len(layout.nodes[m]),
                                                            layout.rank[layout.nodes[m][-1]], layout.names[m]))
        for m in here:
            before = layout.nodes[m]
            if layout.cut(m):
                for gone in set(before) - set(layout.nodes[m]):
                    holding[gone].remove(m)
                for added in set(layout.nodes[m]) - set(before):
                    holding.setdefault(added, []).append(m)
            name = layout.names[m]
            if sequential_ids:
                name = names.setdefault(name, f"e{len(names) + 1}")
            start, end, at = layout.ord_of[layout.nodes[m][0]], layout.ord_of[layout.nodes[m][-1]], layout.ord_of[node]
            if start == end == at:
                marks.setdefault(node, []).append(f"[{name}]")
            elif start == at:
                marks.setdefault(node, []).append(f"[{name}")
            elif end == at:
                marks.setdefault(node, []).append(f"{name}]")
    return layout.written, marks


def key_tree(doc: KeyDocument) -> Tree:
    """The key's tree as udapi reads it, its empty nodes included."""
    eparents: dict[Node, tuple[Node, ...]] = {}
    deps_parents: dict[Node, tuple[Node, ...]] = {}
    for node in doc.words:
        deps = doc.deps.get(node)
        eparents[node] = (doc.parent[node],) if deps is None else tuple(p for p, _ in deps)
    for node in doc.empties:
        deps = doc.deps.get(node)
        deps_parents[node] = eparents[node] = () if deps is None else tuple(p for p, _ in deps)
    return Tree(doc.parent, eparents, deps_parents)


def single_parent(doc: KeyDocument, tree: Tree) -> dict[Node, list[Node]]:
    """Each empty node's enhanced parents after udapi's SingleParent: of several, those that are
    the highest non-empty one (the root of their common treelet if it is one of them, else the
    least deep)."""
    out: dict[Node, list[Node]] = {}
    for empty in doc.empties:
        parents = list(tree.deps_parents.get(empty, ()))
        if len(parents) > 1:
            words = [p for p in parents if not p[2]]
            if not words:
                parents = []
            else:
                top = common_treelet_root(words, tree.parent)
                if top not in words:
                    top = sorted(words, key=lambda p: _depth(p, tree))[0]
                parents = [p for p in parents if p == top]
        out[empty] = parents
    return out


def _depth(node: Node, tree: Tree) -> int:
    depth = 0
    while node in tree.parent:
        node, depth = tree.parent[node], depth + 1
    return depth

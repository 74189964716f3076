"""The CRAC 2025 LLM track's inline format (text2text-coref), read onto a CoNLL-U key.

One document per line, words separated by spaces, a word's marks after a `|`, separated by commas:

    Los|[e1 jugadores de el Espanyol|[e2],e1] aseguraron hoy que ##|[e1] prefieren ...

`[e1` opens a mention of entity e1, `e1]` closes one, `[e2]` is a one-word mention; `##` (or
`##form`) is an empty-node slot, for a zero.  Lines pair with the key's documents by position.  The
JSON form is a list of objects, one per document, with `tokens` and `clusters_token_offsets`
(inclusive token offsets, one list per entity); see docs/formats.md.

An output is scored as the track's pipeline scores it (`clean`, then `text2conllu`, then
corefud-scorer), without running it: the words are realigned and the brackets repaired
(`metrics.mentions.realign`), each `##` becomes an empty node after the word before it (the key's
own empty nodes are dropped), and each mention is built on the key's words, with its head as
udapi's MoveHead chooses it on the key's tree (`metrics.mentions.movehead`) when the key writes
heads.  Out come the documents the CoNLL-U reader (`metrics.formats.corefud`) would read from the
pipeline's CoNLL-U, and a `CracReport` of what the repair did, which is never silent.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from metrics.formats.crac_key import KeyDocument, read_key
from metrics.formats.crac_repairs import CracReport, DocumentRepairs
from metrics.formats.crac_zeros import GoldNodes, gold_nodes
from metrics.formats.detection import OTHER_FORMAT
from metrics.formats.jsonlines import json_failure
from metrics.formats.source import read_lines, read_text
from metrics.mentions.movehead import Tree, move_head
from metrics.mentions.realign import Aligned, align_words, is_zero, repair_brackets
from metrics.model import InputError, Node, NodeDocument, NodeMention

MAX_WORDS_RATIO = 10
"""An output line may hold this many times its key document's words (plus 1,000): more is no
output of that document (a model looping), refused before it costs the alignment."""


@dataclass
class _Output:
    """One document of the output: its tokens and the marks' mentions where given as offsets."""

    line: int
    tokens: list[str]
    clusters: list[list[tuple[int, int]]] | None = None


def read_crac(path: str, fmt: str, key_path: str, keys: list[NodeDocument], zeros: str = "free"
              ) -> tuple[list[NodeDocument], CracReport]:
    """The output at `path` (`crac-text` or `crac-json`) on the key at `key_path`, whose node
    documents (`metrics.formats.corefud.read_corefud`) are `keys`; `zeros` is one of `detection.ZERO_MODES`."""
    free = zeros == "free"
    skeleton = read_key(key_path, read_lines(key_path))
    if len(skeleton) != len(keys):
        raise InputError(key_path, None, f"{len(skeleton)} documents by its # newdoc lines but {len(keys)} with words: "
                                         f"every document needs a # newdoc id and words")
    outputs = _read_json(path) if fmt == "crac-json" else _read_text(path, len(skeleton))
    if len(outputs) != len(skeleton):
        line = outputs[len(skeleton)].line if len(outputs) > len(skeleton) else (outputs[-1].line if outputs else None)
        raise InputError(path, line, f"{len(outputs)} documents (one per line) where the key {key_path} has "
                                     f"{len(skeleton)}: lines pair with the key's documents by position")
    report = CracReport(path, fmt, zeros)
    documents = []
    id_order: dict[str, tuple] = {}
    for number, (output, key, key_nodes) in enumerate(zip(outputs, skeleton, keys)):
        repairs = DocumentRepairs(key.name, output.line, output.tokens)
        limit = MAX_WORDS_RATIO * len(key.words) + 1000
        if len(output.tokens) > limit:
            raise InputError(path, output.line, f"{len(output.tokens)} words where the key's document {key.name!r} has "
                                                f"{len(key.words)}: not an output of it")
        tokens = output.tokens if output.clusters is None else _marked(output)
        gold = None if free else gold_nodes(key, key_path, key.line)
        if output.clusters is not None and _fits(output.tokens, key, free):
            aligned, spans = _as_given(output, key)
            words = [t for t in output.tokens if not is_zero(t)] if free else output.tokens
            forms = key.forms if gold is None else gold.forms
            repairs.replaced = sum(a != b for a, b in zip(words, forms))  # kept as given, the key's words win
            repairs.key_words = len(forms)
        else:
            try:
                gold_forms = key.clean_forms if free else key.clean_forms_with_empties
                aligned = align_words(tokens, gold_forms, free)
                bracketed = repair_brackets(aligned.tokens, key.sentence_lengths if free else key.sentence_sizes, free)
            except ValueError as error:
                raise InputError(path, output.line, f"document {key.name!r}: {error}") from None
            repairs.record(aligned, bracketed, gold_forms)
            repairs.key_words = len(gold_forms)
            spans = bracketed.mentions
            aligned.tokens = aligned.tokens[:bracketed.kept_tokens]
        if gold is None:
            document = _build(path, output.line, aligned, spans, key=key, key_nodes=key_nodes, repairs=repairs)
        else:
            document = _build_on_gold(gold, aligned, spans, key=key, key_nodes=key_nodes, line=output.line,
                                      repairs=repairs)
        key_mentions = [m for _, ms in key_nodes.entities for m in ms]
        repairs.zeros_in_key = sum(m.zero for m in key_mentions)
        repairs.empties_in_key = sum(not m.zero and any(n[2] for n in m.nodes) for m in key_mentions)
        _note_ids(document, number, id_order)
        documents.append(document)
        report.documents.append(repairs)
    if skeleton and not skeleton[0].document_ids:
        for document in documents:  # ids shared across documents: the file's order, as udapi's
            document.entities.sort(key=lambda e: id_order[e[0]])
    return documents, report


def _read_text(path: str, documents: int) -> list[_Output]:
    """The file's lines, one per document; blank lines at the end past the key's `documents` are
    dropped (the pipeline pairs by position and stops at the key's last), but not a blank line in
    a document's own place: the last document's empty answer is an empty answer, as any other's."""
    lines = read_lines(path)
    while len(lines) > documents and not lines[-1].strip():
        lines.pop()
    if lines and OTHER_FORMAT.match(lines[0]):
        raise InputError(path, 1, "not the inline format (one document per line, words with |[eN marks): "
                                  "name the format with --response-format")
    return [_Output(number, line.split()) for number, line in enumerate(lines, 1)]


def _read_json(path: str) -> list[_Output]:
    text = read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(path, error.lineno, f"not JSON: {error.msg}") from None
    except (ValueError, RecursionError) as error:  # nested too deeply, a number too long for Python
        raise InputError(path, None, json_failure(error).replace("invalid JSON", "not JSON", 1)) from None
    if not isinstance(data, list):
        raise InputError(path, 1, "not the JSON form: a list of documents with tokens and clusters_token_offsets")
    outputs = []
    for index, item in enumerate(data):
        line = _line_of(text, index)
        tokens = item.get("tokens") if isinstance(item, dict) else None
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise InputError(path, line, f"document {index + 1} has no list of strings 'tokens'")
        clusters = item.get("clusters_token_offsets")
        if not isinstance(clusters, list):  # json2conllu stops there (a blind file has none)
            raise InputError(path, line, f"document {index + 1} has no list 'clusters_token_offsets' "
                                         "(a model's output gives one, empty when it found nothing)")
        spans = []
        for cluster in clusters:
            if not isinstance(cluster, list):
                raise InputError(path, line, f"document {index + 1}: clusters_token_offsets is not a list of lists")
            spans.append([])
            for pair in cluster:
                if (not isinstance(pair, list) or len(pair) != 2 or not all(type(v) is int for v in pair)
                        or not 0 <= pair[0] <= pair[1] < len(tokens)):
                    raise InputError(path, line, f"document {index + 1}: offsets {pair!r} are no [start, end] "
                                                 f"within its {len(tokens)} tokens (ends are inclusive)")
                spans[-1].append((pair[0], pair[1]))
        outputs.append(_Output(line, [t.replace(" ", "_") or "_" for t in tokens], spans))
    return outputs


def _line_of(text: str, index: int) -> int:
    """The line where the index-th top-level object starts (1 when the file is one line)."""
    depth, count = 0, -1
    line = 1
    in_string = escaped = False
    for char in text:
        if char == "\n":
            line += 1
        if in_string:
            escaped = not escaped and char == "\\"
            if char == '"' and not escaped:
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth == 2 and char == "{":
                count += 1
                if count == index:
                    return line
        elif char in "]}":
            depth -= 1
    return line


def _fits(tokens: list[str], key: KeyDocument, free: bool) -> bool:
    """Do the JSON tokens stand on the key's words one to one (as `json2conllu` requires), or
    with gold zeros (`json2conllu -g`) on its words and empty nodes?"""
    if not free:
        return len(tokens) == len(key.words) + len(key.empties)
    return bool(tokens) and not is_zero(tokens[0]) and sum(not is_zero(t) for t in tokens) == len(key.words)


def _as_given(output: _Output, key: KeyDocument) -> tuple[Aligned, list[tuple[str, int, int]]]:
    """The JSON form on the key's words as given: entity k of the list is `e{k}`."""
    aligned = Aligned(tokens=list(output.tokens), origin=list(range(len(output.tokens))))
    spans = [(f"e{k}", start, end) for k, cluster in enumerate(output.clusters or [], 1) for start, end in cluster]
    return aligned, spans


def _marked(output: _Output) -> list[str]:
    """The JSON form as the inline form (entity k is `e{k}`), for realigning its tokens."""
    marks: list[list[str]] = [[] for _ in output.tokens]
    for k, cluster in enumerate(output.clusters or [], 1):
        for start, end in cluster:
            if start == end:
                marks[start].append(f"[e{k}]")
            else:
                marks[start].append(f"[e{k}")
                marks[end].append(f"e{k}]")
    return [f"{t}|{','.join(m)}" if m else t for t, m in zip(output.tokens, marks)]


def _build(path: str, line: int, aligned: Aligned, spans: list[tuple[str, int, int]], *, key: KeyDocument,
           key_nodes: NodeDocument, repairs: DocumentRepairs) -> NodeDocument:
    """The pipeline's CoNLL-U document: `##` tokens as empty nodes after the word before them,
    each mention over its tokens' nodes, its head MoveHead's when the key writes heads."""
    nodes: list[Node] = []
    word = -1
    empties_after = 0
    for index, token in enumerate(aligned.tokens):
        if index and is_zero(token):
            empties_after += 1
            nodes.append((*key.words[word][:2], empties_after))
        else:
            word, empties_after = word + 1, 0
            if word >= len(key.words):
                raise InputError(path, line, f"document {key.name!r}: more words than the key's {len(key.words)} after realigning")
            nodes.append(key.words[word])
    if word + 1 != len(key.words):
        raise InputError(path, line, f"document {key.name!r}: {word + 1} words where the key has {len(key.words)} after realigning")
    tree = _reader_tree(key, nodes)
    by_entity: dict[str, list[NodeMention]] = {}
    for eid, first, last in spans:
        covered = tuple(nodes[first:last + 1])
        if covered[0][0] != covered[-1][0]:
            repairs.crossing.append((eid, first, last))
            continue
        head = move_head(covered, covered[0], tree) if key.has_heads else covered[0]
        by_entity.setdefault(eid, []).append(NodeMention(covered, head, _written_deps(key, tree, head)))
        _note(repairs, (eid, first, last), covered)
    return _document(by_entity, spans, nodes, line=line, key_nodes=key_nodes, repairs=repairs)


def _build_on_gold(gold: GoldNodes, aligned: Aligned, spans: list[tuple[str, int, int]], *, key: KeyDocument,
                   key_nodes: NodeDocument, line: int, repairs: DocumentRepairs) -> NodeDocument:
    """The pipeline's CoNLL-U document with `-z`: the tokens laid by position on the key's nodes
    in `text2conllu -z`'s order (`metrics.formats.crac_zeros`), heads MoveHead's on that tree."""
    assert len(aligned.tokens) == len(gold.nodes), "clean -z leaves one token per key node"
    repairs.zeros_moved = gold.moved
    repairs.zeros_shifted = gold.shifted
    by_entity: dict[str, list[NodeMention]] = {}
    for eid, first, last in spans:
        covered = tuple(gold.nodes[first:last + 1])
        if covered[0][0] != covered[-1][0]:
            repairs.crossing.append((eid, first, last))
            continue
        head = move_head(covered, covered[0], gold.tree) if key.has_heads else covered[0]
        by_entity.setdefault(eid, []).append(NodeMention(covered, head, gold.deps[head]))
        _note(repairs, (eid, first, last), covered)
    return _document(by_entity, spans, gold.nodes, line=line, key_nodes=key_nodes, repairs=repairs)


def _note(repairs: DocumentRepairs, span: tuple[str, int, int], covered: tuple[Node, ...]) -> None:
    """Keep what a repair did to make this mention, by its nodes (the workbench marks it)."""
    note = repairs.span_notes.get(span)
    if note is not None:
        repairs.repaired[covered] = note


def _document(by_entity: dict[str, list[NodeMention]], spans: list[tuple[str, int, int]], nodes: list[Node], *,
              line: int, key_nodes: NodeDocument, repairs: DocumentRepairs) -> NodeDocument:
    """The entities in udapi's order (by first node, a longer mention first, then last node)."""
    entities = []
    for eid, mentions in by_entity.items():
        mentions.sort(key=lambda m: (m.nodes[0], -len(m.nodes), m.nodes[-1]))
        entities.append((eid, mentions))
    entities.sort(key=lambda e: (e[1][0].nodes[0], -len(e[1][0].nodes), e[1][0].nodes[-1], e[0]))
    repairs.mentions = len(spans) - len(repairs.crossing)
    return NodeDocument(key_nodes.name, list(key_nodes.forms), entities, {node: line for node in nodes}, {})


def _written_deps(key: KeyDocument, tree: Tree, head: Node) -> tuple[tuple[Node, str], ...]:
    """The head's DEPS as the pipeline's CoNLL-U has them: a `##` node's parent with relation `_`;
    a word's own without the dropped empty nodes, sorted and each once (as udapi rewrites them)."""
    if head[2]:
        return tuple((parent, "_") for parent in tree.deps_parents.get(head, ()))
    deps = key.deps.get(head)
    return () if deps is None else tuple(sorted({(p, r) for p, r in deps if not p[2]}))


def _reader_tree(key: KeyDocument, nodes: list[Node]) -> Tree:
    """The key's tree as `text2conllu` leaves it: its empty nodes gone (and the enhanced
    dependencies on them), an empty node for each `##` with the word before it as its parent."""
    eparents: dict[Node, tuple[Node, ...]] = {}
    for node in key.words:
        deps = key.deps.get(node)
        eparents[node] = (key.parent[node],) if deps is None else tuple(p for p, _ in deps if not p[2])
    deps_parents: dict[Node, tuple[Node, ...]] = {}
    for node in nodes:
        if node[2]:
            deps_parents[node] = eparents[node] = ((node[0], node[1], 0),)
    return Tree(key.parent, eparents, deps_parents)


def _note_ids(document: NodeDocument, number: int, order: dict[str, tuple]) -> None:
    """Where each entity id is first met in the file: udapi orders a file's entities by it."""
    for eid, mentions in document.entities:
        first = mentions[0]
        order.setdefault(eid, (number, first.nodes[0], -len(first.nodes), first.nodes[-1], eid))

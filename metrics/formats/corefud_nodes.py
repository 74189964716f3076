"""The rules of the CorefUD node reader, whichever way its lines are found: a document's nodes
and mentions while they are read (`_Document`), what spans a file's documents (`_File`), and the
comments and MISC cells in file order (`Reading`).  What they read, and why so, is said in
`metrics.formats.corefud`; two readers hand their lines here: the line reader there and the byte
reader (`metrics.formats.corefud_bytes`), so each rule is written once.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from metrics.formats.conllu import ENTITY_REDECLARED, ENTITY_TWICE, NEWDOC_INSIDE_A_SENTENCE, newdoc, word_id_error
from metrics.formats.conllu_rules import (DISCONTINUOUS, closes_nothing, discontinuous_id, entity_chunks,
                                          entity_fields, head_error, never_closed, part_missing, part_without_first)
from metrics.formats.source import FIRST_SUCH_LINE
from metrics.model import InputError, Node, NodeDocument, NodeMention

NODE_ID = re.compile(r"^([0-9]{1,9})(?:\.([0-9]{1,9}))?$")
"""A node's ID: a word (`5`) or an empty node (`5.1`)."""


_ROLES = frozenset({"eid", "GRP", "etype", "entity", "head"})
"""The fields of an opening bracket this reader reads (`_Document._open`); the others are skipped."""


class _Mention:
    """A mention while it is read: its nodes so far, its head, where it was opened."""

    __slots__ = ("eid", "nodes", "head", "line")

    def __init__(self, eid: str, node: Node, line: int) -> None:
        self.eid = eid
        self.nodes = [node]
        self.head = node
        self.line = line


class _Document:
    """One document's nodes and mentions while its lines are read."""

    def __init__(self, path: str, name: str,
                 note: Callable[[str, int, str], None] = lambda kind, line, text: None) -> None:
        self.path = path
        self.name = name
        self.note = note
        """`note(kind, line, message)`: something corefud-scorer reads without a word, said once per kind."""
        self.sentence = 0
        self.sentence_nodes: list[Node] = []
        self.last_word = 0
        self.ranges: list[tuple[int, int, int]] = []
        """The multiword ranges (first, last, line) of the sentence being read: checked at its end."""
        self.references: list[tuple[str, str, int]] = []
        """Entity IDs named by SplitAnte= or Bridge= (the ID, the attribute, the line)."""
        self.forms: list[tuple[Node, str]] = []
        self.line_of: dict[Node, int] = {}
        self.raw_deps: dict[Node, str] = {}
        self.mentions: dict[str, list[_Mention]] = {}
        self.unfinished: dict[str, list[tuple[_Mention, int | None]]] = {}
        self.discontinuous: dict[str, list[_Mention]] = {}
        self.etypes: dict[str, str] = {}
        self.sentence_heads: list[str] = []
        self.sentence_ids: list[str] = []
        """The HEAD and the ID of each word of the sentence being read, as written: checked at its end."""
        self.roles_of: list[str] | None = None
        self.roles: list[tuple[int, str]] = []
        """The places of `_ROLES` among the last fields an opening was read by, and those fields."""
        self.head_fault: InputError | None = None
        """The document's first HEAD that is no word of its sentence: raised once its mentions are
        checked, where the span reader raises it (a file with two faults says the same one first)."""

    def error(self, line: int, message: str) -> InputError:
        return InputError(self.path, line, message)

    def add_node(self, word: int, empty: int, form: str, line: int) -> Node:
        if not self.sentence_nodes:
            self.sentence += 1
            self.last_word = 0
        if empty:
            if word != self.last_word:
                self.note("empty", line, f"empty node {word}.{empty} follows word {self.last_word} (an empty node "
                                         f"N.k follows word N): read as corefud-scorer reads it, placed by its ID")
        elif (problem := word_id_error(word, self.last_word)) is not None:  # (two words of one ID would be one node)
            raise self.error(line, problem)
        else:
            self.last_word = word
        node = (self.sentence, word, empty)
        first = self.line_of.setdefault(node, line)
        if first != line:
            raise self.error(line, f"empty node {word}.{empty} twice in one sentence (first on line {first})")
        self.sentence_nodes.append(node)
        if empty == 0:
            self.forms.append((node, form))
        return node

    def end_sentence(self) -> None:
        if self.sentence_nodes:
            for first, last, line in self.ranges:
                if last > self.last_word or first > last:
                    self.note("range", line, f"range {first}-{last} names words its sentence does not have (its last "
                                             f"word is {self.last_word}): ignored, as corefud-scorer ignores it")
            self.ranges = []
        heads = self.sentence_heads
        if heads and self.head_fault is None and not {"0", "_", *self.sentence_ids}.issuperset(heads):
            words = [node for node in self.sentence_nodes if not node[2]]  # (one set per sentence: the rule
            ids = {node[1] for node in words}                              # word by word only when it fails)
            for node, head in zip(words, heads):
                if (problem := head_error(head, ids.__contains__)) is not None:
                    self.head_fault = self.error(self.line_of[node], problem)
                    break
        self.sentence_heads, self.sentence_ids = [], []
        self.sentence_nodes = []

    def refer(self, item: str, line: int) -> None:
        """The entity IDs a `SplitAnte=` or `Bridge=` value names (`e3<e11,e4<e11`; Bridge's with
        a relation, `e12<e124:part`), to be checked once every entity is known."""
        attribute, _, value = item.partition("=")
        for link in value.split(","):
            before, sep, after = link.partition("<")
            after = after.split(":", 1)[0]
            if not sep or not before or not after:
                raise self.error(line, f"{attribute} value {value!r} does not parse (ID<ID,...)")
            self.references += [(before, attribute, line), (after, attribute, line)]

    def apply(self, value: str, fields: list[str], line: int, node: Node | None = None) -> None:
        """One node's `Entity=` value, chunk by chunk in text order (on `node`, by default the
        sentence's last node read)."""
        chunks = entity_chunks(value, self.path, line)
        node = self.sentence_nodes[-1] if node is None else node
        for chunk in chunks:
            if chunk[0] == "(":
                self._open(chunk, node, fields, line)
            else:
                self._close(chunk[:-1], node, line)

    def _open(self, chunk: str, node: Node, fields: list[str], line: int) -> None:
        closing = chunk[-1] == ")"
        body = chunk[1:-1] if closing else chunk[1:]
        eid, head_index, etype = None, None, None
        if fields is not self.roles_of:
            self.roles_of, self.roles = fields, [(i, name) for i, name in enumerate(fields) if name in _ROLES]
        values = body.split("-")
        for i, name in self.roles:  # (the fields read, as far as the values go: as zip(fields, values))
            if i >= len(values):
                break
            value = values[i]
            if name in ("eid", "GRP"):
                eid = value
            elif name in ("etype", "entity") and value:
                etype = value
            elif name == "head":
                if not value:
                    raise self.error(line, f"head index is empty in {chunk!r} (fields {'-'.join(fields)}): a '-' too "
                                           "many, or a negative index? Heads count from 1")
                if not (value.isascii() and value.isdigit()):  # ('²' is a digit to isdigit, not to int)
                    raise self.error(line, f"head index {value!r} in {chunk!r} is not a number")
                if len(value) > 9:  # (int() refuses more than 4,300 digits: a traceback, found by fuzzing)
                    raise self.error(line, f"head index of {len(value):,} digits: no mention has that many nodes")
                head_index = int(value)
                if head_index == 0:
                    raise self.error(line, f"head index 0 in {chunk!r}: heads count from 1")
        if not eid:
            raise self.error(line, f"no entity ID in {chunk!r}")
        part, parts = None, None
        if eid.endswith("]"):
            eid, part, parts = discontinuous_id(eid, chunk, self.path, line)
        if etype is not None:
            self.etypes.setdefault(eid, etype)
        if part is not None and part > 1:
            opened = [m for m, _ in self.unfinished.get(eid, [])]
            waiting = [m for m in self.discontinuous.get(eid, []) if m not in opened]
            if not waiting:
                raise self.error(line, part_without_first(part, parts, eid))
            mention = waiting[0]
            mention.nodes.append(node)
            if closing and part == parts:
                if self.discontinuous[eid].pop() is not mention:
                    raise self.error(line, f"mention of {eid} closes with a nested mention of it unfinished")
                self._set_head(mention, head_index, chunk, line)
        else:
            mention = _Mention(eid, node, line)
            self.mentions.setdefault(eid, []).append(mention)
            if part is not None:
                self.discontinuous.setdefault(eid, []).append(mention)
            elif closing and head_index is not None and head_index != 1:
                raise self.error(line, f"head index {head_index} outside the one-node mention {chunk!r}")
        if not closing:
            self.unfinished.setdefault(eid, []).append((mention, head_index))

    def _close(self, chunk: str, node: Node, line: int) -> None:
        eid, part, parts = chunk, None, None
        if not self.unfinished.get(chunk):
            m = DISCONTINUOUS.match(chunk)
            if m:
                eid, part, parts = m.group(1), int(m.group(2)), int(m.group(3))
        stack = self.unfinished.get(eid)
        if not stack:
            raise self.error(line, closes_nothing(f"{chunk})", eid))
        mention, head_index = stack.pop()
        last = mention.nodes[-1]
        if last[0] != node[0]:
            raise self.error(line, f"mention {chunk}) opened at line {mention.line} crosses a sentence boundary")
        mention.nodes.extend(self._between(last, node))
        if part is None or part == parts:
            self._set_head(mention, head_index, chunk, line)
        if part is not None and part == parts:
            if not self.discontinuous.get(eid) or self.discontinuous[eid].pop() is not mention:
                raise self.error(line, f"mention of {eid} closes with a nested mention of it unfinished")

    def _between(self, last: Node, node: Node) -> list[Node]:
        """The sentence's nodes after `last` up to `node`: where a mention that reached `last`
        closes at `node`, the nodes it takes in."""
        return [n for n in self.sentence_nodes if last < n <= node]

    def _set_head(self, mention: _Mention, head_index: int | None, chunk: str, line: int) -> None:
        if head_index is None:
            return
        if head_index > len(mention.nodes):
            raise self.error(line, f"head index {head_index} outside its mention of {len(mention.nodes)} nodes ({chunk!r})")
        mention.head = mention.nodes[head_index - 1]

    def finish(self, earlier: dict[str, tuple] | None = None, ordinal: int = 0) -> NodeDocument:
        """The document (the `ordinal`-th of its file), its entities in udapi's order.  `earlier`
        gives the file-wide place (a document's ordinal, then its first mention's order) of the
        entity IDs met so far, and learns this document's: an entity met before comes where its
        first mention in the file is."""
        for eid, stack in self.unfinished.items():
            if stack:
                raise self.error(stack[0][0].line, never_closed(eid, self.name))
        for eid, waiting in self.discontinuous.items():
            if waiting:
                raise self.error(waiting[0].line, part_missing(eid, self.name))
        self.end_sentence()
        if self.head_fault is not None:
            raise self.head_fault
        deps: dict[Node, tuple[tuple[Node, str], ...]] = {}
        entities = []
        for eid, mentions in self.mentions.items():
            built = []
            for m in mentions:
                if m.head not in deps:
                    deps[m.head] = self._deps(m.head)
                built.append(NodeMention(tuple(m.nodes), m.head, deps[m.head]))
            built.sort(key=lambda m: (m.nodes[0], -len(m.nodes), m.nodes[-1]))
            entities.append((eid, built))
        def place(entity: tuple[str, list[NodeMention]]) -> tuple:
            first = entity[1][0]
            return (earlier or {}).get(entity[0], (ordinal, first.nodes[0], -len(first.nodes), first.nodes[-1]))

        entities.sort(key=lambda e: (place(e), e[0]))
        if earlier is not None:
            for entity in entities:
                earlier.setdefault(entity[0], place(entity))
        return NodeDocument(self.name, self.forms, entities, self.line_of, self.etypes)

    def _deps(self, node: Node) -> tuple[tuple[Node, str], ...]:
        """The enhanced dependencies of a head node, checked: every parent must exist."""
        raw = self.raw_deps.get(node, "_")
        if raw == "_":
            return ()
        out = []
        for item in raw.split("|"):
            head, sep, relation = item.partition(":")
            plain = head.isascii() and head.isdigit() and len(head) <= 9  # (most: a word, no pattern for it)
            m = None if plain else NODE_ID.match(head)
            if not sep or not relation or not (plain or m):
                raise self.error(self.line_of[node], f"DEPS {raw!r} does not parse (HEAD:RELATION|...)")
            parent = (node[0], int(head), 0) if plain else (node[0], int(m.group(1)), int(m.group(2) or 0))
            if parent[1:] != (0, 0) and parent not in self.line_of:
                raise self.error(self.line_of[node], f"DEPS {raw!r} names node {head}, which its sentence does not have")
            if parent == node:
                self.note("deps", self.line_of[node], f"DEPS {raw!r} names its own node: read as corefud-scorer reads it")
            out.append((parent, relation))
        return tuple(out)


class _File:
    """What spans the documents of one file: the names seen, and (under `eid`) where each entity
    ID was first met, for udapi's file-wide entity order and the split-entity warnings."""

    def __init__(self, path: str, warnings: list[str] | None, document: type[_Document] = _Document) -> None:
        self.path = path
        self.warnings = warnings
        self.document = document
        """What a document is read into (the byte reader's keeps its nodes apart: `corefud_bytes`)."""
        self.documents: list[NodeDocument] = []
        self.name_line: dict[str, int] = {}
        self.places: dict[str, tuple] = {}
        self.last_document: dict[str, str] = {}
        self.noted: set[str] = set()
        self.references: list[tuple[str, str, int]] = []

    def note(self, kind: str, line: int, message: str) -> None:
        """A warning for the first case of each kind in the file (the rest would repeat it)."""
        if self.warnings is not None and kind not in self.noted:
            self.noted.add(kind)
            self.warnings.append(f"{self.path}:{line}: {message} {FIRST_SUCH_LINE}")

    def start(self, name: str, line: int) -> _Document:
        if name in self.name_line:
            raise InputError(self.path, line, f"document {name!r} appears twice (also on line {self.name_line[name]})")
        self.name_line[name] = line
        return self.document(self.path, name, self.note)

    def check_references(self, references: list[tuple[str, str, int]], defined: set[str] | dict) -> None:
        """An entity named by SplitAnte= or Bridge= must have mentions (udapi refuses it otherwise)."""
        for eid, attribute, line in references:
            if eid not in defined:
                raise InputError(self.path, line, f"{attribute} names entity {eid}, which no Entity= annotation has "
                                                  "(corefud-scorer refuses it too)")

    def finish(self, doc: _Document, fields: list[str] | None) -> None:
        """Add the document; under `eid`, its entities ordered and warned about over the file."""
        if fields is not None and "eid" not in fields:  # GRP: IDs restart with each document
            self.documents.append(doc.finish())
            self.check_references(doc.references, doc.mentions)
            return
        self.references += doc.references
        document = doc.finish(self.places, len(self.documents))
        for eid, mentions in document.entities:
            before = self.last_document.get(eid)
            if before is not None and self.warnings is not None:
                line = document.line_of.get(mentions[0].nodes[0])
                self.warnings.append(f"{self.path}:{line}: cluster {eid} spans two documents ({before}, {document.name}). "
                                     "It will be split (one entity per document, as corefud-scorer does)")
            self.last_document[eid] = document.name
        self.documents.append(document)


class Reading:
    """A file's state between its lines: its documents, the one being read, the fields declared.

    Why a class: the line reader (`parse_corefud`) and the byte reader (`corefud_bytes`, which
    finds lines and columns with numpy) hand it the same comments and MISC cells in file order,
    so each rule of them is said once."""

    def __init__(self, path: str, warnings: list[str] | None, document: type[_Document] = _Document) -> None:
        self.path = path
        self.file = _File(path, warnings, document)
        self.doc: _Document | None = None
        self.fields: list[str] | None = None
        self.doc_fields: list[str] | None = None
        self.count = 0
        """Documents started (a document without `# newdoc id` is named by it)."""

    def comment(self, line: str, lineno: int) -> None:
        """A comment line: `# newdoc` starts a document, `# global.Entity` declares the fields."""
        name = newdoc(line)
        if name is not None:
            if self.doc is not None and self.doc.sentence_nodes:
                raise InputError(self.path, lineno, NEWDOC_INSIDE_A_SENTENCE)
            if self.doc is not None:
                self.file.finish(self.doc, self.doc_fields)
            self._start(name, lineno)
            return
        text = line[1:].strip()
        if text.startswith("global.Entity"):
            declared = text.partition("=")[2].strip()
            before, self.fields = self.fields, entity_fields(declared, self.path, lineno)
            if before is not None and self.fields != before:
                self.file.note("redeclared", lineno, ENTITY_REDECLARED)
            if self.doc is not None:
                self.doc_fields = self.fields

    def _start(self, name: str, lineno: int) -> None:
        self.count += 1
        self.doc, self.doc_fields = self.file.start(name or f"document {self.count}", lineno), self.fields

    def document(self, lineno: int) -> _Document:
        """The document a node line belongs to: a file's nodes before any `# newdoc` start one."""
        if self.doc is None:
            self._start("", lineno)
        return self.doc

    def misc(self, misc: str, lineno: int, node: Node | None = None) -> None:
        """A node's MISC cell holding `Entity=`, `Bridge=` or `Split...` (on `node`, by default the
        document's last node read)."""
        items = misc.split("|")
        if misc.count("Entity=") > 1 and sum(item.startswith("Entity=") for item in items) > 1:
            raise InputError(self.path, lineno, ENTITY_TWICE)
        for item in items:
            if item.startswith("Entity="):
                if self.fields is None:
                    raise InputError(self.path, lineno,
                                     "Entity= annotations, but no '# global.Entity' declares their fields")
                self.doc.apply(item[len("Entity="):], self.fields, lineno, node)
            elif item.startswith(("SplitAnte=", "Split=", "Bridge=")):
                self.doc.refer(item, lineno)

    def end(self) -> list[NodeDocument]:
        """The file's documents, once its last line is read."""
        if self.doc is not None:
            self.file.finish(self.doc, self.doc_fields)
        self.file.check_references(self.file.references, self.file.last_document)
        return self.file.documents

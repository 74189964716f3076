"""A CoNLL-U key as the CRAC LLM pipeline (text2text-coref) sees it: words, trees, empty nodes.

Why a reader of its own: an LLM's inline output is laid onto the key's words and trees.  Two
tools of that pipeline read the key differently, and both views are kept:

- `clean` (the realignment) reads one word per line as the second whitespace-separated field
  (a form with a space is cut at it), skips multiword-token ranges and empty nodes, and starts a
  sentence at each `# sent_id` or `# newdoc id` comment;
- `text2conllu` (udapi) reads the trees: each word's form, basic HEAD and enhanced DEPS, the
  empty nodes (`5.1`) with their DEPS, the sentences as blank lines end them.

Nodes are `metrics.model.Node` tuples numbered as `metrics.formats.corefud` numbers them (sentences
by blank lines, from 1 in each document), so a mention built here is the CoNLL-U reader's mention.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from metrics.formats.conllu import newdoc
from metrics.model import InputError, Node

_NODE_ID = re.compile(r"^([0-9]{1,9})(?:\.([0-9]{1,9}))?$")

Deps = tuple[tuple[Node, str], ...]
"""Enhanced dependencies: (parent, relation) in the file's order; a root parent is (s, 0, 0)."""


@dataclass
class KeyDocument:
    """One key document: what the realignment and the mention builder read of it."""

    name: str
    line: int
    fields: tuple[str, ...]
    """The `# global.Entity` fields in force (`eid`/`GRP`, `head`...)."""
    words: list[Node] = field(default_factory=list)
    forms: list[str] = field(default_factory=list)
    """Each word's form, as udapi reads it."""
    clean_forms: list[str] = field(default_factory=list)
    """Each word as `clean` reads it: the form up to its first whitespace."""
    sentence_lengths: list[int] = field(default_factory=list)
    """Words of each of `clean`'s sentences (a `# sent_id` starts one), in order."""
    clean_forms_with_empties: list[str] = field(default_factory=list)
    """Words and empty nodes in the file's order, as `clean -z` reads them (forms up to a space)."""
    sentence_sizes: list[int] = field(default_factory=list)
    """Words and empty nodes of each of `clean`'s sentences (`clean -z`)."""
    parent: dict[Node, Node] = field(default_factory=dict)
    """Each word's basic parent."""
    deps: dict[Node, Deps | None] = field(default_factory=dict)
    """Each node's DEPS (None for `_`), words and empty nodes."""
    empties: list[Node] = field(default_factory=list)
    empty_forms: dict[Node, str] = field(default_factory=dict)
    word_lines: list[int] = field(default_factory=list)

    @property
    def has_heads(self) -> bool:
        """Does the key write head indices?  Only then do MoveHead's heads reach the scorer;
        without them udapi takes a mention's first node as its head."""
        return "head" in self.fields

    @property
    def document_ids(self) -> bool:
        """GUM's legacy `GRP` ids are made unique per document by udapi (`d1.`, `d2.` ...); `eid`
        ids are the file's, shared by every document that uses them."""
        return "GRP" in self.fields and "eid" not in self.fields


def read_key(path: str, lines: list[str]) -> list[KeyDocument]:
    """The key's documents (see the module's text); a located error where udapi would fail."""
    documents: list[KeyDocument] = []
    fields: tuple[str, ...] = ("eid", "etype", "head", "other")
    doc: KeyDocument | None = None
    sentence, in_sentence, raw_deps = 0, False, {}
    clean_length = clean_size = 0

    def close_clean_sentence() -> None:
        nonlocal clean_length, clean_size
        if doc is not None and clean_size:
            doc.sentence_sizes.append(clean_size)
            if clean_length:
                doc.sentence_lengths.append(clean_length)
        clean_length = clean_size = 0

    def finish() -> None:
        if doc is not None:
            close_clean_sentence()
            _resolve_deps(path, doc, raw_deps)
            documents.append(doc)

    for number, line in enumerate(lines, 1):
        if not line.strip():
            in_sentence = False
            continue
        if line.startswith("#"):
            text = line[1:].strip()
            if text.startswith("global.Entity"):
                fields = tuple(text.partition("=")[2].strip().split("-"))
                if doc is not None and not doc.words:
                    doc.fields = fields
            name = newdoc(line)
            if name is not None:
                finish()
                doc, sentence, in_sentence, raw_deps = KeyDocument(name, number, fields), 0, False, {}
            elif line.startswith("# sent_id"):
                close_clean_sentence()
            continue
        cols = line.split("\t")
        if len(cols) != 10:
            raise InputError(path, number, f"{len(cols)} columns where CoNLL-U has 10")
        if doc is None:
            doc = KeyDocument(f"document {len(documents) + 1}", number, fields)
        if "-" in cols[0]:
            continue
        m = _NODE_ID.match(cols[0])
        if not m:
            raise InputError(path, number, f"ID {cols[0]!r} is not a word, empty node or range")
        if not in_sentence:
            sentence, in_sentence = sentence + 1, True
        node = (sentence, int(m.group(1)), int(m.group(2) or 0))
        raw_deps[node] = (cols[8], number)
        doc.clean_forms_with_empties.append(line.split()[1])
        clean_size += 1
        if node[2]:
            doc.empties.append(node)
            doc.empty_forms[node] = cols[1]
            continue
        doc.words.append(node)
        doc.forms.append(cols[1])
        doc.clean_forms.append(line.split()[1])
        doc.word_lines.append(number)
        clean_length += 1
        head = cols[6]
        if head != "_" and not head.isdigit():
            raise InputError(path, number, f"HEAD {head!r} is not a word number")
        doc.parent[node] = (sentence, int(head) if head != "_" else 0, 0)
    finish()
    return documents


def _resolve_deps(path: str, doc: KeyDocument, raw: dict[Node, tuple[str, int]]) -> None:
    """Each node's DEPS as parent nodes, each parent checked to exist (udapi fails otherwise)."""
    known = set(doc.words) | set(doc.empties)
    for node, (value, number) in raw.items():
        if value == "_":
            doc.deps[node] = None
            continue
        items = []
        for item in value.split("|"):
            head, sep, relation = item.partition(":")
            m = _NODE_ID.match(head)
            if not sep or not m:
                raise InputError(path, number, f"DEPS {value!r} does not parse (HEAD:RELATION|...)")
            parent = (node[0], int(m.group(1)), int(m.group(2) or 0))
            if parent[1:] != (0, 0) and parent not in known:
                raise InputError(path, number, f"DEPS {value!r} names node {head}, which its sentence does not have")
            items.append((parent, relation))
        doc.deps[node] = tuple(items)

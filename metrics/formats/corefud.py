"""CoNLL-U read as the CorefUD conventions read it: mentions as sets of nodes, zeros included.

Why a second CoNLL-U reader: `formats/conllu.py` reads mentions as token spans, for the v8.01
conventions (CoNLL-2012's spans; zeros dropped, discontinuous mentions closed up), so that one text
scores the same in every format.  corefud-scorer, the CRAC shared task's official scorer, reads
with udapi instead, and its numbers depend on what udapi makes of the brackets.  This reader makes
the same, without udapi:

- A mention covers every node (word or empty node) of its sentence from its opening bracket to its
  closing one; a discontinuous mention (`(e5[1/2]-...`, `e5[1/2])`, then `[2/2]`) covers the
  nodes of each of its parts.  A mention crossing a sentence boundary is an error, as in udapi.
- The head is the Entity attribute's head index, counted over the mention's nodes (empty nodes
  count), set when the mention closes (for a discontinuous one: with the index its last part's
  opening gives); without an index it is the first node.  A zero is a mention whose head is an
  empty node; its enhanced dependencies (DEPS) are read for aligning zeros.
- Entities and mentions come in udapi's order: mentions by first node, the longer first, then by
  last node, then by entity ID; entities by their first mention.  Under `eid` (not `GRP`) an
  entity ID names one entity over the whole file, as in udapi: an entity with mentions in two
  documents is split into one per document (corefud-scorer warns "Cluster X spans two documents
  (A, B). It will be split", and so does this reader), and each part keeps the place of the
  entity's first mention in the file.  That place matters: corefud-scorer gives a mention found in
  two entities of a document to the later one, so a part moved before the others changes the
  scores.
- A document name (`# newdoc id`) given twice is an error: corefud-scorer pairs documents by it.

Where udapi guesses, this reader refuses, with the file and line (`InputError`): a head index
outside its mention (udapi ignores it on a one-word mention), a head index that is not a number,
an Entity value that does not parse, a `global.Entity` without `eid`, Entity values with no
`global.Entity`, a mention never closed (udapi deletes it with a warning), a discontinuous mention
missing a part, a DEPS value that does not parse or names a node that does not exist, a SplitAnte=
or Bridge= naming an entity without mentions (udapi refuses it too).  What udapi reads without a
word is read the same, with a warning for the first case in the file: an empty node after another
word than its own (`9.1` after word 2: placed by its ID), a multiword range beyond its sentence,
a DEPS naming its own node.
"""

from __future__ import annotations

import re

from metrics.formats.conllu import ENTITY_ON_A_RANGE
from metrics.formats.conllu_rules import unknown_id, wrong_columns
from metrics.formats.corefud_bytes import nodes_of_bytes
from metrics.formats.corefud_nodes import NODE_ID, Reading
from metrics.formats.source import read_lines
from metrics.model import InputError, NodeDocument

_RANGE = re.compile(r"^[0-9]{1,9}-[0-9]{1,9}$")


def parse_corefud(path: str, lines: list[str], warnings: list[str] | None = None) -> list[NodeDocument]:
    """Documents of CoNLL-U lines, with their entities of node mentions (see the module's text);
    `warnings` hears of entities split across documents."""
    reading = Reading(path, warnings)
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            if reading.doc is not None:
                reading.doc.end_sentence()
            continue
        if line.startswith("#"):
            reading.comment(line, lineno)
            continue
        cols = line.split("\t")
        if len(cols) != 10:
            raise InputError(path, lineno, wrong_columns(len(cols)))
        ident = cols[0]
        if ident.isascii() and ident.isdigit() and len(ident) <= 9:  # a word: most lines, no pattern for them
            word, empty = int(ident), 0
        else:
            m = NODE_ID.match(ident)
            if not m:
                if _RANGE.match(ident):  # a multiword token's range: its words follow
                    if "Entity=" in cols[9]:
                        reading.file.note("range entity", lineno, ENTITY_ON_A_RANGE)
                    if reading.doc is not None:
                        first, _, last = ident.partition("-")
                        reading.doc.ranges.append((int(first), int(last), lineno))
                    continue
                raise InputError(path, lineno, unknown_id(ident))
            word, empty = int(m.group(1)), int(m.group(2) or 0)
        doc = reading.document(lineno)
        node = doc.add_node(word, empty, cols[1], lineno)
        if not empty:
            doc.sentence_heads.append(cols[6])
            doc.sentence_ids.append(ident)
        if cols[8] != "_":
            doc.raw_deps[node] = cols[8]
        if "Entity=" in cols[9] or "Bridge=" in cols[9] or "Split" in cols[9]:
            reading.misc(cols[9], lineno)
    return reading.end()


def read_corefud(path: str, warnings: list[str] | None = None, *, lines: list[str] | None = None
                 ) -> list[NodeDocument]:
    """Read a CorefUD CoNLL-U file (optionally gzipped) into node documents, in file order (from
    its `lines` when they were read already); `warnings` hears of entities split across documents."""
    documents = nodes_of_bytes(path, warnings) if lines is None else None
    if documents is None:  # (given lines, or a file the byte reader declines: odd, or wrong somewhere)
        documents = parse_corefud(path, read_lines(path) if lines is None else lines, warnings)
    if not documents or not any(d.forms for d in documents):
        raise InputError(path, None, "no word lines found: not a CoNLL-U file")
    return documents

"""CorefUD 1.x CoNLL-U reader: coreference from `Entity=` in MISC, heads from the dependency tree.

What is read, and why it is read that way:
- `# newdoc id = X` starts document X; a file without any `# newdoc` is one document, and a
  document without an id is named by its position (`document 1`), so that key and response files
  without ids pair by position.  `# global.Entity = ...` declares the order of the attributes inside an opening bracket
  (default `eid-etype-head-other`; `GRP` is GUM's name for `eid`, `entity` the old name for `etype`).
- Tokens are the word lines (integer ID).  Multiword-token ranges (`1-2`) and empty nodes (`1.1`)
  are not tokens, so token offsets agree with CoNLL-2012 and jsonlines versions of the same text.
  Brackets on an empty node attach to the neighbouring words: an opening to the next word, a closing
  to the previous one; a mention made only of empty nodes (a zero) cannot be a token span and is
  dropped with a warning.
- `Entity=` chunks: `(eid-...` opens, `eid)` closes the most recent open mention of that entity,
  `(eid-...)` is a one-word mention.  Chunks are applied in text order (the CorefUD semantics), but
  chains are created and mentions completed in the order the CoNLL-2012 reader uses (one-word
  mentions, then openings, then closings), because that order decides which copy of a duplicated
  span the official scorer keeps and the same text must score the same in every format.
- Discontinuous mentions (`(e5[1/2]-...`, `e5[1/2])`) are read as the span from the first word of
  their first part to the last word of their last part (a warning says so once per file).
- POS: XPOS when the document's XPOS tags are Penn Treebank tags, else UPOS mapped to PTB
  (PROPN->NNP, PRON->PRP, NOUN->NN...), so the mention-type rules see one tag set.
- Heads: the basic-tree HEAD column as document-level token indices (-1 for a root).
- Named entities: a mention whose head word is a proper noun becomes an entity span labelled from its
  etype (person->PERSON, place->GPE...), outermost spans only (one layer, like an OntoNotes NE
  column): the derivation of GUM's own CoNLL-2012 release, whose NE spans this reproduces in
  4871 of 4947 cases on the open GUM subset (labels agree on every shared span).  Mention
  types are never taken from etype: an etype says person/place, not name/nominal/pronoun.
Everything else in MISC (GUM's Discourse=, MSeg=, XML=...) is ignored.  Malformed lines raise
`InputError(path, line, message)`.
"""

from __future__ import annotations

import re

from metrics.formats.conllu_rules import (DISCONTINUOUS, closes_nothing, discontinuous_id, entity_chunks,
                                          entity_fields, head_error, is_number, never_closed, part_missing,
                                          part_without_first, unknown_id, wrong_columns)
from metrics.formats.source import FIRST_SUCH_LINE, read_lines
from metrics.mentions.heads import head_of
from metrics.model import Document, InputError, Span

_DEFAULT_FIELDS = ["eid", "etype", "head", "other"]

PTB_TAGS = frozenset(
    "CC CD DT EX FW IN JJ JJR JJS LS MD NN NNS NNP NNPS PDT POS PRP PRP$ RB RBR RBS RP SYM TO UH "
    "VB VBD VBG VBN VBP VBZ WDT WP WP$ WRB HYPH NFP ADD AFX GW XX -LRB- -RRB- `` '' $ # , . :".split()
)
"""Penn Treebank tags (with the OntoNotes/EWT additions): XPOS drawn from this set is used as is."""

UPOS_TO_PTB = {
    "ADJ": "JJ", "ADP": "IN", "ADV": "RB", "AUX": "MD", "CCONJ": "CC", "DET": "DT", "INTJ": "UH",
    "NOUN": "NN", "NUM": "CD", "PART": "RP", "PRON": "PRP", "PROPN": "NNP", "PUNCT": ".",
    "SCONJ": "IN", "SYM": "SYM", "VERB": "VB", "X": "FW",
}
"""UPOS -> the PTB tag a head-based mention-type rule expects (plural nouns get NNS/NNPS)."""

ETYPE_TO_NE = {
    "person": "PERSON", "place": "GPE", "organization": "ORG", "time": "DATE", "event": "EVENT",
    "object": "PRODUCT",
}
"""Entity type of a proper-noun-headed mention -> OntoNotes NE label; other types become MISC."""


def _ptb_from_upos(upos: str, feats: str) -> str:
    tag = UPOS_TO_PTB.get(upos, "XX")
    if tag in ("NN", "NNP") and "Number=Plur" in feats:
        return tag + "S"
    if tag == "PRP" and "Poss=Yes" in feats:
        return "PRP$"
    return tag


ENTITY_REDECLARED = ("'# global.Entity' declared again with other fields: each document is read by the declaration "
                     "before it, where corefud-scorer (udapi) reads the whole file by the last one, so its scores "
                     "may differ")
"""Why a warning: a file whose documents declare their fields in different orders reads here by
each document's own declaration, and in udapi by the file's last (the first documents' entity IDs
then read as types): the two scores differed without a word (hostile round five)."""
ENTITY_ON_A_RANGE = ("Entity= on a multiword token's line is ignored, as udapi reads it for corefud-scorer: "
                     "its mentions belong on the words")
"""Why a warning: a mention written on the range line (`3-4 don't ... Entity=(e1)`) is lost in
both readers and in corefud-scorer alike, without a word (hostile round four)."""


ENTITY_TWICE = "Entity= is given twice in MISC (udapi would keep the last silently)"
"""Why a MISC with `Entity=` twice is refused (both readers'): udapi (so corefud-scorer) keeps the
last one silently, and any one reading of it would score a different file than the system meant."""


NEWDOC_INSIDE_A_SENTENCE = "'# newdoc' inside a sentence: a blank line must end the sentence before it"
"""Why an error: udapi gives the whole sentence to the new document, and the two readers failed
later, each at another line with another message (hostile round four)."""

_NEWDOC = re.compile(r"# newdoc(?:\s+id\s*=\s*(.+))?$")


def newdoc(line: str) -> str | None:
    """The name a `# newdoc` line gives ("" when it gives none), or None when the line starts no
    document.  One rule for every CoNLL-U reader, udapi's (corefud-scorer reads with it): `# newdoc`
    or `# newdoc id = NAME`; `# newdocument`, `#newdoc`, `# newdoc NAME` and `# newdoc id =` are
    comments, which start no document."""
    found = _NEWDOC.match(line.rstrip())
    return None if found is None else (found.group(1) or "").strip()


def word_id_error(word_id: int, last_id: int) -> str | None:
    """What is wrong with a word ID after its sentence's last (`last_id`, 0 before its first), or
    None: the one rule of both CoNLL-U readers.  IDs must increase, as words of one ID would be
    taken for one another; a gap (1, 2, 4) is read, as udapi reads it for corefud-scorer, each word
    placed by its ID.  A sentence that starts again at 1 most likely lost the blank line that ends
    the one before."""
    if word_id > last_id:
        return None
    if last_id == 0:
        return f"word ID {word_id}: word IDs count from 1"
    hint = ": is the blank line that ends a sentence missing?" if word_id == 1 else ""
    return f"word ID {word_id} follows {last_id}: IDs of a sentence must increase{hint}"


class _DocumentBuilder:
    """One document's tokens, tree and mentions while its lines are read."""

    def __init__(self, path: str, name: str, line: int, fields: list[str]) -> None:
        self.path = path
        self.name = name
        self.line = line
        self.fields = fields
        self.words: list[str] = []
        self.rows: list[list[str]] = []
        self.token_sentence: list[int] = []
        self.upos: list[str] = []
        self.token_lines: list[int] = []
        self.sentence_starts: list[int] = []
        self.speakers: list[str] = []
        self.speaker = "-"
        self.sentence_start = -1
        self.last_id = 0
        self.word_ids: list[int] = []
        self.gapped: list[int] = []
        """The first token of each sentence whose word IDs skip a number (`word_id_error`)."""
        self.chain_of: dict[str, int] = {}
        self.chains: list[list[Span]] = []
        self.labels: list[str] = []
        self.etypes: dict[str, str] = {}
        # per entity: stack of (start token, line, part index, part count); part 0 = contiguous
        self.open: dict[str, list[tuple[int, int, int, int]]] = {}
        # per entity: start tokens of discontinuous mentions whose last part is not closed yet
        self.pending: dict[str, list[tuple[int, int]]] = {}
        """Per entity, the discontinuous mentions begun: their first word and first part's line."""
        self.discontinuous_line = 0
        self.zero_line = 0

    def _chain(self, eid: str) -> int:
        index = self.chain_of.get(eid)
        if index is None:
            index = self.chain_of[eid] = len(self.chains)
            self.chains.append([])
            self.labels.append(eid)
        return index

    def start_sentence(self) -> None:
        if self.sentence_start < 0:
            self.sentence_start = len(self.words)
            self.sentence_starts.append(self.sentence_start)
            self.last_id = 0

    def end_sentence(self) -> None:
        self.sentence_start = -1
        self.speaker = "-"

    def add_word(self, cols: list[str], word_id: int, lineno: int) -> None:
        self.start_sentence()
        if (problem := word_id_error(word_id, self.last_id)) is not None:
            raise InputError(self.path, lineno, problem)
        if word_id != self.last_id + 1 and (not self.gapped or self.gapped[-1] != self.sentence_start):
            self.gapped.append(self.sentence_start)
        self.last_id = word_id
        self.word_ids.append(word_id)
        self.words.append(cols[1])
        self.rows.append(cols)
        self.token_sentence.append(self.sentence_start)
        self.token_lines.append(lineno)
        self.speakers.append(self.speaker)

    def add_entity(self, value: str, lineno: int, on_empty_node: bool) -> None:
        """Apply one `Entity=` value.  On a word it belongs to the last word added."""
        chunks = entity_chunks(value, self.path, lineno)
        # An opening on an empty node starts at the next word; a closing ends at the previous word.
        start_here = len(self.words) if on_empty_node else len(self.words) - 1
        end_here = len(self.words) - 1
        singles: list[tuple[str, Span]] = []
        closed: list[tuple[str, Span]] = []
        new_single: list[str] = []
        new_open: list[str] = []
        for chunk in chunks:
            if chunk[0] == "(":
                closing = chunk[-1] == ")"
                body = chunk[1:-1] if closing else chunk[1:]
                eid, etype = self._parse_opening(body, lineno)
                part, parts = 0, 0
                if eid.endswith("]"):
                    eid, part, parts = discontinuous_id(eid, chunk, self.path, lineno)
                    self.discontinuous_line = self.discontinuous_line or lineno
                if etype and eid not in self.etypes:
                    self.etypes[eid] = etype
                (new_single if closing else new_open).append(eid)
                if part > 1 and not self.pending.get(eid):
                    raise InputError(self.path, lineno, part_without_first(part, parts, eid))
                if part == 1:
                    self.pending.setdefault(eid, []).append((start_here, lineno))
                if closing:
                    span = self._complete(eid, start_here, end_here, part=part, parts=parts, lineno=lineno)
                    if span is not None:
                        singles.append((eid, span))
                else:
                    self.open.setdefault(eid, []).append((start_here, lineno, part, parts))
            else:
                eid = chunk[:-1]
                m = DISCONTINUOUS.match(eid) if eid.endswith("]") else None
                if m:
                    eid = m.group(1)
                stack = self.open.get(eid)
                if not stack:
                    raise InputError(self.path, lineno, closes_nothing(chunk, eid))
                start, _, part, parts = stack.pop()
                span = self._complete(eid, start, end_here, part=part, parts=parts, lineno=lineno)
                if span is not None:
                    closed.append((eid, span))
        for eid in new_single + new_open:
            self._chain(eid)
        for eid, span in singles + closed:
            self.chains[self._chain(eid)].append(span)

    def _parse_opening(self, body: str, lineno: int) -> tuple[str, str]:
        values = body.split("-")
        eid = etype = ""
        for name, val in zip(self.fields, values):
            if name in ("eid", "GRP"):
                eid = val
            elif name in ("etype", "entity"):
                etype = val
        if not eid:
            raise InputError(self.path, lineno, f"no entity ID in ({body}")
        return eid, etype

    def _complete(self, eid: str, start: int, end: int, *, part: int, parts: int, lineno: int) -> Span | None:
        """The finished mention's span, or None while a discontinuous mention has parts to come."""
        if part:
            if part < parts:
                return None
            start = self.pending[eid].pop()[0]
        if end < start:
            self.zero_line = self.zero_line or lineno
            return None
        return (start, end)

    def finish(self, lineno: int) -> Document:
        for eid, stack in self.open.items():
            if stack:
                raise InputError(self.path, stack[0][1], never_closed(eid, self.name))
        for eid, starts in self.pending.items():
            if starts:
                raise InputError(self.path, starts[0][1], part_missing(eid, self.name))
        rows = self.rows
        self.upos = upos = [c[3] for c in rows]
        xpos = [c[4] for c in rows]
        lemmas = [c[2] for c in rows]
        heads: list[int] | None = []
        starts = self.sentence_starts
        sentence_end = dict(zip(starts, starts[1:] + [len(rows)]))
        ids = self.word_ids
        # each token of a sentence with a gap in its IDs, by its ID (the others are at start + ID - 1)
        placed = {start: {ids[k]: k for k in range(start, sentence_end[start])} for start in self.gapped}
        for i, cols in enumerate(rows):
            head = cols[6]
            start = self.token_sentence[i]
            if is_number(head):
                number = int(head)
                at = placed[start].get(number, -1) if start in placed else start + number - 1
                if number == 0:  # (`00` too: start - 1 was the sentence before's last word)
                    at = -1
                elif not start <= at < sentence_end[start]:
                    at = None
            else:
                at = None
            if at is None:  # `_` (no tree: every HEAD still checked) or a fault, said by the one rule
                end = sentence_end[start]
                problem = head_error(head, lambda n: n in ids[start:end])
                if problem is not None:
                    raise InputError(self.path, self.token_lines[i], problem)
                heads = None
            elif heads is not None:
                heads.append(at)
        xpos_ptb = all(x in PTB_TAGS for x in xpos if x != "_") and any(x != "_" for x in xpos)
        if xpos_ptb:
            pos = xpos
        elif any(u != "_" for u in upos):
            pos = [_ptb_from_upos(c[3], c[5]) for c in rows]
        else:
            pos = None
        # an entity whose only mentions were zeros has no chain left: drop it, or it would count
        # as an entity in CEAFe and BLANC
        kept = [i for i, chain in enumerate(self.chains) if chain]
        if len(kept) < len(self.chains):
            self.chains = [self.chains[i] for i in kept]
            self.labels = [self.labels[i] for i in kept]
        doc = Document(
            name=self.name, words=self.words, chains=self.chains, labels=self.labels,
            sentence_starts=self.sentence_starts, path=self.path, line=self.line,
            token_lines=self.token_lines, pos=pos,
            lemmas=lemmas if any(x != "_" for x in lemmas) else None,
            speakers=self.speakers if any(s != "-" for s in self.speakers) else None,
            heads=heads if rows else None,
            entity_types=[self.etypes.get(label) or None for label in self.labels] if self.etypes else None,
        )
        if heads and rows and any(u != "_" for u in self.upos):
            doc.named_entities = self._named_entities(doc)
        return doc

    def _named_entities(self, doc: Document) -> list[tuple[int, int, str]]:
        """Proper-noun-headed mentions as NE spans labelled by their entity's etype."""
        seen: set[tuple[int, int, str]] = set()
        spans: list[tuple[int, int, str]] = []
        propn_before = [0]  # proper nouns before each token: spans without one need no head search
        for upos in self.upos:
            propn_before.append(propn_before[-1] + (upos == "PROPN"))
        for chain, eid in zip(self.chains, self.labels):
            label = ETYPE_TO_NE.get(self.etypes.get(eid, ""), "MISC")
            for start, end in chain:
                if propn_before[end + 1] == propn_before[start]:
                    continue
                head, _ = head_of(doc, (start, end))
                if self.upos[head] == "PROPN" and (start, end, label) not in seen:
                    seen.add((start, end, label))
                    spans.append((start, end, label))
        # one layer, outermost spans first, as an OntoNotes NE column has it (and CoNLL-2012 reads it)
        outermost: list[tuple[int, int, str]] = []
        last_end = -1
        for span in sorted(spans, key=lambda x: (x[0], -x[1])):
            if span[0] > last_end:
                outermost.append(span)
                last_end = span[1]
        return outermost




def parse_conllu(path: str, lines: list[str], warnings: list[str] | None = None) -> list[Document]:
    """Documents of a CoNLL-U text given as lines.  Raises InputError on malformed lines."""
    documents: list[Document] = []
    seen: dict[str, int] = {}
    fields = _DEFAULT_FIELDS
    declared: list[str] | None = None
    current: _DocumentBuilder | None = None
    discontinuous_line = zero_line = range_line = redeclared_line = 0

    def finish(lineno: int) -> None:
        nonlocal current, discontinuous_line, zero_line
        if current is not None:
            if current.words or current.chains:
                documents.append(current.finish(lineno))
                discontinuous_line = discontinuous_line or current.discontinuous_line
                zero_line = zero_line or current.zero_line
            current = None

    for lineno, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r")
        if not line or line.isspace():  # (a blank line to the node reader and to udapi too)
            if current is not None:
                current.end_sentence()
            continue
        if line[0] == "#":
            key, _, value = line[1:].partition("=")
            key = key.strip()
            name = newdoc(line)
            if name is not None:
                if current is not None and current.sentence_start >= 0:
                    raise InputError(path, lineno, NEWDOC_INSIDE_A_SENTENCE)
                finish(lineno)
                name = name or _ordinal_name(len(documents))
                if name in seen:
                    raise InputError(path, lineno, f"document {name!r} appears twice (also on line {seen[name]})")
                seen[name] = lineno
                current = _DocumentBuilder(path, name, lineno, fields)
            elif key == "global.Entity":
                fields = entity_fields(value.strip(), path, lineno)
                if declared is not None and fields != declared:
                    redeclared_line = redeclared_line or lineno
                declared = fields
                if current is not None:
                    current.fields = fields
            elif key == "speaker" and current is not None:
                current.speaker = value.strip() or "-"
            continue
        cols = line.split("\t")
        if len(cols) != 10:
            raise InputError(path, lineno, wrong_columns(len(cols)))
        if current is None:
            name = _ordinal_name(len(documents))
            current = _DocumentBuilder(path, name, lineno, fields)
            seen.setdefault(name, lineno)
        ident = cols[0]
        misc = cols[9]
        if is_number(ident):
            current.add_word(cols, int(ident), lineno)
            if "Entity=" in misc:
                _apply_misc(current, misc, lineno, False)
        elif "." in ident:
            if "Entity=" in misc:
                current.start_sentence()
                _apply_misc(current, misc, lineno, True)
        elif "-" not in ident:
            raise InputError(path, lineno, unknown_id(ident))
        elif "Entity=" in misc:
            range_line = range_line or lineno
    finish(len(lines))
    if warnings is not None:
        if discontinuous_line:
            warnings.append(f"{path}:{discontinuous_line}: discontinuous mentions are read as the span from their first to their last word (first such mention)")
        if range_line:
            warnings.append(f"{path}:{range_line}: {ENTITY_ON_A_RANGE} {FIRST_SUCH_LINE}")
        if redeclared_line:
            warnings.append(f"{path}:{redeclared_line}: {ENTITY_REDECLARED} {FIRST_SUCH_LINE}")
        if zero_line:
            warnings.append(f"{path}:{zero_line}: mentions made only of empty nodes (zeros) are dropped: they have no token span (first such mention)")
    return documents


_SENT_ID = re.compile(r"^# sent_id\s*=?\s*(\S+)")
"""udapi's rule for a sentence's id (its reader's RE_SENT_ID): `# sent_id = X`, or before UD v2 `# sent_id X`."""


def sentence_ids(lines: list[str]) -> dict[str, list[str | None]]:
    """Each document's sentence ids by its name, one per sentence, documents in the file's order
    and named as `parse_conllu` names them (`newdoc`, else by their place; a document only once it
    has a word).  A sentence without one gets the number udapi gives it (the file's bundles so far)
    while no sent_id came before it in the file, else None (udapi names it after that one's bundle,
    which no response can repeat: udapi joins two trees of one id as zones of one bundle).  Why:
    corefud-scorer (udapi) pairs a response's trees with the key's in file order and refuses the
    response unless each pair has one document name and one sent_id, so a response written for
    it takes the key's order and ids (`corefwb convert ... --key KEY.conllu`)."""
    documents: dict[str, list[str | None]] = {}
    current: list[str | None] = []
    name: str | None = None
    sent_id: str | None = None
    """The id the comments before the coming sentence give."""
    in_sentence = False
    bundle, bundles = "", 0  # udapi's last bundle named by a sent_id, and its bundles (a tree joins the last as a zone)

    def finish() -> None:
        if current and name is not None:
            documents.setdefault(name, current)

    for raw in lines:
        line = raw.rstrip("\r")
        if not line or line.isspace():
            in_sentence = False
        elif line[0] == "#":
            given = newdoc(line)
            if given is not None:
                finish()
                name, current = given or _ordinal_name(len(documents)), []
            found = _SENT_ID.match(line)
            if found:
                sent_id = found.group(1)
        elif not in_sentence:
            if name is None:
                name = _ordinal_name(len(documents))
            part = None if sent_id is None else sent_id.split("/", 1)[0]
            bundles, bundle = bundles + (part is None or part != bundle), bundle if part is None else part
            current.append(sent_id if sent_id is not None else None if bundle else str(bundles))
            in_sentence, sent_id = True, None
    finish()
    return documents


def _ordinal_name(count: int) -> str:
    """Name of a document without `# newdoc id`: its position, so key and response pair by position
    (the CorefUD scorer numbers such documents the same way)."""
    return f"document {count + 1}"


def _apply_misc(builder: _DocumentBuilder, misc: str, lineno: int, on_empty_node: bool) -> None:
    entities = [item[7:] for item in misc.split("|") if item.startswith("Entity=")]
    if len(entities) > 1:  # udapi keeps the last, the CorefUD reading applies both: refuse it in both
        raise InputError(builder.path, lineno, ENTITY_TWICE)
    if entities:
        builder.add_entity(entities[0], lineno, on_empty_node)


def read_conllu(path: str, warnings: list[str] | None = None, *, lines: list[str] | None = None) -> list[Document]:
    """Read a CorefUD CoNLL-U file (optionally gzipped) into documents, in file order (from its
    `lines` when they were read already)."""
    documents = parse_conllu(path, read_lines(path) if lines is None else lines, warnings)
    if not documents:
        raise InputError(path, None, "no word lines found: not a CoNLL-U file")
    return documents

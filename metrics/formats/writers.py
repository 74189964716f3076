"""Write Documents back out: CoNLL-2012 (any input converted for the reference scorer) and jsonlines.

Both writers are lossless for what their reader reads: CoNLL-2012 -> write -> read gives the same
Documents (names, words, sentence breaks, POS, parse bits, lemmas, speakers, named entities, chains
in the same order with mentions in the same order), and likewise for jsonlines.  That is what makes a
converted file score exactly like its source.

CoNLL-2012 chain order is "first label seen", mention order "order of completion" (one-token mentions
of a token, then its closings).  A document read from CoNLL-2012 is already in that order, so it
survives; a document from another format may come back with its chains reordered, which changes no
score except through the official scorer's duplicate-span rule.
"""

from __future__ import annotations

import json
import re
from typing import Iterable, Mapping, Sequence, TextIO

from metrics.formats.source import LINE_ENDS
from metrics.model import Document, Span


def _coref_cells(doc: Document) -> list[str]:
    """The coreference column of every token.

    Within a cell, in the well-nested order real files use: openings (by chain; longer first within
    a chain, so that a later `N)` pops the right one), one-token mentions, then closings (innermost,
    i.e. latest-opened, first).  The reader's result does not depend on this order; files written
    from CoNLL-2012 input come out as their source was.  A chain with two crossing mentions cannot
    be written (`N)` would close the wrong one): ValueError.
    """
    n = doc.n_tokens
    singles: list[list[str]] = [[] for _ in range(n)]
    opens: list[list[tuple[int, int, str]]] = [[] for _ in range(n)]
    closes: list[list[tuple[int, int, str]]] = [[] for _ in range(n)]
    labels = doc.labels if len(doc.labels) == len(doc.chains) else []
    if not all(label.isascii() and label.isdigit() for label in labels) or not labels:
        labels = [str(i) for i in range(len(doc.chains))]  # v8.01 reads digits only (CoNLL-U's are `e1`)
    repeated = doc.repeated or {}

    def rank(c: int, span: tuple[int, int]) -> int:
        """Copies of a repeated span in the order the source completed them (`Document.repeated`)."""
        return repeated[span].index(c) if c in repeated.get(span, ()) else c

    for c, (chain, label) in enumerate(zip(doc.chains, labels)):
        _check_nesting(doc, label, [(s, e) for s, e in chain if s != e])
        for s, e in chain:
            if s == e:
                singles[s].append((rank(c, (s, e)), label))
            else:
                opens[s].append((c, s - e, label))
                closes[e].append((-s, rank(c, (s, e)), label))
    out = []
    for t in range(n):
        parts = [f"({label}" for _, _, label in sorted(opens[t])]
        parts += [f"({x})" for _, x in sorted(singles[t], key=lambda item: item[0])]
        parts += [f"{label})" for _, _, label in sorted(closes[t])]
        out.append("|".join(parts) if parts else "-")
    return out


def _check_nesting(doc: Document, label: str, spans: list[Span], target: str = "CoNLL-2012") -> None:
    """Multi-token mentions of one chain must nest or be disjoint to survive `N)` semantics (a
    closing bracket names the chain, not the mention: it closes the one opened last).  CoNLL-U's
    `eN)` is read the same way, by corefud-scorer's udapi and by us."""
    stack: list[int] = []
    for s, e in sorted(spans, key=lambda m: (m[0], -m[1])):
        while stack and stack[-1] < s:
            stack.pop()
        if stack and e > stack[-1]:
            raise ValueError(f"document {doc.name!r}: chain {label} has crossing mentions ending at {stack[-1]} and {e}; {target} cannot express them")
        stack.append(e)


def _column(values: list[str] | None, n: int) -> list[str]:
    return values if values is not None and len(values) == n else ["-"] * n


def _ne_cells(doc: Document) -> list[str]:
    """OntoNotes bracket NE column; nested entities cannot be written in one column and are skipped."""
    cells = ["*"] * doc.n_tokens
    last_end = -1
    for start, end, label in sorted(doc.named_entities or [], key=lambda x: (x[0], -x[1])):
        if start <= last_end:
            continue
        last_end = end
        if start == end:
            cells[start] = f"({label})"
        else:
            cells[start] = f"({label}*"
            cells[end] = "*)"
    return cells


def conll_name_parts(name: str) -> tuple[str, str]:
    """Column 1 and 2 values (document id, part number) for a document name.  A token line must not
    start with `#` (readers take it for a comment): such an id (`#1`, a record named by its place)
    is written `-`.  Columns are split at whitespace (v8.01's and ours), so whitespace inside the
    id or the part (`(a b); part 0`, a TAB in a jsonlines doc_key) is written `_`: else every
    column after it would shift, and the words read back would be the token numbers."""
    if "; part " in name:
        base, part = name.rsplit("; part ", 1)
        base, part = base.strip().strip("()") or "-", part.strip().lstrip("0") or "0"
    else:
        base, part = name or "-", "0"
    base, part = ("".join("_" if character.isspace() else character for character in value) for value in (base, part))
    return ("-" if base.startswith("#") else base), part


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""A lone surrogate: a jsonlines `\\ud800` escape reads as one, and UTF-8 cannot carry it."""


def _check_text(doc: Document, target: str) -> None:
    """What a CoNLL file cannot carry of a document's text, refused (ValueError): a line break in
    its name, which is written on a line of its own (`#begin document NAME`, `# newdoc id = NAME`)
    and would end that line early; a lone surrogate in its name or a word, which would be written
    as the six characters of its escape, another word.  (jsonlines escapes both.)"""
    if any(end in doc.name for end in LINE_ENDS):
        raise ValueError(f"document {doc.name!r}: its name holds a line break; a {target} header line cannot carry it")
    if _LONE_SURROGATE.search(doc.name):
        raise ValueError(f"document {doc.name!r}: its name holds a lone surrogate, which a {target} file (UTF-8) "
                         f"cannot carry")
    if _LONE_SURROGATE.search("\n".join(doc.words)):
        t = next(t for t, word in enumerate(doc.words) if _LONE_SURROGATE.search(word))
        raise ValueError(f"document {doc.name!r}: token {t} {doc.words[t]!r} holds a lone surrogate, which a {target} "
                         f"file (UTF-8) cannot carry")


def write_conll(documents: Iterable[Document], out: TextIO) -> None:
    """CoNLL-2012, 12 TAB-separated columns, `#begin document NAME` with the name verbatim."""
    for doc in documents:
        n = doc.n_tokens
        doc_id, part = conll_name_parts(doc.name)
        pos = _column(doc.pos, n)
        parse = _column(doc.parse, n)
        lemmas = _column(doc.lemmas, n)
        speakers = _column(doc.speakers, n)
        ner = _ne_cells(doc)
        coref = _coref_cells(doc)
        starts = set(doc.sentence_starts) if doc.sentence_starts else {0}
        _check_text(doc, "CoNLL-2012")
        for t, word in enumerate(doc.words):
            if not word or any(ch.isspace() for ch in word):
                raise ValueError(f"document {doc.name!r}: token {t} {word!r} is empty or holds whitespace; CoNLL-2012 columns cannot carry it")
        out.write(f"#begin document {doc.name}\n")
        index = 0
        for t in range(n):
            if t in starts and t > 0:
                out.write("\n")
                index = 0
            out.write(f"{doc_id}\t{part}\t{index}\t{doc.words[t]}\t{pos[t]}\t{parse[t]}\t{lemmas[t]}\t-\t-\t{speakers[t]}\t{ner[t]}\t{coref[t]}\n")
            index += 1
        if n:
            out.write("\n")
        out.write("#end document\n")


def jsonlines_record(doc: Document, clusters_field: str = "clusters") -> dict:
    """One document as a jsonlines object (per-sentence token, POS and speaker lists)."""
    bounds = list(doc.sentence_starts or [0]) + [doc.n_tokens]
    if bounds[0] != 0:
        bounds.insert(0, 0)

    def by_sentence(values: list[str]) -> list[list[str]]:
        return [values[a:b] for a, b in zip(bounds, bounds[1:]) if b > a]

    record: dict = {"doc_key": doc.name, "sentences": by_sentence(doc.words)}
    record[clusters_field] = [[[s, e] for s, e in chain] for chain in doc.chains]
    if doc.pos is not None:
        record["pos"] = by_sentence(doc.pos)
    if doc.speakers is not None:
        record["speakers"] = by_sentence(doc.speakers)
    if doc.named_entities is not None:
        record["ner"] = [[s, e, label] for s, e, label in doc.named_entities]
    return record


def write_jsonlines(documents: Iterable[Document], out: TextIO, clusters_field: str = "clusters") -> None:
    """One JSON object per line, UTF-8 kept readable (no ASCII escapes)."""
    for doc in documents:
        out.write(json.dumps(jsonlines_record(doc, clusters_field), ensure_ascii=False))
        out.write("\n")


def _sentences(doc: Document) -> list[tuple[int, int]]:
    bounds = sorted(set(doc.sentence_starts or [0]) | {0}) + [doc.n_tokens]
    return [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]


def _conllu_column(values: list[str] | None, n: int) -> list[str]:
    """A token annotation as a CoNLL-U column: `_` where absent or empty, and for a value CoNLL-U
    cannot hold in a cell (a space, a TAB)."""
    if values is None or len(values) != n:
        return ["_"] * n
    return [v if v and v not in ("-",) and not any(c.isspace() for c in v) else "_" for v in values]


def write_conllu(documents: Iterable[Document], out: TextIO,
                 sentence_ids: Mapping[str, Sequence[str | None]] | None = None) -> None:
    """CoNLL-U with CorefUD's `Entity=` in MISC (`# global.Entity = eid-etype-head-other`): one
    entity per chain (`e1`, `e2`... in chain order, numbered on from one document to the next: an
    `eid` names one entity in the whole file, and udapi splits an id met in two documents with a
    warning per id), a mention's head its first word (the file
    has no tree to find another), the POS tags as XPOS and the lemmas as LEMMA (what a jsonlines
    twin carries: mention types and K&K's heads read them), the other columns `_`.  A mention across a sentence boundary
    cannot be written (CoNLL-U mentions stay in their sentence), nor two crossing mentions of one
    chain (`e1)` would close the wrong one): ValueError.  `sentence_ids`: a document's sent_ids
    by its name (a key's, which corefud-scorer wants on the response's sentences), used where they
    are as many as its sentences; otherwise, and where one is None, sentences are numbered from 1."""
    out.write("# global.Entity = eid-etype-head-other\n")
    numbered = 0
    """Entities written so far: the next document's are numbered on from here."""
    for doc in documents:
        sentence_of = {}
        for k, (a, b) in enumerate(_sentences(doc)):
            for t in range(a, b):
                sentence_of[t] = k
        # token -> ((rank, size), text): first the closings of mentions opened before (the shortest,
        # innermost, first: a closing ends its entity's latest open mention), then one-token
        # mentions, then the openings (the longest first, so that it is closed last)
        marks: dict[int, list[tuple[tuple[int, int], str]]] = {}
        for number, chain in enumerate(doc.chains, start=numbered + 1):
            _check_nesting(doc, f"e{number}", [(s, e) for s, e in chain if s != e], "CoNLL-U")
            for start, end in chain:
                if sentence_of.get(start) != sentence_of.get(end):
                    raise ValueError(f"document {doc.name!r}: mention {start}-{end} crosses a sentence boundary, "
                                     f"which CoNLL-U cannot carry")
                if start == end:
                    marks.setdefault(start, []).append(((1, 0), f"(e{number}--1)"))
                else:
                    marks.setdefault(start, []).append(((2, start - end), f"(e{number}--1-"))
                    marks.setdefault(end, []).append(((0, end - start), f"e{number})"))
        numbered += len(doc.chains)
        _check_text(doc, "CoNLL-U")
        out.write(f"# newdoc id = {doc.name}\n")
        tags, lemmas = _conllu_column(doc.pos, doc.n_tokens), _conllu_column(doc.lemmas, doc.n_tokens)
        sentences = _sentences(doc)
        given = (sentence_ids or {}).get(doc.name)
        ids = [given[k] or str(k + 1) for k in range(len(sentences))] if given and len(given) == len(sentences) \
            else [str(k + 1) for k in range(len(sentences))]
        for k, (a, b) in enumerate(sentences):
            out.write(f"# sent_id = {ids[k]}\n# text = {' '.join(doc.words[a:b])}\n")
            for t in range(a, b):
                word = doc.words[t]
                if not word or "\t" in word or any(end in word for end in LINE_ENDS):
                    raise ValueError(f"document {doc.name!r}: token {t} {word!r} cannot be a CoNLL-U form")
                misc = "Entity=" + "".join(text for _, text in sorted(marks[t], key=lambda m: m[0])) if t in marks else "_"
                out.write(f"{t - a + 1}\t{word}\t{lemmas[t]}\t_\t{tags[t]}\t_\t_\t_\t_\t{misc}\n")
            out.write("\n")


def output_record(doc: Document, kind: str) -> dict:
    """One document as a system writes it (metrics.formats.outputs has each kind's fields):
    `hoi` cuts every word into wordpieces of 3 characters (`##` marks the rest) between `[CLS]` and
    `[SEP]` per sentence; `wl`, `maverick` and `text` keep the words (text: joined by spaces)."""
    sentences = _sentences(doc)
    chains = doc.chains
    if kind == "wl":
        sent_id = [k for k, (a, b) in enumerate(sentences) for _ in range(a, b)]
        return {"document_id": doc.name, "cased_words": doc.words, "sent_id": sent_id,
                "span_clusters": [[[s, e + 1] for s, e in chain] for chain in chains]}
    if kind == "maverick":
        return {"doc_key": doc.name, "tokens": [doc.words[a:b] for a, b in sentences],
                "clusters_token_offsets": [[[s, e] for s, e in chain] for chain in chains]}
    if kind == "text":
        offsets, position = [], 0
        for word in doc.words:
            offsets.append(position)
            position += len(word) + 1
        return {"doc_key": doc.name, "text": " ".join(doc.words),
                "clusters_char_offsets": [[[offsets[s], offsets[e] + len(doc.words[e])] for s, e in chain]
                                          for chain in chains]}
    if kind != "hoi":
        raise ValueError(f"unknown system output {kind!r}")
    pieces_of, subtoken_map, sentence_map, first, last = [], [], [], {}, {}
    for k, (a, b) in enumerate(sentences):
        segment = ["[CLS]"]
        subtoken_map.append(max(a - 1, 0))
        for w in range(a, b):
            word = doc.words[w]
            for j, piece in enumerate([word[i:i + 3] for i in range(0, len(word), 3)] or [word]):
                first.setdefault(w, len(subtoken_map))
                last[w] = len(subtoken_map)
                segment.append(piece if j == 0 else "##" + piece)
                subtoken_map.append(w)
        segment.append("[SEP]")
        subtoken_map.append(b - 1)
        sentence_map += [k] * len(segment)
        pieces_of.append(segment)
    return {"doc_key": doc.name, "sentences": pieces_of, "subtoken_map": subtoken_map, "sentence_map": sentence_map,
            "clusters": [[[first[s], last[e]] for s, e in chain] for chain in chains]}


def write_outputs(documents: Iterable[Document], out: TextIO, kind: str) -> None:
    for doc in documents:
        out.write(json.dumps(output_record(doc, kind), ensure_ascii=False))
        out.write("\n")

"""jsonlines reader: the format most neural coreference systems read and write (one document a line).

A line is a JSON object with
- `doc_key`: the document name (required, unique in the file);
- `sentences`: a list of sentences, each a list of token strings (tokens are numbered over the
  flattened list, as in CoNLL-2012, so spans of the three formats agree);
- `clusters` (or another field chosen by the caller, typically `predicted_clusters`): a list of
  chains, each a list of `[start, end]` token offsets, inclusive;
- optional `pos` and `speakers`: per token, either per sentence (list of lists) or flat;
- optional `ner`: either `[start, end, label]` triples (per sentence or flat, offsets over the
  flattened tokens, the OntoNotes jsonlines convention) or one tag per token (BIO or plain labels).
Chains keep the file's order and mentions their listed order: that is the only order the format has.
A chain's label is its index in the cluster list; empty clusters are dropped (they are no entity).
Every problem raises `InputError(path, line, message)` naming the JSON field.
"""

from __future__ import annotations

import json
import re
import sys
from typing import cast
from collections.abc import Callable

from metrics.model import Document, InputError, Span

_NO_TAG = ("O", "-", "*", "_", "")


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


class _Line:
    """Error helper bound to one line of one file."""

    def __init__(self, path: str, lineno: int) -> None:
        self.path = path
        self.lineno = lineno

    def error(self, message: str) -> InputError:
        return InputError(self.path, self.lineno, message)


def _per_token(where: _Line, value: object, field: str, sentences: list[list[str]], n: int) -> list[str]:
    """A per-token string annotation given per sentence or flat, checked against the token count."""
    if not isinstance(value, list):
        raise where.error(f"field {field!r} must be a list")
    if len(value) == len(sentences) and all(isinstance(s, list) for s in value):
        flat: list[object] = []
        for i, (sent, tags) in enumerate(zip(sentences, value)):
            if len(tags) != len(sent):
                raise where.error(f"field {field!r}[{i}] has {len(tags)} items for a sentence of {len(sent)} tokens")
            flat.extend(tags)
    elif value and all(isinstance(s, list) for s in value):  # per sentence, but not the sentences' count
        raise where.error(f"field {field!r} has {len(value)} sentences where 'sentences' has {len(sentences)}")
    else:
        flat = value
    if len(flat) != n:
        raise where.error(f"field {field!r} has {len(flat)} items for {n} tokens")
    for i, tag in enumerate(flat):
        if not isinstance(tag, str):
            raise where.error(f"field {field!r}: item {i} is {type(tag).__name__}, not a string")
    return cast("list[str]", flat)  # every item checked above


def _ner(where: _Line, value: object, sentences: list[list[str]], n: int) -> list[tuple[int, int, str]]:
    if not isinstance(value, list):
        raise where.error("field 'ner' must be a list")
    items: list[object] = []
    nested = all(isinstance(s, list) for s in value)
    if nested and all(isinstance(t, list) for s in value for t in s):
        for s in value:
            items.extend(s)  # per sentence lists of triples
    elif nested and not all(isinstance(t, str) for s in value for t in s):
        items = list(value)  # a flat list of triples
    else:
        tags = _per_token(where, value, "ner", sentences, n)
        return _tag_spans(tags)
    spans: list[tuple[int, int, str]] = []
    for k, item in enumerate(items):
        if not (isinstance(item, list) and len(item) == 3 and _is_int(item[0]) and _is_int(item[1]) and isinstance(item[2], str)):
            raise where.error(f"field 'ner': item {k} {json.dumps(item)[:60]} is not [start, end, label]")
        start, end, label = item
        if not 0 <= start <= end < n:
            problem = "ends before it starts" if 0 <= end < start < n else f"outside the document's {n} tokens"
            raise where.error(f"field 'ner': span [{start}, {end}] {problem}")
        spans.append((start, end, label))
    return spans


def _tag_spans(tags: list[str]) -> list[tuple[int, int, str]]:
    """Per-token tags (BIO `B-PER`/`I-PER` or plain `PER`) -> (start, end, label) spans."""
    spans: list[tuple[int, int, str]] = []
    start, label = -1, ""
    for i, tag in enumerate(tags + ["O"]):
        begin = tag.startswith(("B-", "S-", "U-"))
        inside = tag.startswith(("I-", "E-", "L-"))
        name = tag[2:] if begin or inside else tag
        if name in _NO_TAG or begin or name != label or start < 0:
            if start >= 0:
                spans.append((start, i - 1, label))
                start = -1
            if name not in _NO_TAG:
                start, label = i, name
    return spans


def parse_document(where: _Line, obj: object, clusters_field: str) -> Document:
    """One jsonlines object -> Document."""
    if not isinstance(obj, dict):
        raise where.error(f"a line must hold a JSON object, not {type(obj).__name__}")
    name = obj.get("doc_key")
    if not isinstance(name, str) or not name:
        raise where.error("field 'doc_key' is missing or not a non-empty string")
    sentences = obj.get("sentences")
    if not isinstance(sentences, list):
        raise where.error("field 'sentences' is missing or not a list of token lists")
    words: list[str] = []
    starts: list[int] = []
    for i, sent in enumerate(sentences):
        if not isinstance(sent, list):
            raise where.error(f"field 'sentences'[{i}] is not a list of tokens")
        for j, token in enumerate(sent):
            if not isinstance(token, str):
                raise where.error(f"field 'sentences'[{i}][{j}] is {type(token).__name__}, not a string")
        if sent:
            starts.append(len(words))
            words.extend(sent)
    n = len(words)
    if clusters_field not in obj:
        present = [k for k in obj if "cluster" in k]
        hint = f" (fields present: {', '.join(present)})" if present else ""
        raise where.error(f"field {clusters_field!r} is missing{hint}")
    clusters = obj[clusters_field]
    if not isinstance(clusters, list):
        raise where.error(f"field {clusters_field!r} must be a list of clusters")
    chains: list[list[Span]] = []
    labels: list[str] = []
    for c, cluster in enumerate(clusters):
        if not isinstance(cluster, list):
            raise where.error(f"field {clusters_field!r}[{c}] is not a list of [start, end] spans")
        chain: list[Span] = []
        for m, span in enumerate(cluster):
            if not (isinstance(span, list) and len(span) == 2 and _is_int(span[0]) and _is_int(span[1])):
                raise where.error(f"field {clusters_field!r}[{c}][{m}] {json.dumps(span)[:60]} is not [start, end]")
            start, end = span
            if not 0 <= start <= end < n:
                problem = "ends before it starts" if 0 <= end < start < n else f"outside the document's {n} tokens"
                raise where.error(f"field {clusters_field!r}[{c}][{m}] span [{start}, {end}] {problem}")
            chain.append((start, end))
        if chain:  # an empty cluster is no entity; it must not count as a chain in CEAFe or BLANC
            chains.append(chain)
            labels.append(str(c))
    pos = _per_token(where, obj["pos"], "pos", sentences, n) if obj.get("pos") is not None else None
    speakers = _per_token(where, obj["speakers"], "speakers", sentences, n) if obj.get("speakers") is not None else None
    ner = _ner(where, obj["ner"], sentences, n) if obj.get("ner") is not None else None
    return Document(
        name=name, words=words, chains=chains, labels=labels,
        sentence_starts=starts, path=where.path, line=where.lineno, token_lines=[where.lineno] * n,
        pos=pos, speakers=speakers, named_entities=ner,
    )


class _FieldTwice(ValueError):
    """A JSON object names a field twice (its name in args[0])."""


def _unique_fields(pairs: list[tuple[str, object]]) -> dict:
    """A JSON object, refused when a field comes twice: `json.loads` would keep the last copy."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for name, _ in pairs:
            if name in seen:
                raise _FieldTwice(name)
            seen.add(name)
    return obj


def json_failure(error: ValueError | RecursionError) -> str:
    """What is wrong with text `json.loads` failed on, in words for a located error: its own
    message and column for malformed JSON, and for the two failures it raises as something else
    (nesting deeper than Python's recursion; an integer of more digits than Python converts, whose
    message advises `sys.set_int_max_str_digits`, which no user can call) what the file holds."""
    if isinstance(error, json.JSONDecodeError):
        return f"invalid JSON: {error.msg.removesuffix(' at')} at column {error.colno}"
    if isinstance(error, RecursionError):
        return "invalid JSON: nested too deeply"
    digits = re.search(r"value has (\d+) digits", str(error))
    if digits:
        return f"invalid JSON: a number of {int(digits.group(1)):,} digits (at most {sys.get_int_max_str_digits():,} are read)"
    return f"invalid JSON: {error}"


def parse_jsonlines(path: str, lines: list[str], clusters_field: str = "clusters",
                    parse: Callable[[_Line, object], Document] | None = None) -> list[Document]:
    """Documents of a jsonlines text given as lines, each record read by `parse` (ours by
    default; metrics.formats.outputs reads the systems' own).  Raises InputError naming line and field."""
    documents: list[Document] = []
    seen: dict[str, int] = {}
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = _Line(path, lineno)
        try:
            obj = json.loads(line, object_pairs_hook=_unique_fields)
        except _FieldTwice as exc:
            raise where.error(f"field {exc.args[0]!r} is given twice (JSON would keep the last silently)") from None
        except (ValueError, RecursionError) as exc:
            raise where.error(json_failure(exc)) from None
        doc = parse(where, obj) if parse is not None else parse_document(where, obj, clusters_field)
        if doc.name in seen:
            raise where.error(f"document {doc.name!r} appears twice (also on line {seen[doc.name]})")
        seen[doc.name] = lineno
        documents.append(doc)
    return documents

"""jsonlines as today's systems write it, told apart by its fields (docs/formats.md has an example of each).

- `hoi`: coref-hoi, SpanBERT, s2e, LingMess (their training data and predictions): `sentences` of
  subtokens with `[CLS]`/`[SEP]` (or `<s>`/`</s>`), `subtoken_map` (subtoken -> word),
  `sentence_map`, chains in subtoken offsets `[start, end]`, inclusive, under `clusters` (or the
  `--clusters-field`, e.g. `predicted_clusters`).  A word is the subtokens that map to it
  (`##`, `Ġ` and `▁` marks dropped); the special subtokens, and a speaker placeholder between two
  `[SPL]`, are no words.  A mention must start on a word's first subtoken and end on its last.
- `wl`: wl-coref: `document_id`, `cased_words`, `sent_id` per word, `span_clusters` in word
  offsets `[start, end)`, exclusive.
- `maverick`: Maverick's `predict` output saved as it is: `tokens` (words, flat or per sentence),
  `clusters_token_offsets` in word offsets `[start, end]`, inclusive.
- `text`: plain text with character offsets, as fastcoref returns them and as an LLM writes them:
  `text`, `clusters_char_offsets` `[start, end)`, exclusive.  The text is cut into words at
  whitespace and at every mention boundary, so each mention is a run of whole words.

Documents are named by `doc_key` or `document_id` where the record has one (`NAME_PART` meets the
key's `(NAME); part PART`, as for our own jsonlines); a record without one is named `#N`, its
place in the file, and pairs with the key's Nth document.  Their words are the system's own, so
every document of these formats is mapped onto the key's words by characters before it is scored
(`Document.own_words`; metrics.mentions.characters).  Every problem is an InputError naming the
line and the field.
"""

from __future__ import annotations

import json
import re

from metrics.formats.jsonlines import _is_int, _Line, parse_document, parse_jsonlines
from metrics.formats.source import read_lines
from metrics.model import Document, InputError, Span

KINDS = ("hoi", "wl", "maverick", "text")
SPECIAL = frozenset(("[CLS]", "[SEP]", "<s>", "</s>", "[PAD]"))
SPEAKER_MARK = "[SPL]"
_PIECE_MARKS = re.compile(r"^(##|Ġ|▁)")


def output_kind(obj: dict) -> str | None:
    """Which system's jsonlines a record is, by its fields; None for our own (`doc_key`, `sentences`)."""
    if "subtoken_map" in obj:
        return "hoi"
    if "cased_words" in obj and "span_clusters" in obj:
        return "wl"
    if "clusters_token_offsets" in obj and "tokens" in obj:
        return "maverick"
    if "clusters_char_offsets" in obj and "text" in obj:
        return "text"
    return None


_OWN_FIELDS = {"wl": ("cased_words", "span_clusters"), "maverick": ("tokens", "clusters_token_offsets"),
               "text": ("text", "clusters_char_offsets")}
"""The two fields that tell each kind but hoi (told by `subtoken_map` alone)."""


def _unfinished_kind(where: _Line, obj: dict) -> None:
    """A record that has one of a system's own fields but not the other, or a hoi record without
    `subtoken_map`, is refused naming that format's field, not read as our jsonlines (whose
    `doc_key` and `sentences` it never meant to have)."""
    for kind, fields in _OWN_FIELDS.items():
        present = [f for f in fields if f in obj]
        if present and len(present) < len(fields) and "sentences" not in obj:
            missing = next(f for f in fields if f not in obj)
            raise where.error(f"field {missing!r} is missing (a {kind} record: it has {present[0]!r})")
    sentences = obj.get("sentences")
    if isinstance(sentences, list) and ("sentence_map" in obj or any(
            isinstance(s, list) and any(isinstance(p, str) and p in SPECIAL for p in s) for s in sentences)):
        why = "it has a sentence_map" if "sentence_map" in obj else "its sentences hold special subtokens ([CLS], <s> ...)"
        raise where.error(f"field 'subtoken_map' is missing (a hoi record: {why})")


def _name(obj: dict, number: int) -> str:
    """`doc_key` or `document_id` (with a separate integer `part_id` as `_PART`), else `#N`."""
    for field in ("doc_key", "document_id"):
        if isinstance(obj.get(field), str) and obj[field]:
            part = obj.get("part_id")
            if _is_int(part) and not re.search(r"_[0-9]+$", obj[field]):
                return f"{obj[field]}_{part}"
            return obj[field]
    return f"#{number}"


def _spans(where: _Line, obj: dict, field: str, n: int, *, exclusive: bool, unit: str) -> list[list[Span]]:
    """The chains of `field`: lists of [start, end] pairs within 0..n, `exclusive` ends made inclusive."""
    if field not in obj:
        raise where.error(f"field {field!r} is missing")
    clusters = obj[field]
    if not isinstance(clusters, list):
        raise where.error(f"field {field!r} must be a list of clusters")
    chains = []
    for c, cluster in enumerate(clusters):
        if not isinstance(cluster, list):
            raise where.error(f"field {field!r}[{c}] is not a list of spans")
        chain = []
        for m, span in enumerate(cluster):
            if not (isinstance(span, list) and len(span) == 2 and _is_int(span[0]) and _is_int(span[1])):
                raise where.error(f"field {field!r}[{c}][{m}] {json.dumps(span)[:60]} is not [start, end]")
            start, end = span
            last = end - 1 if exclusive else end
            bracket = ")" if exclusive else "]"
            if not 0 <= start <= last < n:
                problem = ("is empty or ends before it starts" if 0 <= last < start < n
                           else f"is outside the document's {n} {unit}")
                raise where.error(f"field {field!r}[{c}][{m}] [{start}, {end}{bracket} {problem} "
                                  f"(ends are {'exclusive' if exclusive else 'inclusive'})")
            chain.append((start, last))
        chains.append(chain)
    return chains


def _document(where: _Line, name: str, words: list[str], starts: list[int], chains: list[list[Span]]) -> Document:
    kept = [(str(i), chain) for i, chain in enumerate(chains) if chain]  # an empty cluster is no entity
    return Document(name=name, words=words, chains=[c for _, c in kept], labels=[label for label, _ in kept],
                    sentence_starts=starts, path=where.path, line=where.lineno, token_lines=[where.lineno] * len(words),
                    own_words=True)


def _hoi(where: _Line, obj: dict, clusters_field: str, number: int) -> Document:
    sentences, subtoken_map = obj.get("sentences"), obj["subtoken_map"]
    if not (isinstance(sentences, list) and all(isinstance(s, list) for s in sentences)):
        raise where.error("field 'sentences' must be a list of lists of subtokens")
    pieces = [p for s in sentences for p in s]
    if not isinstance(subtoken_map, list) or len(subtoken_map) != len(pieces) or not all(_is_int(w) for w in subtoken_map):
        raise where.error(f"field 'subtoken_map' must hold one word number per subtoken ({len(pieces)})")
    if any(w < 0 for w in subtoken_map):
        raise where.error(f"field 'subtoken_map': subtoken {next(i for i, w in enumerate(subtoken_map) if w < 0)} "
                          "has a negative word number")
    sentence_map = obj.get("sentence_map")
    if sentence_map is not None and (not isinstance(sentence_map, list) or len(sentence_map) != len(pieces)
                                     or not all(_is_int(x) for x in sentence_map)):
        raise where.error(f"field 'sentence_map' must hold one sentence number per subtoken ({len(pieces)})")
    word_of: list[int | None] = []  # subtoken -> our word number (None: special or a speaker placeholder)
    words: list[str] = []
    starts: list[int] = []
    numbers: dict[int, int] = {}
    in_speaker = False
    last_sentence: int | None = None
    last_word = -1
    for i, piece in enumerate(pieces):
        if not isinstance(piece, str):
            raise where.error(f"field 'sentences': subtoken {i} is {type(piece).__name__}, not a string")
        if piece == SPEAKER_MARK:
            in_speaker = not in_speaker
        if piece in SPECIAL or piece == SPEAKER_MARK or in_speaker:
            word_of.append(None)
            continue
        word_number = subtoken_map[i]  # not `number`: that is the record's place, its name without doc_key
        sentence = sentence_map[i] if sentence_map is not None else None
        if word_number not in numbers:
            if numbers and word_number < last_word:
                raise where.error(f"field 'subtoken_map': subtoken {i} has word {word_number} after word {last_word}: "
                                  "word numbers never decrease")
            if sentence is not None and last_sentence is not None and sentence < last_sentence:
                raise where.error(f"field 'sentence_map': subtoken {i} has sentence {sentence} after sentence "
                                  f"{last_sentence}: sentence numbers never decrease")
            numbers[word_number] = len(words)
            last_word = word_number
            words.append("")
            if not starts or (sentence is not None and sentence != last_sentence):
                starts.append(len(words) - 1)
            last_sentence = sentence
        elif numbers[word_number] != len(words) - 1:
            raise where.error(f"field 'subtoken_map': subtoken {i} returns to word {word_number} after another word")
        elif sentence is not None and sentence != last_sentence:
            raise where.error(f"field 'sentence_map': subtoken {i} puts word {word_number} in sentence {sentence}, "
                              f"its first subtoken in sentence {last_sentence}: a word is in one sentence")
        words[-1] += _PIECE_MARKS.sub("", piece)
        word_of.append(numbers[word_number])
    chains = _spans(where, obj, clusters_field, len(pieces), exclusive=False, unit="subtokens")
    out = []
    for c, chain in enumerate(chains):
        spans = []
        for m, (s, e) in enumerate(chain):
            first, last = word_of[s], word_of[e]
            problem = None
            if first is None or last is None:
                problem = f"subtoken {s if first is None else e} ({pieces[s if first is None else e]!r}) is no word"
            elif s > 0 and word_of[s - 1] == first:
                problem = f"subtoken {s} ({pieces[s]!r}) is inside word {first}"
            elif e + 1 < len(pieces) and word_of[e + 1] == last:
                problem = f"subtoken {e} ({pieces[e]!r}) is inside word {last}"
            if problem:
                raise where.error(f"field {clusters_field!r}[{c}][{m}] [{s}, {e}]: {problem}: a mention starts on a "
                                  f"word's first subtoken and ends on its last")
            spans.append((first, last))
        out.append(spans)
    return _document(where, _name(obj, number), words, starts, out)


def _words(where: _Line, value: object, field: str) -> tuple[list[str], list[int]]:
    """Words given flat or per sentence, with the sentence starts."""
    if not isinstance(value, list):
        raise where.error(f"field {field!r} must be a list of words")
    if value and all(isinstance(s, list) for s in value):
        words, starts = [], []
        for s in value:
            if s:
                starts.append(len(words))
                words.extend(s)
    else:
        words, starts = list(value), [0] if value else []
    for i, w in enumerate(words):
        if not isinstance(w, str):
            raise where.error(f"field {field!r}: word {i} is {type(w).__name__}, not a string")
    return words, starts


def _wl(where: _Line, obj: dict, number: int) -> Document:
    words, _ = _words(where, obj["cased_words"], "cased_words")
    sent_id = obj.get("sent_id")
    starts = [0] if words else []
    if sent_id is not None:
        if not isinstance(sent_id, list) or len(sent_id) != len(words) or not all(_is_int(x) for x in sent_id):
            raise where.error(f"field 'sent_id' must hold one sentence number per word ({len(words)})")
        starts = [i for i in range(len(words)) if i == 0 or sent_id[i] != sent_id[i - 1]]
    chains = _spans(where, obj, "span_clusters", len(words), exclusive=True, unit="words")
    return _document(where, _name(obj, number), words, starts, chains)


def _maverick(where: _Line, obj: dict, number: int) -> Document:
    words, starts = _words(where, obj["tokens"], "tokens")
    chains = _spans(where, obj, "clusters_token_offsets", len(words), exclusive=False, unit="words")
    return _document(where, _name(obj, number), words, starts, chains)


def _text(where: _Line, obj: dict, number: int) -> Document:
    text = obj["text"]
    if not isinstance(text, str):
        raise where.error("field 'text' must be a string")
    chains = _spans(where, obj, "clusters_char_offsets", len(text), exclusive=True, unit="characters")
    cuts = {s for chain in chains for s, _ in chain} | {e + 1 for chain in chains for _, e in chain}
    words, offsets = [], []  # words: runs of non-whitespace, cut at every mention boundary
    start = None
    for i, ch in enumerate(text + " "):
        if start is not None and (ch.isspace() or i in cuts):
            words.append(text[start:i])
            offsets.append(start)
            start = None
        if start is None and not ch.isspace():
            start = i
    first_word = {o: w for w, o in enumerate(offsets)}
    last_word = {o + len(words[w]) - 1: w for w, o in enumerate(offsets)}
    out = []
    for c, chain in enumerate(chains):
        spans = []
        for m, (s, e) in enumerate(chain):
            while s <= e and text[s].isspace():  # a mention's own surrounding spaces are not in it
                s += 1
            while e >= s and text[e].isspace():
                e -= 1
            if s > e:
                raise where.error(f"field 'clusters_char_offsets'[{c}][{m}] covers only whitespace")
            spans.append((first_word[s], last_word[e]))
        out.append(spans)
    return _document(where, _name(obj, number), words, [0] if words else [], out)


def _parse(forced: str | None, clusters_field: str):
    """A record's parser: one kind forced, or each record's kind told by its fields."""
    count = [0]

    def parse(where: _Line, obj: object) -> Document:
        count[0] += 1
        if not isinstance(obj, dict):
            raise where.error("a line must be a JSON object")
        kind = forced or output_kind(obj)
        if forced is not None and output_kind(obj) not in (forced, None):
            raise where.error(f"a {output_kind(obj)} record where --response-format {forced} was asked for")
        if kind == "hoi":
            return _hoi(where, _require(where, obj, ("subtoken_map",)), clusters_field, count[0])
        if kind == "wl":
            return _wl(where, _require(where, obj, ("cased_words",)), count[0])
        if kind == "maverick":
            return _maverick(where, _require(where, obj, ("tokens",)), count[0])
        if kind == "text":
            return _text(where, _require(where, obj, ("text",)), count[0])
        _unfinished_kind(where, obj)
        return parse_document(where, obj, clusters_field)

    return parse


def _require(where: _Line, obj: dict, fields: tuple[str, ...]) -> dict:
    for field in fields:
        if field not in obj:
            raise where.error(f"field {field!r} is missing")
    return obj


def read_outputs(path: str, clusters_field: str = "clusters", kind: str | None = None) -> list[Document]:
    """A jsonlines file of any of the kinds above or our own, each record read as its fields say
    (`kind` forces one: `--response-format hoi|wl|maverick|text`)."""
    if kind is not None and kind not in KINDS:
        raise ValueError(f"unknown system output {kind!r}: one of {', '.join(KINDS)}")
    documents = parse_jsonlines(path, read_lines(path), clusters_field, _parse(kind, clusters_field))
    if not documents:
        raise InputError(path, None, "no documents: the file is empty")
    return documents

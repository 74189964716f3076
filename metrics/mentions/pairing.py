"""Pairing key and response documents: by name, across formats, and only when their tokens agree.

One home for the rule, used by `prepare` (documents in memory), the streaming scorer (byte ranges
of documents, `--jobs`) and mention matching.  Documents pair by exact name first; names that find
no partner then pair by `document_key`, so a CoNLL-2012 key (`(X); part 000`) meets a CoNLL-U (`X`)
or jsonlines (`X_0`) response; a system output's record without a name (`#N`) pairs with the
key's Nth document.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol, TypeVar

from metrics.model import Document, InputError


class Named(Protocol):
    name: str


T = TypeVar("T", bound=Named)


def pair_documents(keys: Sequence[Named], responses: Sequence[T]) -> tuple[list[T | None], list[T]]:
    """The response partner of each key (None when absent), and the responses no key took."""
    by_name = {doc.name: doc for doc in responses}
    partners: list[T | None] = [by_name.pop(key.name, None) for key in keys]
    if by_name and any(p is None for p in partners):
        by_key = {document_key(doc.name): doc for doc in by_name.values()}
        for i, key in enumerate(keys):
            if partners[i] is None:
                found = by_key.pop(document_key(key.name), None)
                if found is not None:
                    partners[i] = found
                    del by_name[found.name]
    for name in [n for n in by_name if _PLACE.fullmatch(n)]:  # a record without a name: by its place
        place = int(name[1:]) - 1
        if 0 <= place < len(keys) and partners[place] is None:
            partners[place] = by_name.pop(name)
    return partners, list(by_name.values())


_PLACE = re.compile(r"#[1-9][0-9]{0,8}")
"""The name of a system output's record that has none (`#3`: the file's third; metrics.formats.outputs)."""


def named_by_place(name: str) -> bool:
    """Whether a document is named by its place in its file (`#3`), having no name of its own."""
    return _PLACE.fullmatch(name) is not None


def require_common(response_path: str, keys: Sequence[Named], partners: Sequence[object | None],
                   responses: Sequence[Named]) -> None:
    """Refuse a response that shares no document with the key: scoring it would give all zeros
    and a warning per document, and the real mistake (the wrong key, or files of two corpora)
    would pass unnoticed.  An empty response (no documents at all) is scored as empty."""
    if keys and responses and all(p is None for p in partners):
        def some(docs: Sequence[Named]) -> str:
            return ", ".join(repr(d.name) for d in docs[:2]) + (", ..." if len(docs) > 2 else "")

        twins = spaced_twins(keys, responses)
        why = f"; {_twins_text(twins)}" if twins else ""
        raise InputError(response_path, None, f"no document in common with the key: the key has {some(keys)}, "
                                              f"the response {some(responses)}{why}")


def spaced_twins(missing: Sequence[Named], unused: Sequence[T]) -> list[tuple[Named, T]]:
    """Key documents without a partner and response documents no key took whose names are one
    once the white space at their ends is dropped (`doc1` and a jsonlines `doc_key` of `"doc1 "`;
    `(doc1 ); part 000` too: `document_key` first).
    Documents pair by exact name (a name is data: `a` and `a ` may be two documents), so these
    stay unpaired; they are named together (`twins_warning`) because that is almost always a
    writer's slip, and two separate warnings ("missing", "ignored") hid it."""
    by_trimmed: dict[str, T] = {}
    for doc in unused:
        by_trimmed.setdefault(_trimmed(doc.name), doc)
    twins = []
    for key in missing:
        found = by_trimmed.pop(_trimmed(key.name), None)
        if found is not None:
            twins.append((key, found))
    return twins


def _trimmed(name: str) -> str:
    """A name's `document_key` without white space at the ends of the name or of its key."""
    return document_key(name.strip()).strip()


def _twins_text(twins: Sequence[tuple[Named, Named]]) -> str:
    listed = ", ".join(f"{r.name!r} with the key's {k.name!r}" for k, r in twins[:5]) + (" ..." if len(twins) > 5 else "")
    return (f"{len(twins)} response document(s) would pair with a key document but for white space at an end of a "
            f"name: {listed}; documents pair by exact name")


def twins_warning(path: str, twins: Sequence[tuple[Named, Named]]) -> str:
    """The warning for `spaced_twins`: each pair named together, once for all of them."""
    return f"{path}: {_twins_text(twins)}, so each is ignored and the key's scored against an empty response"


def unused_warning(path: str, unused: Sequence[Named]) -> str:
    """The warning for response documents that no key document took."""
    names = ", ".join(repr(d.name) for d in unused[:5]) + (" ..." if len(unused) > 5 else "")
    return f"{path}: {len(unused)} response document(s) not in the key are ignored: {names}"


def missing_warning(path: str, missing: Sequence[Named]) -> str:
    """The warning for the key documents the response lacks (each scored against no chains): one
    line, however many (a response missing a third of 20,000 documents gave 6,667 lines)."""
    if len(missing) == 1:
        return f"{path}: document {missing[0].name!r} of the key is missing from the response: scored against an " \
               f"empty response"
    names = ", ".join(repr(d.name) for d in missing[:5]) + (" ..." if len(missing) > 5 else "")
    return f"{path}: {len(missing)} documents of the key are missing from the response, each scored against an " \
           f"empty response: {names}"


_CONLL_NAME = re.compile(r"^\(?(.*?)\)?\s*;\s*part\s+(\d+)$")


def source_file(name: str) -> str:
    """The file a document comes from: its name without the part (`(X); part 001` and `X_1` -> X)."""
    m = _CONLL_NAME.match(name.strip())
    if m:
        return m.group(1)
    return re.sub(r"_\d+$", "", name)


def document_key(name: str) -> str:
    """The name under which documents of different formats pair up.

    CoNLL-2012 calls a document `(X); part 000`, CoNLL-U `X` (`# newdoc id`), and jsonlines from
    the usual conversion scripts `X_0`: all three become `X`; part N > 0 becomes `X_N`.  Pair by
    exact name first and fall back to this key only for names that found no partner.
    """
    m = _CONLL_NAME.match(name.strip())
    if m:
        base, part = m.group(1), int(m.group(2))
        return base if part == 0 else f"{base}_{part}"
    return name[:-2] if name.endswith("_0") else name


_PTB_ESCAPES = {
    "-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}",
    "``": '"', "''": '"', "/.": ".", "/?": "?", "/-": "-",
}


def _same_word(a: str, b: str) -> bool:
    return a == b or _PTB_ESCAPES.get(a, a) == _PTB_ESCAPES.get(b, b)


def check_tokens_align(key_doc: Document, resp_doc: Document) -> list[str]:
    """Warnings when key and response words differ; InputError when the token counts differ.

    Spans are token offsets, so two documents can be scored against each other only if they have
    the same tokens.  A count mismatch makes every span meaningless: an error naming both files.
    Different words at the same offsets (a PTB escape, a normalised quote, a different tokenizer's
    spelling) leave spans meaningful but suspicious: one warning with the first difference.
    """
    nk, nr = key_doc.n_tokens, resp_doc.n_tokens
    if nk != nr:
        raise InputError(
            resp_doc.path, resp_doc.line or None,
            f"document {resp_doc.name!r} has {nr} tokens but the key's {key_doc.name!r} "
            f"({key_doc.where()}) has {nk}: key and response do not align",
        )
    if key_doc.words == resp_doc.words:  # the usual case, compared in C
        return []
    differ = [i for i, (a, b) in enumerate(zip(key_doc.words, resp_doc.words)) if a != b and not _same_word(a, b)]
    if not differ:
        return []
    i = differ[0]
    return [
        f"{resp_doc.where(i)}: document {resp_doc.name!r}: {len(differ)} of {nr} words differ from the key's "
        f"(first: token {i} {resp_doc.words[i]!r}, key {key_doc.where(i)} has {key_doc.words[i]!r})"
    ]

"""Read any supported file into Documents: CoNLL-2012, CorefUD CoNLL-U, jsonlines.

Users point the tool at whatever files they have, so the format is found for them: by extension
(`.conll`, `.conllu`, `.jsonl`/`.jsonlines`/`.json`, each optionally `.gz`), checked against the
first lines of the file, which win when they clearly say otherwise (a CoNLL-U file named `.conll`
is common).  An explicit `fmt` overrides both.  Key and response may come in different formats:
`metrics.mentions.pairing` pairs their documents and checks that they describe the same tokens.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from metrics.formats.conll import read_conll
from metrics.formats.cache import ReadCache
from metrics.formats.source import check_document_sizes, is_regular, is_stdin, read_head, read_lines, read_raw
from metrics.formats.conllu import read_conllu
from metrics.formats.corefud import read_corefud
from metrics.formats.detection import CRAC_FORMATS, looks_like_json, looks_like_text
from metrics.formats.ua import is_ua_head
from metrics.runtime.gc_pause import gc_paused
from metrics.formats.outputs import KINDS, read_outputs
from metrics.formats.packed import pack, unpack
from metrics.model import Document, InputError, NodeDocument

FORMATS = ("conll", "conllu", "jsonl", *KINDS, *CRAC_FORMATS)
"""Format names accepted by `read_documents` (plus "auto"); jsonlines of any system's kind is
detected record by record (metrics.formats.outputs), the kinds can be forced.  The CRAC LLM
track's formats are read onto a CoNLL-U key (`metrics.formats.crac_text.read_crac`, called by the
CorefUD convention's `prepare`, which has the key), under the CorefUD conventions."""

_EXTENSIONS = {
    ".conllu": "conllu",
    ".conll": "conll", "_conll": "conll", ".conll12": "conll",  # _conll: OntoNotes *.v4_gold_conll
    ".jsonl": "jsonl", ".jsonlines": "jsonl", ".json": "jsonl",
}


def format_from_extension(path: str) -> str | None:
    """The format an extension promises (`.gz` looked through), or None."""
    name = path.lower()
    if name.endswith(".gz"):
        name = name[:-3]
    for ext, fmt in _EXTENSIONS.items():
        if name.endswith(ext):
            return fmt
    return None


def format_from_content(path: str) -> str | None:
    """The format the first lines of the file show, or None when they show none clearly."""
    head = read_head(path).decode("utf-8-sig", errors="replace")
    if looks_like_json(head):
        return "crac-json"
    if looks_like_text(head):
        return "crac-text"
    for line in head.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("{"):
            return "jsonl"
        if re.match(r"#\s*begin document", stripped):
            return "conll"
        if is_ua_head(stripped):
            return "ua"
        if re.match(r"#\s*(newdoc|global\.Entity|sent_id|text\s*=)", stripped):
            return "conllu"
        if stripped.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) == 10 and re.fullmatch(r"\d+(-\d+|\.\d+)?", cols[0]):
            return "conllu"
        return None
    return None


class UnknownFormat(InputError):
    """An input whose format neither its name nor its content tells; the message names the option
    that forces one, which is the command's own (`convert` has `--from`, not `--key-format`)."""

    def __init__(self, path: str, option: str = "--key-format/--response-format") -> None:
        self.option = option
        super().__init__(path, None, f"cannot tell the format (conll, conllu, jsonl, crac-text or crac-json): name it with {option}")

    def __reduce__(self):
        return (UnknownFormat, (self.path, self.option))


def detect_format(path: str, warnings: list[str] | None = None) -> str:
    """Extension first, content as the check; InputError when neither tells."""
    by_ext = format_from_extension(path)
    by_content = format_from_content(path)
    if by_content in CRAC_FORMATS and by_ext in ("jsonl", None):
        return by_content  # a JSON list or marked lines: the CRAC LLM track's, whatever the name
    if by_ext and by_content and by_ext != by_content:
        if warnings is not None:
            warnings.append(f"{path}: named like {by_ext} but its content is {by_content}; reading it as {by_content}")
        return by_content
    fmt = by_ext or by_content
    if fmt is None and os.path.isdir(path):
        raise InputError(path, None, "is a folder, not a file (the crac command scores folders)")
    if fmt is None and not is_stdin(path):
        try:  # a file missing has no content to look at: its absence is what is wrong, not its format
            os.stat(path)
        except OSError as exc:
            raise InputError(path, None, f"cannot open: {exc.strerror or exc}") from None
    if fmt is None:
        raise UnknownFormat(path)
    return fmt


UA_ELSEWHERE = "a Universal Anaphora file (global.columns with IDENTITY): score it under --conventions ua"
"""Why a reader of another convention refuses a UA file (its columns are not theirs)."""


def read_documents(path: str, fmt: str | None = None, warnings: list[str] | None = None,
                   clusters_field: str = "clusters", *, cache: ReadCache | None = None,
                   prepare: Callable[[list[Document]], None] | None = None, syntax: bool = True) -> list[Document]:
    """Read `path` as `fmt` (auto|conll|conllu|jsonl; None = auto) into documents in file order.

    `clusters_field` picks the jsonlines field holding the chains (`predicted_clusters` for many
    system outputs).  Without `syntax` a CoNLL-2012 file's POS, parse, lemma, speaker and entity
    columns are left out (a response scored with exact matching needs none).  Readers' warnings are appended to `warnings` when given.  With a `cache`, a
    regular file read before (same content, path, format and options) comes from it; `prepare`
    computes derived data ahead (a key's mention types) to be kept in the cache with the documents;
    without a cache it is not called (the scoring computes what it needs, in its processes).
    """
    if fmt in (None, "auto"):
        fmt = detect_format(path, warnings)
    if fmt == "ua":
        raise InputError(path, None, UA_ELSEWHERE)
    notes: list[str] = []
    readers = {"conll": lambda: read_conll(path, notes, syntax), "conllu": lambda: read_conllu(path, notes),
               "jsonl": lambda: read_outputs(path, clusters_field)}
    readers.update({kind: (lambda kind=kind: read_outputs(path, clusters_field, kind)) for kind in KINDS})
    if fmt in CRAC_FORMATS:
        raise InputError(path, None, f"{fmt} (the CRAC LLM track's format) is a response, read onto its CoNLL-U "
                                     f"key under --conventions corefud (the key first, then this file)")
    if fmt not in readers:
        raise ValueError(f"unknown format {fmt!r}: expected one of auto, {', '.join(FORMATS)}")
    key = _cache_key(cache, path, fmt, clusters_field, syntax)
    with gc_paused():
        stored = cache.load(key, _documents_and_notes) if key is not None else None
        if stored is not None:
            documents, notes = stored
        else:
            documents = readers[fmt]()
            if key is not None:
                if prepare is not None:
                    prepare(documents)
                cache.store(key, (pack(documents), notes))
    if warnings is not None:
        warnings.extend(notes)
    check_document_sizes(documents)
    return documents


def in_cache(path: str, fmt: str | None, clusters_field: str = "clusters", cache: ReadCache | None = None,
             syntax: bool = True) -> bool:
    """Whether `read_documents` with these arguments would take the file from the cache.  Why
    ask: reading a cached file elsewhere (a forked process) and sending its documents back costs
    more than loading it here."""
    if fmt in (None, "auto"):
        try:
            fmt = detect_format(path)
        except (InputError, OSError):
            return False
    key = _cache_key(cache, path, fmt, clusters_field, syntax)
    return key is not None and cache is not None and cache.holds(key)


def _cache_key(cache: ReadCache | None, path: str, fmt: str, clusters_field: str, syntax: bool) -> str | None:
    """The name of a regular file's cache entry: its content, path, format and reading options."""
    if cache is None or cache.directory is None or not is_regular(path):
        return None
    return cache.key(path, lambda: read_raw(path), fmt, clusters_field, "syntax" if syntax else "")


def node_format(path: str, fmt: str | None) -> str:
    """A CorefUD response's format: CoNLL-U, or the CRAC LLM track's inline text or JSON."""
    return detect_format(path) if fmt in (None, "auto") else fmt


def read_node_documents(path: str, cache: ReadCache | None = None, warnings: list[str] | None = None
                        ) -> list[NodeDocument]:
    """A CorefUD file read as corefud-scorer reads it (`read_corefud`), through the cache: a
    multilingual report reads the same keys run after run.  The reader's warnings come with the
    documents, from the cache too."""
    key = (cache.key(path, lambda: read_raw(path), "corefud-nodes-with-notes")
           if cache is not None and cache.directory is not None and is_regular(path) else None)
    with gc_paused():
        stored = cache.load(key, _nodes_and_notes) if key is not None else None
        if stored is not None:
            documents, notes = stored
        else:
            notes = []
            documents = read_corefud(path, notes)
            if key is not None:
                cache.store(key, (documents, notes))
    if warnings is not None:
        warnings.extend(notes)
    return documents


def read_node_key(path: str, cache: ReadCache | None = None, warnings: list[str] | None = None, *,
                  prepare: Callable[[list[Document]], None] | None = None) -> tuple[list[Document], list[NodeDocument]]:
    """A CorefUD key read once for both its views: its documents as token spans (whose POS, lemmas
    and trees type the mentions; `prepare` types them ahead for the cache) and its node mentions as
    corefud-scorer reads them (`read_corefud`, from the file's bytes: the byte reader is faster
    than the line reader on lines read already), through one cache entry.  Only the node reader's
    warnings are given: the span reader's, on zeros and discontinuous mentions a span cannot hold,
    do not apply where node mentions are scored."""
    key = (cache.key(path, lambda: read_raw(path), "conllu", "corefud-key-spans-and-nodes")
           if cache is not None and cache.directory is not None and is_regular(path) else None)
    with gc_paused():
        stored = cache.load(key, _spans_nodes_and_notes) if key is not None else None
        if stored is not None:
            documents, nodes, notes = stored
            check_document_sizes(documents)
        else:
            lines = read_lines(path)
            documents = read_conllu(path, lines=lines)
            check_document_sizes(documents)  # before the nodes, as when the views were read apart
            del lines
            notes = []
            nodes = read_corefud(path, notes)
            if key is not None:
                if prepare is not None:
                    prepare(documents)
                cache.store(key, (pack(documents), nodes, notes))
    if warnings is not None:
        warnings.extend(notes)
    return documents, nodes


def _spans_nodes_and_notes(value: object) -> tuple[list[Document], list[NodeDocument], list[str]]:
    """What the cache stores of a CorefUD key, rebuilt: (token-span documents, node documents,
    warnings); TypeError for anything else."""
    if not (isinstance(value, tuple) and len(value) == 3 and _list_of(value[1], NodeDocument) and _list_of(value[2], str)):
        raise TypeError("not a CorefUD key's entry")
    return unpack(value[0]), value[1], value[2]


def _list_of(value: object, kind: type) -> bool:
    return isinstance(value, list) and all(isinstance(item, kind) for item in value)


def _documents_and_notes(value: object) -> tuple[list[Document], list[str]]:
    """What the cache stores of a read file, rebuilt: (documents, the readers' warnings);
    TypeError for anything else."""
    if not (isinstance(value, tuple) and len(value) == 2 and _list_of(value[1], str)):
        raise TypeError("not a read file's entry")
    return unpack(value[0]), value[1]


def _nodes_and_notes(value: object) -> tuple[list[NodeDocument], list[str]]:
    """What the cache stores of a CorefUD file read as node documents: (documents, warnings)."""
    if not (isinstance(value, tuple) and len(value) == 2 and _list_of(value[0], NodeDocument)
            and _list_of(value[1], str)):
        raise TypeError("not a node file's entry")
    return value

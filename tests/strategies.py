"""Hypothesis strategies for random key/response corpora, shared by the property tests.

Why these shapes: the metrics are only interesting where documents are awkward, so the generated
documents are short (a few tokens) and crowded: mentions nest and overlap, chains mix singletons
and long chains, responses miss key mentions and invent twinless ones, documents can be empty.
Every mention gets an explicit `MentionType` on both sides (`Document.explicit_types`), so the
linguistically aware metrics see all three types without depending on the typing rules.

Spans in a generated document are distinct unless `duplicates=True`: the official scorer's
handling of a span repeated in two chains depends on chain order (which copy is kept), so any
property about reordering or swapping must be checked on documents without repeats.

Import from a test as `from strategies import ...` (pytest puts tests/ on sys.path, having no
`__init__.py` there); `benchmarks/fuzz_readers.py` inserts tests/ on sys.path itself.
"""

from __future__ import annotations

import functools
import importlib.util
import random
from dataclasses import dataclass

from hypothesis import strategies as st

from metrics.model import Document, MentionType, Span
from metrics.measures.catalog import ALL_METRICS, Family, names

APPLICATION = names(Family.APPLICATION)
from metrics.measures.weights import Weights

WORDS = ("Ann", "saw", "the", "dog", "she", "it", "in", "Paris", "a", "cat", "he", "ran")


def computed_metrics() -> tuple[str, ...]:
    """Every metric the engine can compute now: Tuggener's application metrics only once
    `metrics/measures/tuggener.py` exists (another helper's module, landing separately)."""
    if importlib.util.find_spec("metrics.measures.tuggener") is None:
        return tuple(m for m in ALL_METRICS if m not in APPLICATION)
    return ALL_METRICS


@dataclass
class Pair:
    """One generated key document and its response document (same name, same words)."""

    key: Document
    response: Document


def make_document(name: str, words: list[str], chains: list[list[Span]], types: dict[Span, MentionType],
                  labels: list[str] | None = None) -> Document:
    """A Document as a reader would produce it, with explicit types for every span it holds."""
    spans = {s for chain in chains for s in chain}
    return Document(
        name=name, words=list(words), chains=[list(c) for c in chains],
        labels=list(labels) if labels is not None else [str(i) for i in range(len(chains))],
        sentence_starts=[0] if words else [], path=f"{name}.conll", line=1,
        token_lines=list(range(2, 2 + len(words))),
        explicit_types={s: types[s] for s in spans},
    )


def _clipped(start_and_length: tuple[int, int], last: int) -> Span:
    start, length = start_and_length
    return start, min(start + length, last)


@functools.lru_cache(maxsize=None)
def span_sets(n_tokens: int, max_size: int = 8) -> st.SearchStrategy[list[Span]]:
    """Distinct spans over n_tokens tokens (nested and overlapping ones come naturally).
    One strategy per (n_tokens, max_size), kept: built afresh at each draw (a new lambda each
    time, which Hypothesis cannot cache), it was validated again every time, a good part of the
    property tests' time."""
    spans = st.tuples(st.integers(0, n_tokens - 1), st.integers(0, 3)).map(
        functools.partial(_clipped, last=n_tokens - 1))
    return st.lists(spans, max_size=max_size, unique=True)


@st.composite
def partitions(draw: st.DrawFn, mentions: list[Span], duplicates: bool = False) -> list[list[Span]]:
    """Split mentions into chains (singletons included); with `duplicates`, some spans are repeated
    in the same or another chain, the way real system output sometimes does."""
    if not mentions:
        return []
    owner = draw(st.lists(st.integers(0, len(mentions) - 1), min_size=len(mentions), max_size=len(mentions)))
    chains: dict[int, list[Span]] = {}
    for span, chain in zip(mentions, owner):
        chains.setdefault(chain, []).append(span)
    result = [chains[k] for k in sorted(chains)]
    if duplicates:
        extra = draw(st.lists(st.tuples(st.sampled_from(mentions), st.integers(0, len(result) - 1)), max_size=3))
        for span, chain in extra:
            result[chain].append(span)
    return result


@st.composite
def pairs(draw: st.DrawFn, name: str = "doc0", gold_mentions: bool = False, duplicates: bool = False,
          key_duplicates: bool | None = None, max_tokens: int = 10, max_mentions: int = 8) -> Pair:
    """A key document and a response over the same words.

    gold_mentions: the response holds exactly the key's mentions, in other chains.  Otherwise it
    keeps a random subset of them and adds twinless spans of its own.  duplicates: spans may
    repeat in the response, and in the key too unless key_duplicates is False (a key with a
    repeated span is not a valid key: v8.01 then scores above 1, see tests/test_properties.py).
    """
    if key_duplicates is None:
        key_duplicates = duplicates
    n = draw(st.integers(1, max_tokens))
    words = [WORDS[draw(st.integers(0, len(WORDS) - 1))] for _ in range(n)]
    key_mentions = draw(span_sets(n, max_mentions))
    if gold_mentions:
        response_mentions = list(key_mentions)
        response_mentions = draw(st.permutations(response_mentions))
    else:
        kept = [s for s in key_mentions if draw(st.booleans())]
        extra = [s for s in draw(span_sets(n, 4)) if s not in key_mentions]
        response_mentions = draw(st.permutations(kept + extra))
    spans = sorted(set(key_mentions) | set(response_mentions))
    types = {s: MentionType(draw(st.integers(0, 2))) for s in spans}
    key = make_document(name, words, draw(partitions(key_mentions, key_duplicates)), types)
    response = make_document(name, words, draw(partitions(list(response_mentions), duplicates)), types)
    return Pair(key, response)


@st.composite
def corpora(draw: st.DrawFn, gold_mentions: bool = False, duplicates: bool = False,
            key_duplicates: bool | None = None, max_documents: int = 3) -> list[Pair]:
    """Several documents with distinct names, each with its response."""
    n = draw(st.integers(1, max_documents))
    return [draw(pairs(f"doc{i}", gold_mentions, duplicates, key_duplicates)) for i in range(n)]


def weights(positive: bool = True) -> st.SearchStrategy[Weights]:
    """Weight vectors W = (nam, nom, pro, sing); zero allowed unless `positive`."""
    low = 0.01 if positive else 0.0
    value = st.one_of(st.sampled_from([low, 0.25, 0.5, 1.0]), st.floats(low, 2.0))
    return st.tuples(value, value, value, value).map(lambda t: Weights(*t))


# ---------------------------------------------------------------------------------------------
# Hostile files: mutations of real inputs, for the reader fuzzers (tests/test_fuzz_readers.py,
# benchmarks/fuzz_readers.py).  Each takes the file's bytes and a seeded Random and returns new
# bytes, so a failure is reproduced from (base file, seed) alone.

def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _pick_line(data: bytes, rng: random.Random) -> tuple[list[bytes], int]:
    lines = _lines(data)
    return lines, rng.randrange(len(lines))


def truncate_line(data: bytes, rng: random.Random) -> bytes:
    lines, i = _pick_line(data, rng)
    lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    return b"\n".join(lines)


def truncate_file(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def random_bytes(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if out:
            out[rng.randrange(len(out))] = rng.randrange(256)
    return bytes(out)


def random_text(data: bytes, rng: random.Random) -> bytes:
    """Valid UTF-8 that readers must still refuse or read: odd code points where structure is."""
    alphabet = ["(", ")", "|", "-", "_", "\t", " ", "#", "=", "{", "}", "[", "]", '"', ",", ":", "0", "9",
                "²", "٣", "\u00a0", "\u2028", "\u0085", "\x0b", "\x0c", "\x1c", "\r", "é", "😀", "\ufeff"]
    out = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        pos = rng.randrange(len(out) + 1)
        out[pos:pos] = rng.choice(alphabet).encode()
    return bytes(out)


def delete_bracket(data: bytes, rng: random.Random) -> bytes:
    positions = [i for i, b in enumerate(data) if b in b"()[]{}"]
    if not positions:
        return data
    out = bytearray(data)
    for i in sorted(rng.sample(positions, min(len(positions), rng.randint(1, 3))), reverse=True):
        del out[i]
    return bytes(out)


def add_bom(data: bytes, rng: random.Random) -> bytes:
    """A UTF-8 BOM at the start (tolerated) or at the start of a random line (a stray one)."""
    if rng.random() < 0.5:
        return b"\xef\xbb\xbf" + data
    lines, i = _pick_line(data, rng)
    lines[i] = b"\xef\xbb\xbf" + lines[i]
    return b"\n".join(lines)


def crlf(data: bytes, rng: random.Random) -> bytes:
    """Windows line ends everywhere, on some lines, or old-Mac lone CRs."""
    choice = rng.randrange(3)
    if choice == 0:
        return data.replace(b"\n", b"\r\n")
    if choice == 1:
        return b"\n".join(line + b"\r" if rng.random() < 0.3 else line for line in _lines(data))
    return data.replace(b"\n", b"\r")


def mix_whitespace(data: bytes, rng: random.Random) -> bytes:
    """TABs become spaces (one or several), spaces become TABs, trailing whitespace added."""
    out = []
    for line in _lines(data):
        r = rng.random()
        if r < 0.15:
            line = line.replace(b"\t", b" " * rng.randint(1, 3))
        elif r < 0.25:
            line = line.replace(b" ", b"\t")
        elif r < 0.35:
            line = line + rng.choice([b"\t", b" ", b" \t "])
        out.append(line)
    return b"\n".join(out)


def nul_bytes(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        pos = rng.randrange(len(out) + 1)
        out[pos:pos] = b"\0"
    return bytes(out)


def delete_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    for _ in range(rng.randint(1, 5)):
        if lines:
            del lines[rng.randrange(len(lines))]
    return b"\n".join(lines)


def duplicate_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    for _ in range(rng.randint(1, 5)):
        i = rng.randrange(len(lines))
        lines[i:i] = [lines[i]] * rng.randint(1, 3)
    return b"\n".join(lines)


def swap_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def big_numbers(data: bytes, rng: random.Random) -> bytes:
    """A number replaced by one too long for int() (Python refuses > 4300 digits) or by a
    non-ASCII digit that str.isdigit() accepts and int() does not ('²')."""
    positions = [i for i, b in enumerate(data) if 48 <= b <= 57]
    if not positions:
        return data
    i = rng.choice(positions)
    value = rng.choice([b"9" * 5000, "²".encode(), "٣".encode(), b"-1", b"99999999999999999999"])
    return data[:i] + value + data[i + 1:]


def deep_nesting(data: bytes, rng: random.Random) -> bytes:
    """A line of 100,000 opening brackets (json's recursion limit) or parentheses."""
    lines, i = _pick_line(data, rng)
    lines[i] = rng.choice([b"[", b"{\"a\":", b"("]) * 100_000 + lines[i]
    return b"\n".join(lines)


def utf16(data: bytes, rng: random.Random) -> bytes:
    """The same text saved as UTF-16 (with its BOM), as some Windows editors do."""
    return data.decode("utf-8", "replace").encode("utf-16")


HOSTILE_FIELDS = ["", "_", "-", "0", "-1", "1-2", "1.1", "(", ")", "((1", "1))", "(1)|", "|", "(1+2)", "(1", "1)",
                  "(x y)", "Entity=(", "Entity=1)", "Entity=(1[2/1]-x)", "Entity=(1[1/2]-x", "# newdoc id = a",
                  "#begin document (a); part 000", "#end document", "NNP", "PRP", "(PERSON*", "*)", "'", "\\"]
"""Column values that mean something to some reader, placed where they do not belong."""

HOSTILE_JSON = [None, -1, 0, 1.5, True, "", "x", [], {}, [[]], [[0]], [[0, 0]], [[1, 0]], [[0, 10**6]],
                [[[0, 0]], [[0, 0]]], 10**30, [["a", "b"]], {"doc_key": "a"}]
"""JSON values of every type and shape, to put in place of a field's value."""


def replace_field(data: bytes, rng: random.Random) -> bytes:
    """A TAB- or space-separated field of a random line replaced by a value meaningful elsewhere."""
    lines, i = _pick_line(data, rng)
    line = lines[i].decode("utf-8", "replace")
    sep = "\t" if "\t" in line else " "
    fields = line.split(sep)
    fields[rng.randrange(len(fields))] = rng.choice(HOSTILE_FIELDS)
    lines[i] = sep.join(fields).encode()
    return b"\n".join(lines)


def replace_json_value(data: bytes, rng: random.Random) -> bytes:
    """In a random JSON line, a value somewhere in the object replaced by one of another type or
    shape (spans out of range, reversed, empty clusters, a number for a list...)."""
    import json

    lines, i = _pick_line(data, rng)
    try:
        obj = json.loads(lines[i])
    except (ValueError, RecursionError):
        return data
    parent, key, node = None, None, obj
    for _ in range(rng.randint(1, 5)):
        if isinstance(node, dict) and node:
            parent, key = node, rng.choice(sorted(node))
        elif isinstance(node, list) and node:
            parent, key = node, rng.randrange(len(node))
        else:
            break
        node = parent[key]
    value = rng.choice(HOSTILE_JSON)
    if parent is None:
        obj = value
    elif rng.random() < 0.2 and isinstance(parent, dict):
        del parent[key]
    else:
        parent[key] = value
    lines[i] = json.dumps(obj).encode()
    return b"\n".join(lines)


MUTATIONS = {
    f.__name__: f for f in (
        truncate_line, truncate_file, random_bytes, random_text, delete_bracket, add_bom, crlf,
        mix_whitespace, nul_bytes, delete_lines, duplicate_lines, swap_lines, big_numbers, deep_nesting,
        utf16, replace_field, replace_json_value,
    )
}
"""Every mutation by name; `mutate` applies one to three of them."""


def mutate(data: bytes, seed: int) -> tuple[bytes, list[str]]:
    """Apply 1-3 random mutations (names returned, for the failure message)."""
    rng = random.Random(seed)
    names = rng.sample(sorted(MUTATIONS), rng.randint(1, 3))
    for name in names:
        data = MUTATIONS[name](data, rng)
    return data, names


HUGE_SHAPES = {
    "conll": ("word", "bare_word", "fields", "cell", "no_newline"),
    "conllu": ("columns", "misc"),
    "jsonl": ("tokens", "string"),
}
"""One-line shapes each reader must get through: one huge word (with POS, and in a words-only
file, where mention types look at its letters), a huge line of whitespace-separated
fields, a huge coreference cell, a huge line with no line end at all, huge CoNLL-U columns, a huge
MISC field, a huge JSON line of tokens, one huge JSON string."""


def write_huge_line(path: str, fmt: str, shape: str, size: int) -> None:
    """Write a file whose one long line has about `size` bytes, in 1 MB pieces so the writer's own
    memory stays small (a child process inherits its parent's peak RSS in rusage)."""
    parts = {
        ("conll", "word"): (b"#begin document (big); part 000\nbig\t0\t0\t", b"a", b"\tNN\t*\t-\t-\t-\t-\t*\t(0)\n#end document\n"),
        ("conll", "bare_word"): (b"#begin document (big); part 000\nbig 0 0 ", b"a", b" (0)\n#end document\n"),
        ("conll", "fields"): (b"#begin document (big); part 000\n", b"a ", b"\n#end document\n"),
        ("conll", "cell"): (b"#begin document (big); part 000\nbig 0 0 w - (0", b"|(0", b"\n#end document\n"),
        ("conll", "no_newline"): (b"", b"a", b""),
        ("conllu", "columns"): (b"# newdoc id = big\n1\t", b"a", b"\ta\tX\tX\t_\t0\troot\t_\tEntity=(1-x)\n"),
        ("conllu", "misc"): (b"# newdoc id = big\n1\ta\ta\tX\tX\t_\t0\troot\t_\tEntity=", b"(1-x", b"\n"),
        ("jsonl", "tokens"): (b'{"doc_key":"big","sentences":[["a"', b',"a"', b']],"clusters":[]}\n'),
        ("jsonl", "string"): (b'{"doc_key":"big","sentences":[["', b"a", b'"]],"clusters":[[[0,0]]]}\n'),
    }
    head, unit, tail = parts[fmt, shape]
    piece = unit * (2**20 // len(unit))
    with open(path, "wb") as out:
        out.write(head)
        for _ in range(size // len(piece)):
            out.write(piece)
        out.write(tail)

"""Book-scale inputs: one long document against the same text as many, built from gum-open's GUM layer.

    python benchmarks/book.py --dir /tmp/book [--data ../shared/data/gum-open] [--tokens 250000]

Writes, once (deterministic), CoNLL-2012 pairs (key, response) into --dir:
- `book.{key,response}.conll`: every document of the GUM layer joined into one document, each source
  document's chain ids offset past those of the documents before it (so no two source documents share
  a chain), the whole repeated under new chain ids until it passes --tokens tokens;
- `corpus.{key,response}.conll`: the same text, each repetition of each source document its own
  document (named `NAME_rN`);
- `tiny.{key,response}.conll`: --tiny-docs documents of --tiny-tokens tokens each (one sentence
  each), cut from the book's text every --tiny-tokens tokens, mentions kept only when they open and
  close inside the piece;
- `tinyone.{key,response}.conll`: the same tiny pieces' text joined into one document.
Both sides of a pair are cut and renamed the same way, so they align word for word.
The other benchmarks (`bench_book.py`) take these files.
"""

from __future__ import annotations

import argparse
import gzip
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "gum-open"
SIDES = (("key", "key.gum.conll.gz"), ("response", "response.xrenner-gum.conll.gz"))
CHAIN = re.compile(r"\d+")

Sentence = list[list[str]]  # rows of columns


def read_documents(path: Path) -> list[tuple[str, list[Sentence]]]:
    """The documents of a CoNLL-2012 file, in order: (name, sentences of token rows split at TAB)."""
    documents: list[tuple[str, list[Sentence]]] = []
    sentence: Sentence = []
    with gzip.open(path, "rt", encoding="utf-8") as source:
        for line in source:
            line = line.rstrip("\n")
            if line.startswith("#begin document"):
                name = line[line.index("(") + 1:line.index(")")]
                documents.append((name, []))
            elif line.startswith("#end document") or not line.strip():
                if sentence:
                    documents[-1][1].append(sentence)
                    sentence = []
            elif not line.startswith("#"):
                sentence.append(line.split("\t"))
    return documents


def max_chain(sentences: list[Sentence]) -> int:
    """The largest chain id in a document's coreference column (-1 when it has none)."""
    ids = [int(m) for s in sentences for row in s for m in CHAIN.findall(row[-1])]
    return max(ids, default=-1)


def shifted(row: list[str], name: str, offset: int) -> list[str]:
    """A token row renamed into document `name`, its chain ids moved up by `offset`."""
    cell = row[-1] if offset == 0 else CHAIN.sub(lambda m: str(int(m.group()) + offset), row[-1])
    return [name, *row[1:-1], cell]


def write(path: Path, documents: list[tuple[str, list[Sentence]]]) -> None:
    with open(path, "w", encoding="utf-8") as out:
        for name, sentences in documents:
            out.write(f"#begin document ({name}); part 000\n")
            for sentence in sentences:
                out.writelines("\t".join(row) + "\n" for row in sentence)
                out.write("\n")
            out.write("#end document\n")


def build_side(source: list[tuple[str, list[Sentence]]], offsets: list[int], copies: int
               ) -> tuple[list[tuple[str, list[Sentence]]], list[tuple[str, list[Sentence]]]]:
    """(the book as one document, the corpus of its documents) for one side, with shared offsets."""
    book: list[Sentence] = []
    corpus: list[tuple[str, list[Sentence]]] = []
    span = offsets[-1]
    for copy in range(copies):
        for (name, sentences), offset in zip(source, offsets):
            base = copy * span + offset
            book.extend([shifted(row, "book", base) for row in s] for s in sentences)
            doc_name = f"{name}_r{copy}"
            corpus.append((doc_name, [[shifted(row, doc_name, copy * span) for row in s] for s in sentences]))
    return [("book", book)], corpus


def tiny_pieces(book: list[Sentence], count: int, size: int) -> list[list[list[str]]]:
    """The book's first count * size tokens cut into pieces of `size` rows."""
    rows = [row for s in book for row in s]
    if len(rows) < count * size:
        raise SystemExit(f"book: {len(rows)} tokens, fewer than {count} x {size}")
    return [rows[i * size:(i + 1) * size] for i in range(count)]


def closed_chains(piece: list[list[str]]) -> list[list[str]]:
    """A piece's rows with only the mentions that open and close inside it (a bracket reader's view)."""
    opened: dict[str, list[tuple[int, int]]] = {}
    keep: set[tuple[int, int]] = set()  # (row, index of the part in its cell)
    parts = [row[-1].split("|") if row[-1] != "-" else [] for row in piece]
    for i, cell in enumerate(parts):
        for j, part in enumerate(cell):
            chain = CHAIN.search(part).group()
            if part.startswith("(") and part.endswith(")"):
                keep.add((i, j))
            elif part.startswith("("):
                opened.setdefault(chain, []).append((i, j))
            elif opened.get(chain):
                keep.add(opened[chain].pop())
                keep.add((i, j))
    out = []
    for i, (row, cell) in enumerate(zip(piece, parts)):
        kept = [part for j, part in enumerate(cell) if (i, j) in keep]
        out.append([*row[:-1], "|".join(kept) or "-"])
    return out


def build(directory: Path, data: Path, target: int, tiny_docs: int, tiny_tokens: int) -> dict[str, tuple[Path, Path]]:
    """Write every pair (once) and return {name: (key path, response path)}."""
    names = ("book", "corpus", "tiny", "tinyone")
    pairs = {name: (directory / f"{name}.key.conll", directory / f"{name}.response.conll") for name in names}
    if all(p.exists() for pair in pairs.values() for p in pair):
        return pairs
    directory.mkdir(parents=True, exist_ok=True)
    sources = {side: read_documents(data / file) for side, file in SIDES}
    if [n for n, _ in sources["key"]] != [n for n, _ in sources["response"]]:
        raise SystemExit("book: the key and the response list different documents")
    # one offset per source document, past the largest chain id of either side before it
    offsets = [0]
    for (_, key_doc), (_, resp_doc) in zip(sources["key"], sources["response"]):
        offsets.append(offsets[-1] + max(max_chain(key_doc), max_chain(resp_doc)) + 1)
    tokens = sum(len(s) for _, doc in sources["key"] for s in doc)
    copies = target // tokens + 1
    for side in ("key", "response"):
        book, corpus = build_side(sources[side], offsets, copies)
        at = 0 if side == "key" else 1
        write(pairs["book"][at], book)
        write(pairs["corpus"][at], corpus)
        pieces = [closed_chains(p) for p in tiny_pieces(book[0][1], tiny_docs, tiny_tokens)]
        write(pairs["tiny"][at], [(f"tiny_{i}", [[[f"tiny_{i}", "0", str(k), *row[3:]] for k, row in enumerate(p)]])
                                  for i, p in enumerate(pieces)])
        joined = [[["tinyone", "0", str(k), *row[3:]] for k, row in enumerate(p)] for p in pieces]
        # a piece's chain ids are the book's, so joined pieces keep distinct chains apart as they were
        write(pairs["tinyone"][at], [("tinyone", joined)])
    return pairs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/corefwb-book"))
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--tokens", type=int, default=250_000, help="the book passes this many tokens")
    parser.add_argument("--tiny-docs", type=int, default=20_000)
    parser.add_argument("--tiny-tokens", type=int, default=11)
    args = parser.parse_args()
    pairs = build(args.dir, args.data, args.tokens, args.tiny_docs, args.tiny_tokens)
    for name, (key, response) in pairs.items():
        print(f"{name:8} {key} ({key.stat().st_size / 1e6:.1f} MB)  {response}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

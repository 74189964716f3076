"""A CoNLL-U book: gum-open's CoNLL-U key as one document, repeated past --tokens words, and a
response made from it whose mentions are cut short (head and partial matches, and ties among them).

    python benchmarks/book_conllu.py [--dir /tmp/corefwb-book] [--tokens 250000] [--seed 1]

Writes `book.key.conllu` and `book.response.conllu` into --dir (once; deterministic),
`corpus.{key,response}.conllu`, the same two files cut into one document per copy of each source
document (`NAME_rCOPY`, as `book.py`'s CoNLL-2012 corpus: the book against the same text as many
documents), and `gum.response.conllu`, a response to the key's own documents made the same way.  Why: the
CorefUD conventions align a document's mentions in one assignment (`metrics/mentions/corefud.py`),
so a book is where their cost shows (issue 42); `book.py`'s books are CoNLL-2012.

The key: every document of `key.gum.conllu.gz` joined under one `# newdoc` (the first document's
`# global.Entity` kept), each copy of each source document's entity IDs renamed apart
(`c{copy}d{document}e{id}`), `Bridge=` and `SplitAnte=` dropped (they name entities of one
document), sentence IDs suffixed with the copy.  The response: the same text, where (seeded) a
mention of several words may end early (a shorter mention with the same first word: GUM gives no
head index, so the head is the first word, and the pair scores |S|/|K| under head and partial
match) and may gain a one-word mention of the same entity on its first word (two responses with
one head, competing for the same keys); then `make_corefud_response.py`'s errors (one-word
mentions dropped or split off, entities merged).
"""

from __future__ import annotations

import argparse
import gzip
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KEY = ROOT.parent / "shared" / "data" / "gum-open" / "key.gum.conllu.gz"
sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_corefud_response import CHUNK  # noqa: E402  (the one reading of an Entity value)


def documents(path: Path) -> list[list[str]]:
    """The file's documents, each its lines from `# newdoc` on."""
    docs: list[list[str]] = []
    with gzip.open(path, "rt", encoding="utf-8") as source:
        for line in source.read().split("\n"):
            if line.startswith("# newdoc"):
                docs.append([])
            if docs:
                docs[-1].append(line)
    return docs


def renamed(line: str, prefix: str) -> str:
    """A token line with its entity IDs under `prefix` and no Bridge/SplitAnte; a sent_id suffixed."""
    if line.startswith("# sent_id = "):
        return f"{line}-{prefix}"
    cols = line.split("\t")
    if len(cols) != 10 or cols[9] == "_":
        return line
    misc = []
    for item in cols[9].split("|"):
        if item.startswith(("Bridge=", "SplitAnte=")):
            continue
        if item.startswith("Entity="):
            chunks = [c.replace(c.strip("()").split("-")[0], prefix + c.strip("()").split("-")[0], 1)
                      for c in CHUNK.findall(item[len("Entity="):])]
            item = "Entity=" + "".join(chunks)
        misc.append(item)
    cols[9] = "|".join(misc) or "_"
    return "\t".join(cols)


def book_key(docs: list[list[str]], target: int) -> list[str]:
    """The joined, repeated key's lines."""
    words = sum(1 for doc in docs for line in doc if line[:1].isdigit() and line.split("\t", 1)[0].isdigit())
    out = ["# newdoc id = book"] + [line for line in docs[0][1:] if line.startswith("# global.")]
    for copy in range(target // words + 1):
        for d, doc in enumerate(docs):
            kept = [renamed(line, f"c{copy}d{d}e") for line in doc
                    if not line.startswith(("# newdoc", "# global.", "# meta::"))]
            while kept and kept[-1] == "":
                kept.pop()
            out.extend(kept + [""])
    return out


def _entity_cells(sentence: list[list[str]]) -> list[list[str]]:
    """Each token row's Entity chunks (a list to edit), [] where it has none."""
    cells = []
    for cols in sentence:
        item = next((x for x in cols[9].split("|") if x.startswith("Entity=")), "")
        cells.append(CHUNK.findall(item[len("Entity="):]))
    return cells


def shortened(sentence: list[list[str]], rng: random.Random) -> None:
    """Cut some multi-word mentions short and give some a one-word twin, in place (see the docstring)."""
    cells = _entity_cells(sentence)
    open_at: dict[str, list[int]] = {}
    spans: list[tuple[str, int, int]] = []
    for w, cell in enumerate(cells):
        for chunk in cell:
            eid = chunk.strip("()").split("-")[0]
            if chunk.startswith("(") and not chunk.endswith(")"):
                open_at.setdefault(eid, []).append(w)
            elif not chunk.startswith("(") and open_at.get(eid):
                start = open_at[eid].pop()
                if not open_at[eid]:  # not nested in a mention of its own entity
                    spans.append((eid, start, w))
    for eid, start, end in spans:
        ids = [c.strip("()").split("-")[0] for c in cells[start]]
        if ids.count(eid) != 1 or any(c.strip("()").split("-")[0] == eid for w in range(start + 1, end)
                                      for c in cells[w]):
            continue
        opening = cells[start][ids.index(eid)]
        if rng.random() < 0.3:
            new_end = rng.randrange(start, end)
            cells[end].remove(f"{eid})")
            if new_end == start:
                cells[start][ids.index(eid)] = opening + ")"
            else:  # a closing goes before the word's unclosed openings, or it would read as theirs
                cell = cells[new_end]
                at = next((k for k, c in enumerate(cell) if c.startswith("(") and not c.endswith(")")), len(cell))
                cell.insert(at, f"{eid})")
        if rng.random() < 0.2 and len(opening) > 1:
            cells[start].append(opening.split("-")[0] + ")")
    for cols, cell in zip(sentence, cells):
        misc = [x for x in cols[9].split("|") if x != "_" and not x.startswith("Entity=")]
        if cell:
            misc.insert(0, "Entity=" + "".join(cell))
        cols[9] = "|".join(misc) or "_"


def book_response(key: list[str], seed: int) -> list[str]:
    """The key's lines with `shortened` applied to each sentence (words and trees untouched)."""
    rng = random.Random(seed)
    out: list[str] = []
    sentence: list[list[str]] = []
    for line in key + [""]:
        cols = line.split("\t")
        if len(cols) == 10:
            sentence.append(cols)
            continue
        if sentence:
            shortened([c for c in sentence if c[0].isdigit()], rng)
            out.extend("\t".join(c) for c in sentence)
            sentence = []
        out.append(line)
    return out[:-1]


def corpus_of(book: list[str]) -> list[str]:
    """A book file's lines cut into one document per copy of each source document, named
    `NAME_rCOPY` from its sentence IDs (`NAME-N-c{copy}d{document}e`), each under the book's
    `# global.` lines.  The response is cut from the book's response, not made again: the same
    annotations, so book and corpus differ only in where documents end (an entity the book's
    response merged across two source documents becomes one entity in each)."""
    globals_ = [line for line in book[:10] if line.startswith("# global.")]
    out: list[str] = []
    block: list[str] = []
    current = None
    for line in book:
        if line.startswith(("# newdoc", "# global.")):
            continue
        if line.startswith("# sent_id = "):
            name, _, copy = line[len("# sent_id = "):].rsplit("-", 2)
            document = f"{name}_r{copy[1:copy.index('d')]}"
            if document != current:
                current = document
                out.append(f"# newdoc id = {document}")
                out.extend(globals_)
        if line == "":
            out.extend(block + [line])
            block = []
        else:
            block.append(line)
    return out + block


def build(directory: Path, key: Path, target: int, seed: int) -> dict[str, tuple[Path, Path]]:
    """Write the pairs once: the book, the corpus cut from it, and the key's own documents with a
    response made the same way (`gum`, its key the file given); return {name: (key path, response
    path)}."""
    pairs = {"book": (directory / "book.key.conllu", directory / "book.response.conllu"),
             "corpus": (directory / "corpus.key.conllu", directory / "corpus.response.conllu"),
             "gum": (key, directory / "gum.response.conllu")}
    directory.mkdir(parents=True, exist_ok=True)
    if not all(path.exists() for name in ("book", "gum") for path in pairs[name]):
        docs = documents(key)
        lines = book_key(docs, target)
        pairs["book"][0].write_text("\n".join(lines) + "\n", encoding="utf-8")
        for name, source in (("book", lines), ("gum", [line for doc in docs for line in doc])):
            cut = directory / f"{name}.cut.conllu"
            cut.write_text("\n".join(book_response(source, seed)) + "\n", encoding="utf-8")
            subprocess.run([sys.executable, str(Path(__file__).with_name("make_corefud_response.py")), str(cut),
                            str(pairs[name][1]), "--seed", str(seed)], check=True)
            cut.unlink()
    for book, corpus in zip(pairs["book"], pairs["corpus"]):
        if not corpus.exists():  # written whole, then renamed: a reader never sees half a file
            part = corpus.with_suffix(".part")
            part.write_text("\n".join(corpus_of(book.read_text(encoding="utf-8").split("\n"))), encoding="utf-8")
            part.rename(corpus)
    return pairs


def book_arguments(description: str, source: str, default: Path, help: str) -> argparse.Namespace:
    """A book builder's arguments: its source (`--key`, `--corpus`), --dir, --tokens and --seed
    (this one's and `book_ua.py`'s)."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(source, type=Path, default=default, help=help)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/corefwb-book"))
    parser.add_argument("--tokens", type=int, default=250_000, help="the book passes this many words")
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args()


def main() -> int:
    args = book_arguments(__doc__, "--key", KEY, "a CorefUD key (CoNLL-U, gzipped)")
    for name, pair in build(args.dir, args.key, args.tokens, args.seed).items():
        print(name, *(f"{path} ({path.stat().st_size / 1e6:.1f} MB)" for path in pair))
    return 0


if __name__ == "__main__":
    sys.exit(main())

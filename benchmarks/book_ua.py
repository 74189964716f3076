"""A Universal Anaphora book: CODI-CRAC22's documents joined into one, repeated past --tokens
words, and a response made from it by `make_ua_response.py`.

    python benchmarks/book_ua.py [--corpus ../peers/CODI-CRAC22-Corpus] [--dir /tmp/corefwb-book]
                                 [--tokens 250000] [--seed 1]

Writes `book.key.CONLLUA` and `book.response.CONLLUA` into --dir (once; deterministic).  Why: a
UA user opens one long dialogue or novel as one document, and the workbench's UA views (the
relations' errors, bridging, split antecedents, discourse deixis) had been timed only on
CODI-CRAC's documents of a few thousand words (issue 42); `book.py` and `book_conllu.py` make
CoNLL-2012 and CoNLL-U books.

The key: every document of every `*.CONLLUA` file of --corpus (in name order) under one
`# newdoc id = book`, the whole repeated until it passes --tokens words.  Each copy of each
source document is renamed apart (prefix `c{copy}d{document}_` on EntityID, MarkableID,
MentionAnchor and each ElementOf entry, and on sentence IDs), word IDs count on over the
book and every `Min` moves with them (a `Min` is a word number of the document).  Columns are
written separated by one tab (the UA scorer and our reader split on any run of blanks).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "peers" / "CODI-CRAC22-Corpus"

NAMED = re.compile(r"\b(EntityID|MarkableID|MentionAnchor)=([^|()\s]+)")
"""An attribute whose value names an entity or a markable of the document."""
ELEMENT_OF = re.compile(r"\bElementOf=([^|()\s]+)")
"""The plural entities an entity is an element of, by EntityID, comma separated."""
MIN = re.compile(r"\bMin=([0-9,]+)")
"""The minimal span: word numbers of the document."""


def documents(path: Path) -> list[list[str]]:
    """The file's documents, each its lines after `# newdoc` (the columns line left out)."""
    docs: list[list[str]] = []
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("# newdoc"):
            docs.append([])
        elif docs and not line.startswith("# global."):
            docs[-1].append(line)
    return docs


def renamed_cell(cell: str, prefix: str, words_before: int) -> str:
    """A markable cell with its names under `prefix` and its Min moved past `words_before` words."""
    if cell == "_":
        return cell
    cell = NAMED.sub(lambda m: f"{m.group(1)}={prefix}{m.group(2)}", cell)
    cell = ELEMENT_OF.sub(lambda m: "ElementOf=" + ",".join(prefix + e for e in m.group(1).split(",")), cell)
    return MIN.sub(lambda m: "Min=" + ",".join(str(int(n) + words_before) for n in m.group(1).split(",")), cell)


def joined(docs: list[list[str]], copy: int, words_before: int) -> tuple[list[str], int]:
    """One copy of every document as lines of the book, and the book's words after it."""
    out: list[str] = []
    for d, doc in enumerate(docs):
        prefix = f"c{copy}d{d}_"
        base = words_before
        for line in doc:
            if line.startswith("# sent_id = "):
                out.append(f"# sent_id = {prefix}{line[len('# sent_id = '):]}")
            elif line.startswith("#") or not line.strip():
                out.append(line)
            else:
                cols = line.split()
                word, dot, zero = cols[0].partition(".")
                if not dot:
                    words_before += 1
                cols[0] = f"{int(word) + base}{dot}{zero}"
                cols[9:] = [renamed_cell(cell, prefix, base) for cell in cols[9:]]
                out.append("\t".join(cols))
        while out and not out[-1].strip():
            out.pop()
        out.append("")
    return out, words_before


def book_key(files: list[Path], target: int) -> list[str]:
    """The joined, repeated key's lines."""
    docs = [doc for path in files for doc in documents(path)]
    header = next(line for line in files[0].read_text(encoding="utf-8").split("\n") if line.startswith("# global.columns"))
    out, words, copy = [header, "# newdoc id = book"], 0, 0
    while words <= target:
        lines, words = joined(docs, copy, words)
        out.extend(lines)
        copy += 1
    return out


def build(directory: Path, corpus: Path, target: int, seed: int) -> tuple[Path, Path]:
    """Write the pair once; return (key path, response path)."""
    key, response = directory / "book.key.CONLLUA", directory / "book.response.CONLLUA"
    if key.exists() and response.exists():
        return key, response
    directory.mkdir(parents=True, exist_ok=True)
    key.write_text("\n".join(book_key(sorted(corpus.glob("*.CONLLUA")), target)) + "\n", encoding="utf-8")
    subprocess.run([sys.executable, str(Path(__file__).with_name("make_ua_response.py")), str(key), str(response),
                    "--seed", str(seed)], check=True)
    return key, response


def main() -> int:
    from book_conllu import book_arguments  # the same arguments as the CoNLL-U book's

    args = book_arguments(__doc__, "--corpus", CORPUS, "a directory of UA files (CODI-CRAC22's)")
    for path in build(args.dir, args.corpus, args.tokens, args.seed):
        print(f"{path} ({path.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""benchmarks/book_conllu.py's corpus: the book's lines cut into one document per copy of each
source document, every other line kept, so that the book and the corpus differ only in where
documents end (what `bench_book.py`'s CoNLL-U book / corpus ratios compare)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from metrics.formats.conllu import read_conllu

ROOT = Path(__file__).resolve().parent.parent


def _book_conllu():
    """benchmarks/book_conllu.py, loaded by path (a script, not a package)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))  # its sibling make_corefud_response
    try:
        spec = importlib.util.spec_from_file_location("book_conllu", ROOT / "benchmarks" / "book_conllu.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return module


def _sentence(sent_id: str, words: list[str], entity: str) -> list[str]:
    rows = [f"{i + 1}\t{w}\t{w}\tNOUN\tNN\t_\t0\troot\t0:root\t_" for i, w in enumerate(words)]
    rows[0] = rows[0][:-1] + f"Entity=({entity}-person-1)"
    return ["# newpar", f"# sent_id = {sent_id}", f"# text = {' '.join(words)}", *rows, ""]


def test_the_corpus_is_the_book_cut_at_its_source_documents(tmp_path):
    book = ["# newdoc id = book", "# global.Entity = GRP-etype-head"]
    expected_names = []
    for copy in range(2):
        for d, name in enumerate(("GUM_a", "GUM_b-x")):  # a hyphen inside a name, as GUM's sentence IDs may not
            expected_names.append(f"{name}_r{copy}")
            for n in (1, 2):
                book += _sentence(f"{name}-{n}-c{copy}d{d}e", [f"w{copy}{d}{n}", "x"], f"c{copy}d{d}e1")
    corpus = _book_conllu().corpus_of(book)
    assert [line for line in corpus if not line.startswith(("# newdoc", "# global."))] == book[2:]
    assert [line.split(" = ")[1] for line in corpus if line.startswith("# newdoc")] == expected_names
    path = tmp_path / "corpus.conllu"
    path.write_text("\n".join(corpus), encoding="utf-8")
    docs = read_conllu(str(path))
    assert [len(doc.words) for doc in docs] == [4] * 4
    assert [w for doc in docs for w in doc.words] == [line.split("\t")[1] for line in book if line[:1].isdigit()]
    assert all(len(doc.chains) == 1 and len(doc.chains[0]) == 2 for doc in docs)

"""Cross-format check and reader timings on the full GUM open subset (108 documents, 98k tokens).

Run:
    .venv/bin/python benchmarks/check_formats.py [--data ../shared/data/gum-open] [--repeat 5]

What it measures (inputs gunzipped to a temporary folder first, so gzip is not timed; the `.gz`
read is timed too, since users hand us gzipped files):
- read time of key.gum.conllu (CorefUD CoNLL-U) against key.gum.conll (CoNLL-2012), median of runs;
- per document, whether the CoNLL-U reading gives the same words, sentence breaks and chains (in
  the same order) as the CoNLL-2012 one: the data README promises 107 of 108, GUM_news_questionnaire
  having one CoNLL-2012 chain as two entities in CoNLL-U;
- the key converted to jsonlines by our writer and read back: identical to the CoNLL-2012 reading,
  and its read time; the key and the response written as CoNLL-2012 and read back: identical;
- the xrenner response scored against the key read in each format (documents in one order, so that
  float sums run in the same order): every metric that does not look at mention types must be
  identical.  The LMetrics and Tuggener's inferred/anchor metrics use mention types, which come from
  head words, which come from each format's own syntax (UD tree, PTB parse, POS only), so their
  differences are reported, not required to be zero.
Prints a summary and exits 1 if a promised equality fails.
"""

from __future__ import annotations

import argparse
import gzip
import io
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from metrics.formats.readers import read_documents  # noqa: E402
from metrics.mentions.pairing import document_key  # noqa: E402
from metrics.formats.writers import write_jsonlines  # noqa: E402

TYPE_FREE = ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll", "immediate")


def timed(fn, repeat: int) -> tuple[str, object]:
    """'wall / CPU' medians (CPU time too, because the machine may be shared), and the result."""
    walls, cpus, result = [], [], None
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        result = fn()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return f"{statistics.median(walls):.3f}/{statistics.median(cpus):.3f} s", result


def gunzip(source: Path, folder: str) -> str:
    target = os.path.join(folder, source.name[:-3])
    with gzip.open(source, "rb") as src, open(target, "wb") as dst:
        shutil.copyfileobj(src, dst)
    return target


def micro(result) -> dict[str, tuple[float, float, float]]:
    return {name: (s.recall, s.precision, s.f1) for name, s in result.micro.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "gum-open"))
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    data = Path(args.data)
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        conll_path = gunzip(data / "key.gum.conll.gz", folder)
        conllu_path = gunzip(data / "key.gum.conllu.gz", folder)
        t_conll, conll = timed(lambda: read_documents(conll_path), args.repeat)
        t_conllu, conllu = timed(lambda: read_documents(conllu_path), args.repeat)
        t_conllu_gz, _ = timed(lambda: read_documents(str(data / "key.gum.conllu.gz")), args.repeat)
        jsonl_path = os.path.join(folder, "key.gum.jsonl")
        with open(jsonl_path, "w", encoding="utf-8") as out:
            write_jsonlines(conll, out)
        t_jsonl, jsonl = timed(lambda: read_documents(jsonl_path), args.repeat)
        n_tokens = sum(d.n_tokens for d in conllu)
        lines = sum(1 for _ in open(conllu_path, encoding="utf-8"))
        print(f"CoNLL-U   {conllu_path.split('/')[-1]}: {len(conllu)} documents, {n_tokens} tokens, {lines} lines")
        print(f"read      wall/CPU: CoNLL-2012 {t_conll}   CoNLL-U {t_conllu} (.gz: {t_conllu_gz})   "
              f"jsonlines {t_jsonl}   (medians of {args.repeat})")

        by_key = {document_key(d.name): d for d in conll}
        same, differ = 0, []
        for u in conllu:
            c = by_key.get(document_key(u.name))
            if c is None:
                differ.append((u.name, "no CoNLL-2012 document"))
                continue
            if u.words != c.words or u.sentence_starts != c.sentence_starts:
                differ.append((u.name, "words or sentences differ"))
            elif u.chains != c.chains:
                a = sorted(sorted(ch) for ch in u.chains)
                b = sorted(sorted(ch) for ch in c.chains)
                what = "same partition, other order" if a == b else (
                    f"{len(u.chains)} entities vs {len(c.chains)} chains, "
                    f"{len(u.mentions())} vs {len(c.mentions())} mentions")
                differ.append((u.name, what))
            else:
                same += 1
        print(f"chains    CoNLL-U equals CoNLL-2012 (words, sentences, chains, order) in {same} of {len(conllu)} documents")
        for name, what in differ:
            print(f"          differs: {name}: {what}")
        if same != len(conllu) - 1 or [n for n, _ in differ] != ["GUM_news_questionnaire"]:
            failures.append("CoNLL-U vs CoNLL-2012: expected 107 of 108 equal, all but GUM_news_questionnaire")

        jsonl_same = sum(a.words == b.words and a.chains == b.chains and a.sentence_starts == b.sentence_starts
                         and a.pos == b.pos and a.speakers == b.speakers for a, b in zip(conll, jsonl))
        print(f"jsonlines written from CoNLL-2012 and read back: {jsonl_same} of {len(conll)} documents identical")
        if jsonl_same != len(conll):
            failures.append("jsonlines round trip")

        from metrics.formats.conll import parse_conll
        from metrics.formats.writers import write_conll

        for label, docs in (("key.gum.conll", conll), ("response.xrenner-gum.conll", read_documents(str(data / "response.xrenner-gum.conll.gz")))):
            buffer = io.StringIO()
            write_conll(docs, buffer)
            back = parse_conll("written", buffer.getvalue().encode())
            fields = ("name", "words", "chains", "labels", "sentence_starts", "pos", "parse", "lemmas", "speakers", "named_entities")
            same_docs = sum(all(getattr(a, f) == getattr(b, f) for f in fields) for a, b in zip(docs, back))
            print(f"CoNLL-2012 {label} written and read back: {same_docs} of {len(docs)} documents identical")
            if same_docs != len(docs) or len(back) != len(docs):
                failures.append(f"CoNLL-2012 round trip of {label}")

        from metrics.corpus.scoring import prepare

        response = read_documents(str(data / "response.xrenner-gum.conll.gz"))
        scores = {}
        order = {document_key(d.name): i for i, d in enumerate(conll)}
        conllu = sorted(conllu, key=lambda d: order[document_key(d.name)])
        for fmt, keys in (("conll", conll), ("conllu", conllu), ("jsonl", jsonl)):
            scores[fmt] = micro(prepare(keys, response).score())
        base = scores["conll"]
        print(f"scores    xrenner response vs key: CoNLL F1 {base['conll'][2]:.6f} (CoNLL-2012 key)")
        for fmt in ("conllu", "jsonl"):
            differing = [m for m in TYPE_FREE if scores[fmt][m] != base[m]]
            lmetrics = ", ".join(f"{m} {scores[fmt][m][2] - base[m][2]:+.5f}"
                                 for m in ("lmuc", "lbcub", "lceafm", "lceafe", "inferred", "anchor"))
            note = " (GUM_news_questionnaire's extra entity; see the 107-document line)" if fmt == "conllu" and differing else ""
            print(f"          key as {fmt:6}: type-free metrics differing: {differing or 'none'}{note}"
                  f" (CoNLL F1 {scores[fmt]['conll'][2]:.6f}); type-using metrics' F1 differences (heads from this format's syntax): {lmetrics}")
            if fmt == "jsonl" and differing:
                failures.append(f"{fmt} key scores differ: {differing}")
        # CoNLL-U differs from CoNLL-2012 in GUM_news_questionnaire, so its corpus scores may too:
        # compare without that document.
        keep = [d for d in conll if document_key(d.name) != "GUM_news_questionnaire"]
        keep_u = [d for d in conllu if d.name != "GUM_news_questionnaire"]
        a, b = micro(prepare(keep, response).score(metrics=TYPE_FREE)), micro(prepare(keep_u, response).score(metrics=TYPE_FREE))
        differing = [m for m in TYPE_FREE if a[m] != b[m]]
        print(f"          107 equal documents, CoNLL-U vs CoNLL-2012 key: type-free metrics differing: {differing or 'none'}")
        if differing:
            failures.append(f"conllu key scores differ on the 107 documents: {differing}")
    for failure in failures:
        print(f"FAILED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

"""Do responses written as today's systems write them score exactly as their CoNLL twins?

    python benchmarks/check_outputs.py KEY RESPONSE [KEY RESPONSE ...] [--out DIR] [--time N]

Each CoNLL response is written here in the four system formats corefwb reads without a flag
(metrics.formats.outputs): coref-hoi subtokens (words cut into 3-character wordpieces with `##`,
`[CLS]`/`[SEP]` around each sentence, subtoken offsets), wl-coref (`[start, end)` word offsets),
Maverick (`tokens` per sentence, inclusive offsets, no document names: paired by place), and plain
text with character offsets (`[start, end)`); and once more as an LLM would rewrite the text
(spaces around punctuation removed, straight quotes made curly, `-LRB-` as `(`).  Every metric of
`corefwb score --format json` (recall, precision and F1 of each) must equal the CoNLL twin's to
1e-12, and the mapping onto the key's words must lose nothing.  `--time N` also times `score` on
the CoNLL twin and on each format (medians of N).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from metrics.formats.readers import read_documents  # noqa: E402
from metrics.formats.writers import output_record  # noqa: E402
from metrics.model import Document  # noqa: E402

_CURLY = {'"': "”", "'": "’"}
_PTB = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "``": "“", "''": "”"}


def llm_text(doc: Document) -> dict:
    """The text as an LLM rewrites it: no space before punctuation, curly quotes, `(` for -LRB-."""
    out, offsets = "", []
    for i, word in enumerate(doc.words):
        word = _PTB.get(word, "".join(_CURLY.get(c, c) for c in word))
        glue = i > 0 and (word in (",", ".", ";", ":", "?", "!", ")", "’s", "n’t") or doc.words[i - 1] in ("(", "-LRB-"))
        if i > 0 and not glue:
            out += " "
        offsets.append((len(out), len(out) + len(word)))
        out += word
    return {"doc_key": doc.name, "text": out,
            "clusters_char_offsets": [[[offsets[s][0], offsets[e][1]] for s, e in chain] for chain in doc.chains]}


def _maverick_unnamed(doc: Document) -> dict:
    """Maverick's `predict` output saved as it is: no document name (paired by place)."""
    record = output_record(doc, "maverick")
    del record["doc_key"]
    return record


FORMATS = {"hoi": lambda d: output_record(d, "hoi"), "wl": lambda d: output_record(d, "wl"),
           "maverick": _maverick_unnamed, "text": lambda d: output_record(d, "text"), "text-llm": llm_text}


def corefwb() -> str:
    return str(Path(sys.executable).parent / "corefwb")


def score(key: str, response: str) -> dict:
    done = subprocess.run([corefwb(), "score", key, response, "--format", "json", "--no-cache"],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", help="KEY RESPONSE pairs")
    parser.add_argument("--out", type=Path, help="keep the written files here")
    parser.add_argument("--time", type=int, default=0, metavar="N")
    args = parser.parse_args()
    if len(args.files) % 2:
        parser.error("give KEY RESPONSE pairs")
    out = args.out or Path(tempfile.mkdtemp(prefix="corefwb-outputs-"))
    out.mkdir(parents=True, exist_ok=True)
    failures = 0
    for key, response in zip(args.files[::2], args.files[1::2]):
        twin = score(key, response)
        documents = read_documents(response)
        stem = Path(response).name.split(".conll")[0]
        for name, write in FORMATS.items():
            path = out / f"{stem}.{name}.jsonl"
            path.write_text("".join(json.dumps(write(doc)) + "\n" for doc in documents))
            mine = score(key, str(path))
            worst, compared = 0.0, 0
            for metric, value in twin["metrics"].items():
                for part in ("recall", "precision", "f1"):
                    if part in value:
                        compared += 1
                        worst = max(worst, abs(value[part] - mine["metrics"][metric][part]))
            alignment = mine.get("alignment", {})
            ok = worst <= 1e-12 and alignment.get("lost", 0) == 0
            failures += not ok
            print(f"{stem} as {name}: {compared} numbers, largest difference {worst:.1e}; "
                  f"alignment {alignment}: {'ok' if ok else 'DIFFERENT'}")
            if args.time:
                times = {"conll": [], name: []}
                for _ in range(args.time):
                    for label, file in (("conll", response), (name, str(path))):
                        start = time.perf_counter()
                        score(key, file)
                        times[label].append(time.perf_counter() - start)
                print(f"  score: conll {statistics.median(times['conll']):.2f} s, {name} "
                      f"{statistics.median(times[name]):.2f} s (medians of {args.time})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

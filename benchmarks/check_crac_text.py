"""Does corefwb score an LLM's output in the CRAC 2025 LLM track's inline format as the track's
pipeline does (text2text-coref `clean`, `text2conllu`, then corefud-scorer)?  And write it as
`conllu2text` does?  How fast, beside the pipeline?

    python benchmarks/check_crac_text.py --peer-python PY --checkout CHECKOUT KEY.conllu[.gz]
                                         [--documents N] [--work DIR] [--zeros free,gold]

PY is a Python with udapi and text2text-coref installed (`pip install --no-deps -e TEXT2TEXT`
plus `compact_json`); CHECKOUT a corefud-scorer checkout.  With `--documents N` only the key's
first N documents are used (the pipeline's realignment is slow).  It:

1. writes the key with `conllu2text` (with the key's ids; `--sequential_ids --zero_mentions`;
   `--sequential_ids`; `--blind`) and with `corefwb convert --to crac-text` (the same options),
   and compares them: byte for byte, or up to the ids' names (the same clusters of spans);
2. derives LLM-like outputs from the gold (dropped and added brackets, relabelled ids, unbalanced
   brackets, words inserted, dropped and changed, a document cut short, dropped `##`);
3. runs the pipeline on each (clean, text2conllu, corefud-scorer's reader and evaluator for the
   four CRAC variants) and `corefwb score --format json` the same four ways, and compares every
   recall, precision and F1 to the last digit; and times both per output.  It does so in each
   zero mode of `--zeros` (default both): `free` runs `clean` and `text2conllu` as they are,
   `gold` both with `-z`, and corefwb with `--crac-zeros gold`.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
VARIANTS = (("head", "remove"), ("partial", "remove"), ("exact", "remove"), ("head", "keep"))
METRICS = ("muc", "bcub", "ceafe", "ceafm", "lea", "blanc", "mor", "zero")


def corefwb() -> str:
    return str(Path(sys.executable).parent / "corefwb")


def first_documents(source: Path, count: int | None, target: Path) -> None:
    """The key (gunzipped), cut to its first `count` documents."""
    opener = gzip.open if source.suffix == ".gz" else open
    with opener(source, "rt", encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    seen, out = 0, []
    for line in lines:
        if line.startswith("# newdoc"):
            seen += 1
            if count is not None and seen > count:
                break
        out.append(line)
    target.write_text("\n".join(out).rstrip("\n") + "\n\n", encoding="utf-8")


def clusters(line: str) -> tuple[list[str], set[frozenset]]:
    """A line's words and its mentions grouped by id (ids' names forgotten)."""
    stacks: dict[str, list[int]] = {}
    spans: dict[str, list[tuple[int, int]]] = {}
    words = []
    for index, token in enumerate(line.split(" ")):
        word, _, marks = token.partition("|")
        words.append(word)
        for mark in marks.split(",") if marks else []:
            eid = mark.strip("[]")
            if mark.startswith("[") and mark.endswith("]"):
                spans.setdefault(eid, []).append((index, index))
            elif mark.startswith("["):
                stacks.setdefault(eid, []).append(index)
            else:
                spans.setdefault(eid, []).append((stacks[eid].pop(), index))
    return words, {frozenset(v) for v in spans.values()}


def derive(gold: list[str], seed: int = 1) -> dict[str, list[str]]:
    """LLM-like outputs made from the gold lines (sequential ids, zeros as ##)."""
    rng = random.Random(seed)
    out: dict[str, list[str]] = {}

    def per_token(change) -> list[str]:
        return [" ".join(t for token in line.split(" ") for t in change(token)) for line in gold]

    def brackets(token: str):  # drop a token's marks now and then, add a stray one now and then
        word, _, marks = token.partition("|")
        if marks and rng.random() < 0.08:
            return [word]
        if rng.random() < 0.02:
            return [f"{word}|{marks + ',' if marks else ''}[e{rng.randint(1, 40)}]"]
        return [token]
    out["brackets_dropped_added"] = per_token(brackets)

    def relabel(line: str) -> str:
        names = {f"e{k}": f"e{k * 7 + 3}" for k in range(1, 2000)}
        return " ".join(t.split("|")[0] + ("|" + ",".join(m.replace(m.strip("[]"), names.get(m.strip("[]"), m.strip("[]")))
                                                          for m in t.split("|")[1].split(",")) if "|" in t else "")
                        for t in line.split(" "))
    out["ids_relabelled"] = [relabel(line) for line in gold]

    def unbalanced(token: str):  # half the closings of some ids lost, some openings lost
        word, _, marks = token.partition("|")
        if not marks:
            return [token]
        kept = [m for m in marks.split(",") if not ((m.endswith("]") and not m.startswith("[") and rng.random() < 0.1)
                                                     or (m.startswith("[") and not m.endswith("]") and rng.random() < 0.05))]
        return [f"{word}|{','.join(kept)}" if kept else word]
    out["unbalanced"] = per_token(unbalanced)

    def words(token: str):  # casing, punctuation glued, a duplicated word, a dropped one, an inserted one
        word, sep, marks = token.partition("|")
        r = rng.random()
        if r < 0.02:
            return [word.upper() + sep + marks]
        if r < 0.04:
            return [token, token.split("|")[0]]
        if r < 0.05:
            return []
        if r < 0.06:
            return ["um", token]
        if r < 0.07 and word in {",", ".", ")", ":"}:
            return [word + "|" + marks if marks else word]
        return [token]
    out["words_changed"] = per_token(words)
    out["cut_short"] = [" ".join(line.split(" ")[: max(1, int(len(line.split(' ')) * 0.6))]) if i % 3 == 0 else line
                        for i, line in enumerate(gold)]
    out["zeros_dropped"] = per_token(lambda t: [] if t.startswith("##") and rng.random() < 0.5 else [t])
    out["glued_punctuation"] = [line.replace(" ,", ",").replace(" .", ".") for line in gold]
    return out


def oracle(peer: str, checkout: str, key: Path, output: Path, work: Path, zeros: str) -> tuple[dict, float]:
    """The pipeline's numbers for the four variants, and the time of clean + text2conllu + one scorer run
    (both tools with `-z` when `zeros` is gold)."""
    cleaned, conllu = work / f"{output.stem}.{zeros}.clean.txt", work / f"{output.stem}.{zeros}.conllu"
    z = ["-z"] if zeros == "gold" else []
    started = time.perf_counter()
    run = [peer, "-m", "text2text_coref"]
    subprocess.run([*run, "clean", str(output), str(key), "-o", str(cleaned), *z], check=True, capture_output=True)
    subprocess.run([*run, "text2conllu", str(cleaned), str(key), "-o", str(conllu), *z], check=True, capture_output=True)
    subprocess.run([peer, f"{checkout}/corefud-scorer.py", str(key), str(conllu)], check=True, capture_output=True)
    elapsed = time.perf_counter() - started
    jobs = "".join(f"{key}\t{conllu}\t{m}\t{s}\tdependent\n" for m, s in VARIANTS)
    done = subprocess.run([peer, str(HERE / "corefud_reference.py"), checkout], input=jobs, text=True,
                          capture_output=True, check=True)
    return dict(zip(VARIANTS, map(json.loads, done.stdout.splitlines()))), elapsed


def ours(key: Path, output: Path, zeros: str) -> tuple[dict, float, dict]:
    results, repairs, elapsed = {}, {}, 0.0
    for match, singletons in VARIANTS:
        started = time.perf_counter()
        done = subprocess.run([corefwb(), "score", str(key), str(output), "--format", "json", "--conventions", "corefud",
                               "--match", match, "--singletons", singletons, "--no-cache", "--crac-zeros", zeros],
                              capture_output=True, text=True, check=True)
        if (match, singletons) == VARIANTS[0]:
            elapsed = time.perf_counter() - started
        data = json.loads(done.stdout)
        results[(match, singletons)] = data["metrics"]
        repairs = {"alignment": data.get("alignment"), "repairs": data.get("repairs"),
                   "warnings": done.stderr.count("\n")}
    return results, elapsed, repairs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer-python", required=True)
    parser.add_argument("--checkout", required=True)
    parser.add_argument("--documents", type=int)
    parser.add_argument("--work")
    parser.add_argument("--zeros", default="free,gold", help="the zero modes to check, comma-separated (free, gold)")
    parser.add_argument("key", type=Path)
    args = parser.parse_args()
    work = Path(args.work or tempfile.mkdtemp(prefix="crac-text-"))
    work.mkdir(parents=True, exist_ok=True)
    key = work / "key.conllu"
    first_documents(args.key, args.documents, key)
    failures = 0
    gold: dict[str, Path] = {}
    for name, flags, ours_flags in (("key_ids", [], []), ("seq_zero", ["-s", "-z"], ["--sequential-ids", "--zero-mentions"]),
                                    ("seq", ["-s"], ["--sequential-ids"]), ("blind", ["-b"], ["--blind"])):
        theirs, mine = work / f"{name}.txt", work / f"{name}.ours.txt"
        started = time.perf_counter()
        subprocess.run([args.peer_python, "-m", "text2text_coref", "conllu2text", str(key), "-o", str(theirs), *flags],
                       check=True, capture_output=True)
        peer_time = time.perf_counter() - started
        started = time.perf_counter()
        subprocess.run([corefwb(), "convert", str(key), str(mine), "--to", "crac-text", *ours_flags], check=True)
        our_time = time.perf_counter() - started
        a, b = theirs.read_text(encoding="utf-8"), mine.read_text(encoding="utf-8")
        same = a == b if not ours_flags or ours_flags == ["--blind"] else \
            all(clusters(x) == clusters(y) for x, y in zip(a.split("\n"), b.split("\n"))) and a.count("\n") == b.count("\n")
        failures += not same
        print(f"convert {name:9} {'equal' if same else 'DIFFERS':7} ({'bytes' if not ours_flags or ours_flags == ['--blind'] else 'up to id names'}); "
              f"conllu2text {peer_time:.1f} s, corefwb {our_time:.1f} s")
        gold[name] = theirs
    outputs = {"gold_key_ids": gold["key_ids"], "gold_seq_zero": gold["seq_zero"], "gold_seq": gold["seq"]}
    lines = gold["seq_zero"].read_text(encoding="utf-8").rstrip("\n").split("\n")
    for name, derived in derive(lines).items():
        path = work / f"{name}.txt"
        path.write_text("\n".join(derived) + "\n", encoding="utf-8")
        outputs[name] = path
    total_peer = total_ours = 0.0
    for zeros, (name, path) in [(z, item) for z in args.zeros.split(",") for item in outputs.items()]:
        theirs, peer_time = oracle(args.peer_python, args.checkout, key, path, work, zeros)
        mine, our_time, repairs = ours(key, path, zeros)
        total_peer, total_ours = total_peer + peer_time, total_ours + our_time
        differ = [f"{m}/{s} {metric}" for (m, s), scores in theirs.items() for metric in METRICS
                  if "error" in scores or list(scores[metric]) != [mine[(m, s)][metric][k] for k in ("recall", "precision", "f1")]]
        failures += bool(differ)
        conll = {v: sum(theirs[v][p][2] for p in ("muc", "bcub", "ceafe")) / 3 * 100 for v in VARIANTS}
        print(f"{zeros:4} {name:22} {'equal' if not differ else 'DIFFERS: ' + ', '.join(differ[:4])}; CoNLL F1 "
              + " ".join(f"{m}{'+s' if s == 'keep' else ''} {conll[(m, s)]:.2f}" for m, s in VARIANTS)
              + f"; pipeline {peer_time:.1f} s, corefwb {our_time:.1f} s ({peer_time / our_time:.0f}x)")
        print(f"{'':27} {json.dumps(repairs['alignment'])} {json.dumps(repairs['repairs'])}, {repairs['warnings']} warning lines")
    print(f"all outputs: pipeline {total_peer:.1f} s, corefwb {total_ours:.1f} s ({total_peer / total_ours:.1f}x); "
          f"{'ALL EQUAL' if not failures else f'{failures} FAILURES'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

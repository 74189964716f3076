"""Does `corefwb errors --taxonomy kk` classify as the Berkeley Coreference Analyser (BCA) does?

    python benchmarks/check_kk.py --checkout BCA [--time N] [--keep] KEY RESPONSE [KEY RESPONSE ...]
    python benchmarks/check_kk.py --checkout BCA --sample [--time N]

BCA is a checkout of github jkkummerfeld/berkeley-coreference-analyser (commit d845001).  For each
pair (KEY a CoNLL-2012 file with a parse column; `--sample`: BCA's own sample, its `data/gold` and
`data/homogenised/stanford.homogenised.out`), in a temporary folder:
- BCA's gold folder is made from KEY, one `NAME.gold_conll` per document.  Words holding `(` or
  `)` are written with `[` and `]`: BCA reads the parse column as bracketed text and stops on them
  (a one-character word stays one character, so its trimming rule sees the same words).
- BCA runs on a copy of its checkout with two printing lines patched, each of which stops it on
  real data with a traceback after the classification is done: an operation no type takes (a
  missing key singleton's `introduce`) has no printable name, and its properties are a set.  The
  classification is untouched.
- `classify_coreference_errors.py OUT GOLD RESPONSE T` (option T: response singletons removed;
  `--keep-singletons`: F, and ours with `--singletons keep`).
- `corefwb errors KEY RESPONSE --taxonomy kk --singletons remove --format json`.
Then: the seven counts of BCA's summary against ours, its raw operation counts against ours, and
the CoNLL F1 of BCA's written files (`OUT.gold` against `OUT.corrected.none`, `.span_errors`,
`.confused_entities`, then each `*_prog` file), scored by `corefwb score` (which equals v8.01),
against our baseline and progression.  `--time N` also times BCA, `errors --taxonomy kk` and `errors`
(Chen & Ng), alternating, medians of N.  Exit status 1 when anything differs.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COREFWB = [sys.executable, "-m", "workbench"]
SUMMARY = {"Span Error": "span_error", "Conflated Entities": "conflated_entities", "Extra Mention": "extra_mention",
           "Extra Entity": "extra_entity", "Divided Entity": "divided_entity", "Missing Mention": "missing_mention",
           "Missing Entity": "missing_entity"}
OPERATIONS = {"Correct Span": "span", "Introduce Mention": "introduce", "Split from Cluster": "split",
              "Merge into Cluster": "merge", "Remove Mention": "remove"}
STAGE_FILES = ["none", "span_errors", "confused_entities", "extra_mention_prog", "extra_entity_prog", "divided_prog",
               "missing_mention_prog", "missing_entity_prog"]
PATCHES = [("rename[name]", "rename.get(name, name)"),
           ("print([name] + change[-1], file=out['properties'])",
            "print([name] + list(change[-1]), file=out['properties'])")]


def patched_copy(checkout: Path, folder: Path) -> Path:
    target = folder / "bca"
    shutil.copytree(checkout, target, ignore=shutil.ignore_patterns(".git", "data"))
    script = target / "classify_coreference_errors.py"
    text = script.read_text()
    for old, new in PATCHES:
        if old not in text:
            raise SystemExit(f"BCA's script has no line {old!r}: not commit d845001?")
        text = text.replace(old, new)
    script.write_text(text)
    return target


def gold_folder(key: Path, folder: Path) -> Path:
    gold = folder / "gold"
    gold.mkdir()
    out = None
    opener = gzip.open if key.suffix == ".gz" else open
    with opener(key, "rt", encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("#begin"):
                name = re.match(r"#begin document \((.*)\);", line).group(1)
                path = gold / f"{name}.gold_conll"
                path.parent.mkdir(parents=True, exist_ok=True)
                out = open(path, "w", encoding="utf-8")
            if out is None:
                continue
            fields = line.rstrip("\n").split("\t") if "\t" in line else line.split()
            if len(fields) > 5:
                fields[3] = fields[3].replace("(", "[").replace(")", "]")
                line = "\t".join(fields) + "\n"
            out.write(line)
            if line.startswith("#end"):
                out.close()
                out = None
    return gold


def plain(path: Path, folder: Path) -> Path:
    if path.suffix != ".gz":
        return path
    target = folder / path.stem
    target.write_bytes(gzip.decompress(path.read_bytes()))
    return target


OPTION = "T"
"""BCA's singletons option: T (response singletons removed) or F (`--keep-singletons`)."""


def run_bca(bca: Path, gold: Path, response: Path, out: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "classify_coreference_errors.py", str(out), str(gold) + "/", str(response), OPTION],
                   cwd=bca, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def summary(out: Path) -> tuple[dict[str, int], dict[str, int]]:
    counts, operations = {}, {}
    for line in Path(f"{out}.summary").read_text().splitlines():
        match = re.match(r"\s*(\d+)\s+(.+)$", line)
        if match:
            name = match.group(2).strip()
            if name in SUMMARY:
                counts[SUMMARY[name]] = int(match.group(1))
            elif name in OPERATIONS:
                operations[OPERATIONS[name]] = int(match.group(1))
    return counts, operations


def scored(gold: Path, corrected: Path) -> float:
    result = subprocess.run([*COREFWB, "score", str(gold), str(corrected), "--metrics", "conll", "--format", "json",
                             "--no-cache"], capture_output=True, text=True, check=True)
    return 100 * json.loads(result.stdout)["metrics"]["conll"]["f1"]


def ours(key: str, response: str, extra: tuple[str, ...] = ()) -> tuple[dict, float]:
    start = time.perf_counter()
    singletons = "remove" if OPTION == "T" else "keep"
    result = subprocess.run([*COREFWB, "errors", key, response, "--singletons", singletons, "--format", "json", *extra],
                            capture_output=True, text=True, check=True)
    return json.loads(result.stdout), time.perf_counter() - start


def check(bca: Path, key: Path, response: Path, folder: Path, repeats: int) -> bool:
    gold = gold_folder(key, folder) if key.is_file() else key
    response = plain(response, folder)
    out = folder / "out"
    bca_seconds = [run_bca(bca, gold, response, out)]
    theirs, their_operations = summary(out)
    data, kk_first = ours(str(key if key.is_file() else folder / "key.conll"), str(response), ("--taxonomy", "kk"))
    mine = {kind: cell["total"] for kind, cell in data["counts"]["corpus"].items()}
    ok = True
    print(f"{'type':20} {'BCA':>6} {'corefwb':>8}")
    for kind in SUMMARY.values():
        same = theirs.get(kind) == mine.get(kind)
        ok &= same
        print(f"{kind:20} {theirs.get(kind, '?'):>6} {mine.get(kind, '?'):>8}{'' if same else '   DIFFERENT'}")
    for name, n in their_operations.items():
        same = data["operations"].get(name) == n
        ok &= same
        print(f"operation {name:10} {n:>6} {data['operations'].get(name, '?'):>8}{'' if same else '   DIFFERENT'}")
    values = [100 * data["baseline_conll_f1"]] + [100 * stage["conll_f1"] for stage in data["progression"]]  # fractions
    print(f"\n{'after':20} {'BCA files (v8.01)':>18} {'corefwb':>10}")
    for stage, value in zip(STAGE_FILES, values):
        reference = scored(Path(f"{out}.gold"), Path(f"{out}.corrected.{stage}"))
        same = abs(reference - value) <= 1e-9
        ok &= same
        print(f"{stage:20} {reference:18.6f} {value:10.6f}{'' if same else '   DIFFERENT'}")
    print(f"v8.01 on the files as given: {data['v801_conll_f1']}; on BCA's reading: {data['baseline_conll_f1']} "
          f"({data['reading']})")
    if repeats:
        key_arg = str(key if key.is_file() else folder / "key.conll")
        kk, cn = [kk_first], []
        for _ in range(repeats):
            bca_seconds.append(run_bca(bca, gold, response, out))
            kk.append(ours(key_arg, str(response), ("--taxonomy", "kk"))[1])
            cn.append(ours(key_arg, str(response))[1])
        m = statistics.median
        print(f"\ntime, medians of {repeats}: BCA {m(bca_seconds):.2f} s; corefwb errors --taxonomy kk {m(kk):.2f} s "
              f"({m(bca_seconds) / m(kk):.1f}x faster than BCA); corefwb errors (Chen & Ng) {m(cn):.2f} s "
              f"(kk / chen-ng = {m(kk) / m(cn):.2f})")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checkout", type=Path, required=True, help="a BCA checkout (commit d845001)")
    parser.add_argument("--sample", action="store_true", help="BCA's own sample (its gold folder and Stanford output)")
    parser.add_argument("--time", type=int, default=0, metavar="N")
    parser.add_argument("--keep-singletons", action="store_true",
                        help="BCA's option F and our --singletons keep (default: T and remove)")
    parser.add_argument("pairs", nargs="*")
    args = parser.parse_args()
    global OPTION
    OPTION = "F" if args.keep_singletons else "T"
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        bca = patched_copy(args.checkout, folder)
        pairs = [(Path(a), Path(b)) for a, b in zip(args.pairs[::2], args.pairs[1::2])]
        if args.sample:
            sample = folder / "sample"
            sample.mkdir()
            gold = args.checkout / "data" / "gold"
            with open(sample / "key.conll", "w", encoding="utf-8") as key:
                for path in sorted(gold.rglob("*gold_conll")):
                    key.write(path.read_text(encoding="utf-8"))
            shutil.copytree(gold, sample / "gold")
            pairs.insert(0, (sample / "gold", args.checkout / "data" / "homogenised" / "stanford.homogenised.out"))
        for key, response in pairs:
            work = folder / f"pair{pairs.index((key, response))}"
            work.mkdir()
            if not key.is_file():
                shutil.copy(key.parent / "key.conll", work / "key.conll")
            print(f"== {key} / {response}")
            ok &= check(bca, key, response, work, args.time)
            print()
    print("ALL EQUAL" if ok else "DIFFERENCES FOUND")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""Do two revisions of corefwb write the same bytes?  The guard of every refactoring.

    python benchmarks/same_output.py --base REV [--data ../shared/data/gum-open] [--metrics LIST]
                                     [--only WORD] [--jobs N] [--head REV] [--ignore-stderr]

Checks out REV in a temporary git worktree and runs every command under REV and under the working
tree, on the same inputs, then compares what each wrote byte for byte: stdout, stderr (with the
run's own folder named alike), the exit status, and the file a command writes (`convert`, `plot`).
It prints one line per command (sha256 of each output, same or DIFFERENT, and which parts differ)
and exits 1 if any output differs (with `--ignore-stderr`, a difference in stderr alone does not
count: for a change that rewords warnings, whose results must stay the same).  A command that a revision does not know (a usage error, exit status 2) is an
output like any other: against a revision before it, it differs.

The commands, on gum-open's two CoNLL-2012 pairs (GUM and OntoGUM with xrenner's responses):
`score` (JSON, and text per document), `errors` (Chen & Ng's with `--impact conll`, and Kummerfeld &
Klein's), `compare`, `plot` (all four figures), `convert` (to every format); on LitBank (beside
gum-open in the data folder, when there) the key scored against itself.  Under the CorefUD
conventions, on gum-open's CoNLL-U key with two system-like responses made from it
(`make_corefud_response.py`, seeds 1 and 2) and on the CorefUD files of `tests/data/corefud`:
`score` (JSON, text, and under `--conventions conll`), `errors` (both taxonomies), `compare`,
`plot documents`, `crac` on a folder of two datasets and two systems, and `convert` (CoNLL-U copied,
the CRAC LLM track's text and JSON written).  `score --stream` on the GUM pair uncompressed.

`--metrics` limits `score` to the metrics REV knows, when the working tree has added metrics since;
`--only WORD` runs only the commands whose line holds WORD (`--only corefud`, `--only crac`).
The two revisions run side by side (`--jobs`, default 2), each with a cache of read files of its own.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUN = "import sys; sys.path.insert(0, sys.argv.pop(1)); from workbench.cli import main; sys.exit(main())"
OUT = "{out}"
"""Stands for the run's own output folder in a command line."""


@dataclass(frozen=True)
class Case:
    """One command line; `written` names the file it writes in the output folder (else None)."""

    argv: tuple[str, ...]
    written: str | None = None

    @property
    def label(self) -> str:
        shown = [a.replace(OUT + os.sep, "") for a in self.argv]
        return " ".join([shown[0]] + [Path(a).name if os.sep in a else a for a in shown[1:]])


def conll_cases(data: Path, made: Path, metrics: str | None) -> list[Case]:
    gum = [str(data / "key.gum.conll.gz"), str(data / "response.xrenner-gum.conll.gz")]
    onto = [str(data / "key.ontogum.conll.gz"), str(data / "response.xrenner-ontonotes.conll.gz")]
    score_extra = ("--metrics", metrics) if metrics else ()
    out = []
    for key, response, other in ((*gum, onto[1]), (*onto, gum[1])):
        out.append(Case(("score", key, response, "--format", "json", *score_extra)))
        out.append(Case(("errors", key, response, "--format", "json", "--impact", "conll")))
        out.append(Case(("errors", key, response, "--format", "json", "--taxonomy", "kk")))
        out.append(Case(("compare", key, response, other, "--format", "json")))
    key, response = onto
    out.append(Case(("score", key, response, "--per-doc", *score_extra)))
    out.append(Case(("errors", key, response, "--taxonomy", "kk", "--singletons", "remove")))
    out.append(Case(("errors", key, response, "--impact", "lea", "--document", "GUM_news_korea")))
    # Chen & Ng's errors unpriced (written by columns) in every format, filtered, cut, one per fix
    for fmt in ("json", "csv", "text", "markdown"):
        out.append(Case(("errors", key, response, "--format", fmt)))
    out.append(Case(("errors", key, response, "--format", "json", "--category", "wrong_link,false_new", "--type", "P",
                     "--limit", "40")))
    out.append(Case(("errors", key, response, "--format", "csv", "--distinct", "--limit", "50")))
    for kind in ("sweep", "errors", "documents", "stages"):
        out.append(Case(("plot", kind, key, response, gum[1], "--output", f"{OUT}/{kind}.svg"), f"{kind}.svg"))
    for fmt in ("jsonl", "text", "conll"):
        out.append(Case(("convert", response, f"{OUT}/onto.{fmt}", "--to", fmt), f"onto.{fmt}"))
    out.append(Case(("convert", response, f"{OUT}/onto.conllu", "--to", "conllu"), "onto.conllu"))  # refused: exit 1
    out.append(Case(("convert", key, f"{OUT}/key.conllu", "--to", "conllu"), "key.conllu"))
    conllu = data / "key.gum.conllu.gz"
    if conllu.exists():
        out.append(Case(("convert", str(conllu), f"{OUT}/gum.conll", "--to", "conll"), "gum.conll"))
    plain = made / "key.gum.conll", made / "response.xrenner-gum.conll"
    if plain[0].exists():  # --stream reads uncompressed CoNLL-2012 files only
        out.append(Case(("score", *map(str, plain), "--stream", "--format", "json", *score_extra)))
        out.append(Case(("score", *map(str, plain), "--stream", "--jobs", "2", "--per-doc", *score_extra)))
    litbank = data.parent / "litbank" / "litbank.original.conll.gz"
    if litbank.exists():
        out.append(Case(("score", str(litbank), str(litbank), "--format", "json", *score_extra)))
    return out


def corefud_cases(data: Path, made: Path) -> list[Case]:
    """Cases under the CorefUD conventions; `made` is the folder of the inputs made here."""
    out = []
    key = data / "key.gum.conllu.gz"
    if key.exists():
        k, r1, r2 = str(key), str(made / "response1.conllu"), str(made / "response2.conllu")
        out.append(Case(("score", k, r1, "--format", "json", "--per-doc")))
        out.append(Case(("score", k, r1)))
        out.append(Case(("score", k, r1, "--format", "json", "--match", "partial", "--singletons", "keep")))
        out.append(Case(("score", k, r1, "--format", "json", "--conventions", "conll")))
        out.append(Case(("errors", k, r1, "--format", "json", "--impact", "conll")))
        out.append(Case(("errors", k, r1, "--format", "json", "--taxonomy", "kk")))
        out.append(Case(("compare", k, r1, r2, "--format", "json")))
        out.append(Case(("plot", "documents", k, r1, r2, "--output", f"{OUT}/corefud.svg"), "corefud.svg"))
        out.append(Case(("crac", str(made / "key"), str(made / "a"), str(made / "b"), "--format", "json",
                         "--bootstrap", "50")))
        out.append(Case(("crac", str(made / "key"), str(made / "a"), str(made / "b"), "--bootstrap", "50")))
        out.append(Case(("convert", r1, f"{OUT}/response1.conll", "--to", "conll"), "response1.conll"))
        out.append(Case(("convert", k, f"{OUT}/copy.conllu", "--to", "conllu"), "copy.conllu"))
        out.append(Case(("convert", k, f"{OUT}/key.txt", "--to", "crac-text"), "key.txt"))
        out.append(Case(("convert", k, f"{OUT}/key.seq.txt", "--to", "crac-text", "--sequential-ids",
                         "--zero-mentions"), "key.seq.txt"))
        out.append(Case(("convert", k, f"{OUT}/key.json", "--to", "crac-json", "--blind"), "key.json"))
    tests = ROOT / "tests" / "data" / "corefud"
    for name in ("", "discontinuous."):
        k, r = str(tests / f"{name}key.conllu"), str(tests / f"{name}response.conllu")
        out.append(Case(("convert", r, f"{OUT}/copy.conllu", "--to", "conllu"), "copy.conllu"))
        out.append(Case(("convert", k, f"{OUT}/key.txt", "--to", "crac-text", "--zero-mentions"), "key.txt"))
        out.append(Case(("score", k, r, "--format", "json", "--per-doc")))
        out.append(Case(("score", k, r, "--format", "json", "--singletons", "keep", "--match", "exact")))
        out.append(Case(("errors", k, r, "--format", "json", "--impact", "conll", "--singletons", "keep")))
    return out


def make_conll_inputs(data: Path, made: Path) -> None:
    """gum-open's GUM pair uncompressed (for `score --stream`)."""
    for name in ("key.gum.conll", "response.xrenner-gum.conll"):
        (made / name).write_bytes(gzip.decompress((data / f"{name}.gz").read_bytes()))


def make_corefud_inputs(data: Path, made: Path) -> None:
    """Two system-like responses of gum-open's CoNLL-U key, and a CRAC layout of two datasets
    (GUM, and the tests' small CorefUD pair) and two systems."""
    key = data / "key.gum.conllu.gz"
    if not key.exists():
        return
    for seed in (1, 2):
        subprocess.run([sys.executable, str(ROOT / "benchmarks" / "make_corefud_response.py"), str(key),
                        str(made / f"response{seed}.conllu"), "--seed", str(seed)], check=True)
    tests = ROOT / "tests" / "data" / "corefud"
    for folder in ("key", "a", "b"):
        (made / folder).mkdir()
    shutil.copy(key, made / "key" / "en_gum-corefud-dev.conllu.gz")
    shutil.copy(tests / "key.conllu", made / "key" / "xx_tests-corefud-dev.conllu")
    shutil.copy(made / "response1.conllu", made / "a" / "en_gum-corefud-dev.conllu")
    shutil.copy(made / "response2.conllu", made / "b" / "en_gum-corefud-dev.conllu")
    shutil.copy(tests / "response.conllu", made / "a" / "xx_tests-corefud-dev.conllu")
    shutil.copy(tests / "key.conllu", made / "b" / "xx_tests-corefud-dev.conllu")


PARTS = ("status", "stdout", "stderr", "file")
"""What `run` returns of a run, in this order: so that a report can say which part differs."""


def run(root: Path, case: Case, folder: Path) -> tuple[bytes, ...]:
    """Everything one run wrote (`PARTS`): exit status, stdout, stderr (its folder's path made
    neutral) and the file it wrote."""
    folder.mkdir(parents=True, exist_ok=True)
    argv = [a.replace(OUT, str(folder)) for a in case.argv]
    env = {**os.environ, "COREFWB_CACHE_DIR": str(folder.parent / "cache")}
    done = subprocess.run([sys.executable, "-c", RUN, str(root), *argv], capture_output=True,
                          cwd=tempfile.gettempdir(), env=env)
    if done.returncode not in (0, 1, 2):  # 1 and 2: a refused input or usage, both outputs to compare
        sys.stderr.write(done.stderr.decode(errors="replace"))
        raise SystemExit(f"same_output: {root}: corefwb {case.label} exited {done.returncode}")
    written = (folder / case.written).read_bytes() if case.written and (folder / case.written).exists() else b""
    stderr = done.stderr.replace(str(folder).encode(), b"{out}")
    return str(done.returncode).encode(), done.stdout, stderr, written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="git revision to compare the working tree with")
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "gum-open"))
    parser.add_argument("--metrics", help="metrics for `score` (those the base revision knows)")
    parser.add_argument("--only", help="run only the commands whose line holds this word")
    parser.add_argument("--head", help="a git revision to run instead of the working tree (then the tree may change "
                                       "while this runs)")
    parser.add_argument("--jobs", type=int, default=2, help="runs at once (default 2: the two revisions)")
    parser.add_argument("--ignore-stderr", action="store_true",
                        help="count a run whose stderr alone differs as the same (a change that rewords warnings); "
                             "the line still says so")
    args = parser.parse_args()
    data = Path(args.data)
    if not (data / "key.gum.conll.gz").exists():
        raise SystemExit(f"same_output: no gum-open data at {data}")
    with tempfile.TemporaryDirectory(prefix="corefwb-base-") as tmp:
        base, made = Path(tmp) / "base", Path(tmp) / "made"
        made.mkdir()
        make_conll_inputs(data, made)
        make_corefud_inputs(data, made)
        cases = conll_cases(data, made, args.metrics) + corefud_cases(data, made)
        if args.only:
            cases = [c for c in cases if args.only in c.label or (args.only == "corefud" and "conllu" in c.label)]
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(base), args.base], check=True)
        head = ROOT
        if args.head:
            head = Path(tmp) / "head"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(head), args.head],
                           check=True)
        try:
            differ = 0
            with ThreadPoolExecutor(max(1, args.jobs)) as pool:
                for number, case in enumerate(cases):
                    before = pool.submit(run, base, case, Path(tmp) / "runs-base" / str(number))
                    after = pool.submit(run, head, case, Path(tmp) / "runs-head" / str(number))
                    old, new = before.result(), after.result()
                    parts = [name for name, a, b in zip(PARTS, old, new) if a != b]
                    same = not parts or (args.ignore_stderr and parts == ["stderr"])
                    differ += not same
                    old_bytes, new_bytes = b"\0".join(old), b"\0".join(new)
                    which = f" ({', '.join(parts)} differ)" if parts else ""
                    print(f"{'same     ' if same else 'DIFFERENT'} {hashlib.sha256(old_bytes).hexdigest()[:16]} "
                          f"{hashlib.sha256(new_bytes).hexdigest()[:16]} {len(new_bytes):>10} bytes  {case.label}{which}",
                          flush=True)
        finally:
            for tree in {base, head} - {ROOT}:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
    print("all outputs identical" if not differ else f"{differ} output(s) differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())

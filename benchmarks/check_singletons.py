"""`--singletons remove` against coval's `remove_singletons`, on gum-open, at full precision.

coval (github.com/ns-moosavi/coval; the PyPI package of that name is unrelated) is not installed
anywhere: give a checkout of it with --coval (e.g. `git clone https://github.com/ns-moosavi/coval`),
and this script imports its reader and evaluator from there, in-process, so its numbers are not
rounded by its printout.  Runs in the benchmark's environment (numpy and scipy are all coval needs).

    benchmarks/.venv/bin/python benchmarks/check_singletons.py --coval /tmp/coval

coval departs from v8.01 on spans listed twice and mentions across sentences, whatever the singleton
policy, so the comparison is made on the documents where coval and corefwb (= v8.01) agree with
singletons kept: there, for each response of gum-open's GUM layer and each of MUC, B3, CEAFe, LEA
and mention detection, it prints coval's recall, precision and F1 with singletons removed (micro
over those documents), ours with `--singletons remove`, and whether they are equal; exits 1 if any
differs by more than 1e-12.
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from metrics.mentions.pairing import document_key  # noqa: E402
METRICS = {"mentions": "mentions", "muc": "muc", "bcub": "b_cubed", "ceafe": "ceafe", "lea": "lea"}


def gunzip(path: Path, folder: Path) -> Path:
    out = folder / path.name.removesuffix(".gz")
    out.write_bytes(gzip.decompress(path.read_bytes()))
    return out


def coval_infos(coval: Path, key: Path, response: Path, keep_singletons: bool) -> dict:
    """coval's per-document cluster information (its printout silenced)."""
    import contextlib
    import io

    sys.path.insert(0, str(coval))
    from coval.conll import reader  # noqa: PLC0415 - a checkout given on the command line

    with contextlib.redirect_stdout(io.StringIO()):
        return reader.get_coref_infos(str(key), str(response), False, False, keep_singletons, False)


def coval_scores(infos: dict) -> dict[str, tuple[float, float, float]]:
    from coval.eval import evaluator  # noqa: PLC0415

    return {ours: tuple(float(x) for x in evaluator.evaluate_documents(infos, getattr(evaluator, theirs), beta=1))
            for ours, theirs in METRICS.items()}


def our_documents(key: Path, response: Path, singletons: str) -> dict[str, dict[str, list[float]]]:
    """corefwb's per-document counts (recall and precision numerators and denominators)."""
    out = subprocess.run([sys.executable, "-m", "workbench.cli", "score", str(key), str(response), "--format", "json",
                          "--singletons", singletons, "--metrics", ",".join(METRICS)],
                         capture_output=True, check=True, cwd=ROOT)
    return {document_key(d["document"]): {m: d["metrics"][m]["counts"] for m in METRICS}
            for d in json.loads(out.stdout)["per_document"]}


def micro(documents: dict[str, dict[str, list[float]]], names) -> dict[str, tuple[float, float, float]]:
    out = {}
    for m in METRICS:
        rn, rd, pn, pd = (sum(documents[n][m][i] for n in names) for i in range(4))
        r, p = (rn / rd if rd else 0.0), (pn / pd if pd else 0.0)
        out[m] = (r, p, 2 * r * p / (r + p) if r + p else 0.0)
    return out


def same(a, b) -> bool:
    return all(abs(x - y) <= 1e-12 for x, y in zip(a, b))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coval", type=Path, required=True, help="a checkout of github.com/ns-moosavi/coval")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "gum-open")
    args = parser.parse_args()
    failures = 0
    with tempfile.TemporaryDirectory() as folder:
        key = gunzip(args.data / "key.gum.conll.gz", Path(folder))
        for name in ("response.xrenner-gum.conll.gz", "response.xrenner-ontonotes.conll.gz"):
            response = gunzip(args.data / name, Path(folder))
            kept = {document_key(d): info for d, info in coval_infos(args.coval, key, response, True).items()}
            removed = {document_key(d): info for d, info in coval_infos(args.coval, key, response, False).items()}
            ours_kept, ours_removed = our_documents(key, response, "keep"), our_documents(key, response, "remove")
            # coval reads repeated and sentence-crossing spans differently from v8.01 (which corefwb
            # follows); the singleton policy is compared where coval equals v8.01 with singletons kept
            comparable = [d for d in ours_kept if same(coval_scores({d: kept[d]})["muc"], micro(ours_kept, [d])["muc"])
                          and all(same(coval_scores({d: kept[d]})[m], micro(ours_kept, [d])[m]) for m in METRICS)]
            theirs = coval_scores({d: removed[d] for d in comparable})
            ours = micro(ours_removed, comparable)
            print(f"{name}: singletons removed, on the {len(comparable)} of {len(ours_kept)} documents where coval "
                  f"equals v8.01 with singletons kept")
            print(f"  {'metric':<9} {'coval R / P / F1':>38}   {'corefwb R / P / F1':>38}  same")
            for m in METRICS:
                equal = same(theirs[m], ours[m])
                failures += not equal
                print(f"  {m:<9} {' '.join(f'{x:12.9f}' for x in theirs[m])}   "
                      f"{' '.join(f'{x:12.9f}' for x in ours[m])}  {'yes' if equal else 'NO'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

"""Do two revisions of corefwb write the same bytes?  The guard of every refactoring.

    python benchmarks/same_output.py --base REV [--data ../shared/data/gum-open] [--metrics LIST]

Checks out REV in a temporary git worktree and runs `corefwb score`, `errors --impact conll` and
`compare` with `--format json` on both gum-open pairs under REV and under the working tree.  Then it
compares stdout byte for byte.  It prints one line per command (sha256 of each output, same or
DIFFERENT) and exits 1 if any output differs.  `--metrics` limits `score` to the metrics REV knows,
when the working tree has added metrics since.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUN = "import sys; sys.path.insert(0, sys.argv.pop(1)); from workbench.cli import main; sys.exit(main())"


def commands(data: Path, metrics: str | None) -> list[list[str]]:
    gum = [str(data / "key.gum.conll.gz"), str(data / "response.xrenner-gum.conll.gz")]
    onto = [str(data / "key.ontogum.conll.gz"), str(data / "response.xrenner-ontonotes.conll.gz")]
    score_extra = ["--metrics", metrics] if metrics else []
    out = []
    for key, response, other in ((*gum, onto[1]), (*onto, gum[1])):
        out.append(["score", key, response, "--format", "json", *score_extra])
        out.append(["errors", key, response, "--format", "json", "--impact", "conll"])
        out.append(["compare", key, response, other, "--format", "json"])
    return out


def run(root: Path, argv: list[str]) -> bytes:
    done = subprocess.run([sys.executable, "-c", RUN, str(root), *argv], capture_output=True, cwd=tempfile.gettempdir())
    if done.returncode != 0:
        sys.stderr.write(done.stderr.decode(errors="replace"))
        raise SystemExit(f"same_output: {root}: corefwb {' '.join(argv[:1])} exited {done.returncode}")
    return done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="git revision to compare the working tree with")
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "gum-open"))
    parser.add_argument("--metrics", help="metrics for `score` (those the base revision knows)")
    args = parser.parse_args()
    data = Path(args.data)
    if not (data / "key.gum.conll.gz").exists():
        raise SystemExit(f"same_output: no gum-open data at {data}")
    with tempfile.TemporaryDirectory(prefix="corefwb-base-") as tmp:
        base = Path(tmp) / "base"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(base), args.base], check=True)
        try:
            differ = 0
            for argv in commands(data, args.metrics):
                before, after = run(base, argv), run(ROOT, argv)
                same = before == after
                differ += not same
                label = " ".join([argv[0]] + [Path(a).name if os.sep in a else a for a in argv[1:]])
                print(f"{'same     ' if same else 'DIFFERENT'} {hashlib.sha256(before).hexdigest()[:16]} "
                      f"{hashlib.sha256(after).hexdigest()[:16]} {len(after):>10} bytes  {label}")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=False)
    print("all outputs identical" if not differ else f"{differ} output(s) differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())

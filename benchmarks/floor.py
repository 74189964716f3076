"""How fast can `corefwb score` be at all on a corpus, in Python with numpy?  The floor, beside coval.

    benchmarks/.venv/bin/python benchmarks/floor.py --coval /tmp/coval [--repeat 5] [KEY RESPONSE]

Times, each the median of --repeat runs taken in turn, of the steps no scorer written in Python
with numpy can skip, and of the whole runs:
- starting Python (`python -c pass`), and importing numpy;
- decompressing the response and splitting it into lines (the least reading can do);
- reading the response with our reader (numpy over the whole buffer), no cache;
- `corefwb score --format json`, all metrics: cold (`--no-cache`), and with both files cached;
- coval's `scorer.py` on the same files.
It prints the budgets a target ratio leaves (coval's median over the ratio) beside the floor
(Python, numpy and the inputs' bytes decompressed and split, with no line parsed and nothing
scored): what is left of a budget once the floor is paid is all a scorer has for parsing,
aligning, 20 metrics and writing JSON.
Default files: gum-open's GUM layer (`key.gum.conll.gz`, `response.xrenner-gum.conll.gz`).
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "gum-open"


def seconds(argv: list[str], repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True)
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--coval", type=Path, required=True, help="a checkout of github.com/ns-moosavi/coval")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("files", nargs="*", default=[str(DATA / "key.gum.conll.gz"),
                                                     str(DATA / "response.xrenner-gum.conll.gz")])
    args = parser.parse_args()
    py = sys.executable
    corefwb = [py, "-m", "workbench"]
    with tempfile.TemporaryDirectory() as tmp:
        plain = []
        for path in args.files:  # coval reads plain text
            target = Path(tmp) / Path(path).name.removesuffix(".gz")
            with gzip.open(path) if path.endswith(".gz") else open(path, "rb") as source, open(target, "wb") as out:
                shutil.copyfileobj(source, out)
            plain.append(str(target))
        key, response = args.files
        subprocess.run([*corefwb, "score", key, response, "--format", "json"], check=True, capture_output=True)
        rows = [
            ("start Python", seconds([py, "-c", "pass"], args.repeat)),
            ("import numpy", seconds([py, "-c", "import numpy"], args.repeat)),
            ("decompress + split the response", seconds([py, "-c", f"import gzip; gzip.open({response!r}).read().split(b'\\n')"], args.repeat)),
            ("read the response (our reader, no cache)", seconds(
                [py, "-c", f"from metrics.formats.readers import read_documents; read_documents({response!r})"], args.repeat)),
            ("corefwb score, cold", seconds([*corefwb, "score", key, response, "--format", "json", "--no-cache"], args.repeat)),
            ("corefwb score, both cached", seconds([*corefwb, "score", key, response, "--format", "json"], args.repeat)),
            ("coval", seconds([py, str(args.coval / "scorer.py"), *plain], args.repeat)),
        ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value:6.3f} s")
    coval = rows[-1][1]
    bytes_only = rows[2][1] - rows[0][1]  # decompressing and splitting, without parsing a line
    floor_cached = rows[1][1] + bytes_only  # Python, numpy, the response's bytes: nothing parsed or scored
    floor_cold = floor_cached + bytes_only  # and the key's bytes
    for ratio, floor, what in ((10, floor_cold, "cold"), (20, floor_cached, "key cached")):
        budget = coval / ratio
        print(f"{ratio}x coval {what}: budget {budget:.3f} s; floor {floor:.3f} s; left for parsing and scoring "
              f"{max(0.0, budget - floor):.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

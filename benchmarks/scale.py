"""Scale check: a generated corpus the size of PreCo scored with `corefwb score --stream --jobs N`.

Generates (once, deterministic seed) a key and a perturbed response of about 38,000 documents and
12 million tokens in --dir, then runs `corefwb score --stream --jobs N --format json` for each N given and
reports wall time, peak memory (of the process tree, from `/usr/bin/time` when present, else
resource usage of children), and whether the JSON is byte-identical across N.

    python benchmarks/scale.py --dir /tmp/scale --jobs 1 2
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path


def generate(directory: Path, docs: int, tokens: int, seed: int = 13) -> tuple[Path, Path]:
    key_path, resp_path = directory / "key.conll", directory / "response.conll"
    if key_path.exists() and resp_path.exists():
        return key_path, resp_path
    directory.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    per_doc = tokens // docs
    with open(key_path, "w") as key, open(resp_path, "w") as resp:
        for d in range(docs):
            n = max(20, int(rng.gauss(per_doc, per_doc / 3)))
            # mentions: ~1 per 3 tokens, non-crossing single-token or short spans, ~30 chains
            mentions = []
            t = 0
            while t < n - 3:
                t += rng.randint(1, 5)
                if t >= n - 3:
                    break
                length = rng.choice((1, 1, 1, 2, 3))
                mentions.append((t, min(n - 1, t + length - 1)))
                t += length
            n_chains = max(1, len(mentions) // 4)
            key_chain = [rng.randrange(n_chains) for _ in mentions]
            resp_chain = [c if rng.random() < 0.8 else rng.randrange(n_chains + 5) for c in key_chain]
            dropped = {i for i in range(len(mentions)) if rng.random() < 0.1}
            for out, chains, skip in ((key, key_chain, set()), (resp, resp_chain, dropped)):
                cells = [[] for _ in range(n)]
                for i, ((s, e), c) in enumerate(zip(mentions, chains)):
                    if i in skip:
                        continue
                    if s == e:
                        cells[s].append(f"({c})")
                    else:
                        cells[s].append(f"({c}")
                        cells[e].append(f"{c})")
                out.write(f"#begin document (gen_{d}); part 000\n")
                for i in range(n):
                    if i and i % 25 == 0:
                        out.write("\n")
                    cell = "|".join(cells[i]) or "-"
                    out.write(f"gen_{d}\t0\t{i % 25}\tw{i}\tNN\t*\t-\t-\t-\t-\t*\t{cell}\n")
                out.write("#end document\n")
    return key_path, resp_path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", default="/tmp/corefwb-scale")
    parser.add_argument("--docs", type=int, default=38000)
    parser.add_argument("--tokens", type=int, default=12_000_000)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    t0 = time.perf_counter()
    key, resp = generate(Path(args.dir), args.docs, args.tokens)
    print(f"corpus: {key} ({key.stat().st_size / 1e6:.0f} MB), {resp}; ready in {time.perf_counter() - t0:.1f} s")
    corefwb = [sys.executable, "-m", "workbench.cli"]
    digests = {}
    for jobs in args.jobs:
        out = Path(args.dir) / f"scores-jobs{jobs}.json"
        cmd = ["/usr/bin/time", "-f", "%M"] if os.path.exists("/usr/bin/time") else []
        start = time.perf_counter()
        with open(out, "w") as handle:
            proc = subprocess.run(cmd + corefwb + ["score", str(key), str(resp), "--format", "json", "--stream", "--jobs", str(jobs),
                                                   "--metrics", "muc,bcub,ceafm,ceafe,blanc,lea,mentions,conll,lmuc,lbcub,lceafm,lceafe"],
                                  stdout=handle, stderr=subprocess.PIPE, text=True)
        wall = time.perf_counter() - start
        peak = proc.stderr.strip().splitlines()[-1] if cmd else str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        digests[jobs] = hashlib.sha256(out.read_bytes()).hexdigest()[:16]
        print(f"--jobs {jobs}: exit {proc.returncode}, {wall:.1f} s wall, peak RSS of the largest process {int(peak) / 1024:.0f} MB, json sha256 {digests[jobs]}")
    print("identical across --jobs:", len(set(digests.values())) == 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

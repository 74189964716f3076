"""A system-like CorefUD response made from a CoNLL-U key, for checking the CorefUD conventions
against corefud-scorer on real text (benchmarks/check_corefud.py --pairs).

    python benchmarks/make_corefud_response.py KEY.conllu[.gz] OUT.conllu [--seed S]

Changes the key's `Entity=` annotations as a system errs, deterministically for a seed: drops
one-word mentions (zeros among them), splits one-word mentions off into entities of their own, and
merges whole entities into the one met before them.  Words, trees and DEPS stay the key's, as
corefud-scorer requires.
"""

from __future__ import annotations

import argparse
import gzip
import random
import re

CHUNK = re.compile(r"\([^()]+\)?|[^()]+\)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("key")
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    opener = gzip.open if args.key.endswith(".gz") else open
    with opener(args.key, "rt", encoding="utf-8") as f:
        lines = f.read().split("\n")
    merged: dict[str, str] = {}
    previous = None
    fresh = 0
    for i, line in enumerate(lines):
        if line.startswith("# newdoc"):
            merged, previous = {}, None
        cols = line.split("\t")
        if len(cols) != 10 or "Entity=" not in cols[9]:
            continue
        # a system writes no bridging or split antecedents (they would name entities merged away)
        misc = [x for x in cols[9].split("|") if not x.startswith(("Bridge=", "SplitAnte="))]
        for k, item in enumerate(misc):
            if not item.startswith("Entity="):
                continue
            out = []
            for chunk in CHUNK.findall(item[len("Entity="):]):
                eid = chunk.strip("()").split("-")[0]
                if chunk.startswith("(") and eid not in merged:
                    merged[eid] = previous if previous is not None and rng.random() < 0.05 else eid
                    previous = eid
                target = merged.get(eid, eid)
                if chunk.startswith("(") and chunk.endswith(")"):
                    roll = rng.random()
                    if roll < 0.1:
                        continue
                    if roll < 0.2:
                        fresh += 1
                        target = f"split{fresh}"
                out.append(chunk.replace(eid, target, 1))
            misc[k] = "Entity=" + "".join(out) if out else ""
        cols[9] = "|".join(x for x in misc if x) or "_"
        lines[i] = "\t".join(cols)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()

"""Every document of the CODI-CRAC 2022 train files scored over columns and over mentions, to the bit.

    python benchmarks/ua_columns_vs_objects.py --codi CODI_CRAC22_CHECKOUT [--seeds 1 2 3 4]

For each train file and each seed, a response is derived from the key (benchmarks/make_ua_response.py,
the rate growing with the seed), and the pair is scored under the settings that count documents with
plural entities over columns (codicrac22ar, codicrac22dd, and split antecedents kept with every
metric that credits them over columns, zeros removed and kept): once as `score_corpus` scores it,
once with the columns turned off (every document clustered into `Mention`s).  Every document's
counts and the corpus totals must be equal (as Python numbers, so to the last bit); the script
also says how many documents went over columns, and scores once more with the split antecedents'
credit left out over columns, which must differ for each setting on some file and seed (the
comparison can fail; a response may keep every split antecedent of a layer, and nothing differs).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from metrics.corpus import ua as corpus_ua  # noqa: E402
from metrics.corpus.ua import PRESETS, score_corpus  # noqa: E402
from metrics.formats.ua import read_ua  # noqa: E402
from metrics.measures import ua_plural  # noqa: E402

SPLIT = ("muc", "bcub", "ceafe", "ceafm", "conll")
SETTINGS = {"codicrac22ar": PRESETS["codicrac22ar"], "codicrac22dd": PRESETS["codicrac22dd"],
            "split-kept": replace(PRESETS["codicrac22ar"], metrics=SPLIT),
            "split-kept-zeros": replace(PRESETS["codicrac22ar"], metrics=SPLIT, keep_zeros=True)}


def counts(key: str, response: str, settings, *, columns: bool = True, credit: bool = True):
    applies, credits = corpus_ua.applies, ua_plural.credits
    try:
        if not columns:
            corpus_ua.applies = lambda *a, **k: False
        if not credit:
            ua_plural.credits = lambda name, s: ua_plural.Credits()
        result = score_corpus(read_ua(key), read_ua(response), key, response, settings)
    finally:
        corpus_ua.applies, ua_plural.credits = applies, credits
    return result.totals, [d.counts for d in result.documents], sum(d.columnar for d in result.documents)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--codi", required=True, help="a CODI-CRAC22-Corpus checkout")
    parser.add_argument("--seeds", nargs="+", type=int, default=[1, 2, 3, 4])
    args = parser.parse_args()
    failed = 0
    could_fail = {name: False for name in SETTINGS}
    with tempfile.TemporaryDirectory() as workdir:
        for key in sorted(str(p) for p in Path(args.codi).glob("*_train.2022.CONLLUA")):
            for seed in args.seeds:
                response = str(Path(workdir, f"{Path(key).stem}.{seed}"))
                subprocess.run([sys.executable, str(ROOT / "benchmarks" / "make_ua_response.py"), "--seed", str(seed),
                                "--rate", str(0.1 * seed), key, response], check=True)
                for name, settings in SETTINGS.items():
                    fast, slow = counts(key, response, settings), counts(key, response, settings, columns=False)
                    blind = counts(key, response, settings, credit=False)
                    equal = fast[:2] == slow[:2]
                    can_fail = blind[:2] != slow[:2]
                    failed += not equal
                    could_fail[name] |= can_fail
                    print(f"{Path(key).name} seed {seed} {name}: {fast[2]}/{len(fast[1])} documents over columns, "
                          f"{'equal' if equal else 'DIFFERENT'} to the bit over mentions; without the credit "
                          f"{'different' if can_fail else 'equal'}", flush=True)
    blind = [name for name, seen in could_fail.items() if not seen]
    print(("all equal" if not failed else f"{failed} comparisons differ") +
          (f"; the credit never mattered under {', '.join(blind)} (the check could not fail there)" if blind else
           "; under every setting leaving the credit out changes some counts"))
    return 1 if failed or blind else 0


if __name__ == "__main__":
    sys.exit(main())

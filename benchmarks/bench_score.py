"""Benchmark: how fast the engine scores a real corpus, against bare reading and Python peers.

Run (after `bash benchmarks/setup.sh`):
    benchmarks/.venv/bin/python benchmarks/bench_score.py [--repeat 5] [--peer-repeat 3]

Input: the GUM layer of ../shared/data/gum-open (key.gum.conll.gz + response.xrenner-gum.conll.gz,
gunzipped to a temporary folder first, so gzip is not timed), and a synthetic pair of the same size
(benchmarks/synthetic.py) that every peer can read.  Timed, each as the median of several runs:

    read     metrics.read_documents on both files (bare reading, the yardstick)
    engine   metrics.prepare(keys, responses).score() with all metrics, reading excluded
    engine5  the same with only the five v8.01 metrics (muc, bcub, ceafm, ceafe, blanc)
    engine4  the same with only coreference-eval's metrics (muc, bcub, ceafe, lea): the same work
             as the fastest peer, for the like-for-like ratio
    cli      `corefwb score KEY RESPONSE --format json` as a subprocess (wall time, start-up included)
    peers    scorch 0.2.0 (its own CoNLL reader, then its five metrics per document as its CLI
             does); scorch on clusters taken from our reader (so it runs where its reader
             crashes); scorch's CLI on its JSON input; coreference-eval 0.0.2 (e2e-coref metrics:
             MUC, B3, CEAFe, LEA) in-process.  A peer that crashes is reported, not timed.

Goals (from the issue): engine <= 2 x read; engine >= 10 x faster than the fastest Python peer on
the same input.  The table goes to stdout, everything to benchmarks/out/results.json.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from typing import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, REPO)
sys.path.insert(0, HERE)

import metrics  # noqa: E402
import synthetic  # noqa: E402

DATA = os.path.join(os.path.dirname(REPO), "shared", "data", "gum-open")
OFFICIAL = ["muc", "bcub", "ceafm", "ceafe", "blanc"]
PEER_METRICS = ["muc", "bcub", "ceafe", "lea"]
"""What coreference-eval computes."""


def timed(fn: Callable[..., object], repeat: int,
          setup: Callable[[], tuple] | None = None) -> tuple[float, list[float], object]:
    """Median wall time of `repeat` calls (after one untimed warm-up call, which pays the imports),
    all times, last result.  `setup` runs untimed before each call and gives fn its arguments:
    the engine caches per-document work (head finders) on the Document objects, so every timed
    engine run gets freshly read documents, as a real run does."""
    args = setup() if setup else ()
    result = fn(*args)
    times = []
    for _ in range(repeat):
        args = setup() if setup else ()
        gc.collect()
        t0 = time.perf_counter()
        result = fn(*args)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), times, result


def attempt(fn: Callable[[], tuple[float, list[float], object]]) -> dict:
    """Run a timing; a crash becomes {'error': ...} so one broken peer does not stop the run."""
    try:
        median, times, result = fn()
        return {"median_s": median, "runs_s": times, "result": result}
    except Exception as exc:  # a peer's failure is a result to report
        last = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{os.path.basename(last.filename)}:{last.lineno}"
        return {"error": f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''} ({where})"}


def gunzip(src: str, dst: str) -> str:
    with gzip.open(src, "rb") as fin, open(dst, "wb") as fout:
        shutil.copyfileobj(fin, fout)
    return dst


# --- our side -----------------------------------------------------------------------------------

def ours(key: str, response: str, repeat: int, cli_repeat: int) -> tuple[dict, list, list]:
    """Our timings on one pair, plus the documents read (the peers score the same documents)."""
    def read_both() -> tuple[list, list]:
        return metrics.read_documents(key), metrics.read_documents(response)

    read = attempt(lambda: timed(read_both, repeat))
    keys, responses = read.pop("result")
    engine = attempt(lambda: timed(lambda k, r: metrics.prepare(k, r).score(), repeat, setup=read_both))
    result = engine.pop("result", None)
    engine5 = attempt(lambda: timed(lambda k, r: metrics.prepare(k, r).score(metrics=OFFICIAL), repeat,
                                    setup=read_both))
    engine5.pop("result", None)
    engine4 = attempt(lambda: timed(lambda k, r: metrics.prepare(k, r).score(metrics=PEER_METRICS), repeat,
                                    setup=read_both))
    engine4.pop("result", None)
    prepare = attempt(lambda: timed(lambda k, r: metrics.prepare(k, r), repeat, setup=read_both))
    prepare.pop("result", None)
    corefwb = os.path.join(os.path.dirname(sys.executable), "corefwb")
    cmd = [corefwb, "score", key, response, "--format", "json"]

    def cli() -> int:
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"corefwb exit {proc.returncode}: {proc.stderr.strip()[:200]}")
        return proc.returncode

    cli_t = attempt(lambda: timed(cli, cli_repeat))
    cli_t.pop("result", None)
    out = {"read": read, "engine": engine, "engine5": engine5, "engine4": engine4, "prepare": prepare,
           "cli": cli_t}
    if result is not None:
        out["scores"] = {m: result.micro[m].f1 for m in ("muc", "bcub", "ceafm", "ceafe", "blanc", "conll")}
    out["sizes"] = {
        "documents": len(keys),
        "tokens": sum(len(d.words) for d in keys),
        "key_mentions": sum(len(c) for d in keys for c in d.chains),
        "response_mentions": sum(len(c) for d in responses for c in d.chains),
    }
    return out, keys, responses


# --- peers --------------------------------------------------------------------------------------

def scorch_score(pairs: list[tuple[list[set], list[set]]]) -> float:
    """scorch's per-document scoring as its directory mode does it (system mentions added to the
    gold side as singletons, then its five metrics); returns its CoNLL average, with F per metric
    averaged over documents weighted by gold + system mention counts, as scorch does."""
    from scorch.main import METRICS

    f_sums = {"MUC": 0.0, "B³": 0.0, "CEAF_e": 0.0}
    weight = 0
    for gold, system in pairs:
        gold = list(gold)
        gold_mentions = set().union(*gold) if gold else set()
        sys_mentions = set().union(*system) if system else set()
        gold.extend({m} for m in sys_mentions - gold_mentions)
        w = sum(map(len, gold)) + sum(map(len, system))
        for name, metric in METRICS.items():
            _, _, f = metric(gold, system)
            if name in f_sums:
                f_sums[name] += f * w
        weight += w
    return sum(f_sums.values()) / 3 / weight if weight else 0.0


def scorch_own_reader(key: str, response: str) -> list[tuple[list[set], list[set]]]:
    """CoNLL -> clusters with scorch's own reader (scorch.conll), paired by document name."""
    from scorch import conll

    def load(path: str) -> dict:
        with open(path, encoding="utf-8") as fh:
            docs = conll.parse_file(line.strip() for line in fh)
            return {name: [{f"{b}.{s}-{e}" for b, s, e in c} for c in ents.values()] for name, ents in docs}

    k, r = load(key), load(response)
    return [(k[name], r.get(name, [])) for name in k]


def clusters_from_ours(keys, responses) -> list[tuple[list[set], list[set]]]:
    by_name = {d.name: d for d in responses}
    out = []
    for kd in keys:
        rd = by_name.get(kd.name)
        out.append(([{f"{s}-{e}" for s, e in c} for c in kd.chains],
                    [{f"{s}-{e}" for s, e in c} for c in rd.chains] if rd else []))
    return out


def write_scorch_dirs(pairs_named: list[tuple[str, list[set], list[set]]], folder: str) -> tuple[str, str]:
    kdir, rdir = os.path.join(folder, "key"), os.path.join(folder, "response")
    os.makedirs(kdir, exist_ok=True)
    os.makedirs(rdir, exist_ok=True)
    for i, (_, gold, system) in enumerate(pairs_named):
        for d, chains in ((kdir, gold), (rdir, system)):
            with open(os.path.join(d, f"d{i:05d}.json"), "w") as fh:
                json.dump({"type": "clusters", "clusters": {str(j): sorted(c) for j, c in enumerate(chains)}}, fh)
    return kdir, rdir


def corefeval_score(keys, responses) -> float:
    from corefeval import Document, Scorer

    by_name = {d.name: d for d in responses}
    scorer = Scorer()
    for kd in keys:
        rd = by_name.get(kd.name)
        gold = [[list(m) for m in c] for c in kd.chains]
        pred = [[list(m) for m in c] for c in rd.chains] if rd else []
        scorer.update(Document(predicted=pred, truth=gold))
    conll, _ = scorer.detailed_score("", "", verbose=False)
    return conll


def peers(key: str, response: str, keys, responses, repeat: int, cli_repeat: int, tmp: str,
          scorch_dirs: tuple[str, str] | None) -> dict:
    out: dict = {}
    r = attempt(lambda: timed(lambda: scorch_own_reader(key, response), 1))
    if "error" in r:
        out["scorch_reader"] = r
        out["scorch_own"] = {"error": "not run: scorch's reader failed (" + r["error"] + ")"}
    else:
        own_pairs = r.pop("result")
        out["scorch_reader"] = r
        s = attempt(lambda: timed(lambda: scorch_score(own_pairs), repeat))
        if "result" in s:
            s["conll_f1"] = s.pop("result")
        out["scorch_own"] = s
    pairs = clusters_from_ours(keys, responses)
    s = attempt(lambda: timed(lambda: scorch_score(pairs), repeat))
    if "result" in s:
        s["conll_f1"] = s.pop("result")
    out["scorch_clusters"] = s
    if scorch_dirs is None:
        scorch_dirs = write_scorch_dirs([(kd.name, g, sy) for kd, (g, sy) in zip(keys, pairs)],
                                        os.path.join(tmp, "scorch-json"))
    exe = os.path.join(os.path.dirname(sys.executable), "scorch")

    def scorch_cli() -> str:
        proc = subprocess.run([exe, scorch_dirs[0], scorch_dirs[1], "-"], capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"scorch exit {proc.returncode}: {proc.stderr.strip().splitlines()[-1][:200]}")
        return proc.stdout

    s = attempt(lambda: timed(scorch_cli, cli_repeat))
    s.pop("result", None)
    out["scorch_cli"] = s
    c = attempt(lambda: timed(lambda: corefeval_score(keys, responses), repeat))
    if "result" in c:
        c["conll_f1"] = c.pop("result")
    out["corefeval"] = c
    return out


# --- report -------------------------------------------------------------------------------------

def ratio(a: dict, b: dict) -> float | None:
    if "median_s" in a and "median_s" in b and b["median_s"] > 0:
        return a["median_s"] / b["median_s"]
    return None


def summarize(res: dict) -> dict:
    """Ratios and the issue's two goals; 'fastest peer' is the fastest in-process peer scoring."""
    o, p = res["ours"], res["peers"]
    in_process = {k: p[k] for k in ("scorch_own", "scorch_clusters", "corefeval") if "median_s" in p[k]}
    fastest = min(in_process, key=lambda k: in_process[k]["median_s"]) if in_process else None
    s = {
        "engine/read": ratio(o["engine"], o["read"]),
        "engine5/read": ratio(o["engine5"], o["read"]),
        "fastest_peer": fastest,
        "fastest_peer/engine": ratio(in_process[fastest], o["engine"]) if fastest else None,
        "fastest_peer/engine5": ratio(in_process[fastest], o["engine5"]) if fastest else None,
        "corefeval/engine4": ratio(p["corefeval"], o["engine4"]),
        "scorch_cli/corefwb_cli": ratio(p["scorch_cli"], o["cli"]),
    }
    for k in in_process:
        s[f"{k}/engine"] = ratio(in_process[k], o["engine"])
    er, fp = s["engine/read"], s["fastest_peer/engine"]
    s["goal_engine_le_2x_read"] = None if er is None else er <= 2.0
    s["goal_10x_faster_than_fastest_peer"] = None if fp is None else fp >= 10.0
    same = s["corefeval/engine4"]
    s["goal_10x_same_metrics"] = None if same is None else same >= 10.0
    return s


def fmt_t(entry: dict) -> str:
    if "median_s" in entry:
        return f"{entry['median_s'] * 1000:9.0f} ms"
    return "   crashed  "


def print_table(results: dict) -> None:
    rows = [
        ("read (2 files)", "ours", "read"), ("engine, all metrics", "ours", "engine"),
        ("engine, 5 v8.01 metrics", "ours", "engine5"),
        ("engine, muc bcub ceafe lea", "ours", "engine4"), ("  of which prepare()", "ours", "prepare"),
        ("corefwb score --format json", "ours", "cli"),
        ("scorch: own CoNLL reader", "peers", "scorch_reader"), ("scorch: score (own reader)", "peers", "scorch_own"),
        ("scorch: score (our clusters)", "peers", "scorch_clusters"), ("scorch CLI (JSON dirs)", "peers", "scorch_cli"),
        ("coreference-eval (4 metrics)", "peers", "corefeval"),
    ]
    names = list(results["datasets"])
    print(f"{'median wall time':32}" + "".join(f"{n:>16}" for n in names))
    for label, side, key in rows:
        print(f"{label:32}" + "".join(f"{fmt_t(results['datasets'][n][side][key]):>16}" for n in names))
    print()
    keys = ["engine/read", "engine5/read", "fastest_peer", "fastest_peer/engine", "fastest_peer/engine5",
            "corefeval/engine4", "scorch_cli/corefwb_cli", "goal_engine_le_2x_read",
            "goal_10x_faster_than_fastest_peer", "goal_10x_same_metrics"]
    for k in keys:
        vals = []
        for n in names:
            v = results["datasets"][n]["summary"].get(k)
            vals.append(f"{v:.2f}x" if isinstance(v, float) else str(v))
        print(f"{k:32}" + "".join(f"{v:>16}" for v in vals))
    for n in names:
        for k, v in results["datasets"][n]["peers"].items():
            if "error" in v:
                print(f"{n}: {k}: {v['error']}")


def profile_engine(key: str, response: str, path: str, top: int = 40) -> None:
    """cProfile one cold engine run (fresh documents, imports already paid) into `path`."""
    import cProfile
    import io
    import pstats

    metrics.prepare(metrics.read_documents(key), metrics.read_documents(response)).score()
    keys, responses = metrics.read_documents(key), metrics.read_documents(response)
    prof = cProfile.Profile()
    prof.enable()
    metrics.prepare(keys, responses).score()
    prof.disable()
    buf = io.StringIO()
    for order in ("cumulative", "tottime"):
        buf.write(f"==== engine (prepare + score, all metrics), sorted by {order} ====\n")
        pstats.Stats(prof, stream=buf).sort_stats(order).print_stats(top)
    with open(path, "w") as fh:
        fh.write(buf.getvalue())


def environment() -> dict:
    import numpy
    import scipy

    try:
        commit = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True).stdout.strip()
    except OSError:
        commit = ""
    return {"python": platform.python_version(), "numpy": numpy.__version__, "scipy": scipy.__version__,
            "machine": platform.machine(), "cpus": os.cpu_count(), "commit": commit,
            "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="timed runs of each in-process step (median)")
    ap.add_argument("--cli-repeat", type=int, default=3, help="timed runs of each subprocess")
    ap.add_argument("--peer-repeat", type=int, default=3, help="timed runs of each peer")
    ap.add_argument("--data", default=DATA, help="folder with key.gum.conll.gz and response.xrenner-gum.conll.gz")
    ap.add_argument("--no-peers", action="store_true")
    ap.add_argument("--profile", action="store_true",
                    help="also cProfile one engine run on GUM into benchmarks/out/profile-engine.txt")
    ap.add_argument("--out", default=os.path.join(HERE, "out", "results.json"))
    args = ap.parse_args()

    results: dict = {"environment": environment(), "datasets": {}}
    with tempfile.TemporaryDirectory(prefix="corefwb-bench-") as tmp:
        key = gunzip(os.path.join(args.data, "key.gum.conll.gz"), os.path.join(tmp, "key.gum.conll"))
        resp = gunzip(os.path.join(args.data, "response.xrenner-gum.conll.gz"),
                      os.path.join(tmp, "response.xrenner-gum.conll"))
        inputs = {"gum": (key, resp, None)}
        docs = metrics.read_documents(key)
        sizes = {"documents": len(docs), "tokens": sum(len(d.words) for d in docs)}
        syn_dir = os.path.join(tmp, "synthetic")
        syn_stats = synthetic.write(syn_dir, synthetic.generate(sizes["documents"], sizes["tokens"], seed=13))
        inputs["synthetic"] = (os.path.join(syn_dir, "key.conll"), os.path.join(syn_dir, "response.conll"),
                               (os.path.join(syn_dir, "scorch", "key"), os.path.join(syn_dir, "scorch", "response")))
        results["synthetic_stats"] = syn_stats
        if args.profile:
            os.makedirs(os.path.dirname(args.out), exist_ok=True)
            profile_engine(key, resp, os.path.join(os.path.dirname(args.out), "profile-engine.txt"))
        for name, (k, r, sdirs) in inputs.items():
            print(f"[{name}] ours ...", file=sys.stderr, flush=True)
            o, keys, responses = ours(k, r, args.repeat, args.cli_repeat)
            entry = {"key": os.path.basename(k), "response": os.path.basename(r), "ours": o}
            if not args.no_peers:
                print(f"[{name}] peers ...", file=sys.stderr, flush=True)
                entry["peers"] = peers(k, r, keys, responses, args.peer_repeat, args.cli_repeat, tmp, sdirs)
            else:
                entry["peers"] = {k2: {"error": "not run (--no-peers)"} for k2 in
                                  ("scorch_reader", "scorch_own", "scorch_clusters", "scorch_cli", "corefeval")}
            entry["summary"] = summarize(entry)
            results["datasets"][name] = entry
    print_table(results)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as fh:
        json.dump(results, fh, indent=1)
    print(f"\nwritten: {os.path.relpath(args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

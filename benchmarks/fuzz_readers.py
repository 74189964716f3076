"""Long-running reader fuzzer: tests/test_fuzz_readers.py's mutations, for as long as you like.

    .venv/bin/python benchmarks/fuzz_readers.py --minutes 10           # in-process, every reader
    .venv/bin/python benchmarks/fuzz_readers.py --minutes 10 --cli 5   # + every 5th case via the CLI
                                                                        #   (CoNLL also with --stream --jobs 2,
                                                                        #   and `corefwb errors`)
    .venv/bin/python benchmarks/fuzz_readers.py --huge                 # 100 MB lines: time, peak memory
    .venv/bin/python benchmarks/fuzz_readers.py --hostile 40           # mutated files through pipes and
                                                                        #   FIFOs, escapes, surrogates,
                                                                        #   bombs under ulimit -v, huge numbers

The bases: the bundled GUM sample (CoNLL-2012), its key written as CoNLL-U and as our jsonlines,
as the four system outputs (coref-hoi subtokens, wl-coref, Maverick, text with character offsets:
each scored after its mapping onto the key's words), and two real CorefUD documents with empty
nodes, discontinuous mentions and bridging (tests/data/formats/gum2.conllu), read by both CoNLL-U
readers and scored under the CorefUD conventions against their intact self.

Not run in CI.  Each failing case (an exception other than InputError, a badly located message,
a hang, a traceback from the CLI) is printed with its base file, seed and mutations, and the
mutated file is kept in --keep (default /tmp/corefwb-fuzz) so it can be replayed with
`corefwb score KEY FILE`.  Seeds start at --first-seed, so separate runs can cover separate ranges.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from strategies import HUGE_SHAPES, mutate, write_huge_line  # noqa: E402
from test_fuzz_readers import READERS, check_cli, read_checked, score_checked, to_conllu, to_jsonlines  # noqa: E402

import json  # noqa: E402

from metrics.conventions.corefud import COREFUD_CONVENTIONS, Settings  # noqa: E402
from metrics.conventions.projection import prepare_nodes  # noqa: E402
from metrics.formats.conll import read_conll  # noqa: E402
from metrics.formats.corefud import read_corefud  # noqa: E402
from metrics.formats.outputs import KINDS, read_outputs  # noqa: E402
from metrics.formats.readers import read_documents  # noqa: E402
from metrics.formats.writers import output_record  # noqa: E402
from metrics.mentions.characters import key_words  # noqa: E402
from metrics.model import InputError  # noqa: E402

COREFUD = ROOT / "tests" / "data" / "formats" / "gum2.conllu"
READERS.update({"corefud": lambda path, warnings: read_corefud(path, warnings)})
READERS.update({kind: (lambda path, warnings, kind=kind: read_outputs(path, "clusters", kind)) for kind in KINDS})
"""Beyond the test's readers: the CorefUD node reader, and each system format forced."""


def make_bases(folder: Path) -> dict[str, Path]:
    bases = {p.name: p for p in sorted((ROOT / "samples" / "gum").glob("*.conll"))}
    key = read_conll(str(ROOT / "samples" / "gum" / "key.gum.conll"))
    (folder / "key.gum.conllu").write_text(to_conllu(key), encoding="utf-8")
    (folder / "key.gum.jsonl").write_text(to_jsonlines(key), encoding="utf-8")
    bases["key.gum.conllu"] = folder / "key.gum.conllu"
    bases["key.gum.jsonl"] = folder / "key.gum.jsonl"
    for kind in KINDS:
        path = folder / f"key.gum.{kind}.jsonl"
        path.write_text("".join(json.dumps(output_record(d, kind)) + "\n" for d in key), encoding="utf-8")
        bases[path.name] = path
    bases["gum2.corefud.conllu"] = COREFUD
    return bases


def key_of(name: str, bases: dict[str, Path]) -> Path:
    """The intact key a mutated base is scored against: its CorefUD self, else the CoNLL-2012 key."""
    return COREFUD if name == "gum2.corefud.conllu" else bases["key.gum.conll"]


def score_mapped(keys: list, docs: list, what: str) -> None:
    """A response in its own words: mapped onto the key's words by characters, then scored."""
    from test_fuzz_readers import TIME_LIMIT, time_limit

    try:
        with time_limit(TIME_LIMIT, what):
            mapped, _, lost = key_words(keys, docs)
    except InputError as exc:
        assert "\n" not in str(exc), what
        return
    assert all("\n" not in w for w in lost), f"{what}: multi-line warning"
    score_checked(keys, mapped, what)


def score_nodes(keys: list, docs: list, path: Path, what: str) -> None:
    """CorefUD node documents scored as corefud-scorer scores them, both ways round."""
    from test_fuzz_readers import TIME_LIMIT, time_limit

    for key_docs, response_docs in ((keys, docs), (docs, keys)):
        warnings: list[str] = []
        try:
            with time_limit(TIME_LIMIT, what):
                corpus = prepare_nodes(key_docs, response_docs, key_path=str(COREFUD), response_path=str(path),
                                       settings=Settings(), spans=False)
                warnings = corpus.warnings
                result = corpus.score(metrics=tuple(m.name for m in COREFUD_CONVENTIONS.official))
        except InputError as exc:
            assert "\n" not in str(exc), what
            continue
        for name, score in result.micro.items():
            for x in (score.recall, score.precision, score.f1):
                assert x == x and abs(x) != float("inf"), f"{what}: {name} = {x}"
        assert all("\n" not in w for w in warnings), f"{what}: multi-line warning"


def run_cli_measured(key: Path, response: Path, timeout: float, *extra: str,
                     command: str = "score") -> tuple[subprocess.CompletedProcess, float, int]:
    """Run `corefwb COMMAND KEY RESPONSE --format json`; (result, seconds, peak RSS in MB).

    Peak memory comes from wait4's rusage of that very child, so nothing else is counted.
    """
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    argv = [sys.executable, "-m", "workbench.cli", command, str(key), str(response), "--format", "json", *extra]
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
    out: dict[str, bytes] = {}

    def drain(name: str, stream) -> None:
        out[name] = stream.read()

    readers = [threading.Thread(target=drain, args=(n, s)) for n, s in (("out", proc.stdout), ("err", proc.stderr))]
    for t in readers:
        t.start()
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    _, status, usage = os.wait4(proc.pid, 0)
    timer.cancel()
    for t in readers:
        t.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    result = subprocess.CompletedProcess(argv, proc.returncode, out.get("out", b""), out.get("err", b""))
    return result, seconds, usage.ru_maxrss // 1024


def fuzz(bases: dict[str, Path], work: Path, keep: Path, minutes: float, first_seed: int, cli_every: int) -> int:
    """Mutate, read with every reader, score, (sometimes) run the CLI, until the time is up."""
    deadline = time.monotonic() + 60 * minutes
    names = sorted(bases)
    intact = {name: read_documents(str(path)) for name, path in bases.items()}
    conll_key = read_documents(str(bases["key.gum.conll"]))
    node_key = read_corefud(str(COREFUD))
    failures = cases = 0
    seed = first_seed
    while time.monotonic() < deadline:
        name = names[seed % len(names)]
        source = bases[name]
        data, mutations = mutate(source.read_bytes(), seed)
        path = work / f"case{source.suffix}"
        path.write_bytes(data)
        what = f"{name} seed {seed} ({', '.join(mutations)})"
        try:
            for reader in READERS:
                docs = read_checked(reader, path, f"{what}, reader {reader}")
                if docs is None:
                    continue
                if reader == "corefud":
                    score_nodes(node_key, docs, path, f"{what}, under corefud")
                elif reader == "auto" and any(d.own_words for d in docs):
                    score_mapped(conll_key, docs, f"{what}, mapped onto the key's words")
                elif reader == "auto":
                    score_checked(intact[name], docs, f"{what}, as response")
                    score_checked(docs, intact[name], f"{what}, as key")
            if cli_every and seed % cli_every == 0:
                key = key_of(name, bases)
                proc, _, _ = run_cli_measured(key, path, 120)
                check_cli(proc, [key, path], f"{what}, CLI")
                if source.suffix == ".conll":  # the streaming path too
                    proc, _, _ = run_cli_measured(key, path, 120, "--stream", "--jobs", "2")
                    check_cli(proc, [key, path], f"{what}, CLI --stream --jobs 2")
                proc, _, _ = run_cli_measured(path, key, 120, command="errors")
                check_cli(proc, [key, path], f"{what}, CLI errors", "errors")
        except Exception as exc:  # noqa: BLE001 - every kind is a finding (assertions, timeouts, crashes)
            failures += 1
            kept = keep / f"{name}.seed{seed}{source.suffix}"
            shutil.copyfile(path, kept)
            print(f"FAIL {what}: {type(exc).__name__}: {str(exc)[:500]}\n     kept as {kept}", flush=True)
        cases += 1
        seed += 1
    print(f"{cases} cases (seeds {first_seed}..{seed - 1}), {failures} failures")
    return failures


def huge(work: Path, size_mb: int, timeout: float) -> int:
    """Every one-line shape of strategies.HUGE_SHAPES through the CLI: time, peak memory, outcome."""
    failures = 0
    print(f"{'format':<7} {'shape':<11} {'seconds':>8} {'peak MB':>8}  outcome")
    for fmt, shapes in HUGE_SHAPES.items():
        for shape in shapes:
            path = work / f"huge.{fmt}"
            write_huge_line(str(path), fmt, shape, size_mb * 2**20)
            try:
                proc, seconds, peak = run_cli_measured(path, path, timeout)
                err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
                outcome = f"exit {proc.returncode}: {err[-1][:90] if err else 'scored'}"
                check_cli(proc, [path], f"{size_mb} MB {fmt} {shape}")
            except AssertionError as exc:
                failures += 1
                outcome = f"FAIL {str(exc)[:200]}"
            print(f"{fmt:<7} {shape:<11} {seconds:8.1f} {peak:8d}  {outcome}", flush=True)
    return failures


HOSTILE_WORDS = ("\x1b]0;PWNED\x07", "\x1b]52;c;SGVsbG8=\x07", "\x9b31m", "[/]", "[red]x[/red]", "\x7f", "\u202e")
"""Words and names that must never act on a terminal or as markup (issue 18, items 3 and 4)."""
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
MEMORY_LIMIT = 1 << 30
"""Address space of a bomb's run (ulimit -v): a MemoryError, if any, must be one line too."""


def _via(path: Path, how: str, work: Path, key: Path, *extra: str) -> subprocess.CompletedProcess:
    """`corefwb score KEY INPUT --format json` with INPUT given as a file, standard input or a FIFO."""
    argv = [sys.executable, "-m", "workbench.cli", "score", str(key), "--format", "json", *extra]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if how == "file":
        return subprocess.run(argv + [str(path)], capture_output=True, cwd=ROOT, env=env, timeout=120)
    if how == "stdin":
        with open(path, "rb") as data:
            return subprocess.run(argv + ["-"], stdin=data, capture_output=True, cwd=ROOT, env=env, timeout=120)
    fifo = work / "input.fifo"
    fifo.unlink(missing_ok=True)
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(path.read_bytes()), daemon=True)
    writer.start()
    try:
        return subprocess.run(argv + [str(fifo)], capture_output=True, cwd=ROOT, env=env, timeout=120)
    finally:
        if writer.is_alive():  # the reader refused before reading: free the writer
            with open(fifo, "rb"):
                pass
        writer.join(10)


def _hostile_text(data: bytes, rng) -> bytes:
    """Put control characters, escape sequences and markup into some words and document names."""
    lines = data.decode("utf-8", "replace").split("\n")
    for _ in range(rng.randint(1, 5)):
        i = rng.randrange(len(lines))
        word = rng.choice(HOSTILE_WORDS)
        if lines[i].startswith("#begin document"):
            lines[i] = lines[i].replace("(", "(" + word, 1)
        elif lines[i] and not lines[i].startswith("#"):
            cells = lines[i].split("\t") if "\t" in lines[i] else lines[i].split()
            if len(cells) > 3:
                cells[3] = word.replace(" ", "_")
                lines[i] = "\t".join(cells)
    return "\n".join(lines).encode("utf-8")


def hostile(bases: dict[str, Path], work: Path, keep: Path, cases: int, first_seed: int) -> int:
    """Issue 18's shapes around the mutated files: every case through a file, standard input and a
    FIFO (same result), with hostile words (no control character out), plus surrogates, bombs
    under a memory limit and huge numbers once each."""
    import gzip
    import json
    import random
    import resource

    key = bases["key.gum.conll"]
    failures = 0

    def finding(what: str, detail: str, data: bytes | None = None) -> None:
        nonlocal failures
        failures += 1
        kept = keep / f"hostile.{len(os.listdir(keep))}"
        if data is not None:
            kept.write_bytes(data)
        print(f"FAIL {what}: {detail[:400]}" + (f"\n     kept as {kept}" if data is not None else ""), flush=True)

    for seed in range(first_seed, first_seed + cases):
        rng = random.Random(seed)
        data, mutations = mutate(bases["response.gum.conll"].read_bytes(), seed)
        data = _hostile_text(data, rng)
        path = work / "hostile.conll"
        path.write_bytes(data)
        what = f"seed {seed} ({', '.join(mutations)}, hostile words)"
        # the format named, since a file's name (.conll) tells it where a pipe's cannot
        results = {how: _via(path, how, work, key, "--response-format", "conll") for how in ("file", "stdin", "fifo")}
        for how, proc in results.items():
            # a message about standard input or the FIFO names it: point it at the file to check the line
            named = {"stdin": b"-:", "fifo": f"{work / 'input.fifo'}:".encode()}.get(how)
            if named:
                proc.stderr = proc.stderr.replace(b": " + named, f": {path}:".encode())
            try:
                check_cli(proc, [key, path], f"{what} via {how}")
            except AssertionError as exc:
                finding(f"{what} via {how}", str(exc), data)
        if len({(p.returncode, p.stdout, p.stderr) for p in results.values()}) != 1:
            finding(what, "file, stdin and FIFO disagree", data)
        text = subprocess.run([sys.executable, "-m", "workbench.cli", "errors", str(key), str(path)],
                              capture_output=True, cwd=ROOT, timeout=120)
        if CONTROL.search(text.stdout.decode("utf-8", "replace") + text.stderr.decode("utf-8", "replace")):
            finding(what, "a control character reached the text output", data)

    surrogate = work / "surrogate.jsonl"
    surrogate.write_text('{"doc_key": "d\\ud800", "sentences": [["a", "b"]], "clusters": [[[0, 0], [1, 1]]]}\n')
    for extra in ([], ["--per-doc"]):
        proc = _via(surrogate, "file", work, surrogate, *extra)
        if proc.returncode != 0 or b"Traceback" in proc.stderr:
            finding(f"lone surrogate {extra}", proc.stderr.decode("utf-8", "replace"))

    bomb = work / "bomb.conll.gz"
    with gzip.open(bomb, "wb", compresslevel=9) as out:
        for _ in range(400):  # 400 MB of text
            out.write(b"x 0 0 w -\n" * 100_000)
    argv = [sys.executable, "-m", "workbench.cli", "score", str(key), str(bomb), "--max-input-size", "4G"]
    limit = lambda: resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))  # noqa: E731
    proc = subprocess.run(argv, capture_output=True, cwd=ROOT, timeout=600, preexec_fn=limit)
    lines = proc.stderr.decode("utf-8", "replace").splitlines()
    print(f"bomb under ulimit -v {MEMORY_LIMIT >> 20} MB: exit {proc.returncode}: {lines[-1] if lines else ''}")
    if proc.returncode != 1 or len(lines) != 1 or "Traceback" in proc.stderr.decode("utf-8", "replace"):
        finding("bomb under a memory limit", "\n".join(lines[-5:]))

    numbers = [["--weights", "1e308,1e308,1e308,1e308"], ["--weights", "nan,1,1,1"], ["--jobs", "9" * 30],
               ["--limit", "9" * 30], ["--max-document-tokens", "9" * 30], ["--max-input-size", "9" * 30 + "G"]]
    for extra in numbers:
        command = "errors" if extra[0] == "--limit" else "score"
        proc = subprocess.run([sys.executable, "-m", "workbench.cli", command, str(key), str(key), "--format", "json",
                               *extra], capture_output=True, cwd=ROOT, timeout=120)
        err = proc.stderr.decode("utf-8", "replace")
        ok = "Traceback" not in err and (proc.returncode == 2 and err.count("\n") == 1 or proc.returncode == 0)
        if proc.returncode == 0:
            try:
                json.loads(proc.stdout, parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name)))
            except ValueError as exc:
                ok = False
                err = f"JSON not strict: {exc}"
        if not ok:
            finding(f"huge number {' '.join(extra)[:60]}", err)
    huge_span = work / "huge-span.jsonl"
    huge_span.write_text('{"doc_key": "d", "sentences": [["a"]], "clusters": [[[0, 99999999999999999999]]]}\n')
    try:
        check_cli(_via(huge_span, "file", work, huge_span), [huge_span], "huge span offsets")
    except AssertionError as exc:
        finding("huge span offsets", str(exc))
    print(f"{cases} hostile cases (seeds {first_seed}..{first_seed + cases - 1}) and the fixed shapes, {failures} failures")
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=5.0, help="how long to fuzz (default 5)")
    parser.add_argument("--first-seed", type=int, default=100_000)
    parser.add_argument("--cli", type=int, default=0, metavar="K", help="also run every K-th case through the CLI")
    parser.add_argument("--huge", action="store_true", help="run the one-huge-line shapes instead")
    parser.add_argument("--hostile", type=int, default=0, metavar="N",
                        help="run N mutated files through pipes, FIFOs and hostile words, then the fixed hostile shapes")
    parser.add_argument("--size-mb", type=int, default=100, help="size of the huge lines (default 100)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds before a huge case counts as a hang")
    parser.add_argument("--keep", type=Path, default=Path("/tmp/corefwb-fuzz"), help="where failing files are kept")
    args = parser.parse_args()
    args.keep.mkdir(parents=True, exist_ok=True)
    work = args.keep / "work"
    work.mkdir(exist_ok=True)
    if args.huge:
        return 1 if huge(work, args.size_mb, args.timeout) else 0
    if args.hostile:
        return 1 if hostile(make_bases(work), work, args.keep, args.hostile, args.first_seed) else 0
    return 1 if fuzz(make_bases(work), work, args.keep, args.minutes, args.first_seed, args.cli) else 0


if __name__ == "__main__":
    sys.exit(main())

"""Every reader, fed mutated real files, either reads them or says where they are wrong.

A workbench fed files from unknown systems must never crash or hang.  The bases are the bundled
GUM sample (samples/gum, CoNLL-2012) and the same documents written as CorefUD CoNLL-U and as
jsonlines; `strategies.MUTATIONS` damages them (truncated lines, random bytes, deleted brackets,
BOM, CRLF, mixed whitespace, NUL bytes, line deletions and duplications, huge numbers, deep
nesting, UTF-16...).  The contract checked:

- in process, each reader (and `read_documents` with detection) returns documents or raises
  `InputError` naming the file and a line inside it (or no line); nothing else escapes, within a
  time limit; the engine then scores whatever was read against the intact other side, or raises
  `InputError` (token counts that differ);
- the streaming reader behind `--stream` (its own byte-range index) refuses a mutated file or gives
  exactly the whole-file reader's scores;
- through the CLI (`python -m workbench.cli score KEY RESP --format json`): exit 0 with JSON on
  stdout, or exit 1 with exactly one line `corefwb: error: PATH:LINE: ...` (or `PATH: ...`) on
  stderr, every other stderr line a one-line warning; never a traceback, never a hang.

Seeded loops, so a failure names its base and seed and reproduces; benchmarks/fuzz_readers.py runs
the same mutations for as long as one likes.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import signal
import subprocess
import sys
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from strategies import mutate, write_huge_line

from metrics.formats.conll import read_conll
from metrics.formats.conllu import read_conllu
from metrics.formats.outputs import read_outputs
from metrics.model import Document, InputError
from metrics.formats.readers import read_documents
from metrics.corpus.scoring import prepare

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples" / "gum").glob("*.conll"))
READERS: dict[str, Callable[[str, list[str]], list[Document]]] = {
    "conll": read_conll,
    "conllu": read_conllu,
    "jsonl": lambda path, warnings: read_outputs(path),
    "auto": lambda path, warnings: read_documents(path, None, warnings),
}
"""Every reader, called as (path, warnings list); "auto" detects the format as the CLI does."""
SEEDS_PER_BASE = 150
CLI_CASES = 16
TIME_LIMIT = 20  # seconds for one read of a small mutated file: generous, a hang is minutes
ERROR_LINE = re.compile(r"^corefwb: error: (?P<path>[^:]+?)(?::(?P<line>\d+))?: \S.*$")


# ------------------------------------------------------------------------ base files


def to_conllu(docs: list[Document]) -> str:
    """CorefUD CoNLL-U for documents (words, XPOS, one Entity bracket per mention)."""
    out = []
    for doc in docs:
        out.append(f"# newdoc id = {doc.name}")
        out.append("# global.Entity = eid-etype-head-other")
        opens: dict[int, list[tuple[int, str]]] = {}
        singles: dict[int, list[str]] = {}
        closes: dict[int, list[str]] = {}
        for c, chain in enumerate(doc.chains):
            for start, end in chain:
                if start == end:
                    singles.setdefault(start, []).append(f"(e{c}-thing-1-x)")
                else:
                    opens.setdefault(start, []).append((start - end, f"(e{c}-thing-1-x"))
                    closes.setdefault(end, []).append(f"e{c})")
        starts = list(doc.sentence_starts) + [doc.n_tokens]
        for s, (a, b) in enumerate(zip(starts, starts[1:])):
            out.append(f"# sent_id = {doc.name}-{s + 1}")
            for i in range(a, b):
                entity = "".join([t for _, t in sorted(opens.get(i, []))] + singles.get(i, []) + closes.get(i, []))
                misc = f"Entity={entity}" if entity else "_"
                pos = doc.pos[i] if doc.pos else "NN"
                head = 0 if i == a else 1
                out.append(f"{i - a + 1}\t{doc.words[i]}\t{doc.words[i]}\tX\t{pos}\t_\t{head}\tdep\t_\t{misc}")
            out.append("")
    return "\n".join(out) + "\n"


def to_jsonlines(docs: list[Document]) -> str:
    lines = []
    for doc in docs:
        starts = list(doc.sentence_starts) + [doc.n_tokens]
        lines.append(json.dumps({
            "doc_key": doc.name,
            "sentences": [doc.words[a:b] for a, b in zip(starts, starts[1:])],
            "clusters": [[[s, e] for s, e in chain] for chain in doc.chains],
        }, ensure_ascii=False))
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def bases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """name -> an intact base file: the CoNLL-2012 samples and their CoNLL-U / jsonlines twins."""
    folder = tmp_path_factory.mktemp("bases")
    out = {p.name: p for p in SAMPLES}
    key = read_conll(str(ROOT / "samples" / "gum" / "key.gum.conll"))
    (folder / "key.gum.conllu").write_text(to_conllu(key), encoding="utf-8")
    (folder / "key.gum.jsonl").write_text(to_jsonlines(key), encoding="utf-8")
    out["key.gum.conllu"] = folder / "key.gum.conllu"
    out["key.gum.jsonl"] = folder / "key.gum.jsonl"
    return out


def test_bases_are_intact(bases: dict[str, Path]) -> None:
    """The twins read back to the same documents, so mutations start from valid files."""
    key = read_conll(str(bases["key.gum.conll"]))
    for name in ("key.gum.conllu", "key.gum.jsonl"):
        twin = read_documents(str(bases[name]))
        assert [d.words for d in twin] == [d.words for d in key]
        assert [sorted(map(sorted, d.chains)) for d in twin] == [sorted(map(sorted, d.chains)) for d in key]
    assert len(SAMPLES) == 4


# ------------------------------------------------------------------------ in process


@contextmanager
def time_limit(seconds: int, what: str) -> Iterator[None]:
    def expired(signum, frame):  # noqa: ARG001
        raise TimeoutError(f"{what}: still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def n_lines(path: Path) -> int:
    """The file's lines as a reader sees them: a .gz file's are those of the text it decompresses
    to, as far as it decompresses (a damaged stream's error may name a line inside that text)."""
    data = readable_text(path) if path.suffix == ".gz" else path.read_bytes()
    return data.count(b"\n") + data.count(b"\r") + 1


def readable_text(path: Path) -> bytes:
    """What a damaged .gz file's first member decompresses to before its damage stops the stream
    (fed in small pieces, so the text before a bad byte is kept, as a streaming reader sees it)."""
    data = path.read_bytes()
    stream = zlib.decompressobj(wbits=31)
    pieces: list[bytes] = []
    for start in range(0, len(data), 64):
        try:
            pieces.append(stream.decompress(data[start:start + 64]))
        except zlib.error:
            break
        if stream.eof:
            break
    return b"".join(pieces)


def check_error(exc: InputError, path: Path, what: str) -> None:
    """A located, one-line message about this file."""
    assert exc.path == str(path), f"{what}: error names {exc.path!r}, not the file read: {exc}"
    if exc.line is not None:
        assert 1 <= exc.line <= n_lines(path), f"{what}: line {exc.line} outside the file: {exc}"
    assert "\n" not in str(exc) and exc.message.strip(), f"{what}: not a one-line message: {str(exc)[:300]!r}"


def read_checked(reader: str, path: Path, what: str) -> list[Document] | None:
    """The documents, or None after checking the InputError; any other exception fails."""
    warnings: list[str] = []
    try:
        with time_limit(TIME_LIMIT, what):
            docs = READERS[reader](str(path), warnings)
    except InputError as exc:
        check_error(exc, path, what)
        return None
    assert docs, f"{what}: no documents and no error"
    assert all("\n" not in w for w in warnings), f"{what}: multi-line warning"
    return docs


def score_checked(keys: list[Document], responses: list[Document], what: str) -> None:
    """The engine scores what was read (every metric finite) or refuses with an InputError."""
    try:
        with time_limit(TIME_LIMIT, what):
            corpus = prepare(keys, responses)
            result = corpus.score()
    except InputError as exc:
        assert "\n" not in str(exc), what
        return
    for name, s in result.micro.items():
        for x in (s.recall, s.precision, s.f1):
            assert x == x and abs(x) != float("inf"), f"{what}: {name} = {x}"
    assert all("\n" not in w for w in corpus.warnings), f"{what}: multi-line warning"


@pytest.mark.parametrize("base", ["key.gum.conll", "response.ontonotes.conll", "key.gum.conllu", "key.gum.jsonl"])
def test_readers_survive_mutated_files(base: str, bases: dict[str, Path], tmp_path: Path) -> None:
    source = bases[base]
    data = source.read_bytes()
    intact = read_documents(str(source))
    for seed in range(SEEDS_PER_BASE):
        mutated, names = mutate(data, seed)
        path = tmp_path / f"m{seed}{source.suffix}"
        path.write_bytes(mutated)
        what = f"{base} seed {seed} ({', '.join(names)})"
        for reader in READERS:
            docs = read_checked(reader, path, f"{what}, reader {reader}")
            if reader == "auto" and docs is not None:
                score_checked(intact, docs, f"{what}, scored as response")
                score_checked(docs, intact, f"{what}, scored as key")


TOLERATED = {
    "bom": lambda data: b"\xef\xbb\xbf" + data,
    "crlf": lambda data: data.replace(b"\n", b"\r\n"),
    "no_final_newline": lambda data: data.rstrip(b"\n"),
    "gzip": gzip.compress,
}
"""Changes of encoding detail that must not change what is read."""


@pytest.mark.parametrize("variant", sorted(TOLERATED))
@pytest.mark.parametrize("base", ["key.gum.conll", "key.gum.conllu", "key.gum.jsonl"])
def test_tolerated_variants_read_identically(base: str, variant: str, bases: dict[str, Path], tmp_path: Path) -> None:
    """A BOM, Windows line ends, a missing last newline or gzip change nothing: same documents,
    words, chains (in order), sentence breaks as the intact file."""
    source = bases[base]
    path = tmp_path / (source.name + (".gz" if variant == "gzip" else ""))
    path.write_bytes(TOLERATED[variant](source.read_bytes()))
    fields = ("name", "words", "chains", "labels", "sentence_starts", "pos", "named_entities", "heads")
    original = [[getattr(d, f) for f in fields] for d in read_documents(str(source))]
    assert [[getattr(d, f) for f in fields] for d in read_documents(str(path))] == original


def whole_and_streamed(key: Path, response: Path, what: str) -> tuple[dict | None, dict | None]:
    """Micro counts from the whole-file reader and from the `--stream` path (in process),
    None where that path raised a (checked) InputError."""
    from metrics.conventions.options import Options
    from metrics.conventions.pipeline import stream

    out: list[dict | None] = []
    for path in ("whole", "streamed"):
        try:
            with time_limit(TIME_LIMIT, f"{what} {path}"):
                if path == "whole":
                    result = prepare(read_documents(str(key), "conll"), read_documents(str(response), "conll")).score()
                else:
                    result, _ = stream(str(key), str(response), Options(key_format="conll", response_format="conll"))
        except InputError as exc:
            assert exc.path in (str(key), str(response)) and "\n" not in str(exc), f"{what} {path}: {exc}"
            out.append(None)
            continue
        out.append({name: s.counts() + [s.f1] for name, s in result.micro.items()})
    return out[0], out[1]


@pytest.mark.parametrize("base", ["key.gum.conll", "response.gum.conll"])
def test_streaming_reads_what_the_whole_file_reader_reads(base: str, bases: dict[str, Path], tmp_path: Path) -> None:
    """`corefwb score --stream` indexes and reads documents from byte ranges itself: on mutated
    files it must refuse (InputError) or give exactly the whole-file reader's scores.  (It refuses
    lone CRs, which the whole-file reader takes for line ends.)"""
    intact = bases["key.gum.conll"]
    data = bases[base].read_bytes()
    agreed = 0
    for seed in range(25):
        mutated, names = mutate(data, 7000 + seed)
        path = tmp_path / f"s{seed}.conll"
        path.write_bytes(mutated)
        for key, response in ((intact, path), (path, intact)):
            what = f"{base} seed {7000 + seed} ({', '.join(names)}) as {'key' if key == path else 'response'}"
            whole, streamed = whole_and_streamed(key, response, what)
            if whole is not None and streamed is not None:
                assert whole == streamed, f"{what}: --stream scores differ from the whole-file reader's"
                agreed += 1
    assert agreed > 10  # the loop really compared scores


def test_gzipped_mutated_files(bases: dict[str, Path], tmp_path: Path) -> None:
    """A damaged .gz file (bad CRC, truncated stream, garbage) is an InputError too."""
    data = gzip.compress(bases["key.gum.conll"].read_bytes()[:20000], mtime=0)  # the same bytes every run
    for seed in range(10):
        mutated, names = mutate(data, 1000 + seed)
        for suffix in (".conll.gz", ".conllu.gz", ".jsonl.gz"):
            path = tmp_path / f"g{seed}{suffix}"
            path.write_bytes(mutated)
            read_checked("auto", path, f"gzip seed {seed} {suffix} ({', '.join(names)})")


@pytest.mark.parametrize("reader,text", [
    ("conllu", "# newdoc id = x\n\u00b2\ta\ta\tX\tX\t_\t0\troot\t_\t_\n"),
    ("conllu", "# newdoc id = x\n1\ta\ta\tX\tX\t_\t\u00b2\troot\t_\t_\n"),
    ("conllu", "# newdoc id = x\n" + "1" * 5000 + "\ta\ta\tX\tX\t_\t0\troot\t_\t_\n"),
    ("conllu", "# newdoc id = x\n1\ta\ta\tX\tX\t_\t" + "1" * 5000 + "\troot\t_\t_\n"),
    ("conllu", "# newdoc id = x\n1\ta\ta\tX\tX\t_\t0\troot\t_\tEntity=(e1[" + "1" * 5000 + "/2]-x)\n"),
    ("jsonl", "[" * 100_000 + "\n"),
    ("jsonl", '{"doc_key": "x", "sentences": [["a"]], "clusters": [[[0, ' + "1" * 5000 + "]]]}\n"),
], ids=["id-superscript", "head-superscript", "id-5000-digits", "head-5000-digits", "part-5000-digits",
        "json-deep", "json-5000-digits"])
def test_found_by_fuzzing(reader: str, text: str, tmp_path: Path) -> None:
    """Inputs that once escaped as ValueError or RecursionError: non-ASCII digits that
    str.isdigit() accepts and int() refuses, numbers over Python's 4300-digit int() limit, JSON
    nested deeper than the recursion limit."""
    path = tmp_path / f"found.{reader}"
    path.write_text(text, encoding="utf-8")
    read_checked(reader, path, f"{reader} {text[:40]!r}")
    read_checked("auto", path, f"auto {text[:40]!r}")


@pytest.mark.parametrize("reader,text", [
    ("conll", "#begin document (x); part 000\nx 0 0 w - " + "x|" * 500_000 + "x\n#end document\n"),
    ("conllu", "# newdoc id = x\n1\ta\ta\tX\tX\t_\t0\troot\t_\tEntity=" + "(1-x" * 250_000 + "((\n"),
    ("conllu", "# newdoc id = x\n1\ta\ta\tX\tX\t_\t" + "a" * 1_000_000 + "\troot\t_\t_\n"),
], ids=["conll-cell", "conllu-entity", "conllu-head"])
def test_messages_quoting_a_huge_field_stay_short(reader: str, text: str, tmp_path: Path) -> None:
    """A message that quotes the offending field is cut, not 1 MB long on the terminal."""
    path = tmp_path / f"long.{reader}"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        READERS[reader](str(path), [])
    check_error(caught.value, path, reader)
    assert len(str(caught.value)) < 2000


# ------------------------------------------------------------------------ through the CLI


def run_cli(key: Path, response: Path, timeout: float = 120, limit_memory: int | None = None) -> subprocess.CompletedProcess:
    def limits() -> None:
        if limit_memory:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (limit_memory, limit_memory))

    # one BLAS thread: on a many-core machine each thread's buffers would eat the address-space limit
    env = dict(os.environ, PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    return subprocess.run(
        [sys.executable, "-m", "workbench.cli", "score", str(key), str(response), "--format", "json"],
        capture_output=True, timeout=timeout, cwd=ROOT, env=env, preexec_fn=limits if limit_memory else None,
    )


def run_cli_in_process(key: Path, response: Path) -> subprocess.CompletedProcess:
    """`run_cli` without the process (`cli_support`): the mutated files are about what the command
    says and returns; the 100 MB lines below keep a process, for its memory limit."""
    from cli_support import corefwb_in_process

    done = corefwb_in_process("score", str(key), str(response), "--format", "json", cwd=ROOT)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.encode(), done.stderr.encode())


def check_cli(proc: subprocess.CompletedProcess, files: list[Path], what: str, json_field: str = "metrics") -> None:
    err = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, f"{what}: traceback\n{err[-3000:]}"
    assert proc.returncode in (0, 1), f"{what}: exit {proc.returncode}\n{err[-2000:]}"
    lines = err.splitlines()
    assert all(line.startswith(("corefwb: warning: ", "corefwb: error: ")) for line in lines), \
        f"{what}: stray stderr lines\n{err[:2000]}"
    if proc.returncode == 0:
        result = json.loads(proc.stdout)
        assert json_field in result and not any(line.startswith("corefwb: error: ") for line in lines), what
        return
    errors = [line for line in lines if line.startswith("corefwb: error: ")]
    assert len(errors) == 1 and lines[-1] == errors[0], f"{what}: {len(errors)} error lines\n{err[:2000]}"
    m = ERROR_LINE.match(errors[0])
    assert m, f"{what}: error not located: {errors[0][:300]}"
    assert m["path"] in {str(f) for f in files}, f"{what}: error names {m['path']!r}, not an input"
    if m["line"]:
        assert 1 <= int(m["line"]) <= n_lines(Path(m["path"])), f"{what}: line outside the file: {errors[0][:300]}"


def test_cli_survives_mutated_files(bases: dict[str, Path], tmp_path: Path) -> None:
    names = ["key.gum.conll", "response.gum.conll", "key.gum.conllu", "key.gum.jsonl"]
    for case in range(CLI_CASES):
        base = bases[names[case % len(names)]]
        mutated, mutations = mutate(base.read_bytes(), 5000 + case)
        path = tmp_path / f"c{case}{base.suffix}"
        path.write_bytes(mutated)
        other = bases["key.gum.conll"]
        key, response = (path, other) if case % 2 else (other, path)
        what = f"CLI {base.name} seed {5000 + case} ({', '.join(mutations)}) as {'key' if case % 2 else 'response'}"
        check_cli(run_cli_in_process(key, response), [key, response], what)


@pytest.mark.parametrize("fmt,shape", [
    ("conll", "word"), ("conll", "fields"), ("conll", "no_newline"), ("conllu", "columns"), ("jsonl", "string"),
])
def test_cli_survives_a_100mb_line(fmt: str, shape: str, tmp_path: Path) -> None:
    """One 100 MB line: a result or a located error, within 2 GB of address space and a time limit
    far above what it takes (a few seconds), so a hang or a memory blow-up fails."""
    path = tmp_path / f"big.{fmt}"
    write_huge_line(str(path), fmt, shape, 100 * 2**20)
    check_cli(run_cli(path, path, timeout=120, limit_memory=3 * 2**30), [path], f"100 MB {fmt} {shape}")

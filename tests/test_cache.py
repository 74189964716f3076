"""The cache of read inputs (metrics/formats/cache.py) as a user meets it: same bytes cached or not,
damaged entries rebuilt, unusable directories ignored, bounded size, and the switches that turn it off."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from metrics.formats.cache import ReadCache
from metrics.formats.readers import read_documents

ROOT = Path(__file__).resolve().parent.parent
KEY = str(ROOT / "samples" / "gum" / "key.gum.conll")
RESPONSE = str(ROOT / "samples" / "gum" / "response.gum.conll")


def corefwb(cache: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("COREFWB_")}
    environment.update({"XDG_CACHE_HOME": str(cache), **env})
    return subprocess.run([sys.executable, "-m", "workbench.cli", *args], capture_output=True, cwd=ROOT,
                          env=environment, timeout=300)


def entries(cache: Path) -> list[Path]:
    """The entries of documents in the cache of `corefwb` run with XDG_CACHE_HOME=cache."""
    return documents_entries(cache / "corefwb")


def documents_entries(folder: Path) -> list[Path]:
    """The entries of read files in a cache's folder (not the content hashes remembered of files)."""
    return sorted(p for p in folder.iterdir() if re.fullmatch("[0-9a-f]{40}", p.name)) if folder.exists() else []


@pytest.mark.parametrize("command", [["score", "--format", "json"], ["errors", "--format", "json"]])
def test_cached_and_uncached_runs_give_the_same_bytes(tmp_path, command) -> None:
    fresh = corefwb(tmp_path, *command, KEY, RESPONSE, "--no-cache")
    assert entries(tmp_path) == []
    first = corefwb(tmp_path, *command, KEY, RESPONSE)
    assert len(entries(tmp_path)) == 2  # the key and the response
    second = corefwb(tmp_path, *command, KEY, RESPONSE)
    assert fresh.returncode == first.returncode == second.returncode == 0
    assert fresh.stdout == first.stdout == second.stdout
    assert fresh.stderr == first.stderr == second.stderr  # the readers' warnings come from the cache too


def test_a_damaged_entry_is_rebuilt_with_a_warning(tmp_path) -> None:
    good = corefwb(tmp_path, "score", "--format", "json", KEY, RESPONSE)
    for entry in entries(tmp_path):
        entry.write_bytes(entry.read_bytes()[:1000])  # truncated
    rebuilt = corefwb(tmp_path, "score", "--format", "json", KEY, RESPONSE)
    assert rebuilt.returncode == 0 and rebuilt.stdout == good.stdout
    assert rebuilt.stderr.decode().count("is damaged: removed, and the input read again") == 2
    again = corefwb(tmp_path, "score", "--format", "json", KEY, RESPONSE)
    assert b"damaged" not in again.stderr and again.stdout == good.stdout


def test_a_flipped_byte_is_caught_by_the_checksum(tmp_path) -> None:
    cache = ReadCache(tmp_path / "c")
    docs = read_documents(KEY, cache=cache)
    (entry,) = documents_entries(tmp_path / "c")
    blob = bytearray(entry.read_bytes())
    blob[-10] ^= 0xFF
    entry.write_bytes(bytes(blob))
    again = read_documents(KEY, cache=cache)
    assert [d.chains for d in again] == [d.chains for d in docs] and "damaged" in cache.warnings[0]


def test_an_entry_copied_over_another_files_entry_is_damaged_not_read(tmp_path) -> None:
    """A hand-swapped entry (one file's entry copied under another file's name, header intact) is
    not taken for the other file's documents: it is damaged, removed and the file read again."""
    other = str(ROOT / "samples" / "gum" / "key.ontogum.conll")
    cache = ReadCache(tmp_path / "c")
    read_documents(KEY, cache=cache)
    (first,) = documents_entries(tmp_path / "c")
    expected = read_documents(other, cache=cache)
    (second,) = [p for p in documents_entries(tmp_path / "c") if p != first]
    second.write_bytes(first.read_bytes())
    fresh = ReadCache(tmp_path / "c")
    again = read_documents(other, cache=fresh)
    assert [d.chains for d in again] == [d.chains for d in expected] and "damaged" in fresh.warnings[0]
    assert [d.chains for d in again] != [d.chains for d in read_documents(KEY)]


def test_a_file_rewritten_between_hashing_and_reading_is_not_stored(tmp_path, monkeypatch) -> None:
    """A file that changes after its content was hashed and before it was read (a system still
    writing it): what was read is not stored under the old content's name, so a later run on the
    old content reads the old content, not the newer documents."""
    import metrics.formats.readers as readers

    old = Path(KEY).read_text(encoding="utf-8")
    newer = Path(ROOT / "samples" / "gum" / "key.ontogum.conll").read_text(encoding="utf-8")
    path = tmp_path / "key.conll"
    path.write_text(old, encoding="utf-8")
    real = readers.read_conll

    def rewritten_then_read(*args, **kwargs):
        path.write_text(newer, encoding="utf-8")
        return real(*args, **kwargs)

    monkeypatch.setattr(readers, "read_conll", rewritten_then_read)
    read_documents(str(path), cache=ReadCache(tmp_path / "c"))
    monkeypatch.setattr(readers, "read_conll", real)
    path.write_text(old, encoding="utf-8")
    again = read_documents(str(path), cache=ReadCache(tmp_path / "c"))
    assert [d.chains for d in again] == [d.chains for d in read_documents(str(path))]


def test_a_cache_directory_holding_other_files_never_loses_them(tmp_path) -> None:
    """The cache directory named as the folder of the user's own files (their inputs among them):
    keeping the cache under its bound, or removing stale temporaries, removes only the cache's
    own entries and temporaries, never another file, however old or large."""
    folder = tmp_path / "mine"
    folder.mkdir(mode=0o700)
    key = folder / "key.conll"
    key.write_bytes(Path(KEY).read_bytes())
    others = [folder / name for name in ("notes.txt", ".tmp-notes", "0123456789abcdef0123456789abcdef0123456X")]
    for other in others:
        other.write_text("the user's own" * 4000, encoding="utf-8")
        os.utime(other, (0, 0))  # the oldest files there
    cache = ReadCache(folder, max_bytes=150_000)  # the entry fits, not with the other files beside it
    read_documents(str(key), cache=cache)
    read_documents(str(key), cache=cache)
    assert key.read_bytes() == Path(KEY).read_bytes()
    assert all(other.read_text(encoding="utf-8") == "the user's own" * 4000 for other in others)
    assert len([p for p in folder.iterdir() if p not in [key, *others]]) == 1  # the cache's entry


def test_a_directory_that_refuses_writes_is_not_an_error(tmp_path, monkeypatch) -> None:
    """A read-only directory (simulated: the tests run as root, who may write anyway)."""
    import tempfile

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    cache = ReadCache(tmp_path / "c")
    docs = read_documents(KEY, cache=cache)
    assert docs and cache.warnings == [] and list((tmp_path / "c").iterdir()) == []


def test_a_directory_that_cannot_be_made_is_not_an_error(tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    result = corefwb(blocker, "score", "--format", "json", KEY, RESPONSE)
    assert result.returncode == 0 and b"warning: cache" not in result.stderr


def test_a_directory_open_to_others_is_not_used(tmp_path) -> None:
    folder = tmp_path / "corefwb"
    folder.mkdir()
    folder.chmod(0o777)
    result = corefwb(tmp_path, "score", "--format", "json", KEY, RESPONSE)
    assert result.returncode == 0 and b"is not private to this user: cache not used" in result.stderr
    assert entries(tmp_path) == []


def test_switches_turn_it_off(tmp_path) -> None:
    assert corefwb(tmp_path, "score", KEY, RESPONSE, COREFWB_NO_CACHE="1").returncode == 0
    assert corefwb(tmp_path, "score", KEY, RESPONSE, "--no-cache").returncode == 0
    assert entries(tmp_path) == []
    assert corefwb(tmp_path, "score", KEY, RESPONSE, COREFWB_NO_CACHE="0").returncode == 0
    assert len(entries(tmp_path)) == 2


def test_the_size_is_bounded(tmp_path) -> None:
    read = [replace(document, mention_arrays=None) for document in read_documents(KEY)]  # the documents alone
    one = len(__import__("pickle").dumps((read, []), protocol=5))
    corefwb(tmp_path, "score", KEY, RESPONSE, COREFWB_CACHE_SIZE=str(int(one * 1.5)))
    assert len(entries(tmp_path)) == 1  # the older entry made room for the newer


def test_an_entry_follows_content_path_and_options(tmp_path) -> None:
    cache = ReadCache(tmp_path / "c")
    copy = tmp_path / "copy.conll"
    copy.write_bytes(Path(KEY).read_bytes())
    read_documents(KEY, cache=cache)
    read_documents(str(copy), cache=cache)
    assert len(documents_entries(tmp_path / "c")) == 2  # a path is part of the documents (messages name it)
    copy.write_bytes(Path(KEY).read_bytes().replace(b"Jeanne", b"Joanne", 1))
    changed = read_documents(str(copy), cache=cache)
    assert changed[0].words[0] == "Joanne" and len(documents_entries(tmp_path / "c")) == 3


def test_types_computed_ahead_equal_types_computed_late() -> None:
    """A key read from the cache brings its mentions' types and parse heads; every span of the pair
    (the response's own ones too) gets the same type and rule as from a fresh document."""
    import pickle

    from metrics.mentions.types import assign_types, prepare_types

    fresh = read_documents(KEY)
    ahead = read_documents(KEY)
    prepare_types(ahead)
    ahead = pickle.loads(pickle.dumps(ahead))  # as the cache gives it back
    responses = {d.name: d for d in read_documents(RESPONSE)}
    for plain, prepared in zip(fresh, ahead):
        assert prepared.rule_types and (prepared.parse is None or prepared.parse_heads is not None)
        spans = sorted(set(plain.mentions()) | set(responses[plain.name].mentions()))
        assert assign_types(prepared, spans) == assign_types(plain, spans)
        assert prepared == plain  # derived data does not take part in equality


def test_the_code_version_follows_the_readers_and_the_typing_rules(monkeypatch) -> None:
    """A key's types are kept in its entry: an edit of the typing code, of a reader or of the model
    must give every entry a new key."""
    from metrics.formats import cache

    before = cache._code_version()
    original = Path.read_bytes
    for edited in ("types.py", "heads.py", "conll.py", "model.py"):
        monkeypatch.setattr(Path, "read_bytes",
                            lambda self, name=edited: original(self) + (b"#" if self.name == name else b""))
        assert cache._code_version() != before, edited
    monkeypatch.setattr(Path, "read_bytes", lambda self: original(self) + (b"#" if self.name == "formulas.py" else b""))
    assert cache._code_version() == before  # scoring code is not kept in an entry


def test_the_code_version_follows_every_module_the_typing_imports(monkeypatch) -> None:
    """An entry keeps the key's types and parse heads (`types.prepare_types`), computed by the
    typing module and the mention modules it imports, directly or not (the POS road's array work,
    the parse's dependencies): an edit of any of them must give every entry a new key."""
    import ast

    from metrics.formats import cache

    mentions = Path(cache.__file__).resolve().parent.parent / "mentions"
    found, todo = set(), ["types"]
    while todo:
        name = todo.pop()
        if name in found:
            continue
        found.add(name)
        for node in ast.walk(ast.parse((mentions / f"{name}.py").read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("metrics.mentions."):
                todo.append(node.module.rsplit(".", 1)[1])
    assert {"types", "heads", "lexicon"} <= found
    before = cache._code_version()
    original = Path.read_bytes
    for edited in sorted(found):
        monkeypatch.setattr(Path, "read_bytes",
                            lambda self, name=f"{edited}.py": original(self) + (b"#" if self.name == name else b""))
        assert cache._code_version() != before, edited


def remembered(folder: Path) -> list[Path]:
    """The content hashes remembered of files, by their identity."""
    return sorted(p for p in folder.iterdir() if p.name.endswith(".identity")) if folder.exists() else []


@pytest.fixture
def settled(monkeypatch):
    """Every file taken as settled (its last change long enough before it is read), so that its
    content hash is remembered; without it a file just written here never is."""
    from metrics.formats import cache

    monkeypatch.setattr(cache, "settle_seconds", lambda device: 0.0)


def test_a_settled_files_hash_is_remembered_and_its_bytes_not_read_again(tmp_path, settled, monkeypatch) -> None:
    import metrics.formats.readers as readers

    path = tmp_path / "key.conll"
    path.write_bytes(Path(KEY).read_bytes())
    first = read_documents(str(path), cache=ReadCache(tmp_path / "c"))
    assert len(remembered(tmp_path / "c")) == 1

    def unread(*args, **kwargs):
        raise AssertionError("the file's bytes were read")

    monkeypatch.setattr(readers, "read_raw", unread)
    again = ReadCache(tmp_path / "c")
    assert read_documents(str(path), cache=again) == first and again.warnings == []


def test_a_file_changed_under_its_old_size_and_time_is_read_again(tmp_path, settled) -> None:
    """Its bytes changed, its size the same and its modification time set back (as `touch -r` or
    a copy keeping times would): its change time differs, so its remembered hash is not taken."""
    path = tmp_path / "key.conll"
    path.write_bytes(Path(KEY).read_bytes())
    before = os.stat(path)
    assert read_documents(str(path), cache=ReadCache(tmp_path / "c"))[0].words[0] == "Jeanne"
    time.sleep(0.05)  # past the clock's tick: `settled` took away the wait that covers it
    path.write_bytes(Path(KEY).read_bytes().replace(b"Jeanne", b"Joanne", 1))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert after.st_ctime_ns != before.st_ctime_ns
    assert read_documents(str(path), cache=ReadCache(tmp_path / "c"))[0].words[0] == "Joanne"


def test_a_fresh_file_or_one_changed_while_hashed_is_not_remembered(tmp_path, monkeypatch) -> None:
    path = tmp_path / "key.conll"
    path.write_bytes(Path(KEY).read_bytes())
    cache = ReadCache(tmp_path / "c")
    read_documents(str(path), cache=cache)
    assert remembered(tmp_path / "c") == []  # changed a moment ago: it may change again within the tick
    from metrics.formats import cache as cache_module

    monkeypatch.setattr(cache_module, "settle_seconds", lambda device: 0.0)

    def rewritten_while_read() -> bytes:
        content = path.read_bytes()
        path.write_bytes(content + b"\n")
        return content

    ReadCache(tmp_path / "c").key(str(path), rewritten_while_read, "conll")
    assert remembered(tmp_path / "c") == []


def test_a_damaged_remembered_hash_is_removed_and_the_file_hashed(tmp_path, settled) -> None:
    path = tmp_path / "key.conll"
    path.write_bytes(Path(KEY).read_bytes())
    first = read_documents(str(path), cache=ReadCache(tmp_path / "c"))
    (hash_entry,) = remembered(tmp_path / "c")
    hash_entry.write_bytes(hash_entry.read_bytes()[:-1] + b"!")
    again = ReadCache(tmp_path / "c")
    assert read_documents(str(path), cache=again) == first
    assert len(again.warnings) == 1 and "damaged" in again.warnings[0] and len(remembered(tmp_path / "c")) == 1


def test_a_remembered_file_over_the_input_size_limit_is_refused(tmp_path, settled) -> None:
    """Its content known unread, a file is still refused when it is larger than the input size
    limit, as reading it refuses it (--max-input-size)."""
    from metrics.formats import source
    from metrics.model import InputError

    path = tmp_path / "key.conll"
    path.write_bytes(Path(KEY).read_bytes())
    read_documents(str(path), cache=ReadCache(tmp_path / "c"))
    assert len(remembered(tmp_path / "c")) == 1
    try:
        source.set_max_input_size(1000)
        with pytest.raises(InputError, match="--max-input-size"):
            read_documents(str(path), cache=ReadCache(tmp_path / "c"))
    finally:
        source.set_max_input_size(source.DEFAULT_MAX_INPUT_SIZE)


def _writeback_seconds() -> float:
    """Linux's window for a dirty page to be written back (expiry and one flusher interval)."""
    vm = Path("/proc/sys/vm")
    if not (vm / "dirty_expire_centisecs").exists():
        pytest.skip("Linux's writeback settings")
    return sum(int((vm / f"{name}_centisecs").read_text()) for name in ("dirty_expire", "dirty_writeback")) / 100


def test_a_hash_is_remembered_only_once_mapped_writes_would_stamp_the_file_again(tmp_path) -> None:
    """A program writing its output through a shared memory map stamps the file's times only when
    it first dirties a page: written again before the kernel writes the page back, the file
    changes and keeps its identity.  So a file's hash waits out the writeback window too (a file
    settled by `SETTLED_SECONDS` alone was remembered while its pages could still be dirty)."""
    from metrics.formats import cache as cache_module

    window = _writeback_seconds()
    path = tmp_path / "response.conll"
    path.write_bytes(Path(KEY).read_bytes())
    identity = cache_module._identity(str(path))
    changed = identity[-1] / 1e9
    cache = ReadCache(tmp_path / "c")
    cache._remember(identity, bytes(32), changed + cache_module.SETTLED_SECONDS + 1)
    assert remembered(tmp_path / "c") == []
    if cache_module._file_system(identity[1]) in cache_module.UNWRITTEN_FILE_SYSTEMS:
        return  # in memory: never remembered (the test below)
    cache._remember(identity, bytes(32), changed + cache_module.SETTLED_SECONDS + window + 1)
    assert len(remembered(tmp_path / "c")) == 1


def test_no_hash_is_remembered_on_a_file_system_in_memory(tmp_path, monkeypatch) -> None:
    """tmpfs writes no page back: a page written once through a shared map stays writable, and
    every later write to it leaves the file's times as they were, however long it has settled."""
    from metrics.formats import cache as cache_module

    _writeback_seconds()
    monkeypatch.setattr(cache_module, "_file_system", lambda device: "tmpfs", raising=False)
    path = tmp_path / "response.conll"
    path.write_bytes(Path(KEY).read_bytes())
    identity = cache_module._identity(str(path))
    ReadCache(tmp_path / "c")._remember(identity, bytes(32), identity[-1] / 1e9 + 86_400)
    assert remembered(tmp_path / "c") == []


def test_the_file_system_of_a_device_is_read_from_the_mount_table(tmp_path) -> None:
    from metrics.formats import cache as cache_module

    _writeback_seconds()
    found = cache_module._file_system(os.stat(tmp_path).st_dev)
    assert found is None or (found and " " not in found)
    assert cache_module._file_system(os.makedev(4095, 1048575)) is None

"""A cache of read inputs: the key file is the same in run after run, so it is parsed once.

An entry holds what `read_documents` returns for a file (documents and the readers' warnings),
keyed by the file's content (a SHA-256 hash of its bytes: the processor's own instructions make it
twice as fast as BLAKE2 here), the path as given (documents and
messages name it), the format and reader options, and the version of the code itself (a hash of
the readers', the model's and the mention typing's source files, so a changed reader or typing
rule never meets an old entry).  It never changes a
result: tests compare cached and uncached runs byte for byte.

Why these precautions:
- Entries are pickles, and unpickling runs code: the directory must belong to the user and be
  closed to others (else the cache is off, with a warning).
- Written atomically (a temporary file renamed into place); read back only if its header's length
  and checksum (SHA-256 too) match, else it is removed and rebuilt, with a warning.
- The checksum covers the entry's name (its key) with the payload: an entry copied or renamed
  over another's name (a valid header over another file's documents) is damaged, never read as
  the other file's documents.
- An entry that unpickles to something other than what its reader stores (a valid header over
  another pickle) is damaged too.  An entry of an older layout (another version in its magic
  line) is stale: removed without a word, and the input read again.  Only regular files are
  opened (a FIFO would block the run).
- Documents are stored as columns (`metrics.formats.packed`): loading an entry is a few copies
  of memory, not the unpickling of every word and span one by one.
- An entry is stored only if its file is unchanged since its content was hashed (device, inode,
  size, modification and change times): a file rewritten between the hashing and the reading (a
  system still writing its output) would otherwise leave the new content under the old content's name.
- A file's content is hashed in every run (36 MB of a corpus's key and response: 45 ms of a
  cached `score`) until it has settled: then its hash is remembered by the file's identity
  (path, device, inode, size, modification and change times) in an entry of its own, and a later
  run that finds the same identity takes the hash without reading the file.  Never a stale file:
  a write sets its file's change time to the clock's (no program can set it back), and a hash is
  remembered only for a file whose last change was long enough before it was read
  (`settle_seconds`): a file system stamps times by its clock's tick (two changes within a tick
  show one time), and a write through a shared memory map stamps them only when it first dirties
  a page (a page written again before the kernel writes it back changes no time; on tmpfs, which
  writes nothing back, never again: there no hash is remembered).  What would defeat it is outside
  any program's reach: the system clock set back past a file's change, a file system's data
  edited under it, or a kernel that never writes dirty pages back.
- Bounded: past `max_bytes` the least recently used entries go, temporaries counted; a temporary
  left by a killed writer (older than `STALE_SECONDS`) is removed when the cache is first used.
  Only files named as entries or temporaries are ever counted or removed: the directory may be
  one the user named that holds other files (their inputs, even), which are never touched.
- A missing or read-only directory, a full disk: the cache quietly does nothing.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import stat
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from metrics.formats.source import refuse_too_big

DEFAULT_MAX_BYTES = 1024 ** 3
"""1 GiB: a few hundred corpora of GUM's size (an entry is about 4x the text)."""
SETTLED_SECONDS = 10
"""More than any file system's tick (FAT's 2 s) and than a file server's clock is off this
machine's: the least wait after a file's last change for its hash to be remembered (`settle_seconds`)."""
UNWRITTEN_FILE_SYSTEMS = frozenset({"tmpfs", "ramfs", "hugetlbfs"})
"""File systems in memory: their pages are never written back, so a page written through a shared
memory map stays writable and its later writes change no time (`settle_seconds`)."""
STALE_SECONDS = 600
"""A temporary this old was left by a writer that died (writing an entry takes well under a second)."""
_TEMPORARY = ".tmp-"
_MAGIC = b"corefwb-cache 4\n"
_MAGIC_ANY = b"corefwb-cache "
"""How every version's magic line starts: an entry with another version is stale, not damaged."""
_HEADER = len(_MAGIC) + 8 + 32
_ENTRY_NAME = re.compile(r"[0-9a-f]{40}(\.identity)?")
"""An entry's name: its key (a 20-byte digest in hex); `.identity` after it for the content hash
remembered of a file (`ReadCache._remember`)."""
_TEMPORARY_NAME = re.compile(re.escape(_TEMPORARY) + r"[0-9a-z_]{8}")
"""A temporary's name, as `tempfile.mkstemp` makes it with our prefix."""


def _ours(name: str) -> bool:
    """Whether a file of the cache's directory is an entry or a temporary of the cache's."""
    return bool(_ENTRY_NAME.fullmatch(name) or _TEMPORARY_NAME.fullmatch(name))


_TYPING_SOURCES = ("heads.py", "heads_parse.py", "lexicon.py", "types.py", "types_arrays.py", "types_words.py")
"""The mention typing's modules: `types.prepare_types` and all it imports of `metrics.mentions`
(tests/test_cache.py checks the list against the imports)."""


def _code_version() -> str:
    """A hash of the code whose results an entry keeps: the model, every reader, and the mention
    typing (a key's types and parse heads are kept with it)."""
    here = Path(__file__).resolve().parent
    digest = hashlib.blake2b(digest_size=16)
    typing = [here.parent / "mentions" / name for name in _TYPING_SOURCES]
    for path in sorted(here.glob("*.py")) + [here.parent / "model.py"] + typing:
        digest.update(path.read_bytes())
    digest.update(f"{sys.version_info[:2]}".encode())
    return digest.hexdigest()


@dataclass
class ReadCache:
    """Where entries live, how much they may take, and what went wrong (warnings to show)."""

    directory: Path | None
    max_bytes: int = DEFAULT_MAX_BYTES
    warnings: list[str] = field(default_factory=list)
    _version: str = ""
    _contents: dict[tuple, bytes] = field(default_factory=dict)
    _hashed: dict[str, tuple] = field(default_factory=dict)
    """Entry name -> the identity of the file whose content it was hashed from (checked at storing)."""
    _cleaned: bool = False

    @classmethod
    def default(cls, enabled: bool = True) -> ReadCache:
        """$COREFWB_CACHE_DIR, else $XDG_CACHE_HOME/corefwb, else ~/.cache/corefwb; off when
        disabled or $COREFWB_NO_CACHE is set (to anything but 0); $COREFWB_CACHE_SIZE bounds it."""
        if not enabled or os.environ.get("COREFWB_NO_CACHE", "0") not in ("", "0"):
            return cls(None)
        explicit = os.environ.get("COREFWB_CACHE_DIR")
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        size = os.environ.get("COREFWB_CACHE_SIZE", "")
        max_bytes = int(size) if size.isdigit() else DEFAULT_MAX_BYTES
        return cls(Path(explicit) if explicit else Path(base) / "corefwb", max_bytes)

    def key(self, path: str, read: Callable[[], bytes | bytearray], *options: str) -> str:
        """The entry name of a regular file (its path and content, `read()` giving the content)
        read as `options` say.  The content's hash is kept for the file by its identity (`_identity`):
        while this cache object lives (a load asks whether a response is cached, then reads it), and
        in the directory, for later runs, once the file is old enough to be sure of (`_remember`)."""
        if not self._version:
            self._version = _code_version()
        identity = _identity(path)
        if identity is not None:
            refuse_too_big(path, identity[3])  # as `read()` would (its content may be known unread)
        content = self._contents.get(identity) if identity is not None else None
        if content is None and identity is not None:
            content = self._remembered(identity)
        if content is None:
            started = time.time()
            content = hashlib.sha256(read()).digest()
            if identity is not None:
                self._contents[identity] = content
                self._remember(identity, content, started)
        digest = hashlib.blake2b(content, digest_size=20)
        digest.update("\0".join((self._version, path, *options)).encode("utf-8", "surrogatepass"))
        name = digest.hexdigest()
        if identity is not None:
            self._hashed[name] = identity
        return name

    def _remembered(self, identity: tuple) -> bytes | None:
        """The content hash remembered for a file of this identity by an earlier run, if any."""
        if not self.holds(_identity_name(identity)):
            return None
        content = self.load(_identity_name(identity), _content_hash)
        if content is not None:
            self._contents[identity] = content
        return content

    def _remember(self, identity: tuple, content: bytes, started: float) -> None:
        """Keep the content hash of a file read from `started` on, for later runs to take by its
        identity, if the file is sure to show another identity once changed: its last change
        (ctime, which no program sets) at least `SETTLED_SECONDS` before the reading began, and
        its identity the same after.  Why the wait: a file system stamps times by its clock's
        tick (FAT by 2 s), so a file changed twice within a tick keeps the first change's ctime;
        one changed in the tick its content was read in would otherwise be taken for what was
        read.  A file that was still fresh is hashed again next time (`settle_seconds`)."""
        wait = settle_seconds(identity[1])
        if wait is None or started - identity[-1] / 1e9 < wait or _identity(identity[0]) != identity:
            return
        self.store(_identity_name(identity), content)

    def _usable(self, create: bool) -> bool:
        """The directory exists (or was made), belongs to us and is closed to others."""
        if self.directory is None:
            return False
        try:
            if create:
                self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            info = os.stat(self.directory)
        except OSError:
            return False
        if info.st_uid != os.getuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            self.warnings.append(f"cache directory {self.directory} is not private to this user: cache not used")
            self.directory = None
            return False
        if not self._cleaned:
            self._cleaned = True
            self._remove_stale_temporaries()
        return True

    def _remove_stale_temporaries(self) -> None:
        """Temporaries of writers that were killed (SIGKILL, power loss): never renamed, never read."""
        try:
            with os.scandir(self.directory) as listing:
                before = time.time() - STALE_SECONDS
                stale = [Path(e.path) for e in listing if _TEMPORARY_NAME.fullmatch(e.name)
                         and e.is_file(follow_symlinks=False) and e.stat(follow_symlinks=False).st_mtime < before]
        except OSError:
            return
        for path in stale:
            _remove(path)

    def holds(self, key: str) -> bool:
        """Whether an entry of this name exists (`load` still checks it whole)."""
        return self._usable(create=False) and (self.directory / key).is_file()

    def load(self, key: str, rebuild: Callable[[object], object] = lambda value: value):
        """What `rebuild` makes of the stored object, or None (absent, unreadable, stale, or
        damaged: then removed).  An object that `rebuild` refuses (raises) is damaged: a sound
        header can hold a pickle of anything."""
        if not self._usable(create=False):
            return None
        path = self.directory / key
        blob = _read_regular(path)
        if blob is None:
            return None
        if blob.startswith(_MAGIC_ANY) and not blob.startswith(_MAGIC):
            _remove(path)  # written by another version of this cache's layout
            return None
        length = int.from_bytes(blob[len(_MAGIC):len(_MAGIC) + 8], "big") if len(blob) >= _HEADER else -1
        payload = memoryview(blob)[_HEADER:]
        if (not blob.startswith(_MAGIC) or length != len(payload)
                or _checksum(key, payload) != blob[_HEADER - 32:_HEADER]):
            self.warnings.append(f"cache entry {path} is damaged: removed, and the input read again")
            _remove(path)
            return None
        try:
            value = rebuild(pickle.loads(payload))
        except Exception:  # noqa: BLE001 - any failure to rebuild the object is a damaged entry
            self.warnings.append(f"cache entry {path} cannot be read: removed, and the input read again")
            _remove(path)
            return None
        try:
            os.utime(path)  # recently used: kept longest
        except OSError:
            pass
        return value

    def store(self, key: str, value) -> None:
        """Write an entry atomically, then keep the directory under its bound; failures are silent.
        Not written when the file it was keyed from has changed since (what was read may be newer
        than what was hashed)."""
        if not self._usable(create=True) or self._changed_since_hashed(key):
            return
        payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        if len(payload) + _HEADER > self.max_bytes:
            return
        header = _MAGIC + len(payload).to_bytes(8, "big") + _checksum(key, payload)
        import tempfile  # only a run that stores an entry loads it (about 4 ms, with shutil and random)

        temporary: str | None = None
        try:
            handle, temporary = tempfile.mkstemp(dir=self.directory, prefix=_TEMPORARY)
            with os.fdopen(handle, "wb") as out:
                out.write(header)
                out.write(payload)
            os.replace(temporary, self.directory / key)
        except OSError:
            if temporary is not None:
                _remove(Path(temporary))
            return
        self._bound()

    def _changed_since_hashed(self, key: str) -> bool:
        identity = self._hashed.get(key)
        return identity is not None and _identity(identity[0]) != identity

    def _bound(self) -> None:
        """Remove the least recently used entries until the directory holds at most max_bytes."""
        try:
            with os.scandir(self.directory) as listing:
                files = [e for e in listing if _ours(e.name) and e.is_file(follow_symlinks=False)]
            entries = [(e.stat().st_mtime, e.stat().st_size, Path(e.path), e.name.startswith(_TEMPORARY)) for e in files]
        except OSError:
            return
        total = sum(size for _, size, _, _ in entries)  # temporaries take room too
        for _, size, path, temporary in sorted(entries):
            if temporary:
                continue  # another writer's, perhaps: removed once stale
            if total <= self.max_bytes:
                break
            _remove(path)
            total -= size


def _identity(path: str) -> tuple | None:
    """A regular file's identity: its path as given, device, inode, size, and modification and
    change times (ns); any write, truncation, replacement or `touch` gives another, as the change
    time is the clock's when the file changed, which no program can set back.  Taken from the file
    opened (a network file system checks a file's attributes with its server when it is opened)."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(handle)
    except OSError:
        return None
    finally:
        os.close(handle)
    if not stat.S_ISREG(info.st_mode):
        return None
    return path, info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


def settle_seconds(device: int) -> float | None:
    """How long after its last change a file on this device has its content hash remembered, or
    None where it never is.  Why more than `SETTLED_SECONDS`: a write through a shared memory map
    (a program writing its output with mmap) stamps the file's times only when it first dirties a
    page; a page written again while still dirty changes no time.  A disk file system's dirty
    pages are written back within the kernel's expiry and one flusher interval, after which the
    next write stamps the times again; a file system in memory (`UNWRITTEN_FILE_SYSTEMS`) never
    writes them back, nor does a kernel with its flusher turned off."""
    linux = Path("/proc/sys/vm/dirty_expire_centisecs").exists()
    if not linux:
        return float(SETTLED_SECONDS)
    try:
        expire, interval = (int(Path(f"/proc/sys/vm/{name}_centisecs").read_text())
                            for name in ("dirty_expire", "dirty_writeback"))
    except (OSError, ValueError):
        return None
    if interval <= 0 or _file_system(device) in UNWRITTEN_FILE_SYSTEMS:
        return None
    return SETTLED_SECONDS + (expire + interval) / 100


def _file_system(device: int) -> str | None:
    """The type of the file system mounted from this device (/proc/self/mountinfo), if listed."""
    wanted = f"{os.major(device)}:{os.minor(device)}"
    try:
        lines = Path("/proc/self/mountinfo").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    for line in lines:
        fields = line.split(" ")
        if len(fields) > 2 and fields[2] == wanted and " - " in line:
            return line.split(" - ", 1)[1].split(" ", 1)[0]
    return None


def _identity_name(identity: tuple) -> str:
    """The name of the entry that remembers a file's content hash by its identity."""
    digest = hashlib.blake2b(b"identity\0", digest_size=20)
    digest.update("\0".join(map(str, identity)).encode("utf-8", "surrogatepass"))
    return f"{digest.hexdigest()}.identity"


def _content_hash(value: object) -> bytes:
    """A remembered content hash (32 bytes); TypeError for anything else (a damaged entry)."""
    if not (isinstance(value, bytes) and len(value) == 32):
        raise TypeError("not a content hash")
    return value


def _checksum(key: str, payload: bytes | memoryview) -> bytes:
    """The payload's checksum keyed by the entry's name: an entry moved under another name fails it.
    SHA-256 of the name and the payload: the processor's own instructions make it two and a half
    times as fast as BLAKE2 (8 ms against 20 for a 14 MB entry, paid by every cached run)."""
    hashed = hashlib.sha256(key.encode("ascii"))
    hashed.update(payload)
    return hashed.digest()


def _read_regular(path: Path) -> bytes | None:
    """A regular file's bytes; None when absent, unreadable or anything else (a FIFO, a device,
    a folder, a link): opened without blocking and checked before it is read."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            return None
        with os.fdopen(handle, "rb", closefd=False) as stream:
            return stream.read()
    except OSError:
        return None
    finally:
        os.close(handle)


def _remove(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass

"""A multilingual run laid out as CorefUD lays it out: one CoNLL-U file per dataset, in folders.

CorefUD names its files `LANG_CORPUS-corefud-SPLIT.conllu` (`cs_pdt-corefud-dev.conllu`), so the
dataset is the part before `-corefud` (`cs_pdt`); a file named otherwise is its own dataset
(`mine.conllu` -> `mine`).  The key folder's `.conllu` files (optionally gzipped) are the
datasets, in sorted order (the order of every table and of the macro-average's sum).  A system's
folder is paired with them by file name, `.gz` or not; failing that, by dataset name, so that a
system that wrote `cs_pdt-corefud-test.conllu` for a key's `cs_pdt-corefud-dev.conllu` is still
found (CRAC's submissions are named by the test files).

Hidden files (`._en_one-corefud-dev.conllu`, which macOS leaves beside every file it copies) are
no datasets.  A `.conllu` link that leads nowhere (dangling, or a loop), or a FIFO, socket or
device so named, is skipped with a warning (`Layout.skipped`): it was meant as a dataset.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field

from metrics.model import InputError

SUFFIXES = (".conllu", ".conllu.gz")


def dataset_name(filename: str) -> str:
    """`cs_pdt-corefud-dev.conllu(.gz)` -> `cs_pdt`; a name without `-corefud` keeps its stem."""
    stem = filename[: -len(".gz")] if filename.endswith(".gz") else filename
    stem = stem[: -len(".conllu")] if stem.endswith(".conllu") else stem
    return stem.split("-corefud", 1)[0] or stem


def is_dataset_file(filename: str) -> bool:
    """Would a folder's listing take a file of this name as a dataset (`.conllu(.gz)`, not hidden)?"""
    return filename.endswith(SUFFIXES) and not filename.startswith(".")


def read_as_dataset(path: str, folders: list[str]) -> bool:
    """Is `path` a file that listing one of `folders` would take as a dataset?  `corefwb crac
    --output` there wrote its report where the next run reads it as a key or a system's file."""
    where = os.path.realpath(os.path.dirname(path) or ".")
    return is_dataset_file(os.path.basename(path)) and any(os.path.realpath(f) == where for f in folders)


def _plain(filename: str) -> str:
    return filename[: -len(".gz")] if filename.endswith(".gz") else filename


def _conllu_files(folder: str, role: str, skipped: list[str] | None = None) -> list[str]:
    """The `.conllu` and `.conllu.gz` file names of a folder, sorted, hidden ones left out; a
    folder that is not one, or holds none, is an input error naming it.  Links that lead nowhere
    are said in `skipped`."""
    if not os.path.isdir(folder):
        raise InputError(folder, None, f"the {role} must be a folder of CoNLL-U files, one per dataset")
    try:
        candidates = sorted(n for n in os.listdir(folder) if is_dataset_file(n))
    except OSError as exc:
        raise InputError(folder, None, f"cannot list the folder: {exc.strerror or exc}") from None
    names = []
    for name in candidates:
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            names.append(name)
        elif skipped is not None:
            try:
                mode = os.stat(path).st_mode  # a folder (or a link to one): not a dataset, nothing to say
            except OSError as exc:
                why = "loops" if exc.errno == errno.ELOOP else "leads nowhere"
                skipped.append(f"{path}: a link that {why}: not read")
                continue
            if not stat.S_ISDIR(mode):  # a FIFO, a socket, a device: reading it could wait for ever
                skipped.append(f"{path}: not a regular file ({_kind(mode)}): not read")
    if not names:
        raise InputError(folder, None, f"no .conllu or .conllu.gz files in this {role} folder")
    return names


def _kind(mode: int) -> str:
    """What a file that is neither regular nor a folder is, for a message."""
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"


@dataclass(frozen=True)
class Dataset:
    """One dataset: its name and the key file."""

    name: str
    key: str


@dataclass
class Layout:
    """The datasets of a key folder and, per system, each dataset's response file (None: missing)."""

    datasets: list[Dataset]
    responses: list[list[str | None]]
    """responses[system][dataset]."""
    unused: list[str] = field(default_factory=list)
    """System files that pair with no dataset of the key (said in a warning)."""
    skipped: list[str] = field(default_factory=list)
    """Why `.conllu` links were not read (dangling, looping): warnings."""

    def missing(self, system: int) -> list[str]:
        return [d.name for d, path in zip(self.datasets, self.responses[system]) if path is None]


def find_datasets(key_folder: str, skipped: list[str] | None = None) -> list[Dataset]:
    """The key folder's datasets, sorted by file name; two files of one dataset are an error."""
    datasets = [Dataset(dataset_name(n), os.path.join(key_folder, n)) for n in _conllu_files(key_folder, "key", skipped)]
    seen: dict[str, str] = {}
    for d in datasets:
        if d.name in seen:
            raise InputError(d.key, None, f"a second file of dataset {d.name!r} (the first: {seen[d.name]})")
        seen[d.name] = d.key
    return datasets


def pair(key_folder: str, system_folders: list[str]) -> Layout:
    """Each system folder's file for each dataset of the key folder (see the module's text)."""
    skipped: list[str] = []
    datasets = find_datasets(key_folder, skipped)
    responses: list[list[str | None]] = []
    unused: list[str] = []
    for folder in system_folders:
        files = _conllu_files(folder, "system", skipped)
        by_file = {_plain(n): n for n in files}
        by_dataset: dict[str, list[str]] = {}
        for n in files:
            by_dataset.setdefault(dataset_name(n), []).append(n)
        taken: set[str] = set()
        row: list[str | None] = []
        for d in datasets:
            chosen = by_file.get(_plain(os.path.basename(d.key)))
            if chosen is None:
                candidates = by_dataset.get(d.name, [])
                if len(candidates) > 1:
                    raise InputError(folder, None, f"{len(candidates)} files of dataset {d.name!r} "
                                     f"({', '.join(candidates)}) and none named as the key's")
                chosen = candidates[0] if candidates else None
            if chosen is not None:
                taken.add(chosen)
            row.append(os.path.join(folder, chosen) if chosen is not None else None)
        responses.append(row)
        unused += [os.path.join(folder, n) for n in files if n not in taken]
    return Layout(datasets, responses, unused, skipped)

"""Names of the systems compared: from `--name`, or from their files, and short labels for narrow axes."""

from __future__ import annotations

import os
from collections.abc import Sequence

from .options import UsageError


def system_names(paths: list[str], given: str | None) -> list[str]:
    """`--name A,B,...`, or each file's name without its format and gzip extensions."""
    if given is not None:
        names = [n.strip() for n in given.split(",")]
        if len(names) != len(paths) or not all(names) or len(set(names)) != len(names):
            raise UsageError(f"--name: give {len(paths)} distinct names, one per response, comma-separated")
        return names
    names = []
    for path in paths:
        name = os.path.basename(path) if path != "-" else "stdin"
        for ext in (".gz", ".conll", ".conllu", ".jsonl", ".jsonlines", ".json", ".txt"):
            name = name[: -len(ext)] if name.lower().endswith(ext) else name
        names.append(name or path)
    return [n if names.count(n) == 1 else f"{n}#{i + 1}" for i, n in enumerate(names)]


def _to_separator(shared: str) -> int:
    """How much of a shared start (or reversed end) to cut: up to its last separator (- _ . or a
    space), so that a name is never cut inside a word ("response" and "ronto" share only "r")."""
    return max(shared.rfind(mark) for mark in "-_. ") + 1


def short_labels(names: Sequence[str]) -> list[str]:
    """The systems' names without what they all share (`response-a`..`response-e` -> a..e), for
    axes too narrow for whole names; numbers when nothing is left."""
    if len(names) < 2:
        return list(names)
    prefix = _to_separator(os.path.commonprefix(list(names)))
    suffix = _to_separator(os.path.commonprefix([n[::-1] for n in names]))
    cut = [n[prefix:len(n) - suffix] if len(n) > prefix + suffix else "" for n in names]
    return cut if all(cut) and len(set(cut)) == len(cut) else [str(i + 1) for i in range(len(names))]

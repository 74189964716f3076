"""Option values, checked once for every front end: a bad value raises `UsageError` (exit status 2,
one line).  The commands, the CLI and the session parse `--weights`, `--metrics`, `--category`,
`--type`, `--jobs`, `--limit` and `--max-input-size` here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from metrics.measures.catalog import Scorer, resolve
from metrics.measures.weights import Weights, parse_weights
from metrics.model import MentionType
from metrics.runtime.parallel import processors

if TYPE_CHECKING:  # the error analysis loads with the commands that list errors, not with `score`
    from metrics.errors.chen_ng.records import Category

OTHER_METRICS_DEFAULTS = {"weights": "W4", "ace_variant": "ace07", "ace_weighting": "mention"}
"""The defaults of the options that set Chen & Ng's weights and the ACE-value (their argparse
destinations): the common options take them, and `--conventions ua`, whose scores read none of
them, warns when one is set otherwise."""


class UsageError(Exception):
    """A bad option value (exit status 2)."""


def weights_option(text: str) -> Weights:
    """`--weights`: a preset W1..W5 or NAM,NOM,PRO,SING."""
    try:
        return parse_weights(text)
    except ValueError as exc:
        raise UsageError(f"--weights: {exc}") from None


def metrics_option(text: str, option: str = "--metrics", scorer: Scorer = Scorer.V801) -> tuple[str, ...] | None:
    """`--metrics`: "all" (None) or comma-separated names or aliases, in catalogue order, among
    those that exist under `scorer` (CorefUD's adds its MOR and zero, which its views list)."""
    if text.strip().lower() == "all":
        return None
    parts = [part for part in text.split(",") if part.strip()]
    if not parts:
        raise UsageError(f"{option}: name at least one metric, or all")
    try:
        return resolve(parts, scorer)
    except ValueError as exc:
        raise UsageError(f"{option}: {exc}") from None


def impact_option(text: str) -> str:
    """`--impact`: exactly one metric (name or alias)."""
    chosen = metrics_option(text, "--impact")
    if chosen is None or len(chosen) != 1:
        raise UsageError(f"--impact: name one metric, not {text!r}")
    return chosen[0]


def categories_option(values: Sequence[str] | None) -> list[Category] | None:
    """`--category` (repeated or comma-separated), None when not given."""
    from metrics.errors.chen_ng.records import Category

    try:
        return None if not values else [Category.parse(v) for v in listed(values)]
    except ValueError as exc:
        raise UsageError(f"--category: {exc}") from None


def types_option(values: Sequence[str] | None) -> list[MentionType] | None:
    """`--type` (repeated or comma-separated), None when not given."""
    try:
        return None if not values else [MentionType.parse(v) for v in listed(values)]
    except ValueError as exc:
        raise UsageError(f"--type: {exc}") from None


def size_option(text: str) -> int:
    """`--max-input-size`: bytes, or with a unit K, M, G (powers of 1024): `500M`, `4G`."""
    units = {"": 1, "K": 1024, "M": 1024 ** 2, "G": 1024 ** 3, "T": 1024 ** 4}
    value = text.strip().upper().removesuffix("B").removesuffix("I")
    number, unit = (value[:-1], value[-1]) if value and value[-1] in units else (value, "")
    try:
        size = int(float(number) * units[unit])
    except (ValueError, OverflowError):
        raise UsageError(f"--max-input-size: {text!r} is not a size such as 500M or 4G") from None
    return size


MAX_JOBS = 256
"""More processes than this is never useful on one machine; a larger `--jobs` is a typo."""
DEFAULT_JOBS = 8
"""At most this many processes unless asked: beyond it, collecting results outweighs the gain."""


def jobs_option(value: int | None) -> int:
    """`--jobs`: 1 to MAX_JOBS, capped at the processors this process may use; by default one
    per processor, at most DEFAULT_JOBS (the engine forks fewer when a corpus is small)."""
    if value is None:
        return min(processors(), DEFAULT_JOBS)
    if not 1 <= value <= MAX_JOBS:
        raise UsageError(f"--jobs: give 1 to {MAX_JOBS} processes, not {value}")
    return min(value, processors())


def limit_option(value: int | None) -> int | None:
    if value is not None and value < 0:
        raise UsageError("--limit: must be >= 0")
    return value


def listed(values: Sequence[str]) -> list[str]:
    """The values of a repeatable option that also takes comma-separated lists (`--category a,b
    --category c`), blanks dropped: every such option reads them by this one rule."""
    return [v.strip() for value in values for v in value.split(",") if v.strip()]

"""`--shard K/N` (tests/conftest.py), by which CI runs the suite in two processes: the shards of
one collection hold every test exactly once between them, in the collected order, and report the
rest as deselected; a malformed or out-of-range shard is a usage error, not a silent empty run."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import conftest


def _config(shard: str | None, deselected: list) -> SimpleNamespace:
    hook = SimpleNamespace(pytest_deselected=lambda items: deselected.extend(items))
    return SimpleNamespace(getoption=lambda name: shard if name == "--shard" else None, hook=hook)


def _shard(shard: str | None, items: list[str]) -> tuple[list[str], list[str]]:
    kept, deselected = list(items), []
    conftest.pytest_collection_modifyitems(_config(shard, deselected), kept)
    return kept, deselected


@pytest.mark.parametrize("count", [1, 2, 3, 7])
def test_the_shards_hold_every_test_once_in_order(count: int) -> None:
    items = [f"t{i}" for i in range(20)]
    shards = [_shard(f"{index}/{count}", items) for index in range(count)]
    assert sorted(t for kept, _ in shards for t in kept) == sorted(items)
    for kept, deselected in shards:
        assert kept == [t for t in items if t in kept]  # the collected order
        assert sorted(kept + deselected) == sorted(items) and not set(kept) & set(deselected)
    assert all(abs(len(kept) - len(items) / count) < 1 for kept, _ in shards)  # dealt out evenly


def test_no_shard_keeps_every_test() -> None:
    assert _shard(None, ["a", "b"]) == (["a", "b"], [])


@pytest.mark.parametrize("shard", ["1", "a/2", "2/2", "-1/2", "0/0", "1/2/3"])
def test_a_bad_shard_is_a_usage_error(shard: str) -> None:
    with pytest.raises(pytest.UsageError, match="--shard"):
        _shard(shard, ["a", "b"])

"""`--shard K/N` (tests/conftest.py), by which two pytest processes run the suite between them: the shards of
one collection hold every test exactly once between them, in the collected order, and report the
rest as deselected; a file with snapshot tests goes whole to one shard (the snapshot plugin would
call its other tests' snapshots unused); a malformed or out-of-range shard is a usage error, not a
silent empty run."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import conftest


def _config(shard: str | None, deselected: list) -> SimpleNamespace:
    hook = SimpleNamespace(pytest_deselected=lambda items: deselected.extend(items))
    return SimpleNamespace(getoption=lambda name: shard if name == "--shard" else None, hook=hook)


def _item(name: str, path: str = "tests/test_a.py", snapshot: bool = False) -> SimpleNamespace:
    return SimpleNamespace(name=name, path=path, fixturenames=["snap_compare"] if snapshot else ["tmp_path"])


def _shard(shard: str | None, items: list[str]) -> tuple[list[str], list[str]]:
    """The names kept and deselected, of tests named `items` in one file without snapshots."""
    kept, deselected = _shard_items(shard, [_item(name) for name in items])
    return [item.name for item in kept], [item.name for item in deselected]


def _shard_items(shard: str | None, items: list[SimpleNamespace]) -> tuple[list, list]:
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


def test_a_file_with_snapshot_tests_goes_whole_to_one_shard() -> None:
    items = ([_item(f"a{i}") for i in range(4)] + [_item(f"s{i}", "tests/test_s.py", snapshot=i == 1) for i in range(3)]
             + [_item(f"b{i}", "tests/test_b.py") for i in range(4)])
    shards = [[item.name for item in _shard_items(f"{index}/2", items)[0]] for index in range(2)]
    assert sorted(shards[0] + shards[1]) == sorted(item.name for item in items)
    holding = [names for names in shards if "s0" in names]
    assert len(holding) == 1 and {"s0", "s1", "s2"} <= set(holding[0])
    assert [name for name in holding[0] if name.startswith("s")] == ["s0", "s1", "s2"]


def test_no_shard_keeps_every_test() -> None:
    assert _shard(None, ["a", "b"]) == (["a", "b"], [])


@pytest.mark.parametrize("shard", ["1", "a/2", "2/2", "-1/2", "0/0", "1/2/3"])
def test_a_bad_shard_is_a_usage_error(shard: str) -> None:
    with pytest.raises(pytest.UsageError, match="--shard"):
        _shard(shard, ["a", "b"])

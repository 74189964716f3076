"""Documents scored in forked processes give what one process gives (`metrics.runtime.parallel`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from records_road import price_all, price_category
from metrics.corpus import scoring
from metrics.runtime import parallel
from metrics.formats.readers import read_documents
from metrics.measures.weights import Weights

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def test_fork_map_returns_each_piece_in_order_from_other_processes() -> None:
    pids = parallel.fork_map(lambda piece: (piece, os.getpid()), [0, 1, 2, 3])
    assert [piece for piece, _ in pids] == [0, 1, 2, 3]
    if parallel.can_fork():
        assert pids[0][1] == os.getpid() and len({pid for _, pid in pids}) == 4


class Unpicklable(Exception):
    def __reduce__(self):
        raise TypeError("no")


@pytest.mark.parametrize("error", [ValueError("piece 2 is bad"), Unpicklable("piece 2 is bad")])
def test_an_error_in_a_child_is_raised_in_the_parent(error: Exception) -> None:
    def work(piece: int) -> int:
        if piece == 2:
            raise error
        return piece

    with pytest.raises((ValueError, RuntimeError), match="piece 2 is bad"):
        parallel.fork_map(work, [0, 1, 2])
    assert parallel.fork_map(work, [0, 1]) == [0, 1]


def test_balanced_pieces_cover_every_index_once() -> None:
    costs = [5.0, 1.0, 1.0, 9.0, 2.0, 2.0, 3.0]
    pieces = parallel.balanced(costs, 3)
    assert sorted(i for piece in pieces for i in piece) == list(range(len(costs)))
    assert all(piece == sorted(piece) for piece in pieces)
    loads = [sum(costs[i] for i in piece) for piece in pieces]
    assert max(loads) - min(loads) <= max(costs)
    assert parallel.balanced([1.0], 4) == [[0]] and parallel.balanced([], 2) == []


@pytest.mark.parametrize("key, response", [("gum/key.gum.conll", "gum/response.gum.conll"),
                                           ("chen-ng/key.conll", "chen-ng/response-c.conll")])
def test_scores_from_several_processes_equal_one_process(monkeypatch, key: str, response: str) -> None:
    monkeypatch.setattr(scoring, "PARALLEL_TOKENS", 1)  # the samples are far below the threshold
    keys = read_documents(str(SAMPLES / key))
    responses = read_documents(str(SAMPLES / response))
    weights = Weights(2.0, 1.0, 0.5, 0.25)
    serial = scoring.prepare(keys, responses).score(weights)
    for processes in (2, 3):
        forked = scoring.prepare(keys, responses).score(weights, processes=processes)
        assert repr(forked.documents) == repr(serial.documents)
        assert repr(forked.micro) == repr(serial.micro) and repr(forked.macro) == repr(serial.macro)


def test_errors_priced_in_several_processes_equal_one_process(monkeypatch) -> None:
    from metrics.errors.chen_ng import impact
    from metrics.errors.chen_ng.impact import Pricer
    from metrics.errors.chen_ng.records import Category, classify_corpus

    monkeypatch.setattr(impact, "PARALLEL_RECORDS", 1)
    keys = read_documents(str(SAMPLES / "gum/key.gum.conll"))
    responses = read_documents(str(SAMPLES / "gum/response.gum.conll"))
    records = classify_corpus(scoring.prepare(keys, responses).pairs)
    assert len(records) > 20
    for metric in ("conll", "lmuc"):
        serial = price_all(Pricer(scoring.prepare(keys, responses), metric), records, records)
        forked = price_all(Pricer(scoring.prepare(keys, responses), metric), records, records, processes=2)
        assert repr(forked) == repr(serial)
        one_by_one = Pricer(scoring.prepare(keys, responses), metric)
        assert [r.impact for r in serial[0]] == [r.impact for r in one_by_one.price_records(records)]
        assert serial[1] == {c: price_category(one_by_one, records, c) for c in Category}


def test_responses_read_beside_the_key_give_the_same_session_warnings_and_errors(monkeypatch, tmp_path) -> None:
    """`Session.load` may read the responses in forked processes (the road's `Inputs`): the documents,
    the warnings (in order) and the first error must be those of reading the files in order."""
    from metrics.conventions import pipeline
    from metrics.model import InputError
    from workbench.session import LoadOptions, Session

    monkeypatch.setattr(pipeline, "PARALLEL_READ_BYTES", 1)
    key, response = SAMPLES / "gum/key.gum.conll", SAMPLES / "gum/response.gum.conll"
    odd = tmp_path / "odd.conll"  # text between documents: a warning from the reader
    odd.write_text(response.read_text(encoding="utf-8").replace("#end document\n", "#end document\nstray\n", 1),
                   encoding="utf-8")
    options = LoadOptions(cache=False)
    loads = [Session.load(str(key), [str(odd), str(response)], options, processes=n) for n in (1, 2, 3)]
    assert loads[0].warnings == loads[1].warnings == loads[2].warnings
    assert any("stray" in w or "outside" in w for w in loads[0].warnings)
    chains = [[repr(c.pairs[0].response.chains) for c in load.corpora] for load in loads]
    assert chains[0] == chains[1] == chains[2]
    bad_one, bad_two = tmp_path / "bad1.conll", tmp_path / "bad2.conll"
    bad_one.write_text("#begin document (x); part 000\nx 0 0 a (1\n#end document\n", encoding="utf-8")
    bad_two.write_bytes(b"\xff\xfe not text")
    for paths, culprit in (([bad_one, bad_two], bad_one), ([response, bad_two], bad_two)):
        messages = []
        for n in (1, 2, 3):
            with pytest.raises(InputError) as caught:
                Session.load(str(key), [str(p) for p in paths], options, processes=n)
            messages.append(str(caught.value))
        assert messages[0] == messages[1] == messages[2] and messages[0].startswith(str(culprit))
    with pytest.raises(InputError, match="bad1"):
        Session.load(str(bad_one), [str(bad_two)], options, processes=2)


def test_types_prepared_in_several_processes_equal_one_process(monkeypatch) -> None:
    from metrics.mentions import types as mention_types

    monkeypatch.setattr(mention_types, "PARALLEL_TOKENS", 1)
    serial = read_documents(str(SAMPLES / "gum/key.gum.conll"))
    forked = read_documents(str(SAMPLES / "gum/key.gum.conll"))
    mention_types.prepare_types(serial)
    mention_types.prepare_types(forked, processes=2)
    assert [d.parse_heads for d in forked] == [d.parse_heads for d in serial]
    assert [d.rule_types for d in forked] == [d.rule_types for d in serial]
    assert all(d.rule_types for d in serial) and any(d.parse_heads for d in serial)


def test_fork_map_computes_here_when_no_process_can_be_forked(monkeypatch) -> None:
    calls = []

    def refuse():
        calls.append(1)
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(parallel.os, "fork", refuse)
    monkeypatch.setattr(parallel, "can_fork", lambda: True)
    assert parallel.fork_map(lambda piece: piece * 2, [1, 2, 3]) == [2, 4, 6]
    assert calls  # it did try


@pytest.mark.skipif(not hasattr(os, "nice"), reason="no process priorities here")
def test_children_started_nice_run_at_a_lower_priority() -> None:
    if not parallel.can_fork():
        pytest.skip("no fork here")
    mine = os.nice(0)
    children = parallel.Forked(lambda piece: iter([os.nice(0)]), [0, 1], nice=5)
    assert children.next() == [min(19, mine + 5)] * 2
    children.close()
    plain = parallel.Forked(lambda piece: iter([os.nice(0)]), [0])
    assert plain.next() == [mine]
    plain.close()


def test_a_cached_response_is_loaded_here_not_in_another_process(monkeypatch, tmp_path) -> None:
    """Loading a cached file here is cheaper than loading it in a forked process and sending its
    documents back: only responses that must be parsed are read beside the key."""
    from metrics.formats.cache import ReadCache
    from metrics.formats.readers import in_cache, read_documents
    from metrics.conventions import pipeline
    from metrics.conventions.conll import CONLL_2012_CONVENTIONS
    from workbench.session import LoadOptions, Session

    def _Inputs(key: str, responses: list[str], options: LoadOptions, processes: int) -> pipeline.Inputs:
        return pipeline.Inputs(CONLL_2012_CONVENTIONS, key, responses, options.engine(), processes)

    monkeypatch.setattr(pipeline, "PARALLEL_READ_BYTES", 1)
    monkeypatch.setenv("COREFWB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("COREFWB_NO_CACHE", raising=False)
    key, response = str(SAMPLES / "gum/key.gum.conll"), str(SAMPLES / "gum/response.gum.conll")
    cache = ReadCache.default()
    assert not in_cache(response, None, cache=cache, syntax=False)
    fresh = _Inputs(key, [response], LoadOptions(), 2)
    assert (1 in fresh.ahead) == parallel.can_fork()  # parsed beside the key
    read_documents(response, None, cache=cache, syntax=False)
    assert in_cache(response, None, cache=cache, syntax=False)
    assert not in_cache(response, None, cache=cache, syntax=True)  # other options, another entry
    assert _Inputs(key, [response], LoadOptions(), 2).ahead == {}  # loaded here when asked for
    one = Session.load(key, [response], LoadOptions(), processes=1)
    two = Session.load(key, [response], LoadOptions(), processes=2)
    assert repr(one.score().micro) == repr(two.score().micro) and one.warnings == two.warnings


@pytest.mark.parametrize("entries", [parallel.QUEUE_ENTRIES, 7])
def test_fork_each_shares_items_from_a_queue_and_returns_them_in_order(monkeypatch, tmp_path, entries) -> None:
    """Items of uneven cost: every process takes the next one as it finishes one, so a process
    with cheap items takes more of them; the results come back in item order whoever computed
    them (with few queue entries, items go in runs).  Each child waits at its first item until a
    second one has started (or 10 s have passed): on a loaded machine one child could otherwise
    drain the queue before the others are scheduled, and the test would say nothing of sharing."""
    import time

    monkeypatch.setattr(parallel, "QUEUE_ENTRIES", entries)

    def work(item: int) -> tuple[int, int]:
        marker = tmp_path / f"started-{os.getpid()}"
        if not marker.exists():
            marker.touch()
            deadline = time.monotonic() + 10
            while len(list(tmp_path.glob("started-*"))) < 2 and time.monotonic() < deadline:
                time.sleep(0.005)
        time.sleep(0.02 if item % 4 == 0 else 0.002)
        return item * item, os.getpid()

    results = parallel.fork_each(work, list(range(40)), 3)
    assert [value for value, _ in results] == [i * i for i in range(40)]
    if parallel.can_fork():
        assert len({pid for _, pid in results}) > 1
    assert parallel.fork_each(lambda x: x + 1, [1, 2, 3], 1) == [2, 3, 4]
    assert parallel.fork_each(lambda x: x + 1, [], 3) == []


def test_fork_each_reports_each_finished_item_here() -> None:
    """With `on_done`, every item is computed in a child and counted here as it finishes: the
    count reaches the number of items, and results still come back in item order."""
    counted: list[int] = []
    results = parallel.fork_each(lambda x: (x * 2, os.getpid()), list(range(25)), 3, on_done=lambda: counted.append(1))
    assert [value for value, _ in results] == [2 * i for i in range(25)]
    assert len(counted) == 25
    if parallel.can_fork():
        assert os.getpid() not in {pid for _, pid in results}
    counted.clear()
    assert parallel.fork_each(lambda x: x, [5, 6], 1, on_done=lambda: counted.append(1)) == [5, 6]
    assert len(counted) == 2


def test_fork_each_raises_a_childs_error_and_computes_here_without_fork(monkeypatch) -> None:
    import time

    def work(item: int) -> int:
        time.sleep(0.005)
        if item == 13:
            raise ValueError("item 13 is bad")
        return item

    with pytest.raises((ValueError, RuntimeError), match="item 13 is bad"):
        parallel.fork_each(work, list(range(30)), 2)

    def refuse():
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(parallel.os, "fork", refuse)
    monkeypatch.setattr(parallel, "can_fork", lambda: True)
    assert parallel.fork_each(lambda x: x * 3, list(range(10)), 2) == [x * 3 for x in range(10)]

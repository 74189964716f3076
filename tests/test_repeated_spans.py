"""v8.01's rule for a response span listed twice (`alignment.RepeatedSpans`), the one definition
`align` and the rescoring's counted parts use, against the rule stated over the whole listing at
once: a key-matching span is kept at its first listing only (in file order, chain by chain), a
twinless span at every listing, under one id numbered past the key's in order of first listing."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.mentions.alignment import RepeatedSpans, align
from metrics.model import Document, Span

SPAN = st.tuples(st.integers(0, 4), st.integers(0, 4)).map(lambda s: (min(s), max(s)))
CHAINS = st.lists(st.lists(SPAN, min_size=0, max_size=5), max_size=5)


def _document(chains: list[list[Span]]) -> Document:
    return Document(name="d", words=["w"] * 5, chains=chains, labels=[f"c{i}" for i in range(len(chains))])


def _as_listed(key: list[list[Span]], response: list[list[Span]]
               ) -> tuple[list[list[int]], list[tuple[Span, str, str]]]:
    """The response chains' ids and the dropped listings (span, chain dropped from, chain kept in),
    from each listing's place in the flat listing: kept when it is the span's first or twinless."""
    key_id: dict[Span, int] = {}
    for span in (span for chain in key for span in chain):
        key_id.setdefault(span, len(key_id))
    flat = [(chain_index, span) for chain_index, chain in enumerate(response) for span in chain]
    first: dict[Span, int] = {}
    for place, (_, span) in enumerate(flat):
        first.setdefault(span, place)
    twinless = [span for span in first if span not in key_id]  # in order of first listing
    chains: list[list[int]] = [[] for _ in response]
    dropped = []
    for place, (chain_index, span) in enumerate(flat):
        if span not in key_id:
            chains[chain_index].append(len(key_id) + twinless.index(span))
        elif first[span] == place:
            chains[chain_index].append(key_id[span])
        else:
            dropped.append((span, f"c{chain_index}", f"c{flat[first[span]][0]}"))
    return [chain for chain in chains if chain], dropped


@settings(max_examples=300, deadline=None)
@given(CHAINS, CHAINS)
def test_align_keeps_what_the_listing_rule_keeps(key: list[list[Span]], response: list[list[Span]]) -> None:
    alignment = align(_document(key), _document(response))
    chains, dropped = _as_listed(key, response)
    assert alignment.response_chains == chains
    assert alignment.removed_duplicates == dropped


@settings(max_examples=200, deadline=None)
@given(CHAINS, CHAINS)
def test_the_rule_alone_carries_its_state_from_chain_to_chain(key: list[list[Span]],
                                                              response: list[list[Span]]) -> None:
    """Twinless spans kept as None (as the counted parts keep them): the same listings kept."""
    key_id: dict[Span, int] = {}
    for span in (span for chain in key for span in chain):
        key_id.setdefault(span, len(key_id))
    rule: RepeatedSpans[None] = RepeatedSpans(key_id.get, lambda span: None)
    kept = [rule.kept(chain, index) for index, chain in enumerate(response)]
    chains, dropped = _as_listed(key, response)
    assert [[i if i < len(key_id) else None for i in chain] for chain in chains] == [c for c in kept if c]
    assert [(span, f"c{index}") for span, index in rule.dropped] == [(span, at) for span, at, _ in dropped]


@settings(max_examples=200, deadline=None)
@given(CHAINS)
def test_chains_listing_names_each_chain_listing_a_span_once_in_order(chains: list[list[Span]]) -> None:
    """`Document.chains_listing` (made linear: a span in n chains grew a tuple n times) against
    its definition."""
    listing = _document(chains).chains_listing()
    spans = {span for chain in chains for span in chain}
    assert listing == {span: tuple(i for i, chain in enumerate(chains) if span in chain) for span in spans}
    assert list(listing) == list(dict.fromkeys(span for chain in chains for span in chain))  # first listed first

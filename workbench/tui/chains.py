"""The chains view's rows: each chain of one side with how the other side treats its mentions.

Why apart from `rows.py`: a book has tens of thousands of chains, so a side's rows are built as
the view draws them (`ChainList`), from the chain ids `rows.chain_ids` keeps for the text view.
Plain data, no Textual, as every view-model.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Literal

from metrics.model import Document, MentionType, Span
from metrics.runtime.ondemand import OnDemand

from .rows import chain_ids, distinct_mentions, mention_text, mention_type


@dataclass
class ChainRow:
    """One chain of one side, with how the other side treats its mentions."""

    side: Literal["key", "response"]
    number: str
    """The chain's label in the file (`chain_ids`)."""
    mentions: list[tuple[Span, MentionType, str]]
    partners: list[str]
    """Chain ids on the other side holding its mentions (several: key chain divided / response
    chain conflating key chains)."""
    unmatched: int
    """Mentions of this chain that the other side lacks."""
    relation: str = ""
    """With one partner: "=" (the same mentions), "part of" (all of this chain's mentions are in
    the partner, which has more), "holds all of" (the partner's mentions are all here, with
    more), "overlaps" (each has mentions the other lacks); "" with none or several partners."""
    note: str = ""
    """Under the UA conventions, what the header adds: a plural entity's split antecedents."""
    notes: dict[Span, str] | None = None
    """Under the UA conventions, what a mention's line adds: its bridging link."""

    @property
    def type_counts(self) -> tuple[int, int, int]:
        counts = Counter(kind for _, kind, _ in self.mentions)
        return counts[MentionType.NAME], counts[MentionType.NOMINAL], counts[MentionType.PRONOUN]


class ChainList(OnDemand[ChainRow]):
    """One side's chains as `ChainRow`s built when first asked for, in the file's order.

    Why lazy: a book has tens of thousands of chains (1.9 s to build them all), and the chains
    view draws only the fifty lines on screen.  What the view needs of every chain to know its
    size, the number of its distinct mentions, is counted at once (`mention_counts`)."""

    def __init__(self, doc: Document, side: Literal["key", "response"], other_doc: Document,
                 types: dict[Span, MentionType]) -> None:
        self.doc, self.side, self.other_doc, self.types = doc, side, other_doc, types
        self.labels = doc.chain_labels()
        self.mention_counts = distinct_mentions(doc)
        self._built: dict[int, ChainRow] = {}
        self._other: tuple[Callable[[Span], list[str]], dict[str, list[Span]]] | None = None

    def __len__(self) -> int:
        return len(self.doc.chains)

    def _at(self, index: int) -> ChainRow:
        row = self._built.get(index)
        if row is None:
            row = self._built[index] = self._build(index)
        return row

    def _build(self, index: int) -> ChainRow:
        if self._other is None:  # the other side's ids of every span, once
            self._other = (holding_chains(self.other_doc), dict(zip(self.other_doc.chain_labels(), self.other_doc.chains)))
        holding, other_chain = self._other
        chain = self.doc.chains[index]
        partners: list[str] = []
        unmatched = 0
        mentions = []
        for span in sorted(set(chain)):
            mentions.append((span, mention_type(self.types, span), mention_text(self.doc, span, 40)))
            held = holding(span)
            if not held:
                unmatched += 1
            for partner in held or ():
                if partner not in partners:
                    partners.append(partner)
        relation = ""
        if len(partners) == 1:
            mine, theirs = set(chain), set(other_chain[partners[0]])
            relation = ("=" if mine == theirs else "part of" if mine < theirs
                        else "holds all of" if theirs < mine else "overlaps")
        return ChainRow(self.side, self.labels[index], mentions, partners, unmatched, relation)


def holding_chains(doc: Document) -> Callable[[Span], list[str]]:
    """span -> the labels of the chains of `doc` that list it (`rows.chain_ids`), looked up in the
    text view's arrays of the document's mentions (`textlayout.side_index`: tens of milliseconds
    on a book, where a dictionary of every span took a third of a second) when they hold them all."""
    from .textlayout import side_index

    words = len(doc.words)
    index = side_index(doc, words)
    if not index.complete:  # a span outside the text: the dictionary, which has every span
        ids = chain_ids(doc)
        return lambda span: ids.get(span, [])
    return lambda span: index.ids(span[0] * (words + 1) + span[1]) if 0 <= span[0] <= span[1] < words else []


def chain_rows(key: Document, response: Document, types: dict[Span, MentionType]) -> tuple[ChainList, ChainList]:
    """Key chains and response chains, each annotated with its partners on the other side
    (built as they are asked for)."""
    return ChainList(key, "key", response, types), ChainList(response, "response", key, types)



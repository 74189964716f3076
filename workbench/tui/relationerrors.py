"""Under --conventions ua, the errors of the Universal Anaphora relations (`t` cycles to it; the
list shown first under those conventions): a row per error, the counts by type beside it.

Why a panel of its own: a relation's error is about a link (a bridging anaphor and its anchor), a
markable's status (non-referring) or a plural entity's members, not about a mention and its
antecedent in a chain; its columns are the relation, the type, where, the price and the
explanation (`corefwb errors --conventions ua` prints the same).  Selecting a row emphasises the
mention in the text.
"""

from __future__ import annotations

from rich.text import Text

from metrics.errors.ua.records import KINDS, RELATIONS, UAError
from metrics.corpus.scoring import DocPair
from metrics.corpus.ua_spans import ZERO_WORD, Tokens
from metrics.measures.catalog import METRICS, NON_REFERRING, label
from metrics.mentions.ua import Position
from metrics.model import Span

from ..output import points_text
from .recordlist import RecordListPanel
from .rows import display_text

RELATION_SHORT = {"bridging": "BR", NON_REFERRING.name: "NR", "split_antecedents": "SA"}
KIND_SHORT = {"missed": "MISS", "spurious": "SPUR", "wrong_anchor": "ANCH", "wrong_relation": "REL",
              "marked_referring": "REF", "marked_non_referring": "NREF", "missing": "MISS", "extra": "XTRA",
              "wrong_members": "MEMB"}
"""The abbreviations the list and the counts show (the help spells them out)."""
FIXED = (("rel", 3), ("type", 4), ("price", 23))
TEXT = (("mention", 0.35), ("explanation", 0.65))


class RelationErrorPanel(RecordListPanel[UAError]):
    """The UA relations' errors of the current document (see the module docstring)."""

    PREFIX, TITLE = "ua", "relation errors"
    SUBTITLE = "price: F1 points the fix alone gains · t: per-mention errors · F1 legend"
    FIXED, TEXT = FIXED, TEXT

    HELP = """\
The errors of the Universal Anaphora relations (--conventions ua), as `corefwb errors
--conventions ua` lists them.  BR bridging: MISS the key's anaphor has no link in the response,
SPUR a link from a markable that is no anaphor in the key, ANCH another anchor (of the key
anchor's entity: right at entity level), REL the right anchor with another relation (the UA
scorer does not score relations: it costs nothing).  NR non-referring: REF non-referring in the
key, referring (or absent) in the response; NREF the reverse.  SA split antecedents (with
--split-antecedents keep): MISS the key's plural entity has split antecedents and its response
entity none, XTRA the reverse, MEMB both with other members.  The price: the points of corpus
F1 of each score it touches that fixing this error alone gains.  The counts box: this document's
errors per type (in compare mode A, the baseline's, beside B's).  In the text, b, a, x and r
show or hide bridging links (→), split antecedents (⊃), discourse deixis (D) and non-referring
markables (¬).  The price column: a bridging error's on the recognition, markable and entity
scores (in that order), a non-referring one's on non_referring, a split antecedent's on CoNLL;
selecting a row names every score it touches on the text's border (a toast says it whole when the
border cuts it).  `t` switches to the next list.
"""

    class Picked(RecordListPanel.Picked):
        """The cursor is on an error (jump=False) or Enter was pressed on it (jump=True)."""

    split_scored = True
    """Whether split antecedents are scored (`--split-antecedents keep`), else the counts box says
    so instead of 0s."""

    token_of: dict[Position, int] = {}
    """A position's token in the text (`token_index`): where n / p go by."""
    listing: tuple | None = None
    """What the rows are of (`set_rows`' `listing`), so that the same list asked for again (`t`
    back to it) is not set again: on the UA book, 12,759 rows and their counts took 0.3-1.4 s."""

    def set_rows(self, rows: list[UAError] | None, counts: list[tuple[str, list[UAError]]] | None = None,
                 state: str = "ready", *, split_scored: bool = True, token_of: dict[Position, int] | None = None,
                 listing: tuple | None = None) -> None:
        """`RecordListPanel.set_rows`, whether split antecedents are scored (`split_scored`), and the
        document's tokens by position (`token_of`: with zeros kept, a word's token is further on);
        `listing`: what the rows are of (None: unsaid)."""
        self.split_scored = split_scored
        self.token_of = token_of or {}
        self.listing = listing if rows is not None else None
        super().set_rows(rows, counts, state)

    def lists(self, listing: tuple) -> bool:
        """Whether the rows are already those of `listing`: then they stay (the cursor too), and
        `n` starts again from it as after `set_rows`."""
        if self.listing is None or self.listing != listing:
            return False
        self._picked = False
        return True

    def _cells(self, row: UAError) -> list[Text]:
        price = price_text(row)
        return [Text(RELATION_SHORT[row.relation]), Text(KIND_SHORT[row.kind]), Text(price, overflow="ellipsis", no_wrap=True),
                *(Text(display_text(t), overflow="ellipsis", no_wrap=True) for t in (row.mention, row.explanation))]

    def counts_text(self, systems: list[tuple[str, list[UAError]]]) -> Text:
        return counts_text(systems, self.split_scored)

    def row_span(self, row: UAError) -> tuple[int, int]:
        word = word_span(row)[0]
        token = self.token_of.get(row.words[0], word) if row.words else word
        return (token, token)


SPLIT_NOT_SCORED = "SA not scored (removed)"
"""The counts box's split-antecedent line when they are removed (the UA scorer's default): their
errors are not looked for, so a 0 there would say the response got them right."""


def counts_text(systems: list[tuple[str, list[UAError]]], split_scored: bool = True) -> Text:
    """The counts box: each type's errors, two types a line (so that the box fits the shortest
    panel), a count per system shown (compare mode: A/B, the baseline's first); without
    `split_scored`, one line saying split antecedents are not scored."""
    cells = {}
    for relation in RELATIONS:
        for kind in KINDS[relation]:
            counts = [sum(1 for e in rows if (e.relation, e.kind) == (relation, kind)) for _, rows in systems]
            cells[(relation, kind)] = "/".join(str(n) for n in counts)
    width = max(len(cell) for cell in cells.values())
    text = Text("relation errors" if len(systems) <= 1 else "errors: A/B", style="bold")
    for relation in RELATIONS:
        kinds = KINDS[relation]
        if relation == "split_antecedents" and not split_scored:
            text.append(f"\n{SPLIT_NOT_SCORED}")
            continue
        for pair in (kinds[i:i + 2] for i in range(0, len(kinds), 2)):
            line = "  ".join(f"{KIND_SHORT[k]:<4} {cells[(relation, k)]:>{width}}" for k in pair)
            text.append(f"\n{RELATION_SHORT[relation]} {line}")
    return text


def price_text(error: UAError) -> str:
    """An error's price, short: a bridging error's on its three scores (recognition, markable,
    entity), a non-referring one's on non_referring, a split antecedent's on CoNLL (the text's
    subtitle and `corefwb errors` name every metric)."""
    prices = error.price
    if "conll" in prices:
        prices = {"conll": prices["conll"]}
    return " ".join(points_text(value) for value in prices.values())


def price_names(error: UAError) -> str:
    """Every price of an error with its metric's label, short where the catalogue has one (the
    text's subtitle says them, in what its border holds)."""
    return ", ".join(f"{METRICS[metric].short or label(metric)} {points_text(value)}" for metric, value in error.price.items())


def said_of(error: UAError) -> str:
    """What the text panel's border says of a selected error: its explanation and prices."""
    return display_text(f"{error.explanation} · {price_names(error)}")


_INDEXED: dict[int, tuple[DocPair, dict[Position, int]]] = {}
"""`token_index` of the last few pairs asked for (a book's: 0.13 s, at each `t` back to the list)."""


def token_index(pair: DocPair) -> dict[Position, int]:
    """Each position of a UA pair (a word, or a zero "W.K") -> its token in the text (a zero kept
    is a token of its own; one removed has none)."""
    if pair.ua is None:
        return {}
    kept = _INDEXED.get(id(pair))
    if kept is not None and kept[0] is pair:
        return kept[1]
    document = pair.ua.document
    index = Tokens(document.key, document.response, ZERO_WORD in pair.key.words).index
    while len(_INDEXED) >= 4:
        del _INDEXED[next(iter(_INDEXED))]
    _INDEXED[id(pair)] = (pair, index)
    return index


def emphasis_of(error: UAError, index: dict[Position, int]) -> tuple[Span | None, dict[int, str], dict[Span, str]]:
    """What the text shows of a selected error, every word of each markable: the markable itself
    as the error, the key's anchor or split antecedents as the best (what it should be linked to),
    the response's as its antecedent (what it is linked to).  `index`: a position's token
    (`ua_spans.Tokens.index`); a zero that is no token is left out.  Returns the markable's span,
    each token's role and each markable's span with its role (its brackets)."""
    emphasis: dict[int, str] = {}
    roles: dict[Span, str] = {}
    for role, markables in (("best", error.key_links), ("antecedent", error.response_links), ("error", (error.words,))):
        for words in markables:
            tokens = [index[p] for p in words if p in index]
            if tokens:
                emphasis.update(dict.fromkeys(tokens, role))
                roles[(min(tokens), max(tokens))] = role
    mention = next((span for span, role in roles.items() if role == "error"), None)
    return mention, emphasis, roles


def word_span(error: UAError) -> tuple[int, int]:
    """The word an error is at, as a one-word span (its mention's first word)."""
    word = error.position[0] if error.position else 0
    return (word, word)

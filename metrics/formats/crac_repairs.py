"""What the CRAC LLM pipeline's repair did to an output: counts for `score`, a warning per mention.

Why: the pipeline repairs a model's output silently (its log is at debug level), and what it
changed is the first thing one wants to know: words the model rewrote, brackets it left open,
ids it invented.  Each document's repairs are kept here; `CracReport` sums them for `score`'s
text and JSON (`alignment`, `repairs`) and says each repaired mention as a warning naming the
file, the line (the document), the word and its text.  Two traps get a warning of their own: an
output written with the key's ids (`d1.2`: the pipeline keeps `eN` ids only, so it scores 0), and
a key with zeros scored against an output without any `##` (every zero is lost).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from metrics.mentions.characters import MIN_MATCHED
from metrics.mentions.realign import Aligned, Bracketed
from metrics.model import Node

MAX_WARNINGS = 200
"""Repaired mentions said one by one, per file; the rest are counted (a key's ids can make 30,000)."""


@dataclass
class DocumentRepairs:
    """One document's repairs, by output token (0-based in its line)."""

    name: str
    line: int
    tokens: list[str]
    key_words: int = 0
    """The key document's words it was aligned against (its empty nodes too under gold zeros)."""
    inserted: int = 0
    deleted: int = 0
    replaced: int = 0
    zeros_dropped: int = 0
    zeros_in_output: int = 0
    zeros_in_key: int = 0
    """Key mentions headed by an empty node (zeros)."""
    empties_in_key: int = 0
    """Other key mentions over an empty node (an ellipsis inside a mention)."""
    mentions: int = 0
    zeros_moved: int = 0
    """With gold zeros: key empty nodes `text2conllu -z` moved next to their parents."""
    zeros_shifted: int = 0
    """With gold zeros: cleaned tokens laid on another node than their own by those moves."""
    dropped: list[tuple[int, str, str]] = field(default_factory=list)
    """(output token, mark, why) for each mark dropped with its word or for its form."""
    unknown: int = 0
    cut: list[tuple[int, str]] = field(default_factory=list)
    closed: list[tuple[int, str]] = field(default_factory=list)
    unclosed: list[tuple[int, str]] = field(default_factory=list)
    crossing: list[tuple[str, int, int]] = field(default_factory=list)
    """Mentions the pipeline's own CoNLL-U cannot hold (across a sentence boundary): lost."""
    span_notes: dict[tuple[str, int, int], str] = field(default_factory=dict)
    """(id, first, last aligned token) of each mention a repair made, with what it did."""
    repaired: dict[tuple[Node, ...], str] = field(default_factory=dict)
    """The nodes of each mention a repair made, with what it did (the workbench marks them)."""

    def record(self, aligned: Aligned, bracketed: Bracketed, gold: list[str]) -> None:
        """What the realignment onto the key's words `gold` (with its empty nodes under gold
        zeros) and the bracket repair did, in output tokens."""
        self.inserted, self.deleted, self.replaced = len(aligned.inserted), len(aligned.deleted), len(aligned.replaced)
        self.zeros_in_output = sum(token.startswith("##") for token in self.tokens)
        trailing = [i for i in aligned.origin[bracketed.kept_tokens:] if i is not None]
        self.zeros_dropped = len(aligned.zeros_dropped) + len(trailing)
        for index in aligned.deleted:
            self._drop_marks(index, "its word was deleted")
        for index, _ in aligned.replaced:
            self._drop_marks(index, f"its word was replaced by the key's {gold[_]!r}")
        for index in [*aligned.zeros_dropped, *trailing]:
            self._drop_marks(index, "a ## before the first word or after the last is dropped")
        origin = aligned.origin
        for index in bracketed.piped:
            if origin[index] is not None:
                self._drop_marks(origin[index], "its word has two |")
        for mark, index in bracketed.unknown:
            self.unknown += 1
            self.dropped.append((origin[index] if origin[index] is not None else -1, mark, "not an eN id"))
        self.cut = [(origin[i] if origin[i] is not None else -1, mark) for mark, i in bracketed.cut]
        self.closed = [(origin[i] if origin[i] is not None else -1, eid) for eid, i in bracketed.closed]
        for eid, i in bracketed.closed:
            self.span_notes[(eid, i, i)] = f"{eid}] closed no open mention: made the one-word mention [{eid}]"
        cut = {(f"e{_digits(mark)}", i): mark for mark, i in bracketed.cut}
        for eid, first, last in bracketed.mentions:
            mark = cut.get((eid, first)) or cut.get((eid, last))
            if mark is not None:
                self.span_notes.setdefault((eid, first, last), f"mark {mark!r} read as {eid}")
        self.unclosed = [(origin[i] if origin[i] is not None else -1, eid) for eid, i in bracketed.unclosed]

    @property
    def matched(self) -> float:
        """The share of the key's words that stand in the output (neither inserted nor replaced)."""
        return (self.key_words - self.inserted - self.replaced) / self.key_words if self.key_words else 1.0

    def _drop_marks(self, index: int, why: str) -> None:
        parts = self.tokens[index].split("|", 1)
        if len(parts) == 2 and parts[1]:
            for mark in parts[1].split(","):
                self.dropped.append((index, mark, why))

    def word(self, index: int) -> str:
        """'word 12 'Spain'' for messages (the output's word, marks stripped)."""
        if index < 0:
            return "an inserted word"
        return f"word {index + 1} {self.tokens[index].split('|')[0]!r}"

    def warnings(self, path: str) -> list[str]:
        """One line per repaired mention and dropped mark, in the output's order."""
        where = f"{path}:{self.line}: document {self.name!r}"
        out = [(i, f"{where}, {self.word(i)}: {eid}] closes no open mention; scored as the one-word mention [{eid}]")
               for i, eid in self.closed]
        out += [(i, f"{where}, {self.word(i)}: [{eid} is never closed in its sentence; the mention is lost")
                for i, eid in self.unclosed]
        out += [(i, f"{where}, {self.word(i)}: mark {mark!r} dropped ({why})") for i, mark, why in self.dropped]
        out += [(i, f"{where}, {self.word(i)}: mark {mark!r} read up to its id's digits (the rest ignored)")
                for i, mark in self.cut]
        out += [(first, f"{where}, {self.word(first)}: the mention of {eid} crosses a sentence boundary "
                        f"(a ## opening a sentence belongs to the one before); lost") for eid, first, _ in self.crossing]
        return [message for _, message in sorted(out, key=lambda item: item[0])]


def _digits(mark: str) -> str:
    """The id's number of a mark read up to its digits (`[e1.2` gives 1)."""
    number = mark.lstrip("[").removeprefix("e")
    return number[:len(number) - len(number.lstrip("0123456789"))]


@dataclass
class CracReport:
    """A file's repairs: the sums `score` prints and the warnings it says."""

    path: str
    fmt: str
    zeros: str = "free"
    """`free` or `gold` (`metrics.formats.detection.ZERO_MODES`)."""
    documents: list[DocumentRepairs] = field(default_factory=list)

    def total(self, name: str) -> int:
        return sum(getattr(d, name) if isinstance(getattr(d, name), int) else len(getattr(d, name))
                   for d in self.documents)

    def to_json(self) -> dict:
        """`alignment` (words) and `repairs` (brackets, mentions), as `score --format json` gives them;
        with gold zeros, `alignment` says so and counts the moved empty nodes and shifted tokens."""
        gold = {"zeros": "gold", "zeros_moved": self.total("zeros_moved"),
                "tokens_shifted": self.total("zeros_shifted")} if self.zeros == "gold" else {}
        return {"alignment": {**gold, "format": self.fmt, "documents": len(self.documents), "inserted": self.total("inserted"),
                              "deleted": self.total("deleted"), "replaced": self.total("replaced"),
                              "zeros_dropped": self.total("zeros_dropped")},
                "repairs": {"brackets_dropped": self.total("dropped"), "unknown_ids": self.total("unknown"),
                            "ids_cut": self.total("cut"),
                            "brackets_closed": self.total("closed"), "lost_mentions": self.total("unclosed") + self.total("crossing"),
                            "mentions": self.total("mentions")}}

    def describe(self) -> str:
        """The counts in one line, first in `score`'s text."""
        a, r = self.to_json()["alignment"], self.to_json()["repairs"]
        return (f"realigned onto the key's words as the CRAC LLM pipeline does: {a['inserted']} words inserted, "
                f"{a['deleted']} deleted, {a['replaced']} replaced, {a['zeros_dropped']} ## dropped; "
                f"brackets: {r['brackets_dropped']} dropped ({r['unknown_ids']} not eN ids), {r['brackets_closed']} "
                f"closed as one-word mentions; {r['lost_mentions']} mentions lost, {r['mentions']} built"
                + (f"; gold zeros (-z): {a['zeros_moved']} empty nodes moved, {a['tokens_shifted']} tokens laid on "
                   f"another node" if self.zeros == "gold" else "") + "\n")

    def warnings(self) -> list[str]:
        """The traps first, then each repaired mention (at most MAX_WARNINGS, then a count)."""
        out = []
        unknown, mentions = self.total("unknown"), self.total("mentions")
        if unknown and mentions == 0:
            out.append(f"{self.path}: every mark uses ids that are not eN ({unknown} marks, e.g. "
                       f"{self._first_unknown()!r}): the pipeline drops them all, so everything scores 0. The key's own "
                       f"CorefUD ids are not kept: write the output with ids e1, e2 ... (conllu2text --sequential_ids, "
                       f"corefwb convert --sequential-ids)")
        elif unknown:
            marks = "1 mark uses an id that is" if unknown == 1 else f"{unknown} marks use ids that are"
            out.append(f"{self.path}: {marks} not eN (e.g. {self._first_unknown()!r}); "
                       f"the pipeline drops them")
        out += self._gold_zeros()
        out += self._other_texts()
        zeros, over = self.total("zeros_in_key"), self.total("empties_in_key")
        if (zeros or over) and not self.total("zeros_in_output"):
            out.append(f"{self.path}: the key has {zeros} zero mentions and {over} more mentions over empty nodes, but "
                       f"the output has no ## token: every zero is lost, and every empty node of a mention (write "
                       f"them as ## tokens: conllu2text --zero_mentions, corefwb convert --zero-mentions)")
        each = [line for d in self.documents for line in d.warnings(self.path)]
        out += each[:MAX_WARNINGS]
        if len(each) > MAX_WARNINGS:
            out.append(f"{self.path}: {len(each) - MAX_WARNINGS} more repaired mentions and dropped marks not listed "
                       f"(their counts are in the scores' header)")
        return out

    def _gold_zeros(self) -> list[str]:
        """With gold zeros, the two ways `-z` loses marks, said in plain words."""
        if self.zeros != "gold":
            return []
        out = []
        lost = sum(1 for d in self.documents for i, _, why in d.dropped
                   if i >= 0 and d.tokens[i].startswith("##") and ("replaced" in why or "deleted" in why))
        if lost:
            out.append(f"{self.path}: with gold zeros (clean -z) a ## token is aligned against the key empty node's "
                       f"form, which it never equals: {lost} marks on ## tokens are lost with it")
        for d in self.documents:
            if d.zeros_shifted:
                out.append(f"{self.path}:{d.line}: document {d.name!r}: text2conllu -z moved {d.zeros_moved} empty "
                           f"nodes next to their parents and lays the tokens by position, so {d.zeros_shifted} tokens' "
                           f"marks land on a neighbouring node (scored as the pipeline scores them)")
        return out

    def _other_texts(self) -> list[str]:
        """A line that is not its document's output, said in plain words: an empty answer, a line
        repeated, the documents in another order (lines pair with the key's documents by position,
        and the pipeline aligns whatever stands there; its hundreds of dropped marks would say it
        only mark by mark).  Fewer than half the key's words standing in the line (`MIN_MATCHED`,
        as for a response mapped by characters) is another text."""
        out, seen = [], {}
        for d in self.documents:
            where = f"{self.path}:{d.line}: document {d.name!r}"
            earlier = seen.setdefault(tuple(d.tokens), d.line) if d.tokens else d.line
            if not d.tokens:
                out.append(f"{where}: its line is empty (no answer): scored as an output without mentions")
            elif d.matched < MIN_MATCHED and earlier != d.line:  # (a key may hold one text twice)
                out.append(f"{where}: its line repeats line {earlier} word for word: lines pair with the key's "
                           f"documents by position (only {d.matched:.1%} of this document's words stand in it)")
            elif d.matched < MIN_MATCHED:
                out.append(f"{where}: only {d.matched:.1%} of its {d.key_words} words stand in this line: the output of "
                           f"another document? Lines pair with the key's documents by position")
        return out

    def _first_unknown(self) -> str:
        return next((mark for d in self.documents for _, mark, why in d.dropped if why == "not an eN id"), "")

"""View-models of the workbench: plain data computed from the engine's results, no Textual.

Why a separate module: everything the screen shows (the bracketed text of a document, the chain
comparison, the rows of the tables, the error counts) is computed here from `metrics` objects, so it
can be unit-tested without a terminal, and the widgets only draw what they are given ("attributes
down, messages up").  Text from input files stays plain `str` here; the widgets turn it into styled
`rich.text.Text` / `Strip`s, never into markup.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Literal, Sequence

from rich.cells import cell_len

from metrics.measures.catalog import CATALOG, CONLL
from metrics.errors.chen_ng.records import Category, ErrorRecord, Mention
from metrics.model import Document, MentionType, Span
from ..output import shown_document as short_name  # a document's name on screen: the text views' one rule
from ..output import fitted_percent, visible

if TYPE_CHECKING:
    from ..comparison import Change

Side = Literal["key", "response", "both"]
MODES: tuple[Side, ...] = ("key", "response", "both")


# ---------------------------------------------------------------------------------------- mentions

def display_text(text: str) -> str:
    """Input text made safe to draw: every control character a visible symbol (`output.visible`)."""
    return visible(text)


def chain_ids(doc: Document) -> dict[Span, list[str]]:
    """Every span of a document -> the ids of the chains that hold it (usually one).

    A chain's id is its label in the file (`Document.chain_labels`: `(3)` is chain 3, a jsonlines
    cluster its 0-based index), the number `corefwb errors`, K&K and every export give it too, so
    a user can look it up in the file.  A span in two chains (it happens in real system output)
    keeps both ids, so the screen shows it.  Kept for the last documents asked about (the text
    view and the chains view both need it: a book's takes a tenth of a second); read-only.
    """
    return _listed(doc)[1]


def distinct_mentions(doc: Document) -> list[int]:
    """The number of distinct spans of each chain of a document (a span listed twice in one chain
    counts once, as the chains view lists it)."""
    return [len(set(chain)) for chain in doc.chains]


_LISTED: dict[int, tuple[Document, dict[Span, tuple[int, ...]], dict[Span, list[str]]]] = {}
"""id(document) -> (the document, its chains listing, its chain ids), for the last few documents."""


def _listed(doc: Document) -> tuple[dict[Span, tuple[int, ...]], dict[Span, list[str]]]:
    kept = _LISTED.get(id(doc))
    if kept is None or kept[0] is not doc:
        labels = doc.chain_labels()
        listing = doc.chains_listing()
        kept = (doc, listing, {span: [labels[index] for index in held] for span, held in listing.items()})
        while len(_LISTED) >= 6:  # a key and a few responses: the documents on screen
            del _LISTED[next(iter(_LISTED))]
        _LISTED[id(doc)] = kept
    return kept[1], kept[2]


_ANY_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
"""What `display_text` changes (control characters)."""
WORD_SEPARATOR = "\ue000"
"""A private-use character `display_text` leaves alone, to make a document's words safe in one call."""


def display_words(words: Sequence[str]) -> list[str]:
    """`display_text` of every word, translated as one string (a book's 300,000 words one by one
    cost a third of laying out its text); one by one when a word holds the separator."""
    joined = WORD_SEPARATOR.join(words)
    if joined.count(WORD_SEPARATOR) != max(len(words) - 1, 0):
        return [display_text(word) for word in words]
    if not _ANY_CONTROL.search(joined):  # the usual text: nothing to translate (a scan in C)
        return list(words)
    return display_text(joined).split(WORD_SEPARATOR) if words else []


def mention_type(types: dict[Span, MentionType], span: Span) -> MentionType:
    """The engine types every mention; NOMINAL only guards a span it did not see."""
    return types.get(span, MentionType.NOMINAL)


def mention_text(doc: Document, span: Span, limit: int = 60) -> str:
    """The words of a span, shortened in the middle when long."""
    start, end = span
    text = display_text(" ".join(doc.words[start : end + 1]))
    if len(text) > limit:
        half = (limit - 3) // 2
        text = text[:half] + "..." + text[-half:]
    return text


REPAIRED, REPAIR_MARK = "repaired", "*"
"""The tint and the label mark of a mention a reader repaired to make it (a CRAC LLM-track
output's `Document.repaired`), drawn as a change is in compare mode."""


def label_marks() -> dict[str, str]:
    """Change -> the mark that ends a changed mention's label: compare mode's (`comparison.
    CHANGE_MARKS`) and a repaired mention's (`REPAIR_MARK`)."""
    from ..comparison import CHANGE_MARKS

    return {**CHANGE_MARKS, REPAIRED: REPAIR_MARK}


@dataclass(frozen=True)
class Marked:
    """One mention as drawn in the text: its span, type, the label shown after its bracket, and
    in compare mode how its error changed from the baseline to the compared system."""

    span: Span
    type: MentionType | None
    """None: drawn untyped (a UA relation's markable that is no chain's mention)."""
    label: str
    change: str | None = None
    pieces: tuple[Span, ...] = ()
    """A discontinuous mention's pieces (CorefUD), each bracketed with the label; () for one piece."""

    @property
    def runs(self) -> tuple[Span, ...]:
        return self.pieces or (self.span,)


def _sides(key: Document, response: Document, other: Document | None, mode: Side) -> list[Document]:
    """The documents whose chain ids a mode labels, in label order."""
    if mode == "key":
        return [key]
    responses = [response] if other is None else [response, other]
    return responses if mode == "response" else [key, *responses]


# ------------------------------------------------------------------------------------ text layout

Role = Literal["word", "open", "close", "space"]


@dataclass(frozen=True)
class Atom:
    """A run of characters of one role.  `type` is the mention type it belongs to (None: plain),
    `span` the mention a bracket belongs to, `token` the token a word is."""

    text: str
    role: Role
    type: MentionType | None = None
    span: Span | None = None
    token: int = -1
    change: str | None = None
    """Compare mode: the change of the error of the mention it belongs to (the text tints it)."""


@dataclass
class TextLayout:
    """A document's bracketed text wrapped to a width: display lines of atoms, and per token its line."""

    lines: list[list[Atom]]
    token_line: list[int]
    width: int


def token_units_between(words: Sequence[str], marks: Sequence[Marked], first: int, last: int) -> list[list[Atom]]:
    """The units of tokens [first, last) of a text whose words, as drawn, are `words`: one
    unbreakable unit per token, its opening brackets, the word, its closing brackets and labels.
    Openings outermost first (longer span first), closings innermost first, so nesting reads
    `[[Byron]N1 's mother]M2`.  The word is coloured by its innermost mention's type.  Each piece
    of a discontinuous mention is bracketed and labelled: `[the man]M1 , he said , [who left]M1`.
    The text view lays out a book a block at a time (`textlayout`), each block exactly as the whole
    (tests/text_reference.py's `token_units`, the whole text's, is this over every token).
    A mention is bracketed when it lies within the text; of one reaching past the range, only
    what falls inside it is drawn.  Of two mentions of one length over a token, the later
    colours it (a rule, so that a block and the whole agree)."""
    total = len(words)
    n = last - first
    opens: list[list[Marked]] = [[] for _ in range(n)]
    closes: list[list[Marked]] = [[] for _ in range(n)]
    innermost: list[Marked | None] = [None] * n
    runs = [(start, end, mark) for mark in marks for start, end in mark.runs if 0 <= start <= end < total]
    for start, end, mark in runs:
        if first <= start < last:
            opens[start - first].append(mark)
        if first <= end < last:
            closes[end - first].append(mark)
    for start, end, mark in sorted(runs, key=lambda run: (run[2].span[0] - run[2].span[1], run[2].span)):  # longest first
        for token in range(max(start, first), min(end, last - 1) + 1):
            innermost[token - first] = mark
    units = []
    for index, word in enumerate(words[first:last]):
        unit = []
        opening, closing = opens[index], closes[index]  # most tokens open and close nothing: no sort
        for mark in sorted(opening, key=lambda m: -m.span[1]) if len(opening) > 1 else opening:
            unit.append(Atom("[", "open", mark.type, mark.span, change=mark.change))
        inner = innermost[index]
        unit.append(Atom(word, "word", inner.type if inner else None, inner.span if inner else None, first + index,
                         inner.change if inner else None))
        for mark in sorted(closing, key=lambda m: -m.span[0]) if len(closing) > 1 else closing:
            unit.append(Atom("]" + mark.label, "close", mark.type, mark.span, change=mark.change))
        units.append(unit)
    return units


LABEL_BREAKS = "/,+⊃→:"
"""Where a label wider than a line breaks: after a separator of its parts, never inside a number."""


JOINING = ("\u200d", "\ufe0f")
"""The zero width joiner and variation selector 16: with either, a text's width is not the sum of
its characters' (`rich.cells.cell_len`)."""


def _split_atom(atom: Atom, width: int) -> list[Atom]:
    """Hard-split an atom wider than a line into line-sized pieces: a 10,000-character token
    anywhere, a label (a closing bracket's) after its last separator that fits (`LABEL_BREAKS`).

    The piece's width is kept as it grows, a character's at a time, where a text's width is the
    sum of its characters' (no `JOINING` character): measuring the piece again at each character
    was quadratic (a UA book's 620 split labels, 280 cells each: 1.8 s of its first layout)."""
    text = atom.text
    additive = not any(joining in text for joining in JOINING)
    pieces, current, used = [], "", 0
    for char in text:
        cells = cell_len(char) if additive else 0
        while current and ((used + cells) if additive else cell_len(current + char)) > width:
            cut = (max(current.rfind(mark) for mark in LABEL_BREAKS) + 1 if atom.role == "close" else 0) or len(current)
            pieces.append(current[:cut])
            current = current[cut:]
            used = cell_len(current) if additive else 0
        current += char
        used += cells
    pieces.append(current)
    return [Atom(piece, atom.role, atom.type, atom.span, atom.token, atom.change) for piece in pieces]


def wrap_units(units: list[list[Atom]], sentence_starts: Iterable[int], width: int) -> TextLayout:
    """Greedy word wrap of the token units to `width` cells; each sentence starts a new line."""
    width = max(width, 8)
    starts = set(sentence_starts)
    lines: list[list[Atom]] = []
    token_line = [0] * len(units)
    line: list[Atom] = []
    used = 0
    for token, unit in enumerate(units):
        unit_width = sum(cell_len(atom.text) for atom in unit)
        if line and (token in starts or used + 1 + unit_width > width):
            lines.append(line)
            line, used = [], 0
        if line:
            line.append(Atom(" ", "space"))
            used += 1
        token_line[token] = len(lines)
        for atom in unit:
            atom_width = cell_len(atom.text)
            if used + atom_width <= width:
                line.append(atom)
                used += atom_width
                continue
            for piece in _split_atom(atom, width):
                piece_width = cell_len(piece.text)
                if line and used + piece_width > width:
                    lines.append(line)
                    line, used = [], 0
                line.append(piece)
                used += piece_width
    if line or not lines:
        lines.append(line)
    return TextLayout(lines, token_line, width)


# ---------------------------------------------------------------------------------------- errors

def type_explanation(doc: Document, typed: dict[Span, tuple[MentionType, str]], mention: Mention,
                     width: int | None = None) -> str:
    """Why a mention has its type, for a user who doubts it: the type, the rule that decided it
    (`metrics.mentions.types`) and the head token that rule looked at (with its tag, if any).
    The mention's own words come last, shortened (to 40 characters, and to what leaves the whole
    within `width` cells, the border's room: never a cut in the middle of the rest)."""
    from metrics.mentions.heads import head_of

    found = typed.get(mention.span)
    if found is None:
        prefix = mention.type.name
    else:
        kind, rule = found
        start, end = mention.span
        if not 0 <= start <= end < len(doc.words):
            prefix = f"{kind.name} by rule {rule}:"
        else:
            head, source = head_of(doc, mention.span)
            tag = f"/{display_text(doc.pos[head])}" if doc.pos else ""
            prefix = f'{kind.name} by rule {rule}, {source} head "{display_text(doc.words[head])}"{tag}:'
    words = display_text(mention.text)
    room = 40 if width is None else min(40, width - cell_len(prefix) - 3)  # a space and two quotes
    if room < min(len(words), 4):
        return prefix.removesuffix(":")
    keep = room if width is None else room - 1  # the ellipsis inside the room given
    return f'{prefix} "{words[:keep]}…"' if len(words) > room else f'{prefix} "{words}"'


def filter_errors(rows: Sequence[ErrorRecord], category: Category | None, kind: MentionType | None,
                  by_impact: bool) -> list[ErrorRecord]:
    """Errors of one category / mention type (None: all), by impact (largest loss first) or in text order."""
    if category is None and kind is None:  # a copy, not a test per row (a book's list: 50 ms a fill)
        out = list(rows)
    else:
        out = [row for row in rows
               if (category is None or row.category == category) and (kind is None or row.mention.type == kind)]
    if by_impact:
        out.sort(key=lambda row: (-abs(row.impact) if row.impact is not None else 0.0, row.mention.span))
    return out


SCORE_WIDTH = 6
"""Cells of a score in the workbench's tables: `61.01` and the blank before it."""
DELTA_WIDTH = 7
"""Cells of a change of F1 in points with the scores' two decimals (`output.fitted_points`), as
`corefwb compare` writes it: ` -32.07`, its sign and the blank before it (` -100.0` past 100)."""
LISTED_SCORE = f"{CONLL.label} F1"
"""The score under each system's name in the lists of compare mode and of a CRAC run (documents,
datasets), which their headers or titles name: the headers are the systems' names alone."""


def percent(value: float | None) -> str:
    """A fraction as a percentage in `SCORE_WIDTH` columns, with the CLI's decimals where they fit
    (`output.fitted_percent`, the one rule); "" for no value."""
    return "" if value is None else fitted_percent(value, SCORE_WIDTH)


@dataclass
class ScoreLine:
    metric: str
    label: str
    document: Any
    corpus: Any


def score_lines(document: dict[str, Any] | None, corpus: dict[str, Any] | None) -> list[ScoreLine]:
    """The metrics to list, in catalogue order, for whichever the engine computed."""
    document, corpus = document or {}, corpus or {}
    # a single-valued metric's value is its F column: its label says so (`ACE-value` -> `ACE F=value`)
    return [ScoreLine(m.name, m.short or (f"{m.label.split('-')[0]} F=value" if m.single else m.label),
                      document.get(m.name), corpus.get(m.name))
            for m in CATALOG if m.name in document or m.name in corpus]


@dataclass
class Selection:
    """What the text view emphasises: the selected error's mention and its antecedents."""

    mention: Span | None = None
    antecedent: Span | None = None
    best: Span | None = None
    emphasis: dict[int, str] = field(default_factory=dict)

    @classmethod
    def of(cls, row: ErrorRecord | Change | None) -> "Selection":
        """The emphasis of an error record (or of a compare-mode change, which reads as one)."""
        if row is None:
            return cls()
        emphasis: dict[int, str] = {}
        parts = (("best", row.best_antecedent), ("antecedent", row.antecedent), ("error", row.mention))
        for role, ref in parts:
            if ref is not None:
                for token in range(ref.span[0], ref.span[1] + 1):
                    emphasis[token] = role
        return cls(
            row.mention.span,
            row.antecedent.span if row.antecedent else None,
            row.best_antecedent.span if row.best_antecedent else None,
            emphasis,
        )

    def role_of_span(self, span: Span | None) -> str | None:
        if span is None:
            return None
        if span == self.mention:
            return "error"
        if span == self.antecedent:
            return "antecedent"
        if span == self.best:
            return "best"
        return None


def group_errors(rows: Iterable[ErrorRecord]) -> dict[str, list[ErrorRecord]]:
    out: dict[str, list[ErrorRecord]] = defaultdict(list)
    for row in rows:
        out[row.document].append(row)
    return dict(out)


def fit_status(line: str, width: int, name: str, cuts: Sequence[tuple[str, str]]) -> str:
    """The status line within `width` cells: each of `cuts` (a part of the line, its shorter form)
    made while the line is too long, then the document's `name` cut with an ellipsis, so that what
    follows the name (the scores, the filter, the warnings count) is never cut off at the edge."""
    for part, shorter in cuts:
        if cell_len(line) <= width:
            return line
        if part:
            line = line.replace(part, shorter, 1)
    excess, start = cell_len(line) - width, line.find(name)
    if excess > 0 and start >= 0 and len(name) > excess + 1:
        line = line[:start] + name[:len(name) - excess - 1] + "…" + line[start + len(name):]
    return line

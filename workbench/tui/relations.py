"""Under --conventions ua, the Universal Anaphora relations in the text and chains views: plain
data, no Textual (a view-model, as `rows.py`).

Each relation has a glyph and a key that shows or hides it (the text panel's legend lists them):

- bridging (`b`): the anaphor's label ends in `→` the anchor's entity and the relation,
  `[the door]M4→2:part-of` (in "both", key/response when they differ: `→2:part-of/-`);
- split antecedents (`a`): each mention of a plural entity ends in `⊃` its member entities,
  `[They]P9⊃3+5` (in "both" when they differ: `⊃3+5/3`, `⊃-/3+5`);
- discourse deixis (`x`): each discourse-deixis markable is bracketed with its chain, `[that]D1`
  (key/response in "both": `D1/-`);
- non-referring (`r`): each non-referring markable is bracketed with `¬` (in "both": `¬` on both
  sides, `¬key` or `¬resp` on one).

Labels are data, never markup; meaning never by colour alone (the glyphs say it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from metrics.corpus.ua_spans import Relations, TokenSpans, deixis_label
from metrics.measures.catalog import NON_REFERRING
from metrics.model import Document, MentionType, Span

from .chains import ChainList, ChainRow, chain_rows
from .rows import Marked, Side, mention_text, mention_type

NR = NON_REFERRING.name
"""The non-referring relation: named as the catalogue names its score."""
RELATIONS = ("bridging", "split", "deixis", NR)
"""The relations the views can show, in legend order."""
GLYPHS = {"bridging": "→", "split": "⊃", "deixis": "D", NR: "¬"}
KEYS = {"bridging": "b", "split": "a", "deixis": "x", NR: "r"}
NAMES = {"bridging": "bridging", "split": "split antecedents", "deixis": "discourse deixis",
         NR: NON_REFERRING.label.lower()}
SHORT_NAMES = {"bridging": "bridging", "split": "split", "deixis": "deixis", NR: "non-ref"}


def legends(shown: frozenset[str]) -> tuple[str, ...]:
    """The text panel's legends under the UA conventions, longest first: each relation's key,
    glyph and name, `off` for a hidden one."""
    def part(relation: str, names: dict[str, str]) -> str:
        state = names[relation] if relation in shown else "off"
        return f"{KEYS[relation]} {GLYPHS[relation]} {state}"

    long = "  ".join(part(r, NAMES) for r in RELATIONS)
    short = "  ".join(part(r, SHORT_NAMES) for r in RELATIONS)
    tiny = " ".join(f"{KEYS[r]}{GLYPHS[r] if r in shown else '-'}" for r in RELATIONS)
    return (f"N M P  {long}", long, f"N M P  {short}", short, tiny)


def chains_legends(shown: frozenset[str]) -> tuple[tuple[str, ...], ...]:
    """The chains view's legends, longest first: each relation's part (key, glyph, name, `off`
    when hidden), which the view joins into one column's border or shares between its two."""
    def part(relation: str, names: dict[str, str]) -> str:
        return f"{KEYS[relation]} {GLYPHS[relation]} {names[relation] if relation in shown else 'off'}"

    return (tuple(part(r, NAMES) for r in RELATIONS), tuple(part(r, SHORT_NAMES) for r in RELATIONS),
            tuple(f"{KEYS[r]}{GLYPHS[r] if r in shown else '-'}" for r in RELATIONS))


@dataclass(frozen=True)
class Overlay:
    """What the relations add to the text of one document pair: more bracketed markables, and
    label endings for mentions already bracketed (`textlayout.TextMarks` places them; the whole
    document's brute force is tests/text_reference.py's `overlaid`)."""

    marks: tuple[Marked, ...]
    endings: dict[Span, str]


def _sides(spans: TokenSpans, mode: Side) -> list[Relations]:
    if mode == "key":
        return [spans.key_relations]
    if mode == "response":
        return [spans.response_relations]
    return [spans.key_relations, spans.response_relations]


def _joined(values: list[str]) -> str:
    """One value per side: once when the sides agree, else key/response with `-` for none."""
    if len(values) > 1 and len(set(values)) == 1:
        return values[0]
    return "/".join(value or "-" for value in values)


def overlay(spans: TokenSpans, mode: Side, shown: frozenset[str]) -> Overlay:
    """The relations of a pair in a view mode ("key", "response" or "both"), those `shown` only."""
    sides = _sides(spans, mode)
    endings: dict[Span, dict[str, list[str]]] = {}

    def end(span: Span, relation: str, side: int, text: str) -> None:
        values = endings.setdefault(span, {}).setdefault(relation, [""] * len(sides))
        values[side] = text

    marks: list[Marked] = []
    if "bridging" in shown:
        for i, relations in enumerate(sides):
            for bridge in relations.bridges:
                end(bridge.anaphor.span, "bridging", i,
                    bridge.anchor.entity + (f":{bridge.relation}" if bridge.relation else ""))
    if "split" in shown:
        for i, relations in enumerate(sides):
            for plural in relations.plurals:
                for span in dict.fromkeys(relations.entity_spans(plural.entity)):
                    end(span, "split", i, "+".join(plural.members))
    texts = {span: "".join(GLYPHS[relation] + _joined(values) for relation, values in by_relation.items())
             for span, by_relation in endings.items()}
    if "deixis" in shown:
        labels: dict[Span, list[str]] = {}
        pieces: dict[Span, tuple[Span, ...]] = {}
        for i, relations in enumerate(sides):
            for entity, markables in relations.deixis:
                for m in markables:
                    labels.setdefault(m.span, [""] * len(sides))[i] = deixis_label(entity)
                    pieces.setdefault(m.span, m.pieces)
        for span, values in labels.items():
            marks.append(Marked(span, None, _joined(values), pieces=pieces[span]))
    if NR in shown:
        held: dict[Span, list[bool]] = {}
        for i, relations in enumerate(sides):
            for m in relations.non_referring:
                held.setdefault(m.span, [False] * len(sides))[i] = True
        for span, where in held.items():
            label = "¬" if all(where) else "¬key" if where[0] else "¬resp"
            marks.append(Marked(span, None, label))
    return Overlay(tuple(marks), texts)


class RelationChains(Sequence[ChainRow]):
    """Under the UA conventions, one side's chains with its relations: the identity chains (a
    plural entity's header names its split antecedents, a bridging anaphor's line its anchor),
    then the discourse-deixis chains (`D1`) and the non-referring markables (`¬`), each relation
    as `shown` says."""

    def __init__(self, chains: ChainList, relations: Relations, types: dict[Span, MentionType],
                 shown: frozenset[str]) -> None:
        self.chains = chains
        self.notes: dict[Span, str] = {}
        if "bridging" in shown:
            for bridge in relations.bridges:
                self.notes[bridge.anaphor.span] = (f"→ {chains.side[0].upper()}{bridge.anchor.entity}"
                                                   + (f" {bridge.relation}" if bridge.relation else ""))
        self.plural = {p.entity: "⊃ split antecedents " + " ".join(f"{chains.side[0].upper()}{m}" for m in p.members)
                       for p in relations.plurals} if "split" in shown else {}
        doc = chains.doc
        self.extra: list[ChainRow] = []
        if "deixis" in shown:
            for entity, markables in relations.deixis:
                self.extra.append(ChainRow(chains.side, deixis_label(entity), _mentions(doc, markables, types), [], 0,
                                           note="discourse deixis"))
        if NR in shown and relations.non_referring:
            self.extra.append(ChainRow(chains.side, "¬", _mentions(doc, relations.non_referring, types), [], 0,
                                       note="non-referring markables"))
        self.mention_counts = [*chains.mention_counts, *(len(row.mentions) for row in self.extra)]

    def __len__(self) -> int:
        return len(self.chains) + len(self.extra)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if index >= len(self.chains):
            return self.extra[index - len(self.chains)]
        row = self.chains[index]
        notes = {span: self.notes[span] for span, _, _ in row.mentions if span in self.notes}
        note = self.plural.get(row.number, "")
        return replace(row, note=note, notes=notes) if notes or note else row


def _mentions(doc: Document, markables, types: dict[Span, MentionType]) -> list[tuple[Span, MentionType, str]]:
    return [(m.span, mention_type(types, m.span), mention_text(doc, m.span, 40))
            for m in sorted(dict.fromkeys(markables), key=lambda m: m.span)]


def relation_chains(spans: TokenSpans, types: dict[Span, MentionType], shown: frozenset[str]
                    ) -> tuple[RelationChains, RelationChains]:
    """Key and response chains with their relations (`RelationChains`)."""
    key, response = chain_rows(spans.key, spans.response, types)
    return (RelationChains(key, spans.key_relations, types, shown),
            RelationChains(response, spans.response_relations, types, shown))

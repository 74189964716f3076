"""The errors of the UA relations in a scored corpus (`UAResult`), each explained and priced.

- bridging: `missed` (the key's anaphor has no link in the response), `spurious` (a response
  link from a markable that is no anaphor in the key), `wrong_anchor` (the anchor is another
  markable: of the key anchor's entity, which the entity-level score accepts, or of another
  entity), `wrong_relation` (the right anchor, another relation; the UA scorer does not score
  relations, so it costs nothing);
- non-referring: `marked_referring` (the key's non-referring markable is referring in the
  response, or absent), `marked_non_referring` (the reverse);
- split antecedents: `missing` (the key's plural entity has split antecedents, its response
  entity none), `extra` (the reverse), `wrong_members` (both have them, with other members).

The price of an error is what fixing it alone would change, in points of F1, of each corpus score
it touches: the bridging scores, non_referring, or the coreference metrics (a fixed split
antecedent rescores its document; the metrics over whole documents, also under
--only-split-antecedents).  A positive price is a gain.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from metrics.corpus.ua import BRIDGING, ScoredDocument, UAResult, names
from metrics.measures import ua as coref
from metrics.measures import ua_relations as relations
from metrics.measures.catalog import NON_REFERRING
from metrics.measures.score import AnyScore, Score
from metrics.mentions.ua import (AnyMention, Mention, Position, SplitAntecedent, UADocument, non_referring_entity,
                                 position_order)
from metrics.mentions.ua_align import cluster_index

RELATIONS = ("bridging", NON_REFERRING.name, "split_antecedents")
KINDS = {"bridging": ("missed", "spurious", "wrong_anchor", "wrong_relation"),
         NON_REFERRING.name: ("marked_referring", "marked_non_referring"),
         "split_antecedents": ("missing", "extra", "wrong_members")}


@dataclass(frozen=True)
class UAError:
    relation: str
    kind: str
    document: str
    mention: str
    """Where: the anaphor, markable or plural entity's first mention, as `first-last 'words'`."""
    explanation: str
    price: dict[str, float] = field(default_factory=dict)
    """Corpus score -> points of F1 gained by fixing this error alone."""
    position: tuple = ()
    """Sort key: the mention's place in the document."""
    words: tuple[Position, ...] = ()
    """The positions of the markable the error is about (the anaphor, the non-referring markable,
    the plural entity's first mention), so that a view can show all of it."""
    key_links: tuple[tuple[Position, ...], ...] = ()
    """The markables the key relates it to: the key's anchor, the key's split antecedents'
    mentions (what it should be linked to)."""
    response_links: tuple[tuple[Position, ...], ...] = ()
    """The markables the response relates it to: its anchor, its split antecedents' mentions."""

    def to_json(self) -> dict:
        return {"relation": self.relation, "type": self.kind, "document": self.document, "mention": self.mention,
                "explanation": self.explanation, "price": self.price}


def text_of(doc: UADocument, m: AnyMention) -> str:
    """A mention as messages show it: 1-based word numbers and its words."""
    if isinstance(m, SplitAntecedent):
        firsts = sorted((member[0] for member in m.members if member), key=Mention.order)
        return "{" + "; ".join(text_of(doc, first) for first in firsts) + "}"
    words = [doc.zeros.get(w, "") if isinstance(w, str) else doc.words[w] for w in m.words]
    first, last = m.words[0], m.words[-1]
    where = str(first if isinstance(first, str) else first + 1)
    if last != first:
        where += f"-{last if isinstance(last, str) else last + 1}"
    text = " ".join(words)
    return f"{where} {text[:60] + '...' if len(text) > 60 else text!r}"


def _words(*mentions: Mention | None) -> tuple[tuple[Position, ...], ...]:
    """The positions of each mention given (None: none there)."""
    return tuple(m.words for m in mentions if m is not None)


def _member_words(split: SplitAntecedent | None) -> tuple[tuple[Position, ...], ...]:
    """The positions of every mention of split antecedents' members (in text order)."""
    if split is None:
        return ()
    return tuple(sorted({m.words for member in split.members for m in member}, key=lambda w: position_order(w[0])))


def _after(total: AnyScore, old: Score, new: Score) -> Score:
    """The corpus total with one document's counts `old` replaced by `new`."""
    if not isinstance(total, Score):
        raise TypeError(f"a relation's corpus score has counts: {type(total).__name__}")
    return Score(*(t - o + n for t, o, n in zip(total.counts(), old.counts(), new.counts())))


def _points(before: AnyScore, after: AnyScore) -> float:
    return round((after.f1 - before.f1) * 100, 10)


def find_errors(result: UAResult) -> list[UAError]:
    """Every error of every document, document by document in the key's order."""
    out: list[UAError] = []
    for doc in result.documents:
        found: list[UAError] = []
        if any(m.name in result.micro for m in BRIDGING):
            found += _bridging_errors(result, doc)
        if NON_REFERRING.name in result.micro:
            found += _non_referring_errors(result, doc)
        if result.settings.keep_split and result.totals:
            found += _split_errors(result, doc)
        out += sorted(found, key=lambda e: e.position)
    return out


def _relations_by_anaphor(doc: UADocument, mention_of: dict[str, Mention]) -> dict[Mention, str]:
    out: dict[Mention, str] = {}
    for link in doc.bridging:
        if link.anaphor in mention_of:
            out[mention_of[link.anaphor]] = link.relation
    return out


def _bridging_errors(result: UAResult, doc: ScoredDocument) -> list[UAError]:
    key_side, response_side, key_links, response_links = doc.sides()  # not aligned: these errors need no alignment
    key_index = cluster_index(key_side.clusters)
    outcomes = relations.bridging_outcomes(key_links, response_links, key_index)
    before = {name: doc.scores[name] for name in names(*BRIDGING) if name in doc.scores}
    key_relation = _relations_by_anaphor(doc.key, key_side.mention_of)
    response_relation = _relations_by_anaphor(doc.response, response_side.mention_of)
    kinds = Counter(o.kind for o in outcomes)
    prices: dict[str, dict[str, float]] = {}
    """The price of fixing one outcome of a kind: it depends on the kind alone (the fix changes
    one kind's count), so it is worked out once per kind, not per error (thousands on a book)."""
    out = []
    for o in outcomes:
        where = text_of(doc.key, o.anaphor)
        if o.kind in ("correct", "same_entity") and key_relation.get(o.anaphor) != response_relation.get(o.anaphor):
            out.append(UAError("bridging", "wrong_relation", doc.name, where,
                               f"anchor right, relation {response_relation.get(o.anaphor)!r} instead of the key's "
                               f"{key_relation.get(o.anaphor)!r} (the UA scorer does not score relations)",
                               {name: 0.0 for name in before}, position_order(o.anaphor.words[0]), o.anaphor.words,
                               _words(o.key_anchor), _words(o.response_anchor)))
        if o.kind == "correct":
            continue
        if o.kind not in prices:
            prices[o.kind] = _bridging_fix_price(result, before, kinds, o.kind)
        if o.kind == "spurious":
            text = f"a bridging link to {text_of(doc.response, o.response_anchor)} where the key has none"
            kind = "spurious"
        else:
            if o.kind == "missed":
                kind, text = "missed", f"no bridging link in the response (the key's anchor: {text_of(doc.key, o.key_anchor)})"
            else:
                kind = "wrong_anchor"
                text = (f"anchor {text_of(doc.response, o.response_anchor)} instead of {text_of(doc.key, o.key_anchor)}"
                        + (": of the key anchor's entity, right at entity level" if o.kind == "same_entity" else ""))
        out.append(UAError("bridging", kind, doc.name, where, text, dict(prices[o.kind]),
                           position_order(o.anaphor.words[0]), o.anaphor.words, _words(o.key_anchor),
                           _words(o.response_anchor)))
    return out


def _bridging_fix_price(result: UAResult, before: dict[str, AnyScore], kinds: Counter[str], kind: str
                        ) -> dict[str, float]:
    """Points each bridging score gains when one outcome of `kind` of a document whose outcomes
    are counted as `kinds` is fixed: a spurious link gone, any other made correct."""
    fixed = kinds.copy()
    fixed[kind] -= 1
    if kind != "spurious":
        fixed["correct"] += 1
    new = relations.bridging_of_kinds(fixed)
    return {name: _points(result.micro[name], _after(result.micro[name], before[name], new[name])) for name in before}


def _entity_of(doc: UADocument, side, deixis: bool) -> dict[Mention, str]:
    """The entity of the (last) referring markable of each mention's words on this side
    (singletons included).  Read from the layer's columns (ids and entities), in its rows' order:
    no `Markable` is made (on a book, the layer's 83,000 objects took most of these errors' time)."""
    table, mention_of = doc.layer_table(deixis), side.mention_of
    return {mention_of[markable_id]: entity for markable_id, entity in zip(table.ids, table.entities)
            if not non_referring_entity(entity)}


def _uncounted_non_referring(doc: ScoredDocument, deixis: bool) -> dict[Mention, str]:
    """For each mention's words, the non-referring entity of the first response markable of them
    (what explains a key non-referring markable the response has, uncounted: the UA scorer counts
    only the first markable of a non-referring entity).  From the layer's columns, as `_entity_of`."""
    mention_of = doc.sides()[1].mention_of
    table = doc.response.layer_table(deixis)
    entities: dict[Mention, str] = {}
    for markable_id, entity in zip(table.ids, table.entities):
        if non_referring_entity(entity) and markable_id in mention_of:
            entities.setdefault(mention_of[markable_id], entity)
    return entities


def _non_referring_errors(result: UAResult, doc: ScoredDocument) -> list[UAError]:
    key_side, response_side, _, _ = doc.sides()  # not aligned: these errors need no alignment
    key, response = key_side.non_referring, response_side.non_referring
    before = doc.scores[NON_REFERRING.name]
    total = result.micro[NON_REFERRING.name]
    counts = relations.NonReferring.of(key, response)
    deixis = result.settings.discourse_deixis
    found: dict[str, dict[Mention, str]] = {}  # each lookup made once, when an error first needs it
    out = []
    for m in dict.fromkeys(key):
        if m in counts.in_response:
            continue
        if not found:
            found["response"] = _entity_of(doc.response, response_side, deixis)
            found["uncounted"] = _uncounted_non_referring(doc, deixis)
        entity = found["response"].get(m)
        uncounted = None if entity is not None else found["uncounted"].get(m)
        text = (f"non-referring in the key, referring in the response (entity {entity})" if entity is not None
                else f"non-referring in the key; in the response a second markable of the non-referring entity "
                     f"{uncounted}, which the UA scorer does not count (only an entity's first)" if uncounted
                else "non-referring in the key; the response has no markable there")
        new = counts.with_response(m)
        out.append(UAError(NON_REFERRING.name, "marked_referring", doc.name, text_of(doc.key, m), text,
                           {NON_REFERRING.name: _points(total, _after(total, before, new))}, position_order(m.words[0]),
                           m.words))
    for m in dict.fromkeys(response):
        if m in counts.in_key:
            continue
        if "key" not in found:
            found["key"] = _entity_of(doc.key, key_side, deixis)
        entity = found["key"].get(m)
        text = (f"non-referring in the response, referring in the key (entity {entity})" if entity is not None
                else "non-referring in the response; the key has no markable there")
        new = counts.without_response(m)
        out.append(UAError(NON_REFERRING.name, "marked_non_referring", doc.name, text_of(doc.response, m), text,
                           {NON_REFERRING.name: _points(total, _after(total, before, new))}, position_order(m.words[0]),
                           m.words))
    return out


def _split_of(cluster: list[AnyMention]) -> SplitAntecedent | None:
    return next((m for m in cluster if isinstance(m, SplitAntecedent)), None)


def _split_errors(result: UAResult, doc: ScoredDocument) -> list[UAError]:
    key, response = doc.key_side.clusters, doc.response_side.clusters
    partner = doc.alignment.partner
    response_index = cluster_index(response)
    claimed: set[int] = set()
    out = []
    for c, label in zip(key, doc.key_side.labels):
        split = _split_of(c)
        if split is None:
            continue
        votes = Counter(response_index[r] for r in (partner.get(m, m) for m in c if not m.is_split) if r in response_index)
        target = votes.most_common(1)[0][0] if votes else None
        given = _split_of(response[target]) if target is not None else None
        if target is not None:
            claimed.add(target)
        if given == split:
            continue
        first = next((m for m in c if not m.is_split), None)
        fixed = [list(x) for x in response]
        if target is None:
            fixed.append([split])
        else:
            fixed[target] = [m for m in fixed[target] if not m.is_split] + [split]
        if given is None:
            kind, text = "missing", f"plural entity {label} has split antecedents {text_of(doc.key, split)}; its response entity has none"
        else:
            lost = [t for t in split.members if t not in given.members]
            added = [t for t in given.members if t not in split.members]
            kind = "wrong_members"
            text = (f"plural entity {label}: split antecedents {text_of(doc.response, given)} instead of "
                    f"{text_of(doc.key, split)}" + (f"; missing {len(lost)} member(s)" if lost else "")
                    + (f"; {len(added)} member(s) too many" if added else ""))
        out.append(UAError("split_antecedents", kind, doc.name, text_of(doc.key, first) if first else label, text,
                           _coref_price(result, doc, fixed), position_order(first.words[0]) if first else (0, 0, 0),
                           first.words if first else (), _member_words(split), _member_words(given)))
    for j, c in enumerate(response):
        split = _split_of(c)
        if split is None or j in claimed:
            continue
        fixed = [list(x) for x in response]
        fixed[j] = [m for m in c if not m.is_split]
        first = next((m for m in c if not m.is_split), None)
        out.append(UAError("split_antecedents", "extra", doc.name, text_of(doc.response, first) if first else "",
                           f"split antecedents {text_of(doc.response, split)} for an entity with none in the key",
                           _coref_price(result, doc, fixed), position_order(first.words[0]) if first else (0, 0, 0),
                           first.words if first else (), (), _member_words(split)))
    return out


def _coref_price(result: UAResult, doc: ScoredDocument, fixed_response: list[list[AnyMention]]) -> dict[str, float]:
    """Points each coreference metric gains when this document's response clusters are these."""
    sides = coref.Sides(doc.key_side.clusters, fixed_response, doc.alignment.partner)
    totals = {p: list(v) for p, v in result.totals.items()}
    for p in totals:
        new, _ = coref.document_counts(p, sides)
        totals[p] = [t - o + n for t, o, n in zip(totals[p], doc.counts[p], new)]
    before = result.coreference_scores(result.totals)
    after = result.coreference_scores(totals)
    return {name: _points(before[name], value) for name, value in after.items() if name in result.micro}

"""A system response derived from a UA key, with every kind of error the UA scorer scores.

    python benchmarks/make_ua_response.py KEY.CONLLUA RESPONSE.CONLLUA [--seed N] [--rate R]

Per document, with probability about R each (default 0.1): identity markables missing, moved by a
word or two, shortened by a word; markables moved to another entity; non-referring markables made
referring and the reverse; bridging links dropped, added, given another anchor or relation;
split antecedents changed (a member dropped, added, or moved to another plural entity); and
discourse-deixis markables dropped, moved or moved to another chain.  Markables stay properly
nested (a change that would cross another markable is not made), so the response is written with
bare `)` closers as the key is.  Only the IDENTITY, BRIDGING and DISCOURSE_DEIXIS columns change.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from metrics.formats.source import read_lines  # noqa: E402
from metrics.formats.ua import read_ua  # noqa: E402
from metrics.mentions.ua import BridgingLink, Markable, UADocument  # noqa: E402


def _nests(span: tuple[int, int], others: list[tuple[int, int]]) -> bool:
    a, b = span
    return all(b < c or d < a or (a <= c and d <= b) or (c <= a and b <= d) for c, d in others)


def _spans(markables: list[Markable], leave: Markable) -> list[tuple[int, int]]:
    return [m.parts[0] for m in markables if m is not leave]  # type: ignore[misc]


def _respan(markables: list[Markable], rng: random.Random, rate: float, n_words: int) -> list[Markable]:
    out = list(markables)
    for i, m in enumerate(out):
        if m.zero or len(m.parts) != 1 or rng.random() > rate:
            continue
        first, last = m.parts[0]
        if rng.random() < 0.5:
            shift = rng.choice((-2, -1, 1, 2))
            new = (first + shift, last + shift)
        elif last > first:
            new = (first + 1, last) if rng.random() < 0.5 else (first, last - 1)
        else:
            continue
        if 0 <= new[0] and new[1] < n_words and _nests(new, _spans(out, m)):  # type: ignore[arg-type]
            out[i] = replace(m, parts=(new,))
    return out


def _relabel(markables: list[Markable], rng: random.Random, rate: float, suffix: str) -> list[Markable]:
    entities = sorted({m.entity for m in markables if not m.non_referring})
    fresh = [0]

    def new_entity(tail: str = "") -> str:
        fresh[0] += 1
        return f"9{fresh[0]:04d}{tail}"

    out = []
    for m in markables:
        roll = rng.random()
        if roll < rate and entities:  # another (or a new) entity
            entity = rng.choice(entities) if rng.random() < 0.7 else new_entity(suffix)
            m = replace(m, entity=entity)
        elif roll < 1.5 * rate:  # non-referring flipped
            m = replace(m, entity=(rng.choice(entities) if entities and rng.random() < 0.5 else new_entity(suffix))
                        if m.non_referring else new_entity("-Pseudo"))
        out.append(m)
    return out


def _split_antecedents(markables: list[Markable], rng: random.Random, rate: float) -> list[Markable]:
    plurals = sorted({p for m in markables for p in m.element_of})
    if not plurals:
        return markables
    out = []
    for m in markables:
        element_of = list(m.element_of)
        roll = rng.random()
        if element_of and roll < 3 * rate:  # a member dropped, or moved to another plural
            element_of = [] if rng.random() < 0.5 else [rng.choice(plurals)]
        elif not element_of and m.entity not in plurals and roll < rate / 2:
            element_of = [rng.choice(plurals)]
        element_of = [p for p in element_of if p != m.entity]
        out.append(replace(m, element_of=tuple(element_of)))
    return out


def _without_cycles(markables: list[Markable]) -> list[Markable]:
    """Drop ElementOf links that make a plural entity an element of itself (the UA scorer loops)."""
    out = list(markables)
    while True:
        members: dict[str, set[str]] = {}
        for m in out:
            for plural in m.element_of:
                members.setdefault(plural, set()).add(m.entity)

        def reaches(start: str, goal: str, seen: set[str]) -> bool:
            for member in members.get(start, ()):
                if member == goal or (member not in seen and (seen.add(member) or reaches(member, goal, seen))):
                    return True
            return False

        bad = next((i for i, m in enumerate(out) for p in m.element_of if p == m.entity or reaches(m.entity, p, set())), None)
        if bad is None:
            return out
        out[bad] = replace(out[bad], element_of=())


def _bridging(links: list[BridgingLink], markables: list[Markable], rng: random.Random, rate: float) -> list[BridgingLink]:
    ids = [m.id for m in markables]
    out = []
    for link in links:
        roll = rng.random()
        if roll < rate:
            continue
        if roll < 3 * rate and ids:
            link = replace(link, anchor=rng.choice(ids))
        elif roll < 4 * rate:
            link = replace(link, relation=rng.choice(("poss", "subset", "part-of", "other")))
        out.append(link)
    if ids:
        for _ in range(int(len(links) * rate)):
            anaphor, anchor = rng.sample(ids, 2) if len(ids) > 1 else (ids[0], ids[0])
            out.append(BridgingLink(anaphor, anchor, "other", ""))
    return out


def derive(doc: UADocument, rng: random.Random, rate: float) -> UADocument:
    identity = [m for m in doc.identity if rng.random() >= rate]
    identity = _respan(identity, rng, rate, len(doc.words))
    identity = _without_cycles(_split_antecedents(_relabel(identity, rng, rate, ""), rng, rate))
    deixis = [m for m in doc.deixis if rng.random() >= rate]
    deixis = _relabel(_respan(deixis, rng, rate, len(doc.words)), rng, rate, "-DD")
    deixis = _without_cycles([replace(m, entity=m.entity if m.entity.endswith("-DD") else m.entity + "-DD")
                              for m in deixis])
    return replace(doc, identity=identity, deixis=deixis, bridging=_bridging(doc.bridging, identity, rng, rate))


def _opening(m: Markable, part: int) -> str:
    attributes = dict(m.attributes)
    attributes["EntityID"], attributes["MarkableID"] = m.entity, m.id
    attributes.pop("ElementOf", None)
    if m.element_of:
        attributes["ElementOf"] = ",".join(dict.fromkeys(m.element_of))
    return "(" + "|".join(f"{k}={v}" for k, v in attributes.items())


def cells(markables: list[Markable], n_words: int) -> list[str]:
    """Each word's cell: closers of the markables ending there, then openings (longest first)."""
    opens: dict[int, list[tuple[int, int, Markable]]] = {}
    for order, m in enumerate(markables):
        if m.zero:
            continue
        for part, (first, last) in enumerate(m.parts):
            opens.setdefault(first, []).append((last, order, m))
    out, stack = [], []
    for w in range(n_words):
        text = ""
        while stack and stack[-1] == w:
            stack.pop()
            text += ")"
        for last, _, m in sorted(opens.get(w, []), key=lambda x: (-x[0], x[1])):
            text += _opening(m, 0) + (")" if last == w else "")
            if last > w:
                stack.append(last)
        out.append(text or "_")
    return out


def write(key_path: str, documents: list[UADocument], out_path: str) -> None:
    by_name = {d.name: d for d in documents}
    lines = read_lines(key_path)
    doc, identity, deixis, bridging, w = None, [], [], {}, 0
    written = []
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("# newdoc"):
            doc = by_name.get(stripped.split("=", 1)[1].strip())
            w = 0
            if doc is not None:
                identity, deixis = cells(doc.identity, len(doc.words)), cells(doc.deixis, len(doc.words))
                starts = {m.id: m.parts[0][0] for m in doc.identity if not m.zero}
                bridging = {}
                for link in doc.bridging:
                    if link.anaphor in starts:
                        attrs = f"MarkableID={link.anaphor}|Rel={link.relation}|MentionAnchor={link.anchor}"
                        bridging.setdefault(starts[link.anaphor], []).append(f"({attrs})")
        if not stripped or stripped.startswith("#") or doc is None:
            written.append(line)
            continue
        columns = stripped.split()
        if "." in columns[0]:
            columns[10:13] = ["_", "_", "_"]
        else:
            while len(columns) < 13:
                columns.append("_")
            columns[10], columns[12] = identity[w], deixis[w]
            columns[11] = "".join(bridging.get(w, [])) or "_"
            w += 1
        written.append("  ".join(columns))
    Path(out_path).write_text("\n".join(written) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("key")
    parser.add_argument("response")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=float, default=0.1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    write(args.key, [derive(d, rng, args.rate) for d in read_ua(args.key)], args.response)


if __name__ == "__main__":
    main()

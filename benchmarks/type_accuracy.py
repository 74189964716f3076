"""How often do our mention-type rules give the right NAME / NOMINAL / PRONOUN?

Usage: python benchmarks/type_accuracy.py [DATA_DIR]     (default /work/shared/data)

Answer keys:
- LitBank (words only: no POS, no parse): the corpus's gold mention categories
  (mention_categories.tsv.gz; PROP = NAME, NOM = NOMINAL, PRON = PRONOUN).  This measures the
  words-only fallback, the only rule that can apply to LitBank.
- GUM (key.gum.conll has PTB POS, parse and derived named entities): the gold UD tree of the same
  documents (key.gum.conllu.gz).  For each key mention the UD head is the token of the span whose
  head lies outside it; its gold UPOS gives the type (PRON -> PRONOUN, PROPN -> NAME, else NOMINAL).
  This is an independent annotation layer (UPOS, UD heads) against our PTB tags + Collins heads.
  The same documents are also typed (a) with the UD heads and XPOS as a dependency-annotated file
  would give them, (b) with POS but no parse (simple head rule), and (c) stripped to words only, to
  measure the fallback on a second genre mix.  Head tokens are compared with the UD heads too.

Prints, per corpus and setting: overall accuracy, accuracy of each deciding rule, the confusion
matrix, and the time taken by assign_types.
"""

from __future__ import annotations

import dataclasses
import gzip
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from metrics.formats.conll import read_conll
from metrics.formats.readers import read_documents
from metrics.mentions.heads import head_of
from metrics.mentions.types import assign_types
from metrics.model import Document, MentionType

CATEGORY = {"PROP": MentionType.NAME, "NOM": MentionType.NOMINAL, "PRON": MentionType.PRONOUN}


def litbank_gold(path: Path) -> dict[str, dict[tuple[int, int], MentionType]]:
    gold: dict[str, dict[tuple[int, int], MentionType]] = defaultdict(dict)
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        next(handle)
        for line in handle:
            doc, start, end, category, *_ = line.rstrip("\n").split("\t")
            gold[doc][(int(start), int(end))] = CATEGORY[category]
    return gold


def bare_name(name: str) -> str:
    """'(1023_bleak_house_brat); part 0' -> '1023_bleak_house_brat'."""
    return name.split(";")[0].strip().strip("()")


@dataclasses.dataclass
class UDDoc:
    words: list[str]
    upos: list[str]
    xpos: list[str]
    heads: list[int]  # document-level, -1 root


def read_ud(path: Path) -> dict[str, UDDoc]:
    """Minimal CoNLL-U reading for the answer key: words, UPOS, XPOS, document-level heads."""
    docs: dict[str, UDDoc] = {}
    current: UDDoc | None = None
    sentence: list[list[str]] = []

    def flush() -> None:
        if current is None or not sentence:
            return
        offset = len(current.words)
        for cols in sentence:
            current.words.append(cols[1])
            current.upos.append(cols[3])
            current.xpos.append(cols[4])
            head = int(cols[6])
            current.heads.append(offset + head - 1 if head > 0 else -1)
        sentence.clear()

    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            line = line.rstrip("\n")
            if line.startswith("# newdoc id"):
                flush()
                current = docs[line.split("=", 1)[1].strip()] = UDDoc([], [], [], [])
            elif not line:
                flush()
            elif not line.startswith("#"):
                cols = line.split("\t")
                if "-" in cols[0] or "." in cols[0]:
                    continue
                sentence.append(cols)
    flush()
    return docs


def ud_head(ud: UDDoc, span: tuple[int, int]) -> int:
    start, end = span
    outside = [t for t in range(start, end + 1) if not start <= ud.heads[t] <= end]
    return outside[0] if len(outside) == 1 else outside[-1] if outside else end


def ud_type(ud: UDDoc, span: tuple[int, int]) -> MentionType:
    upos = ud.upos[ud_head(ud, span)]
    if upos == "PRON":
        return MentionType.PRONOUN
    if upos == "PROPN":
        return MentionType.NAME
    return MentionType.NOMINAL


class Tally:
    def __init__(self) -> None:
        self.by_rule: dict[str, Counter[bool]] = defaultdict(Counter)
        self.confusion: Counter[tuple[MentionType, MentionType]] = Counter()
        self.seconds = 0.0

    def add(self, rule: str, predicted: MentionType, gold: MentionType) -> None:
        self.by_rule[rule][predicted == gold] += 1
        self.confusion[(gold, predicted)] += 1

    def print(self, title: str) -> None:
        total = sum(self.confusion.values())
        right = sum(n for (g, p), n in self.confusion.items() if g == p)
        print(f"\n## {title}")
        timing = f"  assign_types {1000 * self.seconds:.0f} ms" if self.seconds else ""
        print(f"mentions {total:,}  accuracy {100 * right / max(total, 1):.1f}%{timing}")
        print(f"{'rule':<16}{'mentions':>10}{'accuracy':>10}")
        for rule, counts in sorted(self.by_rule.items(), key=lambda kv: -sum(kv[1].values())):
            n = sum(counts.values())
            print(f"{rule:<16}{n:>10,}{100 * counts[True] / n:>9.1f}%")
        print("confusion (rows gold, columns predicted): " + "  ".join(t.name[:3] for t in MentionType))
        for g in MentionType:
            print(f"  {g.name:<8}" + "".join(f"{self.confusion[(g, p)]:>8,}" for p in MentionType))


def typed(doc: Document, spans: list[tuple[int, int]], tally: Tally) -> dict:
    start = time.perf_counter()
    types = assign_types(doc, spans)
    tally.seconds += time.perf_counter() - start
    return types


def words_only(doc: Document) -> Document:
    return dataclasses.replace(doc, pos=None, lemmas=None, parse=None, named_entities=None, heads=None, explicit_types=None)


def litbank(data: Path) -> None:
    gold = litbank_gold(data / "litbank" / "mention_categories.tsv.gz")
    tally = Tally()
    for doc in read_conll(str(data / "litbank" / "litbank.original.conll.gz")):
        answers = gold[bare_name(doc.name)]
        types = typed(doc, list(answers), tally)
        for span, truth in answers.items():
            predicted, rule = types[span]
            tally.add(rule, predicted, truth)
    tally.print("LitBank, words only, vs gold categories (PROP/NOM/PRON)")


def gum(data: Path) -> None:
    ud_docs = read_ud(data / "gum-open" / "key.gum.conllu.gz")
    settings = {
        "GUM, PTB POS + parse + NE (key.gum.conll), vs UD UPOS of UD head": lambda d, ud: d,
        "GUM, XPOS + UD dependency heads, vs UD UPOS of UD head": lambda d, ud: dataclasses.replace(
            d, parse=None, named_entities=None, pos=ud.xpos, heads=ud.heads
        ),
        "GUM, PTB POS + NE without parse (simple head rule), vs UD UPOS of UD head": lambda d, ud: dataclasses.replace(
            d, parse=None
        ),
        "GUM, words only, vs UD UPOS of UD head": lambda d, ud: words_only(d),
    }
    tallies = {title: Tally() for title in settings}
    agreement = Tally()
    head_agree: Counter[tuple[str, bool]] = Counter()
    for doc in read_conll(str(data / "gum-open" / "key.gum.conll.gz")):
        ud = ud_docs[bare_name(doc.name)]
        if ud.words != doc.words:
            print(f"warning: {doc.name}: tokens differ between CoNLL and CoNLL-U; skipped", file=sys.stderr)
            continue
        spans = sorted(set(doc.mentions()))
        plain = words_only(doc)
        full_types = last = None
        for title, make in settings.items():
            variant = make(doc, ud)
            types = typed(variant, spans, tallies[title])
            for span in spans:
                predicted, rule = types[span]
                tallies[title].add(rule, predicted, ud_type(ud, span))
            full_types = full_types or types
            last = types  # the words-only setting comes last
        for span in spans:
            predicted, rule = last[span]
            agreement.add(rule, predicted, full_types[span][0])
            gold_head = ud_head(ud, span)
            head_agree[("parse (Collins rules)", head_of(doc, span)[0] == gold_head)] += 1
            head_agree[("simple rule, words only", head_of(plain, span)[0] == gold_head)] += 1
    for title, tally in tallies.items():
        tally.print(title)

    # The whole pipeline on the CoNLL-U file itself: the project's reader (XPOS, UD heads, NEs).
    conllu = Tally()
    for doc in read_documents(str(data / "gum-open" / "key.gum.conllu.gz")):
        ud = ud_docs[bare_name(doc.name)]
        spans = sorted(set(doc.mentions()))
        types = typed(doc, spans, conllu)
        for span in spans:
            predicted, rule = types[span]
            conllu.add(rule, predicted, ud_type(ud, span))
    conllu.print("GUM, key.gum.conllu.gz through metrics.read_documents, vs UD UPOS of UD head")
    agreement.print("GUM, words-only fallback vs the POS rule on the same mentions (agreement; rows = POS rule)")
    print("\n## GUM, head token agreement with the UD head")
    for source in ("parse (Collins rules)", "simple rule, words only"):
        n = head_agree[(source, True)] + head_agree[(source, False)]
        print(f"{source:<26}{100 * head_agree[(source, True)] / max(n, 1):6.1f}% of {n:,} mentions")


def main() -> None:
    data = Path(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/data")
    litbank(data)
    gum(data)


if __name__ == "__main__":
    main()

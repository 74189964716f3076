"""A corpus scored under the Universal Anaphora conventions: what the UA scorer 2.0 prints.

`Settings` are the UA scorer's options (its `-a -s -l -z -d --only-split-antecedent -m`);
`PRESETS` its shared-task settings (`-t`), completed with its command line's defaults, as the UA
scorer would have to (it replaces its options by the preset's, and then crashes on the missing
ones).  Documents pair by name; key and response must hold the same documents with the same words,
as the UA scorer requires.  Each document's layer (identity, or discourse deixis) is clustered and
aligned (`metrics.mentions.ua_align`), then scored (`metrics.measures.ua`, `ua_relations`); corpus
scores are the documents' counts summed in the key's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from metrics.measures import ua as coref
from metrics.measures import ua_relations as relations
from metrics.measures.catalog import BLANC, Metric
from metrics.measures.corefud import CorefudBlancScore
from metrics.measures.score import AnyScore, MeanScore, Score
from metrics.mentions.ua import Mention, UADocument
from metrics.mentions.ua_align import Alignment, SideClusters, align, cluster_index, side_clusters
from metrics.model import InputError

COREF = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea")
METRICS = ("mentions", "muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "conll", "mor", "non_referring",
           *relations.BRIDGING)
"""Every score of the UA conventions, in output order (`conll` is the mean of MUC, B3, CEAFe)."""
ALIASES = {"mention": ("mentions",), "non-referring": ("non_referring",), "bridging": relations.BRIDGING,
           "bcubed": ("bcub",), "b3": ("bcub",), "all": METRICS}


def resolve_metrics(names: Sequence[str]) -> tuple[str, ...]:
    """Metric names or the UA scorer's spellings -> UA metric names in output order."""
    wanted: set[str] = set()
    for name in names:
        name = name.strip().lower()
        if name in METRICS:
            wanted.add(name)
        elif name in ALIASES:
            wanted.update(ALIASES[name])
        else:
            raise ValueError(f"unknown UA metric {name!r}; choose from {', '.join(METRICS)} (or bridging, all)")
    return tuple(m for m in METRICS if m in wanted)


@dataclass(frozen=True)
class Settings:
    """The UA scorer's options."""

    match: str = "exact"
    keep_singletons: bool = False
    keep_split: bool = False
    only_split: bool = False
    discourse_deixis: bool = False
    keep_zeros: bool = False
    metrics: tuple[str, ...] = ("muc", "bcub", "ceafe", "conll")

    def completed(self) -> "Settings":
        """The options the UA scorer forces: scoring only split antecedents or discourse deixis
        keeps split antecedents and singletons (a plural entity's members may be singletons)."""
        out = self
        if self.only_split or self.discourse_deixis:
            out = replace(out, keep_split=True, keep_singletons=True)
        if self.discourse_deixis:
            out = replace(out, only_split=False)
        return out

    def fields(self) -> dict[str, object]:
        return {"conventions": "ua", "match": self.match, "singletons": "keep" if self.keep_singletons else "remove",
                "split_antecedents": "keep" if self.keep_split else "remove", "only_split_antecedents": self.only_split,
                "discourse_deixis": self.discourse_deixis, "zeros": "keep" if self.keep_zeros else "remove"}

    def describe(self) -> str:
        parts = [f"conventions ua, {self.match} match",
                 f"singletons {'kept' if self.keep_singletons else 'removed'}",
                 f"split antecedents {'kept' if self.keep_split else 'removed'}",
                 f"zeros {'kept' if self.keep_zeros else 'removed'}"]
        if self.only_split:
            parts.append("only split antecedents scored")
        if self.discourse_deixis:
            parts.append("discourse deixis scored")
        return ", ".join(parts)


PRESETS: dict[str, Settings | tuple[str, dict[str, object]]] = {
    "crac18": Settings(keep_singletons=True, metrics=("muc", "bcub", "ceafe", "conll", "non_referring")),
    # its "partial_match" keys are no option of the UA scorer's: completed, it matches exactly
    "craft19": Settings(keep_singletons=True, metrics=("muc", "bcub", "ceafe", "conll")),
    "codicrac22ar": Settings(keep_singletons=True, keep_split=True, metrics=("muc", "bcub", "ceafe", "conll")),
    "codicrac22dd": Settings(keep_singletons=True, keep_split=True, discourse_deixis=True,
                             metrics=("muc", "bcub", "ceafe", "conll")),
    "codicrac22br": Settings(keep_singletons=True, metrics=relations.BRIDGING),
    # the presets of other conventions: (conventions, their options)
    "conll12": ("conll", {"match": "exact", "singletons": "keep", "metrics": ("muc", "bcub", "ceafe", "conll")}),
    "crac22": ("corefud", {"match": "partial", "singletons": "remove", "metrics": ("muc", "bcub", "ceafe", "conll", "mor", "zero")}),
    "crac23": ("corefud", {"match": "head", "singletons": "remove", "metrics": ("muc", "bcub", "ceafe", "conll", "mor", "zero")}),
    "crac24": ("corefud", {"match": "head", "singletons": "remove", "metrics": ("muc", "bcub", "ceafe", "conll", "mor", "zero")}),
}
"""The UA scorer's `-t` presets; those of the UA format as `Settings`."""


@dataclass
class ScoredDocument:
    """One document pair as scored, with what the error analysis needs."""

    name: str
    key: UADocument
    response: UADocument
    key_side: SideClusters
    response_side: SideClusters
    alignment: Alignment
    key_bridging: dict[Mention, Mention]
    response_bridging: dict[Mention, Mention]
    scores: dict[str, AnyScore] = field(default_factory=dict)
    counts: dict[str, coref.Counts] = field(default_factory=dict)
    """Each coreference metric's (BLANC part's) counts on this document."""


@dataclass
class UAResult:
    settings: Settings
    micro: dict[str, AnyScore]
    documents: list[ScoredDocument]
    warnings: list[str] = field(default_factory=list)
    totals: dict[str, list] = field(default_factory=dict)
    """Each coreference metric's (BLANC part's) counts summed over the documents."""
    split_totals: dict[str, list] = field(default_factory=dict)
    """The same for the split antecedents' own alignments (what --only-split-antecedents scores)."""

    def coreference_scores(self, totals: dict[str, list]) -> dict[str, AnyScore]:
        """The coreference metrics (and CoNLL) of these corpus counts (whole documents, not the
        split antecedents' alignments alone)."""
        scores = _coref_values(totals, self.split_totals, False)
        _add_conll(scores)
        return scores


def bridging_pairs(doc: UADocument, side: SideClusters, warnings: list[str]) -> dict[Mention, Mention]:
    """Anaphor -> anchor mention (a later link from one MarkableID replaces an earlier); a link
    naming a markable the scored layer lacks is left out, with a warning."""
    anchors: dict[str, str] = {}
    for link in doc.bridging:
        anchors[link.anaphor] = link.anchor
    out: dict[Mention, Mention] = {}
    for anaphor, anchor in anchors.items():
        if anaphor not in side.mention_of or anchor not in side.mention_of:
            warnings.append(f"{doc.path}: {doc.name}: bridging link {anaphor} -> {anchor}")
            continue
        out[side.mention_of[anaphor]] = side.mention_of[anchor]
    return out


def bridging_warnings(skipped: Sequence[str]) -> list[str]:
    """One warning per file for the bridging links left out (`bridging_pairs`), as the UA scorer
    leaves them."""
    warnings = []
    for path in dict.fromkeys(message.split(": ", 1)[0] for message in skipped):
        mine = [m for m in skipped if m.startswith(path + ": ")]
        warnings.append(f"{path}: {len(mine)} bridging link(s) name a markable the scored layer lacks; left out, "
                        f"as the UA scorer leaves them (first: {mine[0][len(path) + 2:]})")
    return warnings


def pair_documents(keys: Sequence[UADocument], responses: Sequence[UADocument], key_path: str,
                    response_path: str, check_words: bool = True) -> list[tuple[UADocument, UADocument]]:
    by_name = {d.name: d for d in responses}
    key_names = {d.name for d in keys}
    extra = [d for d in responses if d.name not in key_names]
    if extra:
        raise InputError(response_path, extra[0].line, f"document {extra[0].name!r} is not in the key {key_path}")
    out = []
    for key in keys:
        response = by_name.get(key.name)
        if response is None:
            raise InputError(response_path, None, f"no document {key.name!r} (the key {key_path} has it)")
        if len(key.words) != len(response.words):
            raise InputError(response_path, response.line, f"document {key.name!r} has {len(response.words)} words "
                                                           f"(zeros aside), the key's {len(key.words)}")
        for i, (word, other) in enumerate(zip(key.words, response.words)):
            if check_words and word != other:
                raise InputError(response_path, response.word_lines[i], f"word {other!r} where the key has "
                                                                       f"{word!r} ({key_path}:{key.word_lines[i]})")
        out.append((key, response))
    return out


def score_document(key: UADocument, response: UADocument, settings: Settings, warnings: list[str]) -> ScoredDocument:
    s = settings
    sides = [side_clusters(doc.layer(s.discourse_deixis), s.match, s.keep_singletons, s.keep_split, s.keep_zeros)
             for doc in (key, response)]
    alignment = align(sides[0].clusters, sides[1].clusters, s.match)
    _share_equal_mentions(sides, alignment)
    bridges = [bridging_pairs(doc, side, warnings) if any(m in s.metrics for m in relations.BRIDGING) else {}
               for doc, side in zip((key, response), sides)]
    return ScoredDocument(key.name, key, response, sides[0], sides[1], alignment, bridges[0], bridges[1])


def _share_equal_mentions(sides: list[SideClusters], alignment: Alignment) -> None:
    """Once aligned, equal mentions of the two sides become one object: the metrics then find a
    mention in the other side's maps by identity, without comparing words (the same results:
    equal mentions differ only in their Min, which alignment alone reads)."""
    shared: dict = {}
    for side in sides:
        side.clusters = [[shared.setdefault(m, m) for m in c] for c in side.clusters]
    alignment.partner = {shared.get(a, a): shared.get(b, b) for a, b in alignment.partner.items()}


def _sum(total: list, counts) -> None:
    for i, value in enumerate(counts):
        total[i] += value


def score_corpus(keys: Sequence[UADocument], responses: Sequence[UADocument], key_path: str, response_path: str,
                 settings: Settings = Settings(), check_words: bool = True) -> UAResult:
    """Every metric of `settings` over the corpus (and each document's, in `documents`).  Without
    `check_words` the words of key and response may differ (only their number must agree): the
    UA scorer's own test cases need it."""
    settings = settings.completed()
    warnings: list[str] = []
    skipped: list[str] = []
    documents = [score_document(k, r, settings, skipped)
                 for k, r in pair_documents(keys, responses, key_path, response_path, check_words)]
    warnings.extend(bridging_warnings(skipped))
    parts = [p for name in COREF if name in settings.metrics
             for p in (("blanc_coref", "blanc_noncoref") if name == "blanc" else (name,))]
    main = {p: [0, 0, 0, 0] for p in parts}
    split = {p: [0, 0, 0, 0] for p in parts}
    others: dict[str, Score] = {}
    for doc in documents:
        s = coref.Sides(doc.key_side.clusters, doc.response_side.clusters, doc.alignment.partner)
        doc_parts, doc_split = {}, {}
        for p in parts:
            counts, split_counts = coref.document_counts(p, s)
            _sum(main[p], counts)
            if split_counts is not None:
                _sum(split[p], split_counts)
            doc_parts[p] = counts
            doc_split[p] = split_counts if split_counts is not None else (0, 0, 0, 0)
        doc.counts = doc_parts
        doc.scores = _coref_values(doc_parts, doc_split, settings.only_split)
        for name, value in _relation_scores(doc, settings).items():
            doc.scores[name] = value
            others[name] = others[name] + value if name in others else value
    micro = _coref_values(main, split, settings.only_split)
    micro.update(others)
    _add_conll(micro)
    for doc in documents:
        _add_conll(doc.scores)
    order = {name: i for i, name in enumerate(METRICS)}
    micro = dict(sorted(micro.items(), key=lambda item: order[item[0]]))
    return UAResult(settings, micro, documents, warnings, main, split)


def _relation_scores(doc: ScoredDocument, settings: Settings) -> dict[str, Score]:
    out: dict[str, Score] = {}
    wanted = settings.metrics
    if "mentions" in wanted:
        out["mentions"] = relations.mentions(doc.key_side.clusters, doc.response_side.clusters, doc.alignment.partner)
    if "mor" in wanted:
        out["mor"] = relations.mor(doc.key_side.clusters, doc.response_side.clusters)
    if "non_referring" in wanted:
        out["non_referring"] = relations.non_referring(doc.key_side.non_referring, doc.response_side.non_referring)
    if any(m in wanted for m in relations.BRIDGING):
        key_index = cluster_index(doc.key_side.clusters)
        scores = relations.bridging(relations.bridging_outcomes(doc.key_bridging, doc.response_bridging, key_index))
        out.update({m: v for m, v in scores.items() if m in wanted})
    return out


def _score(counts) -> Score:
    pn, pd, rn, rd = (float(c) for c in counts)
    return Score(rn, rd, pn, pd)


def _coref_values(main: dict, split: dict, only_split: bool) -> dict[str, AnyScore]:
    out: dict[str, AnyScore] = {}
    for p, counts in main.items():
        if p.startswith("blanc"):
            continue
        out[p] = _score(split[p] if only_split else counts)
    if "blanc_coref" in main:
        halves = [_score(main[p]) for p in ("blanc_coref", "blanc_noncoref")]
        if not only_split:
            out["blanc"] = CorefudBlancScore(*halves)
        else:
            used = [_score(split[p]) for p, half in zip(("blanc_coref", "blanc_noncoref"), halves)
                    if not (half.precision_den == 0 and half.recall_den == 0)]
            n = len(used)
            out["blanc"] = MeanScore(*(sum(getattr(u, a) for u in used) / n if n else 0
                                       for a in ("recall", "precision", "f1")))
    return out


def _add_conll(scores: dict[str, AnyScore]) -> None:
    if all(name in scores for name in ("muc", "bcub", "ceafe")):
        parts = [scores[name] for name in ("muc", "bcub", "ceafe")]
        f1 = 0
        for part in parts:
            f1 += part.f1
        scores["conll"] = MeanScore(sum(p.recall for p in parts) / 3, sum(p.precision for p in parts) / 3, f1 / 3)


BLANC_PARTS = ("blanc_coref", "blanc_noncoref")
"""BLANC's two parts, as `metrics.measures.ua` computes them (coreference and non-coreference links)."""


@dataclass(frozen=True)
class SplitBlancScore(MeanScore):
    """BLANC of the split antecedents' alignments alone (`--only-split-antecedents`), as the UA
    scorer averages it: over the parts whose whole documents' counts are not both 0.  It carries
    both BLANCs' counts, so documents sum before the parts are chosen (shown as a mean: no counts)."""

    whole: CorefudBlancScore
    split: CorefudBlancScore

    @classmethod
    def of(cls, whole: CorefudBlancScore, split: CorefudBlancScore) -> "SplitBlancScore":
        used = [part for part, half in zip((split.coref, split.noncoref), (whole.coref, whole.noncoref))
                if not (half.precision_den == 0 and half.recall_den == 0)]
        n = len(used)
        recall, precision, f1 = (sum(getattr(u, a) for u in used) / n if n else 0
                                 for a in ("recall", "precision", "f1"))
        return cls(recall, precision, f1, whole, split)

    def __add__(self, other: "SplitBlancScore") -> "SplitBlancScore":
        return SplitBlancScore.of(self.whole + other.whole, self.split + other.split)


class UAPair:
    """One document pair's scores as the UA scorer computes them (`catalog.UAScores`, read by the
    catalogue's computations under `Scorer.UA`): each computed when first asked for, and kept."""

    def __init__(self, document: ScoredDocument, only_split: bool) -> None:
        self.document = document
        self.only_split = only_split
        """Whether the coreference scores are those of the split antecedents' alignments alone."""
        self._sides = coref.Sides(document.key_side.clusters, document.response_side.clusters,
                                  document.alignment.partner)
        self._counts: dict[str, tuple[coref.Counts, coref.Counts]] = {}
        self._bridging: dict[str, Score] | None = None

    def _part(self, part: str) -> tuple[coref.Counts, coref.Counts]:
        """A coreference metric's (BLANC part's) counts on the document, and its split antecedents' own."""
        if part not in self._counts:
            counts, split = coref.document_counts(part, self._sides)
            self._counts[part] = (counts, split if split is not None else (0, 0, 0, 0))
        return self._counts[part]

    def coreference(self, metric: Metric) -> AnyScore:
        if metric is BLANC:
            halves = [self._part(part) for part in BLANC_PARTS]
            whole = CorefudBlancScore(_score(halves[0][0]), _score(halves[1][0]))
            if not self.only_split:
                return whole
            return SplitBlancScore.of(whole, CorefudBlancScore(_score(halves[0][1]), _score(halves[1][1])))
        counts, split = self._part(metric.name)
        return _score(split if self.only_split else counts)

    def mentions(self) -> AnyScore:
        doc = self.document
        return relations.mentions(doc.key_side.clusters, doc.response_side.clusters, doc.alignment.partner)

    def mor(self) -> AnyScore:
        return relations.mor(self.document.key_side.clusters, self.document.response_side.clusters)

    def non_referring(self) -> AnyScore:
        return relations.non_referring(self.document.key_side.non_referring, self.document.response_side.non_referring)

    def bridging(self) -> dict[str, Score]:
        if self._bridging is None:
            doc = self.document
            key_index = cluster_index(doc.key_side.clusters)
            self._bridging = relations.bridging(relations.bridging_outcomes(doc.key_bridging, doc.response_bridging,
                                                                            key_index))
        return self._bridging

"""A corpus scored under the Universal Anaphora conventions: what the UA scorer 2.0 prints.

`Settings` are the UA scorer's options (its `-a -s -l -z -d --only-split-antecedent -m`);
`PRESETS` its shared-task settings (`-t`), completed with its command line's defaults, as the UA
scorer would have to (it replaces its options by the preset's, and then crashes on the missing
ones).  Documents pair by name; key and response must hold the same documents with the same words,
as the UA scorer requires.  Each document's layer (identity, or discourse deixis) is clustered and
aligned (`metrics.mentions.ua_align`) and becomes a pair of the engine's road (`ua_pair`: a
`DocPair` whose `UAPair` the catalogue's computations under `Scorer.UA` read, `metrics.measures.ua`
and `ua_relations`); corpus scores are `PreparedCorpus.score`'s, the documents' counts summed in
the key's order (`result_of`).  The convention (`metrics.conventions.ua`) and `score_corpus` (for
documents already read) both score this way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from metrics.measures import ua as coref
from metrics.measures import ua_columns as columnar
from metrics.measures import ua_relations as relations
from metrics.corpus.scoring import DocPair, PreparedCorpus, Spans, prepare_pair
from metrics.corpus.ua_settings import (BLANC_PARTS, BRIDGING, BRIDGING_SCORES, COREFERENCE, DOCUMENT_ORDER,  # noqa: F401
                                        METRICS, ORDER, PRESETS, SPLIT_OVER_COLUMNS, Settings, layers_read, names,
                                        resolve_metrics, shown_metrics)
from metrics.measures.catalog import BLANC, CONLL, MENTIONS, MOR, NON_REFERRING, Metric
from metrics.measures.corefud import CorefudBlancScore
from metrics.measures.score import AnyScore, Score
from metrics.measures.ua import SplitBlancScore
from metrics.mentions.ua import Mention, UADocument
from metrics.mentions.ua_align import Alignment, SideClusters, align, cluster_index, side_clusters
from metrics.mentions.ua_columns import ColumnSides, applies, column_sides, in_document, mention_codes
from metrics.model import InputError
from metrics.runtime.gc_pause import gc_paused

if TYPE_CHECKING:  # made for the workbench and the chains' analyses, not for a score
    from metrics.corpus.ua_spans import TokenSpans

M = TypeVar("M")


class ScoredDocument:
    """One document pair as scored, with what the error analysis needs.

    Its scores are counted over the markables' columns (`count_over_columns`, into `counted`) where
    those apply (`columnar`); each side's clusters of `Mention`s, their alignment and the bridging links
    (`key_side`, `response_side`, `alignment`, `key_bridging`, `response_bridging`) are made when
    first asked for (by the scores that need them, the relation errors, the workbench)."""

    def __init__(self, key: UADocument, response: UADocument, settings: "Settings", columnar: bool) -> None:
        self.name = key.name
        self.key = key
        self.response = response
        self.settings = settings
        self.columnar = columnar
        self.counted: dict[str, object] = {}
        """Scores counted over columns: each coreference metric's (BLANC part's) counts by name, the
        `mentions` and `non_referring` scores, and the three bridging scores (`BRIDGING_SCORES`)."""
        self.scores: dict[str, AnyScore] = {}
        self.counts: dict[str, coref.Counts] = {}
        """Each coreference metric's (BLANC part's) counts on this document."""
        self.credits_split = settings.keep_split and bool(key.layer_table(settings.discourse_deixis).element_of
                                                         or response.layer_table(settings.discourse_deixis).element_of)
        """Whether a plural entity's split antecedents are credited here: then only the metrics of
        `SPLIT_OVER_COLUMNS` count over columns, any other over the clusters of mentions."""
        self.column_counter: ColumnCounter | None = None
        """Counts the scores not yet `counted` over columns, for every columnar document at once."""
        self._objects: tuple | None = None
        self._sides: tuple | None = None
        self.skipped: list[str] = []
        """The bridging links left out (`bridging_pairs`), once the objects are made."""
        self.bridging_codes: tuple[dict[int, int], dict[int, int]] | None = None
        """Over columns, each side's bridging links (anaphor -> anchor) as the document's mention numbers."""

    def counts_over_columns(self, name: str) -> bool:
        """Whether the score `name` (a coreference metric or BLANC part, `mentions`, `non_referring`)
        of this document is counted over columns."""
        return self.columnar and (not self.credits_split or name in SPLIT_OVER_COLUMNS)

    def column_count(self, name: str) -> object | None:
        """The score `name` counted over columns (counted now if not yet), or None where it is not."""
        if name not in self.counted and self.column_counter is not None and self.counts_over_columns(name):
            self.column_counter.count(name)
        return self.counted.get(name)

    def objects(self) -> tuple[SideClusters, SideClusters, Alignment, dict[Mention, Mention], dict[Mention, Mention]]:
        """Both sides' clusters, their alignment and both sides' bridging links (anaphor -> anchor)."""
        if self._objects is None:
            key, response, key_links, response_links = self.sides()
            alignment = align(key.clusters, response.clusters, self.settings.match)
            _share_equal_mentions([key, response], alignment)
            self._objects = (key, response, alignment, key_links, response_links)
        return self._objects

    def sides(self) -> tuple[SideClusters, SideClusters, dict[Mention, Mention], dict[Mention, Mention]]:
        """Both sides' clusters and bridging links, not aligned: what the bridging and non-referring
        errors read (on the UA book the alignment was a third of the objects' time, and the first
        screen waits for those errors).  The same objects `objects` aligns (its clusters' equal
        mentions then one object: equal in value to these)."""
        if self._sides is None:
            s = self.settings
            sides = [side_clusters(doc.layer_table(s.discourse_deixis), s.match, s.keep_singletons, s.keep_split,
                                   s.keep_zeros) for doc in (self.key, self.response)]
            bridges = [bridging_pairs(doc, side.mention_of, self.skipped) if any(m.name in s.metrics for m in BRIDGING)
                       else {}
                       for doc, side in zip((self.key, self.response), sides)]
            self._sides = (sides[0], sides[1], bridges[0], bridges[1])
        return self._sides

    @property
    def key_side(self) -> SideClusters:
        return self.objects()[0]

    @property
    def response_side(self) -> SideClusters:
        return self.objects()[1]

    @property
    def alignment(self) -> Alignment:
        return self.objects()[2]

    @property
    def key_bridging(self) -> dict[Mention, Mention]:
        return self.objects()[3]

    @property
    def response_bridging(self) -> dict[Mention, Mention]:
        return self.objects()[4]


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
        scores: dict[str, AnyScore] = {}
        for metric in COREFERENCE:
            if metric is BLANC and all(part in totals for part in BLANC_PARTS):
                scores[BLANC.name] = CorefudBlancScore(*(_score(totals[part]) for part in BLANC_PARTS))
            elif metric.name in totals:
                scores[metric.name] = _score(totals[metric.name])
        if all(part in scores for part in CONLL.parts):
            scores[CONLL.name] = CONLL.combine(scores)
        return scores


def bridging_pairs(doc: UADocument, mention_of: Mapping[str, M], warnings: list[str]) -> dict[M, M]:
    """Anaphor -> anchor mention (a later link from one MarkableID replaces an earlier; a later
    anaphor of the same words replaces the anchor, in the first one's place); a link naming a
    markable the scored layer lacks is left out, with a warning.  `mention_of`: MarkableID -> its
    mention (a `Mention`, or its number over columns)."""
    anchors: dict[str, str] = {}
    for link in doc.bridging:
        anchors[link.anaphor] = link.anchor
    out: dict[M, M] = {}
    for anaphor, anchor in anchors.items():
        if anaphor not in mention_of or anchor not in mention_of:
            warnings.append(f"{doc.path}: {doc.name}: bridging link {anaphor} -> {anchor}")
            continue
        out[mention_of[anaphor]] = mention_of[anchor]
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
        if check_words and key.words != response.words:  # compared at C speed; the first difference found after
            i = next(i for i, (word, other) in enumerate(zip(key.words, response.words)) if word != other)
            raise InputError(response_path, response.word_lines[i], f"word {response.words[i]!r} where the key has "
                                                                   f"{key.words[i]!r} ({key_path}:{key.word_lines[i]})")
        out.append((key, response))
    return out


def score_document(key: UADocument, response: UADocument, settings: Settings, warnings: list[str]) -> ScoredDocument:
    """A document pair to be scored: over columns where they apply (exact matching, no split
    antecedent to credit; `count_over_columns` then counts them, the bridging links read here as
    mention numbers, so that their warnings come in document order), else over the clusters of
    mentions, made now."""
    s = settings
    key_table, response_table = key.layer_table(s.discourse_deixis), response.layer_table(s.discourse_deixis)
    columnar = applies(key_table, response_table, words=len(key.words), match=s.match, keep_split=s.keep_split,
                       only_split=s.only_split, credits_split=SPLIT_OVER_COLUMNS.issuperset(s.metrics))
    document = ScoredDocument(key, response, settings, columnar)
    if not columnar:
        document.objects()
        warnings.extend(document.skipped)
    elif any(m.name in s.metrics for m in BRIDGING):  # links as the document's mention numbers
        codes, _ = mention_codes(0, (key_table, response_table))
        document.bridging_codes = tuple(bridging_pairs(doc, dict(zip(table.ids, numbers.tolist())), warnings)
                                        for doc, table, numbers in zip((key, response), (key_table, response_table),
                                                                       codes))
    return document


def count_over_columns(documents: Sequence[ScoredDocument], settings: Settings) -> None:
    """The scores of `settings` of every columnar document, counted over all their columns at once
    (`metrics.measures.ua_columns`), into each document's `counted`; any other score over columns
    is counted when first asked for (`ScoredDocument.column_count`): the command line's road knows
    its metrics only when it scores."""
    chosen = [d for d in documents if d.columnar]
    if not chosen:
        return
    counter = ColumnCounter(chosen, settings)
    for document in chosen:
        document.column_counter = counter
    asked = set(settings.metrics)
    for metric in COREFERENCE:
        if metric.name in asked:
            for part in (BLANC_PARTS if metric is BLANC else (metric.name,)):
                counter.count(part)
    for name in (MENTIONS.name, NON_REFERRING.name):
        if name in asked:
            counter.count(name)
    for number, document in enumerate(chosen):
        if document.bridging_codes is not None:
            key_links, response_links = document.bridging_codes
            anchors = np.array([*key_links.values(), *response_links.values()], np.int64)
            clusters = counter.sides().key.cluster_of(in_document(number, anchors)).tolist()
            key_index = {code: cluster for code, cluster in zip(anchors.tolist(), clusters) if cluster >= 0}
            document.counted[BRIDGING_SCORES] = relations.bridging(relations.bridging_outcomes(key_links, response_links,
                                                                                              key_index))


class ColumnCounter:
    """The columnar documents of one corpus, their columns (made once, when first needed) and each
    score counted over all of them at once, into each document's `counted` where it applies
    (`ScoredDocument.counts_over_columns`)."""

    def __init__(self, chosen: Sequence[ScoredDocument], settings: Settings) -> None:
        self.chosen = list(chosen)
        self.settings = settings
        self._sides: ColumnSides | None = None
        self.done: set[str] = set()

    def sides(self) -> ColumnSides:
        if self._sides is None:
            s, deixis = self.settings, self.settings.discourse_deixis
            self._sides = column_sides([(d.key.layer_table(deixis), d.response.layer_table(deixis)) for d in self.chosen],
                                       keep_singletons=s.keep_singletons, keep_split=s.keep_split,
                                       keep_zeros=s.keep_zeros)
        return self._sides

    def count(self, name: str) -> None:
        """The score `name` (a coreference metric or BLANC part, `mentions` or `non_referring`) of
        every chosen document, counted over columns."""
        if name in self.done:
            return
        self.done.add(name)
        if name == MOR.name:  # its words: documents of markables of one part each, no split antecedent credited
            deixis = self.settings.discourse_deixis
            values = columnar.mor(self.sides(), [not (d.credits_split or d.key.layer_table(deixis).irregular
                                                      or d.response.layer_table(deixis).irregular) for d in self.chosen])
        else:
            kernel = {MENTIONS.name: columnar.mentions, NON_REFERRING.name: columnar.non_referring}.get(name) or \
                columnar.KERNELS[name]
            values = kernel(self.sides())
        for document, value in zip(self.chosen, values):
            if document.counts_over_columns(name):
                document.counted[name] = value


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
                 settings: Settings = Settings(), *, check_words: bool = True) -> UAResult:
    """Every metric of `settings` over the corpus (and each document's, in `documents`).  Without
    `check_words` the words of key and response may differ (only their number must agree): the
    UA scorer's own test cases need it.  The documents are scored as the road scores them
    (`ua_pair`, `result_of`)."""
    settings = settings.completed()
    skipped: list[str] = []
    with gc_paused():  # many small objects, no cycle
        documents = [score_document(k, r, settings, skipped)
                     for k, r in pair_documents(keys, responses, key_path, response_path, check_words)]
        count_over_columns(documents, settings)
        pairs = [ua_pair(document, settings) for document in documents]
    return result_of(settings, pairs, bridging_warnings(skipped))


def ua_pair(document: ScoredDocument, settings: Settings) -> DocPair:
    """A document pair of the road whose scores are the UA scorer's (`Scorer.UA`); its token spans
    (`metrics.corpus.ua_spans`) are made when first asked for."""
    ua = UAPair(document, settings.only_split, keep_singletons=settings.keep_singletons,
                keep_zeros=settings.keep_zeros)
    return DocPair(document.name, ua.spans, ua=ua, size=len(document.key.words) + len(document.response.words))


def result_of(settings: Settings, pairs: Sequence[DocPair], warnings: Sequence[str]) -> UAResult:
    """The corpus scores the UA scorer prints under `settings` (the catalogue's computations under
    `Scorer.UA`, documents summed in the key's order), each document's scores and counts, and the
    corpus counts the error analysis prices against."""
    shown = shown_metrics(settings)
    scored = PreparedCorpus(list(pairs), list(warnings)).score(metrics=names(*shown))
    in_document = [metric.name for metric in DOCUMENT_ORDER if metric in shown]
    parts = [part for metric in COREFERENCE if metric.name in settings.metrics
             for part in (BLANC_PARTS if metric is BLANC else (metric.name,))]
    totals = {part: [0, 0, 0, 0] for part in parts}
    split = {part: [0, 0, 0, 0] for part in parts}
    documents = []
    for pair, (_, scores) in zip(pairs, scored.documents):
        ua = pair.ua
        assert isinstance(ua, UAPair)
        document = ua.document
        document.scores = {name: scores[name] for name in in_document}
        document.counts = {}
        for part in parts:
            counts, split_counts = ua.part(part)
            _sum(totals[part], counts)
            _sum(split[part], split_counts)
            document.counts[part] = counts
        documents.append(document)
    micro = {metric.name: scored.micro[metric.name] for metric in shown}
    return UAResult(settings, micro, documents, list(warnings), totals, split)


def _score(counts) -> Score:
    pn, pd, rn, rd = (float(c) for c in counts)
    return Score(rn, rd, pn, pd)


class UAPair:
    """One document pair's scores as the UA scorer computes them (`catalog.UAScores`, read by the
    catalogue's computations under `Scorer.UA`): each computed when first asked for, and kept."""

    def __init__(self, document: ScoredDocument, only_split: bool, *, keep_singletons: bool = True,
                 keep_zeros: bool = False) -> None:
        self.document = document
        self.only_split = only_split
        """Whether the coreference scores are those of the split antecedents' alignments alone."""
        self._keep = (keep_singletons, keep_zeros)
        self._token_spans: TokenSpans | None = None
        self._object_sides: coref.Sides | None = None
        self._counts: dict[str, tuple[coref.Counts, coref.Counts]] = {}
        self._bridging: dict[str, Score] | None = None

    @property
    def token_spans(self) -> TokenSpans:
        """The pair as token spans, with each side's relations (built once, when first asked for)."""
        if self._token_spans is None:
            from metrics.corpus.ua_spans import token_spans

            doc = self.document
            self._token_spans = token_spans(doc.key, doc.response, keep_singletons=self._keep[0],
                                            keep_zeros=self._keep[1])
        return self._token_spans

    def spans(self) -> Spans:
        """The identity chains as the engine's token-span pair (`DocPair.spans`)."""
        made = self.token_spans
        return prepare_pair(made.key, made.response).spans

    @property
    def _sides(self) -> coref.Sides:
        """The document's clusters of mentions as the object kernels read them (made once)."""
        if self._object_sides is None:
            doc = self.document
            self._object_sides = coref.Sides(doc.key_side.clusters, doc.response_side.clusters, doc.alignment.partner)
        return self._object_sides

    def part(self, part: str) -> tuple[coref.Counts, coref.Counts]:
        """A coreference metric's (BLANC part's) counts on the document, and its split antecedents' own
        (none over columns: they apply only where no split antecedent is credited)."""
        if part not in self._counts:
            counted = self.document.column_count(part)
            if counted is not None:
                self._counts[part] = (counted, (0, 0, 0, 0))
            else:
                counts, split = coref.document_counts(part, self._sides)
                self._counts[part] = (counts, split if split is not None else (0, 0, 0, 0))
        return self._counts[part]

    def coreference(self, metric: Metric) -> AnyScore:
        if metric is BLANC:
            halves = [self.part(part) for part in BLANC_PARTS]
            whole = CorefudBlancScore(_score(halves[0][0]), _score(halves[1][0]))
            if not self.only_split:
                return whole
            return SplitBlancScore.of(whole, CorefudBlancScore(_score(halves[0][1]), _score(halves[1][1])))
        counts, split = self.part(metric.name)
        return _score(split if self.only_split else counts)

    def mentions(self) -> AnyScore:
        doc = self.document
        counted = doc.column_count(MENTIONS.name)
        if counted is not None:
            return counted
        return relations.mentions(doc.key_side.clusters, doc.response_side.clusters, doc.alignment.partner)

    def mor(self) -> AnyScore:
        counted = self.document.column_count(MOR.name)
        if counted is not None:
            return counted
        return relations.mor(self.document.key_side.clusters, self.document.response_side.clusters)

    def non_referring(self) -> AnyScore:
        counted = self.document.column_count(NON_REFERRING.name)
        if counted is not None:
            return counted
        return relations.non_referring(self.document.key_side.non_referring, self.document.response_side.non_referring)

    def bridging(self) -> dict[str, Score]:
        if self._bridging is None and BRIDGING_SCORES in self.document.counted:
            self._bridging = self.document.counted[BRIDGING_SCORES]
        if self._bridging is None:
            doc = self.document
            key_index = cluster_index(doc.key_side.clusters)
            self._bridging = relations.bridging(relations.bridging_outcomes(doc.key_bridging, doc.response_bridging,
                                                                            key_index))
        return self._bridging

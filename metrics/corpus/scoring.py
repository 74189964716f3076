"""Corpus scoring: pair documents, align them once, then score under any weight vector.

`prepare` does the work every request needs (pairing, v8.01 mention identification, contingency
tables); `PreparedCorpus.score` computes what is asked for.  A `DocPair` keeps what does not depend
on the weights (the official metrics, mention types), so the workbench, re-scoring on every weight
edit, pays only for the LMetrics then.  Nothing is computed that no one asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from operator import attrgetter
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from metrics.measures import catalog, formulas
from metrics.measures.catalog import Metric, Scorer, UAScores
from metrics.measures.ace import AceOptions, AceScore, ace_document
from metrics.mentions.alignment import Alignment, align, align_all, duplicate_warnings
from metrics.mentions.chains import ChainView, key_view, response_view
from metrics.runtime.gc_pause import gc_paused
from metrics.model import Document, MentionType, Span
from metrics.runtime.parallel import PARALLEL_TOKENS, fork_map, split_in_runs
from metrics.mentions.characters import CharacterAlignment
from metrics.mentions.pairing import (Named, T, check_tokens_align, missing_warning, pair_documents, require_common,
                                      spaced_twins, twins_warning, unused_warning)
from metrics.corpus.together import load_batched, score_columns, with_parts
from metrics.measures.columns import Column, DocumentScores
from metrics.measures.score import AnyScore, MeanScore, mean_score, total
from metrics.measures.table import ChainTypes, Table, build_table
from metrics.measures.table_block import build_tables
from metrics.measures.weights import W4, Weights

if TYPE_CHECKING:  # named in signatures only: a CoNLL-2012 run never loads the CorefUD and CRAC readers
    from metrics.formats.crac_repairs import CracReport
    from metrics.mentions.corefud import AlignedDocument


class Spans(NamedTuple):
    """A document pair as token spans: key and response documents, v8.01's alignment, their table
    (a named tuple: one is made per document, and a frozen dataclass's fields cost a call each)."""

    key: Document
    response: Document
    alignment: Alignment
    table: Table


class DocPair:
    """A key document, its response document (empty if the response lacks it) and their table.

    The spans may be given, or a function that makes them when first asked for (a CorefUD pair
    scored from its node mentions alone never needs them: `metrics.conventions.projection`).

    It keeps what does not depend on the weights once computed: the weight-independent scores,
    the mention types (every mention's head: dear, and only Chen & Ng, Tuggener, the error
    analysis and the workbench use them), the chain views, the chain weights of the latest W."""

    def __init__(self, name: str, spans: Spans | Callable[[], Spans], *,
                 typed: dict[Span, tuple[MentionType, str]] | None = None, ace: AceOptions = AceOptions(),
                 aligned: AlignedDocument | None = None, ua: UAScores | None = None, size: int | None = None) -> None:
        self.name = name
        self.ace_options = ace
        self._make_spans: Callable[[], Spans] | None = None if isinstance(spans, Spans) else spans
        if isinstance(spans, Spans):
            self.spans, self.key, self.response, self.alignment, self.table = spans, *spans
        self._size = size
        self.aligned = aligned
        """Under the CorefUD conventions, the pair as corefud-scorer aligned it
        (`metrics.conventions.corefud`): the metrics it computes come from it."""
        self.ua = ua
        """Under the UA conventions, the pair's scores as the UA scorer computes them (`conventions.ua`)."""
        self.scorer = Scorer.COREFUD if aligned is not None else Scorer.UA if ua is not None else Scorer.V801
        """Whose computation of each metric this pair's scores are."""
        self._scores: dict[str, AnyScore] = {}
        self._rows: list[tuple[dict[str, Column], int, Weights]] = []
        self._typed: dict[Span, tuple[MentionType, str]] | Callable[[], dict] | None = typed  # (a maker: offered)
        self._types: dict[Span, MentionType] | None = None
        self._chain_types: ChainTypes | None = None
        self._id_types: np.ndarray | None = None
        self._views: tuple[ChainView, ChainView] | None = None
        self._linguistic: tuple[Weights, formulas.ChainWeights] | None = None
        self._application: dict[str, AnyScore] | None = None

    @cached_property
    def spans(self) -> Spans:
        """The pair as token spans, made when first read (given at once, they and their fields are
        the pair's own attributes: read a quarter of a million times scoring 20,000 tiny documents,
        each read was two property calls deep)."""
        assert self._make_spans is not None
        return self._make_spans()

    key = cached_property(attrgetter("spans.key"))
    """The key `Document` (the spans' own, held: see `spans`)."""
    response = cached_property(attrgetter("spans.response"))
    """The response `Document` (an empty one when the response lacks the document)."""
    alignment = cached_property(attrgetter("spans.alignment"))
    """v8.01's `Alignment` of the pair's mentions."""
    table = cached_property(attrgetter("spans.table"))
    """The pair's contingency `Table`."""
    typed = property(lambda self: self._typed is not None, doc="Whether its spans are typed already (`typed_spans`).")

    @property
    def cost(self) -> int:
        """What scoring this pair costs, roughly: its key and response tokens (`size` while its spans are not made)."""
        if self._size is not None and "spans" not in self.__dict__:
            return self._size
        return len(self.key.words) + len(self.response.words)

    def score(self, metric: Metric | str, weights: Weights = W4) -> AnyScore:
        """One metric of the catalogue (or its name), computed as this pair's scorer computes it;
        weight-independent ones are computed once and kept."""
        name = metric if isinstance(metric, str) else metric.name
        found = self._scores.get(name)  # only weight-independent scores are kept here
        if found is not None:
            return found
        if isinstance(metric, str):
            metric = catalog.METRICS[metric]
        kept = self._kept_column(metric, weights)
        found = kept[0].row(kept[1]) if kept is not None else metric.computation(self.scorer)(self, weights)
        if not metric.weighted:
            self._scores[metric.name] = found
        return found

    def has(self, metric: Metric, weights: Weights) -> bool:
        """Whether this metric's score (under `weights`, if it depends on them) is kept already."""
        return metric.name in self._scores or self._kept_column(metric, weights) is not None

    def keep(self, columns: dict[str, Column], row: int, weights: Weights) -> None:
        """Row `row` of `columns`, this pair's scores computed with other documents' under
        `weights` (`score_columns`).  An earlier scoring each of whose metrics these columns give
        again, or is stale (weighted, under other W), is let go: one set of columns is kept, not each."""
        self._rows = [kept for kept in self._rows if not all(  # superseded or stale: let go
            name in columns or (catalog.METRICS[name].weighted and kept[2] != weights) for name in kept[0])]
        self._rows.append((columns, row, weights))

    def _kept_column(self, metric: Metric, weights: Weights) -> tuple[Column, int] | None:
        for columns, row, scored_under in reversed(self._rows):
            column = columns.get(metric.name)
            if column is not None and row not in column.missing and (not metric.weighted or scored_under == weights):
                return column, row
        return None

    def ace(self) -> AceScore:
        """The ACE-value's sums under this pair's `ace_options` (types from the LMetrics' rules)."""
        response_types = self.response.entity_types
        if response_types is not None:
            response_types = [response_types[i] for i in self.alignment.response_chain_source]
        return ace_document(self.table, self.id_types, self.alignment.n_key_ids, self.alignment.response_chains,
                            key_entity_types=self.key.entity_types, response_entity_types=response_types,
                            options=self.ace_options)

    def linguistic_weights(self, weights: Weights) -> formulas.ChainWeights:
        """Chen & Ng's chain weights under W, shared by the four LMetrics (kept for the latest W)."""
        if self._linguistic is None or self._linguistic[0] != weights:
            self._linguistic = (weights, formulas.linguistic_weights(self.table, self.chain_types, weights))
        return self._linguistic[1]

    def application(self, together: Sequence[DocPair] = ()) -> dict[str, AnyScore]:
        """Tuggener's five metrics, kept; with `together`, judged in one pass with the pairs there
        that lack theirs (`tuggener.score_documents`)."""
        if self._application is None:
            from metrics.measures.tuggener import score_documents

            group = [self, *(pair for pair in together if pair is not self and pair._application is None)]
            for pair, found in zip(group, score_documents(group)):
                pair._application = found
        return self._application

    @property
    def key_view(self) -> ChainView:
        return self._chain_views()[0]

    @property
    def response_view(self) -> ChainView:
        return self._chain_views()[1]

    def _chain_views(self) -> tuple[ChainView, ChainView]:
        if self._views is None:
            self._views = (key_view(self.key), response_view(self.response))
        return self._views

    def typed_spans(self) -> dict[Span, tuple[MentionType, str]]:
        """Type and deciding rule of every span of the pair (key and response spans alike): as typed
        with other pairs' when offered (`offer_types`), else typed here."""
        self._typed = self._typed() if callable(self._typed) else self._typed
        if self._typed is None:
            from metrics.mentions.types import assign_types

            self._typed = assign_types(self.key, self.alignment.spans)
        return self._typed

    def offer_types(self, make: Callable[[], dict[Span, tuple[MentionType, str]]], kinds: np.ndarray) -> bool:
        """Unless typed already (then False), take the types as typed with other pairs' (`laid.Tables.id_types`):
        the ids' `kinds`, and the dict `make` makes when first read (the scores read the ids' alone)."""
        if self._typed is None:
            self._typed, self._id_types = make, kinds if self._id_types is None else self._id_types
        return self._typed is make

    @property
    def types(self) -> dict[Span, MentionType]:
        """The type of every span of the pair."""
        if self._types is None:
            self._types = {span: t for span, (t, _) in self.typed_spans().items()}
        return self._types

    def fragment(self, key: Document, response: Document, alignment: Alignment, table: Table) -> DocPair:
        """A part of this pair (chains an error's fix reaches) that shares this pair's types."""
        part = DocPair(self.name, Spans(key, response, alignment, table), typed=self.typed_spans(), ace=self.ace_options)
        part._types = self.types
        return part

    @property
    def chain_types(self) -> ChainTypes:
        """Mention-type counts of the table's chains, cells and parts (for the LMetrics)."""
        if self._chain_types is None:
            self._chain_types = self.table.type_counts(self.id_types)
        return self._chain_types

    @property
    def id_types(self) -> np.ndarray:
        """Each mention id's type (0 NAME, 1 NOMINAL, 2 PRONOUN), kept: the LMetrics, ACE and Tuggener's read it."""
        if self._id_types is None:
            typed = self.typed_spans()
            self._id_types = np.fromiter((int(typed[s][0]) for s in self.alignment.spans), dtype=np.int64,
                                         count=len(self.alignment.spans))
        return self._id_types


@dataclass(frozen=True)
class CorpusResult:
    """Scores of a corpus under one weight vector: micro (official), macro, and per document."""

    weights: Weights
    metrics: tuple[str, ...]
    micro: dict[str, AnyScore]
    macro: dict[str, MeanScore]
    documents: Sequence[tuple[str, dict[str, AnyScore]]]
    """Each document's name and scores (`DocumentScores` when scored here: held as columns)."""

    def updated(self, newer: CorpusResult) -> CorpusResult:
        """This result with `newer`'s metrics replacing or joining its own (after a weight edit
        only the weighted metrics are rescored, every other one is independent of W and is kept;
        metrics scored later join those scored first)."""
        metrics = catalog.in_order({*self.metrics, *newer.metrics})
        mine, theirs = self.documents, newer.documents
        if isinstance(mine, DocumentScores) and isinstance(theirs, DocumentScores) and mine.names == theirs.names:
            joined = {**mine.columns, **theirs.columns}
            documents: Sequence[tuple[str, dict[str, AnyScore]]] = DocumentScores(mine.names, joined)
        else:
            updated = dict(theirs)
            documents = [(name, {**scores, **updated.get(name, {})}) for name, scores in mine]
        micro, macro = {**self.micro, **newer.micro}, {**self.macro, **newer.macro}
        return CorpusResult(newer.weights, metrics, micro, macro, documents)


def document_costs(pairs: Sequence[DocPair]) -> list[int]:
    """What scoring each pair costs, roughly: its key and response tokens."""
    return [pair.cost for pair in pairs]


class PreparedCorpus:
    """Key and response documents paired and aligned, ready to be scored under any weights."""

    def __init__(self, pairs: list[DocPair], warnings: list[str], characters: CharacterAlignment | None = None,
                 repairs: CracReport | None = None) -> None:
        self.pairs = pairs
        self.warnings = warnings
        self.characters = characters
        """A response in its own words: what mapping it onto the key's words did (else None)."""
        self.repairs = repairs
        """A CRAC LLM-track response laid onto the key: what its repair changed (else None)."""

    @property
    def scorer(self) -> Scorer:
        """Whose computation of each metric the pairs' scores are (all pairs have the same)."""
        return self.pairs[0].scorer if self.pairs else Scorer.V801

    def score(self, weights: Weights = W4, metrics: Sequence[str] | None = None, processes: int = 1) -> CorpusResult:
        """The corpus scores.  With `processes` > 1 the documents are scored in that many forked processes
        (`metrics.runtime.parallel`), when the corpus is large enough to gain from it (`PARALLEL_TOKENS` per process);
        the result is the same either way.  The pairs scored in a child do not keep what they computed: a caller that
        asks again (the workbench) scores in its own process."""
        wanted = catalog.resolve(metrics, self.scorer)
        pairs = self.pairs

        def score_piece(indices: list[int]) -> dict[str, Column]:
            return score_columns([pairs[i] for i in indices], wanted, weights)

        with gc_paused():
            pieces = split_in_runs(document_costs(pairs), processes, PARALLEL_TOKENS)
            if len(pieces) > 1:
                load_batched()
            return assembled(pairs, pieces, fork_map(score_piece, pieces), weights, wanted)

    def rescore(self, previous: CorpusResult, weights: Weights) -> CorpusResult:
        """`previous` under new weights: only the metrics that depend on W are computed again."""
        weighted = weighted_metrics(previous)
        return previous.updated(self.score(weights, weighted)) if weighted else previous


def weighted_metrics(result: CorpusResult) -> tuple[str, ...]:
    """The metrics of a result that depend on the weights W (the LMetrics): what a weight edit
    rescores; every other metric is kept."""
    return tuple(m for m in catalog.names(weighted=True) if m in result.metrics)


def assembled(pairs: Sequence[DocPair], pieces: Sequence[list[int]], results: Sequence[dict[str, Column]],
             weights: Weights, metrics: tuple[str, ...]) -> CorpusResult:
    """The corpus result of documents scored in pieces (each piece's columns in its index order)."""
    order = [i for piece in pieces for i in piece]
    names = set(results[0]) if results else set()
    if order == list(range(len(order))):
        columns = {name: Column.joined([found[name] for found in results]) for name in names}
    else:  # pieces of interleaved documents: back to the pairs' order
        place = [0] * len(order)
        for at, i in enumerate(order):
            place[i] = at
        columns = {name: Column.joined([found[name] for found in results]).taken(place) for name in names}
    return aggregate(DocumentScores([pair.name for pair in pairs], {name: columns[name] for name in
                                                                    catalog.in_order(names)}), weights, metrics)


def score_pair(pair: DocPair, weights: Weights = W4, metrics: Sequence[str] = catalog.ALL_METRICS) -> dict[str, AnyScore]:
    """The requested metrics of one document pair, with the parts a combined metric needs (the
    corpus CoNLL score needs the summed counts of its parts; `aggregate` drops them again)."""
    return {name: pair.score(name, weights) for name in with_parts(tuple(metrics))}


def aggregate(documents: Sequence[tuple[str, dict[str, AnyScore]]], weights: Weights,
              metrics: tuple[str, ...]) -> CorpusResult:
    """Micro (official: counts summed, then divided) and macro (mean of per-document values).
    Documents held as columns (`DocumentScores`) are summed and averaged column by column: the
    same sums in the same order, without a score object per document."""
    asked = set(metrics)
    if isinstance(documents, DocumentScores):
        columns = documents.columns
        micro = _micro(lambda name: columns[name].total() if name in columns else None, metrics)
        macro = {name: columns[name].mean() for name in metrics if name in columns and len(columns[name])}
        if not set(columns) <= asked:  # drop what only a combined metric needed
            documents = documents.only(metrics)
        return CorpusResult(weights, metrics, micro, macro, documents)
    micro = _micro(lambda name: total(scores[name] for _, scores in documents if name in scores), metrics)
    macro: dict[str, MeanScore] = {}
    for name in metrics:
        values = [scores[name] for _, scores in documents if name in scores]
        if values:
            macro[name] = mean_score(values)
    if not all(scores.keys() <= asked for _, scores in documents):  # drop what only a combined metric needed
        documents = [(name, {m: s for m, s in scores.items() if m in asked}) for name, scores in documents]
    return CorpusResult(weights, metrics, micro, macro, documents)


def _micro(summed: Callable[[str], AnyScore | None], metrics: tuple[str, ...]) -> dict[str, AnyScore]:
    """The corpus scores of `metrics`: each one's documents `summed`, a combined one from its parts'."""
    micro: dict[str, AnyScore] = {}
    for name in catalog.with_parts(metrics):
        metric = catalog.METRICS[name]
        if metric.parts:
            if all(part in micro for part in metric.parts):
                micro[name] = metric.combine(micro)
            continue
        found = summed(name)
        if found is not None:
            micro[name] = found
    return {m: micro[m] for m in metrics if m in micro}


def prepare(keys: list[Document], responses: list[Document], on_document: Callable[[], None] | None = None,
            ace: AceOptions = AceOptions(), *, characters: CharacterAlignment | None = None) -> PreparedCorpus:
    """Pair documents (`pair_corpus`), align each pair as v8.01 does and build its table.

    `on_document` is called after each document (a caller's progress display); `ace` says which
    ACE-value the pairs compute; `characters`, what mapping the response onto the key's words did.
    """
    with gc_paused():
        where = responses[0].path if responses else "response"
        partners, warnings = pair_corpus(keys, responses, where)
        sides, found, ends = [], [], [0]  # each pair's warnings from `partner` are found[ends[i]:ends[i + 1]]
        for key, response in zip(keys, partners):
            sides.append(partner(key, response, where, found))
            ends.append(len(found))
            if on_document is not None:
                on_document()
        alignments = align_all(keys, sides)  # all at once, as the tables: numpy's calls paid once
        for i, (key, response, alignment) in enumerate(zip(keys, sides, alignments)):
            warnings.extend(found[ends[i]:ends[i + 1]])
            warnings.extend(duplicate_warnings(key, response, alignment))
        tables = build_tables(alignments)
        pairs = [DocPair(key.name, Spans(key, response, alignment, table), ace=ace)
                 for key, response, alignment, table in zip(keys, sides, alignments, tables)]
        return PreparedCorpus(pairs, warnings, characters)


def pair_corpus(keys: Sequence[Named], responses: Sequence[T], response_path: str) -> tuple[list[T | None], list[str]]:
    """The CoNLL-2012 convention's pairing of a response's documents with the key's (by name,
    `metrics.mentions.pairing`): each key's partner (None when the response lacks it) and the warning for the response
    documents no key took (a key's and a response's whose names differ only in white space at an end named together,
    `spaced_twins`).  A response sharing no document with the key is refused.  One rule for documents in memory
    (`prepare`) and for byte ranges of documents (the road's streaming, `metrics.conventions.pipeline.stream`)."""
    partners, unused = pair_documents(keys, responses)
    require_common(response_path, keys, partners, responses)
    missing = [key for key, found in zip(keys, partners) if found is None]
    twins = spaced_twins(missing, unused) if missing and unused else []
    if twins:  # named together, not among the others
        taken = {id(doc) for pair in twins for doc in pair}
        missing, unused = [d for d in missing if id(d) not in taken], [d for d in unused if id(d) not in taken]
    return partners, [twins_warning(response_path, twins)] * bool(twins) + \
        [unused_warning(response_path, unused)] * bool(unused) + [missing_warning(response_path, missing)] * bool(missing)


def prepare_document(key: Document, response: Document | None, response_path: str, warnings: list[str],
                     ace: AceOptions = AceOptions()) -> DocPair:
    """One key document with its response partner, paired as `pair_corpus` paired them."""
    return prepare_pair(key, partner(key, response, response_path, warnings), warnings, ace)


def partner(key: Document, response: Document | None, response_path: str, warnings: list[str]) -> Document:
    """A key document's response partner as `pair_corpus` found it: a missing partner is an empty
    response (`pair_corpus` warned of it), a present one must have the key's tokens."""
    if response is None:
        return Document(name=key.name, words=key.words, chains=[], path=response_path)
    warnings.extend(check_tokens_align(key, response))
    return response


def prepare_pair(key: Document, response: Document, warnings: list[str] | None = None,
                 ace: AceOptions = AceOptions(), aligned: AlignedDocument | None = None) -> DocPair:
    """Align one document pair and reduce it to its table; scores and types follow on request."""
    alignment = align(key, response)
    if warnings is not None:
        warnings.extend(duplicate_warnings(key, response, alignment))
    table = build_table(alignment)
    return DocPair(key.name, Spans(key, response, alignment, table), ace=ace, aligned=aligned)

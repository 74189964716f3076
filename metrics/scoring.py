"""Corpus scoring: pair documents, align them once, then score under any weight vector.

`prepare` does the work every request needs (pairing, v8.01 mention identification, contingency
tables); `PreparedCorpus.score` computes what is asked for.  A `DocPair` keeps what does not depend
on the weights (the official metrics, mention types) once computed, so the workbench, which
re-scores on every weight edit, pays only for the LMetrics then: a few numpy operations per
document.  Nothing is computed that no one asked for: `corefwb score --metrics muc` finds no heads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from . import formulas
from .alignment import Alignment, align
from .blanc import blanc_counts
from .gc_pause import gc_paused
from .model import Document, MentionType, Span
from .readers import check_tokens_align
from .score import AnyScore, BlancScore, MeanScore, Score
from .table import ChainTypes, Table, build_table
from .weights import W4, Weights

OFFICIAL = ("muc", "bcub", "ceafm", "ceafe", "blanc")
AGNOSTIC = ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
LINGUISTIC = ("lmuc", "lbcub", "lceafm", "lceafe")
APPLICATION = ("immediate", "inferred", "anchor_ed", "anchor_em", "anchor")
ALL_METRICS = AGNOSTIC + ("conll",) + LINGUISTIC + APPLICATION
CONLL_PARTS = ("muc", "bcub", "ceafe")


def check_metrics(names: Sequence[str] | None) -> tuple[str, ...]:
    """Validate metric names (ValueError names the unknown one); None means every metric."""
    if names is None:
        return ALL_METRICS
    unknown = [n for n in names if n not in ALL_METRICS]
    if unknown:
        raise ValueError(f"unknown metric {unknown[0]!r}; choose from {', '.join(ALL_METRICS)}")
    return tuple(n for n in ALL_METRICS if n in names)


class DocPair:
    """A key document, its response document (empty if the response lacks it) and their table.

    Mention types are found on first use (`types`): they need every mention's head, the dearest
    step of preparing a document, and only the LMetrics, the application metrics, the error
    analysis and the workbench use them.
    """

    def __init__(self, name: str, key: Document, response: Document, alignment: Alignment, table: Table,
                 typed: dict[Span, tuple[MentionType, str]] | None = None) -> None:
        self.name = name
        self.key = key
        self.response = response
        self.alignment = alignment
        self.table = table
        self._agnostic: dict[str, AnyScore] = {}
        self._typed = typed
        self._types: dict[Span, MentionType] | None = None
        self._chain_types: ChainTypes | None = None

    def agnostic(self, name: str) -> AnyScore:
        """A weight-independent score (one of AGNOSTIC), computed on first request and kept."""
        score = self._agnostic.get(name)
        if score is None:
            score = self._agnostic[name] = official_scores(self.table, self.alignment, (name,))[name]
        return score

    @property
    def official(self) -> dict[str, AnyScore]:
        """Every weight-independent score."""
        return {name: self.agnostic(name) for name in AGNOSTIC}

    def typed_spans(self) -> dict[Span, tuple[MentionType, str]]:
        """Type and deciding rule of every span of the pair (key and response spans alike)."""
        if self._typed is None:
            from .mention_types import assign_types

            self._typed = assign_types(self.key, self.alignment.spans)
        return self._typed

    @property
    def types(self) -> dict[Span, MentionType]:
        """The type of every span of the pair."""
        if self._types is None:
            self._types = {span: t for span, (t, _) in self.typed_spans().items()}
        return self._types

    def fragment(self, key: Document, response: Document, alignment: Alignment, table: Table) -> DocPair:
        """A part of this pair (chains an error's fix reaches) that shares this pair's types."""
        part = DocPair(self.name, key, response, alignment, table, self.typed_spans())
        part._types = self.types
        return part

    @property
    def chain_types(self) -> ChainTypes:
        """Mention-type counts of the table's chains, cells and parts (for the LMetrics)."""
        if self._chain_types is None:
            typed = self.typed_spans()
            id_types = np.fromiter((int(typed[s][0]) for s in self.alignment.spans), dtype=np.int64,
                                   count=len(self.alignment.spans))
            self._chain_types = self.table.type_counts(id_types)
        return self._chain_types


@dataclass
class CorpusResult:
    weights: Weights
    metrics: tuple[str, ...]
    micro: dict[str, AnyScore]
    macro: dict[str, MeanScore]
    documents: list[tuple[str, dict[str, AnyScore]]]


class PreparedCorpus:
    """Key and response documents paired and aligned, ready to be scored under any weights."""

    def __init__(self, pairs: list[DocPair], warnings: list[str]) -> None:
        self.pairs = pairs
        self.warnings = warnings

    def score(self, weights: Weights = W4, metrics: Sequence[str] | None = None) -> CorpusResult:
        wanted = check_metrics(metrics)
        with gc_paused():
            documents = [(pair.name, score_pair(pair, weights, wanted)) for pair in self.pairs]
            return aggregate(documents, weights, wanted)


def score_pair(pair: DocPair, weights: Weights = W4, metrics: Sequence[str] = ALL_METRICS) -> dict[str, AnyScore]:
    """All requested metrics of one document pair."""
    out: dict[str, AnyScore] = {}
    for name in metrics:
        if name in AGNOSTIC:
            out[name] = pair.agnostic(name)
    if any(m in metrics for m in LINGUISTIC):
        cw = formulas.linguistic_weights(pair.table, pair.chain_types, weights)
        for name, fn in (("lmuc", formulas.muc), ("lbcub", formulas.bcub),
                         ("lceafm", formulas.ceaf_mention), ("lceafe", formulas.ceaf_entity)):
            if name in metrics:
                out[name] = fn(pair.table, cw)
    if any(m in metrics for m in APPLICATION):
        from .tuggener import score_document

        for name, value in score_document(pair).items():
            if name in metrics:
                out[name] = value
    if "conll" in metrics:
        parts = {name: pair.agnostic(name) for name in CONLL_PARTS}
        out["conll"] = conll_score(parts)
        # the corpus CoNLL score needs the summed counts of its parts; `aggregate` drops them again
        for name in CONLL_PARTS:
            out.setdefault(name, parts[name])
    return {name: out[name] for name in ALL_METRICS if name in out}


def conll_score(scores: dict[str, AnyScore]) -> MeanScore:
    """The CoNLL score: the mean of MUC, B3 and CEAFe (F1, and R and P likewise)."""
    parts = [scores[name] for name in CONLL_PARTS]
    return MeanScore(sum(p.recall for p in parts) / 3, sum(p.precision for p in parts) / 3,
                     sum(p.f1 for p in parts) / 3)


def aggregate(documents: list[tuple[str, dict[str, AnyScore]]], weights: Weights,
              metrics: tuple[str, ...]) -> CorpusResult:
    """Micro (official: counts summed, then divided) and macro (mean of per-document values)."""
    micro: dict[str, AnyScore] = {}
    macro: dict[str, MeanScore] = {}
    summed = metrics + tuple(m for m in CONLL_PARTS if "conll" in metrics and m not in metrics)
    for name in summed:
        values = [scores[name] for _, scores in documents if name in scores]
        if name == "conll":
            continue
        if not values:
            continue
        total = values[0]
        for value in values[1:]:
            total = total + value
        micro[name] = total
    if "conll" in metrics and all(m in micro for m in ("muc", "bcub", "ceafe")):
        micro["conll"] = conll_score(micro)
    for name in metrics:
        values = [scores[name] for _, scores in documents if name in scores]
        if values:
            n = len(values)
            macro[name] = MeanScore(sum(v.recall for v in values) / n, sum(v.precision for v in values) / n,
                                    sum(v.f1 for v in values) / n)
    documents = [(name, {m: s for m, s in scores.items() if m in metrics}) for name, scores in documents]
    return CorpusResult(weights, metrics, {m: micro[m] for m in metrics if m in micro}, macro, documents)


def prepare(keys: list[Document], responses: list[Document],
            on_document: Callable[[], None] | None = None) -> PreparedCorpus:
    """Pair documents by name, align each pair as v8.01 does and build its table.

    Documents pair by exact name; names that find no partner then pair by `document_key`, so a
    CoNLL-2012 key (`(X); part 000`) meets a CoNLL-U (`X`) or jsonlines (`X_0`) response.
    `on_document` is called after each document (a caller's progress display).
    """
    warnings: list[str] = []
    with gc_paused():
        return _prepare(keys, responses, warnings, on_document)


def _prepare(keys: list[Document], responses: list[Document], warnings: list[str],
             on_document: Callable[[], None] | None) -> PreparedCorpus:
    partners = pair_documents(keys, responses, warnings)
    pairs = []
    for key, response in zip(keys, partners):
        if response is None:
            where = responses[0].path if responses else "response"
            warnings.append(f"{where}: document {key.name!r} of the key is missing from the response: scored against an empty response")
            response = Document(name=key.name, words=key.words, chains=[], path=where)
        else:
            warnings.extend(check_tokens_align(key, response))
        pairs.append(prepare_pair(key, response, warnings))
        if on_document is not None:
            on_document()
    return PreparedCorpus(pairs, warnings)


def pair_documents(keys: list[Document], responses: list[Document], warnings: list[str]) -> list[Document | None]:
    """The response document of each key document (None when absent); warns about unused ones."""
    from .readers import document_key

    by_name = {doc.name: doc for doc in responses}
    partners: list[Document | None] = [by_name.pop(key.name, None) for key in keys]
    if by_name and any(p is None for p in partners):
        by_key = {document_key(doc.name): doc for doc in by_name.values()}
        for i, key in enumerate(keys):
            if partners[i] is None:
                found = by_key.pop(document_key(key.name), None)
                if found is not None:
                    partners[i] = found
                    del by_name[found.name]
    if by_name:
        extra = list(by_name.values())
        names = ", ".join(repr(d.name) for d in extra[:5]) + (" ..." if len(extra) > 5 else "")
        warnings.append(f"{extra[0].path}: {len(extra)} response document(s) not in the key are ignored: {names}")
    return partners


def prepare_pair(key: Document, response: Document, warnings: list[str] | None = None) -> DocPair:
    """Align one document pair and reduce it to its table; scores and types follow on request."""
    alignment = align(key, response)
    if warnings is not None:
        _warn_duplicates(key, response, alignment, warnings)
    table = build_table(alignment)
    return DocPair(key.name, key, response, alignment, table)


def official_scores(table: Table, alignment: Alignment, names: Sequence[str] = AGNOSTIC) -> dict[str, AnyScore]:
    """The weight-independent metrics: mention identification, MUC, B3, CEAFm, CEAFe, BLANC, LEA.

    `names` limits the work to some of them (metrics.impact rescores many document fragments for
    one metric).
    """
    def blanc() -> BlancScore:
        b = blanc_counts(alignment)
        return BlancScore(Score(b.correct_coref, b.key_coref, b.correct_coref, b.response_coref),
                          Score(b.correct_noncoref, b.key_noncoref, b.correct_noncoref, b.response_noncoref))

    compute = {
        "mentions": lambda: formulas.mentions(table),
        "muc": lambda: formulas.muc(table, formulas.agnostic_weights(table, "muc")),
        "bcub": lambda: formulas.bcub(table, formulas.agnostic_weights(table, "bcub")),
        "ceafm": lambda: formulas.ceaf_mention(table, formulas.agnostic_weights(table, "ceafm")),
        "ceafe": lambda: formulas.ceaf_entity(table, formulas.agnostic_weights(table, "ceafe")),
        "blanc": blanc,
        "lea": lambda: formulas.lea(table),
    }
    return {name: fn() for name, fn in compute.items() if name in names}


def _warn_duplicates(key: Document, response: Document, alignment: Alignment, warnings: list[str]) -> None:
    def fmt(span: Span) -> str:
        return f"{span[0]}-{span[1]}"

    if alignment.key_duplicates:
        items = "; ".join(f"{fmt(s)} in chains {', '.join(labels)}" for s, labels in alignment.key_duplicates)
        warnings.append(f"{key.where()}: KEY document {key.name!r} has spans in more than one chain, so every "
                        f"score is ill-defined (v8.01's treatment is mirrored): {items}")
    if alignment.removed_duplicates:
        items = "; ".join(f"{fmt(s)} dropped from chain {dropped} (kept in {kept})"
                          for s, dropped, kept in alignment.removed_duplicates)
        warnings.append(f"{response.where()}: document {response.name!r}: repeated key-matching spans removed as "
                        f"v8.01 does (it would refuse to score after 10 per run; we do not): {items}")
    if alignment.twinless_duplicates:
        items = "; ".join(f"{fmt(s)} in chains {', '.join(labels)}" for s, labels in alignment.twinless_duplicates)
        warnings.append(f"{response.where()}: document {response.name!r}: repeated spans that match no key span "
                        f"are kept twice, as v8.01 does: {items}")

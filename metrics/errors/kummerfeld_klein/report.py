"""K&K's analysis of a corpus: the records, their counts, and the score after each correction stage.

The scores are v8.01's, computed here on BCA's view of the files (`view`): the key without repeated
spans, the response corrected up to each stage, exactly what BCA's `*.gold` and
`*.corrected.*_prog` files give the official scorer.  So `baseline` can differ from `corefwb
score` on the same files (`view` says why); `reading` counts what made the difference.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from metrics.corpus.scoring import aggregate, prepare_pair, score_pair
from metrics.mentions.types import assign_types
from metrics.runtime.parallel import fork_each
from metrics.errors.mention import Mention
from metrics.measures.weights import W4, Weights
from metrics.model import Document, MentionType, Span

from . import KK_TYPES, STAGES
from .classify import Found
from .stages import analyse
from .view import PairView, pair_view

@dataclass(frozen=True)
class KKError:
    """One error as K&K classify it.  `mentions` is what the error is about (the part split off or
    merged in, the extra or missing mentions, the response mention of a span error); `cluster` is
    the cluster they come from (response side) or go to (key side) as `side` says; `target` is the
    key mention a span error's mention becomes.  `type` is the type of the part's earliest
    non-pronoun mention (else of its first): what kind of entity the error is about."""

    document: str
    kind: str
    mentions: tuple[Mention, ...]
    cluster: tuple[Span, ...]
    side: str
    key_chains: tuple[str, ...]
    response_chains: tuple[str, ...]
    type: MentionType
    target: Mention | None = None

    @property
    def span(self) -> Span:
        return self.mentions[0].span

    def to_json(self) -> dict:
        return {"document": self.document, "category": self.kind, "type": self.type.name,
                "mentions": [m.to_json() for m in self.mentions],
                "cluster": {"side": self.side, "size": len(self.cluster)},
                "key_chains": list(self.key_chains), "response_chains": list(self.response_chains),
                "target": self.target.to_json() if self.target else None}


Counts = dict[str, dict[MentionType, int]]


def count_kk(errors: Sequence[KKError]) -> Counts:
    """Type x mention type counts, every cell present."""
    counts: Counts = {kind: {t: 0 for t in MentionType} for kind in KK_TYPES}
    for error in errors:
        counts[error.kind][error.type] += 1
    return counts


@dataclass
class KKReport:
    """A corpus's K&K errors and the scores along BCA's correction order."""

    errors: list[KKError]
    metric: str
    """The metric of `progression` besides CoNLL F1 (conll when none was asked for)."""
    baseline: dict[str, float]
    """Metric -> its value (a fraction, as every score in the engine) on BCA's view of the files,
    before any correction."""
    progression: list[tuple[str, dict[str, float]]]
    """(stage, metric -> value (a fraction) after correcting that type and every type before it)."""
    reading: dict[str, int] = field(default_factory=dict)
    """What BCA's reading left out: duplicate spans, mentions over a sentence boundary, response
    singletons (option T)."""
    operations: dict[str, int] = field(default_factory=dict)
    """BCA's raw operations: span, split, remove, introduce, merge."""
    parsed: bool = True
    """Did every document have a parse (heads and kinds exactly BCA's)?"""
    fallback: tuple[str, ...] = ()
    """Where a document has none: what its heads came from (keys of `syntax.HEADS_WITHOUT_PARSE`), each once."""


def _records(view: PairView, found: list[Found]) -> list[KKError]:
    """The records of one document's errors, in BCA's order of types, then by position.  Mention
    types are ours (`metrics.mentions.types`), as the Chen & Ng counts have them, so the two
    taxonomies' tables split alike; the rules themselves used BCA's kinds."""
    text = view.key_doc.words
    spans = {m: view.span(m) for f in found for m in (*f.part, *((f.target,) if f.target else ()))}
    typed = assign_types(view.key_doc, set(spans.values()))
    gold, auto = view.gold, view.auto

    def mention(m) -> Mention:
        span = spans[m]
        return Mention(span, " ".join(text[span[0]:span[1] + 1]), typed[span][0])

    out = []
    for f in found:
        part = f.part if f.target is None else (f.target,)
        informative = next((m for m in sorted(part) if not view.syntax.pronoun(m)), min(part))
        out.append(KKError(
            view.name, f.kind, tuple(mention(m) for m in f.part), tuple(view.span(m) for m in f.cluster), f.side,
            tuple(sorted({gold.labels[gold.mentions[m]] for m in part if m in gold.mentions})),
            tuple(sorted({auto.labels[auto.mentions[m]] for m in part if m in auto.mentions})),
            typed[spans[informative]][0], mention(f.target) if f.target else None))
    return sorted(out, key=lambda e: (KK_TYPES.index(e.kind), e.span))


def _crossing(view: PairView, mentions) -> list[tuple]:
    """Pairs of mentions that overlap without nesting (the ones BCA's files can garble), among
    distinct `mentions`, best given in reading order: sorting a book's hundred thousand mentions
    in a set's order took a second, a cache miss per comparison."""
    starts = view.syntax.starts
    spans = sorted(((starts[m[0]] + m[1], starts[m[0]] + m[2] - 1), m) for m in mentions)
    out = []
    n = len(spans)
    for i, ((first, last), m) in enumerate(spans):
        # only the spans that start inside this one: a mention stays within its sentence, so the
        # scan is as long as the mentions nested in it, not the rest of the document
        j = i + 1
        while j < n and spans[j][0][0] <= last:
            (other_first, other_last), other = spans[j]
            if other_last > last and other_first > first:
                out.append((m, other))
            j += 1
    return out


def _document(doc: Document, view: PairView, mentions: dict, crossing: list[tuple] | None = None) -> Document:
    """The document BCA writes for the scorer and the scorer reads back (`*.gold`, `*.corrected.*`).

    Why not the clusters as they are: BCA writes `(id` at a mention's first token and `id)` at its
    last, and v8.01 pairs a closing with the latest opening of its id, so two mentions of one
    cluster that overlap without nesting come back as the outer and the inner span; the scores
    BCA's users get are of what comes back."""
    starts = view.syntax.starts
    if crossing is not None and not any(mentions.get(a, -1) == mentions.get(b, -2) for a, b in crossing):
        grouped: dict[int, list[Span]] = {}  # nothing to garble: the clusters as they are
        for (sentence, start, end), cluster in mentions.items():
            base = starts[sentence]
            grouped.setdefault(cluster, []).append((base + start, base + end - 1))
        return Document(name=doc.name, words=doc.words, chains=list(grouped.values()),
                        labels=[str(c) for c in grouped], sentence_starts=doc.sentence_starts, path=doc.path,
                        line=doc.line)
    events: dict[int, tuple[list[int], list[int], list[int]]] = {}
    for m, cluster in mentions.items():
        base = starts[m[0]]
        first, last = base + m[1], base + m[2] - 1
        if first == last:
            events.setdefault(first, ([], [], []))[0].append(cluster)
        else:
            events.setdefault(first, ([], [], []))[1].append(cluster)
            events.setdefault(last, ([], [], []))[2].append(cluster)
    open_at: dict[int, list[int]] = {}
    clusters: dict[int, list[Span]] = {}
    for token in sorted(events):
        singles, opens, closes = events[token]  # v8.01's order within a cell
        for cluster in singles:
            clusters.setdefault(cluster, []).append((token, token))
        for cluster in opens:
            clusters.setdefault(cluster, [])
            open_at.setdefault(cluster, []).append(token)
        for cluster in closes:
            clusters[cluster].append((open_at[cluster].pop(), token))
    return Document(name=doc.name, words=doc.words, chains=list(clusters.values()),
                    labels=[str(c) for c in clusters], sentence_starts=doc.sentence_starts, path=doc.path,
                    line=doc.line)


def _f1(metric: str, micro: dict) -> float:
    """A fraction, as `corefwb score` has it: the text tables turn it into points, not the engine."""
    return micro[metric].f1 if metric in micro else 0.0


@dataclass
class _DocumentResult:
    errors: list[KKError]
    scores: list[dict]
    """Per stage (`STAGES`), the document's scores of the metrics asked for."""
    reading: dict[str, int]
    operations: dict[str, int]
    fallback: str | None
    """Where a sentence has no tree: what its heads came from (None: every sentence BCA's)."""


def _analyse_document(name: str, key: Document, response: Document, *, singletons: bool, metrics: tuple[str, ...],
                      weights: Weights) -> _DocumentResult:
    view = pair_view(name, key, response, singletons)
    gold = _document(key, view, view.gold.mentions)
    before = dict(view.auto.mentions)
    outcome = analyse(view)
    # every mention once, in reading order (nearly sorted: `_crossing`'s sort is then quick)
    crossing = _crossing(view, {**view.gold.mentions, **before, **view.auto.mentions})
    scores: list[dict] = []
    previous: dict | None = None
    for kind in STAGES:
        state = outcome.states[kind]
        if previous is None or previous != state:
            scores.append(score_pair(prepare_pair(gold, _document(response, view, state, crossing)), weights, metrics))
        else:
            scores.append(scores[-1])
        previous = state
    return _DocumentResult(_records(view, outcome.errors), scores, view.dropped, outcome.operations,
                           view.syntax.fallback)


def analyse_corpus(pairs: Sequence[tuple[str, Document, Document]], singletons: bool = True,
                   metric: str = "conll", weights: Weights = W4, processes: int = 1) -> KKReport:
    """K&K's errors of each (name, key, response) and the corpus scores along the correction
    stages.  `singletons` False removes the response's singletons first (BCA's option T).  With
    `processes` > 1 the documents are analysed in forked processes (results identical)."""
    metrics = tuple(dict.fromkeys(("conll", metric)))

    def work(index: int) -> _DocumentResult:
        return _analyse_document(*pairs[index], singletons=singletons, metrics=metrics, weights=weights)

    results = fork_each(work, list(range(len(pairs))), processes) if processes > 1 else \
        [work(i) for i in range(len(pairs))]
    reading: dict[str, int] = {}
    operations: dict[str, int] = {}
    for result in results:
        for totals, counts in ((reading, result.reading), (operations, result.operations)):
            for name, n in counts.items():
                totals[name] = totals.get(name, 0) + n
    per_stage = [[(name, result.scores[stage]) for (name, _, _), result in zip(pairs, results)]
                 for stage in range(len(STAGES))]
    values = [{m: _f1(m, aggregate(docs, weights, metrics).micro) for m in metrics} for docs in per_stage]
    return KKReport([e for result in results for e in result.errors], metric, values[0],
                    list(zip(KK_TYPES, values[1:])), reading, operations, all(r.fallback is None for r in results),
                    tuple(dict.fromkeys(r.fallback for r in results if r.fallback is not None)))


def analyse_errors(pairs: Sequence[tuple[str, Document, Document]], singletons: bool = True) -> list[KKError]:
    """K&K's errors of each (name, key, response), as `analyse_corpus` finds them, without the
    scores along the correction stages: rescoring each stage is most of the analysis' cost (on a
    300,000-token book, two thirds), and a list of the errors needs none of it."""
    errors: list[KKError] = []
    for name, key, response in pairs:
        view = pair_view(name, key, response, singletons)
        errors.extend(_records(view, analyse(view).errors))
    return errors

"""A corpus scored in forked children while its caller works on: the workbench opens on the
official metrics while the rest are computed, and rescores under new weights in the children
that hold what they computed (`score_in_children`, `ScoresInChildren`).  Apart from
`metrics.corpus.scoring`, whose `PreparedCorpus.score` forks only to wait for the whole result."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterable, Iterator, Sequence

from metrics.corpus.scoring import CorpusResult, PreparedCorpus, assembled, document_costs, weighted_metrics
from metrics.corpus.together import score_columns
from metrics.measures import catalog
from metrics.measures.columns import Column
from metrics.measures.weights import Weights
from metrics.runtime.gc_pause import gc_paused
from metrics.runtime.parallel import BACKGROUND_TOKENS, Forked, balanced, can_fork


def score_in_children(corpus: PreparedCorpus, weights: Weights, stages: Sequence[Sequence[str]],
                      processes: int, *, nice: int = 0, serving: bool = False) -> ScoresInChildren | None:
    """Start scoring every document in forked children, stage after stage (the official metrics, then the others,
    say), for a caller with work of its own meanwhile (`nice`: at a lower priority than it,
    `metrics.runtime.parallel.Forked`); None where that does not pay (a corpus below `BACKGROUND_TOKENS`) or cannot
    be done (`can_fork`). The results equal `corpus.score(weights, stage)`, stage by stage.  With `serving` the children
    then stay, to rescore under other weights (`ScoresInChildren.rescore`) until closed (each keeps what it
    computed: about 50 MB on gum-open); without, they end."""
    costs = document_costs(corpus.pairs)
    if not can_fork() or sum(costs) < BACKGROUND_TOKENS:
        return None
    pairs, wanted = corpus.pairs, [catalog.resolve(stage, corpus.scorer) for stage in stages]

    def score_piece(indices: list[int], requests: Iterable[tuple[Weights, tuple[str, ...]]] = ()
                    ) -> Iterator[dict[str, Column]]:
        with gc_paused():
            for metrics in wanted:
                yield score_columns([pairs[i] for i in indices], metrics, weights)
            # What this child holds now lives as long as it does: out of the collector's
            # sight, or its passes walk it all during a rescoring (50-100 ms).
            gc.freeze()
        for asked, metrics in requests:
            yield score_columns([pairs[i] for i in indices], metrics, asked)

    pieces = balanced(costs, max(1, processes))
    return ScoresInChildren(corpus, weights, wanted, pieces, Forked(score_piece, pieces, nice, serving), serving=serving)


class ScoresInChildren:
    """A corpus being scored in forked children (`score_in_children`).

    `stage(i)` waits for the scores up to stage `i`; what arrives is kept, so every caller (a
    workbench worker, or the next one after a switch cancelled it) gets the same results, and a
    lock lets one thread at a time read from the children.  `close()` ends them."""

    def __init__(self, corpus: PreparedCorpus, weights: Weights, stages: list[tuple[str, ...]],
                 pieces: list[list[int]], children: Forked, *, serving: bool = False) -> None:
        self.corpus, self.weights, self.pieces, self._children = corpus, weights, pieces, children
        self._stages, self._serving = stages, serving
        self._results: list[CorpusResult] = []
        self._lock = threading.Lock()

    def stage(self, index: int) -> CorpusResult:
        """The corpus scores of stages 0 to `index` (each stage's metrics joined to the earlier
        ones'); a child's exception, or a child that ended without its scores, is raised here."""
        with self._lock:
            while len(self._results) <= index:
                metrics = self._stages[len(self._results)]
                result = assembled(self.corpus.pairs, self.pieces, self._children.next(), self.weights, metrics)
                self._results.append(result if not self._results else self._results[-1].updated(result))
                if len(self._results) == len(self._stages) and not self._serving:
                    self._children.close()
            return self._results[index]

    def rescore(self, previous: CorpusResult, weights: Weights) -> CorpusResult:
        """`previous` under new weights, its weighted metrics computed by the children (each its documents, as in
        `stage`), so the caller's process only waits: equal to `PreparedCorpus.rescore`.  Every stage is collected
        first (their answers come first); a child's failure is raised here, and the caller rescores by itself."""
        weighted = weighted_metrics(previous)
        if not weighted:
            return previous
        self.stage(len(self._stages) - 1)
        wanted = catalog.resolve(weighted, self.corpus.scorer)
        with self._lock:
            answers = self._children.ask((weights, wanted))
        return previous.updated(assembled(self.corpus.pairs, self.pieces, answers, weights, wanted))

    def close(self) -> None:
        self._children.close()

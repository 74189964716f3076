"""Scores of CorefUD node documents already read, on the CorefUD convention's road (the step after
reading: `metrics.conventions.projection.prepare_nodes`), as corefud-scorer prints them."""

from __future__ import annotations

from collections.abc import Sequence

from metrics.conventions.corefud import COREFUD_CONVENTIONS, Settings
from metrics.conventions.projection import prepare_nodes
from metrics.corpus.scoring import CorpusResult
from metrics.measures.catalog import CONLL
from metrics.model import NodeDocument

OFFICIAL = tuple(m.name for m in COREFUD_CONVENTIONS.official)


def score_corpus(keys: Sequence[NodeDocument], responses: Sequence[NodeDocument], key_path: str, response_path: str,
                 settings: Settings = Settings()) -> CorpusResult:
    """corefud-scorer's metrics and the CoNLL score of a corpus (scores alone: no token spans)."""
    corpus = prepare_nodes(keys, responses, key_path=key_path, response_path=response_path, settings=settings,
                           spans=False)
    return corpus.score(metrics=(*OFFICIAL, CONLL.name))

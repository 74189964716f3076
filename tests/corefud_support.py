"""Scores of CorefUD node documents already read, on the CorefUD convention's road (the step after
reading: `metrics.conventions.projection.prepare_nodes`), as corefud-scorer prints them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

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


GUM2_KEY = str(Path(__file__).resolve().parent / "data/formats/gum2.conllu")
"""The GUM excerpt as CoNLL-U (so the CorefUD conventions apply by default)."""


def gum2_response(tmp_path: Path, capsys) -> str:
    """xrenner's response to the GUM excerpt, written as CoNLL-U on the key (`corefwb convert --key`)."""
    from workbench.cli import main

    path = tmp_path / "response.conllu"
    source = Path(__file__).resolve().parent / "data/formats/gum2.response.conll"
    assert main(["convert", str(source), str(path), "--key", GUM2_KEY]) == 0
    capsys.readouterr()
    return str(path)

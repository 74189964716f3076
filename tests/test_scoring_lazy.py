"""The engine computes what is asked for: official metrics need no mention types (no heads)."""

from __future__ import annotations

from pathlib import Path

from metrics.formats.readers import read_documents
from metrics.corpus.scoring import prepare

GUM = Path(__file__).resolve().parent.parent / "samples" / "gum"


def test_official_metrics_type_no_mention_and_lmetrics_do() -> None:
    corpus = prepare(read_documents(str(GUM / "key.gum.conll")), read_documents(str(GUM / "response.gum.conll")))
    official = corpus.score(metrics=["muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll"])
    assert all(pair._typed is None and pair._id_types is None for pair in corpus.pairs)
    both = corpus.score()
    assert all(pair._id_types is not None for pair in corpus.pairs)  # typed (each pair's dict made when read)
    from metrics.mentions.types import assign_types

    assert all(list(pair.typed_spans().items()) == list(assign_types(pair.key, pair.alignment.spans).items())
               for pair in corpus.pairs)
    # typing on demand changes nothing that was already computed
    assert {m: s.counts() for m, s in official.micro.items() if m != "conll"} == \
        {m: both.micro[m].counts() for m in official.micro if m != "conll"}

"""coref-workbench scoring engine: readers, mention types, metrics, error analysis.

numpy and scipy only; never imports a UI library.  The public API:

    keys = read_documents("key.conll")            # CoNLL-2012, CorefUD CoNLL-U or jsonlines
    responses = read_documents("response.conll")
    corpus = prepare(keys, responses)             # v8.01 alignment, types, official metrics
    result = corpus.score(Weights(1, .75, .5, 1)) # + LMetrics under any weights; cheap to repeat
    result.micro["conll"].f1, result.documents[0]

    loaded = load("key.conllu", ["response.conllu"], Options(conventions="corefud", match="head",
                                                            keep_singletons=False))
    loaded.corpora[0].score()                     # files to scores on the one road, any convention

Names are resolved lazily so that `import metrics` stays cheap (no numpy until needed).  The
engine's rooms (formats, mentions, measures, corpus, statistics, errors, runtime) and the layers
their imports run down are mapped in docs/engine.md.
"""

from __future__ import annotations

from importlib import import_module

_EXPORTS = {
    "read_documents": "metrics.formats.readers",
    "CATALOG": "metrics.measures.catalog",
    "METRICS": "metrics.measures.catalog",
    "Family": "metrics.measures.catalog",
    "prepare": "metrics.corpus.scoring",
    "load": "metrics.conventions.pipeline",
    "Options": "metrics.conventions.options",
    "CONVENTIONS": "metrics.conventions.registry",
    "PreparedCorpus": "metrics.corpus.scoring",
    "CorpusResult": "metrics.corpus.scoring",
    "DocPair": "metrics.corpus.scoring",
    "ALL_METRICS": "metrics.measures.catalog",
    "Score": "metrics.measures.score",
    "BlancScore": "metrics.measures.score",
    "Weights": "metrics.measures.weights",
    "W4": "metrics.measures.weights",
    "PRESETS": "metrics.measures.weights",
    "parse_weights": "metrics.measures.weights",
    "Document": "metrics.model",
    "InputError": "metrics.model",
    "MentionType": "metrics.model",
    "Span": "metrics.model",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'metrics' has no attribute {name!r}")
    return getattr(import_module(module), name)

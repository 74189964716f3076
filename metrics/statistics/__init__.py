"""Statistics over the documents of scored corpora: confidence intervals and significance tests
(`significance`) and breakdowns by group of documents, chain length and mention type
(`breakdown`).

Layer 5: imports `metrics.conventions`, `metrics.corpus` and the layers below them; never `metrics.errors`."""

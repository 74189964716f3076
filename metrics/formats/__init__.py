"""Reading and writing files: CoNLL-2012, CorefUD CoNLL-U and jsonlines readers, format detection
(`readers`), the bytes of an input (`source`), the cache of read inputs (`cache`), and the
writers; the CRAC LLM track's inline format (`crac_*`), read onto a CoNLL-U key as node documents.
Each turns bytes into `Document`s (or back) and knows nothing of metrics.

Layer 2, beside `metrics.measures`: imports `metrics.model`, `metrics.runtime` and
`metrics.mentions` (a CoNLL-U head is found in its tree)."""

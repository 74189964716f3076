"""The conventions and the one road from files to scores.

A convention (`base.Convention`) decides how a corpus is read, how its mentions are matched and
aligned, whether singletons stay, the order of its clusters and which metrics its official scorer
prints: `conll.CONLL_2012_CONVENTIONS` (the v8.01 reference scorer's),
`corefud.COREFUD_CONVENTIONS` (CRAC's corefud-scorer's), `ua.UA_CONVENTIONS` (the UA scorer's).
`registry` names them, each loaded when asked for.
`pipeline.load` is the road every front end takes: read (`pipeline.Inputs`: the key here,
responses in forked processes when large) -> the convention's `prepare` (key words, singletons,
matching or alignment, tables) -> a `Loaded` of frozen prepared corpora, scored and classified by
the rooms below and beside it; `pipeline.stream` is the same road a document at a time.
`options.Options` is the one frozen object that says how.  `projection` writes CorefUD's aligned
node mentions as token spans, for the error analyses and the workbench.

Layer 4: imports `metrics.corpus` and the layers below it; `metrics.statistics` and
`metrics.errors` may import it.
"""

"""The metrics and their catalogue: score values (`score`), linguistic weights (`weights`,
`linguistic`), one document's contingency table (`table`), the metrics over it (`formulas`:
MUC, B3, CEAF, LEA and the LMetrics; `blanc`; `ace`; `tuggener`), the assignment solver
(`assignment`), and `catalog`, the one place a metric is named.

Layer 2: imports `metrics.model`, `metrics.runtime` and `metrics.mentions`."""

"""Mentions, before any metric: key and response documents paired by name (`pairing`), mention
heads (`heads`; from a parse column, for all documents at once: `heads_parse`) and types (`types`,
with the closed word lists of `lexicon`; many documents' spans at once: `types_arrays`), v8.01's mention ids (`alignment`), head and partial
matching (`matching`), and each side's chains as the per-mention analyses see them (`chains`); an
LLM's inline output realigned and its brackets repaired as the CRAC LLM track's pipeline does
(`realign`), and udapi MoveHead's head of a node mention (`movehead`).

Layer 1: imports `metrics.model` and `metrics.runtime` only."""

"""Kummerfeld & Klein's (2013) error taxonomy, as the Berkeley Coreference Analyser applies it:
heads and kinds (`syntax`), the pair as BCA reads it (`view`), the classification (`classify`), the
corrections stage by stage (`stages`), and records, counts and the scores after each stage
(`report`).  docs/errors-kk.md states every rule.

The taxonomy's names are here, in the package itself, so that a command line or a help screen can
name them without loading the analysis."""

KK_TYPES = ("span_error", "conflated_entities", "extra_mention", "extra_entity", "divided_entity",
            "missing_mention", "missing_entity")
"""The seven error types, in BCA's order of correction."""
STAGES = ("none",) + KK_TYPES
"""The response after correcting nothing, then each type and every type before it."""
KK_LABELS = {kind: kind.replace("_", " ") for kind in KK_TYPES}
KK_DESCRIPTIONS = {
    "span_error": "a response mention whose boundaries differ from a key mention with the same head",
    "conflated_entities": "a part of a response cluster that belongs to another key entity (split off)",
    "extra_mention": "a response mention in no key cluster, linked into a cluster",
    "extra_entity": "a response cluster of mentions in no key cluster (beside pronouns at most)",
    "divided_entity": "a part of a key entity the response keeps in another cluster (merged in)",
    "missing_mention": "a key mention the response lacks, of an entity it found",
    "missing_entity": "a key entity the response lacks (at most its pronouns present)",
}

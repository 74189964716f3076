"""Kummerfeld & Klein's (2013) error taxonomy, as the Berkeley Coreference Analyser applies it:
heads and kinds (`syntax`), the pair as BCA reads it (`view`), the classification (`classify`), the
corrections stage by stage (`stages`), and records, counts and the scores after each stage
(`report`).  docs/errors-kk.md states every rule."""

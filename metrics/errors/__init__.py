"""Error analyses, one subpackage per taxonomy, and what they share.

- `chen_ng`: one record per erroneous mention (Durrett & Klein's categories with Chen & Ng's
  suboptimal link), the fix that removes it, and its price (`records`, `predecessors`, `fixes`,
  `impact`).
- `kummerfeld_klein`: Kummerfeld & Klein's (2013) seven error types over whole entities, as
  their analyser (BCA) finds them, with the CoNLL F1 after correcting each type in turn
  (`syntax`, `view`, `classify`, `stages`, `report`).
- `ua`: the Universal Anaphora relations' errors (bridging, non-referring markables, split
  antecedents), each explained and priced on the scores it touches (`records`).
- `mention`: a mention as every record shows it.
- `delta`: the change of the official counts when a fix moves a few mentions, for any taxonomy
  that prices its fixes; `best_matching`: the best matching of one of CEAF's components as
  `delta` re-solves it (shortcuts, a dual certificate, the solver).

Layer 5: imports `metrics.conventions`, `metrics.corpus` and the layers below them; never `metrics.statistics`.  A
taxonomy's subpackage imports this package's shared modules, never another taxonomy's."""

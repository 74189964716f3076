"""Error analyses, one subpackage per taxonomy, and what they share.

- `chen_ng`: one record per erroneous mention (Durrett & Klein's categories with Chen & Ng's
  suboptimal link), the fix that removes it, and its price (`records`, `fixes`, `impact`).
- `delta`: the change of the official counts when a fix moves a few mentions, for any taxonomy
  that prices its fixes.

Layer 4: imports `metrics.corpus` and the layers below it; never `metrics.statistics`.  A
taxonomy's subpackage imports this package's shared modules, never another taxonomy's."""

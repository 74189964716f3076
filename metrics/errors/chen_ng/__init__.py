"""Chen & Ng's per-mention error analysis: a record per erroneous mention (`records`; each
mention's category and predecessors found for a whole corpus at once as array work:
`predecessors`), the fix that removes it (`fixes`), and its price, the change of a corpus score
when the fix is applied (`impact`)."""

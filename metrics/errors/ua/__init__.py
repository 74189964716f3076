"""Errors of the Universal Anaphora relations, each explained and priced (`records`): bridging
(missed, spurious, wrong anchor, wrong relation), non-referring markables (missed, spurious) and
split antecedents (missing, extra, wrong member set).  The price of an error is the change of the
corpus score(s) it touches, in points, when that one error is fixed and nothing else."""

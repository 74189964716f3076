"""The named-entity column read for every document at once (`conll._all_ner_spans`) gives, per
document, what the walk over its cells (`reference_conll._ner_spans`, the reference reader's) gives."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.formats.conll import _all_ner_spans
from metrics.formats.layout import Layout
from reference_conll import _ner_spans

_CELLS = st.sampled_from(["(PERSON*", "(GPE)", "*)", "(ORG*)", "(x", "y)", "*", "**)", "(LOC**", "((A*", "(É*)", "a"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.tuples(_CELLS, st.integers(1, 3)), max_size=12), max_size=5))
def test_all_documents_at_once_as_one_by_one(documents) -> None:
    """Each document's cells (with gaps between their tokens, as `*` cells leave) as one line
    each of a buffer; the spans of all documents at once against each document's own walk."""
    lines, tokens, sizes, expected = [], [], [], {}
    at = 0
    for d, cells in enumerate(documents):
        start = at
        positions = []
        for cell, gap in cells:
            at += gap
            positions.append(at - start)
            lines.append(cell)
            tokens.append(at)
        sizes.append(len(cells))
        want = _ner_spans(positions, [cell for cell, _ in cells])
        if want:
            expected[d] = [(s + start, e + start, label) for s, e, label in want]
    layout = Layout.of("\n".join(lines).encode("utf-8"))
    ranges = np.cumsum([0, *sizes])
    got = _all_ner_spans(layout, np.arange(len(lines)), np.array(tokens, dtype=np.int64), ranges)
    assert got == expected

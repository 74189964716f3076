"""The CoNLL-2012 reader's POS and parse columns numbered from the file's bytes, and made ready for
the parse's heads (`heads_parse.laid_coded`).

Why: the key's POS and parse columns are read to find the parse's heads and to type mentions, and
splitting them into a string per token (590,000 strings of a 250,000-token key) and numbering the
strings cost more than finding the heads; numbers of the fields' bytes give the same numbering.
"""

from __future__ import annotations

import numpy as np

from metrics.formats.layout import Layout
from metrics.mentions.heads_parse import Numbering

_PACKED = 16
"""Bytes of a field read as two numbers (`numbered_fields`)."""
_MASKS = np.array([(1 << 8 * width) - 1 for width in range(9)], dtype=np.uint64)
"""The low bytes of a number that a field of each width (0 to 8) fills."""
_TEXT_MARK = np.iinfo(np.uint64).max
"""The second number of a field read as text: eight 0xFF bytes, which no UTF-8 text holds."""
_MIX = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F], dtype=np.uint64)


def numbered_fields(layout: Layout, fields: np.ndarray) -> tuple[list[str], np.ndarray]:
    """The distinct texts of `fields`, in the order first met, and each field's number among them
    (int64): what splitting their text and numbering the strings gives, without a string per field.
    Why: the key's POS and parse columns are numbered to find the parse's heads, and their split
    made 590,000 strings of a 250,000-token file only to be freed.  A field of at most 16 bytes is
    its bytes read as two numbers (little-endian, the bytes past it masked: a field holds no NUL,
    so no two such fields give the same pair; one too near the buffer's end is read from a padded
    copy of it); a longer one is its text's number among such texts, with `_TEXT_MARK`.  The pairs are
    numbered by one sort of a number mixed from each; should two distinct pairs mix alike, by a
    sort of the pairs themselves (`_distinct_pairs`)."""
    if not len(fields):
        return [], np.zeros(0, dtype=np.int64)
    data = layout.data
    starts = layout.field_starts[fields]
    widths = (layout.field_ends[fields] - starts).astype(np.int64)
    pairs = np.zeros((len(fields), 2), dtype=np.uint64)
    tail = max(len(data) - _PACKED, 0)  # fields starting past it are read from a padded copy of the end
    for source, at, chosen in ((data, 0, starts <= len(data) - _PACKED),
                               (np.r_[data[tail:], np.zeros(_PACKED, dtype=np.uint8)], tail, starts > len(data) - _PACKED)):
        read = np.flatnonzero((widths <= _PACKED) & chosen)
        if len(read):
            windows = np.lib.stride_tricks.as_strided(source, shape=(len(source) - _PACKED + 1, _PACKED),
                                                      strides=(1, 1), writeable=False)
            pairs[read] = windows[starts[read] - at].view("<u8")
    pairs[:, 0] &= _MASKS[np.minimum(widths, 8)]
    pairs[:, 1] &= _MASKS[np.clip(widths - 8, 0, 8)]
    longer = np.flatnonzero(widths > _PACKED)
    if len(longer):
        numbering = Numbering()
        pairs[longer, 0] = np.fromiter(map(numbering.__getitem__, layout.strings(fields[longer])), dtype=np.uint64,
                                       count=len(longer))
        pairs[longer, 1] = _TEXT_MARK
    _, first, inverse = np.unique(pairs @ _MIX, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    if not np.array_equal(pairs[first][inverse], pairs):  # two pairs mixed alike
        first, inverse = _distinct_pairs(pairs)
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return layout.strings(fields[first[order]]), rank[inverse]


def _distinct_pairs(pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(where each distinct row of `pairs` is first met, each row's number among the distinct
    rows in sorted order), by a sort of the rows themselves."""
    by_row = np.lexsort((pairs[:, 1], pairs[:, 0]))
    ordered = pairs[by_row]
    group = np.cumsum(np.r_[True, (ordered[1:] != ordered[:-1]).any(axis=1)]) - 1
    inverse = np.empty(len(pairs), dtype=np.int64)
    inverse[by_row] = group
    first = np.full(int(group[-1]) + 1, len(pairs), dtype=np.int64)
    np.minimum.at(first, inverse, np.arange(len(pairs)))
    return first, inverse


def heads_input(coded: dict[str, tuple[list[str], np.ndarray, np.ndarray]], sizes: list[int]
                 ) -> tuple[np.ndarray, list[str], np.ndarray, list[str]]:
    """(each bit's number, the bits, each tag's number, the tags) of the tokens of the documents
    whose parse column is informative, as `laid_coded` takes them: numbered in the order first met
    in those tokens, a document without POS tags tagged "X" throughout (as `laid_dependencies`
    tags it).  `coded`: the POS and parse columns numbered over every document's tokens, and which
    documents' columns are informative."""
    bits, bit_codes, parsed = coded["parse"]
    tags, tag_codes, tagged = coded["pos"]
    if parsed.all() and tagged.all():  # the usual file: numbered over these very tokens already
        return bit_codes, bits, tag_codes, tags
    keep = np.repeat(parsed, sizes)
    tag_codes = tag_codes.copy()
    if not tagged[parsed].all():
        x = tags.index("X") if "X" in tags else len(tags)
        tags = tags if x < len(tags) else [*tags, "X"]
        tag_codes[np.repeat(~tagged, sizes)] = x
    return (*_first_met(bit_codes[keep], bits), *_first_met(tag_codes[keep], tags))


def _first_met(codes: np.ndarray, distinct: list[str]) -> tuple[np.ndarray, list[str]]:
    """`codes` (numbers among `distinct`) numbered again in the order first met, leaving out the
    values not met."""
    met, first = np.unique(codes, return_index=True)
    order = met[np.argsort(first, kind="stable")]
    renumbered = np.zeros(len(distinct), dtype=np.int64)
    renumbered[order] = np.arange(len(order))
    return renumbered[codes], [distinct[i] for i in order.tolist()]

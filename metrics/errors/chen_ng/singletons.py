"""A fixed response loses its singletons when the corpus was prepared without them.

Why: an error's impact is the change of the corpus score when its fix is applied and the response
scored again under the same settings.  With singletons removed (`--singletons remove`, CorefUD's
and the UA scorer's default), key and responses lose their chains of one distinct span before
alignment (`metrics.model.without_singletons`); a fix may leave such a chain (a missing mention
added alone, a mention split off alone, the last mention left of a chain), which the official
scorers would drop.  So the pricer drops it too, in whichever form it holds the fixed response:

- an `Edit` (the rescoring paths, and the delta table's `counts_of` an edit): `edit_without_singletons`;
- a change's `Counts` of a clean document (one fix's `single_fix_counts`, a category's
  `fix_list_counts`): `counts_without_singletons`, the same rule on the counts: a response chain
  left with one mention loses it, its cell and its mention counts with it.

The original response has no singleton (it was prepared without them), so only the chains a change
touches can become one; tests/test_impact_singletons.py checks every path against rescoring the
fixed response with `without_singletons`.
"""

from __future__ import annotations

from metrics.errors.ceaf_change import CeafTable, Counts
from metrics.errors.chen_ng.fixes import Edit


def edit_without_singletons(edit: Edit) -> Edit:
    """The edit with every chain it touched that lists one distinct span dropped, in place: the
    span leaves the response where no other chain lists it (as removed: `moved` None; a span the
    base response never had is then no move at all), else the chain alone is dropped
    (`Edit.dropped`), its copies elsewhere kept as `without_singletons` keeps them."""
    base = edit.base
    for t in sorted(edit.touched):
        span = edit.lone_span(t)
        if span is None:
            continue
        elsewhere = [] if base.clean else [u for u in base.copies.get(span, ()) if u != t]
        if span in edit.moved or not elsewhere:
            if span in edit.moved:
                added = edit.added.get(edit.moved[span], {}) if edit.moved[span] is not None else {}
                added.pop(span, None)
            if span in base.chain_of:
                edit.moved[span] = None
            else:
                del edit.moved[span]
        else:
            edit.dropped.add(t)
    return edit


def counts_without_singletons(counts: Counts | None, table: CeafTable) -> Counts | None:
    """The counts of a change of a clean document's cells (`Counts`) with each response chain it
    leaves with one mention dropped: its size to 0, its one cell (where the mention is in the key)
    down by one, one response mention (and matched mention) fewer.  None where nothing is left to
    change (as `single_fix_counts` says of a fix that touches nothing)."""
    if counts is None:
        return None
    cells, sizes, matched, responses = counts
    n_columns = len(table.col_sizes)
    lone = [t for t, step in sizes if (table.col_sizes[t] if t < n_columns else 0) + step == 1]
    if not lone:
        return counts
    new_cells, new_sizes = dict(cells), dict(sizes)
    for t in lone:
        after = dict(table.col_cells[t]) if t < n_columns else {}
        for (k, u), step in cells:
            if u == t:
                after[k] = after.get(k, 0) + step
        new_sizes[t] -= 1
        responses -= 1
        k = next((k for k, n in after.items() if n == 1), None)  # None: the mention is in no key chain
        if k is not None:
            new_cells[(k, t)] = new_cells.get((k, t), 0) - 1
            matched -= 1
    kept_cells = tuple((cell, step) for cell, step in new_cells.items() if step)
    kept_sizes = tuple((t, step) for t, step in new_sizes.items() if step)
    if not kept_cells and not kept_sizes and not matched and not responses:
        return None
    return kept_cells, kept_sizes, matched, responses

"""The price of an error: how much a chosen corpus score would gain if its fix were applied.

The impact of an error is the change of the metric's F1 (corpus, micro-averaged as the official
scorer does) when its fix alone is applied to the response; the impact of a category is the
change when all the category's fixes are applied together (metrics.errors.chen_ng.fixes defines the fixes).

Why it is fast: every metric is a sum over the connected components of the key/response chain
overlap graph (CEAF's best alignment too: it never pairs chains of different components;
Tuggener's counts relate a mention's key chain to its response chain), plus, for BLANC, the
non-coreference links between components, which only depend on how many mentions each holds.
A fix changes a few response chains, so only the component(s) they reach, before and after the
fix, are rescored: the document's counts become old - (reached part, before) + (reached part,
after), and the corpus counts old - (document, before) + (document, after).  The reached part is
rescored by the engine itself (`rescoring.PartRescorer`), so there is one implementation of each
metric; where the delta table can, the change is counted instead (metrics.errors.delta; a list
of fixes counted by cells: `fix_counts`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import fields

import numpy as np

from metrics.errors.chen_ng.plans import Plans, column_plans
from metrics.errors.chen_ng.price_rows import blocks, prices_of
from metrics.errors.chen_ng.records import Category, ErrorColumns, ErrorRecord
from metrics.errors.delta import ARRAY_METRICS, DELTA_METRICS, Counts, block_arrays, changes, counts_of, partial_table, \
    table_of
from metrics.errors.move_rows import Move, one_moves
from metrics.errors.chen_ng.document_state import DocumentState, tainted_chains
from metrics.errors.chen_ng.fixes import Edit, Fix, FixBase, edit_chains, fix_bases, fix_of, fixes_of_columns, reach, \
    single_fix_counts
from metrics.errors.chen_ng.fix_counts import fix_list_counts
from metrics.errors.chen_ng.counted_parts import DocumentCells, counts_suffice
from metrics.errors.chen_ng.rescoring import PartRescorer
from metrics.errors.chen_ng.singletons import counts_without_singletons, edit_without_singletons
from metrics.runtime.gc_pause import gc_paused
from metrics.runtime.parallel import fork_each
from metrics.measures.score import Score, total
from metrics.measures.catalog import ALL_METRICS, METRICS, Scorer
from metrics.corpus.scoring import PreparedCorpus, score_pair
from metrics.corpus.together import score_columns
from metrics.measures.weights import W4, Weights


def parts_of(metric: str) -> tuple[str, ...]:
    """The count-carrying metrics a metric's value is computed from."""
    if metric not in ALL_METRICS:
        raise ValueError(f"unknown metric {metric!r}; choose from {', '.join(ALL_METRICS)}")
    return METRICS[metric].parts or (metric,)


def _swap(total, old, new):
    """total - old + new, field by field (Score, BlancScore, AnchorScore: counts all the way down)."""
    if isinstance(total, (int, float)):
        return total - old + new
    if isinstance(total, Score):
        return Score(*(t - o + n for t, o, n in zip(total.counts(), old.counts(), new.counts())))
    return type(total)(*(_swap(getattr(total, f.name), getattr(old, f.name), getattr(new, f.name))
                         for f in fields(total)))


PARTIAL_DELTA_TOKENS = 20_000
"""From this many tokens, a document that lists a span twice builds the delta table anyway and
prices by it every fix that stays clear of that span (`DocumentState.by_delta`).  Below it, each
fix's reached part is rescored, as for every such document before: the two ways agree up to
rounding in the last digit, and short documents keep the figures they always had.  In a book
rescoring is what costs: one repeated span would send every fix of 250,000 tokens to the engine."""

PARALLEL_RECORDS = 1_000
"""Fixes (listed errors and category members) a pricing process should have at least: below
that, forking costs more than it saves."""


class Pricer:
    """Prices fixes on one prepared corpus for one metric under one weight vector.

    `value` is the metric's corpus F1 now; `price(document_index, fixes)` the change of that F1
    if the fixes were applied to that document's response.  `singletons_removed`: the corpus was
    prepared without singletons, so a fixed response loses those its fixes leave (`singletons`).
    """

    def __init__(self, corpus: PreparedCorpus, metric: str = "conll", weights: Weights = W4, *,
                 singletons_removed: bool = False) -> None:
        self.corpus = corpus
        self.singletons_removed = singletons_removed
        self.metric = metric
        self.weights = weights
        self.parts = parts_of(metric)
        self.index = {}
        for i, pair in enumerate(corpus.pairs):
            self.index.setdefault(pair.name, i)
        if len(corpus.pairs) > 1:  # scored together, each pair keeping its row (a score per document and metric cost more)
            score_columns(corpus.pairs, self.parts, weights)
        self.doc_scores = [score_pair(pair, weights, self.parts) for pair in corpus.pairs]
        self.total = {}
        for name in self.parts:
            summed = total(scores[name] for scores in self.doc_scores)
            if summed is not None:
                self.total[name] = summed
        self.value = self._value(self.total) if corpus.pairs else 0.0
        self._states: dict[int, DocumentState] = {}
        self._bases: dict[int, FixBase] = {}
        """Fix bases made ahead for documents whose state is not made yet (`_make_bases`)."""
        self._memo: dict[tuple, tuple[dict, dict]] = {}
        self._rescorer = PartRescorer(weights, self.parts)
        self._by_delta = set(self.parts) <= DELTA_METRICS
        self._count_parts = counts_suffice(self.parts, Scorer.V801)
        """Rescored parts' tables counted, not aligned (`counted_parts`), for pairs scored under v8.01."""
        self._zero = {name: Score(0, 0, 0, 0) for name in self.parts}
        self._arrays = all(type(self.total.get(name)) is Score for name in self.parts)
        """Every part's total a plain Score of numbers: `price_each` computes prices as arrays."""

    def _value(self, scores: dict) -> float:
        if not scores:
            return 0.0  # an empty corpus
        metric = METRICS[self.metric]
        return (metric.combine(scores) if metric.parts else scores[self.metric]).f1

    def _state(self, i: int) -> DocumentState:
        state = self._states.get(i)
        if state is None:
            pair = self.corpus.pairs[i]
            base = self._bases.pop(i, None) or FixBase(pair.key, pair.response)
            delta, tainted = None, (frozenset(), frozenset())
            if self._by_delta:
                delta = table_of(pair.key, pair.response, base.key_chain_of)
                if delta is None and len(pair.key.words) >= PARTIAL_DELTA_TOKENS:
                    # a span listed twice: the table serves the fixes that stay clear of it
                    tainted = tainted_chains(pair.key, pair.response)
                    delta = partial_table(pair.key, pair.response, base.key_chain_of)
            state = self._states[i] = DocumentState(pair, base, delta, tainted)
        return state

    def _make_bases(self, documents: Iterable[int]) -> None:
        """The fix bases of the documents about to be priced, made at once (`fixes.fix_bases`)
        before pricing forks, so that each process reads them."""
        wanted = sorted(i for i in set(documents) if i not in self._states and i not in self._bases)
        self._bases.update(zip(wanted, fix_bases([self.corpus.pairs[i] for i in wanted])))

    # -------------------------------------------------------------------- document deltas

    def _edit(self, state: DocumentState, fixes: Sequence[Fix]) -> Edit:
        """The fixes applied to the document's response, as its scorer would see it (`singletons`)."""
        edit = edit_chains(state.base, fixes)
        return edit_without_singletons(edit) if self.singletons_removed else edit

    def _counts(self, state: DocumentState, counts: Counts | None) -> Counts | None:
        """A change's counts (`single_fix_counts`, `fix_list_counts`) as its scorer would see it."""
        return counts_without_singletons(counts, state.delta) if self.singletons_removed else counts

    def document_change(self, i: int, fixes: Sequence[Fix]) -> tuple[dict, dict]:
        """(scores of the reached part before, after) for the fixes applied to document i."""
        state = self._state(i)
        if len(fixes) == 1 and state.delta is not None:
            known = self._counted_change(state, i, fixes[0])
            if known is not None:
                return known
        elif state.clean:  # a category's fixes: counted by cells (`fix_counts`), no chains edited
            counted = fix_list_counts(state.base, fixes, state.delta.row_cells, state.delta.col_sizes)
            if counted is not None:
                touched, counts = counted
                return self._change_of_counts(state, i, self._counts(state, counts) if touched else None)
        edit = self._edit(state, fixes)
        if not edit.touched:
            return {}, {}
        signature = _signature(i, edit)
        known = self._memo.get(signature)
        if known is None:
            if state.by_delta(edit):
                known = (self._zero, changes(state.delta, counts_of(state.delta, edit.moved), self.parts))
            else:
                known = self._rescored(state, [edit], i)[0]
            self._memo[signature] = known
        return known

    def _counted_change(self, state: DocumentState, i: int, fix: Fix) -> tuple[dict, dict] | None:
        """`document_change` of one fix from its counts (`single_fix_counts`), or None where the
        fix may reach a chain connected to a repeated span (`DocumentState.tainted`)."""
        counts = self._counts(state, single_fix_counts(state.base, fix, state.delta.row_cells))
        if not state.clean and (counts is None or state.counts_tainted(counts)):
            return None
        return self._change_of_counts(state, i, counts)

    def _change_of_counts(self, state: DocumentState, i: int, counts: Counts | None) -> tuple[dict, dict]:
        """`document_change` of fixes that change these counts (None: that touch no chain)."""
        if counts is None:
            return {}, {}
        signature = (i, "counts", counts)  # the counts decide every change
        known = self._memo.get(signature)
        if known is None:
            known = self._memo[signature] = (self._zero, changes(state.delta, counts, self.parts))
        return known

    def group_by_fix(self, columns: ErrorColumns) -> list[list[int]]:
        """The rows whose fixes make the same scored response (`Edit.response_key` of their edits
        as `_edit` makes them: with singletons removed, after the rule), grouped: each group's
        rows in order, the groups in order of their first row.

        Different errors often have the same fix: the suboptimal links of one response chain, and
        the false new error at its start, all move the same mentions to the same chain.  With
        singletons removed, more do: removing a spurious mention and splitting off the one after
        it both leave two singletons, dropped alike.  A fix that leaves the scored response as it
        was (a missing mention added alone, then dropped) removes no error, so it shares its fix
        with none: such rows stay one to a group.  Read from the columns (`fixes_of_columns`): a
        corpus's records are never made to be grouped.
        """
        at = [self.index[name] for name in columns.documents]
        groups: dict[tuple, list[int]] = {}
        for row, (d, fix) in enumerate(zip(columns.document.tolist(), fixes_of_columns(columns))):
            i = at[d]
            response = self._edit(self._state(i), [fix]).response_key()
            groups.setdefault((i, response) if response else ("unchanged", row), []).append(row)
        return list(groups.values())

    def _rescore_together(self, i: int, fix_lists: Sequence[Sequence[Fix]]) -> dict[int, tuple | None]:
        """Price by rescoring, together, the edits of these fixes that count changes cannot price
        (a document that lists a span twice, or metrics the delta table lacks), and keep them in
        the memo: a document's hundreds of single fixes paid numpy's calls each.  Returns the
        signature of each list's edit made here, by the list's place (None: it touches nothing),
        so that `_known_changes` finds its change without editing the chains again."""
        state = self._state(i)
        if state.clean:
            return {}
        pending: dict[tuple, Edit] = {}
        made: dict[int, tuple | None] = {}
        for n, fixes in enumerate(fix_lists):
            if len(fixes) == 1 and state.delta is not None and self._counted_change(state, i, fixes[0]) is not None:
                continue  # priced by its counts (a book's fixes but those near its repeated span)
            edit = self._edit(state, fixes)
            if edit.touched:
                signature = made[n] = _signature(i, edit)
                if signature not in self._memo and signature not in pending and not state.by_delta(edit):
                    pending[signature] = edit
            else:
                made[n] = None
        if len(pending) > 1:
            self._memo.update(zip(pending, self._rescored(state, list(pending.values()), i)))
        return made

    def _known_changes(self, i: int, fix_lists: Sequence[Sequence[Fix]], made: dict[int, tuple | None]
                       ) -> list[tuple[dict, dict]]:
        """`document_change(i, fixes)` of each list, by the signature `_rescore_together` made of
        its edit where the memo holds its change (a list touching nothing changes nothing)."""
        out = []
        for n, fixes in enumerate(fix_lists):
            if n in made and made[n] is None:
                out.append(({}, {}))
            else:
                known = self._memo.get(made[n]) if n in made else None
                out.append(known if known is not None else self.document_change(i, fixes))
        return out

    def _rescored(self, state: DocumentState, edits: Sequence[Edit], i: int) -> list[tuple[dict, dict]]:
        """(scores of the reached part before, after) of each edit, by rescoring (`PartRescorer`)."""
        def reached(edit: Edit) -> tuple[list[int], list[int]]:
            return reach(edit, state.components(), state.key_chains_of(), state.response_chains_of)

        def counted() -> DocumentCells | None:
            return state.counted() if self._count_parts and state.pair.scorer is Scorer.V801 else None

        return self._rescorer.rescored(i, state.pair, reached, edits, counted)

    def price(self, i: int, fixes: Sequence[Fix]) -> float:
        """Change of the corpus F1 if these fixes were applied (in order) to document i."""
        before, after = self.document_change(i, fixes)
        if not before and not after:
            return 0.0
        total = {name: _swap(self.total[name], before[name], after[name]) for name in self.parts}
        return self._value(total) - self.value

    def price_each(self, i: int, fix_lists: Sequence[Sequence[Fix]],
                   also: Sequence[Sequence[Fix]] = ()) -> list[float]:
        """`price(i, fixes)` of each list of fixes, computed together: the changed corpus totals of
        all of them as arrays (the same float operations as `_swap` and `Score.f1`, element by
        element, so each price is the same to the bit), then each fix's mean of its parts' F1 as
        `_value` takes it (`score.mean`'s operations, element by element).

        Why: a document's hundreds of single fixes each built new Score objects and their means;
        that was a fifth of pricing a corpus.  `also`: fixes priced next (`document_change`), rescored with
        these in a document without a delta table (a book's categories, whole-book parts, stay apart)."""
        state = self._state(i)
        if self._in_one_pass(i) and all(len(fixes) == 1 for fixes in fix_lists):
            return self._counted_prices([(i, [fixes[0] for fixes in fix_lists])])[0]
        made = self._rescore_together(i, [*fix_lists, *also] if state.delta is None else fix_lists)
        changes = self._known_changes(i, fix_lists, made)
        if not self._arrays:
            return [self._price_changes([change]) for change in changes]
        done, olds, news = self._change_rows(changes, range(len(changes)))
        return prices_of(self.total, self.value, self.metric, self.parts,
                         n_prices=len(changes), done=done, olds=olds, news=news)

    def _change_rows(self, changes: Sequence[tuple[dict, dict]], at: Iterable[int]
                     ) -> tuple[list[int], dict[str, np.ndarray], dict[str, np.ndarray]]:
        """Which of these (before, after) changes change anything (their places `at`), and their
        before and after counts as rows per part."""
        done = [(n, change) for n, change in zip(at, changes) if change[0] or change[1]]
        olds = {name: np.array([before[name].counts() for _, (before, _) in done], dtype=np.float64).reshape(-1, 4)
                for name in self.parts}
        news = {name: np.array([after[name].counts() for _, (_, after) in done], dtype=np.float64).reshape(-1, 4)
                for name in self.parts}
        return [n for n, _ in done], olds, news

    def _in_one_pass(self, i: int) -> bool:
        """Whether document i's single fixes are priced by their counts (`_counted_prices`)."""
        return self._arrays and self._state(i).delta is not None

    def _counted_prices(self, asked: Sequence[tuple[int, Sequence[Fix]]]) -> list[list[float]]:
        """`price_each` of single fixes in documents with a delta table (`asked`: each document's
        fixes), all the documents in one pass: each fix's counts (`single_fix_counts`; for MUC,
        B3 and CEAF-e alone, a fix of one move kept as its move, `DocumentState.single_changes`,
        laid out as columns: `move_rows`), the changes of each document's distinct counts and
        moves (MUC, B3 and CEAF-e as arrays over every document at once, `delta.block_arrays`;
        the other metrics by `delta.changes`), and the prices as arrays.  The same floats as `document_change` gives each fix (its before is
        zero, its after the change of its counts): only the objects in between are gone, and each
        price is computed element by element, whichever documents share the pass.  In a book that
        lists a span twice, the fixes whose counts may reach a chain of that span
        (`_counted_change` declines them) take `document_change`, rescored together, and join the
        same arrays."""
        rest = tuple(name for name in self.parts if name not in ARRAY_METRICS)
        in_arrays = [name for name in self.parts if name in ARRAY_METRICS]
        # fixes of one move are laid out as columns, not counts (`move_rows`)
        by_moves = not rest and not self.singletons_removed
        tables, distincts, by_counts, places = [], [], [], []
        moved: list[list[Move]] = []  # each document's distinct moves
        moved_places: list[int] = []  # each fix of one move, its place among every document's moves
        done: list[int] = []  # each fix priced by its counts, by its place among all the documents' fixes
        moved_done: list[int] = []  # the same, for the fixes of one move
        declined: list[tuple[int, list[list[Fix]], list[int]]] = []  # (document, fixes, places) rescored
        first = n_distinct = n_moved = 0  # the place of the document's first fix, first distinct counts, move
        for i, fixes in asked:
            state = self._state(i)
            table = state.delta
            moves: dict[Move, int] = {}
            if by_moves:
                ones, others, refused = state.single_changes(fixes)
                distinct: dict[Counts, int] = {}
                for n, move in ones:
                    moved_places.append(n_moved + moves.setdefault(move, len(moves)))
                    moved_done.append(first + n)
                for n, counts in others:
                    places.append(n_distinct + distinct.setdefault(counts, len(distinct)))
                    done.append(first + n)
                if refused:
                    declined.append((i, [[fixes[n]] for n in refused], [first + n for n in refused]))
                n_moved += len(moves)
                moved.append(list(moves))
                n_distinct += len(distinct)
                tables.append(table)
                distincts.append(list(distinct))
                first += len(fixes)
                continue
            moved.append([])
            counted = [self._counts(state, single_fix_counts(state.base, fix, table.row_cells)) for fix in fixes]
            if state.clean:
                mine = [n for n, counts in enumerate(counted) if counts is not None]
            else:
                mine, refused = [], []
                for n, counts in enumerate(counted):
                    (refused if counts is None or state.counts_tainted(counts) else mine).append(n)
                if refused:
                    declined.append((i, [[fixes[n]] for n in refused], [first + n for n in refused]))
            distinct: dict[Counts, int] = {}
            places += [n_distinct + distinct.setdefault(counted[n], len(distinct)) for n in mine]
            n_distinct += len(distinct)
            done += [first + n for n in mine]
            tables.append(table)
            distincts.append(list(distinct))
            by_counts += [changes(table, counts, rest) for counts in distinct] if rest else []
            first += len(fixes)
        at = np.array(places + [n_distinct + n for n in moved_places], dtype=np.intp)
        done += moved_done
        moved_columns = one_moves(range(len(tables)), moved, [table.row_cells for table in tables]) if n_moved else None
        arrays = block_arrays(tables, distincts, in_arrays, moved_columns) if in_arrays and done else {}
        news = {name: (arrays[name] if name in ARRAY_METRICS else
                       np.array([change[name].counts() for change in by_counts], dtype=np.float64).reshape(-1, 4))[at]
                for name in self.parts} if done else {name: np.zeros((0, 4)) for name in self.parts}
        olds = {name: np.zeros((len(done), 4)) for name in self.parts}
        for i, declined_lists, refused in declined:
            made = self._rescore_together(i, declined_lists)
            rescored, rescored_olds, rescored_news = self._change_rows(
                self._known_changes(i, declined_lists, made), refused)
            done += rescored
            olds = {name: np.concatenate([olds[name], rescored_olds[name]]) for name in self.parts}
            news = {name: np.concatenate([news[name], rescored_news[name]]) for name in self.parts}
        prices = prices_of(self.total, self.value, self.metric, self.parts, n_prices=first, done=done,
                           olds=olds, news=news) if done else [0.0] * first
        out, first = [], 0
        for _, fixes in asked:
            out.append(prices[first:first + len(fixes)])
            first += len(fixes)
        return out

    def _price_changes(self, changes: Iterable[tuple[dict, dict]]) -> float:
        """Change of the corpus F1 under documents' (before, after) scores, swapped in in order."""
        total = dict(self.total)
        for before, after in changes:
            if before or after:
                total = {name: _swap(total[name], before[name], after[name]) for name in self.parts}
        return self._value(total) - self.value

    # -------------------------------------------------------------------- records

    def price_records(self, records: Iterable[ErrorRecord]) -> list[ErrorRecord]:
        """The records with `impact` filled in: each error's fix applied alone."""
        with gc_paused():  # thousands of small rescorings, no cycles
            return [_priced(r, self.price(self.index[r.document], [fix_of(r)])) for r in records]

    def price_columns(self, listed: ErrorColumns, categorised: ErrorColumns, processes: int = 1
                      ) -> tuple[list[float], dict[Category, float]]:
        """Each listed row's impact (its fix alone, as `price_records` prices a record), and each
        category's among `categorised` (all its fixes applied together, document by document).

        Why: a corpus's fifty thousand records were made as objects only to be priced, made again
        with their impact, and turned back into columns to be written; here the fixes and the
        categories' plans are read from the columns (`fixes_of_columns`, `plans.column_plans`)."""
        categorised_fixes = fixes_of_columns(categorised)
        listed_fixes = categorised_fixes if listed is categorised else fixes_of_columns(listed)
        at = [self.index[name] for name in listed.documents]
        prices, by_category = self._price_planned(list(map(at.__getitem__, listed.document.tolist())), listed_fixes,
                                                  column_plans(categorised, categorised_fixes, self.index,
                                                               len(self.corpus.pairs)), processes)
        return prices, by_category

    def _price_planned(self, where: Sequence[int], listed_fixes: Sequence[Fix],
                       plans: Plans, processes: int
                       ) -> tuple[list[float], dict[Category, float]]:
        """The price of each listed fix (in document `where[n]`) alone, and of each category's plan
        (`metrics.errors.chen_ng.plans`), with the documents shared by up to `processes` processes
        (`metrics.runtime.parallel.fork_each`, PARALLEL_RECORDS fixes each at least) in blocks
        (`price_rows.blocks`), each process taking the next block as it finishes one, the dearest
        first.  A block's single fixes are priced in one pass (`_counted_prices`: numpy's fixed cost per
        call paid once per block, not per document), then each document's categories: each block
        returns the prices and its documents' (before, after) scores per category, which are
        swapped into the corpus totals here, in document order (`_price_changes`)."""
        load: dict[int, int] = {}
        for i in where:
            load[i] = load.get(i, 0) + 1
        for plan in plans.values():
            for i, fixes in plan:
                load[i] = load.get(i, 0) + len(fixes)
        documents = sorted(load, key=lambda i: (-load[i], i))  # the dearest first: they are taken first
        self._make_bases(documents)
        listed_in: dict[int, list[int]] = {}
        for n, i in enumerate(where):
            listed_in.setdefault(i, []).append(n)
        planned_in: dict[int, list[tuple[Category, list[Fix]]]] = {}
        for c, plan in plans.items():
            for i, fixes in plan:
                planned_in.setdefault(i, []).append((c, fixes))

        def work(block: list[int]) -> tuple[dict[int, float], dict[tuple[Category, int], tuple[dict, dict]]]:
            with gc_paused():  # thousands of small rescorings, no cycles
                passed = [i for i in block if i in listed_in and self._in_one_pass(i)]
                prices: dict[int, float] = {}
                for i, found in zip(passed, self._counted_prices(
                        [(i, [listed_fixes[n] for n in listed_in[i]]) for i in passed])):
                    prices.update(zip(listed_in[i], found))
                in_pass, changes = set(passed), {}
                for i in block:
                    planned = planned_in.get(i, [])
                    if i in listed_in and i not in in_pass:  # no delta table: rescored with its categories
                        mine = listed_in[i]
                        prices.update(zip(mine, self.price_each(i, [[listed_fixes[n]] for n in mine],
                                                                also=[fixes for _, fixes in planned])))
                    changes.update(((c, i), self.document_change(i, fixes)) for c, fixes in planned)
            return prices, changes

        prices: dict[int, float] = {}
        changes: dict[tuple[Category, int], tuple[dict, dict]] = {}
        worth = max(1, min(processes, sum(load.values()) // PARALLEL_RECORDS))
        for block_prices, block_changes in fork_each(work, blocks(documents, load, worth), worth):
            prices.update(block_prices)
            changes.update(block_changes)
        by_category = {c: self._price_changes(changes[(c, i)] for i, _ in plan) for c, plan in plans.items()}
        return [prices[n] for n in range(len(where))], by_category


def _priced(record: ErrorRecord, impact: float) -> ErrorRecord:
    """The record with its impact: `dataclasses.replace(record, impact=impact)` without its
    keyword checks (a record has no `__post_init__`), which took a twentieth of pricing a corpus's
    fifty thousand errors."""
    priced = object.__new__(ErrorRecord)
    priced.__dict__.update(record.__dict__)
    priced.__dict__["impact"] = impact
    return priced


def _signature(i: int, edit: Edit) -> tuple:
    """What identifies the response an edit makes: the document and where the moved spans went."""
    return (i, edit.signature())

"""The table metrics of many documents at once: the mentions, MUC, B3, CEAFm, CEAFe, LEA, BLANC,
the four LMetrics, CEAF under phi1 and phi2 and the ACE-value, from the documents' tables laid end
to end, each document's counts summed from its part of the arrays (and Tuggener's metrics of the
documents without a link, which have nothing to judge).

Why: a corpus of many small documents (PreCo has 38,000) paid the numpy calls of every metric once
per document, about a millisecond each; here they are paid once for the corpus.  Each value is
the one `formulas` (and `blanc`) computes for the document alone, to the bit: the same elementwise
operations, and each document's sums taken in the order numpy's `.sum()` takes them for it (a
running sum below eight terms, `_doc_sums`); a CEAF component that needs the solver is solved on
its own (`components.best_totals`) and added to its document's sum in turn, as
`best_alignment` adds it.  What arithmetic on the table cannot give is left to the per-document
computation: BLANC of a document with a span twice on a side, the ACE-value of a document whose
matching needs the solver.  Each function returns a `Column` of one score per table, its `missing`
rows those left to the per-document computation.
"""

from __future__ import annotations

import numpy as np

from metrics.measures.ace import AceScore
from metrics.measures.columns import Column
from metrics.measures.components import best_matchings, best_totals
from metrics.measures.formulas import ChainWeights, first_best, largest_matching, lea_terms
from metrics.measures.score import AnchorScore, BlancScore, Score, ratio
from metrics.measures.laid import Tables
from metrics.measures.table import ChainTypes
from metrics.measures.table_block import RESPONSE_IDS
from metrics.measures.weights import Weights

_RUNNING_SUM = 8
"""numpy's `.sum()` of fewer terms than this adds them one after another from 0.0 (as
`np.bincount` with weights does); from eight on it sums in pairs (its pairwise summation)."""


def _doc_sums(values: np.ndarray, doc: np.ndarray, n_docs: int) -> np.ndarray:
    """Each document's sum of its `values` (rows in document order, `doc` the document of each),
    as `values[rows of the document].sum()` gives it: a running sum from 0.0 below eight terms,
    numpy's own sum of the document's slice from eight on."""
    values = np.asarray(values, dtype=np.float64)
    sums = np.bincount(doc, weights=values, minlength=n_docs) if len(doc) else np.zeros(n_docs)
    counts = np.bincount(doc, minlength=n_docs) if len(doc) else np.zeros(n_docs, dtype=np.int64)
    long = np.nonzero(counts >= _RUNNING_SUM)[0]
    if len(long):
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        for d in long.tolist():
            sums[d] = values[starts[d]:starts[d] + counts[d]].copy().sum()
    return sums


def _exact_sums(values: np.ndarray, doc: np.ndarray, n_docs: int) -> np.ndarray:
    """Each document's sum of whole numbers held as floats (exact in any order below 2**53)."""
    if not len(doc):
        return np.zeros(n_docs)
    return np.bincount(doc, weights=np.asarray(values, dtype=np.float64), minlength=n_docs)


def muc(t: Tables) -> Column:
    """MUC (`formulas.muc` under `agnostic_weights(links=True)`): common links over key and
    response links; whole numbers, so summed in any order."""
    common = _exact_sums(np.maximum(t.primary - 1, 0), t.cell_doc, t.n_docs)
    key = _exact_sums(np.maximum(t.key_sizes - 1, 0), t.key_doc, t.n_docs)
    response = _exact_sums(np.maximum(t.response_sizes - 1, 0), t.response_doc, t.n_docs)
    return Column(Score, [common, key, common, response])


def bcub(t: Tables) -> Column:
    """B3 (`formulas.bcub` under the agnostic weights, |C| counted as `shared`)."""
    common = t.shared.astype(np.float64)
    recall = _doc_sums(t.primary * ratio(common, t.key_sizes.astype(np.float64)[t.cell_key]), t.cell_doc, t.n_docs)
    precision = _doc_sums(t.primary * ratio(common, t.response_sizes.astype(np.float64)[t.cell_response]),
                          t.cell_doc, t.n_docs)
    keys = _exact_sums(t.key_sizes, t.key_doc, t.n_docs)
    responses = _exact_sums(t.response_sizes, t.response_doc, t.n_docs)
    return Column(Score, [recall, keys, precision, responses])


def ceaf_mention(t: Tables) -> Column:
    """CEAFm (`formulas.ceaf_mention`, |C| counted on the key side): phi is a whole number."""
    totals, missing = _best_totals(t, t.key_side.astype(np.float64), exact=True)
    keys = _exact_sums(t.key_sizes, t.key_doc, t.n_docs)
    responses = _exact_sums(t.response_sizes, t.response_doc, t.n_docs)
    return Column(Score, [totals, keys, totals, responses], missing=missing)


def ceaf_entity(t: Tables) -> Column:
    """CEAFe (`formulas.ceaf_entity`): phi = 2|C| / (|K| + |R|), over the numbers of chains."""
    common = t.key_side.astype(np.float64)
    phi = ratio(2.0 * common, t.key_sizes.astype(np.float64)[t.cell_key]
                + t.response_sizes.astype(np.float64)[t.cell_response])
    totals, missing = _best_totals(t, phi, exact=False)
    keys = np.bincount(t.key_doc[t.key_sizes != 0], minlength=t.n_docs).astype(np.float64)
    responses = np.bincount(t.response_doc[t.response_sizes != 0], minlength=t.n_docs).astype(np.float64)
    return Column(Score, [totals, keys, totals, responses], missing=missing)


def _best_totals(t: Tables, phi: np.ndarray, exact: bool) -> tuple[np.ndarray, list[int]]:
    """`formulas.best_alignment` of each document: its simple cells' phi summed, plus the best cell
    of each star component summed, in the order and grouping `best_alignment` sums them, then
    each of its components for the solver (`components.best_totals`: `components.component_total`
    of each, mostly without the solver) added in turn.  `exact`: phi holds whole numbers.  (No document is left missing.)"""
    sums = _exact_sums if exact else _doc_sums
    simple, star, has_star = _best_cells(t, phi)
    totals = 0.0 + sums(phi[simple], t.cell_doc[simple], t.n_docs)
    if len(star):
        totals = np.where(has_star, totals + sums(phi[star], t.cell_doc[star], t.n_docs), totals)
    found = t.solver_components()
    for d, component in zip(found.doc.tolist(), best_totals(found, phi)):
        totals[d] += component  # in turn, as float64: the additions `best_alignment` makes
    return totals, []


def _best_cells(t: Tables, phi: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`formulas.best_cells` without the solver's components, as global cell indices: every
    document's simple cells, the best cell of each of its star components (the first best, as
    `np.argmax` takes it), both in document order, and whether each document has star components."""
    found = t.ceaf_cells()
    if not len(found.star):
        return found.simple, found.star, found.has_star
    return found.simple, found.star[first_best(phi[found.star], found.group_starts)], found.has_star


def lea(t: Tables) -> Column:
    """LEA (`formulas.lea`): each key (response) chain's size times its resolved share of links."""
    recall_terms, precision_terms, ks, rs = lea_terms(t.cell_key, t.cell_response, t.shared, t.key_sizes,
                                                      t.response_sizes)
    recall = _doc_sums(recall_terms, t.cell_doc, t.n_docs)
    precision = _doc_sums(precision_terms, t.cell_doc, t.n_docs)
    keys = _exact_sums(ks, t.key_doc, t.n_docs)
    responses = _exact_sums(rs, t.response_doc, t.n_docs)
    return Column(Score, [recall, keys, precision, responses])


def blanc(t: Tables) -> Column:
    """BLANC (`blanc.blanc_score`) of each document whose ids sit once on each side: link counts
    from chain and cell sizes (pairs within a chain are coreference links, pairs across two are
    not); None for a document with a span twice on a side, whose links are counted one by one."""
    n = t.n_docs
    key_positions = np.bincount(t.key_doc, weights=t.key_sizes, minlength=n).astype(np.int64) if len(t.key_doc) \
        else np.zeros(n, np.int64)
    response_positions = np.bincount(t.response_doc, weights=t.response_sizes, minlength=n).astype(np.int64) \
        if len(t.response_doc) else np.zeros(n, np.int64)
    # every key span once (no span in two key chains) and every response span once (no twinless
    # span repeated: a key-matching one is never kept twice)
    regular = (t.block.counts["n_key_spans"] == key_positions) & (t.block.counts["n_response_spans"] == response_positions)

    def pairs(sizes: np.ndarray) -> np.ndarray:
        return sizes * (sizes - 1) // 2

    def per_doc(values: np.ndarray, doc: np.ndarray) -> np.ndarray:
        out = np.zeros(n, dtype=np.int64)
        np.add.at(out, doc, values)
        return out

    key_coref = per_doc(pairs(t.key_sizes), t.key_doc)
    response_coref = per_doc(pairs(t.response_sizes), t.response_doc)
    key_non = pairs(key_positions) - key_coref
    response_non = pairs(response_positions) - response_coref
    correct_coref = per_doc(pairs(t.primary), t.cell_doc)
    matched = per_doc(t.primary, t.cell_doc)
    by_key = np.zeros(len(t.key_sizes), dtype=np.int64)
    np.add.at(by_key, t.cell_key, t.primary)
    by_response = np.zeros(len(t.response_sizes), dtype=np.int64)
    np.add.at(by_response, t.cell_response, t.primary)
    correct_non = (pairs(matched) - per_doc(pairs(by_key), t.key_doc) - per_doc(pairs(by_response), t.response_doc)
                   + correct_coref)
    cc, cn = correct_coref, correct_non
    return Column(BlancScore, [cc, key_coref, cc, response_coref, cn, key_non, cn, response_non],
                  missing=np.flatnonzero(~regular).tolist())


def linguistic(t: Tables, w: Weights) -> ChainWeights:
    """Chen & Ng's chain weights under W, shared by the four LMetrics (kept per W)."""
    if w not in t.linguistic:
        t.linguistic[w] = linguistic_weights(t, t.chain_types(), w)
    return t.linguistic[w]


def linguistic_weights(t: Tables, types: ChainTypes, w: Weights) -> ChainWeights:
    """Chen & Ng's chain weights of every document (`formulas.linguistic_weights` of each, laid end
    to end): elementwise over cells and key chains, per response chain over its parts."""
    from metrics.measures.linguistic import common_weights, key_weights, response_weights

    part_chain = t.joined("part_response", t.starts("response_sizes"))
    return ChainWeights(
        common_weights(types.cells, t.key_sizes[t.cell_key], t.response_sizes[t.cell_response], w),
        key_weights(types.key, w),
        response_weights(types.parts, part_chain, len(t.response_sizes), w),
    )


def linguistic_muc(t: Tables, cw: ChainWeights) -> Column:
    """LMUC (`formulas.muc` under the linguistic weights)."""
    common = _doc_sums(cw.common, t.cell_doc, t.n_docs)
    key = _doc_sums(cw.key, t.key_doc, t.n_docs)
    response = _doc_sums(cw.response, t.response_doc, t.n_docs)
    return Column(Score, [common, key, common, response])


def linguistic_bcub(t: Tables, cw: ChainWeights) -> Column:
    """LB3 (`formulas.bcub` under the linguistic weights)."""
    recall = _doc_sums(t.primary * ratio(cw.common, cw.key[t.cell_key]), t.cell_doc, t.n_docs)
    precision = _doc_sums(t.primary * ratio(cw.common, cw.response[t.cell_response]), t.cell_doc, t.n_docs)
    keys = _exact_sums(t.key_sizes, t.key_doc, t.n_docs)
    responses = _exact_sums(t.response_sizes, t.response_doc, t.n_docs)
    return Column(Score, [recall, keys, precision, responses])


def linguistic_ceaf_mention(t: Tables, cw: ChainWeights) -> Column:
    """LCEAFm (`formulas.ceaf_mention` under the linguistic weights)."""
    totals, missing = _best_totals(t, cw.common, exact=False)
    key = _doc_sums(cw.key, t.key_doc, t.n_docs)
    response = _doc_sums(cw.response, t.response_doc, t.n_docs)
    return Column(Score, [totals, key, totals, response], missing=missing)


def linguistic_ceaf_entity(t: Tables, cw: ChainWeights) -> Column:
    """LCEAFe (`formulas.ceaf_entity` under the linguistic weights)."""
    phi = ratio(2.0 * cw.common, cw.key[t.cell_key] + cw.response[t.cell_response])
    totals, missing = _best_totals(t, phi, exact=False)
    keys = np.bincount(t.key_doc[t.key_sizes != 0], minlength=t.n_docs).astype(np.float64)
    responses = np.bincount(t.response_doc[t.response_sizes != 0], minlength=t.n_docs).astype(np.float64)
    return Column(Score, [totals, keys, totals, responses], missing=missing)


def ceaf_phi(t: Tables, exact: bool) -> Column:
    """Entity CEAF under Luo's phi1 (`exact`) or phi2 (`formulas.ceaf_entity_phi` of `luo_phi`):
    the largest matching of the cells where phi is 1, which is their number where no chain has
    two of them (the documents with such a chain matched together, `formulas.largest_matching`)."""
    k, r = t.cell_key, t.cell_response
    ones = t.key_side == t.response_sizes[r]
    if exact:
        ones &= t.key_side == t.key_sizes[k]
    edges = np.nonzero(ones)[0]
    shared = np.zeros(t.n_docs, dtype=bool)
    for chains, docs, n in ((k[edges], t.key_doc, len(t.key_sizes)), (r[edges], t.response_doc, len(t.response_sizes))):
        twice = np.nonzero(np.bincount(chains, minlength=n) > 1)[0]
        shared[docs[twice]] = True
    counted = np.bincount(t.cell_doc[edges], minlength=t.n_docs).astype(np.float64)
    # the documents with such a chain whose cells where phi is 1 are stars (no response chain in
    # two of them, as under phi2 a response chain lies within one key chain at most; or no key
    # chain in two): a largest matching takes one cell of each star, as many as their centres
    stars = np.zeros(t.n_docs, dtype=bool)
    tangled = edges[shared[t.cell_doc[edges]]]
    for centres, leaves, docs in ((k[tangled], r[tangled], t.key_doc), (r[tangled], k[tangled], t.response_doc)):
        leaves_once = np.ones(t.n_docs, dtype=bool)
        leaves_once[t.cell_doc[tangled][np.bincount(leaves)[leaves] > 1]] = False
        centred = shared & leaves_once & ~stars
        if centred.any():
            present = np.zeros(len(docs), dtype=bool)
            present[centres] = True
            counted[centred] = np.bincount(docs[present], minlength=t.n_docs)[centred]
            stars |= centred
    # the others: a largest matching of all their cells where phi is 1 at once (their chains'
    # numbers are global, so it is a largest matching of each)
    tangled = tangled[(shared & ~stars)[t.cell_doc[tangled]]]
    matched = list(largest_matching(k[tangled].tolist(), r[tangled].tolist()).values())
    rest = shared & ~stars
    counted[rest] = np.bincount(t.key_doc[matched], minlength=t.n_docs)[rest] if matched else 0.0
    keys = np.bincount(t.key_doc[t.key_sizes != 0], minlength=t.n_docs).astype(np.float64)
    responses = np.bincount(t.response_doc[t.response_sizes != 0], minlength=t.n_docs).astype(np.float64)
    return Column(Score, [counted, keys, counted, responses])


def ceaf_phi1(t: Tables) -> Column:
    return ceaf_phi(t, exact=True)


def ceaf_phi2(t: Tables) -> Column:
    return ceaf_phi(t, exact=False)


def ace(t: Tables) -> Column:
    """The ACE-value's sums (`ace.ace_document` of each pair) under its default options (ace07,
    mention-weighted) where no entity type can lower a pair's value: the mention values summed per
    chain and cell, each pair's gain, the mapping of `_best_cells` under max(gain, 0) kept where
    the gain is positive (and of each component for the solver the solver's best matching's), and
    each sum in the order `ace_document` takes it.  None for all under other options or with
    entity types."""
    from metrics.measures.ace import MTV, W_FA, AceOptions

    pairs = t.pairs
    if pairs is None or not all(pair.ace_options == AceOptions() and (pair.key.entity_types is None
                                                                      or pair.response.entity_types is None)
                                for pair in pairs):
        return Column(AceScore, [[0] * t.n_docs for _ in range(10)], missing=list(range(t.n_docs)))
    id_offsets = t.id_offsets()
    mtv = MTV[t.id_types()]
    key_ids = t.joined("key_ids", id_offsets)
    key_owner = t.joined("key_owner", t.starts("key_sizes"))
    owner = np.repeat(np.arange(len(t.response_sizes), dtype=np.int64), t.response_sizes)
    laid = t.block.arrays.get(RESPONSE_IDS)  # as `build_tables` laid them, when it did
    if laid is not None:
        flat = laid[0] + id_offsets[laid[1]]
    else:
        flat = np.fromiter((i for pair in pairs for chain in pair.alignment.response_chains for i in chain),
                           dtype=np.int64, count=len(owner)) + id_offsets[t.response_doc[owner]]
    member_cell = t.joined("member_cell", t.starts("cell_key"))
    member_id = t.joined("member_id", id_offsets)
    n_key, n_response, n_cells = len(t.key_sizes), len(t.response_sizes), len(t.cell_key)
    v_key = np.bincount(key_owner, weights=mtv[key_ids], minlength=n_key) if n_key else np.zeros(0)
    cost_response = np.bincount(owner, weights=mtv[flat], minlength=n_response) if n_response else np.zeros(0)
    w_common = np.bincount(member_cell, weights=mtv[member_id], minlength=n_cells) if n_cells else np.zeros(0)
    k, r = t.cell_key, t.cell_response
    v_pair = np.ones(n_cells) * w_common - W_FA * (cost_response[r] - w_common)
    v_fa = -W_FA * 1.0 * cost_response
    gain = v_pair - v_fa[r]
    simple, star, _ = _best_cells(t, np.maximum(gain, 0.0))
    both = np.concatenate([simple, star, _solved_cells(t, np.maximum(gain, 0.0))])
    chosen = both[np.argsort(t.cell_doc[both], kind="stable")]  # each document's simple cells, its stars, its components
    chosen = chosen[gain[chosen] > 0]
    mapped_key = np.zeros(n_key, dtype=bool)
    mapped_key[k[chosen]] = True
    mapped_response = np.zeros(n_response, dtype=bool)
    mapped_response[r[chosen]] = True
    n, at = t.n_docs, t.cell_doc[chosen]
    numerator = _doc_sums(v_fa, t.response_doc, n) + _doc_sums(gain[chosen], at, n)
    denominator = _doc_sums(v_key, t.key_doc, n)
    miss = _doc_sums(v_key[~mapped_key], t.key_doc[~mapped_key], n)
    mapped_cost = _doc_sums(v_key[k[chosen]] - v_pair[chosen], at, n)
    false_alarm = -_doc_sums(v_fa[~mapped_response], t.response_doc[~mapped_response], n)
    mapped_value = _doc_sums(v_pair[chosen], at, n)
    mapped_key_value = _doc_sums(v_key[k[chosen]], at, n)
    key_entities = np.bincount(t.key_doc[t.key_sizes != 0], minlength=n).astype(np.int64)
    response_entities = np.bincount(t.response_doc, minlength=n).astype(np.int64) if len(t.response_doc) \
        else np.zeros(n, dtype=np.int64)
    mapped = np.bincount(at, minlength=n).astype(np.int64) if len(at) else np.zeros(n, dtype=np.int64)
    return Column(AceScore, [numerator, denominator, miss, mapped_cost, false_alarm, mapped_value, mapped_key_value,
                             key_entities, response_entities, mapped])


def _solved_cells(t: Tables, weights: np.ndarray) -> np.ndarray:
    """The cells of the best matching of every component for the solver, as `formulas.best_cells`
    takes them (by document, component, then row: `components.best_matchings`)."""
    found = t.solver_components()
    matchings = best_matchings(found, weights)
    return found.cells[np.concatenate(matchings)] if matchings else np.zeros(0, np.int64)


def mentions(t: Tables) -> Column:
    """Mention identification (`formulas.mentions`): exact span matches over distinct key and
    response spans, counts each table holds."""
    matched = t.block.counts["matched"].astype(np.float64)
    return Column(Score, [matched, t.block.counts["n_key_spans"].astype(np.float64), matched,
                          t.block.counts["n_response_spans"].astype(np.float64)])


def application(t: Tables, parts: tuple[str, ...]) -> Column:
    """One of Tuggener's metrics (`tuggener.score_documents`) of every document, the score of the
    counts of `parts` (one counted metric; or the anchors' ED and EM, whose F-phi is the
    metric): a document with no chain of two mentions or more on either side has nothing to
    judge (singletons are skipped), every count 0; the others are judged together
    (`Tables.application_counts`), each score of its counts as `Tally.score` makes it.  Without
    the pairs and their tally, those are left to each document (`missing`)."""
    kind = AnchorScore if len(parts) == 2 else Score
    fields = [np.zeros(t.n_docs, dtype=np.int64) for _ in range(4 * len(parts))]
    if t.pairs is None or t.tally is None:
        return Column(kind, fields, missing=t.judged())
    judged = np.array(t.judged(), dtype=np.intp)
    counts = t.application_counts()
    for at, part in enumerate(parts):
        tp, wl, fn, fp = counts[part].T
        for field, values in zip(fields[4 * at:4 * at + 4], (tp, tp + wl + fn, tp, tp + wl + fp)):
            field[judged] = values
    return Column(kind, fields)

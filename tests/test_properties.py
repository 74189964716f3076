"""Invariants every score must satisfy, checked on random corpora (hypothesis).

A scorer's numbers end up in papers, so beyond reproducing known tables the engine must obey the
metrics' definitions on inputs nobody wrote by hand: bounds, perfect scores, symmetry, invariance
under relabelling and reordering, micro-aggregation, Chen & Ng's statements about w_sing (LMUC
tends to MUC as it vanishes; LB3 and LCEAFe ignore it), and the streaming (`--stream`)
scorer agreeing with the whole-file one.

"A perfect response scores 1" has exceptions, all of them 0/0 = 0 (v8.01's convention) or a
weight of zero; each is asserted explicitly in `test_perfect_response_exceptions` and below:

- empty key (no mentions at all): every metric is 0/0 = 0, so every score is 0;
- MUC (and so the CoNLL score, then 2/3 at best) on a key whose chains are all singletons: the key
  has no links, recall and precision are 0/0 = 0.  Per document this also makes the macro MUC of a
  perfect corpus < 1 while the micro MUC is 1 as soon as one document has a link;
- LMUC on an all-singleton key scores 1 (singletons weigh w_sing), unless w_sing = 0 (then 0/0);
- BLANC on a key with a single mention: it has neither coreference nor non-coreference links, so
  BLANC is 0 (with all singletons or a single chain BLANC is the one non-empty part alone, = 1);
- LB3, LCEAFe (and LMUC, LCEAFm when every chain weighs 0) when some key chain weighs 0 under W
  (w_sing = 0 with singletons, w_pro = 0 with a chain of pronouns only...): such a chain adds its
  mentions (LB3) or itself (LCEAFe) to the denominator but 0/0 = 0 to the numerator;
- Tuggener's application metrics skip singletons, so a key without a chain of two or more mentions
  scores 0/0 = 0 on all of them; "inferred" likewise when no key mention has a nominal before it
  in its chain; "anchor_ed" (and so F-phi "anchor") counts a key chain without a NAME or NOMINAL
  mention (no anchor) as missed and its copy in the response as spurious, so a perfect response
  scores the fraction of non-singleton key chains that have an anchor.
A key that holds one span twice (in one chain or two) is not a valid key: every score is
ill-defined and v8.01, mirrored exactly, can even exceed 1 (CEAF counts the span twice in
|K ∩ S|).  So bounds and perfect-response properties use keys without repeated spans, and
`test_repeated_key_span_can_score_above_one` pins the exception.
"""

from __future__ import annotations

import math
import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from strategies import Pair, computed_metrics, corpora, make_document, pairs, weights

from metrics.model import Document, MentionType
from metrics.measures.score import BlancScore, MeanScore, Score
from metrics.measures.catalog import Family, names
from metrics.corpus.scoring import CorpusResult, prepare

APPLICATION = names(Family.APPLICATION)
SINGLE = ("ace",)
"""Single-valued: the ACE-value, which is negative when false alarms outweigh what was found, and 1
for an empty response to an empty key (tests/test_ace.py tests it on its own terms)."""
V801 = ("muc", "bcub", "ceafm", "ceafe", "blanc")
"""The five metrics v8.01 prints."""

from metrics.measures.weights import W4, Weights

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
METRICS = computed_metrics()
NON_APPLICATION = tuple(m for m in METRICS if m not in APPLICATION)


def score(corpus: list[Pair], w: Weights = W4, metrics: tuple[str, ...] = METRICS) -> CorpusResult:
    return prepare([p.key for p in corpus], [p.response for p in corpus]).score(w, metrics)


def values(s) -> tuple[float, float, float]:
    return s.recall, s.precision, s.f1


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def assert_same_scores(a: dict, b: dict, label: str) -> None:
    assert a.keys() == b.keys(), label
    for name in a:
        if name in SINGLE:
            # the value is invariant; its value-based recall and precision depend on which of equally
            # good entity mappings is taken (as in NIST's scorer), and so on the order of the chains
            assert close(a[name].f1, b[name].f1), f"{label} {name}"
            continue
        for x, y in zip(values(a[name]), values(b[name])):
            assert close(x, y), f"{label} {name}: {values(a[name])} != {values(b[name])}"


def perfect(corpus: list[Pair]) -> list[Pair]:
    """Each response replaced by a copy of its key (chains, labels, types)."""
    return [Pair(p.key, make_document(p.key.name, p.key.words, p.key.chains, p.key.explicit_types or {}))
            for p in corpus]


def has_repeats(doc: Document) -> bool:
    spans = doc.mentions()
    return len(spans) != len(set(spans))


# --------------------------------------------------------------------------- bounds


@FAST
@given(corpus=corpora(duplicates=True, key_duplicates=False), w=weights(positive=False))
def test_every_metric_in_unit_interval(corpus: list[Pair], w: Weights) -> None:
    """Even with repeated response spans, nested mentions and zero weights, no score leaves [0, 1]
    (for a valid key: see `test_repeated_key_span_can_score_above_one`)."""
    result = score(corpus, w)
    scopes = [("micro", result.micro), ("macro", result.macro)] + list(result.documents)
    for scope, scores in scopes:
        for name, s in scores.items():
            for part, x in zip(("recall", "precision", "f1"), values(s)):
                low = float("-inf") if part == "f1" and name in SINGLE else -1e-12  # the ACE-value can be < 0
                assert low <= x <= 1 + 1e-9, f"{scope} {name} {part} = {x!r}"
    for _, scores in result.documents:
        for name, s in scores.items():
            if isinstance(s, Score):
                assert s.recall_num <= s.recall_den + 1e-9 and s.precision_num <= s.precision_den + 1e-9, (name, s)
                assert min(s.counts()) >= 0, (name, s)


def test_repeated_key_span_can_score_above_one() -> None:
    """The one exception to the bounds, and it is v8.01's: a key holding a span twice counts it
    twice in |K ∩ S| for CEAF.  The reference scorer itself reports CEAFm P = 1.1 and CEAFe
    R = P = 1.067 on tests/data/tricky/key_dup_same_chain (tests/data/oracle); the engine mirrors
    it (and warns that the key makes every score ill-defined)."""
    t = MentionType
    key = make_document("d", ["Paris"], [[(0, 0), (0, 0)]], {(0, 0): t.NAME})
    response = make_document("d", ["Paris"], [[(0, 0)]], {(0, 0): t.NAME})
    corpus = prepare([key], [response])
    assert any("KEY document" in w for w in corpus.warnings)
    ceafm = corpus.score(W4, ("ceafm",)).micro["ceafm"]
    assert ceafm.counts() == [2.0, 2.0, 2.0, 1.0] and ceafm.precision == 2.0


# --------------------------------------------------------------------------- perfect response


def expected_perfect(key_chains: list[list], name: str, types: dict | None = None) -> float:
    """What a perfect response scores on `name` for a (repeat-free) key with these chains, under
    positive weights: 1 but for the documented exceptions."""
    chains = [c for c in key_chains if c]
    n_mentions = sum(len(c) for c in chains)
    if n_mentions == 0:
        return 0.0
    links = [c for c in chains if len(c) > 1]
    if name == "muc":
        return 1.0 if links else 0.0
    if name == "conll":
        return 1.0 if links else 2 / 3
    if name == "blanc":
        return 0.0 if n_mentions == 1 else 1.0
    if name in APPLICATION:
        if not links:
            return 0.0  # singletons are skipped: 0/0
        # Chains without a nominal have no anchor and are skipped on both sides (metrics/measures/tuggener.py).
        anchored = 1.0 if any(any(types[m] != MentionType.PRONOUN for m in c) for c in links) else 0.0
        if name == "anchor_ed":
            return anchored
        if name == "anchor":
            return 2 * anchored / (anchored + 1) if anchored else 0.0
    return 1.0


@FAST
@given(corpus=corpora(), w=weights(positive=True))
def test_perfect_response_scores_one(corpus: list[Pair], w: Weights) -> None:
    """Per document and for the corpus, a copy of the key scores 1 (R, P and F), exceptions apart.

    Tuggener's counted metrics ("immediate", "inferred", "anchor_em") make no error on a perfect
    response, so R = P = 1 whenever they count anything, else 0/0 = 0; "inferred" counts only
    mentions with a nominal before them in their key chain, so it is checked that way.
    """
    assume(not any(has_repeats(p.key) for p in corpus))
    result = score(perfect(corpus), w)
    for pair, (doc_name, scores) in zip(corpus, result.documents):
        assert doc_name == pair.key.name
        for name, s in scores.items():
            if name in SINGLE:
                assert close(s.f1, 1.0), (doc_name, name, s)  # 1 for a perfect response, also 0 / 0
                continue
            if name in ("inferred", "anchor_em"):
                rn, rd, pn, pd = s.counts()
                assert rn == rd == pn == pd and values(s) == ((1.0,) * 3 if rd else (0.0,) * 3), (name, s)
                continue
            want = expected_perfect(pair.key.chains, name, pair.key.explicit_types)
            for x in values(s):
                assert close(x, want), f"{doc_name} {name}: {values(s)}, expected {want}"
    # Corpus (micro): a metric is 1 as soon as one document is defined for it.
    all_chains = [c for p in corpus for c in p.key.chains]
    for name, s in result.micro.items():
        if name == "blanc" or name in APPLICATION or name in SINGLE:
            continue  # pooled counts: BLANC checked below, application and ACE per document above
        want = expected_perfect(all_chains, name)
        assert close(s.f1, want), f"micro {name}: {values(s)}, expected {want}"
    blanc = result.micro["blanc"]
    assert close(blanc.f1, 1.0 if (blanc.coref.recall_den or blanc.noncoref.recall_den) else 0.0)


def test_perfect_response_exceptions() -> None:
    """The exceptions of the module docstring, each on a minimal document."""
    t = MentionType

    def perfect_scores(chains, types, w=W4):
        words = ["Ann", "saw", "her", "dog", "today"]
        key = make_document("d", words, chains, types)
        return score(perfect([Pair(key, key)]), w).documents[0][1]

    all_single = perfect_scores([[(0, 0)], [(2, 2)]], {(0, 0): t.NAME, (2, 2): t.PRONOUN})
    assert values(all_single["muc"]) == (0.0, 0.0, 0.0)
    assert all_single["muc"].recall_den == 0 and all_single["muc"].precision_den == 0
    assert close(all_single["conll"].f1, 2 / 3)
    for name in ("bcub", "ceafm", "ceafe", "lea", "blanc", "lmuc", "lbcub", "lceafm", "lceafe", "mentions"):
        assert values(all_single[name]) == (1.0, 1.0, 1.0), name
    assert all_single["blanc"].coref.recall_den == 0  # BLANC is its non-coreference part alone

    no_sing = perfect_scores([[(0, 0)], [(2, 2)]], {(0, 0): t.NAME, (2, 2): t.PRONOUN}, Weights(1, 1, 1, 0))
    assert values(no_sing["lmuc"]) == (0.0, 0.0, 0.0)  # 0/0: all-singleton key, w_sing = 0
    assert values(no_sing["lbcub"]) == (0.0, 0.0, 0.0)
    assert values(no_sing["lceafe"]) == (0.0, 0.0, 0.0)
    assert values(no_sing["lceafm"]) == (0.0, 0.0, 0.0)

    one = perfect_scores([[(0, 0)]], {(0, 0): t.NAME})
    assert values(one["blanc"]) == (0.0, 0.0, 0.0)
    assert one["blanc"].coref.recall_den == 0 and one["blanc"].noncoref.recall_den == 0
    assert values(one["bcub"]) == (1.0, 1.0, 1.0)

    pronouns = perfect_scores([[(0, 0), (1, 1)], [(2, 2), (4, 4)]],
                              {(0, 0): t.NAME, (1, 1): t.PRONOUN, (2, 2): t.PRONOUN, (4, 4): t.PRONOUN})
    if "anchor_ed" in METRICS:
        # The pronoun chain has no anchor: skipped on both sides, so the perfect response scores 1.
        assert values(pronouns["anchor_ed"]) == (1.0, 1.0, 1.0) and pronouns["anchor_ed"].recall_den == 1
        assert close(pronouns["anchor"].f1, 1.0) and values(pronouns["anchor_em"]) == (1.0, 1.0, 1.0)
        assert values(all_single["immediate"]) == (0.0, 0.0, 0.0)
        assert values(one["anchor"]) == (0.0, 0.0, 0.0)

    one_chain = perfect_scores([[(0, 0), (2, 2)]], {(0, 0): t.NAME, (2, 2): t.PRONOUN})
    assert values(one_chain["blanc"]) == (1.0, 1.0, 1.0)  # coreference part alone

    empty = perfect_scores([], {})
    for name, s in empty.items():
        assert values(s) == ((0.0, 0.0, 1.0) if name in SINGLE else (0.0, 0.0, 0.0)), name

    # A chain that weighs 0 (pronouns only, w_pro = 0) next to one that does not.
    mixed = perfect_scores([[(0, 0), (3, 3)], [(2, 2), (4, 4)]],
                           {(0, 0): t.NAME, (3, 3): t.NOMINAL, (2, 2): t.PRONOUN, (4, 4): t.PRONOUN},
                           Weights(1, 1, 0, 1))
    assert close(mixed["lbcub"].recall, 0.5) and close(mixed["lbcub"].precision, 0.5)
    assert close(mixed["lceafe"].recall, 0.5) and close(mixed["lceafe"].precision, 0.5)
    assert values(mixed["lmuc"]) == (1.0, 1.0, 1.0) and values(mixed["lceafm"]) == (1.0, 1.0, 1.0)
    assert values(mixed["bcub"]) == (1.0, 1.0, 1.0)


def test_macro_muc_below_one_when_a_document_has_no_links() -> None:
    t = MentionType
    linked = make_document("a", ["Ann", "she"], [[(0, 0), (1, 1)]], {(0, 0): t.NAME, (1, 1): t.PRONOUN})
    single = make_document("b", ["Ann", "she"], [[(0, 0)], [(1, 1)]], {(0, 0): t.NAME, (1, 1): t.PRONOUN})
    result = score(perfect([Pair(linked, linked), Pair(single, single)]), W4, ("muc",))
    assert values(result.micro["muc"]) == (1.0, 1.0, 1.0)
    assert values(result.macro["muc"]) == (0.5, 0.5, 0.5)


# --------------------------------------------------------------------------- symmetry


SYMMETRIC = ("mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "blanc")


@FAST
@given(p=st.one_of(pairs(gold_mentions=True), pairs(gold_mentions=False)))
def test_swapping_key_and_response_swaps_recall_and_precision(p: Pair) -> None:
    """CEAFm and CEAFe are symmetric (phi is), and so are the other OMetrics when no span repeats.

    With gold mentions (the property the issue asks for) and with differing mentions too.  BLANC's
    link counts swap, but its R and P need not: which parts it averages is decided by the key
    alone (a key without non-coreference links makes BLANC its coreference part), so a swap can
    change the averaging.
    """
    assume(not has_repeats(p.key) and not has_repeats(p.response))
    forward = score([p], W4, SYMMETRIC).micro
    backward = score([Pair(p.response, p.key)], W4, SYMMETRIC).micro
    for name in SYMMETRIC:
        a, b = forward[name], backward[name]
        if isinstance(a, BlancScore):
            for x, y in ((a.coref, b.coref), (a.noncoref, b.noncoref)):
                assert x.counts() == [y.precision_num, y.precision_den, y.recall_num, y.recall_den], name
            continue
        assert close(a.recall, b.precision) and close(a.precision, b.recall), f"{name}: {values(a)} vs {values(b)}"
        assert close(a.f1, b.f1), name


# --------------------------------------------------------------------------- invariance


def relabelled(doc: Document, rng: random.Random, reorder: bool) -> Document:
    """Chains renamed; with `reorder`, chains and the mentions inside them shuffled too."""
    chains = [list(c) for c in doc.chains]
    labels = [f"e{rng.randrange(10**6)}x{i}" for i in range(len(chains))]
    if reorder:
        order = list(range(len(chains)))
        rng.shuffle(order)
        chains = [chains[i] for i in order]
        for chain in chains:
            rng.shuffle(chain)
    return make_document(doc.name, doc.words, chains, doc.explicit_types or {}, labels)


@FAST
@given(corpus=corpora(duplicates=True), seed=st.integers(0, 2**32 - 1))
def test_relabelling_chains_changes_nothing(corpus: list[Pair], seed: int) -> None:
    """Chain labels are names only: even with repeated spans, renaming changes no score."""
    rng = random.Random(seed)
    before = score(corpus)
    after = score([Pair(relabelled(p.key, rng, False), relabelled(p.response, rng, False)) for p in corpus])
    assert_same_scores(before.micro, after.micro, "micro")
    for (n1, s1), (n2, s2) in zip(before.documents, after.documents):
        assert n1 == n2
        assert_same_scores(s1, s2, n1)


@FAST
@given(corpus=corpora(), seed=st.integers(0, 2**32 - 1))
def test_reordering_chains_mentions_and_documents_changes_nothing(corpus: list[Pair], seed: int) -> None:
    """Order carries no meaning once no span repeats.

    Generated without repeated spans on purpose: v8.01 keeps the first copy (in chain order) of a
    response span repeated in two chains and attributes a repeated key span to the last key chain
    holding it, so with repeats reordering legitimately changes scores.
    """
    assume(not any(has_repeats(p.key) or has_repeats(p.response) for p in corpus))
    rng = random.Random(seed)
    before = score(corpus)
    shuffled = [Pair(relabelled(p.key, rng, True), relabelled(p.response, rng, True)) for p in corpus]
    rng.shuffle(shuffled)
    responses = [p.response for p in shuffled]
    rng.shuffle(responses)
    after = prepare([p.key for p in shuffled], responses).score(W4, METRICS)
    assert_same_scores(before.micro, after.micro, "micro")
    assert_same_scores(before.macro, after.macro, "macro")
    by_name = dict(after.documents)
    for name, scores in before.documents:
        assert_same_scores(scores, by_name[name], name)


# --------------------------------------------------------------------------- aggregation


@FAST
@given(corpus=corpora(duplicates=True, max_documents=4), w=weights(positive=False))
def test_corpus_scores_are_micro_aggregated_counts(corpus: list[Pair], w: Weights) -> None:
    """micro = counts summed over documents, divided once; macro = mean of per-document values;
    CoNLL = mean of MUC, B3 and CEAFe (micro from the micro scores)."""
    result = score(corpus, w)
    for name, s in result.micro.items():
        per_doc = [scores[name] for _, scores in result.documents]
        if isinstance(s, MeanScore):
            assert name == "conll"
            parts = [result.micro[m] for m in ("muc", "bcub", "ceafe")]
            assert close(s.f1, sum(p.f1 for p in parts) / 3)
            continue
        summed = [math.fsum(d.counts()[i] for d in per_doc) for i in range(len(s.counts()))]
        assert all(close(a, b) for a, b in zip(s.counts(), summed)), (name, s.counts(), summed)
        if not isinstance(s, Score):
            continue  # BLANC, Anchor F-phi: two sets of counts, combined after summing
        rn, rd, pn, pd = summed
        assert close(s.recall, rn / rd if rd else 0.0) and close(s.precision, pn / pd if pd else 0.0), name
    for name, m in result.macro.items():
        per_doc = [scores[name] for _, scores in result.documents]
        for i, x in enumerate(values(m)):
            assert close(x, math.fsum(values(d)[i] for d in per_doc) / len(per_doc)), name
    assert set(result.micro) >= set(V801) | {"conll"}


# --------------------------------------------------------------------------- LMetrics -> OMetrics


@FAST
@given(corpus=corpora(gold_mentions=True))
def test_lmuc_with_unit_link_weights_and_tiny_wsing_tends_to_muc(corpus: list[Pair]) -> None:
    """Chen & Ng: with W = (1, 1, 1, eps) and gold mentions, LMUC -> MUC as eps -> 0 (every link
    weighs 1, so a tree weighs |C| - 1; singletons add only eps).  Needs a key link: an all-
    singleton key has MUC 0/0 = 0 but LMUC eps/eps = 1."""
    assume(not any(has_repeats(p.key) or has_repeats(p.response) for p in corpus))
    eps = 1e-12
    result = score(corpus, Weights(1, 1, 1, eps), ("muc", "lmuc"))
    for name, scores in result.documents + [("micro", result.micro)]:
        muc, lmuc = scores["muc"], scores["lmuc"]
        if muc.recall_den == 0:
            assert lmuc.recall_den < 1e-9  # only singletons: eps each
            continue
        assert abs(lmuc.recall - muc.recall) < 1e-9, (name, values(muc), values(lmuc))
        if muc.precision_den:
            assert abs(lmuc.precision - muc.precision) < 1e-9, (name, values(muc), values(lmuc))


@FAST
@given(corpus=corpora(duplicates=True, key_duplicates=False), w=weights(positive=True),
       sing=st.floats(1e-20, 10.0))
def test_lb3_and_lceafe_do_not_depend_on_wsing(corpus: list[Pair], w: Weights, sing: float) -> None:
    """Chen & Ng, section 4.2: LB3 and LCEAFe give the same scores under W1, W2 and W3, because a
    singleton's R(m), P(m) and phi are 0 or 1 whatever w_sing is (w_sing > 0; at 0 they are 0/0)."""
    a = score(corpus, w, ("lbcub", "lceafe"))
    b = score(corpus, w._replace(sing=sing), ("lbcub", "lceafe"))
    assert_same_scores(a.micro, b.micro, "micro")
    for (name, x), (_, y) in zip(a.documents, b.documents):
        assert_same_scores(x, y, name)


# --------------------------------------------------------------------------- streaming = whole file


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpus=corpora(duplicates=True, max_documents=4), jobs=st.sampled_from([1, 2]))
def test_streamed_scores_equal_whole_file_scores(corpus: list[Pair], jobs: int) -> None:
    """`corefwb score --stream --jobs N` reads documents from byte ranges and scores them apart; on any
    corpus written as CoNLL-2012 (repeated spans included) it must give the whole-file scores,
    per document and for the corpus, to the last bit."""
    import tempfile
    from pathlib import Path

    from metrics.formats.readers import read_documents
    from metrics.conventions.options import Options
    from metrics.conventions.pipeline import stream
    from metrics.formats.writers import write_conll

    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for side in ("key", "response"):
            path = Path(folder) / f"{side}.conll"
            try:
                with open(path, "w", encoding="utf-8") as out:
                    write_conll([getattr(p, side) for p in corpus], out)
            except ValueError:
                assume(False)  # crossing mentions of one chain: CoNLL-2012 cannot write them
            paths.append(str(path))
        whole = prepare(read_documents(paths[0]), read_documents(paths[1])).score(W4, METRICS)
        streamed, _ = stream(paths[0], paths[1], Options(), weights=W4, metrics=METRICS, jobs=jobs)
    assert [name for name, _ in whole.documents] == [name for name, _ in streamed.documents]
    for (name, a), (_, b) in zip(whole.documents, streamed.documents):
        assert {m: (s.counts(), values(s)) for m, s in a.items()} == {m: (s.counts(), values(s)) for m, s in b.items()}, name
    assert {m: values(s) for m, s in whole.micro.items()} == {m: values(s) for m, s in streamed.micro.items()}


"""A fix's part (`DocPair.fragment`) is scored with its whole document's mention types, also when
the parts of many fixes are scored together (`together.score_columns`, whose tables type their
pairs at once: `laid.Tables.id_types`).  A key whose types are its own (explicit, not what the
rules would find: "Ann" a name, then a nominal) priced fix by fix against rescoring the corpus.
Found when the pricer's rescoring together met the tables' typing at once: the ACE-value and the
LMetrics of the parts were those of the rules' types."""

from __future__ import annotations

import pytest
from strategies import make_document

from metrics.corpus.scoring import prepare
from metrics.errors.chen_ng.fixes import apply_fixes, fix_of
from metrics.errors.chen_ng.impact import Pricer, parts_of
from metrics.errors.chen_ng.records import classify_corpus
from metrics.measures.weights import W4, Weights
from metrics.model import MentionType

WORDS = ["Ann", "Ann", "said", "she", "left"]
TYPES = {(0, 0): MentionType.NAME, (1, 1): MentionType.NOMINAL, (0, 1): MentionType.NOMINAL,
         (3, 3): MentionType.PRONOUN}


def _corpus():
    key = make_document("doc0", WORDS, [[(0, 0), (1, 1), (3, 3)]], TYPES)
    response = make_document("doc0", WORDS, [[(0, 1)]], {(0, 1): MentionType.NOMINAL})
    other = make_document("doc1", WORDS, [[(0, 0), (3, 3)]], TYPES)
    return [key, other], [response, other]


def _full_change(keys, responses, fixed, weights: Weights, metric: str) -> float:
    wanted = parts_of(metric) + ((metric,) if metric == "conll" else ())
    before = prepare(keys, responses).score(weights, wanted).micro[metric].f1
    after = prepare(keys, [fixed] + responses[1:]).score(weights, wanted).micro[metric].f1
    return after - before


@pytest.mark.parametrize("metric", ["ace", "lmuc", "lbcub", "lceafm", "lceafe"])
@pytest.mark.parametrize("weights", [W4, Weights(0.01, 0.01, 0.01, 0.01), Weights(1.0, 0.5, 0.25, 1.0)])
def test_each_fix_priced_with_its_documents_types(metric: str, weights: Weights) -> None:
    keys, responses = _corpus()
    prepared = prepare(keys, responses)
    records = [r for r in classify_corpus(prepared.pairs, weights) if r.document == "doc0"]
    assert len(records) >= 2  # fixes rescored together, not one by one
    priced = Pricer(prepared, metric, weights).price_records(records)
    for record, found in zip(records, priced):
        fixed = apply_fixes(keys[0], prepared.pairs[0].response, [fix_of(record)])
        assert found.impact == pytest.approx(_full_change(keys, responses, fixed, weights, metric), abs=1e-12), \
            (metric, record.category, record.span)


_CONLL = """#begin document (d); part 000
d 0 0 Mary NNP * - - - - (PERSON) (1)
d 0 1 met VBD * - - - - * -
d 0 2 the DT * - - - - * (2|(3
d 0 3 old JJ * - - - - * -
d 0 4 dog NN * - - - - * 2)|3)
d 0 5 . . * - - - - * -

d 0 0 She PRP * - - - - * (1)
d 0 1 liked VBD * - - - - * -
d 0 2 it PRP * - - - - * (2)
d 0 3 . . * - - - - * -

#end document
"""


@pytest.mark.parametrize("metric", ["ace", "conll", "lceafe"])
def test_fixes_of_a_rule_typed_file_priced_as_rescoring(tmp_path, metric: str) -> None:
    """The same with the types the rules give a CoNLL file (a name, a nominal, pronouns): a part
    typed on its own would type its spans otherwise."""
    from metrics.formats.conll import read_conll

    key_path, response_path = tmp_path / "key.conll", tmp_path / "response.conll"
    key_text = "\n".join(line if line.startswith("#") else line.replace(" ", "\t") for line in _CONLL.split("\n"))
    key_path.write_text(key_text, encoding="utf-8")
    response_path.write_text(key_text.replace("\t(1)", "\t-").replace("\t(2)", "\t(1)"), encoding="utf-8")
    keys, responses = read_conll(str(key_path)), read_conll(str(response_path))
    prepared = prepare(keys, responses)
    records = classify_corpus(prepared.pairs, W4)
    assert len(records) >= 2
    for record, found in zip(records, Pricer(prepared, metric, W4).price_records(records)):
        fixed = apply_fixes(keys[0], prepared.pairs[0].response, [fix_of(record)])
        assert found.impact == pytest.approx(_full_change(keys, responses, fixed, W4, metric), abs=1e-12), \
            (metric, record.category, record.span)

"""Corpus scores equal the official scorer v8.01's on the real gum-open data (../shared/data).

The data sits beside the project, not in it: on a machine without it these tests skip, saying why
in the summary (pytest runs with -rs), and `COREFWB_DATA=/path/to/data` points them at a copy
elsewhere (the folder holding gum-open/).  The paper tables, the v8.01 semantics tests and the
oracle excerpts in tests/data run everywhere.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from metrics.formats.readers import read_documents
from metrics.corpus.scoring import prepare

V801 = ("muc", "bcub", "ceafm", "ceafe", "blanc")
"""The five metrics v8.01 prints."""


DATA = Path(os.environ.get("COREFWB_DATA") or Path(__file__).resolve().parent.parent.parent / "shared" / "data") / "gum-open"
PAIRS = {
    "key.ontogum.conll + response.xrenner-ontonotes.conll": ("key.ontogum.conll.gz", "response.xrenner-ontonotes.conll.gz"),
    "key.gum.conll + response.xrenner-gum.conll": ("key.gum.conll.gz", "response.xrenner-gum.conll.gz"),
}

pytestmark = pytest.mark.skipif(not (DATA / "reference-scores.json").exists(), reason=f"{DATA} not present: set COREFWB_DATA to the folder holding gum-open/ to run the "
                                       "reference-score tests")


@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_gum_open_equals_reference_scorer(pair):
    reference = json.loads((DATA / "reference-scores.json").read_text())[pair]
    key, response = PAIRS[pair]
    result = prepare(read_documents(str(DATA / key)), read_documents(str(DATA / response))).score(metrics=list(V801))
    for metric in V801:
        got, expected = result.micro[metric], reference[metric]
        assert got.counts() == pytest.approx(expected["counts"], abs=1e-9), metric
        assert got.recall == pytest.approx(expected["R"], abs=1e-9), metric
        assert got.precision == pytest.approx(expected["P"], abs=1e-9), metric
        assert got.f1 == pytest.approx(expected["F"], abs=1e-9), metric

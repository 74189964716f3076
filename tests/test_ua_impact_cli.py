"""`corefwb errors --impact` under `--conventions ua`: Chen & Ng's errors of the identity chains
with the impacts the workbench shows (its `t` list prices them with `Session.price`, the engine's
`Pricer`), and those impacts against a brute force: the fix applied to the identity chains and the
corpus scored again, whole.

Before, `errors --impact` under ua was refused (exit status 2) while the workbench showed each
mention's impact on the same files (small11's finding)."""

from __future__ import annotations

import csv
import io
import json

import pytest

from metrics.corpus.scoring import prepare
from metrics.errors.chen_ng.fixes import apply_fixes, fix_of
from metrics.measures.weights import W4
from metrics.model import without_singletons
from workbench.cli import build_parser, main
from workbench.commands.common import load_options
from workbench.output import impact_points
from workbench.session import Session

KEY = "tests/data/ua/codi/persuasion.key"
RESPONSE = "tests/data/ua/codi/persuasion.response"
CONLL = ("muc", "bcub", "ceafe", "conll")
SETTINGS = [("--singletons", "keep"), (), ("--split-antecedents", "keep")]
"""Singletons kept, the UA scorer's defaults (singletons removed), split antecedents kept."""


def _cli(capsys, *argv: str) -> str:
    status = main(["errors", KEY, RESPONSE, "--impact", "conll", *argv])
    out = capsys.readouterr().out
    assert status == 0
    return out


def _workbench_session(settings: tuple[str, ...]) -> Session:
    """The session as `corefwb KEY RESPONSE SETTINGS` (the workbench) loads it."""
    args = build_parser().parse_args([KEY, RESPONSE, *settings])
    return Session.load(KEY, [RESPONSE], load_options(args, args.responses, ua_taken=True))


@pytest.mark.parametrize("settings", SETTINGS)
def test_the_clis_impacts_are_the_workbenchs_in_json_and_csv(capsys, settings):
    session = _workbench_session(settings)
    shown = session.price(session.classify(W4), "conll", W4)  # what the workbench's Chen & Ng list shows
    assert shown and all(record.impact is not None for record in shown)
    listed = json.loads(_cli(capsys, *settings, "--format", "json"))
    assert listed["conventions"] == "ua"
    assert [(e["document"], e["mention"]["start"], e["mention"]["end"], e["category"]) for e in listed["errors"]] \
        == [(r.document, *r.span, r.category.value) for r in shown]
    assert [e["impact_points"] for e in listed["errors"]] == pytest.approx(
        [impact_points(r.impact) for r in shown], abs=1e-9)
    rows = list(csv.DictReader(io.StringIO(_cli(capsys, *settings, "--format", "csv"))))
    assert len(rows) == len(shown) and [row["category"] for row in rows] == [r.category.value for r in shown]
    text = _cli(capsys, *settings)
    assert text.startswith("conventions ua") and f"{len(shown)} errors" in text


@pytest.mark.parametrize("settings", SETTINGS[:2])
def test_each_impact_is_the_corpus_rescored_with_its_fix_applied(capsys, settings):
    """Without split antecedents v8.01's counts of the identity chains are the UA scorer's (the
    brute force's starting value is the UA CoNLL F1 checked here), so an impact is the change of
    the UA score when the fix is applied and the corpus scored again.  With singletons removed (the
    UA scorer's default), a mention the fix leaves alone (a missing mention added, a false
    anaphoric one split off) is dropped, as the UA scorer drops it (docs/ua.md, Errors)."""
    session = _workbench_session(settings)
    keys = [pair.key for pair in session.corpus.pairs]
    responses = [pair.response for pair in session.corpus.pairs]
    before = prepare(keys, responses).score(W4, CONLL).micro["conll"].f1
    assert before == pytest.approx(session.score(W4, CONLL).micro["conll"].f1, abs=1e-15)
    listed = json.loads(_cli(capsys, *settings, "--format", "json"))["errors"]
    records = session.classify(W4)
    assert len(listed) == len(records) > 20
    index = {pair.name: i for i, pair in enumerate(session.corpus.pairs)}
    for record, error in zip(records, listed):
        i = index[record.document]
        fixed = apply_fixes(keys[i], responses[i], [fix_of(record)])
        if session.options.singletons == "remove":
            (fixed,), _ = without_singletons([fixed])
        after = prepare(keys, [fixed if j == i else r for j, r in enumerate(responses)]).score(W4, CONLL)
        assert error["impact_points"] == pytest.approx(impact_points(after.micro["conll"].f1 - before), abs=1e-9)


def test_without_impact_the_relations_errors_are_listed_as_before(capsys):
    status = main(["errors", KEY, RESPONSE, "--format", "json"])
    listed = json.loads(capsys.readouterr().out)
    assert status == 0 and "counts" in listed and all("relation" in e for e in listed["errors"])


def test_a_relation_asked_for_with_impact_is_refused_with_where_its_errors_are(capsys) -> None:
    """`--impact` lists Chen & Ng's errors of the identity chains: `--category bridging` is not an
    unknown name there but a relation, listed without `--impact` (status 2, no traceback)."""
    key, response = "tests/data/ua/bridging.key", "tests/data/ua/bridging.response"
    status = main(["errors", key, response, "--conventions", "ua", "--impact", "conll", "--category", "bridging"])
    err = capsys.readouterr().err
    assert status == 2 and "--category bridging: under --conventions ua, --impact lists" in err
    assert "without --impact" in err and "Traceback" not in err


def test_relation_categories_and_kinds_take_comma_separated_lists(capsys) -> None:
    """As every repeatable option does (`options.listed`): `a,b` is `a` and `b`, under UA too."""
    key, response = "tests/data/ua/bridging.key", "tests/data/ua/bridging.response"

    def listed_errors(*options: str) -> list[tuple[str, str]]:
        assert main(["errors", key, response, "--conventions", "ua", "--format", "json", *options]) == 0
        return [(e["relation"], e["type"]) for e in json.loads(capsys.readouterr().out)["errors"]]

    both = listed_errors("--category", "bridging,non_referring", "--type", "wrong_anchor,missed")
    assert both == listed_errors("--category", "bridging", "--category", "non_referring",
                                 "--type", "wrong_anchor", "--type", "missed")
    assert sorted(kind for _, kind in both) == ["missed", "wrong_anchor"]

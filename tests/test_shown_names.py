"""A document's name: one rule in every view a person reads, the full name where programs read.

`score --per-doc` showed `GUM_bio_moreau`, `errors` `(GUM_bio_moreau); part 000`: a reader could
not match the two by eye.  Text and Markdown (CLI, and the workbench's screens, which import the
same rule) show `output.shown_document`; JSON and CSV keep the name the file gives.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.output import shown_document

GUM = Path(__file__).resolve().parent.parent / "samples" / "gum"
KEY, RESPONSE = str(GUM / "key.ontogum.conll"), str(GUM / "response.ontonotes.conll")
FULL = ["(GUM_bio_moreau); part 000", "(GUM_news_korea); part 000"]


def _out(capsys, *argv: str) -> str:
    assert main([*argv[:1], KEY, RESPONSE, *argv[1:]]) == 0
    return capsys.readouterr().out


def test_the_shown_name_is_the_short_name_document_takes() -> None:
    assert [shown_document(name) for name in FULL] == ["GUM_bio_moreau", "GUM_news_korea"]
    assert shown_document("(X); part 002") == "X_2" and shown_document("plain") == "plain"


@pytest.mark.parametrize("argv", [
    ("score", "--per-doc"), ("score", "--per-doc", "--format", "markdown"), ("errors",),
    ("errors", "--format", "markdown"), ("errors", "--taxonomy", "kk"),
    ("errors", "--taxonomy", "kk", "--format", "markdown"),
])
def test_text_views_show_the_short_name(capsys, argv) -> None:
    out = _out(capsys, *argv)
    assert "part 000" not in out
    shown = out.replace("\\_", "_")  # Markdown escapes _
    assert all(shown_document(name) in shown for name in FULL)


@pytest.mark.parametrize("argv", [("score", "--per-doc", "--format", "csv"), ("errors", "--format", "csv")])
def test_csv_keeps_the_full_name(capsys, argv) -> None:
    out = _out(capsys, *argv)
    assert all(name in out for name in FULL)


def test_json_keeps_the_full_name(capsys) -> None:
    scored = json.loads(_out(capsys, "score", "--per-doc", "--format", "json"))
    assert [entry["document"] for entry in scored["per_document"]] == FULL
    errors = json.loads(_out(capsys, "errors", "--format", "json"))
    assert {error["document"] for error in errors["errors"]} == set(FULL)

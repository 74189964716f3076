"""Pilot tests of the workbench's export (Ctrl+E): the corpus's or a document's scores and errors
written as JSON, CSV or Markdown, through the guarded writer that never writes onto an input."""

from __future__ import annotations

import csv
import io
import json

import pytest
from app_support import ROOT, SAMPLE_KEY, SAMPLE_RESPONSE, pilot_test, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)
from textual.widgets import Input

from metrics.model import InputError
from metrics.measures.weights import W4
from workbench.output import markdown_cell, shown_document
from workbench.session import LoadOptions
from workbench.tui.app import Workbench

SIZE = (160, 48)


def sample_app(weights=W4, **options) -> Workbench:
    return Workbench(SAMPLE_KEY, SAMPLE_RESPONSE, LoadOptions(**options), weights=weights)


@pilot_test
async def test_export_corpus_json_csv_markdown(tmp_path):
    app = sample_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        written = app.write_export("corpus", "json", str(tmp_path / "corpus.json"))
        report = json.loads(open(written, encoding="utf-8").read())
        assert report["scope"] == "corpus"
        assert report["scores"]["conll"]["f1"] == pytest.approx(app.result.micro["conll"].f1)
        assert len(report["errors"]) == sum(len(rows) for rows in app.errors.values())
        assert all(error["impact_points"] is not None for error in report["errors"])  # every document priced
        written = app.write_export("document", "csv", str(tmp_path / "doc.csv"))
        scores_part, errors_part = open(written, encoding="utf-8").read().split("\n\n")
        assert next(csv.reader(io.StringIO(scores_part))) == ["scope", "metric", "recall", "precision", "f1", "note"]
        errors = list(csv.DictReader(io.StringIO(errors_part)))
        assert len(errors) == len(app.errors[app.corpus.pairs[app.doc_index].name])
        assert errors[0]["fix"] and errors[0]["impact_points"]  # the same columns as `corefwb errors --format csv`
        written = app.write_export("document", "markdown", str(tmp_path / "doc.md"))
        name = app.corpus.pairs[app.doc_index].name  # Markdown is read by people: the shown name, as on screen
        assert name.startswith("(GUM")
        assert open(written, encoding="utf-8").read().startswith(f"# Scores: {markdown_cell(shown_document(name))}\n")
        assert not [p for p in tmp_path.iterdir() if p.name.startswith(".corefwb-")]


@pilot_test
async def test_export_refuses_inputs_and_writes_usual_permissions(tmp_path):
    """The export goes through the guarded writer: never onto the key (nor a link to it), and a
    new file gets 0666 masked by the umask (0644 under 022), not a temporary file's 0600."""
    import os
    import shutil

    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    shutil.copy(ROOT / SAMPLE_KEY, key)
    shutil.copy(ROOT / SAMPLE_RESPONSE, response)
    (tmp_path / "link.json").symlink_to(key)
    before = key.read_bytes()
    app = Workbench(str(key), str(response))
    old = os.umask(0o022)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            for target in (key, tmp_path / "link.json"):
                with pytest.raises(InputError, match="refusing to write"):
                    app.write_export("corpus", "json", str(target))
            assert key.read_bytes() == before
            written = app.write_export("corpus", "json", str(tmp_path / "out.json"))
            assert os.stat(written).st_mode & 0o777 == 0o644
    finally:
        os.umask(old)


@pilot_test
async def test_export_dialog(tmp_path):
    app = sample_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+e")
        await pilot.pause()
        await pilot.click("#scope-corpus")
        await pilot.click("#format-markdown")
        box = app.screen.query_one("#export-path", Input)
        assert box.value == "corefwb-corpus.md"
        box.value = str(tmp_path / "out.md")
        await pilot.click("#export-ok")
        await settle(app, pilot)
        assert (tmp_path / "out.md").read_text(encoding="utf-8").startswith("# Scores: corpus")

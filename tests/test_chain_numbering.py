"""One chain, one number (issue 44, item 2): a mention's chain is numbered by its label in the file
in every view (text, chains, K&K list), every command (`errors` in text, JSON and CSV, `errors
--taxonomy kk`) and every export, on the bundled sample and on the GUM excerpt of tests/data/formats.

Why the file's label: a user who reads `(3)` in the coreference column, or `3` in a warning, looks
for chain 3, and the engine's records, warnings and K&K already name chains so."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from pathlib import Path

import pytest

from app_support import chain_text, settle, workbench_terminal  # noqa: F401
from workbench.cli import main
from workbench.session import LoadOptions

ROOT = Path(__file__).resolve().parent.parent
PAIRS = {
    "sample": (str(ROOT / "samples/gum/key.gum.conll"), str(ROOT / "samples/gum/response.gum.conll")),
    "gum excerpt": (str(ROOT / "tests/data/formats/gum2.conll"), str(ROOT / "tests/data/formats/gum2.response.conll")),
}


def _cli(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def _probes(records: list[dict]) -> list[dict]:
    """A mention in both files, one the response lacks and one the key lacks, of the first document."""
    first = records[0]["document"]
    records = [r for r in records if r["document"] == first]
    both = next(r for r in records if r["key_chain"] and r["response_chain"])
    missing = next(r for r in records if r["key_chain"] and not r["response_chain"])
    spurious = next(r for r in records if r["response_chain"] and not r["key_chain"])
    return [both, missing, spurious]


def _span(record: dict) -> tuple[int, int]:
    return record["mention"]["start"], record["mention"]["end"]


@pytest.mark.parametrize("case", sorted(PAIRS))
def test_a_mentions_chain_has_one_number_everywhere(case, capsys, tmp_path):
    from workbench.tui.app import Workbench
    from workbench.tui.entityerrors import EntityErrorPanel
    from workbench.tui.text import DocumentText
    from workbench.tui.views import ChainsView

    key, response = PAIRS[case]
    records = json.loads(_cli(capsys, "errors", key, response, "--format", "json", "--no-cache"))["errors"]
    probes = _probes(records)
    document = probes[0]["document"]
    # the file's own label: the chain whose items the file writes around the mention
    from metrics.formats.readers import read_documents

    def labels_in_file(path: str, span: tuple[int, int]) -> set[str]:
        doc = next(d for d in read_documents(path) if d.name == document)
        return {label for label, chain in zip(doc.chain_labels(), doc.chains) if span in chain}

    for probe in probes:
        if probe["key_chain"]:
            assert probe["key_chain"] in labels_in_file(key, _span(probe))
        if probe["response_chain"]:
            assert probe["response_chain"] in labels_in_file(response, _span(probe))

    # `corefwb errors` as CSV and as text
    rows = list(csv.DictReader(io.StringIO(_cli(capsys, "errors", key, response, "--format", "csv", "--no-cache"))))
    text = _cli(capsys, "errors", key, response, "--document", document, "--no-cache")
    for probe in probes:
        row = next(r for r in rows if r["document"] == document and (int(r["start"]), int(r["end"])) == _span(probe)
                   and r["category"] == probe["category"])
        assert (row["key_chain"], row["response_chain"]) == (probe["key_chain"] or "", probe["response_chain"] or "")
        start, end = _span(probe)
        line = next(ln for ln in text.splitlines()
                    if f"[{start}-{end}]" in ln and probe["category"].replace("_", " ") in ln)
        assert line.split()[-3:-1] == [probe["key_chain"] or "-", probe["response_chain"] or "-"], line

    # `corefwb errors --taxonomy kk`: an entity error's chains are the file's labels of its mentions
    kk = json.loads(_cli(capsys, "errors", key, response, "--taxonomy", "kk", "--format", "json", "--no-cache"))["errors"]
    kk = [e for e in kk if e["document"] == document]
    checked = 0
    for error in kk:
        for mention in error["mentions"]:
            span = (mention["start"], mention["end"])
            key_labels = labels_in_file(key, span)
            if key_labels and error["key_chains"]:
                assert key_labels & set(error["key_chains"]), (error, key_labels)
                checked += 1
    assert checked

    async def workbench() -> None:
        app = Workbench(key, response, LoadOptions(cache=False))
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(app, pilot)
            index = [p.name for p in app.corpus.pairs].index(document)
            app.show_document(index)
            await pilot.press("f3")
            await settle(app, pilot)
            # the text view: `]N3/7` after the mention
            marks = app.query_one(DocumentText)._marks  # the text's units, made a range at a time
            for probe in probes:
                span = _span(probe)
                close = next(a for a in marks.units_between(span[1], span[1] + 1)[0] if a.role == "close" and a.span == span)
                assert close.text[2:] == f"{probe['key_chain'] or '-'}/{probe['response_chain'] or '-'}", (probe, close)
            # the chains view: the chain holding the mention is K<label> / R<label>
            chains = app.query_one(ChainsView)
            key_rows, response_rows = chains._rows
            shown = chain_text(chains.query_one("#key-chains")) + chain_text(chains.query_one("#response-chains"))
            for probe in probes:
                for rows, side, prefix in ((key_rows, "key_chain", "K"), (response_rows, "response_chain", "R")):
                    holding = [row.number for row in rows if any(s == _span(probe) for s, _, _ in row.mentions)]
                    assert holding == ([probe[side]] if probe[side] else []), (probe, side, holding)
                    if probe[side]:
                        assert f"{prefix}{probe[side]}  " in shown
            # the per-mention export (JSON and CSV)
            exported = json.loads(Path(app.write_export("document", "json", str(tmp_path / "d.json"))).read_text())
            for probe in probes:
                got = next(e for e in exported["errors"] if (e["mention"]["start"], e["mention"]["end"]) == _span(probe)
                           and e["category"] == probe["category"])
                assert (got["key_chain"], got["response_chain"]) == (probe["key_chain"], probe["response_chain"])
            exported_csv = list(csv.DictReader(io.StringIO(
                Path(app.write_export("document", "csv", str(tmp_path / "d.csv"))).read_text().split("\n\n")[-1])))
            for probe in probes:
                got = next(e for e in exported_csv if (int(e["start"]), int(e["end"])) == _span(probe)
                           and e["category"] == probe["category"])
                assert (got["key_chain"], got["response_chain"]) == (probe["key_chain"] or "", probe["response_chain"] or "")
            # the K&K list and its export name the chains as the command does
            await pilot.press("t")
            for _ in range(200):
                await pilot.pause(0.05)
                if app.system in app.entity_errors:
                    break
            await pilot.pause()
            panel = app.query_one(EntityErrorPanel)
            on_screen = [str(panel._cells(row)[-1]) for row in panel.rows]
            assert on_screen == [" ".join([f"K{c}" for c in e["key_chains"]] + [f"R{c}" for c in e["response_chains"]])
                                 for e in kk]
            exported_kk = json.loads(Path(app.write_export("document", "json", str(tmp_path / "kk.json"))).read_text())
            assert [(e["key_chains"], e["response_chains"]) for e in exported_kk["errors"]] == \
                [(e["key_chains"], e["response_chains"]) for e in kk]

    asyncio.run(workbench())

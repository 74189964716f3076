"""A newcomer's third look at the workbench (issue 42, tui10): every number it draws is the CLI's.
The scores panel against `corefwb score --format json`, the error list's impacts against `corefwb
errors --impact conll --format json`, the chains view's counts against the chains of the files,
each read from the screen as drawn at 100x30 and at 200x50 (a column that shifts, a rounding or
an order of the workbench's own fails here, as it would mislead a reader comparing the two)."""

from __future__ import annotations

import json
import re

from app_support import SAMPLE_KEY, SAMPLE_RESPONSE, chain_text, pilot_test, screen_text, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)

import metrics
from workbench.cli import main
from workbench.output import impact_text
from workbench.tui.app import Workbench
from workbench.tui.rows import percent, score_lines

NUMBER = re.compile(r"-?\d+\.\d+")


def cli_json(capsys, *args: str) -> dict:
    """What `corefwb ARGS --format json` prints, parsed."""
    capsys.readouterr()
    assert main([*args, SAMPLE_KEY, SAMPLE_RESPONSE, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def drawn(app, widget) -> list[str]:
    """The rows of the screen inside `widget`'s region, as a user reads them."""
    region = widget.region
    return [row[region.x:region.right] for row in screen_text(app)[region.y:region.bottom]]


def scores_rows(app) -> dict[str, list[str]]:
    """The scores panel's rows as drawn: a metric's label -> the numbers after it."""
    rows = {}
    for row in drawn(app, app.query_one("#scorepanel")):
        text = row.strip("│ ")
        for line in score_lines(dict.fromkeys(metrics_shown(app)), None):
            if text.startswith(line.label + " "):
                rows[line.metric] = NUMBER.findall(text[len(line.label):])
    return rows


def metrics_shown(app) -> list[str]:
    return list(app.result.micro)


def points(numbers: dict, part: str) -> str:
    """A metric's part as the panel reads it, the CLI's decimals where they fit (`fitted_percent`),
    from the CLI's JSON value (a single-valued metric, the ACE-value, gives its value in the F
    column)."""
    value = numbers["value"] if part == "f1" and "f1" not in numbers else numbers[part]
    return percent(value).strip()


async def check_scores(app, pilot, score: dict, document: str) -> None:
    """Every metric's row: at 200 columns the document's R P F then the corpus's; at 100 the one
    scope shown (the corpus's to start with) as F R P.  At 30 rows the panel scrolls: its end read too."""
    rows = scores_rows(app)
    app.query_one("#scorepanel").scroll_end(animate=False, immediate=True)
    await pilot.pause()
    rows |= scores_rows(app)
    assert set(rows) == set(score["metrics"]), "the panel lists the metrics `corefwb score` lists"
    per_document = {entry["document"]: entry["metrics"] for entry in score["per_document"]}[document]
    for metric, corpus in score["metrics"].items():
        ours = per_document[metric]
        if app.size.width >= 130:
            wanted = [points(ours, p) for p in ("recall", "precision", "f1")] + \
                     [points(corpus, p) for p in ("recall", "precision", "f1")]
        else:
            wanted = [points(corpus, p) for p in ("f1", "recall", "precision")]
        assert rows[metric][:len(wanted)] == wanted, metric


@pilot_test
async def run_scores_and_impacts(size: tuple[int, int], score: dict, impacts: dict) -> None:
    app = Workbench(SAMPLE_KEY, SAMPLE_RESPONSE)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        document = app.corpus.pairs[app.doc_index].name
        await check_scores(app, pilot, score, document)
        # the error list in text order: each row's impact is the CLI's for that error
        panel = app.query_one("#errorpanel")
        wanted = [error for error in impacts["errors"] if error["document"] == document]
        assert len(panel.shown) == len(wanted)
        for row, error in zip(panel.shown, wanted):
            assert (row.mention.span, row.category.value) == ((error["mention"]["start"], error["mention"]["end"]), error["category"])
            assert impact_text(row.impact) == impact_text(error["impact_points"] / 100), (row, error)
        # and as drawn: the first rows' impact cells read the CLI's numbers
        rows = [line for line in drawn(app, panel) if re.match(r"│ (FN|FA|WL|SUB|MISS|SPUR) ", line)]
        assert rows
        for line, error in zip(rows, wanted):
            assert impact_text(error["impact_points"] / 100) in line, (line, error)


def test_the_scores_panel_and_the_error_prices_are_the_clis_at_both_sizes(capsys):
    score = cli_json(capsys, "score")
    impacts = cli_json(capsys, "errors", "--impact", "conll")
    for size in ((100, 30), (200, 50)):
        run_scores_and_impacts(size, score, impacts)


@pilot_test
async def test_the_chains_views_counts_are_the_files():
    """F3: the columns' titles count the document's chains as read from each file, and each
    chain's header its mentions (N + M + P) as the file lists them."""
    key = {doc.name: doc for doc in metrics.read_documents(SAMPLE_KEY)}
    response = {doc.name: doc for doc in metrics.read_documents(SAMPLE_RESPONSE)}
    app = Workbench(SAMPLE_KEY, SAMPLE_RESPONSE)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("f3")
        await pilot.pause()
        name = app.corpus.pairs[app.doc_index].name
        for selector, doc in (("#key-chains", key[name]), ("#response-chains", response[name])):
            column = app.query_one(selector)
            assert f"({len(doc.chains)})" in str(column.border_title)
            headers = re.findall(r"^[KR](\S+)  N(\d+) M(\d+) P(\d+)", chain_text(column), re.M)
            assert len(headers) == len(doc.chains)
            sizes = sorted(len(set(chain)) for chain in doc.chains)
            assert sorted(int(n) + int(m) + int(p) for _, n, m, p in headers) == sizes


def test_a_count_and_what_it_counts_wrap_together():
    """`2 missing` was read as `2` at a line's end and `missing` under it (100 columns, the book);
    the chains view keeps a count with its noun, and still breaks at every plain space."""
    from rich.text import Text

    from workbench.tui.views import KEPT_TOGETHER, wrap_offsets

    header = f"K2  N5 M3 P0  divided over R1 R6 R34  2{KEPT_TOGETHER}missing"
    for width in range(12, len(header)):
        pieces = [part.plain.strip() for part in Text(header).divide(wrap_offsets(header, width, 2))]
        assert not any(piece.endswith(" 2") or piece == "2" or piece.startswith("missing") for piece in pieces), (width, pieces)
        assert any(f"2{KEPT_TOGETHER}missing" in piece for piece in pieces)
    plain = "K2  N5 M3 P0  divided over R1 R6 R34  2 missing"
    pieces = [part.plain.strip() for part in Text(plain).divide(wrap_offsets(plain, 40, 2))]
    assert pieces == ["K2  N5 M3 P0  divided over R1 R6 R34  2", "missing"]  # a plain space still parts them

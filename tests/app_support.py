"""Shared helpers of the workbench tests: the bundled sample, a hostile-text pair, waiting for workers."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_KEY = "samples/gum/key.gum.conll"
SAMPLE_RESPONSE = "samples/gum/response.gum.conll"

MARKUP_TOKEN = "[bold red]x[/]"
ESCAPE_TOKEN = "\x1b[31mred"


@pytest.fixture(autouse=True)
def workbench_terminal(monkeypatch):
    """Every workbench test sees colour (snapshots and contrast depend on it), no animations (so a
    pilot's pause is enough) and the project root as cwd (the sample paths are relative). Imported by
    each workbench test module, which makes it autouse there."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "none")
    monkeypatch.chdir(ROOT)


def hostile_pair(directory: Path) -> tuple[str, str]:
    """A key and a response (jsonlines: tokens may hold spaces) whose tokens are Rich markup and
    an ANSI escape sequence, and whose document name is markup too."""
    import json

    sentences = [["The", MARKUP_TOKEN, "said", ESCAPE_TOKEN, "to", "him", "."]]

    def write(name: str, clusters: list) -> str:
        path = directory / name
        path.write_text(json.dumps({"doc_key": f"hostile {MARKUP_TOKEN}", "sentences": sentences, "clusters": clusters}) + "\n", encoding="utf-8")
        return str(path)

    key = write("key.jsonl", [[[0, 1], [5, 5]], [[3, 3]]])
    response = write("response.jsonl", [[[0, 1]], [[3, 3], [5, 5]]])
    return key, response


async def settle(app, pilot) -> None:
    """Wait until loading and the latest rescoring (scores and errors) have reached the screen."""
    from textual.worker import WorkerCancelled

    for _ in range(400):
        try:
            await app.workers.wait_for_complete()
        except WorkerCancelled:  # an older rescoring superseded by a newer edit
            continue
        await pilot.pause()
        if (app.result is not None or app.browsing) and app.settled_weights == app.weights and not any(
            worker.is_running for worker in app.workers
        ):
            await pilot.pause()
            return
    raise AssertionError("the workbench did not settle")


def pilot_test(body):
    """Run an async pilot test with asyncio.run (no async pytest plugin is among the dependencies)."""
    import asyncio
    import functools

    @functools.wraps(body)
    def test(*args, **kwargs):
        asyncio.run(body(*args, **kwargs))

    return test


def screen_text(app) -> list[str]:
    """The whole screen as the terminal would show it, one string per row (what a user sees,
    scrollbars and borders included)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def laid_text(text) -> str:
    """Every atom's text of a text view's laid lines, joined (labels, brackets and words as drawn)."""
    return "".join(atom.text for line in text._layout.lines for atom in line)


def many_documents(directory: Path, n_documents: int = 60, tokens: int = 1200) -> tuple[str, str]:
    """A key without mentions and a response with k spurious one-token mentions in document k*20
    (0 to 1,180 errors, so 1 to 4 digits): a documents list long enough for a scrollbar."""
    def conll(mentions_of) -> str:
        lines = []
        for d in range(n_documents):
            lines.append(f"#begin document (doc{d:02d}); part 000")
            k = mentions_of(d)
            for t in range(tokens):
                lines.append(f"doc{d:02d}\t0\t{t}\tw{t}\t{'(' + str(t) + ')' if t < k else '-'}")
                if t % 20 == 19:
                    lines.append("")
            lines.append("#end document")
        return "\n".join(lines) + "\n"

    key, response = directory / "many.key.conll", directory / "many.response.conll"
    key.write_text(conll(lambda d: 0), encoding="utf-8")
    response.write_text(conll(lambda d: min(tokens, 20 * d)), encoding="utf-8")
    return str(key), str(response)


def huge_word_pair(directory: Path) -> tuple[str, str]:
    """A key and a response (CoNLL-2012) whose first words are 50,000 characters and differ, so
    that the warning about differing words quotes them."""
    word = "x" * 50_000
    key = ("#begin document (d); part 000\n" + f"d\t0\t0\t{word}\t-\t-\t-\t-\t-\t-\t*\t(1)\n"
           "d\t0\t1\tit\t-\t-\t-\t-\t-\t-\t*\t(1)\n\n#end document\n")
    (directory / "key.conll").write_text(key)
    (directory / "response.conll").write_text(key.replace(word, "y" * 50_000))
    return str(directory / "key.conll"), str(directory / "response.conll")


def chain_text(column) -> str:
    """Every item of a chains column (`views.ChainLines`) as plain text, each chain's lines built as
    the view builds them (`chain_lines`): what tests read of a whole side; the view itself draws only
    the lines on screen."""
    return "".join(line.plain + "\n" for index in range(len(column._rows)) for line in column.chain_lines(index))

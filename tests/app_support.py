"""Shared helpers of the workbench tests: the bundled sample, a hostile-text pair, waiting for workers."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_KEY = "samples/gum/key.gum.conll"
SAMPLE_RESPONSE = "samples/gum/response.gum.conll"

MARKUP_TOKEN = "[bold red]x[/]"
ESCAPE_TOKEN = "\x1b[31mred"


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
        if app.result is not None and app.settled_weights == app.weights and not any(
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

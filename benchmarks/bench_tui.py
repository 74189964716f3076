"""Responsiveness of the workbench on the gum-open GUM layer (108 documents, 98,363 tokens).

Not a unit test: it times the app headless (Textual's pilot, 160x48) as a user would drive it.
    .venv/bin/python benchmarks/bench_tui.py [--data ../shared/data/gum-open] [--repeat 5] [--jobs N]

The app is opened as `corefwb` opens it: the inputs read and their scoring started in `--jobs`
forked processes before the UI (`workbench/tui/opening.py`; `--jobs 1`: the app loads them in
its worker).  "From App start" includes that opening.  A thing is on screen at the first frame
written while it holds (checked as each frame is written).

Figures (targets from issues 5, 15 and 16):
- first screen: from the opening to the first frame with the scores, the documents, the text
  and the first document's errors (target < 1 s warm), then until every metric is on screen,
  every document's errors are classified and the shown document's impacts priced;
- weight edit: from a key press in a weight box to the corpus scores on screen (target < 300 ms);
- switching documents to the longest document (its text and scores; then its error list, which
  is filled right after that first frame), and jumping to its last error (target < 100 ms), each
  measured to the next frame written to the terminal;
- the same jump on one synthetic document made of all 108 documents (98k tokens, ~9k lines);
- compare mode (issue 15) on the key with both xrenner responses (GUM mode and OntoNotes mode):
  the first screen (documents list with both systems' CoNLL F1 and ΔF, the official scores of
  both, the text with key/A/B ids) from App start, everything settled (all metrics, intervals,
  errors of both, impacts of the document), and F9 (swap the two) to the next frame (targets:
  first screen < 1 s, switch < 150 ms).  The imports are timed apart: the process pays them once.
- `--book DIR` (issue 42): the book of `benchmarks/book.py` (one 250,000-token document) at 200x50:
  the first screen and everything settled, then F3, F2, `n`, `t` (K&K), `n` in the K&K list,
  `t` back and `n`, each from the key press to the first frame written after it (answered) and
  to the last frame before the screen stays still for half a second with no analysis running
  (settled).  Targets: first screen settled < 4 s; each key answered and settled < 0.5 s, `t`
  settled < 5 s.  `--book DIR --tmux`: the same keys sent to `corefwb` running in a tmux pane of
  200x50, the pane captured every 20 ms: answered at the first capture that differs, settled at
  the last change before it stays the same for `--quiet` seconds (default 2: the K&K analysis and
  the pricing run in workers, their results change the screen; the first screen not before it holds
  every metric and the shown error rows' impacts), each key sent once no notice is
  on screen (an earlier key's notice timing out is not this key's change).  `--base CHECKOUT`: the same,
  alternately on another checkout (the code before a change) and on this one, `--rounds` times.
  `--cold`: each tmux run with an empty cache directory of its own (a researcher's first open of
  the book, or the first after a new version: both files read and the key's entry written).
  `--format conll conllu ua`: the books timed, in turn (`tui_in_tmux.BOOKS`): CoNLL-2012
  (`book.py`), CorefUD CoNLL-U (`book_conllu.py`: its first screen complete with MOR and zero
  anaphora) and Universal Anaphora (`book_ua.py`: it opens on the relations' error list; `t` goes
  to the per-mention list, to K&K and back, then `b a x r` hide and show the relation layers in the
  text).  `--size 100x30`: another pane size.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["TEXTUAL_ANIMATIONS"] = "none"

IMPORTS_STARTED = time.perf_counter()
from metrics.model import Document  # noqa: E402
from textual.css.query import NoMatches  # noqa: E402
from metrics.measures.weights import W4  # noqa: E402
from workbench.session import LoadOptions  # noqa: E402
from workbench.options import jobs_option  # noqa: E402
from workbench.tui.app import Workbench  # noqa: E402
from workbench.tui.comparing import complete, shown_at_start  # noqa: E402
from workbench.tui.opening import open_inputs  # noqa: E402
from workbench.tui.text import DocumentText  # noqa: E402
from tui_in_tmux import BOOKS, Book, bench_book_tmux, ms  # noqa: E402
IMPORTS = time.perf_counter() - IMPORTS_STARTED

SIZE = (160, 48)


class TimedWorkbench(Workbench):
    """The app, noting when each frame is written and when the corpus scores reach the table."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.frames: list[float] = []
        self.scores_shown: dict = {}
        self.waiting: list[tuple[object, list[float]]] = []
        """(condition, where to note the time of the first frame written while it holds)"""

    def _display(self, screen, renderable) -> None:
        super()._display(screen, renderable)
        if renderable is not None:
            now = time.perf_counter()
            self.frames.append(now)
            for condition, seen in self.waiting:
                if not seen and condition():
                    seen.append(now)

    def _show_scores(self) -> None:
        super()._show_scores()
        if self.result is not None:
            self.scores_shown.setdefault(self.result.weights, time.perf_counter())


async def frame_after(app, moment: float, timeout: float = 60.0) -> float:
    """Time of the first frame written after `moment` (the change is then on screen)."""
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        later = [t for t in app.frames if t >= moment]
        if later:
            return later[0]
        await asyncio.sleep(0.001)
    raise SystemExit("no frame")


def watch(app, condition) -> list[float]:
    """Note the time of the first frame written while `condition()` holds: checked as each frame
    is written, from before the app starts, so no frame that shows it is missed."""
    seen: list[float] = []

    def holds() -> bool:
        try:
            return bool(condition())
        except NoMatches:  # a widget not mounted yet
            return False

    app.waiting.append((holds, seen))
    return seen


async def drawn(seen: list[float], timeout: float = 120.0) -> float:
    """The time `watch` noted, once there is one."""
    end = time.perf_counter() + timeout
    while not seen:
        if time.perf_counter() > end:
            raise SystemExit("timed out")
        await asyncio.sleep(0.001)
    return seen[0]


async def settle(app, pilot, timeout: float = 120.0) -> None:
    from textual.worker import WorkerCancelled

    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        try:
            await app.workers.wait_for_complete()
        except WorkerCancelled:
            continue
        await pilot.pause()
        if app.result is not None and app.settled_weights == app.weights:
            return
    raise SystemExit("the workbench did not settle")


def opened(key: str, responses: list[str], jobs: int) -> TimedWorkbench:
    """The app as `corefwb` opens it: inputs read and scoring started before the UI (`--jobs`)."""
    opening = open_inputs(key, responses, LoadOptions(), weights=W4, shown=shown_at_start(len(responses)), processes=jobs)
    if opening is None and jobs > 1:
        print(f"  (not opened before the UI: {threading.active_count()} threads running)")
    return TimedWorkbench(key, responses, opening=opening)


async def bench_corpus(key: str, response: str, repeat: int, jobs: int) -> None:
    started = time.perf_counter()
    app = opened(key, [response], jobs)
    def first_screen() -> bool:  # scores, documents, text, and the first document's errors
        panel = app.query_one("#errorpanel")
        return app.result is not None and panel.state == "ready" and bool(panel.shown or not panel.rows)

    shown = [watch(app, first_screen), watch(app, lambda: app.session is not None and complete(app.result, app.session.options.conventions)),
             watch(app, lambda: app.errors is not None)]
    async with app.run_test(size=SIZE) as pilot:
        first, scored, errors_listed = [await drawn(seen) - started for seen in shown]
        first_frame = app.frames[0] - started
        await settle(app, pilot)
        priced = time.perf_counter() - started
        print(f"single response (--jobs {jobs}), documents: {len(app.corpus.pairs)}, "
              f"tokens: {sum(len(p.key.words) for p in app.corpus.pairs)}")
        print(f"first frame                              {ms(first_frame)}")
        print(f"first screen (scores, documents, text, first document's errors) {ms(first).strip()}")
        print(f"every metric scored, on screen           {ms(scored)}")
        print(f"every document's errors classified       {ms(errors_listed)}")
        print(f"impacts of the shown document priced     {ms(priced)}")

        # weight edits: type the last character of a new w_nom (as a key press would insert it);
        # time from the edit to the first frame showing the corpus scores under the new weights
        box = app.query_one("#w-nom")
        timings = []
        for value in ["0.5", "0.25", "0.9", "0.6", "0.75", "0.4", "0.3"][:repeat]:
            box.focus()
            await pilot.pause()
            box.value = value[:-1]
            box.cursor_position = len(box.value)
            await settle(app, pilot)
            target = W4._replace(nom=float(value))
            t0 = time.perf_counter()
            box.insert_text_at_cursor(value[-1])
            while target not in app.scores_shown:
                await asyncio.sleep(0.001)
            timings.append(await frame_after(app, app.scores_shown[target]) - t0)
            await settle(app, pilot)
        print(f"weight edit -> corpus scores on screen    {ms(statistics.median(timings))} median of {len(timings)}"
              f" (max {ms(max(timings)).strip()}; engine rescoring alone {ms(app.last_rescore_seconds).strip()})")

        longest = max(range(len(app.corpus.pairs)), key=lambda i: len(app.corpus.pairs[i].key.words))
        name = app.corpus.pairs[longest].name
        panel = app.query_one("#errorpanel")
        filled: list[float] = []
        refill = panel.refill

        def timed_refill(*args, **kwargs):
            refill(*args, **kwargs)
            filled.append(time.perf_counter())

        panel.refill = timed_refill
        switches, lists, jumps = [], [], []
        for _ in range(repeat):
            app.show_document(0)
            await settle(app, pilot)
            filled.clear()
            t0 = time.perf_counter()
            app.show_document(longest)
            switches.append(await frame_after(app, time.perf_counter()) - t0)
            while not filled:
                await asyncio.sleep(0.001)
            lists.append(await frame_after(app, filled[0]) - t0)
            await settle(app, pilot)
            rows = app.errors[name]
            t0 = time.perf_counter()
            app.select_error(rows[-1], focus_text=True)
            jumps.append(await frame_after(app, time.perf_counter()) - t0)
            await pilot.pause()
        text = app.query_one(DocumentText)
        print(f"longest document: {name} ({len(app.corpus.pairs[longest].key.words)} tokens, "
              f"{len(text._layout.lines)} lines, {len(app.errors[name])} errors)")
        print(f"switch to it: text and scores drawn      {ms(statistics.median(switches))} median of {repeat}")
        print(f"              its error list drawn       {ms(statistics.median(lists))} median of {repeat}")
        print(f"jump to its last error (scrolled, drawn)  {ms(statistics.median(jumps))} median of {repeat}")


async def bench_compare(key: str, responses: list[str], repeat: int, jobs: int) -> None:
    """Compare mode: first screen, settled, and F9 switches (see the module docstring)."""
    started = time.perf_counter()
    app = opened(key, responses, jobs)
    def first_screen() -> bool:
        a, b = app.view_of(app.baseline).result, app.view_of(app.system).result
        return a is not None and b is not None and app._documents_pair is not None

    shown = watch(app, first_screen)
    async with app.run_test(size=SIZE) as pilot:
        first = await drawn(shown) - started
        await settle(app, pilot)
        settled = time.perf_counter() - started
        switches = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            app.action_next_system()
            switches.append(await frame_after(app, time.perf_counter()) - t0)
            await settle(app, pilot)
        print(f"compare mode (--jobs {jobs}), {len(responses)} responses, {len(app.corpus.pairs)} documents:")
        print(f"  imports (engine, Textual, the app)     {ms(IMPORTS)} (paid once per process)")
        print(f"  first screen (lists, scores, text)     {ms(first)} from App start")
        print(f"  all settled (metrics, intervals, errors of both, impacts) {ms(settled).strip()}")
        print(f"  F9 switch, drawn                       {ms(statistics.median(switches))} median of {repeat}"
              f" (max {ms(max(switches)).strip()})")


def one_document(docs: list[Document], name: str) -> Document:
    """All documents of a corpus as one long document (offsets shifted), to stress the text view."""
    words: list[str] = []
    chains: list[list[tuple[int, int]]] = []
    starts: list[int] = []
    for doc in docs:
        offset = len(words)
        words.extend(doc.words)
        starts.extend(offset + s for s in doc.sentence_starts)
        chains.extend([(s + offset, e + offset) for s, e in chain] for chain in doc.chains)
    return Document(name, words, chains, sentence_starts=starts)


async def bench_long_document(key: str, response: str, directory: Path, repeat: int) -> None:
    import metrics
    from metrics.formats.writers import write_jsonlines

    path_key, path_response = directory / "long.key.jsonl", directory / "long.response.jsonl"
    for source, target in ((key, path_key), (response, path_response)):
        with open(target, "w", encoding="utf-8") as out:
            write_jsonlines([one_document(metrics.read_documents(source), "long")], out)
    app = TimedWorkbench(str(path_key), str(path_response))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot, timeout=600)
        text = app.query_one(DocumentText)
        rows = app.errors[app.corpus.pairs[0].name]
        jumps = []
        for index in range(repeat):
            row = rows[-1 - 97 * index]
            t0 = time.perf_counter()
            app.select_error(row, focus_text=True)
            jumps.append(await frame_after(app, time.perf_counter()) - t0)
            await pilot.pause()
        t0 = time.perf_counter()
        text.scroll_to(y=len(text._layout.lines) // 2, animate=False, immediate=True)
        scroll = await frame_after(app, time.perf_counter()) - t0
        print(f"one document of {len(app.corpus.pairs[0].key.words)} tokens ({len(text._layout.lines)} lines, {len(rows)} errors):")
        print(f"  jump to an error (scrolled, drawn)     {ms(statistics.median(jumps))} median of {repeat}")
        print(f"  scroll half-way (drawn)                {ms(scroll)}")


async def answered_and_settled(app, pilot, key: str, quiet: float = 0.5, timeout: float = 120.0) -> tuple[float, float]:
    """Press `key`: seconds to the first frame written after it and to the last frame before
    `quiet` seconds without one while no worker runs and the K&K list, when shown, has its
    analysis (the screen settled)."""
    t0 = time.perf_counter()
    before = len(app.frames)
    await pilot.press(key)
    end = t0 + timeout
    done = t0  # when the last worker (or the K&K analysis) was seen running
    while time.perf_counter() < end:
        await asyncio.sleep(0.02)
        # the K&K analysis started before `t` (its result not on screen) does not keep a key unsettled
        running = any(worker.is_running and (worker.group != "entity-errors" or app.taxonomy == "kk")
                      for worker in app.workers) or (app.taxonomy == "kk" and app.system not in app.entity_errors)
        if running:
            done = time.perf_counter()
        elif len(app.frames) > before and time.perf_counter() - max(app.frames[-1], done) > quiet:
            break
    frames = app.frames[before:]
    if not frames:
        return float("nan"), float("nan")
    # the work's result is on screen at the first frame after it ended (none may differ from the last)
    last = max(frames[-1], next((t for t in frames if t >= done), frames[-1]))
    return frames[0] - t0, last - t0


async def bench_book(directory: Path, jobs: int, book: Book = BOOKS["conll"]) -> None:
    """The book at 200x50 (see the module docstring)."""
    started = time.perf_counter()
    app = opened(str(directory / book.key), [str(directory / book.response)], jobs)

    def first_screen() -> bool:
        panel = app.query_one("#errorpanel")
        return app.result is not None and panel.state == "ready"

    # the text and the official scores: what the first screen shows while the errors are analysed
    text_and_scores = watch(app, lambda: app.result is not None and app.query_one(DocumentText)._layout is not None)
    shown = watch(app, first_screen)
    async with app.run_test(size=(200, 50)) as pilot:
        first = await drawn(shown, timeout=600) - started
        text_drawn = await drawn(text_and_scores, timeout=600) - started
        await settle(app, pilot, timeout=600)
        print(f"book (--jobs {jobs}): {sum(len(p.key.words) for p in app.corpus.pairs)} tokens in "
              f"{len(app.corpus.pairs)} document(s), 200x50")
        print(f"text and scores                          {ms(text_drawn)}")
        print(f"first screen (scores, text, errors)      {ms(first)}")
        print(f"settled (every metric, errors, impacts)  {ms(time.perf_counter() - started)}")
        for key in book.keys:
            answered, settled = await answered_and_settled(app, pilot, key)
            shown = f"  ({app.query_one('#entitypanel').border_title})" if app.taxonomy == "kk" else ""
            print(f"{key:4} answered {ms(answered)}  settled {ms(settled)}{shown}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "gum-open"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--skip-long", action="store_true", help="skip the synthetic one-document corpus")
    parser.add_argument("--compare-only", action="store_true", help="only the compare mode figures")
    parser.add_argument("--jobs", type=int, default=jobs_option(None),
                        help="processes the workbench opens with, as `corefwb --jobs` (1: loaded in its worker)")
    parser.add_argument("--book", type=Path, help="a directory of benchmarks/book.py's files: time the book only")
    parser.add_argument("--format", nargs="+", choices=sorted(BOOKS), default=["conll"],
                        help="with --book: the books timed, in turn: conll (book.py), conllu (book_conllu.py), "
                             "ua (book_ua.py)")
    parser.add_argument("--size", default="200x50", help="with --tmux: the pane's columns x rows")
    parser.add_argument("--tmux", action="store_true", help="with --book: in corefwb in a tmux pane, not headless")
    parser.add_argument("--quiet", type=float, default=2.0, help="with --tmux: seconds without change that settle")
    parser.add_argument("--base", type=Path,
                        help="with --tmux: a checkout of the code before (git worktree add DIR COMMIT), timed "
                             "alternately with this one")
    parser.add_argument("--rounds", type=int, default=2, help="with --base: runs of each")
    parser.add_argument("--cold", action="store_true",
                        help="with --tmux: each run with an empty cache directory of its own (a first open)")
    args = parser.parse_args()
    if args.book is not None and args.tmux:
        size = tuple(int(n) for n in args.size.split("x"))
        for round in range(args.rounds if args.base is not None else 1):  # alternating: the load falls on both alike
            for book in (BOOKS[name] for name in args.format):
                if args.base is not None:
                    bench_book_tmux(args.book, args.quiet, args.base, label=f"before {round + 1}: ", cold=args.cold,
                                    book=book, size=size)
                bench_book_tmux(args.book, args.quiet, None, label=f"after  {round + 1}: " if args.base else "",
                                cold=args.cold, book=book, size=size)
        return
    if args.book is not None:
        for name in args.format:
            asyncio.run(bench_book(args.book, args.jobs, BOOKS[name]))
        return
    key = os.path.join(args.data, "key.gum.conll.gz")
    response = os.path.join(args.data, "response.xrenner-gum.conll.gz")
    asyncio.run(bench_compare(key, [response, os.path.join(args.data, "response.xrenner-ontonotes.conll.gz")],
                              args.repeat, args.jobs))
    if args.compare_only:
        return
    asyncio.run(bench_corpus(key, response, args.repeat, args.jobs))
    if not args.skip_long:
        import tempfile

        with tempfile.TemporaryDirectory() as directory:
            asyncio.run(bench_long_document(key, response, Path(directory), args.repeat))


if __name__ == "__main__":
    main()

"""A CRAC run in the workbench: `corefwb KEY_DIR SYSTEM_DIR ...` lists the datasets above the documents.

Each dataset opens as the workbench opens a key and its responses (every view, key, export and
chart works on it, as on any pair of files).  Choosing another dataset (Enter in the list, `{`
and `}`, the palette) ends this app and opens the next on that dataset's files (`launch.py`),
with the weights as they were: a fresh app per dataset keeps every cache, worker and number of
one dataset apart from the next, and its files are read and scored before its UI starts, in
forked processes, as any opening is (`opening.py`).

The list's scores: each dataset's CoNLL F1 per system and their macro-average, computed in a
forked child as the first dataset opens (`DatasetRun.start`), by the same engine function as
`corefwb crac` (metrics.statistics.crac.score_layout), under the session's settings: the dataset on
screen shows in the list the corpus CoNLL F1 the scores panel shows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message

from metrics.conventions.corefud import Settings
from metrics.measures.catalog import CONLL
from metrics.statistics.crac import DatasetResult, macro, score_layout
from metrics.formats.cache import ReadCache
from metrics.formats.datasets import Layout
from metrics.runtime.parallel import Forked, can_fork

from .cells import ListTable, fitted_names
from .rows import LISTED_SCORE, SCORE_WIDTH, display_text, percent

SHOWN = "shown"
"""The one setting the list is scored under: the session's."""
MAX_SYSTEM_COLUMNS = 3


@dataclass
class DatasetRun:
    """The run's datasets and systems, the dataset on screen, and the list's scores once computed."""

    layout: Layout
    names: list[str]
    settings: Settings
    current: int = 0
    results: list[list[DatasetResult]] | None = None
    """Per dataset, per system (None until the child has sent them, or if it failed)."""
    failure: str | None = None
    panels: frozenset[str] = frozenset()
    """The screen's panel toggles (`-toggled-documents`: F6) the user left, so the next dataset
    opens with the same panels shown."""
    _child: Forked | None = field(default=None, repr=False)

    def files(self, dataset: int) -> tuple[str, list[str]]:
        """The key file and the systems' files of a dataset."""
        return self.layout.datasets[dataset].key, [row[dataset] for row in self.layout.responses]

    def start(self, cache: ReadCache) -> None:
        """Score every dataset in a forked child of lower priority (nothing when forking is not
        possible here: the list then shows names only)."""
        if self._child is not None or self.results is not None or not can_fork():
            return
        layout, settings = self.layout, {SHOWN: self.settings}
        try:
            self._child = Forked(lambda _: iter([score_layout(layout, cache, settings, 1)]), [0], nice=10)
        except OSError:
            self._child = None

    def poll(self) -> bool:
        """Take the child's results if they have come (never waits); True when they are here."""
        if self.results is not None or self.failure is not None:
            return True
        if self._child is None or not self._child.ready():
            return False
        try:
            self.results = self._child.next()[0]
        except Exception as exc:  # noqa: BLE001 - an unreadable dataset: said in the list's title
            self.failure = str(exc)
        self.close()
        return True

    def close(self) -> None:
        if self._child is not None:
            self._child.close()
            self._child = None

    def value(self, dataset: int | None, system: int) -> float | None:
        """A dataset's CoNLL F1 (fraction) for a system, or the macro-average (dataset None)."""
        if self.results is None:
            return None
        if dataset is None:
            return macro([row[system] for row in self.results], SHOWN)
        return self.results[dataset][system].value(SHOWN)


class DatasetList(Vertical):
    """The datasets with each system's CoNLL F1 and the macro-average; Enter opens one."""

    BINDINGS = [Binding("enter", "open", "Open the dataset", id="datasets.open")]
    HELP = """\
The datasets of the run (one file per dataset in the key folder) with each system's CoNLL F1 and,
last, their macro-average, as `corefwb crac` computes them, under the settings on screen.  Enter
opens the dataset under the cursor; `{` and `}` open the previous and the next from anywhere.
"""

    class Chosen(Message):
        """The user chose dataset `index` (Enter in the list)."""

        def __init__(self, datasets: DatasetList, index: int) -> None:
            super().__init__()
            self.datasets = datasets
            self.index = index

        @property
        def control(self) -> DatasetList:
            """The list it came from (so that `@on(DatasetList.Chosen, "#id")` can select it)."""
            return self.datasets

    def __init__(self, run: DatasetRun, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.crac_run = run

    def compose(self) -> ComposeResult:
        yield ListTable(id="datasets", cursor_type="row", zebra_stripes=True, cell_padding=0)

    def on_mount(self) -> None:
        self.refill()

    def on_resize(self) -> None:
        self.refill()

    def refill(self) -> None:
        table = self.query_one("#datasets", ListTable)
        run = self.crac_run
        systems = min(len(run.names), MAX_SYSTEM_COLUMNS)
        inner = self.content_region.width if self.content_region.width > 0 else 42
        name_width = max(6, inner - 1 - SCORE_WIDTH * systems)
        state = "" if run.results is not None else (", scores failed" if run.failure else ", scoring ...")
        table.clear(columns=True)
        place = f" datasets ({run.current + 1}/{len(run.layout.datasets)}{state})"
        # the columns are headed by the systems' names: the header names their score where it fits
        head = next((h for h in (f"{place} {LISTED_SCORE}", f"{place} {CONLL.label}") if len(h) <= name_width), place)
        table.add_column(head, key="name", width=name_width)
        for s, name in enumerate(fitted_names([display_text(n) for n in run.names[:systems]], SCORE_WIDTH - 1)):
            table.add_column(Text(name.rjust(SCORE_WIDTH)), key=f"s{s}", width=SCORE_WIDTH)
        for d, dataset in enumerate([*run.layout.datasets, None]):
            label = "macro" if dataset is None else display_text(dataset.name)
            marker = "▸" if d == run.current else " "
            cells = [Text(marker + label, overflow="ellipsis", no_wrap=True)]
            for s in range(systems):
                value = run.value(None if dataset is None else d, s)
                cells.append(Text(percent(value) if value is not None else "", justify="right"))
            table.add_row(*cells, key=str(d))
        table.move_cursor(row=run.current, animate=False)

    def action_open(self) -> None:
        table = self.query_one("#datasets", ListTable)
        if table.row_count and table.cursor_row < len(self.crac_run.layout.datasets):
            self.post_message(self.Chosen(self, table.cursor_row))

    @on(ListTable.RowSelected, "#datasets")
    def _selected(self, event: ListTable.RowSelected) -> None:
        event.stop()
        self.action_open()


@dataclass(frozen=True)
class DatasetSwitch:
    """The app's return value when the user chose another dataset."""

    dataset: int


class DatasetSwitching:
    """The app's side of a run (mixed into the App): the list mounted above the documents, its
    scores polled, and a choice ending the app with a `DatasetSwitch`."""

    def mount_datasets(self) -> None:
        if self.crac_run is None:
            return
        from .documents import DocumentList

        documents = self.query_one(DocumentList)
        documents.mount(DatasetList(self.crac_run, id="datasetlist"), before=0)
        for toggle in self.crac_run.panels:
            self.screen.add_class(toggle)
        if not self.crac_run.poll():
            self._dataset_timer = self.set_interval(0.5, self._poll_datasets)

    def _poll_datasets(self) -> None:
        if self.crac_run is not None and self.crac_run.poll():
            if self._dataset_timer is not None:
                self._dataset_timer.stop()
            self.query_one(DatasetList).refill()

    def on_dataset_list_chosen(self, message: DatasetList.Chosen) -> None:
        """Enter in the list (a mixin's handler goes by its name: `@on` is not found on a mixin)."""
        self.open_dataset(message.index)

    def open_dataset(self, index: int) -> None:
        if self.crac_run is None:
            self.notify("one pair of files is open: datasets come with folders (corefwb KEY_DIR SYSTEM_DIR)",
                        markup=False)
            return
        if index != self.crac_run.current and 0 <= index < len(self.crac_run.layout.datasets):
            self.crac_run.panels = frozenset(c for c in self.screen.classes if c.startswith("-toggled-"))
            self.exit(DatasetSwitch(index))

    def action_dataset(self, step: int) -> None:
        if self.crac_run is not None:
            self.open_dataset((self.crac_run.current + step) % len(self.crac_run.layout.datasets))
        else:
            self.open_dataset(-1)


def dataset_label(run: DatasetRun | None) -> str:
    """The status line's name of the dataset on screen (empty outside a run)."""
    if run is None:
        return ""
    return f"{run.layout.datasets[run.current].name} ({run.current + 1}/{len(run.layout.datasets)}) · "


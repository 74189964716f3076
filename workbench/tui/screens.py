"""Modal screens: help (F1 / ?), export (ctrl+e) and a yes/no question.

The help lists every key from the bindings' declarations (`keys.py`, which also writes the README's
table), so it cannot drift from the keys that actually work, with the legend of error categories
and columns, and the focused panel's own notes first.
"""

from __future__ import annotations

import re

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Input, RadioButton, RadioSet, Static

from ..output import REPORT_FORMATS
from .export import default_path
from .rows import display_text
from .theme import steady_cursors

HelpSection = tuple[str, list[tuple[str, str]]]
"""A titled part of the help: (title, rows of (term, what it means))."""


class HelpScreen(ModalScreen[None]):
    """Keys and how to read the screen: the same from wherever it is opened (the focused
    panel's own notes come first)."""

    BINDINGS = [Binding("escape,f1,q,question_mark", "dismiss", "Close", id="help.close")]

    def __init__(self, focused: Widget | None, about: str, sections: list[HelpSection]) -> None:
        """`about`: what the workbench is (the app's HELP); `sections`: titled rows of terms
        (`keys.help_sections`); the notes of `focused` (or of its nearest container with some)
        come before them."""
        super().__init__()
        self.focused_widget = focused
        self.about = about
        self.sections = sections

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help") as scroll:
            scroll.border_title = "help · esc, F1 or q closes it"  # said first: the table is long
            yield Static(self._help_table(), id="help-text")

    def _help_table(self) -> Table:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        table.add_row(Text("coref-workbench", style="bold underline"), Text(" ".join(self.about.split())))
        node: DOMNode | None = self.focused_widget
        while node is not None and not getattr(node, "HELP", None):
            node = node.parent
        if node is not None and node is not self.app:
            table.add_row("", "")
            table.add_row(Text(f"here: {panel_name(node)}", style="bold underline"), Text(" ".join(node.HELP.split())))
        for title, rows in self.sections:
            table.add_row("", "")
            table.add_row(Text(title, style="bold underline"), "")
            for term, text in rows:
                table.add_row(Text(term), Text(text))
        table.add_row("", "")
        table.add_row(Text("esc / F1 / q"), Text("close this help"))
        return table


def panel_name(widget: Widget) -> str:
    """What the user calls a panel (its title without counts: `documents`, `errors`), not its class."""
    title = str(getattr(widget, "border_title", None) or "")
    words = title.split("(")[0].split(":")[0].split("·")[0].strip()
    return words or " ".join(re.findall(r"[A-Z][a-z]+", type(widget).__name__)).lower()


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question (replace an existing file?); Esc or n says no."""

    BINDINGS = [Binding("escape,n", "answer(False)", "No", id="confirm.no"),
                Binding("y", "answer(True)", "Yes", id="confirm.yes")]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(Text(self.question), classes="title")
            with Horizontal(id="confirm-buttons"):
                yield Button("Yes (y)", variant="warning", id="confirm-yes")
                yield Button("No (n)", variant="primary", id="confirm-no")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()

    @on(Button.Pressed, "#confirm-yes")
    def _yes(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#confirm-no")
    def _no(self) -> None:
        self.dismiss(False)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class ExportScreen(ModalScreen[tuple[str, str, str] | None]):
    """Choose document or corpus, a format and a file; the app writes it atomically."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="export.cancel")]

    def __init__(self, document: str) -> None:
        super().__init__()
        self.document = document

    def compose(self) -> ComposeResult:
        with Vertical(id="export"):
            yield Static("Export scores and errors", classes="title")
            with Horizontal():
                with RadioSet(id="export-scope"):
                    # a document name is data: a Text, never markup (`[/]` would not parse)
                    yield RadioButton(Text(f"document {display_text(self.document)}"), value=True, id="scope-document")
                    yield RadioButton("corpus", id="scope-corpus")
                with RadioSet(id="export-format"):
                    for number, fmt in enumerate(REPORT_FORMATS):
                        yield RadioButton(fmt, value=number == 0, id=f"format-{fmt}")
            yield Input(value=self._default_path(), id="export-path")
            with Horizontal(id="export-buttons"):
                yield Button("Export", variant="primary", id="export-ok")
                yield Button("Cancel", id="export-cancel")

    def on_mount(self) -> None:
        steady_cursors(self)

    def _choice(self) -> tuple[str, str]:
        scope_set = self.query_one("#export-scope", RadioSet)
        format_set = self.query_one("#export-format", RadioSet)
        scope = "corpus" if scope_set.pressed_button and scope_set.pressed_button.id == "scope-corpus" else "document"
        fmt = (format_set.pressed_button.id or "format-json").removeprefix("format-") if format_set.pressed_button else "json"
        return scope, fmt

    def _default_path(self, scope: str = "document", fmt: str = "json") -> str:
        return default_path(self.document if scope == "document" else "corpus", fmt)

    @on(RadioSet.Changed)
    def _changed(self) -> None:
        self.query_one("#export-path", Input).value = self._default_path(*self._choice())

    @on(Button.Pressed, "#export-ok")
    @on(Input.Submitted, "#export-path")
    def _ok(self) -> None:
        scope, fmt = self._choice()
        self.dismiss((scope, fmt, self.query_one("#export-path", Input).value.strip() or self._default_path(scope, fmt)))

    @on(Button.Pressed, "#export-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)

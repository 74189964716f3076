"""Modal screens: help (F1 / ?) and export (ctrl+e).

The help lists the bindings from their declarations (app, screen and the focused widget's chain),
so it cannot drift from the keys that actually work, plus the HELP text of the focused widget.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Input, RadioButton, RadioSet, Static

from ..output import REPORT_EXTENSIONS, REPORT_FORMATS
from .theme import steady_cursors


class HelpScreen(ModalScreen[None]):
    """Keys and how to read the screen."""

    BINDINGS = [Binding("escape,f1,q,question_mark", "dismiss", "Close", id="help.close")]

    def __init__(self, focused: Widget | None) -> None:
        super().__init__()
        self.focused_widget = focused

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(self._help_table(), id="help-text")

    def _help_table(self) -> Table:
        app = self.app
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        table.add_row(Text("coref-workbench", style="bold underline"), Text(" ".join(app.HELP.split())))  # type: ignore[attr-defined]
        table.add_row("", "")
        chain: list = []
        node = self.focused_widget or (app.screen_stack[0] if app.screen_stack else None)
        while node is not None:
            chain.append(node)
            node = node.parent  # type: ignore[assignment]
        if app not in chain:
            chain.append(app)
        seen: set[str] = set()
        for node in chain:
            help_text = getattr(node, "HELP", None)
            if help_text and node is not app:
                table.add_row(Text(type(node).__name__, style="bold underline"), Text(" ".join(help_text.split())))
            rows = []
            for bindings in node._bindings.key_to_bindings.values():  # type: ignore[attr-defined]
                for binding in bindings:
                    name = binding.id or binding.action
                    if name in seen or not binding.description or not (binding.id or binding.show):
                        continue
                    seen.add(name)
                    rows.append(binding)
            if rows:
                table.add_row(Text(f"keys: {type(node).__name__}", style="bold"), "")
                for binding in rows:
                    keys = ", ".join(app.get_key_display(Binding(k, "")) for k in binding.key.split(","))
                    table.add_row(Text(keys), Text(binding.description))
        table.add_row(Text("ctrl+p"), Text("command palette: go to a document, switch view, export, theme"))
        table.add_row("", "")
        table.add_row(Text("Esc / F1"), Text("close this help"))
        return table


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
                    yield RadioButton(f"document {self.document}", value=True, id="scope-document")
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
        stem = self.document if scope == "document" else "corpus"
        return f"corefwb-{stem.replace(' ', '_').replace('/', '_')}{REPORT_EXTENSIONS[fmt]}"

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

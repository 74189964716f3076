"""The workbench's typed contracts: one closing guard, messages that name their widget, no type
escapes, no long positional parameter lists.  Checked on the source so they do not grow back."""

from __future__ import annotations

import ast
from pathlib import Path

from metrics.measures.weights import W4
from workbench.tui.documents import DocumentList
from workbench.tui.errorlist import ErrorPanel
from workbench.tui.messages import Rescored, while_running
from workbench.tui.scores import ScoresPanel

TUI = Path(__file__).resolve().parent.parent / "workbench" / "tui"
POSITIONAL_EXEMPT = {("cells.py", "_render_cell")}
"""An override of DataTable's own method: its signature is Textual's."""


class Pump:
    """Stands for an app or a widget: `while_running` only asks it whether it runs."""

    def __init__(self, running: bool) -> None:
        self.is_running = running
        self.handled: list[object] = []

    @while_running
    def on_message(self, message: object) -> None:
        self.handled.append(message)

    @while_running
    def on_nothing(self) -> None:
        self.handled.append("nothing")


def test_the_closing_guard_skips_a_closing_pump_and_releases_a_waiting_worker():
    running, closing = Pump(True), Pump(False)
    message = Rescored(W4, None, 0.0)  # its result is never read here
    running.on_message("late")
    running.on_nothing()
    closing.on_message(message)
    closing.on_nothing()
    assert running.handled == ["late", "nothing"]
    assert closing.handled == []
    assert message.drawn.is_set()  # its worker does not wait for a frame that will not come


def test_the_guard_keeps_the_handler_signature_textual_reads():
    import inspect

    assert list(inspect.signature(Pump.on_message).parameters) == ["self", "message"]
    assert list(inspect.signature(Pump.on_nothing).parameters) == ["self"]


def test_widget_messages_name_their_widget_as_control():
    documents, panel, scores = DocumentList(id="doclist"), ErrorPanel(id="errorpanel"), ScoresPanel(id="scorepanel")
    assert DocumentList.Chosen(documents, 3).control is documents
    assert DocumentList.Reordered(documents).control is documents
    assert ErrorPanel.Picked(panel, None, jump=True).control is panel
    assert ScoresPanel.WeightsEdited(scores, W4).control is scores


def _sources(root: Path) -> list[Path]:
    return sorted(root.rglob("*.py"))


def test_one_closing_guard():
    uses = [path.name for path in _sources(TUI) if "is_running" in path.read_text()]
    assert uses == ["messages.py"]  # `while_running`, the one definition


def test_no_type_escapes_in_the_workbench_ui():
    marker = "type: " + "ignore"
    assert [path.name for path in _sources(TUI) if marker in path.read_text()] == []


def test_no_function_of_the_ui_takes_more_than_five_positional_parameters():
    long = []
    for path in _sources(TUI):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names = [a.arg for a in node.args.posonlyargs + node.args.args]
                if names and names[0] in ("self", "cls"):
                    names = names[1:]
                if len(names) > 5 and (path.name, node.name) not in POSITIONAL_EXEMPT:
                    long.append(f"{path.name}:{node.lineno} {node.name}")
    assert long == []

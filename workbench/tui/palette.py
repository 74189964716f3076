"""The command palette's entries (ctrl+p): views, mention modes, exports, theme, documents."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from textual.app import SystemCommand

from textual.markup import escape

from .rows import MODES, display_text, short_name
from metrics.measures.weights import given


def system_commands(app: Any) -> Iterator[SystemCommand]:
    """Every palette entry of the workbench `app`: each names the key that does the same."""
    yield SystemCommand("Text view", "Show the bracketed text (F2)", lambda: app.action_view("text"))
    yield SystemCommand("Chains view", "Key chains beside response chains (F3)", lambda: app.action_view("chains"))
    yield SystemCommand("Warnings view", "What the readers noticed about the files (F5)", lambda: app.action_view("warnings"))
    for number, mode in enumerate(MODES):
        yield SystemCommand(f"Show {mode} mentions", "Which side's mentions the text brackets", lambda n=number: app._set_mode(n))
    for scope in ("document", "corpus"):
        for fmt in ("json", "csv", "markdown"):
            yield SystemCommand(
                f"Export {scope} as {fmt.upper() if fmt != 'markdown' else 'Markdown'}",
                "Scores and errors to a file in the current directory",
                lambda s=scope, f=fmt: app.export(s, f),
            )
    yield SystemCommand("Export ...", "Choose scope, format and file (ctrl+e)", app.action_export)
    yield SystemCommand("Errors per mention / per entity (Kummerfeld & Klein)",
                        "Switch the error list's taxonomy: Chen & Ng's per mention, K&K's per entity (t)",
                        app.action_taxonomy)
    yield SystemCommand("Show / hide the documents list", "F6", lambda: app.action_toggle_panel("documents"))
    yield SystemCommand("Show / hide the scores panel", "F7", lambda: app.action_toggle_panel("scores"))
    if app.comparing:
        yield SystemCommand("Compare the next system", "With the baseline; with two responses, swap them (F9)",
                            app.action_next_system)
        from ..comparison import CHANGES

        for change in (None, *CHANGES):
            yield SystemCommand(f"Errors: {change or 'all changes'}",
                                "Which of the two systems' errors the list shows (c cycles)",
                                lambda c=change: app.show_changes(c))
    yield SystemCommand("Sort errors by impact / in text order", "The error list's order (i)", app.action_sort_errors)
    yield SystemCommand("Charts", "Chen & Ng's weight sweep, errors by category and type, scores per document (F8)",
                        app.action_charts)
    if not app.browsing:
        from metrics.measures.weights import PRESETS

        for name, weights in PRESETS.items():
            yield SystemCommand(f"Weights {name}", f"Rescore with W = {tuple(given(weights))}", lambda n=name: app.apply_preset(n))
    yield SystemCommand("Toggle dark / light theme", "F10", app.action_toggle_theme)
    yield SystemCommand("Help", "Keys and what the screen shows (F1)", app.action_help)
    yield SystemCommand("Quit", "ctrl+q", app.exit)
    if app.crac_run is not None:
        for index, dataset in enumerate(app.crac_run.layout.datasets):
            yield SystemCommand(f"Open dataset {escape(display_text(dataset.name))}",
                                "Its key and the systems' files for it ({ and } step through them)",
                                lambda i=index: app.open_dataset(i))
    if app.corpus is not None:
        for index, pair in enumerate(app.corpus.pairs):
            # the palette reads titles as markup (to highlight matches): a name is data, escaped
            name = escape(display_text(short_name(pair.name)))
            yield SystemCommand(f"Go to {name}", "Open this document", lambda i=index: app.show_document(i))

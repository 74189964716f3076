"""Every key of the workbench, read from the bindings themselves: the help screen and the README's
keys table are both made here, so neither can drift from the keys that actually work.

Also the legend the help shows: the error categories (from the engine's definitions) and the
columns of the error list.
"""

from __future__ import annotations


from textual.binding import Binding

from metrics.errors.chen_ng.records import CATEGORIES

from ..output import IMPACT_UNIT
from .cells import ListTable
from .datasets import DatasetList
from .documents import DocumentList
from .entityerrors import EntityErrorPanel
from .errorlist import ErrorPanel
from .scores import ScoresPanel
from .text import DocumentText

WHERE = ((None, "anywhere"), (DocumentText, "text view"), (DocumentList, "documents list"), (DatasetList, "datasets list"),
         (ErrorPanel, "error list"), (EntityErrorPanel, "entity error list"), (ListTable, "documents and error lists"), (ScoresPanel, "scores panel"))
"""Who holds bindings, and where they work (None: the app itself)."""

EXTRA = (("ctrl+p", "Command palette: go to a document, switch view, weights W1..W5, export, theme", "anywhere"),
         ("tab / shift+tab", "Move the focus between panels (the focused panel's border is bright)", "anywhere"),
         ("up / down / pageup / pagedown", "Scroll the focused panel or move in the focused list", "anywhere"))
"""Keys Textual provides that the bindings above do not declare."""

COLUMNS = (("cat", "the error's category (legend above)"),
           ("type", "the mention's type: N name, M nominal, P pronoun"),
           ("mention", "the mention's words"),
           ("antecedent", "its response antecedent (the mention the system linked it to)"),
           ("best key antecedent", "the most informative antecedent in its key chain"),
           ("cost", "a suboptimal link's lost weight (LMetrics)"),
           ("impact", f"the change of the corpus CoNLL F1, in {IMPACT_UNIT}, if that error alone were fixed; red when "
                      "negative: fixing one error alone can lower a score (a mention added to a chain whose other "
                      "errors stay can cost B3 or CEAF more precision than it gains recall)"))


LONGER = {
    "view.text": "The text view: every mention bracketed, typed and labelled with its chain ids",
    "view.chains": "The chains view: key chains beside response chains",
    "view.warnings": "The warnings view: what the readers noticed about the files",
    "view.mode": "Bracket the key's mentions, the response's, or both",
    "panel.documents": "Show / hide the documents list (below 130 columns it takes the scores panel's place)",
    "panel.scores": "Show / hide the scores panel",
    "error.next": "Next error (after paging the text: the first error from the view on)",
    "error.previous": "Previous error (after paging the text: the last error before the view)",
    "app.export": "Export the scores and the errors shown (document or corpus; JSON, CSV, Markdown)",
    "system.next": "Compare mode: compare the next system with the baseline (two responses: swap them)",
    "dataset.previous": "A CRAC run (corefwb KEY_DIR SYSTEM_DIR ...): open the previous dataset",
    "dataset.next": "A CRAC run: open the next dataset",
    "datasets.open": "A CRAC run: open the dataset under the cursor (the weights stay as they are)",
    "documents.into_list": "From the filter box into the list, where up and down open the documents",
    "errors.change": "Compare mode: the error list shows all changes, fixed, introduced, changed or unchanged errors",
}
"""The footer's short descriptions, said in full for the help and the README (by binding id)."""


def _display(key: str) -> str:
    names = {"question_mark": "?", "slash": "/", "left_square_bracket": "[", "right_square_bracket": "]",
             "left_curly_bracket": "{", "right_curly_bracket": "}", "asterisk": "*",
             "escape": "esc", "space": "space"}
    return " / ".join(names.get(k.strip(), k.strip()) for k in key.split(","))


def key_rows(app_class: type) -> list[tuple[str, str, str]]:
    """(keys, what they do, where) for every described binding of the app and its widgets."""
    rows: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for holder, where in WHERE:
        owner = app_class if holder is None else holder
        bindings: list[Binding] = list(vars(owner).get("BINDINGS", []))  # its own, not inherited scrolling keys
        for binding in bindings:
            if isinstance(binding, tuple):
                binding = Binding(*binding)
            name = binding.id or binding.action
            if not binding.description or name in seen:
                continue
            seen.add(name)
            rows.append((_display(binding.key), LONGER.get(binding.id or "", binding.description), where))
    return rows + list(EXTRA)


def legend() -> list[tuple[str, str]]:
    """(term, meaning) of the error categories and the error list's columns."""
    return [(f"{c.short}  {c.label}", c.description) for c in CATEGORIES] + [
        (f"column {name}", meaning) for name, meaning in COLUMNS]


def help_sections(app_class: type) -> list[tuple[str, list[tuple[str, str]]]]:
    """The help screen's sections: (title, rows of (term, text)), the keys of `app_class`."""
    keys = [(keys, f"{what}  ({where})" if where != "anywhere" else what) for keys, what, where in key_rows(app_class)]
    from .entityerrors import legend as entity_legend

    return [("Errors: categories and columns", legend()),
            ("Entity errors (t): Kummerfeld & Klein's types", entity_legend()), ("Keys", keys)]

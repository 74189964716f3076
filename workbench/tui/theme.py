"""The workbench's two themes and the screen-wide settings every screen applies.

Mention-type colours are theme variables (`type-name`, `type-nominal`, `type-pronoun`, `type-zero`), so each
theme sets its own and a type is never told by colour alone (a letter goes with it).
"""

from __future__ import annotations

from textual.screen import Screen
from textual.theme import Theme
from textual.widgets import Input

TYPE_VARIABLES_DARK = {"type-name": "#5fafff", "type-nominal": "#87d787", "type-pronoun": "#ffaf5f", "type-zero": "#d7afff",
                       "highlight-antecedent": "#4a2e00", "highlight-best": "#00305f",
                       "change-fixed": "#123a1a", "change-introduced": "#4a1620", "change-changed": "#3a3412",
                       "change-repaired": "#1b2f48"}
TYPE_VARIABLES_LIGHT = {"type-name": "#004fa8", "type-nominal": "#17661a", "type-pronoun": "#8f4500", "type-zero": "#6a3d9a",
                        "highlight-antecedent": "#ffe9c4", "highlight-best": "#dde9ff",
                        "change-fixed": "#dcf5dc", "change-introduced": "#fde0e4", "change-changed": "#f3efcf",
                        "change-repaired": "#e2ecf8"}
"""Type colours, the backgrounds of the selected error's antecedents and the tints of compare
mode's changed mentions (fixed green, introduced red, changed yellow), and of the mentions a CRAC
LLM output's repair made (blue).  Chosen together: every
type colour (and the plain text) keeps a WCAG contrast ratio of at least 4.5 on the surface, on
both highlights and on every tint (tests/test_contrast.py measures every pair the text view can draw)."""

CHART_COLOURS = {
    "corefwb-dark": ("#ff8787", "#ffd75f", "#87d7ff", "#87ff87", "#d7afff", "#ffffff", "#ffaf5f"),
    "corefwb-light": ("#b00020", "#6b5000", "#005f87", "#1b6e1b", "#6a3d9a", "#000000", "#8f4500"),
}
"""Line colours of the charts (W1..W5, the current weights, the OMetric), per theme: each keeps a
contrast of at least 4.5 with the surface it is drawn on (tests/test_contrast.py).  Lines also
differ by their marker character, so NO_COLOR loses nothing."""

DARK = Theme(
    name="corefwb-dark", primary="#5f87d7", secondary="#87afd7", accent="#ffaf5f", background="#1c1c1c",
    surface="#262626", panel="#303030", dark=True, variables=TYPE_VARIABLES_DARK,
)
LIGHT = Theme(
    name="corefwb-light", primary="#2f5fa7", secondary="#4f7fbf", accent="#b35900", background="#f5f5f0",
    surface="#ffffff", panel="#e4e4dc", dark=False, variables=TYPE_VARIABLES_LIGHT,
)


def steady_cursors(screen: Screen) -> None:
    """No blinking text cursors: over SSH each blink is a redraw sent down the line."""
    for box in screen.query(Input):
        box.cursor_blink = False

"""Every foreground and background pair the text view can draw is readable (issue 17, item 3):
a WCAG 2 contrast ratio of at least 4.5, in the dark and the light theme, for every mention type,
plain text, brackets, and each emphasis of a selected error (the mention reversed, the response
antecedent and the best key antecedent on their highlight backgrounds).  Under NO_COLOR the
emphases stay apart by their attributes alone."""

from __future__ import annotations

import pytest
from app_support import ROOT, SAMPLE_KEY, SAMPLE_RESPONSE, pilot_test, settle
from app_support import workbench_terminal  # noqa: F401  (an autouse fixture: colour, no animations, cwd)
from rich.color import Color
from rich.style import Style

from workbench.tui.app import Workbench
from workbench.tui.text import DocumentText


def luminance(color: Color) -> float:
    """WCAG 2 relative luminance."""
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = color.get_truecolor()
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: Color, b: Color) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_formula_on_known_pairs():
    assert contrast(Color.parse("#000000"), Color.parse("#ffffff")) == pytest.approx(21.0)
    assert contrast(Color.parse("#777777"), Color.parse("#ffffff")) == pytest.approx(4.48, abs=0.01)


def drawn_colours(style: Style, base: Style) -> tuple[Color, Color]:
    """The (foreground, background) a terminal shows for a style over the widget's base style."""
    fg = style.color or base.color
    bg = style.bgcolor or base.bgcolor
    if style.reverse:
        fg, bg = bg, fg
    return fg, bg


@pytest.mark.parametrize("theme", ["corefwb-dark", "corefwb-light"])
@pilot_test
async def test_every_pair_the_text_view_draws_has_contrast_4_5(theme):
    app = Workbench(SAMPLE_KEY, SAMPLE_RESPONSE)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        app.theme = theme
        await pilot.pause()
        text = app.query_one(DocumentText)
        text._styles = None
        table = text._style_table()
        base = text.rich_style
        assert {emphasis for _, _, emphasis, _ in table} == {None, "error", "antecedent", "best"}
        assert {change for *_, change in table} == {None, "fixed", "introduced", "changed", "repaired"}  # and CRAC repairs
        worst = []
        for (role, kind, emphasis, change), style in table.items():
            if role == "space" and emphasis is None:
                continue
            fg, bg = drawn_colours(style, base)
            assert fg is not None and bg is not None, (role, kind, emphasis, change)
            ratio = contrast(fg, bg)
            worst.append((ratio, role, kind, emphasis, change, fg.name, bg.name))
        worst.sort(key=lambda item: item[0])
        assert worst[0][0] >= 4.5, worst[:5]
        # the highlights are visible: their backgrounds differ from the text's own
        for emphasis in ("antecedent", "best"):
            assert table[("word", None, emphasis, None)].bgcolor != base.bgcolor
        # the four tints differ from the text's background and from each other
        tints = {table[("word", None, None, change)].bgcolor for change in ("fixed", "introduced", "changed", "repaired")}
        assert len(tints) == 4 and base.bgcolor not in tints


@pilot_test
async def test_with_no_color_the_emphases_differ_by_attributes(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = Workbench(SAMPLE_KEY, SAMPLE_RESPONSE)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        table = app.query_one(DocumentText)._style_table()
        marks = {}
        for emphasis in (None, "error", "antecedent", "best"):
            style = table[("word", None, emphasis, None)]
            marks[emphasis] = (bool(style.reverse), bool(style.underline), bool(style.bold))
        assert len(set(marks.values())) == 4, marks  # none, reversed, underlined, bold underlined


@pytest.mark.parametrize("theme", ["corefwb-dark", "corefwb-light"])
def test_chart_colours_keep_4_5_on_the_surface(theme):
    """The charts (F8) draw on the theme's surface: every line colour, and the type colours of the
    error bars, keep a contrast of 4.5 there."""
    from workbench.tui.theme import CHART_COLOURS, DARK, LIGHT, TYPE_VARIABLES_DARK, TYPE_VARIABLES_LIGHT

    surface = Color.parse((DARK if theme == "corefwb-dark" else LIGHT).surface)
    types = TYPE_VARIABLES_DARK if theme == "corefwb-dark" else TYPE_VARIABLES_LIGHT
    colours = list(CHART_COLOURS[theme]) + [types[f"type-{t}"] for t in ("name", "nominal", "pronoun")]
    worst = min(contrast(Color.parse(c), surface) for c in colours)
    assert worst >= 4.5, worst

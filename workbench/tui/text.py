"""The document text view: a Line-API widget that draws only the visible lines.

Why the Line API: a long document bracketed with every mention is thousands of display lines; a
`ScrollView` asks for one line at a time (`render_line`) and we keep an LRU cache of finished
`Strip`s, so scrolling and jumping cost only the lines on screen (Toolong's approach).  The lines
themselves are built when drawn (`textlayout.LazyLayout`): showing a 300,000-token book costs a
tenth of a second, what knowing where each of its lines starts costs, not the 4 s of laying it
all out.  Words are
turned into `Segment`s directly, never parsed as markup, so a token like `[bold]` shows literally.
Colours come from component classes whose CSS uses the theme's type variables.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import work
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.worker import Worker, get_current_worker

from metrics.errors.mention import Mention
from metrics.model import Document, MentionType, Span

from .rows import REPAIR_MARK, REPAIRED, Selection, Side
from .textlayout import LazyLayout, TextMarks, text_marks

ASYNC_TOKENS = 20_000
"""A text of at least this many tokens is laid out again in a worker when what is drawn over it
changes (`redraw`: b a x r, the mode, the repairs' marks).  On the UA book (282,729 words) that
is a second of processor (the relations' overlay 0.34 s, the marks 0.28 s, the wrap 0.47 s) in
which no key was answered; now the text shown stays, its title says it is being laid out, and
the next key's redraw overtakes the one under way.  A shorter text is laid out at once."""
LAYING_OUT = "laying out ..."
"""The text's title says this while a worker lays the text out again."""
Geometry = tuple[int, int, int]
"""What a layout needs of the view, read on the UI thread: the width, the cells a vertical
scrollbar not yet shown would take (0 when none would), the height."""

if TYPE_CHECKING:
    from .relations import Overlay

    Relations = Callable[[Side], Overlay]
    """Under --conventions ua: the relations to draw in a view mode (`relations.overlay`)."""

TYPE_CLASS = {MentionType.NAME: "name", MentionType.NOMINAL: "nominal", MentionType.PRONOUN: "pronoun",
              MentionType.ZERO: "zero"}


LEGENDS = {
    "conll": ("N name  M nominal  P pronoun  +chain id (key/response)", "N name  M nominal  P pronoun  +key/resp chain",
              "N name M nominal P pronoun"),
    "corefud": ("N name  M nominal  P pronoun  Z zero (∅)  +chain id (key/response)",
                "N name  M nominal  P pronoun  Z zero (∅)  +key/resp chain", "N name  M nominal  P pronoun  Z zero (∅)",
                "N name M nom P pron Z zero"),
    "repaired": (f"{REPAIR_MARK} repaired (*)  N name  M nominal  P pronoun  Z zero (∅)  +chain id (key/response)",
                 f"{REPAIR_MARK} repaired (*)  N name  M nominal  P pronoun  Z zero (∅)  +key/resp chain",
                 f"{REPAIR_MARK} repaired (*)  N name  M nominal  P pronoun  Z zero (∅)",
                 f"{REPAIR_MARK} repaired  N name M nom P pron Z zero", f"{REPAIR_MARK} repaired (*)"),
    "compare": ("+ fixed  ! introduced  ~ changed  N name  M nominal  P pronoun", "+ fixed  ! introduced  ~ changed",
                "+fixed !new ~changed"),
    "compare-repaired": (f"{REPAIR_MARK} repaired (*)  + fixed  ! introduced  ~ changed  N name  M nominal  P pronoun",
                         f"{REPAIR_MARK} repaired (*)  + fixed  ! introduced  ~ changed",
                         f"{REPAIR_MARK} repaired  + fixed  ! new  ~ changed", f"{REPAIR_MARK}rep +fixed !new ~changed"),
}
"""The text panel's legend, longest first: the first that fits the panel's border is shown."""


def repairs(response: Document, other: Document | None) -> dict[Span, str]:
    """The repaired mentions to mark, with what each repair did: the response's, or in compare
    mode (`other`, the compared system) both systems', each note saying whose: A the baseline's,
    B the compared one's (as the scores panel names them)."""
    if other is None:
        return dict(response.repaired or {})
    notes: dict[Span, list[str]] = {}
    for whose, doc in (("A", response), ("B", other)):
        for span, note in (doc.repaired or {}).items():
            notes.setdefault(span, []).append(f"{whose}: {note}")
    return {span: "; ".join(said) for span, said in notes.items()}


class DocumentText(ScrollView, can_focus=True):
    """Bracketed, type-coloured text of one document; the selected error emphasised."""

    COMPONENT_CLASSES = {
        "doctext--name",
        "doctext--nominal",
        "doctext--pronoun",
        "doctext--zero",
        "doctext--bracket",
        "doctext--error",
        "doctext--antecedent",
        "doctext--best",
        "doctext--fixed",
        "doctext--introduced",
        "doctext--changed",
        "doctext--repaired",
    }
    DEFAULT_CSS = """
    DocumentText { background: $surface; }
    """
    BINDINGS = [
        Binding("j", "scroll_lines(1)", "Down", show=False, id="text.down"),
        Binding("k", "scroll_lines(-1)", "Up", show=False, id="text.up"),
        Binding("space", "page_down", "Page down", show=False, id="text.page_down"),
        Binding("asterisk", "toggle_repairs", "Mark / unmark the mentions a CRAC LLM output's repair made", show=False,
                id="text.repairs"),
    ]
    HELP = """\
The text of the document: each mention bracketed with its type letter (N name, M nominal,
P pronoun) and its chain's label in the file, as every view numbers it: `[Jesus]N1`.  In "both":
key chain / response chain, `-` for the side without it (`[he]P2/-`: missing from the response).
The selected error's mention is reversed, the response antecedent underlined, the best key
antecedent bold.  Compare mode: `[he]P2/5/7` (key, baseline, compared), a changed error tinted
and marked + fixed, ! introduced, ~ changed.  Under --conventions ua: b bridging `→`, a split
antecedents `⊃`, x discourse deixis `D1`, r non-referring `¬`.  A CRAC LLM output: `*` marks a
mention its bracket repair made (* hides them).
"""

    mode: reactive[Side] = reactive("both")

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._title = ""
        self.laying_out = False
        """Whether a worker is laying the text out again (`redraw` of a long text)."""
        self._marks: TextMarks | None = None
        self._sentence_starts: list[int] = []
        self._layout: LazyLayout | None = None
        self._selection = Selection()
        self._cache: LRUCache[tuple, Strip] = LRUCache(1024)
        self._styles: dict[tuple, Style] | None = None
        self._content: tuple | None = None
        self._repaired: dict[Span, str] = {}
        """The shown responses' repaired mentions (`Document.repaired`), with what was done."""
        self._noted: Span | None = None
        """The repaired mention whose note, too long for the border, was said whole in a toast."""
        self.marking_repairs = True
        """Whether they are marked (*)."""
        self._legend_args: tuple[bool, str, int, frozenset[str]] | None = None

    @staticmethod
    def legend(comparing: bool, conventions: str, room: int, shown: frozenset[str] = frozenset(), *,
               repaired: bool = False) -> str:
        """The border's legend: the longest of `LEGENDS` that fits `room` cells (never cut); under
        the UA conventions, the relations' keys and glyphs (`shown`: those not hidden); with
        repaired mentions marked (`repaired`), theirs."""
        if conventions == "ua" and not comparing:
            from .relations import legends as relation_legends

            legends = relation_legends(shown)
        else:
            kind = ("compare-repaired" if repaired else "compare") if comparing else "repaired" if repaired else \
                "corefud" if conventions == "corefud" else "conll"
            legends = LEGENDS[kind]
        return next((legend for legend in legends if cell_len(legend) <= room), legends[-1])

    def set_title(self, title: str) -> None:
        """The border's title, with the note that the text is being laid out while it is."""
        self._title = title
        self.border_title = f"{title} · {LAYING_OUT}" if self.laying_out else title

    def show_legend(self, comparing: bool, conventions: str, room: int, shown: frozenset[str] = frozenset()) -> None:
        """Put `legend` on the border, kept to be put again when the repairs' marks are toggled."""
        self._legend_args = (comparing, conventions, room, shown)
        self.border_subtitle = self.legend(comparing, conventions, room, shown,
                                           repaired=bool(self._repaired) and self.marking_repairs)

    def repair_note(self, mention: Mention | None, room: int) -> str | None:
        """What the repair did to make this mention, cut to `room` cells (None: not one)."""
        note = self._repaired.get(mention.span) if mention is not None and self.marking_repairs else None
        if note is None:
            return None
        text = f"{REPAIR_MARK} repaired: {note}"
        if cell_len(text) <= room:
            return text
        if self._noted != mention.span:  # cut on the border: the whole note once, in a toast (it wraps)
            self._noted = mention.span
            self.notify(text, timeout=10, markup=False)
        return text[:max(room - 1, 0)] + "…"

    # ------------------------------------------------------------------ data in
    def show(self, key: Document, response: Document, types: dict[Span, MentionType], mode: Side | None = None, *,
             other: Document | None = None, changes: dict[Span, str] | None = None,
             relations: Relations | None = None) -> None:
        """`_show` with the response's repaired mentions marked (unless hidden, or comparing)."""
        if self._content is None or self._content[0] is not key:  # another document: its notes not said yet
            self._noted = None
        changes = self._kept(key, response, types, other=other, changes=changes, relations=relations)
        self._show(key, response, types, mode, other=other, changes=changes, relations=relations)

    def _kept(self, key: Document, response: Document, types: dict[Span, MentionType], *, other: Document | None,
              changes: dict[Span, str] | None, relations: Relations | None) -> dict[Span, str] | None:
        """What is shown kept (to be drawn again: `redraw`, the repairs' toggle) and the changes to
        draw, the response's repaired mentions marked in them (in compare mode an error's change
        is marked first)."""
        self._repaired = repairs(response, other)
        self._content = (key, response, types, other, changes, relations)
        if self._repaired and self.marking_repairs:
            changes = {**dict.fromkeys(self._repaired, REPAIRED), **(changes or {})}
        return changes

    def _show(self, key: Document, response: Document, types: dict[Span, MentionType], mode: Side | None = None, *,
              other: Document | None = None, changes: dict[Span, str] | None = None,
              relations: Relations | None = None) -> None:
        """Show a document pair (key, response Documents and the engine's mention types); in
        compare mode `response` is the baseline's, `other` the compared system's, and `changes`
        maps the spans whose error changed to the change.  `relations`: under the UA conventions,
        the relations drawn in a mode (`relations.overlay`).  Lines are built when drawn."""
        if mode is not None:
            self.set_reactive(DocumentText.mode, mode)
        self._laid_out_later(None)  # a layout under way is of what was shown before
        self._marks = self._marks_of(key, response, types, self.mode, other=other, changes=changes, relations=relations)
        self._sentence_starts = list(self._marks.base.sentence_starts or [0])
        self._selection = Selection()
        self._relayout()
        self.scroll_to(0, 0, animate=False, immediate=True)

    def watch_mode(self, mode: Side) -> None:
        if self._content is not None:
            key, response, types, other, changes, relations = self._content
            self.redraw(key, response, types, mode, other=other, changes=changes, relations=relations)

    def redraw(self, key: Document, response: Document, types: dict[Span, MentionType], mode: Side, *,
               other: Document | None = None, changes: dict[Span, str] | None = None,
               relations: Relations | None = None) -> None:
        """`show` the same document again (another mode, the changes once known), keeping the
        selected error and the scroll position where the user left them; a long text
        (`ASYNC_TOKENS`) in a worker, its first token on screen kept on screen."""
        if len(key.words) >= ASYNC_TOKENS and self._layout is not None and self.is_mounted \
                and self.scrollable_content_region.width:
            changes = self._kept(key, response, types, other=other, changes=changes, relations=relations)
            self.set_reactive(DocumentText.mode, mode)
            self.laying_out = True
            self.set_title(self._title)
            self._layout_worker((key, response, types, mode, other, changes, relations),
                                self._geometry(max(self.scrollable_content_region.width, 20)))
            return
        selection, y = self._selection, self.scroll_y
        self.show(key, response, types, mode, other=other, changes=changes, relations=relations)
        self._selection = selection
        self.scroll_to(0, y, animate=False, immediate=True)

    def action_toggle_repairs(self) -> None:
        """Mark or unmark the repaired mentions (*), the legend following."""
        self.marking_repairs = not self.marking_repairs
        if self._content is not None and self._repaired:
            key, response, types, other, changes, relations = self._content
            self.redraw(key, response, types, self.mode, other=other, changes=changes, relations=relations)
            if self._legend_args is not None and isinstance(self.border_subtitle, str):
                self.show_legend(*self._legend_args)
        self.notify(f"repaired mentions {'marked' if self.marking_repairs else 'not marked'} (*)", markup=False)

    def on_mouse_move(self, event) -> None:
        """The mouse on a repaired mention: a tooltip says what the repair did."""
        note = None
        offset = event.get_content_offset(self)
        if self._repaired and self.marking_repairs and offset is not None and self._layout is not None:
            index = int(self.scroll_y) + offset.y
            x = int(self.scroll_x) + offset.x
            for atom in self._layout.lines[index] if index < len(self._layout.lines) else ():
                x -= cell_len(atom.text)
                if x < 0:
                    span = atom.span if atom.role != "space" else None
                    note = self._repaired.get(span) if span is not None else None
                    break
        self.tooltip = f"{REPAIR_MARK} repaired: {note}" if note else None

    def select(self, selection: Selection) -> None:
        """Emphasise an error and bring its mention into view (a third of the way down)."""
        self._selection = selection
        self._cache.clear()
        if selection.mention is not None and self._layout is not None:
            line = self.line_of_token(selection.mention[0])
            if not (self.scroll_y <= line < self.scroll_y + self.scrollable_content_region.height - 1):
                self.scroll_to(0, max(0, line - self.scrollable_content_region.height // 3), animate=False, immediate=True)
        self.refresh()

    def line_of_token(self, token: int) -> int:
        """The display line a token is on (0 before any layout), the last token's for one past it:
        where `select` brings a mention and what `span_in_view` checks."""
        if not self._layout or not self._layout.token_line:
            return 0
        return self._layout.token_line[min(token, len(self._layout.token_line) - 1)]

    def first_visible_token(self) -> int:
        """The first token on the top line of the view (where `n` continues after paging)."""
        if self._layout is None or not self._layout.token_line:
            return 0
        return self._layout.first_token_on(int(self.scroll_y))

    def span_in_view(self, span: tuple[int, int]) -> bool:
        """Whether a span's first token is on a line the view shows."""
        if self._layout is None or not self._layout.token_line:
            return True
        line = self.line_of_token(span[0])
        return self.scroll_y <= line < self.scroll_y + self.scrollable_content_region.height

    # ----------------------------------------------------------------- layout
    def _relayout(self) -> None:
        if self._marks is None:
            return
        if self.is_mounted and not self.scrollable_content_region.width:
            self._layout = None  # not yet sized: laid out at its width once it has one (`on_resize`)
            return
        width = max(self.scrollable_content_region.width, 20) if self.is_mounted else 80
        self._layout = self._laid_out(width)
        self._cache.clear()
        self.virtual_size = Size(self._layout.width, self._layout.line_count)
        self.refresh()

    def _laid_out(self, width: int) -> LazyLayout:
        return self._wrapped(self._marks, self._sentence_starts, self._geometry(width))

    def _geometry(self, width: int) -> Geometry:
        """The view's width, the cells a vertical scrollbar not shown yet would take, and its height."""
        bar = self.styles.scrollbar_size_vertical if self.is_mounted and self.styles.overflow_y == "auto" \
            and not self.show_vertical_scrollbar else 0
        return width, bar, self.scrollable_content_region.height if self.is_mounted else 0

    @staticmethod
    def _wrapped(marks: TextMarks, sentence_starts: list[int], geometry: Geometry) -> LazyLayout:
        """The text wrapped at the width it will have: a text longer than the view, while the
        vertical scrollbar is not shown yet, loses the scrollbar's cells at once.  Else the
        scrollbar shows a frame later and the text is wrapped again (a book's first screen
        changed twice, its lines ending elsewhere the second time).  Reads no widget: a worker
        may call it."""
        width, bar, height = geometry
        narrower = max(width - bar, 20)
        if bar and narrower != width and sum(marks.widths) + marks.words > width * height:
            return LazyLayout(marks, sentence_starts, narrower)  # longer than the view, surely
        layout = LazyLayout(marks, sentence_starts, width)
        if bar and narrower != width and layout.line_count > height:
            layout = LazyLayout(marks, sentence_starts, narrower)
        return layout

    @staticmethod
    def _marks_of(key: Document, response: Document, types: dict[Span, MentionType], mode: Side, *,
                  other: Document | None, changes: dict[Span, str] | None, relations: Relations | None) -> TextMarks:
        """What a mode draws over the text (`text_marks`), the relations' overlay included.  Reads
        no widget: a worker may call it."""
        drawn = relations(mode) if relations is not None else None
        return text_marks(key, response, types, mode, other=other, changes=changes,
                          relation_marks=drawn.marks if drawn else (), endings=drawn.endings if drawn else None)

    @work(thread=True, exclusive=True, group="text-layout", description="laying out the text again")
    def _layout_worker(self, shown: tuple, geometry: Geometry) -> None:
        """A long text's marks and wrap made again off the UI thread (`redraw`), then put on
        screen unless a later redraw or another document came meanwhile (cancelled)."""
        worker = get_current_worker()
        key, response, types, mode, other, changes, relations = shown
        marks = self._marks_of(key, response, types, mode, other=other, changes=changes, relations=relations)
        if worker.is_cancelled:
            return
        layout = self._wrapped(marks, list(marks.base.sentence_starts or [0]), geometry)
        if not worker.is_cancelled:
            self.app.call_from_thread(self._laid_out_later, worker, marks, layout)

    def _laid_out_later(self, worker: Worker | None, marks: TextMarks | None = None,
                        layout: LazyLayout | None = None) -> None:
        """A worker's layout on screen, the token on the top line kept there (where the view is
        now: the user may have scrolled, or `n` moved, meanwhile); with no worker, the one under
        way cancelled and its note taken down."""
        if worker is None:
            if self.laying_out:
                self.workers.cancel_group(self, "text-layout")
                self.laying_out = False
                self.set_title(self._title)
            return
        if worker.is_cancelled or marks is None or layout is None:
            return
        self.laying_out = False
        self.set_title(self._title)
        anchor = self.first_visible_token()
        self._marks, self._layout = marks, layout
        self._sentence_starts = list(marks.base.sentence_starts or [0])
        self._cache.clear()
        self.virtual_size = Size(layout.width, layout.line_count)
        line = layout.token_line[min(anchor, len(layout.token_line) - 1)] if layout.token_line else 0
        self.scroll_to(0, line, animate=False, immediate=True)
        if layout.width != max(self.scrollable_content_region.width, 20):
            self.on_resize()  # resized meanwhile
        self.refresh()

    def on_resize(self) -> None:
        """Wrap again at the new width, and keep the selected error in view (its line moved)."""
        if self._layout is None or self._layout.width != max(self.scrollable_content_region.width, 20):
            self._relayout()
            if self._selection.mention is not None:
                self.call_after_refresh(self.select, self._selection)

    def watch_show_vertical_scrollbar(self, shown: bool) -> None:
        """The scrollbar takes cells from the text's width (no resize says so): wrapped again to
        the width left, or the lines' ends would be hidden under it."""
        self.call_after_refresh(self.on_resize)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = None
        self._cache.clear()

    def _style_table(self) -> dict[tuple, Style]:
        """(role, type, emphasis, change) -> Style, built once per theme from the component classes."""
        if self._styles is None:
            base = self.rich_style
            table: dict[tuple, Style] = {}
            emphasis_styles = {
                None: Style(),
                "error": self.get_component_rich_style("doctext--error", partial=True),
                "antecedent": self.get_component_rich_style("doctext--antecedent", partial=True),
                "best": self.get_component_rich_style("doctext--best", partial=True),
            }
            bracket = self.get_component_rich_style("doctext--bracket", partial=True)
            tints = {None: Style(), **{change: self.get_component_rich_style(f"doctext--{change}", partial=True)
                                       for change in ("fixed", "introduced", "changed", REPAIRED)}}
            for kind in (None, *MentionType):
                type_style = (
                    self.get_component_rich_style(f"doctext--{TYPE_CLASS[kind]}", partial=True) if kind is not None else Style()
                )
                for role in ("word", "open", "close", "space"):
                    for emphasis, extra in emphasis_styles.items():
                        for change, tint in tints.items():
                            style = base + type_style + tint
                            if role in ("open", "close"):
                                style += bracket
                            table[(role, kind, emphasis, change)] = style + extra
            self._styles = table
        return self._styles

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.scrollable_content_region.width
        if self._layout is None or index >= self._layout.line_count:
            return Strip.blank(width, self.rich_style)
        key = (index, scroll_x, width)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        styles = self._style_table()
        selection = self._selection
        segments = []
        for atom in self._layout.lines[index]:
            if atom.role == "word":
                emphasis = selection.emphasis.get(atom.token)
            elif atom.role == "space":
                emphasis = None
            else:
                emphasis = selection.role_of_span(atom.span)
            segments.append(Segment(atom.text, styles[(atom.role, atom.type, emphasis, atom.change)]))
        strip = Strip(segments).crop_extend(scroll_x, scroll_x + width, self.rich_style)
        self._cache[key] = strip
        return strip

    def action_scroll_lines(self, lines: int) -> None:
        self.scroll_to(y=self.scroll_y + lines, animate=False)

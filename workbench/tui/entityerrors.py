"""The error list in Kummerfeld & Klein's taxonomy (`t` switches to it): a row per error over
entities, the counts by type beside it.

Why a panel of its own rather than more columns of the Chen & Ng list: a K&K error is about a
group of mentions (the part of a cluster split off or merged in, an extra or missing entity), not
one mention with an antecedent; its columns are the part, the cluster it comes from or goes to, and
the chains involved.  Selecting a row brackets all its mentions in the text (the part as the error,
the rest of the cluster as its context) and marks them in the chains view (F3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from metrics.errors.kummerfeld_klein import KK_DESCRIPTIONS, KK_LABELS, KK_TYPES

from .cells import type_text
from .kkpacked import DocumentKKErrors
from .recordlist import RecordListPanel
from .rows import display_text

if TYPE_CHECKING:  # the analysis itself loads with the first list shown, not with the app
    from metrics.errors.kummerfeld_klein.report import KKError

SHORT = {"span_error": "SPAN", "conflated_entities": "CONF", "extra_mention": "XMEN", "extra_entity": "XENT",
         "divided_entity": "DIV", "missing_mention": "MISS", "missing_entity": "MENT"}
"""The abbreviation the list and the counts show per type (the help's legend spells them out):
MISS a missing mention, as the per-mention list says it, so that it is not read as MENT."""
FIXED = (("error", 5), ("type", 4))
TEXT = (("mentions", 0.45), ("from / into", 0.25), ("chains", 0.3))


class EntityErrorPanel(RecordListPanel["KKError"]):
    """K&K's errors of the current document (see the module docstring)."""

    PREFIX, TITLE = "kk", "entity errors"
    SUBTITLE = "Kummerfeld & Klein · t: per-mention errors · F1 legend"
    FIXED, TEXT, TEXT_ORDER = FIXED, TEXT, False  # listed by type, then position

    HELP = """\
Kummerfeld & Klein's (2013) errors, as the Berkeley Coreference Analyser classifies them: SPAN
span error, CONF conflated entities (a part of a response cluster belonging to another key
entity), XMEN extra mention, XENT extra entity, DIV divided entity (a part of a key entity kept
in another response cluster), MISS missing mention, MENT missing entity.  A row: the type, the
mention type of the part's earliest non-pronoun mention, the part (its first mention, after the
number of its mentions when several), the cluster it comes from or goes to (`resp (6)`: a
response cluster of 6 mentions; `key (4)`: a key cluster of 4) or, for a span error, the key
span it should have, and the chains involved.  Enter jumps to it; the text brackets all its
mentions.  The counts box: this document's errors per type (in compare mode A, the baseline's,
beside B, the compared system's); the charts (F8) show the CoNLL F1 after correcting each type
in turn, on the files as BCA reads them (a span listed twice kept once), so their starting
figure can differ from the scores panel's.  `t` switches back to the per-mention list.
docs/errors-kk.md states the rules.
"""

    class Picked(RecordListPanel.Picked):
        """The cursor is on an error (jump=False) or Enter was pressed on it (jump=True)."""

    def _cells(self, row: KKError) -> list[Text]:
        # numbers go first or in a column of their own: a long mention is cut at the right edge
        first = row.mentions[0]
        mentions = (f"({len(row.mentions)}) " if len(row.mentions) > 1 else "") + first.text
        if row.target is not None:  # a span error: the key span it should have
            where = f"key {row.target.span[0]}-{row.target.span[1]}"
        elif row.cluster:
            where = f"{'resp' if row.side == 'response' else 'key'} ({len(row.cluster)})"
        else:
            where = "-"
        chains = " ".join([f"K{c}" for c in row.key_chains] + [f"R{c}" for c in row.response_chains])
        return [Text(SHORT[row.kind]), type_text(self.app, row.type),
                *(Text(display_text(t), overflow="ellipsis", no_wrap=True) for t in (mentions, where, chains))]

    def counts_text(self, systems: list[tuple[str, list[KKError]]]) -> Text:
        from metrics.errors.kummerfeld_klein.report import count_kk

        # compare mode: A the baseline, B the compared system, as the per-mention list names them
        # (the status line has their names, which a 6-column count would cut)
        text = Text("entity errors\n" if len(systems) <= 1 else f"{'':5}{'A':>6}{'B':>6}\n", style="bold")
        tables = [rows.counts() if isinstance(rows, DocumentKKErrors) else count_kk(rows) for _, rows in systems]
        for kind in KK_TYPES:
            text.append(f"{SHORT[kind]:<5}" + "".join(f"{sum(t[kind].values()):>6}" for t in tables) + "\n")
        return text

    def row_span(self, row: KKError) -> tuple[int, int]:
        return row.span

    def row_spans(self) -> list[tuple[int, int]]:
        """From the arrays (`kkpacked`): a book's 33,000 rows are not made for one `n`."""
        return self.rows.spans() if isinstance(self.rows, DocumentKKErrors) else super().row_spans()


def legend() -> list[tuple[str, str]]:
    """(abbreviation, meaning) of each type, for the help."""
    return [(f"{SHORT[kind]}", f"{KK_LABELS[kind]}: {KK_DESCRIPTIONS[kind]}") for kind in KK_TYPES]

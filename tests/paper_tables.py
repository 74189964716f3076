"""Expected scores transcribed from the papers, exactly as printed.

Numbers are kept as the printed strings so that a test can compare to the precision the paper used
(`printed_tolerance`): "73.7" is 73.7 +- 0.05, "100" is 100 +- 0.5, "0.947" is 0.947 +- 0.0005.
Vilain et al. print MUC scores as fractions of link counts ("2/3"); those are compared as counts.
Nothing here is computed: a number that looks wrong must be fixed in the sample files or the engine,
never here.  The sample files these tables score are in samples/ (see samples/README.md).
"""

from __future__ import annotations

from decimal import Decimal

# ---------------------------------------------------------------------------------------------------
# Chen & Ng (2013), "Linguistically Aware Coreference Evaluation Metrics", section 4.3, Table 1:
# "Comparison of the LMetrics(W4) scores and the OMetrics scores", rows (a)-(e) = the system
# responses of Figure 2 for the paragraph of Figure 1 (samples/chen-ng/response-a.conll ...).
# Columns: MUC, LMUC, B3, LB3, CEAFm, LCEAFm, CEAFe, LCEAFe, each R P F, in percent; the L columns
# use W4 = (1.0, 0.75, 0.5, 1.0).  Keys below are the engine's metric names for those columns.
# ---------------------------------------------------------------------------------------------------
CHEN_NG_TABLE1_COLUMNS: tuple[str, ...] = ("muc", "lmuc", "bcub", "lbcub", "ceafm", "lceafm", "ceafe", "lceafe")

_CHEN_NG_TABLE1_ROWS: dict[str, str] = {
    #      MUC              LMUC             B3               LB3              CEAFm            LCEAFm           CEAFe            LCEAFe
    "a": "58.3 100  73.7   50.7 58.6 54.4   64.3 100  78.3   39.2 70.0 50.2   75.0 75.0 75.0   50.7 58.6 54.4   91.1 56.1 69.4   73.8 45.4 56.2",
    "b": "66.7 100  80.0   53.7 64.3 58.5   71.3 100  83.3   43.1 75.0 54.7   80.0 80.0 80.0   53.7 64.3 58.5   91.9 61.3 73.6   74.5 49.7 59.6",
    "c": "66.7 100  80.0   64.2 68.3 66.2   71.3 100  83.3   50.8 75.0 60.6   80.0 80.0 80.0   64.2 68.3 66.2   91.9 61.3 73.6   76.7 51.1 61.4",
    "d": "66.7 100  80.0   74.6 71.4 73.0   71.3 100  83.3   58.6 75.0 65.8   80.0 80.0 80.0   74.6 71.4 73.0   91.9 61.3 73.6   78.4 52.3 62.8",
    "e": "91.7 91.7 91.7   76.1 92.7 83.6   79.0 79.0 79.0   65.0 72.5 68.5   70.0 70.0 70.0   58.2 70.9 63.9   86.5 86.5 86.5   85.8 85.8 85.8",
}


def _split_row(row: str) -> dict[str, tuple[str, str, str]]:
    cells = row.split()
    assert len(cells) == 3 * len(CHEN_NG_TABLE1_COLUMNS), row
    return {m: (cells[3 * i], cells[3 * i + 1], cells[3 * i + 2]) for i, m in enumerate(CHEN_NG_TABLE1_COLUMNS)}


CHEN_NG_TABLE1: dict[str, dict[str, tuple[str, str, str]]] = {
    response: _split_row(row) for response, row in _CHEN_NG_TABLE1_ROWS.items()
}
"""response letter -> metric name -> (R, P, F) as printed, percent."""

# ---------------------------------------------------------------------------------------------------
# Luo (2005), "On Coreference Resolution Performance Metrics", section 3.1, Figure 1 (truth {1-5},
# {6,7}, {8,9,A,B,C}; system responses (a)-(d), samples/luo/response-a.conll ...).
# Table 1: "Comparison of coreference evaluation metrics", F-measures as fractions.  Columns: MUC,
# B-cube, CEAF phi3 (mention-based, "ceafm"), CEAF phi4 (entity-based, "ceafe").  MUC for (d) is
# printed as "–" (no system link, so MUC is undefined): stored as None.
# ---------------------------------------------------------------------------------------------------
LUO_TABLE1_F: dict[str, dict[str, str | None]] = {
    "a": {"muc": "0.947", "bcub": "0.865", "ceafm": "0.833", "ceafe": "0.733"},
    "b": {"muc": "0.947", "bcub": "0.737", "ceafm": "0.583", "ceafe": "0.667"},
    "c": {"muc": "0.900", "bcub": "0.545", "ceafm": "0.417", "ceafe": "0.294"},
    "d": {"muc": None, "bcub": "0.400", "ceafm": "0.250", "ceafe": "0.178"},
}

# Luo (2005), section 3.1, Table 2: "Example of counter-intuitive B-cube recall or precision",
# recall and precision as fractions for responses (c) and (d): B-cube R P, phi3-CEAF R P, phi4-CEAF R P.
LUO_TABLE2_RP: dict[str, dict[str, tuple[str, str]]] = {
    "c": {"bcub": ("1.0", "0.375"), "ceafm": ("0.417", "0.417"), "ceafe": ("0.196", "0.588")},
    "d": {"bcub": ("0.25", "1.0"), "ceafm": ("0.250", "0.250"), "ceafe": ("0.444", "0.111")},
}

# Luo (2005), section 3.1, text beside Table 1: for response (c) "the MUC metric will lead to a 100%
# recall (9 out of 9 reference links are correct) and a 81.2% precision (9 out of 11 system links are
# correct), which gives rise to a 90% F-measure".  9/11 is 81.8%, so "81.2%" is a misprint (the 90%
# F-measure and Table 1's 0.900 agree with 9/11); the link counts are what is stored here.
LUO_RESPONSE_C_MUC_LINKS: tuple[str, str] = ("9/9", "9/11")

# ---------------------------------------------------------------------------------------------------
# Vilain et al. (1995), "A Model-Theoretic Coreference Scoring Scheme".  MUC recall and precision as
# printed: fractions of link counts (correct links / key or response links).
# Table 1: "Recall and precision scores for coreference examples"; one entry per row, in order
# (samples/vilain/table1-rowN.{key,response}.conll): key links, response links, R, P.
# ---------------------------------------------------------------------------------------------------
VILAIN_TABLE1: dict[str, tuple[str, str, str, str]] = {
    "table1-row1": ("A-B B-C C-D", "A-B C-D", "2/3", "2/2"),
    "table1-row2": ("A-B C-D", "A-B B-C C-D", "2/2", "2/3"),
    "table1-row3": ("A-B B-C B-D", "A-B B-C C-D", "3/3", "3/3"),
    "table1-row4": ("A-B B-C B-D", "A-B C-D", "2/3", "2/2"),
    "table1-row5": ("A-B B-C", "A-C", "1/2", "1/1"),
}

# Vilain et al. (1995), section "Examples with more complexity".
# example1: key <B-C C-D D-E E-G G-H H-J>, response <A-B B-C D-E E-F G-H-H-I> (read G-H H-I):
#   "R = (7-4)/(7-1) = 3/6, or 50%", "P = ((3-2)+(3-2)+(3-2))/((3-1)+(3-1)+(3-1)) = 3/6, or 50%".
# example2: key <A-B B-C D-E E-F F-G>, response <A-B C-D F-G G-H>:
#   "R = ((3-2)+(4-3))/((3-1)+(4-1)) = 2/5 or 40%", "P = ((2-1)+(2-2)+(3-2))/((2-1)+(2-1)+(3-1)) = 2/4".
VILAIN_EXAMPLES: dict[str, tuple[str, str, str, str]] = {
    "example1": ("B-C C-D D-E E-G G-H H-J", "A-B B-C D-E E-F G-H H-I", "3/6", "3/6"),
    "example2": ("A-B B-C D-E E-F F-G", "A-B C-D F-G G-H", "2/5", "2/4"),
}


def printed_tolerance(printed: str) -> float:
    """Half a unit in the last printed digit: '73.7' -> 0.05, '100' -> 0.5, '0.947' -> 0.0005."""
    exponent = Decimal(printed).as_tuple().exponent
    assert isinstance(exponent, int)
    return 0.5 * 10.0**exponent


def fraction(printed: str) -> tuple[int, int]:
    """'2/3' -> (2, 3)."""
    num, den = printed.split("/")
    return int(num), int(den)

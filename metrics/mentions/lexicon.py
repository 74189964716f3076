"""Closed English word lists used to type mentions when a file has little or no annotation.

Why lists: pronouns are a closed class, so a list finds them without a tagger; it also catches the
tagger's misses on archaic and dialect forms (LitBank's "thee", "yeh", "'em").  Lower-case keys.
"""

from __future__ import annotations

PERSONAL_PRONOUNS = frozenset(
    """
    i me my mine myself we us our ours ourselves ourself you your yours yourself yourselves
    he him his himself she her hers herself it its itself they them their theirs themselves themself
    oneself
    thou thee thy thine thyself ye yeh yer ya y'all 'em 'ee 't
    """.split()
)
"""Personal, possessive and reflexive pronouns, with archaic and dialect spellings."""

# Indefinite pronouns ("someone", "nothing") are left out on purpose: the Penn Treebank tags them
# NN and LitBank calls them nominals, so the POS rule and the words-only rule agree on NOMINAL.

WH_PRONOUNS = frozenset("who whom whose which what whoever whomever whatever whichever".split())
"""Interrogative and relative pronouns (PTB WP, WP$, and WDT when they stand alone)."""

DEMONSTRATIVES = frozenset("this that these those".split())
"""Pronouns only when they are the whole mention ("this" vs "this book", whose head is "book")."""

LONE_PRONOUNS = WH_PRONOUNS | DEMONSTRATIVES
"""Pronoun words only when they are the whole mention ("this", "which")."""

PRONOUN_TAGS = frozenset({"PRP", "PRP$", "WP", "WP$"})
"""Penn Treebank pronoun tags (Chen & Ng's PRONOUN type)."""

NAME_TAGS = frozenset({"NNP", "NNPS"})

NON_NAME_ENTITIES = frozenset({"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL"})
"""OntoNotes entity labels that mark values, not names: "last week" is a nominal."""

TITLES = frozenset(
    """
    mr mr. mrs mrs. ms ms. miss dr dr. sir madam madame lady lord st st. saint captain capt capt.
    colonel col col. general major lieutenant professor prof prof. rev rev. reverend father mother
    uncle aunt king queen prince princess duke duchess count countess baron baroness
    monsieur mademoiselle herr frau don dona senor senora
    """.split()
)
"""Titles that precede a name; a capitalised head after one is a name even sentence-initially."""

DETERMINERS = frozenset(
    """
    a an this that these those my your his her its our their thy some any no every each all
    another either neither both such what which whose
    """.split()
)
"""Words that open a common noun phrase: "the Doctor", "a Turk", "your Ladyship" are nominals in
LitBank although their heads are capitalised."""

CALENDAR_NAMES = frozenset(
    """
    monday tuesday wednesday thursday friday saturday sunday
    january february march april june july august september october november december
    """.split()
)
"""Day and month names (PTB NNP): names even at the start of a sentence.  "May" is left out: at
the start of a sentence it is more often the verb."""

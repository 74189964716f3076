"""The words road of mention typing as array work (`types_words.types_by_words`, which
`_DocumentTyper.types_of` takes for a document with no tags, parse, heads, named entities or
explicit types: a UA file's) against `_DocumentTyper.type_of`, span by span: every (type, rule)
the same, on Hypothesis-made documents whose words exercise each rule (pronouns, "US", cut words,
trailing marks and reflexives, numbers after capitals, inner capitals, headings in capitals,
titles, calendar names, determiners, opening marks, sentence starts) and on the UA test files'
mentions."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from metrics.mentions.types import OPENING_MARKS, _DocumentTyper
from metrics.mentions.types_words import span_bounds, types_by_words
from metrics.model import Document
from workbench.session import LoadOptions, Session

WORDS = ["she", "She", "he", "US", "us", "it", "this", "which", "the", "The", "a", "Smith", "smith", "NASA", "nasa",
         "IE6", "wikiHow", "CHAPTER", "chapter", "Mr.", "Dr", "Monday", "May", "of", "with", "who", "'s", "’", ",", ".",
         "!", '"', "``", "(", "-", "himself", "II", "2014", "1.5", "World", "War", "museum", "Museum", "Paris", "x", "Some",
         "some", "Every"]


@st.composite
def documents(draw: st.DrawFn) -> tuple[Document, list[tuple[int, int]]]:
    words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=30))
    n = len(words)
    starts = sorted(set(draw(st.lists(st.integers(0, n - 1), max_size=n))))
    spans = [(first, draw(st.integers(first, min(n - 1, first + 6)))) for first in range(n)
             for _ in range(draw(st.integers(0, 2)))]
    return Document("d", words, [], sentence_starts=starts), spans


def assert_same(doc: Document, spans: list[tuple[int, int]]) -> None:
    typer = _DocumentTyper(doc)
    expected = [typer.type_of(span) for span in spans]
    assert types_by_words(span_bounds(spans), typer._coded, typer._initial_flags, typer._cap_stats) == expected
    assert _DocumentTyper(doc).types_of(spans) == expected  # the road `types_of` takes


@settings(max_examples=400, deadline=None)
@given(documents())
# a title before a head that opens the span (outside it: no name by the title), and a capitalised
# determiner as the whole span (no determiner before its head)
@example((Document("d", ["Dr", "Smith", "smith", "."], [], sentence_starts=[0, 1]), [(1, 1), (0, 1)]))
@example((Document("d", ["x", "Some", "x", "Some"], [], sentence_starts=[0]), [(1, 1), (1, 2)]))
def test_made_documents_are_typed_as_span_by_span(made):
    assert_same(*made)


def test_the_ua_files_mentions_are_typed_as_span_by_span():
    data = Path(__file__).resolve().parent / "data" / "ua"
    for name in ("codi/persuasion", "split", "bridging"):
        session = Session.load(str(data / f"{name}.key"), [str(data / f"{name}.response")], LoadOptions(conventions="ua"))
        for pair in session.corpora[0].pairs:
            spans = list(pair.alignment.spans)
            assert spans
            assert_same(pair.key, spans)


def reference_initial_flags(words: list[str], sentence_starts: list[int]) -> list[bool]:
    """`_initial_flags` as the token loop it was."""
    n = len(words)
    initial = [False] * n
    for s in sentence_starts or [0]:
        if 0 <= s < n:
            initial[s] = True
    for t in range(1, n):
        if words[t - 1] in OPENING_MARKS or (initial[t - 1] and not words[t - 1][:1].isalnum()):
            initial[t] = True
        elif words[t - 1] in {".", "!", "?"}:
            initial[t] = True
    if n:
        initial[0] = True
    return initial


def reference_cap_stats(words: list[str], initial: list[bool]) -> tuple[Counter, Counter]:
    """`_cap_stats` as the token loop it was."""
    cap_mid: Counter = Counter()
    lower: Counter = Counter()
    for t, w in enumerate(words):
        if w.islower():
            lower[w] += 1
        elif w[:1].isupper() and not initial[t] and not (w.isupper() and len(w) > 1):
            cap_mid[w.lower()] += 1
    return cap_mid, lower


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from([*WORDS, "", "‘", "—", ":", "?"]), max_size=30), st.lists(st.integers(-2, 32), max_size=6))
def test_the_typers_capitalisation_counts_are_the_token_loops(words, sentence_starts):
    typer = _DocumentTyper(Document("d", words, [], sentence_starts=sentence_starts))
    expected = reference_initial_flags(words, sentence_starts)
    assert typer._initial_flags().tolist() == expected
    assert typer._cap_stats() == reference_cap_stats(words, expected)

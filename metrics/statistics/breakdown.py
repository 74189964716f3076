"""Where a score comes from: by group of documents, by key chain length, by mention type.

Three kinds of breakdown, defined so that the parts add up to the whole:
- Documents grouped (by genre, by source file, or by a table): each group's scores are the engine's
  own corpus scores of its documents, micro (counts summed, the official way) and macro (mean of
  document values).  The groups partition the documents, so their micro counts sum to the corpus'.
- Key chains by length (1, 2-3, 4-9, 10+ mentions): the recall of MUC, B3, LEA and mention
  detection.  Each of these recalls is a sum of one term per key chain over a sum of one term per
  key chain (a chain's term depends on its own row of the contingency table), so a bucket's recall
  is its chains' terms over their own, computed by scoring the key restricted to the bucket.  The
  numerators and denominators of the buckets sum to the corpus'.  Precision has no share per key
  chain, so none is given.  Not official metrics.
- Mention types (NAME, NOMINAL, PRONOUN, by the engine's typing rules): for mention detection,
  recall = key mentions of type T found / key mentions of type T, precision = response mentions of
  type T in the key / response mentions of type T; for linking, recall = anaphoric key mentions of
  type T (not first in their key chain) whose response chain has an earlier mention of their key
  chain / anaphoric key mentions of type T, precision = response anaphors of type T (not first in
  their response chain) with such an antecedent / response anaphors of type T.  Not official
  metrics.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from metrics.model import InputError, MentionType
from metrics.mentions.pairing import source_file
from metrics.measures.score import Score
from metrics.measures.catalog import BCUB, LEA, MENTIONS, MUC
from metrics.corpus.scoring import CorpusResult, PreparedCorpus, aggregate, prepare_pair

GENRE_PATTERN = r"^(?:([a-z]{2})/|[A-Za-z]+_([A-Za-z]+)_)"
"""The genre in a document's name: OntoNotes' `bc/cnn/00/cnn_0001` gives bc, GUM's `GUM_news_xyz`
gives news.  A pattern of one's own may name its group `genre`; else its first matching group."""
OTHER = "(other)"
"""The group of documents a pattern does not match or a table does not list."""
LENGTHS: tuple[tuple[int, int | None], ...] = ((1, 1), (2, 3), (4, 9), (10, None))
LENGTH_METRICS = tuple(m.name for m in (MENTIONS, MUC, BCUB, LEA))
"""The metrics whose recall the chain-length breakdown shows (v8.01's, over the chains kept)."""


def length_label(low: int, high: int | None) -> str:
    return f"{low}+" if high is None else (str(low) if low == high else f"{low}-{high}")


# ---------------------------------------------------------------------------- document groups


def genre_of(pattern: str) -> Callable[[str], str]:
    """A document name -> its genre by the pattern (searched in the short name and the full one)."""
    try:
        regex = re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"not a regular expression: {exc}") from None

    def genre(name: str) -> str:
        for text in (source_file(name), name):
            m = regex.search(text)
            if m:
                if "genre" in regex.groupindex and m.group("genre"):
                    return m.group("genre")
                found = next((g for g in m.groups() if g), None)
                return found or m.group(0)
        return OTHER

    return genre


def read_groups(path: str, column: str | None = None) -> Callable[[str], str]:
    """A TSV of document and group (lines starting with # skipped).  A header row (first cell
    `doc` or `document`) names the columns, and `column` picks one; else the second column.  A
    document listed twice is refused at its second line: which group it takes would otherwise be
    the last one's, without a word (a CoNLL file given for the table lists its name on every
    token line)."""
    from metrics.formats.source import read_text

    rows = [(number, line.split("\t")) for number, line in enumerate(read_text(path).splitlines(), start=1)
            if line.strip() and not line.startswith("#")]
    at = 1
    if rows and rows[0][1][0].strip().lower() in ("doc", "document"):
        number, cells = rows.pop(0)
        header = [cell.strip() for cell in cells]
        if column is not None:
            if column not in header:
                raise InputError(path, number, f"no column {column!r} (columns: {', '.join(header)})")
            at = header.index(column)
    elif column is not None:
        raise InputError(path, 1, "a column is named, but the table has no header row (first cell doc or document)")
    table: dict[str, str] = {}
    listed_on: dict[str, int] = {}
    for number, row in rows:
        if len(row) <= at:
            raise InputError(path, number, f"a row has {len(row)} columns, fewer than {at + 1}: {row[0]!r}")
        document = row[0].strip()
        if document in listed_on:
            raise InputError(path, number, f"document {document!r} is listed twice (also on line {listed_on[document]})")
        listed_on[document] = number
        table[document] = row[at].strip()

    def group(name: str) -> str:
        return table.get(name, table.get(source_file(name), OTHER))

    return group


@dataclass(frozen=True)
class Group:
    name: str
    documents: list[str]
    result: CorpusResult
    """The engine's micro and macro scores of the group's documents."""


def group_documents(result: CorpusResult, group_of: Callable[[str], str]) -> list[Group]:
    """The result's documents grouped (groups sorted by name, the leftover group last)."""
    members: dict[str, list[int]] = {}
    for i, (name, _) in enumerate(result.documents):
        members.setdefault(group_of(name), []).append(i)
    order = sorted(members, key=lambda g: (g == OTHER, g))
    return [Group(g, [result.documents[i][0] for i in members[g]],
                  aggregate([result.documents[i] for i in members[g]], result.weights, result.metrics))
            for g in order]


def by_file(name: str) -> str:
    """The group of a document when grouping by source file: its name without the part."""
    return source_file(name)


# ---------------------------------------------------------------------------- chain length


@dataclass(frozen=True)
class LengthBucket:
    label: str
    chains: int
    mentions: int
    recall: dict[str, Score]
    """Recall counts (recall_num, recall_den) per metric; precision counts are 0."""


def length_breakdown(corpus: PreparedCorpus, lengths: Sequence[tuple[int, int | None]] = LENGTHS) -> list[LengthBucket]:
    """Recall of MUC, B3, LEA and mention detection per key chain length bucket (see the module)."""
    buckets = []
    for low, high in lengths:
        chains = mentions = 0
        totals = {m: Score(0, 0, 0, 0) for m in LENGTH_METRICS}
        for pair in corpus.pairs:
            kept = [i for i, chain in enumerate(pair.key.chains)
                    if low <= len(set(chain)) and (high is None or len(set(chain)) <= high)]
            if not kept:
                continue
            chains += len(kept)
            mentions += sum(len(set(pair.key.chains[i])) for i in kept)
            part = prepare_pair(pair.key.keeping_chains(kept), pair.response)
            for m in LENGTH_METRICS:
                s = part.score(m)
                totals[m] = totals[m] + Score(s.recall_num, s.recall_den, 0, 0)
        buckets.append(LengthBucket(length_label(low, high), chains, mentions, totals))
    return buckets


# ---------------------------------------------------------------------------- mention types


@dataclass(frozen=True)
class TypeRow:
    type: MentionType
    detection: Score
    linking: Score


def type_breakdown(corpus: PreparedCorpus) -> list[TypeRow]:
    """Mention detection and linking recall and precision per mention type (see the module)."""
    detection = {t: [0, 0, 0, 0] for t in MentionType}
    linking = {t: [0, 0, 0, 0] for t in MentionType}
    for pair in corpus.pairs:
        types = pair.types
        kv, rv = pair.key_view, pair.response_view
        linked = _linked(kv, rv)
        # the key's mentions give the recall counts (slots 0, 1), the response's the precision ones (2, 3)
        for side, other, at in ((kv, rv, 0), (rv, kv, 2)):
            for chain in side.chains:
                for i, span in enumerate(chain):
                    t = types[span]
                    detection[t][at + 1] += 1
                    detection[t][at] += span in other.chain_of
                    if i:
                        linking[t][at + 1] += 1
                        linking[t][at] += span in linked
    # ZERO only where zeros are (CorefUD's empty nodes): a CoNLL-2012 corpus has none to report
    shown = [t for t in MentionType if t is not MentionType.ZERO or detection[t][1] or detection[t][3]]
    return [TypeRow(t, Score(*detection[t]), Score(*linking[t])) for t in shown]


def _linked(key, response) -> set:
    """Spans whose response chain holds an earlier mention of their key chain (one pass per chain)."""
    out = set()
    for chain in response.chains:
        seen: set[int] = set()
        for span in chain:
            k = key.chain_of.get(span)
            if k is not None:
                if k in seen:
                    out.add(span)
                seen.add(k)
    return out

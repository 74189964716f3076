"""The Universal Anaphora conventions: the UA scorer 2.0's.

Reading: UA files (CoNLL-U Plus with the IDENTITY, BRIDGING and DISCOURSE_DEIXIS columns) as UA
markables (`metrics.formats.ua`).  Documents pair by name; key and response must hold the same
documents with the same words, as the UA scorer requires.  Each document's scored layer (identity,
or discourse deixis) is clustered, its singletons, split antecedents and zeros kept or removed as
the options say, and aligned as the UA scorer aligns it (`metrics.mentions.ua_align`).  Every metric
the UA scorer computes comes from the pair's UA scores (`Scorer.UA` in the catalogue,
`metrics.corpus.ua.UAPair`); corpus scores are the documents' counts summed in the key's order, as
the UA scorer sums them.  Token spans (the error analyses of v8.01's mentions, the workbench) are
made when first asked for (`metrics.corpus.ua_spans`), whatever `Options.spans` says: scoring
never asks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from metrics.conventions.base import Convention, Loaded, Progress, Read
from metrics.conventions.options import UA, Options
from metrics.corpus.scoring import PreparedCorpus
from metrics.corpus.ua import (BRIDGING, ORDER, Settings, bridging_warnings, count_over_columns, layers_read,
                               pair_documents, score_document, ua_pair)
from metrics.formats.cache import ReadCache
from metrics.formats.source import check_document_sizes
from metrics.formats.ua import LAYERS, moved_columns, read_ua, ua_in_cache
from metrics.measures.catalog import Metric, Scorer
from metrics.mentions.ua import UADocument
from metrics.runtime.gc_pause import gc_paused

__all__ = ["BRIDGING", "MATCHES", "UA_CONVENTIONS", "UniversalAnaphora", "settings_of"]

MATCHES = ("exact", "partial", "partial-craft", "head")
"""The UA scorer's mention matchings (its `-a`; partial is its partial-corefud)."""


def settings_of(options: Options) -> Settings:
    """The UA scorer's options of the road's options (completed as the UA scorer completes them)."""
    return Settings(options.match, options.keep_singletons, options.split_antecedents, options.only_split_antecedents,
                    options.discourse_deixis, options.zero_match == "linear",
                    tuple(m.name for m in BRIDGING) if options.bridging else ()).completed()


def _layers(options: Options) -> tuple[str, ...]:
    """The columns read: every one, or with `ua_scores_only` those the scores read."""
    return layers_read(settings_of(options)) if options.ua_scores_only else LAYERS


@dataclass(frozen=True)
class UniversalAnaphora:
    """The UA scorer's conventions (`Convention`)."""

    name: str = UA
    scorer: Scorer = Scorer.UA
    official: tuple[Metric, ...] = ORDER
    """The UA scorer's metrics, in the order it prints them (CoNLL after LEA)."""
    scores: tuple[Metric, ...] = ORDER
    """The UA scorer's metrics alone: every front end lists these and no other (the identity chains'
    LMetrics, Tuggener's, CEAF-φ and the ACE-value are no UA score; the error analyses still read
    the chains, docs/ua.md)."""

    def read(self, path: str, key: bool, options: Options, cache: ReadCache | None, processes: int) -> Read:
        """Every document of one UA file, as UA markables (through the cache of read files), with
        what it holds that the UA scorer reads in a defined but surprising way (`read_notes`)."""
        layers = _layers(options)
        documents = read_ua(path, cache, layers)
        check_document_sizes(documents)
        return Read(ua=tuple(documents), notes=tuple(read_notes(path, documents, layers, options.match,
                                                                                 options.split_antecedents)))

    def cached(self, path: str, options: Options, cache: ReadCache | None) -> bool:
        return ua_in_cache(path, cache, _layers(options))

    def prepare(self, key: Read, responses: Sequence[tuple[str, Callable[[], Read]]], key_path: str,
                options: Options, progress: Progress) -> Loaded:
        """Each response paired with the key by document name, each pair's layer clustered and
        aligned as the UA scorer does (a key alone: with itself)."""
        settings = settings_of(options)
        warnings: list[str] = []
        total, done = len(key.ua) * max(1, len(responses)), 0
        corpora = []
        for number, (path, get) in enumerate(responses or [(key_path, lambda: key)], start=1):
            if responses:
                progress.reading(number, len(responses))
            response = get()
            progress.stage("aligning mentions")
            skipped: list[str] = []
            documents = []
            with gc_paused():  # many small objects, no cycle
                for key_doc, response_doc in pair_documents(key.ua, response.ua, key_path, path):
                    documents.append(score_document(key_doc, response_doc, settings, skipped))
                    done += 1
                    progress.document(done, total)
                count_over_columns(documents, settings)
                pairs = [ua_pair(document, settings) for document in documents]
            # the key's notes once; a response that is the key's file says nothing new
            notes = [*(key.notes if number == 1 else ()), *(response.notes if responses and path != key_path else ())]
            corpus_warnings = [*notes, *bridging_warnings(skipped)]
            warnings.extend(corpus_warnings)
            corpora.append(PreparedCorpus(pairs, corpus_warnings))
        return Loaded(tuple(corpora), tuple(warnings))


MIN_READERS = ("partial", "head")
"""The matchings that read a key markable's Min (partial-craft takes its first part instead)."""


def read_notes(path: str, documents: Sequence[UADocument], layers: Sequence[str], match: str,
               split_antecedents: bool) -> list[str]:
    """What a UA file holds that the UA scorer reads in a defined way we follow, said once per file
    (docs/ua.md, the format): a non-referring entity of several markables (only its first counts);
    an anaphor with several bridging links (only its last counts); a bridging link from a markable
    to itself (scored as given: an export that copied the anaphor's id);
    with split antecedents scored, an ElementOf naming no entity of its
    layer in the document (it then makes no split antecedent: ignored); where the matching reads
    Min, markables whose Min lies outside their own words (they can then be matched only exactly;
    the released LIGHT files have thousands); a header placing an annotation column elsewhere than
    the UA scorer reads it (we read where it says: `moved_columns`)."""
    notes = []
    dangling: list[tuple[int, str]] = []
    outside: list[tuple[int, str]] = []  # each document's first, and how many in all
    outside_count = 0
    shared: list[tuple[int, str, str]] = []  # a second markable of a non-referring entity, and its document
    relinked: list[tuple[int, str]] = []  # a second bridging link of an anaphor
    to_itself: list[tuple[int, str]] = []  # a link whose anchor is its own anaphor
    for doc in documents:
        if "bridging" in layers:
            linked: set[str] = set()
            for link in doc.bridging:
                if link.anaphor in linked:
                    relinked.append((link.line, link.anaphor))
                if link.anchor == link.anaphor:
                    to_itself.append((link.line, link.anaphor))
                linked.add(link.anaphor)
        for deixis, layer in ((False, "identity"), (True, "deixis")):
            if layer not in layers:
                continue
            table = doc.layer_table(deixis)
            seen: set[str] = set()
            for row, entity in enumerate(table.entities):
                if entity.endswith("-Pseudo"):
                    if entity in seen:
                        shared.append((int(table.lines[row]), entity, doc.name))
                    seen.add(entity)
            if split_antecedents and table.element_of:
                entities = set(table.entities)
                dangling.extend((int(table.lines[row]), f"ElementOf={','.join(plurals)}")
                                for row, plurals in sorted(table.element_of.items())
                                if any(p not in entities for p in plurals))
            if match in MIN_READERS and len(table):
                has = table.min_starts >= 0
                out = np.flatnonzero(has & ((table.min_starts < table.starts) | (table.min_ends > table.ends))
                                     & (table.starts >= 0))
                if table.irregular:  # one part only: its words are starts to ends
                    out = out[~np.isin(out, list(table.irregular))]
                if len(out):
                    row = int(out[np.argmin(table.lines[out])])
                    outside.append((int(table.lines[row]), f"markable {table.ids[row]}"))
                    outside_count += len(out)
    if dangling:
        line, text = min(dangling)
        notes.append(f"{path}: {len(dangling)} ElementOf attribute(s) name a plural entity the document does not have; "
                     f"those split antecedents are ignored, as the UA scorer ignores them (first: line {line}, {text})")
    if shared:
        line, entity, _ = min(shared)
        count = len({(document, name) for _, name, document in shared})
        notes.append(f"{path}: {count} non-referring {'entity holds' if count == 1 else 'entities hold'} more than "
                     f"one markable; the UA scorer counts the first markable of each alone as non-referring, and so "
                     f"do we: give each its own EntityID (first: line {line}, a second markable of {entity})")
    if relinked:
        line, anaphor = min(relinked)
        notes.append(f"{path}: {len(relinked)} anaphor(s) with more than one bridging link; the UA scorer keeps the "
                     f"last link of each, and so do we (first: line {line}, markable {anaphor})")
    if to_itself:
        line, anaphor = min(to_itself)
        notes.append(f"{path}: {len(to_itself)} bridging link(s) from a markable to itself (MentionAnchor its own "
                     f"MarkableID); the UA scorer scores each as given, and so do we (first: line {line}, "
                     f"markable {anaphor})")
    moved = moved_columns(path, tuple(layers))
    if moved:
        notes.append(f"{path}: global.columns places {moved}; we read the columns it names, so the UA "
                     f"scorer's score of this file can differ")
    if outside:
        line, text = min(outside)
        notes.append(f"{path}: {outside_count} markable(s) have a Min outside their own words; --match {match} can "
                     f"match them only exactly, as the UA scorer does (first: line {line}, {text})")
    return notes


UA_CONVENTIONS: Convention = UniversalAnaphora()

"""The CorefUD conventions: CRAC's corefud-scorer's.

Reading: CoNLL-U as node mentions (`metrics.formats.corefud`), zeros (empty nodes) and
discontinuous mentions included; with the spans wanted, the key also as token spans, whose POS,
lemmas and trees type the mentions.  Documents pair by name (`# newdoc id`), in the key's order;
key and response must have the same words (the official scorer checks the same and stops
otherwise).  Singletons are removed unless kept (`-s`); mentions are aligned by head, partially or
exactly, zeros by their dependencies or position (`metrics.mentions.corefud`), clusters in the
scorer's order.  The metrics corefud-scorer computes come from the aligned node mentions
(`Scorer.COREFUD` in the catalogue); corpus scores are the documents' counts summed in the key's
order, as the official scorer sums them.  The others (the LMetrics, the application metrics...)
come from the pairs as token spans (`projection`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from metrics.conventions.base import Convention, Loaded, Progress, Read, shared
from metrics.conventions.options import COREFUD, Options
from metrics.formats.cache import ReadCache
from metrics.formats.corefud import read_corefud
from metrics.formats.detection import CRAC_FORMATS
from metrics.formats.readers import UA_ELSEWHERE, node_format, read_documents, read_node_documents, read_node_key
from metrics.measures.catalog import BCUB, BLANC, CEAFE, CEAFM, LEA, MOR, MUC, ZERO, Metric, Scorer
from metrics.conventions.nodes import Settings
from metrics.conventions.projection import prepare_nodes
from metrics.mentions.types import prepare_types
from metrics.model import InputError

__all__ = ["COREFUD_CONVENTIONS", "Corefud", "Settings"]


@dataclass(frozen=True)
class Corefud:
    """corefud-scorer's conventions (`Convention`)."""

    name: str = COREFUD
    scorer: Scorer = Scorer.COREFUD
    official: tuple[Metric, ...] = (MUC, BCUB, CEAFE, CEAFM, LEA, BLANC, MOR, ZERO)
    """corefud-scorer's metrics (its `-m all` for CorefUD), in its order."""

    @property
    def scores(self) -> tuple[Metric, ...]:
        """The catalogue's metrics of every convention: corefud-scorer's computation where it has
        one, the others over the pairs as token spans (its own MOR and zero: `official`)."""
        return shared()

    def read(self, path: str, key: bool, options: Options, cache: ReadCache | None, processes: int) -> Read:
        """Node mentions (a key through the cache: a report reads the same keys run after run);
        the key also as token spans when the spans are wanted (its reader's notes on zeros and
        discontinuous mentions do not apply here), both views from one reading of the key.  A CRAC
        LLM-track response is left to `prepare`, which lays it onto the key."""
        notes: list[str] = []
        fmt = node_format(path, options.response_format if not key else options.key_format)
        if fmt == "ua":  # its columns are not CoNLL-U's: say what it is, not that a line has 15 columns
            raise InputError(path, None, UA_ELSEWHERE)
        if not key:
            if fmt in CRAC_FORMATS:
                return Read(onto_key=fmt)
            return Read(nodes=tuple(read_corefud(path, notes)), notes=tuple(notes))
        if not options.spans:
            return Read(nodes=tuple(read_node_documents(path, cache, notes)), notes=tuple(notes))
        typed = partial(prepare_types, processes=processes)
        if fmt == "conllu":
            try:
                documents, nodes = read_node_key(path, cache, notes, prepare=typed)
            except InputError:
                # The spans' reader refused it: the nodes' fault, where they have one, is said instead,
                # as `score` (which reads the nodes alone) says it; a file with two faults (a mention
                # crossing a sentence, a HEAD outside it) got one refusal from `score`, another here.
                read_corefud(path, [])
                raise
            return Read(documents=tuple(documents), nodes=tuple(nodes), notes=tuple(notes))
        # a key in another format: read as it is, then refused by the node reader, as corefud-scorer refuses it
        documents = read_documents(path, options.key_format, [], options.clusters_field, cache=cache, prepare=typed)
        return Read(documents=tuple(documents), nodes=tuple(read_node_documents(path, cache, notes)), notes=tuple(notes))

    def cached(self, path: str, options: Options, cache: ReadCache | None) -> bool:
        return False  # a response is read afresh: it changes from run to run

    def prepare(self, key: Read, responses: Sequence[tuple[str, Callable[[], Read]]], key_path: str,
                options: Options, progress: Progress) -> Loaded:
        """Each response aligned to the key as corefud-scorer aligns it (a key alone: with itself)."""
        warnings = [*key.notes, *key.cache_notes]
        total, done = len(key.nodes) * max(1, len(responses)), [0]

        def prepared() -> None:
            done[0] += 1
            progress.document(done[0], total)

        corpora = []
        for number, (path, get) in enumerate(responses or [(key_path, lambda: key)], start=1):
            if responses:
                progress.reading(number, len(responses))
            response = get()
            nodes, repairs = response.nodes, None
            if response.onto_key is not None:  # the CRAC LLM track's output, laid onto the key
                from metrics.formats.crac_text import read_crac

                read_nodes, repairs = read_crac(path, response.onto_key, key_path, list(key.nodes), options.crac_zeros)
                nodes = tuple(read_nodes)
                warnings.extend(repairs.warnings())
            elif options.crac_zeros != "free" and responses:
                warnings.append(f"{path}: --crac-zeros {options.crac_zeros} has no effect: this response is not a "
                                "CRAC LLM-track output (crac-text, crac-json)")
            warnings.extend(response.notes)
            progress.stage("aligning mentions")
            corpus = prepare_nodes(key.nodes, nodes, key_path=key_path, response_path=path,
                                   settings=Settings.of(options), base_keys=key.documents, ace=options.ace,
                                   spans=options.spans, repairs=repairs, on_document=prepared)
            warnings.extend(corpus.warnings)
            corpora.append(corpus)
        return Loaded(tuple(corpora), tuple(warnings))


COREFUD_CONVENTIONS: Convention = Corefud()

"""A corpus scored under the CorefUD conventions: what corefud-scorer prints, per metric.

Documents pair by name (`# newdoc id`), in the key's order; key and response must have the same
words (the official scorer checks the same and stops otherwise).  Each document is reduced to
clusters, aligned (`metrics.mentions.corefud`) and scored (`metrics.measures.corefud`); corpus
scores are the documents' counts summed in the key's order, as the official scorer sums them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from metrics.measures.catalog import BCUB, BLANC, CEAFE, CEAFM, CONLL, LEA, MOR, MUC, ZERO, Metric, Scorer
from metrics.measures.score import AnyScore, total
from metrics.measures.weights import W4
from metrics.mentions.corefud import AlignedDocument, ZeroWithoutDependencies, align, clusters
from metrics.model import InputError, NodeDocument


@dataclass(frozen=True)
class Settings:
    """corefud-scorer's options: `-a` match, `-s` keep singletons, `-z` zero match method."""

    match: str = "head"
    keep_singletons: bool = False
    zero_match: str = "dependency"

    def fields(self) -> dict[str, str]:
        """The settings as every JSON output names them."""
        return {"conventions": "corefud", "match": self.match,
                "singletons": "keep" if self.keep_singletons else "remove", "zero_match": self.zero_match}

    def describe(self) -> str:
        """The settings as every text output's header names them."""
        return (f"conventions corefud, {self.match} match, singletons "
                f"{'kept' if self.keep_singletons else 'removed'}, zeros aligned by "
                f"{'dependencies' if self.zero_match == 'dependency' else 'position'}")


@dataclass
class CorefudResult:
    """Corpus scores (`micro`, with `conll` the mean of MUC, B3, CEAFe F1) and each document's."""

    settings: Settings
    micro: dict[str, AnyScore]
    documents: list[tuple[str, dict[str, AnyScore]]] = field(default_factory=list)


OFFICIAL: tuple[Metric, ...] = (MUC, BCUB, CEAFE, CEAFM, LEA, BLANC, MOR, ZERO)
"""corefud-scorer's metrics (its `-m all` for CorefUD), in its order."""


@dataclass(frozen=True)
class _Aligned:
    """One aligned document, as the catalogue's CorefUD computations read it."""

    aligned: AlignedDocument


Aligned = tuple[NodeDocument, NodeDocument, AlignedDocument]
"""A key document, its response twin, and the two aligned."""


def aligned_documents(keys: Sequence[NodeDocument], responses: Sequence[NodeDocument],
                      key_path: str, response_path: str, settings: Settings) -> list[Aligned]:
    """Each key document with its response twin, aligned; a missing twin or differing words is an
    input error naming the response file and line."""
    by_name = {d.name: d for d in responses}
    out = []
    for key in keys:
        response = by_name.get(key.name)
        if response is None:
            raise InputError(response_path, None, f"no document {key.name!r} (the key {key_path} has it)")
        for (node, form), (other, other_form) in zip(key.forms, response.forms):
            if node != other or form != other_form:
                raise InputError(response_path, response.line_of.get(other),
                                 f"word {other_form!r} where the key has {form!r} ({key_path}:{key.line_of.get(node)})")
        if len(key.forms) != len(response.forms):
            raise InputError(response_path, None, f"document {key.name!r} has {len(response.forms)} words, the key's {len(key.forms)}")
        try:
            out.append((key, response, align(key.name, clusters(key, settings.match, settings.keep_singletons),
                                             clusters(response, settings.match, settings.keep_singletons),
                                             settings.match, settings.zero_match)))
        except ZeroWithoutDependencies as error:
            path, doc = (key_path, key) if error.side == "key" else (response_path, response)
            raise InputError(path, doc.line_of.get(error.node),
                             "a zero without enhanced dependencies (DEPS is _) cannot be aligned by them: "
                             "give DEPS, or align zeros by position (--zero-match linear)") from None
    return out


def score_corpus(keys: Sequence[NodeDocument], responses: Sequence[NodeDocument], key_path: str,
                 response_path: str, settings: Settings = Settings(),
                 metrics: Sequence[Metric] = OFFICIAL) -> CorefudResult:
    documents = []
    for _, _, doc in aligned_documents(keys, responses, key_path, response_path, settings):
        pair = _Aligned(doc)
        documents.append((doc.name, {m.name: m.computation(Scorer.COREFUD)(pair, W4) for m in metrics}))  # type: ignore[arg-type]
    micro: dict[str, AnyScore] = {m.name: total(scores[m.name] for _, scores in documents) for m in metrics}
    if all(part in micro for part in CONLL.parts):
        micro[CONLL.name] = CONLL.combine(micro)
    return CorefudResult(settings, micro, documents)

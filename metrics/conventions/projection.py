"""CorefUD documents seen through the engine's token-span model: every command under `--conventions corefud`.

Why a projection and not a second engine: error records, their prices, breakdowns, the LMetrics,
Tuggener's metrics and the workbench all read `Document`s of token spans and `DocPair`s.  Under the
CorefUD conventions mentions are node sets, aligned by corefud-scorer's rules
(`metrics.mentions.corefud`).  Once aligned they can be written as token spans:

- The tokens are the document's words and the empty nodes any mention covers, in text order; an
  empty node's word is `∅`.  A zero is then a one-token mention of type ZERO.
- A mention is the span from its first node to its last.  A discontinuous one keeps its pieces
  (`Document.pieces`), so the text shows each piece bracketed.
- A response mention aligned to a key mention (head or partial match, zeros by dependencies) is
  written with its partner's span: aligned means equal to the span engine.

The pair keeps its `AlignedDocument` (`DocPair.aligned`), and the metrics corefud-scorer computes
(MUC, B3, CEAFe, CEAFm, LEA, BLANC) are taken from it, so every screen shows the official
scorer's numbers.  What a span cannot say: two different mentions that become one span (the same
nodes with different heads under head match; a discontinuous mention and the contiguous one with
its ends), of one side or an unaligned pair of key and response, are one mention to the error
analysis, and the prices of errors in such a document may then differ slightly from rescoring; a
warning counts them.  Scores never do: they come from the aligned nodes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from metrics.conventions.nodes import Settings, aligned_documents
from metrics.formats.crac_repairs import CracReport
from metrics.corpus.scoring import DocPair, PreparedCorpus, Spans, prepare_pair
from metrics.measures.ace import AceOptions
from metrics.mentions.corefud import AlignedDocument
from metrics.model import Document, MentionType, Node, NodeDocument, NodeMention, Span

ZERO_WORD = "∅"
"""The word an empty node shows (its form in CorefUD is mostly `_`)."""


def prepare_nodes(keys: Sequence[NodeDocument], responses: Sequence[NodeDocument], *, key_path: str,
                  response_path: str, settings: Settings, base_keys: Sequence[Document] = (),
                  ace: AceOptions = AceOptions(), spans: bool = True, repairs: CracReport | None = None,
                  on_document: Callable[[], None] | None = None) -> PreparedCorpus:
    """The prepared corpus of a CoNLL-U key and response under the CorefUD conventions.

    `base_keys` are the key's documents as the span reader reads them (`formats/conllu.py`): their
    POS, lemmas, dependency heads and named entities type the mentions.  Pairs come in the key's
    order; a response without a key document's twin, or with other words, is an `InputError`.
    Without `spans` (scores alone) a pair's token spans are made only if something asks for them,
    and the mentions that share a span go uncounted."""
    by_name = {doc.name: doc for doc in base_keys}
    repaired = {d.name: d.repaired for d in repairs.documents} if repairs is not None else {}
    pairs, warnings, shared = [], [], 0
    aligned_pairs = aligned_documents(keys, responses, key_path, response_path, settings, warnings=warnings)
    for key, response, aligned in aligned_pairs:
        if spans:
            key_doc, response_doc, merged = project(by_name.get(key.name), key, aligned, key_path, response_path,
                                                    repaired=repaired.get(key.name))
            shared += merged
            pairs.append(prepare_pair(key_doc, response_doc, None, ace, aligned))
        else:
            pairs.append(DocPair(key.name, _later(key, aligned, key_path, response_path), ace=ace, aligned=aligned,
                                 size=2 * len(key.forms)))
        if on_document is not None:
            on_document()
    if shared:
        warnings.append(f"{response_path}: {shared:,} mention(s) have the first and last node of a mention they are not "
                        "(the same nodes with another head, or a discontinuous mention): the error analysis sees them "
                        "as one mention; the scores count them apart, as corefud-scorer does")
    return PreparedCorpus(pairs, warnings, repairs=repairs)


def _later(key: NodeDocument, aligned: AlignedDocument, key_path: str, response_path: str) -> Callable[[], Spans]:
    """A pair's token spans, made when first asked for (without the span reader's annotations)."""
    def make() -> Spans:
        key_doc, response_doc, _ = project(None, key, aligned, key_path, response_path)
        return prepare_pair(key_doc, response_doc).spans

    return make


def project(base: Document | None, key: NodeDocument, aligned: AlignedDocument, key_path: str,
            response_path: str, *, repaired: Mapping[tuple[Node, ...], str] | None = None
            ) -> tuple[Document, Document, int]:
    """One aligned document as a key and a response `Document` over the same tokens, and how many
    mentions had to share a span with another of their side.  `repaired`: the response's mentions
    a reader repaired (by their nodes), kept on the response as `Document.repaired` by span."""
    forms = dict(key.forms)
    sides = (aligned.key_mentions, aligned.response_mentions)
    empties = {node for side in sides for cluster in side for m in cluster for node in m.nodes if node[2]}
    nodes = sorted(forms.keys() | empties)
    index = {node: i for i, node in enumerate(nodes)}
    words = [forms.get(node, ZERO_WORD) for node in nodes]  # empty nodes have no form there
    lines = _token_lines(nodes, key)

    pieces: list[dict[Span, tuple[Span, ...]]] = [{}, {}]
    zeros: dict[Span, MentionType] = {}
    shared = 0

    def span_of(m: NodeMention, side: int) -> Span:
        at = [index[n] for n in m.nodes]
        span = (at[0], at[-1])
        if at[-1] - at[0] + 1 != len(at):
            pieces[side][span] = _runs(at)
        if m.zero:
            zeros[span] = MentionType.ZERO
        return span

    key_span: dict[int, Span] = {}
    key_chains = []
    for ids, cluster in zip(aligned.key, aligned.key_mentions):
        chain = []
        for mention_id, m in zip(ids, cluster):
            span = key_span.setdefault(mention_id, span_of(m, 0))
            chain.append(span)
        key_chains.append(chain)
    shared += len(key_span) - len(set(key_span.values()))

    response_chains = []
    notes: dict[Span, str] = {}
    own: dict[int, Span] = {}
    key_spans = set(key_span.values())
    for ids, cluster in zip(aligned.response, aligned.response_mentions):
        chain = []
        for mention_id, m in zip(ids, cluster):
            span = key_span.get(mention_id) or key_span.get(aligned.partner.get(mention_id, -1))
            if span is None:
                if mention_id not in own:
                    own[mention_id] = span_of(m, 1)
                    shared += own[mention_id] in key_spans  # unaligned, yet the same span as a key mention
                span = own[mention_id]
            else:
                own.setdefault(mention_id, span)
                if span in pieces[0]:
                    pieces[1][span] = pieces[0][span]
            chain.append(span)
            if repaired and m.nodes in repaired:
                notes[span] = repaired[m.nodes]
        response_chains.append(chain)
    shared += len(own) - len(set(own.values()))

    common = dict(words=words, sentence_starts=_sentence_starts(nodes), token_lines=lines)
    key_doc = Document(name=key.name, chains=key_chains, labels=aligned.key_labels, path=key_path,
                       line=base.line if base is not None else 0, pieces=pieces[0] or None,
                       explicit_types=zeros or None,
                       entity_types=[key.etypes.get(eid) for eid in aligned.key_labels] if key.etypes else None,
                       **common, **(_annotations(base, nodes, index) if base is not None else {}))
    response_doc = Document(name=key.name, chains=response_chains, labels=aligned.response_labels,
                            path=response_path, pieces=pieces[1] or None, repaired=notes or None, **common)
    return key_doc, response_doc, shared


def _runs(at: list[int]) -> tuple[Span, ...]:
    """Consecutive token indices as spans: the pieces of a discontinuous mention."""
    runs, start = [], at[0]
    for previous, current in zip(at, at[1:]):
        if current != previous + 1:
            runs.append((start, previous))
            start = current
    runs.append((start, at[-1]))
    return tuple(runs)


def _sentence_starts(nodes: list[Node]) -> list[int]:
    return [i for i, node in enumerate(nodes) if i == 0 or node[0] != nodes[i - 1][0]]


def _token_lines(nodes: list[Node], key: NodeDocument) -> list[int]:
    """Each token's line in the key; a response's own empty node takes the word before it's."""
    out, last = [], 0
    for node in nodes:
        last = key.line_of.get(node, last)
        out.append(last)
    return out


def _annotations(base: Document, nodes: list[Node], index: dict[Node, int]) -> dict:
    """The span reader's token annotations (words only) spread over the tokens with empty nodes."""
    word_nodes = [node for node in nodes if not node[2]]
    if len(word_nodes) != len(base.words):
        return {}  # not the same text: leave the typing rules to the words
    at = [index[node] for node in word_nodes]
    n = len(nodes)

    def spread(values: list | None, filler) -> list | None:
        if values is None:
            return None
        out = [filler] * n
        for i, value in zip(at, values):
            out[i] = value
        return out

    heads = None
    if base.heads is not None:
        heads = spread([at[h] if h >= 0 else -1 for h in base.heads], -1)
    return dict(pos=spread(base.pos, "-NONE-"), lemmas=spread(base.lemmas, "_"), heads=heads,
                speakers=spread(base.speakers, "-"),
                named_entities=None if base.named_entities is None else
                [(at[s], at[e], label) for s, e, label in base.named_entities])

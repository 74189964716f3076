"""Key and response mentions aligned as corefud-scorer aligns them (the CRAC shared task's rules).

The steps, on one document (corefud-scorer 4fd7b0e, `scorer/base/reader.py`, read for the rules):

1. Each entity's mentions, a mention repeated in one entity kept once; with singletons removed
   (the default), an entity left with one mention is dropped, before anything is aligned.
2. Zeros against zeros by their enhanced dependencies (`zero_match="dependency"`): the score of a
   key zero K and a response zero S in the same sentence is 10 F1(deps(K), deps(S)) + F1(parents(K),
   parents(S)), F1 of the sets of (parent, relation) and of parents.
3. Equal mentions: the same nodes (and, under head match, the same head).
4. The rest, unless matching is exact, by a score: head match |K ∩ S| / |K| when K and S have the
   same head; partial match |K ∩ S| / |K| when S lies inside K and covers K's head.

Steps 2 and 4 take the one-to-one assignment that maximises the total score, the one scipy's
`linear_sum_assignment` finds over the full matrix of key (rows) and response (columns) mentions,
each sorted by first node, then last node, then size: the same matrix the official scorer builds,
so the same assignment among equally good ones (the tie rule is scipy's, as there).  The matrix is
not built: `metrics.runtime.lsap_sparse` replays scipy's solver on its positive cells (a book's
keys x responses would take gigabytes), pairs and tie rule the same.  Mentions tied in
that order keep the order they are met in the file (the official scorer's is that of a Python set).
Pairs scoring 0 stay unaligned.

The result gives every distinct mention an integer id and records the aligned pairs, so that the
metrics (`metrics.measures.corefud`) look mentions up by integers, as the official scorer looks
them up by equality (`AlignedDocument`).
"""

from __future__ import annotations

from dataclasses import dataclass

from metrics.model import Node, NodeDocument, NodeMention

MATCHES = ("head", "partial", "exact")
ZERO_MATCHES = ("dependency", "linear")


class ZeroWithoutDependencies(Exception):
    """Zeros cannot be aligned by dependencies when one of a compared pair has none (DEPS `_`):
    the official scorer stops there (a division by zero), so this is an input error, not a 0."""

    def __init__(self, node: Node, side: str) -> None:
        super().__init__(f"zero {node} has no enhanced dependencies")
        self.node = node
        self.side = side


@dataclass
class AlignedDocument:
    """One document's clusters after alignment, as the official scorer's metrics look them up.

    Every distinct mention (the same nodes, and under head match the same head, count as one)
    of either side has an integer id; `key` and `response` are the clusters as ids, `*_mentions`
    the mentions themselves (a mention's zero-ness and order are its own side's).  `partner`
    holds the aligned pairs that are not one mention: key id -> response id, then response id ->
    key id, in the official scorer's order (head or partial pairs, then zero pairs), a later entry
    replacing an earlier one as there.  A metric resolves a mention m as `partner.get(m, m)` and
    finds it on the other side by its id, as the official scorer does by equality.
    """

    name: str
    key: list[list[int]]
    response: list[list[int]]
    key_mentions: list[list[NodeMention]]
    response_mentions: list[list[NodeMention]]
    partner: dict[int, int]
    key_labels: list[str]
    """Each key cluster's entity ID."""
    response_labels: list[str]


def _identity(m: NodeMention, match: str) -> tuple:
    """What makes two mentions the same: their nodes, and under head match their head too."""
    return (m.nodes, m.head) if match == "head" else (m.nodes,)


Cluster = tuple[str, list[NodeMention]]
"""An entity's ID and its mentions."""


def clusters(doc: NodeDocument, match: str, keep_singletons: bool) -> list[Cluster]:
    """Each entity's mentions, each once; without singletons unless they are kept (step 1)."""
    out = []
    for eid, mentions in doc.entities:
        seen: dict[tuple, NodeMention] = {}
        for m in mentions:
            seen.setdefault(_identity(m, match), m)
        if keep_singletons or len(seen) > 1:
            out.append((eid, list(seen.values())))
    return out


def mention_order(m: NodeMention) -> tuple:
    """The official scorer's order of mentions (its Mention.__lt__): first node, last node, size."""
    return (m.nodes[0], m.nodes[-1], len(m.nodes))


def _f1(a: set, b: set) -> float:
    common = len(a & b)
    if not common:
        return 0
    p = common / len(a)
    r = common / len(b)
    return 2 * p * r / (p + r)


def zero_score(key: NodeMention, response: NodeMention) -> float:
    """Step 2's score of two zeros (0 across sentences or with no dependency in common)."""
    if key.head[0] != response.head[0]:
        return 0.0
    for side, m in (("key", key), ("response", response)):
        if not m.deps:
            raise ZeroWithoutDependencies(m.head, side)
    score = 0.0
    score += 10 * _f1(set(key.deps), set(response.deps))
    score += _f1({p for p, _ in key.deps}, {p for p, _ in response.deps})
    return score


def match_score(key: NodeMention, response: NodeMention, match: str) -> float:
    """Step 4's score of a key and a response mention under head or partial match."""
    if match == "head":
        if key.head != response.head:
            return 0.0
        if key.nodes == response.nodes:
            return 1.0
        return len(set(key.nodes) & set(response.nodes)) * 1.0 / len(key.nodes)
    inside = set(key.nodes)
    if key.head in response.nodes and inside.issuperset(response.nodes):
        return len(inside & set(response.nodes)) * 1.0 / len(key.nodes)
    return 0.0


def _assign(keys: list[NodeMention], responses: list[NodeMention], score) -> list[tuple[NodeMention, NodeMention]]:
    """The best one-to-one assignment of positive scores, as the official scorer takes it: scipy's
    pairs on the full matrix (`lsap_sparse.assignment` replays them from the positive scores alone:
    the matrix of a book's 12,000 x 17,000 mentions took 1.8 GB)."""
    if not keys or not responses:
        return []
    from metrics.runtime.lsap_sparse import positive_pairs, sharing_costs

    keys = sorted(keys, key=mention_order)
    responses = sorted(responses, key=mention_order)
    # the responses that can score above 0: those sharing a node or, for zeros, the sentence
    places = (lambda m: (m.head[0],)) if score is zero_score else (lambda m: m.nodes)
    costs = sharing_costs(keys, responses, places, score)
    return [(keys[i], responses[j]) for i, j in positive_pairs(costs, len(responses))]


def align(name: str, key_clusters: list[Cluster], response_clusters: list[Cluster],
          match: str = "head", zero_match: str = "dependency") -> AlignedDocument:
    """Steps 2-4 over one document's clusters (step 1 is `clusters`)."""
    key = [mentions for _, mentions in key_clusters]
    response = [mentions for _, mentions in response_clusters]
    ids: dict[tuple, int] = {}
    for cluster in key + response:
        for m in cluster:
            ids.setdefault(_identity(m, match), len(ids))
    key_left = _first_of_each(key, match)
    response_left = _first_of_each(response, match)
    zero_pairs: list[tuple[NodeMention, NodeMention]] = []
    if zero_match == "dependency":
        zero_pairs = _assign([m for m in key_left.values() if m.zero], [m for m in response_left.values() if m.zero],
                             zero_score)
        for k, s in zero_pairs:
            del key_left[_identity(k, match)], response_left[_identity(s, match)]
    for ident in [i for i in key_left if i in response_left]:
        del key_left[ident], response_left[ident]
    other_pairs = []
    if match != "exact":
        other_pairs = _assign(list(key_left.values()), list(response_left.values()),
                              lambda k, s: match_score(k, s, match))
    pairs = [(ids[_identity(k, match)], ids[_identity(s, match)]) for k, s in other_pairs + zero_pairs]
    partner = {k: s for k, s in pairs if k != s}
    partner.update({s: k for k, s in pairs if k != s})
    return AlignedDocument(
        name,
        [[ids[_identity(m, match)] for m in c] for c in key],
        [[ids[_identity(m, match)] for m in c] for c in response],
        key, response, partner, [eid for eid, _ in key_clusters], [eid for eid, _ in response_clusters],
    )


def _first_of_each(clusters: list[list[NodeMention]], match: str) -> dict[tuple, NodeMention]:
    """Each distinct mention of one side, the first met standing for all equal to it (a set's way)."""
    out: dict[tuple, NodeMention] = {}
    for cluster in clusters:
        for m in cluster:
            out.setdefault(_identity(m, match), m)
    return out

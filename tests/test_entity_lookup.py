"""A mention's named entity (`types._DocumentTyper._entity`: found by bisection over the entities
sorted by start) against its definition, every entity checked: overlapping, nested, reaching past
the document or reversed entities included."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.mentions.lexicon import NON_NAME_ENTITIES
from metrics.mentions.types import _DocumentTyper
from metrics.model import Document

LABELS = ["PERSON", "ORG", "GPE", "DATE", "CARDINAL", "money"]


def defined(entities: list[tuple[int, int, str]], span: tuple[int, int], head: int) -> bool | None:
    """True if an entity over the head lies within the span and is a name, else False if one
    lies there at all (a value), else None."""
    inside = [label.upper() not in NON_NAME_ENTITIES for start, end, label in entities
              if start <= head <= end and span[0] <= start and end <= span[1]]
    return True if any(inside) else False if inside else None


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_entity_over_a_head_is_the_one_defined(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 25))
    entities = data.draw(st.lists(st.tuples(st.integers(-2, n + 2), st.integers(-2, n + 2), st.sampled_from(LABELS)),
                                  max_size=12))
    doc = Document("ne", ["w"] * n, [], sentence_starts=[0], pos=["NN"] * n, named_entities=entities)
    typer = _DocumentTyper(doc)
    for _ in range(20):
        start = data.draw(st.integers(0, n - 1))
        end = data.draw(st.integers(start, n - 1))
        head = data.draw(st.integers(start, end))
        assert typer._entity((start, end), head) == defined(entities, (start, end), head) if entities else \
            typer._entity((start, end), head) is None

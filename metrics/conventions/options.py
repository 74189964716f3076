"""The one frozen object that says how the road runs: conventions, formats, matching, singletons."""

from __future__ import annotations

from dataclasses import dataclass

from metrics.measures.ace import AceOptions

CONLL_2012, COREFUD = "conll", "corefud"
"""The conventions' names (`--conventions`)."""


@dataclass(frozen=True)
class Options:
    """How inputs are read, matched and prepared.  Front ends validate what users give and build
    one (`workbench.session.LoadOptions.engine`); the engine takes it as it is."""

    conventions: str = CONLL_2012
    """Whose rules: `CONLL_2012` (v8.01's: token spans) or `COREFUD` (corefud-scorer's: node mentions)."""
    key_format: str | None = None
    """The key's format (None: detect it)."""
    response_format: str | None = None
    match: str = "exact"
    """exact, head or partial mention matching."""
    clusters_field: str = "clusters"
    """The jsonlines field holding the chains."""
    ace: AceOptions = AceOptions()
    keep_singletons: bool = True
    zero_match: str = "dependency"
    """CorefUD: zeros aligned by their enhanced dependencies or by position (linear)."""
    cache: bool = True
    """Read inputs through the cache of read files."""
    spans: bool = True
    """Whether the pairs need their token spans at once: the error analyses and the workbench do;
    scores alone under CorefUD do not (they come from the aligned node mentions), and then the
    key is read once, as node mentions, and the spans are made only if something asks for them."""

"""The one frozen object that says how the road runs: conventions, formats, matching, singletons."""

from __future__ import annotations

from dataclasses import dataclass

from metrics.measures.ace import AceOptions

CONLL_2012, COREFUD, UA = "conll", "corefud", "ua"
"""The conventions' names (`--conventions`)."""


@dataclass(frozen=True)
class Options:
    """How inputs are read, matched and prepared.  Front ends validate what users give and build
    one (`workbench.session.LoadOptions.engine`); the engine takes it as it is."""

    conventions: str = CONLL_2012
    """Whose rules: `CONLL_2012` (v8.01's: token spans), `COREFUD` (corefud-scorer's: node mentions)
    or `UA` (the UA scorer's: UA markables)."""
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
    """CorefUD: zeros aligned by their enhanced dependencies or by position (linear).  UA: zeros kept
    and aligned by position (linear), or removed."""
    crac_zeros: str = "free"
    """CorefUD, a CRAC LLM-track response (`crac-text`, `crac-json`): its zeros as the pipeline
    treats them without `-z` (`free`) or with it (`gold`); `metrics.formats.detection.ZERO_MODES`."""
    split_antecedents: bool = False
    """UA: a plural mention's split antecedents scored (the UA scorer's -l)."""
    only_split_antecedents: bool = False
    """UA: the coreference scores of the split antecedents' alignments alone."""
    discourse_deixis: bool = False
    """UA: the discourse-deixis chains scored instead of the identity chains."""
    ua_scores_only: bool = False
    """UA: read only the columns the scores read (the scored layer's, and BRIDGING when a bridging
    score is asked for), as `score` does; the error analyses and the workbench read every column."""
    bridging: bool = True
    """UA: the bridging links read for scoring (a link naming a markable the scored layer lacks is
    left out, with a warning)."""
    cache: bool = True
    """Read inputs through the cache of read files."""
    spans: bool = True
    """Whether the pairs need their token spans at once: the error analyses and the workbench do;
    scores alone under CorefUD do not (they come from the aligned node mentions), and then the
    key is read once, as node mentions, and the spans are made only if something asks for them."""

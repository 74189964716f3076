"""`corefwb plot sweep|errors|documents|stages KEY RESPONSE... --output FIG.svg|png|pdf`: figures for papers.

The data are `workbench.charts` (the same the workbench's charts show); matplotlib draws them.  It
is an optional extra (`pip install -e '.[plot]'`), imported only here: without it the command says
how to install it (exit 2).  Files are reproducible: an SVG or PDF carries no date, and SVG ids come
from a fixed salt, so the same input gives the same bytes.  Every line has its own marker and
dash pattern, so a figure reads in grey as in colour.
"""

from __future__ import annotations

import argparse
import io
import os

from metrics.measures.catalog import label
from metrics.errors.chen_ng.records import shown_types
from metrics.measures.weights import PRESETS

from ..charts import SWEEP_PANELS, DocumentScores, ErrorCounts, Stages, Sweep, document_scores, error_counts, \
    kk_stages, sweep
from ..output import write_atomic
from ..names import system_names
from ..options import UsageError, weights_option
from .common import load_session, named_file

KINDS = ("sweep", "errors", "documents", "stages")
FORMATS = ("svg", "png", "pdf")
_STYLES = [("o", "-"), ("s", "--"), ("^", "-."), ("D", ":"), ("v", (0, (5, 1))), ("P", (0, (3, 1, 1, 1)))]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", choices=KINDS, help="sweep: Chen & Ng's Figure 3 (LMetrics under W1..W5 and the "
                        "OMetrics, across responses); errors: errors by category and mention type, per system; "
                        "documents: per-document CoNLL F1 (a histogram; a scatter of the first two systems); "
                        "stages: the CoNLL F1 after correcting each of Kummerfeld & Klein's error types in turn "
                        "(on the files as BCA reads them; --singletons remove is its option T)")
    parser.add_argument("key", help="key (gold) file")
    parser.add_argument("responses", nargs="+", metavar="RESPONSE", help="one or more responses")
    parser.add_argument("--name", metavar="A,B,...", help="the systems' names (default: file names)")
    parser.add_argument("--document", metavar="D", help="errors: one document instead of the corpus")
    parser.add_argument("--output", metavar="FIG", required=True, type=named_file, help="the figure: .svg, .png or .pdf")


def _matplotlib():
    try:
        import matplotlib
    except ImportError:
        raise UsageError("corefwb plot needs matplotlib: pip install 'coref-workbench[plot]' "
                         "(or pip install matplotlib)") from None
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "corefwb"  # SVG element ids: the same in every run
    import matplotlib.pyplot as plt

    return plt


def run(args: argparse.Namespace) -> int:
    fmt = os.path.splitext(args.output)[1].lower().lstrip(".")
    if fmt not in FORMATS:
        raise UsageError(f"--output: name the figure .svg, .png or .pdf, not {args.output!r}")
    plt = _matplotlib()
    weights = weights_option(args.weights)
    names = system_names(args.responses, args.name)
    session = load_session(args, list(args.responses), ua_taken=True)  # under ua: the identity chains
    if args.kind == "sweep":
        figure = draw_sweep(plt, sweep(session, names, [] if weights in PRESETS.values() else [("yours", weights)]))
    elif args.kind == "errors":
        document = session.select_documents([args.document])[0] if args.document else None
        figure = draw_errors(plt, error_counts(session, names, weights, document))
    elif args.kind == "stages":
        figure = draw_stages(plt, kk_stages(session, names))
    else:
        figure = draw_documents(plt, document_scores(session, names, weights))
    buffer = io.BytesIO()
    metadata = {"svg": {"Date": None}, "pdf": {"CreationDate": None, "ModDate": None}, "png": {}}[fmt]
    figure.savefig(buffer, format=fmt, metadata=metadata, dpi=150)
    plt.close(figure)
    write_atomic(args.output, buffer.getvalue(), inputs=session.inputs)
    return 0


def draw_sweep(plt, swept: Sweep):
    """Chen & Ng's Figure 3: a panel per LMetric, a line per weight vector, the OMetric in black."""
    figure, axes = plt.subplots(2, 2, figsize=(9, 7), sharex=True)
    x = list(range(len(swept.systems)))
    for ax, (lmetric, ometric) in zip(axes.flat, SWEEP_PANELS):
        for (name, _), (marker, dash) in zip(swept.weights, _STYLES):
            ax.plot(x, swept.lines[lmetric][name], marker=marker, linestyle=dash, label=name)
        ax.plot(x, swept.official[lmetric], marker="x", linestyle="-", color="black", linewidth=2,
                label="OMetric (the panel's official metric)")
        ax.set_title(f"{label(lmetric)} and {label(ometric)}")
        ax.set_ylabel("F1 (%)")
        ax.set_xticks(x, swept.systems, rotation=30 if max(map(len, swept.systems)) > 8 else 0)
        ax.grid(True, alpha=0.3)
    for ax in axes[-1]:
        ax.set_xlabel("response")
    # one legend for the four panels, below them: inside a panel it would hide points
    handles, labels = axes.flat[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize="small", frameon=False)
    figure.suptitle("LMetrics under weight vectors W1..W5 and the OMetric (Chen & Ng 2013, Figure 3)")
    figure.tight_layout(rect=(0, 0.05, 1, 1))
    return figure


def draw_errors(plt, errors: ErrorCounts):
    """Errors by category and mention type as grouped bars, a panel per system."""
    figure, axes = plt.subplots(len(errors.systems), 1, figsize=(9, 3.2 * len(errors.systems)), squeeze=False)
    categories = list(errors.counts[0])
    hatches = ["", "//", "..", "xx"]
    kinds = shown_types(*errors.counts)
    width = 0.8 / len(kinds)
    for ax, name, counts in zip(axes[:, 0], errors.systems, errors.counts):
        for i, t in enumerate(kinds):
            values = [counts[c][t] for c in categories]
            ax.bar([k + (i - (len(kinds) - 1) / 2) * width for k in range(len(categories))], values, width=width,
                   label=t.name.lower(), hatch=hatches[i], edgecolor="black")
        # a label a line per word: "missing mention" and "spurious mention" side by side touched
        ax.set_xticks(range(len(categories)), [c.label.replace(" ", "\n") for c in categories])
        ax.set_ylabel("errors")
        ax.set_title(f"{name}: errors by category and mention type ({errors.scope})")
        ax.legend(title="mention type", fontsize="small")
    axes[-1, 0].set_xlabel("error category")
    figure.tight_layout()
    return figure


STAGE_NAMES = ("none", "span", "conflated", "extra m.", "extra e.", "divided", "missing m.", "missing e.")
"""The x labels of the stages figure: before any correction, then after each type in BCA's order."""


def draw_stages(plt, stages: Stages):
    """Kummerfeld & Klein's figure: bars of the CoNLL F1 after each correction stage, per system."""
    figure, ax = plt.subplots(figsize=(9, 4.5))
    hatches = ["", "//", "..", "xx", "\\\\", "--"]
    width = 0.8 / len(stages.systems)
    for i, (name, values) in enumerate(zip(stages.systems, stages.f1)):
        ax.bar([k + (i - (len(stages.systems) - 1) / 2) * width for k in range(len(values))], values, width=width,
               label=name, hatch=hatches[i % len(hatches)], edgecolor="black")
    ax.set_xticks(range(len(STAGE_NAMES)), STAGE_NAMES)
    low = min(min(values) for values in stages.f1)
    ax.set_ylim(max(0.0, 10 * (low // 10) - 10), 100)
    ax.set_xlabel("after correcting (each type and those before it, BCA's order)")
    ax.set_ylabel("CoNLL F1 (%)")
    ax.set_title("CoNLL F1 as Kummerfeld & Klein's error types are corrected in turn")
    ax.legend(fontsize="small")
    ax.grid(True, axis="y", alpha=0.3)
    figure.tight_layout()
    return figure


def draw_documents(plt, scores: DocumentScores):
    """Per-document CoNLL F1: a histogram for one system, else the second against the first."""
    figure, ax = plt.subplots(figsize=(6.5, 5))
    if len(scores.systems) == 1:
        ax.hist(scores.f1[0], bins=20, range=(0, 100), edgecolor="black", label=scores.systems[0])
        ax.set_xlabel("CoNLL F1 (%) of a document")
        ax.set_ylabel("documents")
        ax.set_title(f"{scores.systems[0]}: CoNLL F1 per document ({len(scores.documents)} documents)")
    else:
        ax.scatter(scores.f1[0], scores.f1[1], marker="o", facecolors="none", edgecolors="black", label="a document")
        ax.plot([0, 100], [0, 100], linestyle="--", color="grey", label="equal")
        ax.set_xlabel(f"{scores.systems[0]}: CoNLL F1 (%)")
        ax.set_ylabel(f"{scores.systems[1]}: CoNLL F1 (%)")
        ax.set_title(f"CoNLL F1 per document: {scores.systems[1]} against {scores.systems[0]}")
        ax.set_xlim(0, 100)
        ax.set_ylim(0, 100)
    ax.legend()
    ax.grid(True, alpha=0.3)
    figure.tight_layout()
    return figure

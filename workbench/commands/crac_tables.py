"""The CRAC report's tables: systems as rows, datasets as columns, the macro-average last, one table
per variant; as text, Markdown, LaTeX (booktabs), CSV (one row per system, dataset and variant)
or JSON.  The numbers are the engine's (metrics.statistics.crac); here they are only arranged.

Marks: the best system of a column (ties: all of them) is `^` in text, bold in Markdown and
LaTeX; `*` after a number: it differs from the first system's with p < 1 - confidence.
"""

from __future__ import annotations

from dataclasses import dataclass

from metrics.measures.catalog import BCUB, CEAFE, CONLL, MUC, ZERO, Metric
from metrics.statistics.crac import METRICS, PRIMARY, DatasetResult, macro, ranking, variant_settings
from metrics.statistics.datasets import DatasetTests
from metrics.statistics.significance import Method

from ..json_text import dumps
from ..output import ZERO_OVER_ZERO, MarkdownText, align_rows, nothing_to_score, render_csv, render_markdown, score_json

TITLES = {"head": "head match, singletons removed (the primary score)",
          "partial": "partial match, singletons removed",
          "exact": "exact match, singletons removed",
          "with_singletons": "head match, singletons kept"}
METRIC_TITLES = {**{m.name: f"{m.label} F1" for m in (CONLL, MUC, BCUB, CEAFE)}, ZERO.name: "zero-anaphora F1"}
BEST, SIGNIFICANT = "^", "*"


@dataclass
class CracReport:
    names: list[str]
    datasets: list[str]
    systems: list[list[DatasetResult]]
    """systems[system][dataset]."""
    variants: tuple[str, ...]
    """Scored (and in JSON and CSV)."""
    metric: Metric
    """The F1 the tables show."""
    tests: dict[str, list[DatasetTests]]
    """Per variant, systems[1:] against systems[0]; empty without tests."""
    method: Method | None
    zero_match: str
    shown: str
    """The variant the tables show, or "all"."""

    def table_variants(self) -> tuple[str, ...]:
        return self.variants if self.shown == "all" else (self.shown,)

    def value(self, system: int, dataset: int | None, variant: str) -> float:
        """F1 (fraction) of a system on a dataset, or its macro-average (dataset None)."""
        results = self.systems[system]
        return macro(results, variant, self.metric) if dataset is None else results[dataset].value(variant, self.metric)

    def significant(self, system: int, dataset: int | None, variant: str) -> bool:
        if system == 0 or variant not in self.tests or self.method is None:
            return False
        tests = self.tests[variant][system - 1]
        p = tests.macro if dataset is None else tests.datasets[dataset]
        return p is not None and p < 1 - self.method.confidence


def _columns(report: CracReport) -> list[int | None]:
    return [*range(len(report.datasets)), None]


def _cells(report: CracReport, variant: str) -> list[list[tuple[str, bool, bool]]]:
    """Per system, per column: (value in % with 2 decimals, best, significant)."""
    columns = _columns(report)
    values = [[report.value(s, c, variant) for c in columns] for s in range(len(report.names))]
    rounded = [[f"{100 * v:.2f}" for v in row] for row in values]
    marked = len(report.names) > 1
    out = []
    for s, row in enumerate(rounded):
        cells = []
        for i, c in enumerate(columns):
            best = marked and values[s][i] == max(values[o][i] for o in range(len(values)))
            cells.append((row[i], best, report.significant(s, c, variant)))
        out.append(cells)
    return out


def _legend(report: CracReport) -> str:
    lines = []
    if len(report.names) > 1:
        lines.append(f"{BEST} best in its column")
        if report.method is not None:
            m = report.method
            lines.append(f"{SIGNIFICANT} differs from {report.names[0]} with p < {1 - m.confidence:.2g}: paired bootstrap over "
                         f"documents, {m.resamples} resamples, seed {m.seed}; the macro-average's resamples "
                         f"stratified by dataset")
    return "\n".join(lines)


def _nothing_note(report: CracReport) -> str:
    """The datasets where the metric shown had nothing to count in the key or any system's file
    under every variant shown (zero anaphora in a dataset without zeros): their 0.00, marked best
    for every system, is corefud-scorer's 0/0, not a failure."""
    empty = [name for d, name in enumerate(report.datasets)
             if all(results[d].variants is not None
                    and nothing_to_score(results[d].variants[variant].micro[report.metric.name])
                    for results in report.systems for variant in report.table_variants())]
    if not empty:
        return ""
    return f"{', '.join(empty)}: no {METRIC_TITLES[report.metric.name]} to count in the key or any system {ZERO_OVER_ZERO}"


def _title(report: CracReport, variant: str) -> str:
    return f"{METRIC_TITLES[report.metric.name]} (%), {TITLES[variant]}"


def _ranking_line(report: CracReport) -> str:
    order = ranking(report.systems, PRIMARY) if PRIMARY in report.variants else []
    if not order or report.metric is not CONLL:
        return ""
    return "ranking (macro CoNLL F1, head match): " + ", ".join(
        f"{rank}. {report.names[s]} {100 * macro(report.systems[s], PRIMARY):.2f}" for rank, s in enumerate(order, 1))


def _text(report: CracReport) -> str:
    headers = ["system", *report.datasets, "macro"]
    parts = [f"CRAC report: {len(report.datasets)} dataset(s), {len(report.names)} system(s); conventions corefud, "
             f"zeros aligned by {'dependencies' if report.zero_match == 'dependency' else 'position'}"]
    for variant in report.table_variants():
        rows = [[name] + [f"{v}{BEST if b else ''}{SIGNIFICANT if s else ''}" for v, b, s in cells]
                for name, cells in zip(report.names, _cells(report, variant))]
        # numbers right-aligned on their digits: a mark hangs off the end
        width = len(BEST) + len(SIGNIFICANT)
        rows = [[row[0]] + [_pad(cell, width) for cell in row[1:]] for row in rows]
        parts.append(_title(report, variant) + "\n" + "\n".join(align_rows(headers, rows, right=headers[1:])))
    for line in (_legend(report), _nothing_note(report), _ranking_line(report)):
        if line:
            parts.append(line)
    return "\n\n".join(parts) + "\n"


def _pad(cell: str, width: int) -> str:
    digits = len(cell.rstrip(BEST + SIGNIFICANT))
    return cell + " " * (width - (len(cell) - digits))


def _markdown(report: CracReport) -> str:
    headers = ["system", *report.datasets, "macro"]
    parts = []
    for variant in report.table_variants():
        rows = [[name] + [MarkdownText((f"**{v}**" if b else v) + ("\\*" if s else "")) for v, b, s in cells]
                for name, cells in zip(report.names, _cells(report, variant))]
        parts.append(render_markdown(headers, rows, title=_title(report, variant)).rstrip("\n"))
    for line in (_legend(report), _nothing_note(report), _ranking_line(report)):
        if line:
            parts.append(line.replace(BEST + " best", "bold: best").replace(SIGNIFICANT + " differs", "\\* differs"))
    return "\n\n".join(parts) + "\n"


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


def _latex(report: CracReport) -> str:
    parts = []
    for variant in report.table_variants():
        lines = [f"% {_title(report, variant)}", "% " + _legend(report).replace(BEST + " best", "bold: best").replace("\n", "\n% ")
                 if len(report.names) > 1 else "", f"% {_nothing_note(report)}" if _nothing_note(report) else "",
                 r"\begin{tabular}{l" + "r" * (len(report.datasets) + 1) + "}", r"\toprule",
                 " & ".join(["System", *(latex_escape(d) for d in report.datasets), "Macro"]) + r" \\", r"\midrule"]
        for name, cells in zip(report.names, _cells(report, variant)):
            out = [(rf"\textbf{{{v}}}" if b else v) + (r"$^{*}$" if s else "") for v, b, s in cells]
            lines.append(" & ".join([latex_escape(name), *out]) + r" \\")
        lines += [r"\bottomrule", r"\end{tabular}"]
        parts.append("\n".join(line for line in lines if line))
    return "\n\n".join(parts) + "\n"


def _metric_json(result: DatasetResult, variant: str) -> dict:
    if result.variants is None:
        zero = {"recall": 0.0, "precision": 0.0, "f1": 0.0}
        return {CONLL.name: 0.0, **{m.name: dict(zero) for m in METRICS}}
    micro = result.variants[variant].micro
    return {CONLL.name: float(micro[CONLL.name].f1), **{m.name: score_json(micro[m.name]) for m in METRICS}}


def report_json(report: CracReport) -> dict:
    systems = []
    for s, name in enumerate(report.names):
        datasets = []
        for d, result in enumerate(report.systems[s]):
            entry = {"name": report.datasets[d], "variants": {v: _metric_json(result, v) for v in report.variants}}
            if result.missing:
                entry["missing"] = True
            if s and report.tests:
                entry["p_values"] = {v: report.tests[v][s - 1].datasets[d] for v in report.variants}
            datasets.append(entry)
        system = {"name": name, "datasets": datasets,
                  "macro": {v: macro(report.systems[s], v) for v in report.variants}}
        if s and report.tests:
            system["macro_p_values"] = {v: report.tests[v][s - 1].macro for v in report.variants}
        systems.append(system)
    out = {"conventions": "corefud", "zero_match": report.zero_match,
           "variants": {v: variant_settings(v, report.zero_match).fields() for v in report.variants},
           "systems": systems}
    if PRIMARY in report.variants:
        out["ranking"] = [report.names[s] for s in ranking(report.systems, PRIMARY)]
    if report.method is not None and len(report.names) > 1:
        out["significance"] = {**report.method.to_json(), "test": "paired bootstrap (Koehn 2004)",
                               "strata": "datasets (the macro-average's resamples)", "baseline": report.names[0],
                               "metric": report.metric.name}
        out["significance"].pop("interval", None)
        out["significance"].pop("confidence", None)
        # 1 - 0.95 is 0.050000000000000044 in binary floats: the level as it was meant (12 digits)
        out["significance"]["level"] = round(1 - report.method.confidence, 12)
    return out


def _csv(report: CracReport) -> str:
    headers = ["system", "dataset", "variant", "missing", CONLL.name] + [f"{m.name}_{p}" for m in METRICS
                                                                       for p in ("recall", "precision", "f1")]
    rows = []
    for s, name in enumerate(report.names):
        for variant in report.variants:
            for d, result in enumerate(report.systems[s]):
                j = _metric_json(result, variant)
                rows.append([name, report.datasets[d], variant, int(result.missing), j[CONLL.name]]
                            + [j[m.name][p] for m in METRICS for p in ("recall", "precision", "f1")])
            rows.append([name, "macro", variant, "", macro(report.systems[s], variant)] + [""] * (3 * len(METRICS)))
    return render_csv(headers, rows)


def render(report: CracReport, fmt: str) -> str:
    return {"text": _text, "markdown": _markdown, "latex": _latex, "csv": _csv,
            "json": lambda r: dumps(report_json(r)) + "\n"}[fmt](report)


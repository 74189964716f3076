"""The counts of issue 40 ("One road"), measured on the source: how far the code is from one road.

    python benchmarks/engine_counts.py [--root DIR] [--list]

Five counts, over the Python files of `metrics/` and `workbench/`:
- metric names: string literals equal to a metric's name or alias (the catalogue's, plus `mor` and
  `zero`), outside the catalogue (`metrics/measures/catalog.py`); docstrings are not counted.  The
  spellings that are also ordinary words or other things' names (`conll`, also a format and a
  convention; `mentions`; `zero`...) are counted on a line of their own, since the scan cannot tell
  which they name;
- files with a second road: files that run a step of the road from files to scores themselves
  (read a corpus, pair its documents, align, prepare, score a corpus) instead of asking the one
  pipeline, other than the module that defines the step and the pipeline itself;
- `# type: ignore` comments;
- copies of the workbench's closing guard `if not self.is_running`;
- functions with more than five positional parameters (`self` and `cls` not counted).
`--list` prints where each one is.  No third-party import: runs on any checkout with Python 3.10+.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = "metrics/measures/catalog.py"
EXTRA_NAMES = {"mor", "zero"}
"""CorefUD's two metrics, which lived outside the catalogue before issue 40."""
ORDINARY_WORDS = {"conll", "mention", "mentions", "zero", "immediate", "inferred", "anchor"}
"""Metric spellings that are also ordinary words or other things' names (the CoNLL format and
convention, a JSON field `mentions`, a zero mention): counted apart, as `... also words`."""
ROAD_STEPS = {"read_documents", "read_corefud", "read_node_documents", "pair_documents", "prepare",
              "prepare_corefud", "aligned_documents", "score_corpus", "match_corpus", "key_words",
              "without_singletons"}
"""The steps from files to scores that a front end should not run by itself."""
PIPELINE = ("metrics/pipeline.py", "metrics/conventions/")
"""Where the one road lives (after issue 40): its calls of the steps are the road itself."""
STEP_LAYERS = ("metrics/formats/", "metrics/mentions/")
"""The rooms that define the steps: a step may use another step of its own layer."""


def metric_names(root: Path) -> set[str]:
    """Every name and alias of the catalogue at `root`, read from its source (no import)."""
    tree = ast.parse((root / CATALOGUE).read_text())
    found = set(EXTRA_NAMES)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Metric" and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.add(first.value)
            for keyword in node.keywords:
                if keyword.arg == "aliases" and isinstance(keyword.value, ast.Tuple):
                    found.update(e.value for e in keyword.value.elts if isinstance(e, ast.Constant))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Metric":
            for keyword in node.keywords:
                if keyword.arg == "name" and isinstance(keyword.value, ast.Constant):
                    found.add(keyword.value.value)
                if keyword.arg == "aliases" and isinstance(keyword.value, ast.Tuple):
                    found.update(e.value for e in keyword.value.elts if isinstance(e, ast.Constant))
    return found


def python_files(root: Path) -> list[Path]:
    return sorted(p for top in ("metrics", "workbench") for p in (root / top).rglob("*.py"))


def docstrings(tree: ast.AST) -> set[int]:
    """ids of the Constant nodes that are docstrings (a module's, class's, function's, or an
    attribute docstring: any string expression statement)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            out.add(id(node.value))
    return out


def count(root: Path) -> dict[str, list[str]]:
    names = metric_names(root)
    where: dict[str, list[str]] = {"metric names outside the catalogue": [],
                                   "metric spellings outside the catalogue that are also words": [],
                                   "files with a second road": [],
                                   "# type: ignore": [], "closing guards": [],
                                   "functions with > 5 positional parameters": []}
    for path in python_files(root):
        rel = path.relative_to(root).as_posix()
        text = path.read_text()
        tree = ast.parse(text)
        skip = docstrings(tree)
        if rel != CATALOGUE:
            for node in ast.walk(tree):
                if (isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names
                        and id(node) not in skip):
                    title = ("metric spellings outside the catalogue that are also words"
                             if node.value in ORDINARY_WORDS else "metric names outside the catalogue")
                    where[title].append(f"{rel}:{node.lineno} {node.value!r}")
        defined = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        if not rel.startswith(PIPELINE) and not rel.startswith(STEP_LAYERS) and not defined & ROAD_STEPS:
            called = sorted({_called(n) for n in ast.walk(tree) if isinstance(n, ast.Call)} & ROAD_STEPS)
            if called:
                where["files with a second road"].append(f"{rel} ({', '.join(called)})")
        for number, line in enumerate(text.splitlines(), start=1):
            if re.search(r"#\s*type:\s*ignore", line):
                where["# type: ignore"].append(f"{rel}:{number}")
            if re.search(r"\bif not self\.is_running\b", line):
                where["closing guards"].append(f"{rel}:{number}")
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                positional = [a.arg for a in node.args.posonlyargs + node.args.args if a.arg not in ("self", "cls")]
                if len(positional) > 5:
                    where["functions with > 5 positional parameters"].append(
                        f"{rel}:{node.lineno} {node.name} ({len(positional)})")
    return where


def _called(node: ast.Call) -> str:
    """The function a call names; a method `prepare` (a convention's step) is not the function."""
    func = node.func
    if isinstance(func, ast.Attribute):
        owner = func.value.id if isinstance(func.value, ast.Name) else ""
        return func.attr if func.attr != "prepare" or owner in ("scoring", "metrics") else ""
    return func.id if isinstance(func, ast.Name) else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="a checkout of coref-workbench (default: this one)")
    parser.add_argument("--list", action="store_true", help="print where each counted item is")
    args = parser.parse_args()
    for title, items in count(args.root).items():
        files = len({item.split(":")[0].split(" ")[0] for item in items})
        print(f"{len(items):5d}  {title}" + (f" (in {files} files)" if title.startswith("metric") else ""))
        if args.list:
            for item in items:
                print(f"         {item}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

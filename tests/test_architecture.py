"""The house rules, as tests that fail when the code breaks them.

- The engine (`metrics`) never imports `workbench`, `textual` or `rich`, on any path: every import
  statement of every module counts, those inside functions too.
- The headless layers (the session, the output layer, the commands, the CLI) never import the
  terminal UI (`workbench.tui`) or textual, except the CLI's one lazy import that opens the app.
- No import circle between the project's modules.
- No source file over 500 lines.
- Each metric's display label is written once in the source: in the catalogue.
- The engine is arranged in rooms (subpackages) on layers, and imports run only down the layers
  (docs/engine.md draws the map); at most four modules stay loose in `metrics/`.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("metrics", "workbench")


def modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


MODULES = modules()


def imports_of(name: str) -> list[tuple[str, int]]:
    """Every module `name` imports (absolute names, anywhere in the file), with its line."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found.append((base, node.lineno))
            for alias in node.names:  # `from . import formulas` imports a module
                if f"{base}.{alias.name}" in MODULES:
                    found.append((f"{base}.{alias.name}", node.lineno))
    return found


def project_imports(name: str) -> set[str]:
    out = set()
    for target, _ in imports_of(name):
        while target and target not in MODULES:
            target = target.rpartition(".")[0]
        if target and target != name:
            out.add(target)
    return out


def test_the_modules_are_found():
    assert "metrics.corpus.scoring" in MODULES and "workbench.tui.app" in MODULES and "workbench.session" in MODULES


@pytest.mark.parametrize("name", [m for m in MODULES if m.split(".")[0] == "metrics"])
def test_engine_imports_no_ui_and_no_workbench(name):
    bad = [(t, line) for t, line in imports_of(name) if t.split(".")[0] in ("workbench", "textual", "rich")]
    assert not bad, f"{MODULES[name]}: {bad}"


HEADLESS = [m for m in MODULES if m.startswith(("workbench.commands", "workbench.session", "workbench.output"))]


@pytest.mark.parametrize("name", HEADLESS)
def test_headless_layers_never_import_the_terminal_ui(name):
    bad = [(t, line) for t, line in imports_of(name) if t.startswith("workbench.tui") or t.split(".")[0] == "textual"]
    assert not bad, f"{MODULES[name]}: {bad}"
    if name in ("workbench.session", "workbench.output"):
        assert not [t for t, _ in imports_of(name) if t.split(".")[0] == "rich"], "the session and output are UI-free"


def test_the_cli_opens_the_terminal_ui_only_lazily():
    tree = ast.parse(MODULES["workbench.cli"].read_text(encoding="utf-8"))
    top = {node.module for node in tree.body if isinstance(node, ast.ImportFrom)}
    assert not [m for m in top if m and ("tui" in m or m.startswith("textual"))]


# The engine's rooms, bottom layer first.  A module may import its own room and the rooms of the
# layers below it, never a room of its own layer or above (docs/engine.md).
ENGINE_LAYERS: tuple[tuple[str, ...], ...] = (
    ("metrics.model", "metrics.runtime"),
    ("metrics.mentions",),
    ("metrics.formats", "metrics.measures"),
    ("metrics.corpus",),
    ("metrics.conventions",),
    ("metrics.statistics", "metrics.errors"),
)
ROOMS = {room: level for level, rooms in enumerate(ENGINE_LAYERS) for room in rooms}


def room_of(name: str) -> str | None:
    """The room a module of the engine lives in (None for the package's own API, metrics/__init__)."""
    parts = name.split(".")
    return ".".join(parts[:2]) if len(parts) >= 2 else None


def test_every_engine_module_has_a_room():
    loose = sorted(m for m in MODULES if m.startswith("metrics.") and MODULES[m].parent == ROOT / "metrics")
    assert len(loose) + 1 <= 4, f"at most four modules loose in metrics/ (with __init__): {loose}"
    homeless = [m for m in MODULES if m.startswith("metrics.") and room_of(m) not in ROOMS]
    assert not homeless, f"modules in no room of ENGINE_LAYERS: {homeless}"


def upward_imports(name: str, targets: set[str]) -> list[str]:
    """The engine modules among `targets` that `name` may not import: up or across the layers."""
    mine = room_of(name)
    bad = []
    for target in sorted(targets):
        if target.split(".")[0] != "metrics":
            continue
        theirs = room_of(target)
        if theirs is None or (theirs != mine and ROOMS[theirs] >= ROOMS[mine]):
            bad.append(target)
    return bad


@pytest.mark.parametrize("name", [m for m in MODULES if m.startswith("metrics.")])
def test_engine_imports_run_down_the_layers(name):
    bad = upward_imports(name, project_imports(name))
    assert not bad, f"{MODULES[name]} imports up or across the layers: {bad}"


def test_the_layer_rule_can_fail():
    assert upward_imports("metrics.measures.formulas", {"metrics.corpus.scoring"}) == ["metrics.corpus.scoring"]
    assert upward_imports("metrics.formats.conll", {"metrics.measures.weights"}) == ["metrics.measures.weights"]
    assert upward_imports("metrics.mentions.heads", {"metrics"}) == ["metrics"]
    assert upward_imports("metrics.corpus.scoring", {"metrics.measures.table", "metrics.corpus.stream", "numpy"}) == []


@pytest.mark.parametrize("name", [m for m in MODULES if m.startswith("metrics.errors.")])
def test_a_taxonomy_imports_no_other_taxonomy(name):
    """metrics/errors/ holds one subpackage per taxonomy and the modules they share."""
    def taxonomy(module: str) -> str | None:
        parts = module.split(".")
        return parts[2] if len(parts) >= 4 and MODULES[module].parent != ROOT / "metrics" / "errors" else None

    mine = taxonomy(name)
    bad = [t for t in project_imports(name) if t.startswith("metrics.errors.") and taxonomy(t) not in (None, mine)]
    shared_up = [t for t in project_imports(name) if mine is None and t.startswith("metrics.errors.") and taxonomy(t)]
    assert not bad and not shared_up, (bad, shared_up)


def find_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of the directed graph as a path that returns to its start, or None."""
    colour: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        colour[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if colour.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in colour and (found := visit(nxt)):
                return found
        stack.pop()
        colour[node] = 2
        return None

    for name in sorted(graph):
        if name not in colour and (found := visit(name)):
            return found
    return None


def test_the_circle_finder_finds_circles():
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_no_import_circle():
    circle = find_circle({name: project_imports(name) for name in MODULES})
    assert circle is None, "import circle: " + " -> ".join(circle or [])


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_file_over_500_lines(name):
    assert len(MODULES[name].read_text(encoding="utf-8").splitlines()) <= 500


def test_each_metric_label_is_written_once():
    from metrics.measures.catalog import CATALOG

    sources = {path: path.read_text(encoding="utf-8") for path in MODULES.values()}
    for metric in CATALOG:
        places = [str(path.relative_to(ROOT)) for path, text in sources.items()
                  for _ in re.finditer(re.escape(f'"{metric.label}"'), text)]
        assert places == ["metrics/measures/catalog.py"], (metric.label, places)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_name_defined_twice(name):
    """A second `def f` silently replaces the first (a bug this project once had in its options)."""
    from collections import Counter

    def duplicated(body) -> list[str]:
        counts = Counter(n.name for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))
        inner = [d for n in body if isinstance(n, ast.ClassDef) for d in duplicated(n.body)]
        return [k for k, v in counts.items() if v > 1] + inner

    assert not duplicated(ast.parse(MODULES[name].read_text(encoding="utf-8")).body)


def _engine_counts():
    """benchmarks/engine_counts.py (issue 40's counts, standard library only), loaded by path."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("engine_counts", ROOT / "benchmarks" / "engine_counts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_one_road_and_one_catalogue_stay_so():
    """No metric named outside the catalogue but by its constant, no file running a step of the
    road from files to scores beside the pipeline, no type escape, one closing guard, and keyword-only
    parameters past five (issue 40's counts, all at zero)."""
    counts = _engine_counts().count(ROOT)
    for title in ("metric names outside the catalogue", "files with a second road", "# type: ignore",
                  "closing guards", "functions with > 5 positional parameters"):
        assert counts[title] == [], (title, counts[title])


def test_the_road_counts_can_fail(tmp_path):
    """The scan finds a name written out and a reader called beside the road."""
    import shutil

    for top in ("metrics", "workbench"):
        (tmp_path / top).mkdir()
    (tmp_path / "metrics" / "measures").mkdir()
    shutil.copy(ROOT / "metrics" / "measures" / "catalog.py", tmp_path / "metrics" / "measures" / "catalog.py")
    (tmp_path / "workbench" / "beside.py").write_text(
        "from metrics.formats.corefud import read_corefud\n\n\ndef f(path):\n    return read_corefud(path), 'muc'\n")
    counts = _engine_counts().count(tmp_path)
    assert counts["metric names outside the catalogue"] == ["workbench/beside.py:5 'muc'"]
    assert counts["files with a second road"] == ["workbench/beside.py (read_corefud)"]

"""The layering of the README's package layout holds: each layer imports only the
layers before it (imports inside functions count too), and no two modules of the
package import each other in a cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent / "autodist"

#: layer -> the layers it may import (besides itself)
ALLOWED = {
    "ir": set(),
    "errors": set(),
    "keys": set(),
    "frontend": {"ir", "errors"},
    "layout": {"ir", "errors"},
    "hpf": {"ir", "errors", "layout"},
    "analysis": {"ir", "errors", "frontend", "hpf"},
    "owner": {"ir", "errors", "analysis", "layout"},
    "runtime": {"ir", "errors", "frontend", "hpf", "analysis", "layout", "owner", "fileio"},
}
#: modules every layer may use
UTILITIES = {"errors", "fileio", "keys", "forking"}
RUNTIME_ORDER = ["fortran", "comm", "codegen", "jit", "spmd", "job"]


def _module(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    mod = _module(path)
    package = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            if target.startswith("autodist"):
                out.add(target)
                out.update(f"{target}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("autodist"))
    return out


def _graph() -> nx.DiGraph:
    modules = {_module(p): p for p in ROOT.rglob("*.py")}
    g = nx.DiGraph()
    for mod, path in modules.items():
        g.add_node(mod)
        for target in _imports(path):
            if target in modules and target not in (mod, "autodist"):
                g.add_edge(mod, target)
    return g


def _layer(mod: str) -> str:
    parts = mod.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_each_layer_imports_only_the_layers_before_it():
    bad = []
    for a, b in _graph().edges:
        la, lb = _layer(a), _layer(b)
        if la in ALLOWED and la != lb and lb not in ALLOWED[la] | UTILITIES:
            bad.append(f"{a} imports {b}")
    assert not bad, "\n".join(sorted(bad))


def test_runtime_subpackages_import_only_those_before_them():
    bad = []
    for a, b in _graph().edges:
        pa, pb = a.split("."), b.split(".")
        if pa[1:2] == pb[1:2] == ["runtime"] and len(pa) > 3 and len(pb) > 3 and pa[2] != pb[2]:
            if RUNTIME_ORDER.index(pb[2]) > RUNTIME_ORDER.index(pa[2]):
                bad.append(f"{a} imports {b}")
    assert not bad, "\n".join(sorted(bad))


def test_no_import_cycle_between_modules():
    g = _graph()
    # a package's __init__ re-exporting its modules is not a cycle of logic
    g.remove_edges_from([(a, b) for a, b in list(g.edges) if b.startswith(a + ".")])
    cycles = list(nx.simple_cycles(g))
    assert not cycles, cycles[:5]

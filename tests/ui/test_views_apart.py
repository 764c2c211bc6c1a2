"""docs/architecture.md: "views never import each other". A panel (a module the registry builds a dock from)
imports no other panel's module, not even inside a function; what one panel changes reaches the others through
the state. Its parts (a painter inside the Model panel, the tabs of Interventions) are its own modules."""

from __future__ import annotations

import ast
from pathlib import Path

from explorer.ui.views.registry import view_specs

ROOT = Path(__file__).resolve().parents[2]


def panels() -> dict[str, Path]:
    """module name → file, for every panel the window builds."""
    out = {}
    for spec in view_specs():
        module = spec.factory.split(":")[0]
        out[module] = ROOT / (module.replace(".", "/") + ".py")
    return out


def imported(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def test_every_panel_is_read():
    found = panels()
    assert (
        "explorer.ui.views.tensor.tensor_view" in found
        and len(found) >= 10
        and all(p.is_file() for p in found.values())
    )


def test_no_panel_imports_another_panel():
    found = panels()
    crossing = [f"{a} imports {b}" for a, path in found.items() for b in found if b != a and b in imported(path)]
    assert not crossing, crossing

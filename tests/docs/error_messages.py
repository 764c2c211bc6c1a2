"""Every message a user can meet, read from the source: each ``raise <ExplorerError subclass>(<message>)``
in explorer/ with its message as a skeleton (placeholders as {…}). Used by test_errors_doc.py; run it as a
script to list them (when writing docs/errors.md)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BASE = {
    "ExplorerError",
    "ConfigError",
    "MemoryBudgetError",
    "InputError",
    "SnapshotError",
    "ModelLoadError",
    "Cancelled",
}
VIA_CALLER = {"error", "fail"}  # reading.py's error=…, schema.Where.fail: the caller's ExplorerError class
MIN_FRAGMENT = 8  # shorter literal pieces (": ", " is ") say nothing on their own


@dataclass(frozen=True)
class Raised:
    error: str
    message: str  # literal text with {…} for each placeholder ("" when the message is built elsewhere)
    where: str

    @property
    def fragments(self) -> list[str]:
        return [p.strip() for p in self.message.split("{…}") if len(p.strip()) >= MIN_FRAGMENT]


@cache
def _parsed(path: Path) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf-8"))


def error_classes(files: list[Path]) -> set[str]:
    names = set(BASE)
    changed = True
    while changed:  # subclasses of subclasses (TrainingDiverged(ExplorerError), …)
        changed = False
        for f in files:
            for node in ast.walk(_parsed(f)):
                if isinstance(node, ast.ClassDef) and node.name not in names:
                    if any(isinstance(b, ast.Name) and b.id in names for b in node.bases):
                        names.add(node.name)
                        changed = True
    return names


def skeleton(node: ast.AST) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{…}" for v in node.values)
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "format":  # translate("Ctx", "text {x}").format(...)
            return re.sub(r"\{\w*\}", "{…}", skeleton(func.value))
        if isinstance(func, ast.Attribute) and func.attr in ("translate", "tr") and node.args:
            return skeleton(node.args[-1])
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return skeleton(node.left) + skeleton(node.right)
    return "{…}"


def raised_messages() -> list[Raised]:
    files = sorted((ROOT / "explorer").rglob("*.py"))
    classes = error_classes(files)
    out = []
    for f in files:
        for node in ast.walk(_parsed(f)):
            # Every error built, raised or returned: ``raise ModelLoadError(…)``, ``return SnapshotError(…)``
            # (a helper that builds one), and the file readers' ``raise error(…)`` / ``raise where.fail(…)``,
            # which raise the caller's error class (explorer/util/reading.py, explorer/util/schema.py).
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name in classes or name in VIA_CALLER:
                message = skeleton(node.args[0]) if node.args else ""
                out.append(Raised(name, message, f"{f.relative_to(ROOT)}:{node.lineno}"))
    return out


if __name__ == "__main__":
    for r in raised_messages():
        print(f"{r.where:45} {r.error:18} {r.message}")

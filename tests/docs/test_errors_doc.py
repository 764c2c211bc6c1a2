"""docs/errors.md stays true: every message raised in explorer/ (and every notice a trace can carry) is
listed there, and every ExplorerError subclass is named.

Messages are read from the source (tests/docs/error_messages.py): each literal piece of a message (the
text between its placeholders) of 8 characters or more must appear verbatim in the page.
"""

from __future__ import annotations

import ast
import inspect

import pytest
from error_messages import MIN_FRAGMENT, ROOT, error_classes, raised_messages

DOC = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")


def test_the_source_is_read():
    found = raised_messages()
    assert len(found) > 150  # a broken reader would find nothing and pass everything below
    assert any("there is no text to trace" in r.message for r in found)
    assert any(r.error == "TrainingDiverged" for r in found)


@pytest.mark.parametrize("raised", raised_messages(), ids=lambda r: r.where)
def test_every_raised_message_is_documented(raised):
    missing = [f for f in raised.fragments if f not in DOC]
    assert not missing, f"{raised.where}: {raised.error}({raised.message!r}) is not in docs/errors.md: {missing}"


def test_every_error_kind_is_named():
    classes = error_classes(sorted((ROOT / "explorer").rglob("*.py")))
    assert {
        "InputError",
        "ConfigError",
        "MemoryBudgetError",
        "SnapshotError",
        "ModelLoadError",
        "Cancelled",
        "TrainingDiverged",
    } <= classes
    for name in classes - {"ExplorerError"}:
        assert f"`{name}`" in DOC, name


def _strings(node: ast.AST) -> list[str]:
    """Literal pieces of the strings in an expression (f-strings split at their placeholders)."""
    out = []
    for n in ast.walk(node):
        if isinstance(n, ast.JoinedStr):
            out += [v.value for v in n.values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
        elif isinstance(n, ast.Constant) and isinstance(n.value, str):
            out.append(n.value)
    return out


def test_every_notice_is_documented():
    """Notices are not errors, but a user meets them just the same."""
    from explorer.model import mask
    from explorer.trace import run
    from explorer.util import devices
    from explorer.util.fileio import describe_os_error

    pieces: list[str] = []
    tree = ast.parse(inspect.getsource(run))
    for node in ast.walk(tree):  # notices.append(...) in run_trace and limit_text
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "append":
            if isinstance(node.func.value, ast.Name) and node.func.value.id == "notices":
                pieces += _strings(node.args[0])
    for fn in (mask.mask_notices, devices.resolve_device, describe_os_error):
        for node in ast.walk(ast.parse(inspect.getsource(fn))):
            if isinstance(node, ast.Return) and node.value is not None:
                pieces += _strings(node.value)
    fragments = {p.strip() for p in pieces if len(p.strip()) >= MIN_FRAGMENT}
    assert len(fragments) > 15
    missing = sorted(f for f in fragments if f not in DOC)
    assert not missing, f"notices missing from docs/errors.md: {missing}"


def test_the_documented_limits_are_the_codes():
    from explorer import config

    assert f"{config.MAX_TEXT_CHARS:,}" in DOC and f"| {config.MAX_SENTENCES} |" in DOC
    assert f"{config.MAX_TRACE_TOKENS:,}" in DOC
    assert f"{config.DEFAULT_MEMORY_BUDGET_BYTES // 1024**3} GiB" in DOC

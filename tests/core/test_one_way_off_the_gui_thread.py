"""Issue 37: one way to work off the GUI thread. The code base has exactly one QThread subclass (the job
runner's Job, explorer/ui/background/jobs.py), no QRunnable or thread pool beside it, and starts no thread per call: the
one ``threading.Thread(`` is the tokenizer guard's reusable helper (explorer/tokenize/guard.py). Read from
the source (an AST scan), so it holds for code no test runs; the scan is shown to catch a planted file."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

EXPLORER = Path(__file__).resolve().parents[2] / "explorer"

# The one place a Python thread is made: a helper that lives on and serves call after call.
THREAD_MADE_IN = {("tokenize/guard.py", "_Helper.__init__")}
QT_THREAD_NAMES = {"QThread", "QRunnable", "QThreadPool"}


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _where(tree: ast.Module) -> dict[ast.AST, str]:
    """Each node's enclosing ``Class.function`` (or function) name."""
    owner: dict[ast.AST, str] = {}

    def visit(node: ast.AST, name: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = name
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                inner = f"{name}.{child.name}" if name else child.name
            owner[child] = inner
            visit(child, inner)

    visit(tree, "")
    return owner


def scan(root: Path) -> tuple[list[str], list[str], list[str]]:
    """(QThread subclasses, uses of QRunnable / QThreadPool, places a threading.Thread is made) under root."""
    subclasses, pools, threads = [], [], []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        owner = _where(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(_name(b) == "QThread" for b in node.bases):
                subclasses.append(f"{rel}:{node.name}")
            elif isinstance(node, ast.Name | ast.Attribute | ast.alias) and (
                _name(node) or getattr(node, "name", "")
            ) in QT_THREAD_NAMES - {"QThread"}:
                pools.append(f"{rel}:{node.lineno}")  # imported or used at all
            elif isinstance(node, ast.Call) and _name(node.func) in (
                "Thread",
                "start_new_thread",
                "ThreadPoolExecutor",
            ):
                threads.append((rel, owner.get(node, "")))
    return subclasses, pools, threads


def test_one_qthread_subclass_and_no_thread_per_call():
    subclasses, pools, threads = scan(EXPLORER)
    assert subclasses == ["ui/background/jobs.py:Job"]
    assert pools == []
    assert set(threads) == THREAD_MADE_IN, threads


def test_the_scan_catches_a_second_qthread_and_a_thread_per_call(tmp_path):
    tree = tmp_path / "explorer"
    shutil.copytree(EXPLORER, tree, ignore=shutil.ignore_patterns("__pycache__", "resources"))
    (tree / "ui" / "planted.py").write_text(
        "import threading\n"
        "from PySide6.QtCore import QThread, QThreadPool\n\n\n"
        "class Second(QThread):\n    pass\n\n\n"
        "def per_call(fn):\n    threading.Thread(target=fn).start()\n    QThreadPool.globalInstance()\n",
        encoding="utf-8",
    )
    subclasses, pools, threads = scan(tree)
    assert subclasses == ["ui/background/jobs.py:Job", "ui/planted.py:Second"]
    assert pools == ["ui/planted.py:2", "ui/planted.py:11"]
    assert ("ui/planted.py", "per_call") in threads

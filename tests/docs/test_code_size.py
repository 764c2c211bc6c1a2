"""Small files with one purpose (issue 14): no file of explorer/ over 400 lines, no function over 60.

The allow-lists name what is still over while a branch splits it; they are empty since issue 37 split the
last files and functions the formatting had pushed over. They only shrink: an entry that is back within its
limit fails the test until it is removed, so the lists cannot go stale, and a new long file or function
fails at once.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 60

# path -> why it may still be long (being split on a branch)
LONG_FILES: dict[str, str] = {}

# "path:function" -> why it may still be long
LONG_FUNCTIONS: dict[str, str] = {}


def _sources(root: Path = ROOT) -> list[Path]:
    return sorted(p for p in (root / "explorer").rglob("*.py") if "__pycache__" not in p.parts)


def long_files(root: Path = ROOT) -> dict[str, int]:
    out = {}
    for p in _sources(root):
        n = len(p.read_text(encoding="utf-8").splitlines())
        if n > MAX_FILE_LINES:
            out[p.relative_to(root).as_posix()] = n
    return out


def long_functions(root: Path = ROOT) -> dict[str, int]:
    """Every function and method (nested ones too) by "path:name", with its lines, decorators excluded."""
    out: dict[str, int] = {}
    for p in _sources(root):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > MAX_FUNCTION_LINES:
                    key = f"{p.relative_to(root).as_posix()}:{node.name}"
                    out[key] = max(n, out.get(key, 0))
    return out


def test_the_measures_count_lines(tmp_path):
    # a reader that found nothing would pass everything below: measure files whose lengths are known
    pkg = tmp_path / "explorer" / "sub"
    pkg.mkdir(parents=True)
    body = "\n".join(f"    x{i} = {i}" for i in range(59))
    (pkg / "short.py").write_text(f"def fits():\n{body}\n    return 0\n")  # 61 lines with the def: over
    method = body.replace("    ", "        ")
    (pkg / "inner.py").write_text(f"class A:\n    def m(self):\n{method}\n\n\ndef ok():\n    pass\n")  # m: 60, fits
    (pkg / "long.py").write_text("\n" * 400 + "x = 1\n")
    assert long_functions(tmp_path) == {"explorer/sub/short.py:fits": 61}
    assert long_files(tmp_path) == {"explorer/sub/long.py": 401}
    assert len(_sources()) > 150  # and the real tree is read


def test_no_new_file_over_400_lines():
    new = {p: n for p, n in long_files().items() if p not in LONG_FILES}
    assert not new, f"files over {MAX_FILE_LINES} lines: split them by purpose: {new}"


def test_no_new_function_over_60_lines():
    new = {f: n for f, n in long_functions().items() if f not in LONG_FUNCTIONS}
    assert not new, f"functions over {MAX_FUNCTION_LINES} lines: split them: {new}"


def test_the_allow_lists_only_name_what_is_still_long():
    files, functions = long_files(), long_functions()
    stale = sorted(p for p in LONG_FILES if p not in files) + sorted(f for f in LONG_FUNCTIONS if f not in functions)
    assert not stale, f"within the limits now: remove from the allow-lists in {Path(__file__).name}: {stale}"

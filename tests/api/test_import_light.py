"""``import explorer`` is light (issue 41): in a fresh interpreter it imports neither torch, numpy nor Qt, and a
trace imports torch but never PySide6; the public names are there, listed and lazily loaded, and
``explorer.trace`` stays the API's function after the core's subpackage of the same name has loaded."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = {"trace", "open", "generate", "attribute", "models", "TraceResult", "Figure", "Error", "__version__"}


def fresh(code: str) -> dict:
    """Run ``code`` in a new interpreter on this tree; it prints one JSON object."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300, check=False
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_import_explorer_loads_no_torch_no_numpy_no_qt_and_lists_the_api():
    out = fresh(
        "import sys, json, explorer\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'numpy', 'PySide6', 'shiboken6'))\n"
        "print(json.dumps({'heavy': heavy, 'api': 'explorer.api' in sys.modules, 'dir': dir(explorer),\n"
        "                  'all': explorer.__all__}))"
    )
    assert out["heavy"] == []
    assert out["api"] is False  # not even the API's own modules until a name is asked for
    assert PUBLIC <= set(out["dir"]) and PUBLIC <= set(out["all"])


def test_a_trace_loads_torch_but_never_pyside6_and_trace_stays_the_function():
    out = fresh(
        "import sys, json, types, explorer\n"
        "t = explorer.trace('This is a pen .', preset='seed-toy')\n"
        "from explorer.trace import run_trace\n"
        "print(json.dumps({'qt': sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6')),\n"
        "    'torch': 'torch' in sys.modules, 'function': isinstance(explorer.trace, types.FunctionType),\n"
        "    'again': type(explorer.trace('a pen', preset='seed-toy')).__name__,\n"
        "    'subpackage': sys.modules['explorer.trace'].__name__, 'run_trace': run_trace.__module__,\n"
        "    'error': explorer.Error.__module__ + '.' + explorer.Error.__name__, 'tokens': t.tokens}))"
    )
    assert out["qt"] == []
    assert out["torch"] is True  # the trace really ran the model
    assert out["function"] is True and out["again"] == "TraceResult"
    assert out["subpackage"] == "explorer.trace" and out["run_trace"] == "explorer.trace.run"
    assert out["error"] == "explorer.errors.ExplorerError"
    assert out["tokens"] == ["This", "is", "a", "pen", "."]


def test_an_unknown_name_is_an_attribute_error():
    import explorer

    try:
        explorer.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("explorer.no_such_name did not raise")


def test_no_module_imports_the_trace_subpackage_through_the_attribute():
    """``import explorer.trace.run as r`` reads explorer.trace, the API's function: it must be written
    ``from explorer.trace import run``. The tree is kept free of the first form."""
    import re

    pattern = re.compile(r"^\s*import\s+explorer\.trace(\.\w+)*\s+as\s", re.MULTILINE)
    found = [
        str(path.relative_to(ROOT))
        for folder in ("explorer", "tests", "packaging")
        for path in (ROOT / folder).rglob("*.py")
        if pattern.search(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert found == []
    assert pattern.search("import explorer.trace.run as r") and not pattern.search("from explorer.trace import run")

"""PySide6's question after every import, answered from the file's bytes.

Once PySide6.QtCore is imported, PySide6 asks of every module imported afterwards (and of every module
already imported) whether its source mentions "PySide6", to support its opt-in ``from __feature__ import
snake_case``. It asks with ``inspect.getsource``: the whole file decoded, split into lines and kept in
linecache for the life of the process. For the app's 300 modules and the 1,000 that torch brings, that was
0.48 s of a 3 s start (0.24 s more than a process that only imports the libraries; napari's users met the
same tax). The answer here is the same ("PySide6" in the file), read as bytes; anything but a plain ``.py``
file goes to PySide6's own check. Installed before PySide6.QtCore is imported (explorer/ui/__init__.py), so
that its first pass over the modules already loaded is the quick one too.
"""

from __future__ import annotations

import sys


def install() -> bool:
    """Replace PySide6's per-module check by the quick one; False when this PySide6 has no such check."""
    try:
        import shiboken6  # noqa: F401  # loads shibokensupport.feature, which holds the check
    except ImportError:
        return False
    feature = sys.modules.get("shibokensupport.feature")
    original = getattr(feature, "_mod_uses_pyside", None)
    if original is None or getattr(original, "reads_bytes", False):
        return original is not None
    feature._mod_uses_pyside = _quick_check(original)
    return True


def _quick_check(original):
    def _mod_uses_pyside(module) -> bool:
        path = getattr(module, "__file__", None)
        if not isinstance(path, str) or not path.endswith(".py"):
            return original(module)  # a built-in, an extension, a module read from a zip: PySide6 decides
        try:
            with open(path, "rb") as source:
                return b"PySide6" in source.read()
        except OSError:
            return original(module)

    _mod_uses_pyside.reads_bytes = True
    _mod_uses_pyside.original = original  # kept for the test that compares the two answers
    return _mod_uses_pyside

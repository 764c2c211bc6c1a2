"""Qt made unimportable for a while, in this process: the core's and the headless CLI's tests run inside it
(tests/conftest.py), so that a Qt import anywhere on their path fails the test that reaches it.

pytest-qt imports PySide6 when the session starts, and a ui test run earlier in the same worker leaves it
imported; so the Qt modules already loaded are hidden from ``sys.modules`` (and put back afterwards) besides
a finder that refuses to import them again.
"""

from __future__ import annotations

import importlib.abc
import sys
from collections.abc import Iterator
from contextlib import contextmanager

QT_PACKAGES = ("PySide6", "shiboken6", "pyqtgraph")


def is_qt(name: str) -> bool:
    return name.partition(".")[0] in QT_PACKAGES


class QtBlocked(ImportError):
    pass


class _NoQt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if is_qt(name):
            raise QtBlocked(f"{name} is blocked: the core and the headless CLI must not need Qt")
        return None


@contextmanager
def qt_unimportable() -> Iterator[None]:
    hidden = {name: sys.modules.pop(name) for name in [n for n in sys.modules if is_qt(n)]}
    finder = _NoQt()
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
        for name, module in hidden.items():
            sys.modules.setdefault(name, module)

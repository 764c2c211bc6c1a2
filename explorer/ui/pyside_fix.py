"""Work around a reference-count bug of PySide6 6.12 on Python < 3.12.

Every QGraphicsItem change that goes through ``itemChange`` (setPos, setVisible, setZValue, setRect…)
drops one reference to ``None`` that it never took. pyqtgraph makes hundreds of such changes per redraw,
so after a few dozen clicks None's count reaches 0 and CPython aborts ("none_dealloc: deallocating None").
Six lines reproduce it without pyqtgraph::

    r = QGraphicsRectItem()
    before = sys.getrefcount(None)
    for _ in range(1000):
        r.setZValue(1)
    assert sys.getrefcount(None) == before - 1000  # PySide6 6.12.0, Python 3.11.7

``True`` loses references the same way on other paths (about 90 per redraw of the tensor view).

Python 3.12 made these singletons immortal (PEP 683), so there the lost references are harmless. Before
3.12 we give None, True and False a reserve of references they can never exhaust, once, before any
window exists. Remove this module when
the bug is fixed upstream or the project requires Python ≥ 3.12.
"""

from __future__ import annotations

import ctypes
import sys

_RESERVE = 1 << 40  # a trillion lost references: centuries of redraws
_done = False


def protect_none() -> None:
    global _done
    if _done or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    # ob_refcnt is the first field of every CPython object (Py_ssize_t); these live for the whole process
    for singleton in (None, True, False):
        ctypes.c_ssize_t.from_address(id(singleton)).value += _RESERVE
    _done = True

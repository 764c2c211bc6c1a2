"""The main window's views by name, some of them built only when first needed.

Building a panel with pyqtgraph plots takes tens of milliseconds each; the panels behind another tab at
start (Scaling, Parameters, Tensors, Train) are not on screen, so the window shows without them and builds
them when their tab is shown, when code asks for them, or soon after the first trace is painted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from explorer.ui.views.base import View


class LazyViews(Mapping[str, View]):
    def __init__(self, build: Callable[[str, Any], View]) -> None:
        self._build = build
        self._views: dict[str, View] = {}
        self._pending: dict[str, Any] = {}  # name → what to build it from, in the window's order
        self._order: list[str] = []

    def put(self, name: str, view: View) -> None:
        self._views[name] = view
        self._order.append(name)

    def defer(self, name: str, spec: Any) -> None:
        self._pending[name] = spec
        self._order.append(name)

    def __getitem__(self, name: str) -> View:
        if name not in self._views:
            spec = self._pending.pop(name)  # KeyError for a name that is not a view
            self._views[name] = self._build(name, spec)
        return self._views[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._order)

    def pending(self) -> int:
        return len(self._pending)

    def built(self) -> list[View]:
        """The views that exist now (closing the window must not build the others)."""
        return [self._views[n] for n in self._order if n in self._views]

    def build_all(self) -> None:
        for name in list(self._pending):
            self[name]

    def build_next(self) -> bool:
        """Build the first pending view; True while others are left."""
        for name in list(self._pending)[:1]:
            self[name]
        return bool(self._pending)

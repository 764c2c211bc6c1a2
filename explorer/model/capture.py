"""Named capture points, in the spirit of TransformerLens' HookPoints.

Every module that shows an intermediate tensor derives from ``Captured`` and calls
``self.capture("q", q)``. The full name is the module's path in the model plus the stage, so the
attention of layer 1 capturing "q" yields ``layers.1.attn.q``: exactly the public name in
``explorer.names``. Outside a trace no sink is attached and capturing costs one attribute lookup.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import torch
from torch import nn


class CaptureSink:
    """Collects captured tensors; ``wants`` decides which names are kept (layers, lazy maps)."""

    def __init__(self, wants: Callable[[str], bool] | None = None) -> None:
        self._wants = wants
        self.tensors: dict[str, torch.Tensor] = {}

    def wants(self, name: str) -> bool:
        return self._wants is None or self._wants(name)

    def put(self, name: str, tensor: torch.Tensor) -> None:
        if self.wants(name):
            self.tensors[name] = tensor.detach()


class Captured(nn.Module):
    """A module that can hand its intermediate tensors to the active sink under its public names."""

    _prefix: str = ""
    _sink: CaptureSink | None = None

    def _full(self, stage: str) -> str:
        return f"{self._prefix}.{stage}" if self._prefix else stage

    def capture(self, stage: str, tensor: torch.Tensor) -> torch.Tensor:
        if self._sink is not None:
            self._sink.put(self._full(stage), tensor)
        return tensor

    def wants(self, stage: str) -> bool:
        """True when a trace keeps this stage (so it must be computed explicitly)."""
        return self._sink is not None and self._sink.wants(self._full(stage))


def assign_prefixes(root: nn.Module) -> None:
    """Give every Captured module its dotted path, which becomes the prefix of its names."""
    for path, module in root.named_modules():
        if isinstance(module, Captured):
            module._prefix = path


@contextmanager
def capturing(root: nn.Module, sink: CaptureSink) -> Iterator[CaptureSink]:
    modules = [m for m in root.modules() if isinstance(m, Captured)]
    for m in modules:
        m._sink = sink
    try:
        yield sink
    finally:
        for m in modules:
            m._sink = None

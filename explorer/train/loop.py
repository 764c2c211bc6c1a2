"""The training loop: AdamW, warmup + cosine schedule, gradient clipping, held-out loss, checkpoints.

No Qt here. A GUI worker thread drives it like this:

    trainer = Trainer(get_corpus("induction"), preset_config("induction"), TrainSettings(steps=3000),
                      run_dir=folder)
    cancel = threading.Event()           # the Cancel button sets it; checked before every step
    result = trainer.run(callback=on_progress, cancel=cancel)   # on the worker thread
    # on_progress(p: TrainProgress) is called after every step (p.heldout_loss is set on eval steps,
    # p.checkpoint when a checkpoint folder was written at that step). trainer.snapshot() gives a copy of
    # the current weights as a ModelBundle at any time; list_checkpoints(folder) lists the saved ones.

Checkpoints are folders ``run_dir/step-000500`` written atomically, so a cancelled or killed run keeps
every checkpoint it completed. ``run_dir/log.jsonl`` holds one line per evaluation, to redraw the curves.
``run_dir/run.json`` (explorer.train.runs) is written first and marks the folder as a run of this app: a folder
that is not empty and has none is refused, and a run replaces or prunes only checkpoints it wrote itself.
"""

from __future__ import annotations

import copy
import json
import math
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from explorer import __version__
from explorer.config import ModelConfig, check_seed, check_training_memory
from explorer.util.devices import resolve_device
from explorer.errors import ConfigError, ExplorerError, SnapshotError
from explorer.util.fileio import describe_os_error
from explorer.train.runs import LOG_FILE, checkpoint_name, claim_run_dir, list_checkpoints, read_log, read_run_manifest, write_run_manifest
from explorer.model import Transformer
from explorer.train.corpora import IGNORE, Batch, Corpus
from explorer.train.optim import AdamW
from explorer.weights.bundle import ModelBundle
from explorer.weights.checkpoint import save_checkpoint
from explorer.weights.init import init_params

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
        if self.threads is not None and (isinstance(self.threads, bool) or not isinstance(self.threads, int) or self.threads < 1):
            # torch.set_num_threads(-1) raised a RuntimeError (a traceback) at the start of the run
            raise ConfigError(f"threads must be a whole number ≥ 1, got {self.threads!r}")
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


# ------------------------------------------------------------------------------------------ utilities


def default_threads(config: ModelConfig | None = None) -> int:
    """One thread for small models (their matrices are too small to split, and a second thread that has to
    wait for a busy core slows every step down many times); up to 4 for bigger ones."""
    if config is not None and config.parameter_count() < 2_000_000:
        return 1
    return max(1, min(4, os.cpu_count() or 1))


def token_losses(model: torch.nn.Module, batch: Batch) -> tuple[torch.Tensor, torch.Tensor]:
    """(logits (B, C, V), log-probability of each target (B, C), 0 where ignored)."""
    logits = model(batch.ids)  # (B, C, V); causal mask: right padding is never seen by real positions
    logp = F.log_softmax(logits.float(), dim=-1)  # (B, C, V)
    tgt = batch.targets.clamp(min=0)  # (B, C)
    lp = logp.gather(-1, tgt.unsqueeze(-1)).squeeze(-1)  # (B, C)
    return logits, lp.masked_fill(batch.targets == IGNORE, 0.0)


def batch_loss(model: torch.nn.Module, batch: Batch) -> torch.Tensor:
    """Mean cross-entropy (nats per token) over the counted targets only."""
    logits = model(batch.ids)  # (B, C, V)
    V = logits.shape[-1]
    return F.cross_entropy(logits.reshape(-1, V).float(), batch.targets.reshape(-1), ignore_index=IGNORE)


def context_for(corpus: Corpus, config: ModelConfig, requested: int | None) -> int:
    """The row length to train and evaluate with: requested, or the corpus default, within the model's reach."""
    context = requested or corpus.default_context
    if config.positions == "learned" and context > config.max_positions:
        if requested is not None:
            raise ConfigError(
                f"--context {requested} is longer than the model's {config.max_positions} learned positions; "
                "lower it or raise max positions"
            )
        context = config.max_positions
    return context


@torch.inference_mode()
def evaluate(
    model: torch.nn.Module,
    corpus: Corpus,
    context: int,
    answer_only: bool | None = None,
    batches: list[Batch] | None = None,
    device: str = "cpu",
) -> dict[str, float]:
    """Held-out cross-entropy (nats/token) and, for tasks, accuracy on the answer part.

    ``accuracy``: share of answer tokens that are the most likely next token; ``correct_prob``: mean
    probability given to the right answer token; ``exact_match``: share of sequences whose whole answer is
    right (all under teacher forcing). For ``induction`` the answer part is the predictable repeated half.
    """
    was_training = model.training
    model.eval()
    if batches is None:
        batches = corpus.heldout_batches(context, answer_only)
    nll, count = 0.0, 0
    correct = prob = answered = 0.0
    exact = rows_with_answer = 0
    try:
        for b in batches:
            b = b.to(device)
            logits, lp = token_losses(model, b)
            counted = b.targets != IGNORE
            nll -= float(lp[counted].sum())
            count += int(counted.sum())
            if corpus.is_task:
                ans = b.answer  # (B, C)
                # The answer targets are counted even when the loss is not answer-only.
                tgt = b.ids.roll(-1, dims=1)  # (B, C): ids[t+1] at t (the last column is never an answer)
                right = (logits.argmax(-1) == tgt) & ans
                logp = F.log_softmax(logits.float(), dim=-1).gather(-1, tgt.unsqueeze(-1)).squeeze(-1)
                correct += float(right.sum())
                prob += float(logp.exp()[ans].sum())
                answered += float(ans.sum())
                has = ans.any(dim=1)
                exact += int(((right | ~ans).all(dim=1) & has).sum())
                rows_with_answer += int(has.sum())
    finally:
        model.train(was_training)
    out = {"heldout_loss": nll / max(1, count), "tokens": count}
    if corpus.is_task and answered:
        out.update(
            accuracy=correct / answered,
            correct_prob=prob / answered,
            exact_match=exact / max(1, rows_with_answer),
        )
    return out


# ------------------------------------------------------------------------------------------------ Trainer


class Trainer:
    """Owns one model and trains it on one corpus. Safe to run on a worker thread."""

    def __init__(
        self,
        corpus: Corpus,
        config: ModelConfig,
        settings: TrainSettings | None = None,
        run_dir: str | Path | None = None,
        init: ModelBundle | torch.nn.Module | None = None,
        command: str | None = None,
    ) -> None:
        self.corpus = corpus
        self.settings = settings or TrainSettings()
        tok = corpus.tokenizer
        if config.vocab_size != tok.vocab_size:
            config = config.replace(vocab_size=tok.vocab_size)
        if config.family != "explorer":
            raise ConfigError("only this app's own models can be trained here")
        self.config = config
        self.context = context_for(corpus, config, self.settings.context)
        self.answer_only = corpus.answer_only_default if self.settings.answer_only is None else self.settings.answer_only
        self.device, self.device_notice = resolve_device(self.settings.device)
        self.run_dir = Path(run_dir) if run_dir is not None else None
        self.command = command
        check_training_memory(config, self.settings.batch_size, self.context)
        self.model = Transformer(config)
        if init is not None:
            src = init.model if isinstance(init, ModelBundle) else init
            try:
                self.model.load_state_dict(src.state_dict())
            except RuntimeError:
                raise ConfigError("the starting weights do not fit this configuration (different sizes or vocabulary)") from None
        else:
            init_params(self.model, self.settings.seed)
        self.model.to(self.device)
        self.step = 0
        self._lock = threading.Lock()  # held while the weights change; snapshot() takes it
        self._heldout: list[Batch] | None = None
        self._claimed = False  # run_dir checked and its run.json written (on the first run())
        self._written: list[Path] = []  # checkpoint folders this trainer wrote, oldest first

    # ---------------------------------------------------------------- for the window
    def snapshot(self) -> ModelBundle:
        """A copy of the current weights (float32, CPU) as a bundle, safe to trace while training goes on."""
        with self._lock:
            model = copy.deepcopy(self.model).to("cpu").eval()
            step = self.step
        return ModelBundle(self.config, self.corpus.tokenizer, model, f"training:{self.corpus.name}@{step}", self.settings.seed, name=f"step {step}")

    def heldout_batches(self) -> list[Batch]:
        if self._heldout is None:
            self._heldout = self.corpus.heldout_batches(self.context, self.answer_only)
        return self._heldout

    def evaluate(self) -> dict[str, float]:
        return evaluate(self.model, self.corpus, self.context, self.answer_only, self.heldout_batches(), self.device)

    # ---------------------------------------------------------------- checkpoints
    def _train_meta(self, loss: float | None, heldout: float | None, elapsed: float, tokens: int) -> dict[str, Any]:
        return {
            "corpus": self.corpus.spec(),
            "settings": self.settings.to_dict(),
            "seed": self.settings.seed,
            "context": self.context,
            "answer_only": self.answer_only,
            "loss": loss,
            "heldout_loss": heldout,
            "elapsed_s": round(elapsed, 3),
            "tokens_seen": tokens,
            "torch": torch.__version__,
            "app_version": __version__,
            **({"command": self.command} if self.command else {}),
        }

    def save(self, folder: str | Path, loss: float | None = None, heldout: float | None = None, elapsed: float = 0.0, tokens: int = 0, extra_files: dict[str, str] | None = None) -> Path:
        with self._lock:
            return save_checkpoint(
                self.model,
                folder,
                config=self.config,
                tokenizer=self.corpus.tokenizer,
                step=self.step,
                train=self._train_meta(loss, heldout, elapsed, tokens),
                extra_files=extra_files,
            )

    def _claim_run_dir(self) -> None:
        """Before the first write: the run folder must be new, empty or an empty run of this app (explorer.train.runs);
        its run.json says so to every later reader (and to a later run pointed at the same folder)."""
        if self.run_dir is None or self._claimed:
            return
        claim_run_dir(self.run_dir, corpus=self.corpus.spec(), config=self.config.to_dict(),
                      **({"command": self.command} if self.command else {}))
        self._claimed = True

    def _checkpoint(self, loss, heldout, elapsed, tokens) -> Path | None:
        if self.run_dir is None:
            return None
        self._claim_run_dir()
        target = self.run_dir / checkpoint_name(self.step)
        if os.path.lexists(target) and target not in self._written:
            # Put there while the run went on: not ours to replace.
            raise SnapshotError(f"cannot write {target}: something this run did not write is in its place")
        path = self.save(target, loss, heldout, elapsed, tokens)
        if path in self._written:
            self._written.remove(path)
        self._written.append(path)
        keep = self.settings.keep_checkpoints
        if keep is not None and keep > 0:
            import shutil

            periodic = [p for p in self._written if p.name != checkpoint_name(0)]  # the random start stays
            for old in periodic[: max(0, len(periodic) - keep)]:
                shutil.rmtree(old, ignore_errors=True)
                self._written.remove(old)
        self._update_manifest()
        return path

    def _update_manifest(self) -> None:
        """run.json lists the checkpoints, newest last, for whoever opens the run folder as a model."""
        meta = {k: v for k, v in (read_run_manifest(self.run_dir) or {}).items() if k not in ("format", "version", "app_version")}
        meta.update(checkpoints=[p.name for p in self._written], latest=self._written[-1].name if self._written else None, step=self.step)
        write_run_manifest(self.run_dir, meta)

    def _log(self, row: dict[str, Any]) -> None:
        if self.run_dir is None:
            return
        self._claim_run_dir()  # the log is appended to only in a run folder this app made
        try:
            with open(self.run_dir / LOG_FILE, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(row) + "\n")
        except OSError as exc:  # an unwritable --out or a full disk: one line, not a traceback
            raise SnapshotError(describe_os_error(exc, self.run_dir if not self.run_dir.is_dir() else self.run_dir / LOG_FILE)) from None

    # ---------------------------------------------------------------- the loop
    def run(
        self,
        callback: Callable[[TrainProgress], None] | None = None,
        cancel: threading.Event | None = None,
    ) -> TrainResult:
        s = self.settings
        threads_before = torch.get_num_threads()
        torch.set_num_threads(s.threads or default_threads(self.config))
        try:
            return self._run(callback, cancel)
        finally:
            torch.set_num_threads(threads_before)

    def _optimizer(self) -> AdamW:
        s = self.settings
        decay = [p for n, p in self.model.named_parameters() if p.ndim >= 2]
        no_decay = [p for n, p in self.model.named_parameters() if p.ndim < 2]
        groups = [{"params": decay, "weight_decay": s.weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
        return AdamW(groups, lr=s.lr, betas=s.betas)

    def _run(self, callback, cancel) -> TrainResult:
        s = self.settings
        model = self.model
        model.train()
        opt = self._optimizer()
        batches = self.corpus.train_batches(s.batch_size, self.context, s.seed, self.answer_only)
        start = time.perf_counter()
        cpu_start = time.process_time()
        window: deque[tuple[int, float]] = deque(maxlen=20)  # (tokens, seconds) of the last steps
        recent_losses: deque[float] = deque(maxlen=50)
        history: list[dict[str, Any]] = []
        tokens_seen = 0
        heldout: float | None = None
        metrics: dict[str, float] = {}
        last_ckpt: Path | None = None
        last_ckpt_step = -1
        cancelled = False

        def tps() -> float:
            t = sum(x[1] for x in window)
            return sum(x[0] for x in window) / t if t > 0 else 0.0

        def evaluate_now(loss: float | None) -> None:
            nonlocal heldout, metrics
            ev = self.evaluate()
            heldout = ev["heldout_loss"]
            metrics = {k: v for k, v in ev.items() if k not in ("heldout_loss", "tokens")}
            row = {"step": self.step, "loss": loss, "heldout_loss": heldout, "tokens_per_s": round(tps(), 1),
                   "elapsed_s": round(time.perf_counter() - start, 3), **metrics}
            history.append(row)
            self._log(row)

        # Step 0: the untrained model, so curves and the checkpoint timeline start at random weights.
        evaluate_now(None)
        ckpt0 = None
        if s.checkpoint_every > 0:
            ckpt0 = last_ckpt = self._checkpoint(None, heldout, 0.0, 0)
            last_ckpt_step = 0
        if callback is not None:
            callback(TrainProgress(0, s.steps, None, heldout, 0.0, s.lr_at(0), 0.0, ckpt0, dict(metrics)))

        loss_value: float | None = None
        while self.step < s.steps:
            if cancel is not None and cancel.is_set():
                cancelled = True
                break
            t0 = time.perf_counter()
            batch = next(batches).to(self.device)
            lr = s.lr_at(self.step)
            for g in opt.param_groups:
                g["lr"] = lr
            loss = batch_loss(model, batch)
            loss_value = float(loss.detach())
            if not math.isfinite(loss_value):
                raise TrainingDiverged(
                    f"training diverged at step {self.step + 1} (the loss is {loss_value}); lower the learning rate"
                    + (f"; the last good checkpoint is {last_ckpt}" if last_ckpt else "")
                )
            opt.zero_grad(set_to_none=True)
            loss.backward()
            if s.grad_clip > 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), s.grad_clip)
            with self._lock:
                opt.step()
                self.step += 1
            window.append((batch.tokens, time.perf_counter() - t0))
            tokens_seen += batch.tokens
            recent_losses.append(loss_value)

            step_heldout = None
            ckpt = None
            final = self.step == s.steps
            if (s.eval_every and self.step % s.eval_every == 0) or final:
                evaluate_now(loss_value)
                step_heldout = heldout
            if (s.checkpoint_every and self.step % s.checkpoint_every == 0) or final:
                ckpt = last_ckpt = self._checkpoint(loss_value, heldout, time.perf_counter() - start, tokens_seen)
                last_ckpt_step = self.step
            if callback is not None:
                callback(TrainProgress(self.step, s.steps, loss_value, step_heldout, tps(), lr,
                                       time.perf_counter() - start, ckpt, dict(metrics) if step_heldout is not None else {}))

        elapsed = time.perf_counter() - start
        if cancelled and s.save_on_cancel and self.step > last_ckpt_step and self.run_dir is not None:
            if not history or history[-1]["step"] != self.step:
                evaluate_now(loss_value)
            last_ckpt = self._checkpoint(loss_value, heldout, elapsed, tokens_seen)
        model.eval()
        return TrainResult(
            steps=self.step,
            total_steps=s.steps,
            cancelled=cancelled,
            loss=float(np.mean(recent_losses)) if recent_losses else None,
            heldout_loss=heldout,
            metrics=metrics,
            elapsed_s=elapsed,
            cpu_s=time.process_time() - cpu_start,
            tokens_per_s=tokens_seen / elapsed if elapsed > 0 else 0.0,
            tokens_seen=tokens_seen,
            checkpoint=last_ckpt,
            history=history,
            bundle=self.snapshot(),
        )


def train(
    corpus: Corpus,
    config: ModelConfig,
    settings: TrainSettings | None = None,
    run_dir: str | Path | None = None,
    callback: Callable[[TrainProgress], None] | None = None,
    cancel: threading.Event | None = None,
    init: ModelBundle | None = None,
) -> TrainResult:
    """Train a fresh model of ``config`` (V taken from the corpus) on ``corpus``; see Trainer."""
    return Trainer(corpus, config, settings, run_dir, init).run(callback, cancel)


__all__ = [
    "TrainSettings", "TrainProgress", "TrainResult", "Trainer", "TrainingDiverged", "train", "evaluate",
    "list_checkpoints", "read_log", "context_for", "batch_loss", "checkpoint_name",
]
